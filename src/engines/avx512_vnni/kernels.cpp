// The avx512_vnni engine's kernels: dot_u8s8 and gemm_u8s8s32 with vpdpbusd (AVX512-VNNI),
// hand-written with intrinsics (Highway 1.0.3 has no u8·s8 quad dot product); every other kernel
// is inherited from avx512 (its line takes none of the generic kernels).
//
// Compiled with the avx512_vnni ISA record: avx512's flags plus -mavx512vnni, Highway target
// still HWY_AVX3 (asserted by engine-table.h; docs/decisions.md says why not HWY_AVX3_DL). Only
// EVEX vpdpbusd is emitted (-mavxvnni is not given, so gcc never picks the VEX form, which needs
// AVX-VNNI, a feature cpu_features 0.7.0 cannot report).
//
// vpdpbusd adds 4 u8·s8 products to each i32 lane with a wrapping add (vpdpbusds would
// saturate): the same result as the reference, modulo 2^32, for any n.
//
// Like every kernels TU: its kernels and `kOwnKernels`, then engines/generic/engine-table.h last,
// which exports `overrides` (ISA hygiene, docs/engine-guide.md: everything else has internal
// linkage).
#include "engines/generic/namespace.h"  // first: Highway includes the intrinsics headers cleanly
#include "engines/intrinsics/avx512-dot4-inl.h"
#include "kernels/candidates.hpp"

#if !defined(__AVX512VNNI__)
#error \
    "the avx512_vnni kernels TU needs -mavx512vnni (its ISA record in cmake/CoheriqEngines.cmake)"
#endif

namespace coheriq::kernels::COHERIQ_ENGINE_NS {
namespace {

std::int32_t DotU8S8(std::size_t n, const std::uint8_t* x, const std::int8_t* y) {
  __m512i s0 = _mm512_setzero_si512(), s1 = _mm512_setzero_si512();
  __m512i s2 = _mm512_setzero_si512(), s3 = _mm512_setzero_si512();
  std::size_t i = 0;
  for (; i + 256 <= n; i += 256) {
    s0 = _mm512_dpbusd_epi32(s0, _mm512_loadu_si512(x + i), _mm512_loadu_si512(y + i));
    s1 = _mm512_dpbusd_epi32(s1, _mm512_loadu_si512(x + i + 64), _mm512_loadu_si512(y + i + 64));
    s2 = _mm512_dpbusd_epi32(s2, _mm512_loadu_si512(x + i + 128), _mm512_loadu_si512(y + i + 128));
    s3 = _mm512_dpbusd_epi32(s3, _mm512_loadu_si512(x + i + 192), _mm512_loadu_si512(y + i + 192));
  }
  for (; i + 64 <= n; i += 64) {
    s0 = _mm512_dpbusd_epi32(s0, _mm512_loadu_si512(x + i), _mm512_loadu_si512(y + i));
  }
  if (i < n) {  // masked loads never touch the bytes past n
    const __mmask64 mask = _bzhi_u64(~0ull, static_cast<unsigned>(n - i));
    s1 = _mm512_dpbusd_epi32(s1, _mm512_maskz_loadu_epi8(mask, x + i),
                             _mm512_maskz_loadu_epi8(mask, y + i));
  }
  const __m512i total = _mm512_add_epi32(_mm512_add_epi32(s0, s1), _mm512_add_epi32(s2, s3));
  // The lanes are added as vectors, wrapping like every add above: _mm512_reduce_add_epi32 adds
  // them as C ints, whose overflow (past the exact range) is undefined behaviour.
  const __m256i half =
      _mm256_add_epi32(_mm512_castsi512_si256(total), _mm512_extracti64x4_epi64(total, 1));
  __m128i quarter = _mm_add_epi32(_mm256_castsi256_si128(half), _mm256_extracti128_si256(half, 1));
  quarter = _mm_add_epi32(quarter, _mm_shuffle_epi32(quarter, _MM_SHUFFLE(1, 0, 3, 2)));
  quarter = _mm_add_epi32(quarter, _mm_shuffle_epi32(quarter, _MM_SHUFFLE(2, 3, 0, 1)));
  return _mm_cvtsi128_si32(quarter);
}

// The integer GEMM's operations for dot4::Multiply: exact i32 accumulation, C = A·B.
struct U8S8 {
  using AElem = std::uint8_t;
  using CElem = std::int32_t;
  using Acc = __m512i;
  struct Scale {};
  static __m512i Zero() { return _mm512_setzero_si512(); }
  // vpdpbusd as inline assembly: with the intrinsic, gcc 12 copied each accumulator to a
  // scratch register and back around every vpdpbusd, and spilled some to the stack in the
  // GEMM's inner loop (measured 1.5x slower). The tied "+v" operand keeps it in place.
  static __m512i Dot(__m512i acc, __m512i a, __m512i b) {
    __asm__("vpdpbusd %2, %1, %0" : "+v"(acc) : "v"(a), "v"(b));
    return acc;
  }
  static void Store(__m512i acc, const Scale&, __mmask16 mask, std::int32_t* c) {
    _mm512_mask_storeu_epi32(c, mask, acc);
  }
};

std::size_t GemmWorkspaceU8S8S32(std::size_t m, std::size_t n, std::size_t k) {
  return m == 0 || n == 0 ? 0 : dot4::PackedBytes(n, k, 4);
}

void GemmU8S8S32(std::size_t m, std::size_t n, std::size_t k, const std::uint8_t* A,
                 std::size_t lda, const std::int8_t* B, std::size_t ldb, std::int32_t* C,
                 std::size_t ldc, void* work) {
  if (m == 0 || n == 0) return;
  dot4::PackB(reinterpret_cast<const std::uint8_t*>(B), ldb, k, n, work);
  dot4::Multiply<U8S8>(m, n, k, A, lda, work, U8S8::Scale{}, C, ldc);
}

using coheriq::implement;

// The engine's own kernels; its layout of "gemm_u8s8s32 packed B" is named on its line.
constexpr coheriq::Override kOwnKernels[] = {
    implement<cand::dot_u8s8, &DotU8S8>(),
    implement<cand::gemm_workspace_u8s8s32, &GemmWorkspaceU8S8S32>(),
    implement<cand::gemm_u8s8s32, &GemmU8S8S32>(),
};
// All of them in the reproducible mode: integer sums wrapping modulo 2^32 are exact in any order.
constexpr auto& kOwnReproducibleKernels = kOwnKernels;

}  // namespace
}  // namespace coheriq::kernels::COHERIQ_ENGINE_NS

#include "engines/generic/engine-table.h"
