// libmvec's AVX-512 functions over arrays (compiled with -mavx512f; see libmvec_isa.hpp).
#include <immintrin.h>

#include <cstddef>

#include "libmvec_isa.hpp"

// The vector ABI entry points (glibc declares them only for the compiler's own use).
#define COHERIQ_LIBMVEC_ENTRY_UNARY(name) \
  __m512 _ZGVeN16v_##name##f(__m512);     \
  __m512d _ZGVeN8v_##name(__m512d);
#define COHERIQ_LIBMVEC_ENTRY_BINARY(name)     \
  __m512 _ZGVeN16vv_##name##f(__m512, __m512); \
  __m512d _ZGVeN8vv_##name(__m512d, __m512d);
extern "C" {
COHERIQ_LIBMVEC_UNARY(COHERIQ_LIBMVEC_ENTRY_UNARY)
COHERIQ_LIBMVEC_BINARY(COHERIQ_LIBMVEC_ENTRY_BINARY)
}

namespace coheriq_bench::libmvec_avx512 {

#include "vector_apply.hpp"

namespace {
const auto load_f32 = [](const float* p) { return _mm512_loadu_ps(p); };
const auto store_f32 = [](float* p, auto v) { _mm512_storeu_ps(p, v); };
const auto load_f64 = [](const double* p) { return _mm512_loadu_pd(p); };
const auto store_f64 = [](double* p, auto v) { _mm512_storeu_pd(p, v); };
}  // namespace

#define COHERIQ_LIBMVEC_DEFINE_UNARY(name)                        \
  void name(std::size_t n, const float* x, float* y) {            \
    apply<16>(_ZGVeN16v_##name##f, load_f32, store_f32, n, x, y); \
  }                                                               \
  void name(std::size_t n, const double* x, double* y) {          \
    apply<8>(_ZGVeN8v_##name, load_f64, store_f64, n, x, y);      \
  }
#define COHERIQ_LIBMVEC_DEFINE_BINARY(name)                               \
  void name(std::size_t n, const float* x, const float* y, float* z) {    \
    apply2<16>(_ZGVeN16vv_##name##f, load_f32, store_f32, n, x, y, z);    \
  }                                                                       \
  void name(std::size_t n, const double* x, const double* y, double* z) { \
    apply2<8>(_ZGVeN8vv_##name, load_f64, store_f64, n, x, y, z);         \
  }
COHERIQ_LIBMVEC_UNARY(COHERIQ_LIBMVEC_DEFINE_UNARY)
COHERIQ_LIBMVEC_BINARY(COHERIQ_LIBMVEC_DEFINE_BINARY)

}  // namespace coheriq_bench::libmvec_avx512
