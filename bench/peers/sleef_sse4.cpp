// SLEEF's SSE4.1 functions over arrays (compiled with -msse4.1; see sleef_isa.hpp).
#include <immintrin.h>
#include <sleef.h>

#include <cstddef>

#include "sleef_isa.hpp"

namespace coheriq_bench::sleef_sse4 {

#include "vector_apply.hpp"

namespace {
const auto load_f32 = [](const float* p) { return _mm_loadu_ps(p); };
const auto store_f32 = [](float* p, auto v) { _mm_storeu_ps(p, v); };
const auto load_f64 = [](const double* p) { return _mm_loadu_pd(p); };
const auto store_f64 = [](double* p, auto v) { _mm_storeu_pd(p, v); };
}  // namespace

#define COHERIQ_SLEEF_DEFINE_UNARY(name, accuracy)                               \
  void name(std::size_t n, const float* x, float* y) {                           \
    apply<4>(Sleef_##name##f4##_##accuracy##sse4, load_f32, store_f32, n, x, y); \
  }                                                                              \
  void name(std::size_t n, const double* x, double* y) {                         \
    apply<2>(Sleef_##name##d2##_##accuracy##sse4, load_f64, store_f64, n, x, y); \
  }
#define COHERIQ_SLEEF_DEFINE_BINARY(name, accuracy)                                  \
  void name(std::size_t n, const float* x, const float* y, float* z) {               \
    apply2<4>(Sleef_##name##f4##_##accuracy##sse4, load_f32, store_f32, n, x, y, z); \
  }                                                                                  \
  void name(std::size_t n, const double* x, const double* y, double* z) {            \
    apply2<2>(Sleef_##name##d2##_##accuracy##sse4, load_f64, store_f64, n, x, y, z); \
  }
COHERIQ_SLEEF_UNARY(COHERIQ_SLEEF_DEFINE_UNARY)
COHERIQ_SLEEF_BINARY(COHERIQ_SLEEF_DEFINE_BINARY)

}  // namespace coheriq_bench::sleef_sse4
