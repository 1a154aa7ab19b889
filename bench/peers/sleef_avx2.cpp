// SLEEF's AVX2 functions over arrays (compiled with -mavx2 -mfma; see sleef_isa.hpp).
#include <immintrin.h>
#include <sleef.h>

#include <cstddef>

#include "sleef_isa.hpp"

namespace coheriq_bench::sleef_avx2 {

#include "vector_apply.hpp"

namespace {
const auto load_f32 = [](const float* p) { return _mm256_loadu_ps(p); };
const auto store_f32 = [](float* p, auto v) { _mm256_storeu_ps(p, v); };
const auto load_f64 = [](const double* p) { return _mm256_loadu_pd(p); };
const auto store_f64 = [](double* p, auto v) { _mm256_storeu_pd(p, v); };
}  // namespace

#define COHERIQ_SLEEF_DEFINE_UNARY(name, accuracy)                               \
  void name(std::size_t n, const float* x, float* y) {                           \
    apply<8>(Sleef_##name##f8##_##accuracy##avx2, load_f32, store_f32, n, x, y); \
  }                                                                              \
  void name(std::size_t n, const double* x, double* y) {                         \
    apply<4>(Sleef_##name##d4##_##accuracy##avx2, load_f64, store_f64, n, x, y); \
  }
#define COHERIQ_SLEEF_DEFINE_BINARY(name, accuracy)                                  \
  void name(std::size_t n, const float* x, const float* y, float* z) {               \
    apply2<8>(Sleef_##name##f8##_##accuracy##avx2, load_f32, store_f32, n, x, y, z); \
  }                                                                                  \
  void name(std::size_t n, const double* x, const double* y, double* z) {            \
    apply2<4>(Sleef_##name##d4##_##accuracy##avx2, load_f64, store_f64, n, x, y, z); \
  }
COHERIQ_SLEEF_UNARY(COHERIQ_SLEEF_DEFINE_UNARY)
COHERIQ_SLEEF_BINARY(COHERIQ_SLEEF_DEFINE_BINARY)

}  // namespace coheriq_bench::sleef_avx2
