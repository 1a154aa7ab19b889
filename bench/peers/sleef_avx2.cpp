// SLEEF's AVX2 float functions over arrays (compiled with -mavx2 -mfma; see sleef_isa.hpp).
#include <immintrin.h>
#include <sleef.h>

#include <cstddef>

#include "sleef_isa.hpp"

namespace coheriq_bench::sleef_avx2 {
namespace {

constexpr std::size_t kLanes = 8;

// Full vectors, then the tail through a padded stack copy (same vector function, same accuracy).
// F: a SLEEF function pointer (its return type carries sleef.h\'s CONST attribute).
template <class F>
__attribute__((always_inline)) inline void apply(F f, std::size_t n, const float* x, float* y) {
  std::size_t i = 0;
  for (; i + kLanes <= n; i += kLanes) _mm256_storeu_ps(y + i, f(_mm256_loadu_ps(x + i)));
  if (i < n) {
    float tail[kLanes] = {};
    for (std::size_t j = 0; j < n - i; ++j) tail[j] = x[i + j];
    _mm256_storeu_ps(tail, f(_mm256_loadu_ps(tail)));
    for (std::size_t j = 0; j < n - i; ++j) y[i + j] = tail[j];
  }
}

}  // namespace

void exp(std::size_t n, const float* x, float* y) { apply(Sleef_expf8_u10avx2, n, x, y); }
void log(std::size_t n, const float* x, float* y) { apply(Sleef_logf8_u10avx2, n, x, y); }
void tanh(std::size_t n, const float* x, float* y) { apply(Sleef_tanhf8_u10avx2, n, x, y); }

}  // namespace coheriq_bench::sleef_avx2
