// glibc libmvec's benchmarks: the vector math functions it has (libmvec_isa.hpp), float and
// double, with the ISA of the engine in effect (peer_may_use), checked at run time. Baseline
// code; the vector code is in libmvec_<isa>.cpp.
#include <gnu/libc-version.h>

#include <cstddef>
#include <string>

#include "../harness.hpp"
#include "libmvec_isa.hpp"
#include "peers.hpp"

namespace coheriq_bench {
namespace {

#define COHERIQ_LIBMVEC_REGISTER_UNARY(name)                                         \
  add_math<float>(#name, "libmvec", [](std::size_t n, const float* x, float* y) {    \
    COHERIQ_LIBMVEC_NS::name(n, x, y);                                               \
  });                                                                                \
  add_math<double>(#name, "libmvec", [](std::size_t n, const double* x, double* y) { \
    COHERIQ_LIBMVEC_NS::name(n, x, y);                                               \
  });
#define COHERIQ_LIBMVEC_REGISTER_BINARY(name)                                                      \
  add_math2<float>(#name, "libmvec", [](std::size_t n, const float* x, const float* y, float* z) { \
    COHERIQ_LIBMVEC_NS::name(n, x, y, z);                                                          \
  });                                                                                              \
  add_math2<double>(#name, "libmvec",                                                              \
                    [](std::size_t n, const double* x, const double* y, double* z) {               \
                      COHERIQ_LIBMVEC_NS::name(n, x, y, z);                                        \
                    });

void register_avx512() {
#define COHERIQ_LIBMVEC_NS libmvec_avx512
  COHERIQ_LIBMVEC_UNARY(COHERIQ_LIBMVEC_REGISTER_UNARY)
  COHERIQ_LIBMVEC_BINARY(COHERIQ_LIBMVEC_REGISTER_BINARY)
#undef COHERIQ_LIBMVEC_NS
}
void register_avx2() {
#define COHERIQ_LIBMVEC_NS libmvec_avx2
  COHERIQ_LIBMVEC_UNARY(COHERIQ_LIBMVEC_REGISTER_UNARY)
  COHERIQ_LIBMVEC_BINARY(COHERIQ_LIBMVEC_REGISTER_BINARY)
#undef COHERIQ_LIBMVEC_NS
}

}  // namespace

PeerStatus register_libmvec() {
  const std::string version = std::string("glibc ") + gnu_get_libc_version();
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f") && peer_may_use("avx512f")) {
    register_avx512();
    return {"libmvec", true, version + ", avx512f: _ZGVeN16v_*f, _ZGVeN8v_* (4 ulp)"};
  }
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && peer_may_use("avx2")) {
    register_avx2();
    return {"libmvec", true, version + ", avx2: _ZGVdN8v_*f, _ZGVdN4v_* (4 ulp)"};
  }
  return {"libmvec", false, "the harness wraps libmvec's AVX2 and AVX-512 entry points only"};
}

}  // namespace coheriq_bench
