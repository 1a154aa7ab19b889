// SLEEF's AVX-512 float functions over arrays (compiled with -mavx512f; see sleef_isa.hpp).
#include <immintrin.h>
#include <sleef.h>

#include <cstddef>

#include "sleef_isa.hpp"

namespace coheriq_bench::sleef_avx512 {
namespace {

// Full vectors, then the tail under a mask: no scalar fallback with different accuracy.
// F: a SLEEF function pointer (its return type carries sleef.h\'s CONST attribute).
template <class F>
__attribute__((always_inline)) inline void apply(F f, std::size_t n, const float* x, float* y) {
  std::size_t i = 0;
  for (; i + 16 <= n; i += 16) _mm512_storeu_ps(y + i, f(_mm512_loadu_ps(x + i)));
  if (i < n) {
    const auto mask = static_cast<__mmask16>((1u << (n - i)) - 1u);
    _mm512_mask_storeu_ps(y + i, mask, f(_mm512_maskz_loadu_ps(mask, x + i)));
  }
}

}  // namespace

void exp(std::size_t n, const float* x, float* y) { apply(Sleef_expf16_u10avx512f, n, x, y); }
void log(std::size_t n, const float* x, float* y) { apply(Sleef_logf16_u10avx512f, n, x, y); }
void tanh(std::size_t n, const float* x, float* y) { apply(Sleef_tanhf16_u10avx512f, n, x, y); }

}  // namespace coheriq_bench::sleef_avx512
