// A plugin engine for the kernels domain, built outside the library: an AVX2 dot product with
// four independent FMA chains, on top of the built-in avx2 engine.
//
// The shared object exports one constant (coheriq_plugin_engine); the framework dlopens it only
// when `example_dot` (or an engine inheriting it) is enabled on a host with AVX2 and FMA.
#include <immintrin.h>
#include <coheriq/kernels_domain.hpp>

namespace {

using coheriq::kernels::cand::dot_f32;

float dot(std::size_t n, const float* x, const float* y) {
  __m256 acc[4] = {_mm256_setzero_ps(), _mm256_setzero_ps(), _mm256_setzero_ps(),
                   _mm256_setzero_ps()};
  std::size_t i = 0;
  for (; i + 32 <= n; i += 32) {
    for (int j = 0; j < 4; ++j) {
      acc[j] =
          _mm256_fmadd_ps(_mm256_loadu_ps(x + i + 8 * j), _mm256_loadu_ps(y + i + 8 * j), acc[j]);
    }
  }
  for (; i + 8 <= n; i += 8) {
    acc[0] = _mm256_fmadd_ps(_mm256_loadu_ps(x + i), _mm256_loadu_ps(y + i), acc[0]);
  }
  const __m256 s = _mm256_add_ps(_mm256_add_ps(acc[0], acc[1]), _mm256_add_ps(acc[2], acc[3]));
  __m128 h = _mm_add_ps(_mm256_castps256_ps128(s), _mm256_extractf128_ps(s, 1));
  h = _mm_add_ps(h, _mm_movehl_ps(h, h));
  h = _mm_add_ss(h, _mm_movehdup_ps(h));
  float total = _mm_cvtss_f32(h);
  for (; i < n; ++i) total += x[i] * y[i];
  return total;
}

// The names of docs/engine-guide.md: `table` the entries, `overrides` the OverrideTable.
constexpr coheriq::Override table[] = {coheriq::implement<dot_f32, &dot>()};
constexpr coheriq::OverrideTable overrides = coheriq::table_of(table);

}  // namespace

COHERIQ_PLUGIN_ENGINE(coheriq::kernels::Domain, "example_dot", overrides);
