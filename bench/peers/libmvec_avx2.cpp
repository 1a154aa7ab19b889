// libmvec's AVX2 functions over arrays (compiled with -mavx2 -mfma; see libmvec_isa.hpp).
#include <immintrin.h>

#include <cstddef>

#include "libmvec_isa.hpp"

// The vector ABI entry points (glibc declares them only for the compiler's own use).
#define COHERIQ_LIBMVEC_ENTRY_UNARY(name) \
  __m256 _ZGVdN8v_##name##f(__m256);      \
  __m256d _ZGVdN4v_##name(__m256d);
#define COHERIQ_LIBMVEC_ENTRY_BINARY(name)    \
  __m256 _ZGVdN8vv_##name##f(__m256, __m256); \
  __m256d _ZGVdN4vv_##name(__m256d, __m256d);
extern "C" {
COHERIQ_LIBMVEC_UNARY(COHERIQ_LIBMVEC_ENTRY_UNARY)
COHERIQ_LIBMVEC_BINARY(COHERIQ_LIBMVEC_ENTRY_BINARY)
}

namespace coheriq_bench::libmvec_avx2 {

#include "vector_apply.hpp"

namespace {
const auto load_f32 = [](const float* p) { return _mm256_loadu_ps(p); };
const auto store_f32 = [](float* p, auto v) { _mm256_storeu_ps(p, v); };
const auto load_f64 = [](const double* p) { return _mm256_loadu_pd(p); };
const auto store_f64 = [](double* p, auto v) { _mm256_storeu_pd(p, v); };
}  // namespace

#define COHERIQ_LIBMVEC_DEFINE_UNARY(name)                      \
  void name(std::size_t n, const float* x, float* y) {          \
    apply<8>(_ZGVdN8v_##name##f, load_f32, store_f32, n, x, y); \
  }                                                             \
  void name(std::size_t n, const double* x, double* y) {        \
    apply<4>(_ZGVdN4v_##name, load_f64, store_f64, n, x, y);    \
  }
#define COHERIQ_LIBMVEC_DEFINE_BINARY(name)                               \
  void name(std::size_t n, const float* x, const float* y, float* z) {    \
    apply2<8>(_ZGVdN8vv_##name##f, load_f32, store_f32, n, x, y, z);      \
  }                                                                       \
  void name(std::size_t n, const double* x, const double* y, double* z) { \
    apply2<4>(_ZGVdN4vv_##name, load_f64, store_f64, n, x, y, z);         \
  }
COHERIQ_LIBMVEC_UNARY(COHERIQ_LIBMVEC_DEFINE_UNARY)
COHERIQ_LIBMVEC_BINARY(COHERIQ_LIBMVEC_DEFINE_BINARY)

}  // namespace coheriq_bench::libmvec_avx2
