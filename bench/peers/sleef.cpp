// SLEEF's benchmarks: the vector math functions coheriq has (sleef_isa.hpp lists them, u10 = 1
// ulp), for float and double, with the ISA of the engine in effect (peer_may_use), checked at run
// time. Baseline code; the vector code is in sleef_<isa>.cpp.
#include <sleef.h>

#include <cstddef>
#include <string>

#include "../harness.hpp"
#include "peers.hpp"
#include "sleef_isa.hpp"

namespace coheriq_bench {
namespace {

#define COHERIQ_SLEEF_REGISTER_UNARY(name, accuracy)                               \
  add_math<float>(#name, "sleef", [](std::size_t n, const float* x, float* y) {    \
    COHERIQ_SLEEF_NS::name(n, x, y);                                               \
  });                                                                              \
  add_math<double>(#name, "sleef", [](std::size_t n, const double* x, double* y) { \
    COHERIQ_SLEEF_NS::name(n, x, y);                                               \
  });
#define COHERIQ_SLEEF_REGISTER_BINARY(name, accuracy)                                            \
  add_math2<float>(#name, "sleef", [](std::size_t n, const float* x, const float* y, float* z) { \
    COHERIQ_SLEEF_NS::name(n, x, y, z);                                                          \
  });                                                                                            \
  add_math2<double>(#name, "sleef",                                                              \
                    [](std::size_t n, const double* x, const double* y, double* z) {             \
                      COHERIQ_SLEEF_NS::name(n, x, y, z);                                        \
                    });

void register_avx512() {
#define COHERIQ_SLEEF_NS sleef_avx512
  COHERIQ_SLEEF_UNARY(COHERIQ_SLEEF_REGISTER_UNARY)
  COHERIQ_SLEEF_BINARY(COHERIQ_SLEEF_REGISTER_BINARY)
#undef COHERIQ_SLEEF_NS
}
void register_avx2() {
#define COHERIQ_SLEEF_NS sleef_avx2
  COHERIQ_SLEEF_UNARY(COHERIQ_SLEEF_REGISTER_UNARY)
  COHERIQ_SLEEF_BINARY(COHERIQ_SLEEF_REGISTER_BINARY)
#undef COHERIQ_SLEEF_NS
}
void register_sse4() {
#define COHERIQ_SLEEF_NS sleef_sse4
  COHERIQ_SLEEF_UNARY(COHERIQ_SLEEF_REGISTER_UNARY)
  COHERIQ_SLEEF_BINARY(COHERIQ_SLEEF_REGISTER_BINARY)
#undef COHERIQ_SLEEF_NS
}

}  // namespace

PeerStatus register_sleef() {
  const std::string version = std::to_string(SLEEF_VERSION_MAJOR) + "." +
                              std::to_string(SLEEF_VERSION_MINOR) + "." +
                              std::to_string(SLEEF_VERSION_PATCHLEVEL);
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f") && peer_may_use("avx512f")) {
    register_avx512();
    return {"sleef", true, version + ", avx512f: Sleef_*f16_u10avx512f, Sleef_*d8_u10avx512f"};
  }
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && peer_may_use("avx2")) {
    register_avx2();
    return {"sleef", true, version + ", avx2: Sleef_*f8_u10avx2, Sleef_*d4_u10avx2"};
  }
  if (__builtin_cpu_supports("sse4.1")) {
    register_sse4();
    return {"sleef", true, version + ", sse4.1: Sleef_*f4_u10sse4, Sleef_*d2_u10sse4"};
  }
  return {"sleef", false, "this CPU has none of avx512f, avx2+fma, sse4.1"};
}

}  // namespace coheriq_bench
