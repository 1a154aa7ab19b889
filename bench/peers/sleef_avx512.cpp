// SLEEF's AVX-512 functions over arrays (compiled with -mavx512f; see sleef_isa.hpp).
#include <immintrin.h>
#include <sleef.h>

#include <cstddef>

#include "sleef_isa.hpp"

namespace coheriq_bench::sleef_avx512 {

#include "vector_apply.hpp"

namespace {
const auto load_f32 = [](const float* p) { return _mm512_loadu_ps(p); };
const auto store_f32 = [](float* p, auto v) { _mm512_storeu_ps(p, v); };
const auto load_f64 = [](const double* p) { return _mm512_loadu_pd(p); };
const auto store_f64 = [](double* p, auto v) { _mm512_storeu_pd(p, v); };
}  // namespace

#define COHERIQ_SLEEF_DEFINE_UNARY(name, accuracy)                                    \
  void name(std::size_t n, const float* x, float* y) {                                \
    apply<16>(Sleef_##name##f16##_##accuracy##avx512f, load_f32, store_f32, n, x, y); \
  }                                                                                   \
  void name(std::size_t n, const double* x, double* y) {                              \
    apply<8>(Sleef_##name##d8##_##accuracy##avx512f, load_f64, store_f64, n, x, y);   \
  }
#define COHERIQ_SLEEF_DEFINE_BINARY(name, accuracy)                                       \
  void name(std::size_t n, const float* x, const float* y, float* z) {                    \
    apply2<16>(Sleef_##name##f16##_##accuracy##avx512f, load_f32, store_f32, n, x, y, z); \
  }                                                                                       \
  void name(std::size_t n, const double* x, const double* y, double* z) {                 \
    apply2<8>(Sleef_##name##d8##_##accuracy##avx512f, load_f64, store_f64, n, x, y, z);   \
  }
COHERIQ_SLEEF_UNARY(COHERIQ_SLEEF_DEFINE_UNARY)
COHERIQ_SLEEF_BINARY(COHERIQ_SLEEF_DEFINE_BINARY)

}  // namespace coheriq_bench::sleef_avx512
