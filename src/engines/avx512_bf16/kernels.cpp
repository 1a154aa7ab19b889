// The avx512_bf16 engine's kernels: dot_bf16 and gemm_bf16 with vdpbf16ps (AVX512-BF16),
// hand-written with intrinsics (Highway 1.0.3 emulates bf16 dot products with shifts and FMAs);
// every other kernel is inherited from avx512 (its line takes none of the generic kernels).
//
// Compiled with the avx512_bf16 ISA record: avx512's flags plus -mavx512bf16, Highway target
// still HWY_AVX3 (asserted by engine-table.h).
//
// vdpbf16ps adds two bf16 products to each f32 lane, rounding to nearest even; it treats
// subnormal inputs as zero and flushes subnormal results (docs/kernels.md states it).
//
// Like every kernels TU: its kernels and `kOwnKernels`, then engines/generic/engine-table.h last,
// which exports `overrides` (ISA hygiene, docs/engine-guide.md: everything else has internal
// linkage).
#include <array>
#include "engines/generic/namespace.h"  // first: Highway includes the intrinsics headers cleanly
#include "engines/intrinsics/avx512-dot4-inl.h"

#include "kernels/candidates.hpp"

#if !defined(__AVX512BF16__)
#error \
    "the avx512_bf16 kernels TU needs -mavx512bf16 (its ISA record in cmake/CoheriqEngines.cmake)"
#endif

namespace coheriq::kernels::COHERIQ_ENGINE_NS {
namespace {

inline __m512 Dpbf16(__m512 acc, __m512i a, __m512i b) {
  return _mm512_dpbf16_ps(acc, (__m512bh)a, (__m512bh)b);
}

float DotBF16(std::size_t n, const bfloat16* x, const bfloat16* y) {
  __m512 s0 = _mm512_setzero_ps(), s1 = _mm512_setzero_ps();
  __m512 s2 = _mm512_setzero_ps(), s3 = _mm512_setzero_ps();
  std::size_t i = 0;
  for (; i + 128 <= n; i += 128) {
    s0 = Dpbf16(s0, _mm512_loadu_si512(x + i), _mm512_loadu_si512(y + i));
    s1 = Dpbf16(s1, _mm512_loadu_si512(x + i + 32), _mm512_loadu_si512(y + i + 32));
    s2 = Dpbf16(s2, _mm512_loadu_si512(x + i + 64), _mm512_loadu_si512(y + i + 64));
    s3 = Dpbf16(s3, _mm512_loadu_si512(x + i + 96), _mm512_loadu_si512(y + i + 96));
  }
  for (; i + 32 <= n; i += 32) {
    s0 = Dpbf16(s0, _mm512_loadu_si512(x + i), _mm512_loadu_si512(y + i));
  }
  if (i < n) {  // masked loads never touch the elements past n; a lone last one pairs with zero
    const __mmask32 mask = _bzhi_u32(~0u, static_cast<unsigned>(n - i));
    s1 = Dpbf16(s1, _mm512_maskz_loadu_epi16(mask, x + i), _mm512_maskz_loadu_epi16(mask, y + i));
  }
  return _mm512_reduce_add_ps(_mm512_add_ps(_mm512_add_ps(s0, s1), _mm512_add_ps(s2, s3)));
}

// The bf16 GEMM's operations for dot4::Multiply: f32 accumulation, C = alpha·acc + beta·C.
struct BF16 {
  using AElem = bfloat16;
  using CElem = float;
  using Acc = __m512;
  struct Scale {
    float alpha, beta;
  };
  static __m512 Zero() { return _mm512_setzero_ps(); }
  static __m512 Dot(__m512 acc, __m512i a, __m512i b) { return Dpbf16(acc, a, b); }
  static void Store(__m512 acc, const Scale& s, __mmask16 mask, float* c) {
    __m512 out = _mm512_mul_ps(_mm512_set1_ps(s.alpha), acc);
    // beta == 0 must not read C: its old contents may be NaN.
    if (s.beta != 0.0f) {
      out = _mm512_fmadd_ps(_mm512_set1_ps(s.beta), _mm512_maskz_loadu_ps(mask, c), out);
    }
    _mm512_mask_storeu_ps(c, mask, out);
  }
};

std::size_t GemmWorkspaceBF16(std::size_t m, std::size_t n, std::size_t k) {
  return m == 0 || n == 0 ? 0 : dot4::PackedBytes(n, k, 2);
}

void GemmBF16(std::size_t m, std::size_t n, std::size_t k, float alpha, const bfloat16* A,
              std::size_t lda, const bfloat16* B, std::size_t ldb, float beta, float* C,
              std::size_t ldc, void* work) {
  if (m == 0 || n == 0) return;
  dot4::PackB(B, ldb, k, n, work);
  dot4::Multiply<BF16>(m, n, k, A, lda, work, BF16::Scale{alpha, beta}, C, ldc);
}

using coheriq::implement;

// The engine's own kernels; its layout of "gemm_bf16 packed B" is named on its line.
constexpr coheriq::Override kOwnKernels[] = {
    implement<cand::dot_bf16, &DotBF16>(),
    implement<cand::gemm_workspace_bf16, &GemmWorkspaceBF16>(),
    implement<cand::gemm_bf16, &GemmBF16>(),
};
// None of them in the reproducible mode: vdpbf16ps adds each pair of products before the sum and
// flushes subnormals, which no other engine's order does; the mode runs avx512's generic bf16
// kernels instead (layout and all, as the coherence rule wants).
constexpr std::array<coheriq::Override, 0> kOwnReproducibleKernels{};

}  // namespace
}  // namespace coheriq::kernels::COHERIQ_ENGINE_NS

#include "engines/generic/engine-table.h"
