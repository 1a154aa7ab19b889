// Generic reduced-precision kernels (dot_u8s8, gemm_u8s8s32, dot_bf16, gemm_bf16), written once
// with the operations Highway 1.0.3 has for them: u8 and i8 promoted to i16 and multiplied in
// pairs into i32 (ReorderWidenMulAccumulate, pmaddwd on x86: exact, wrapping adds), and bf16
// promoted to f32 (ReorderWidenMulAccumulate for bf16, or PromoteTo + MulAdd). Highway 1.0.3 has
// no u8·i8 quad dot product (vpdpbusd) nor vdpbf16ps; the avx512_vnni and avx512_bf16 engines
// add those with intrinsics.
//
// gemm_u8s8s32 packs nothing (workspace 0, the reference's "layout" of the packed B): each row
// of C is accumulated in registers across k from rows of B, which are contiguous. gemm_bf16 is
// the float GEMM (gemm-inl.h) with its packing widening the bf16 operands. Vector-length
// agnostic. Byte and bf16 tails are scalar: Highway 1.0.3's MaskedLoad of 8- and 16-bit lanes
// on AVX2 loads the whole vector, which may read past the end of the data.
//
// ISA hygiene as in blas1-inl.h: no std:: calls on scalars.
#ifndef COHERIQ_ENGINES_GENERIC_REDUCED_INL_H_
#define COHERIQ_ENGINES_GENERIC_REDUCED_INL_H_

#include <coheriq/kernels.hpp>

#include <cstddef>
#include <cstdint>

#include "engines/generic/gemm-inl.h"
#include "engines/generic/namespace.h"

COHERIQ_GENERIC_BEGIN

// ------------------------------ Scalars (tails), with the reference's semantics

HWY_INLINE std::uint32_t ProductU8S8(std::uint8_t a, std::int8_t b) {
  return static_cast<std::uint32_t>(std::int32_t{a} * std::int32_t{b});
}

HWY_INLINE float BF16ToFloat(bfloat16 v) { return static_cast<float>(v); }

HWY_INLINE const hwy::bfloat16_t* HwyBF16(const bfloat16* p) {
  static_assert(sizeof(hwy::bfloat16_t) == sizeof(bfloat16));
  return reinterpret_cast<const hwy::bfloat16_t*>(p);
}

// ------------------------------ dot_u8s8

HWY_ATTR std::int32_t dot_u8s8(std::size_t n, const std::uint8_t* x, const std::int8_t* y) {
  const hn::ScalableTag<std::int16_t> d16;
  const hn::Repartition<std::int32_t, decltype(d16)> d32;
  const hn::Rebind<std::uint8_t, decltype(d16)> du8;
  const hn::Rebind<std::int8_t, decltype(d16)> di8;
  const std::size_t N = hn::Lanes(d16);
  auto s0 = hn::Zero(d32), s1 = hn::Zero(d32), s2 = hn::Zero(d32), s3 = hn::Zero(d32);
  std::size_t i = 0;
  for (; i + 2 * N <= n; i += 2 * N) {
    const auto a0 = hn::PromoteTo(d16, hn::LoadU(du8, x + i));
    const auto b0 = hn::PromoteTo(d16, hn::LoadU(di8, y + i));
    const auto a1 = hn::PromoteTo(d16, hn::LoadU(du8, x + i + N));
    const auto b1 = hn::PromoteTo(d16, hn::LoadU(di8, y + i + N));
    s0 = hn::ReorderWidenMulAccumulate(d32, a0, b0, s0, s1);
    s2 = hn::ReorderWidenMulAccumulate(d32, a1, b1, s2, s3);
  }
  for (; i + N <= n; i += N) {
    const auto a = hn::PromoteTo(d16, hn::LoadU(du8, x + i));
    const auto b = hn::PromoteTo(d16, hn::LoadU(di8, y + i));
    s0 = hn::ReorderWidenMulAccumulate(d32, a, b, s0, s1);
  }
  const auto lanes = hn::Add(hn::Add(s0, s1), hn::Add(s2, s3));
  // The lanes summed as unsigned (wrapping, as the vector adds wrap): SumOfLanes of int32 on
  // AVX-512 is _mm512_reduce_add_epi32, whose last adds are signed C ints, undefined on overflow
  // (UBSan caught it with 255 and -128 operands).
  HWY_ALIGN std::int32_t lane[hn::MaxLanes(d32)];
  hn::Store(lanes, d32, lane);
  std::uint32_t total = 0;
  for (std::size_t j = 0; j < hn::Lanes(d32); ++j) total += static_cast<std::uint32_t>(lane[j]);
  for (; i < n; ++i) total += ProductU8S8(x[i], y[i]);
  return static_cast<std::int32_t>(total);
}

// ------------------------------ gemm_u8s8s32

HWY_ATTR std::size_t gemm_workspace_u8s8s32(std::size_t, std::size_t, std::size_t) { return 0; }

// C row i, columns [j, j + 4N): four i32 vectors accumulated over k, B promoted i8 -> i32.
HWY_ATTR void gemm_u8s8s32(std::size_t m, std::size_t n, std::size_t k, const std::uint8_t* A,
                           std::size_t lda, const std::int8_t* B, std::size_t ldb, std::int32_t* C,
                           std::size_t ldc, void* /*work*/) {
  const hn::ScalableTag<std::int32_t> d32;
  const hn::Rebind<std::int8_t, decltype(d32)> di8;
  const std::size_t N = hn::Lanes(d32);
  for (std::size_t i = 0; i < m; ++i) {
    const std::uint8_t* a = A + i * lda;
    std::int32_t* c = C + i * ldc;
    std::size_t j = 0;
    for (; j + 4 * N <= n; j += 4 * N) {
      auto c0 = hn::Zero(d32), c1 = hn::Zero(d32), c2 = hn::Zero(d32), c3 = hn::Zero(d32);
      for (std::size_t p = 0; p < k; ++p) {
        const auto av = hn::Set(d32, std::int32_t{a[p]});
        const std::int8_t* b = B + p * ldb + j;
        c0 = hn::Add(c0, hn::Mul(av, hn::PromoteTo(d32, hn::LoadU(di8, b))));
        c1 = hn::Add(c1, hn::Mul(av, hn::PromoteTo(d32, hn::LoadU(di8, b + N))));
        c2 = hn::Add(c2, hn::Mul(av, hn::PromoteTo(d32, hn::LoadU(di8, b + 2 * N))));
        c3 = hn::Add(c3, hn::Mul(av, hn::PromoteTo(d32, hn::LoadU(di8, b + 3 * N))));
      }
      hn::StoreU(c0, d32, c + j);
      hn::StoreU(c1, d32, c + j + N);
      hn::StoreU(c2, d32, c + j + 2 * N);
      hn::StoreU(c3, d32, c + j + 3 * N);
    }
    for (; j + N <= n; j += N) {
      auto c0 = hn::Zero(d32);
      for (std::size_t p = 0; p < k; ++p) {
        const auto av = hn::Set(d32, std::int32_t{a[p]});
        c0 = hn::Add(c0, hn::Mul(av, hn::PromoteTo(d32, hn::LoadU(di8, B + p * ldb + j))));
      }
      hn::StoreU(c0, d32, c + j);
    }
    for (; j < n; ++j) {
      std::uint32_t total = 0;
      for (std::size_t p = 0; p < k; ++p) total += ProductU8S8(a[p], B[p * ldb + j]);
      c[j] = static_cast<std::int32_t>(total);
    }
  }
}

// ------------------------------ dot_bf16

HWY_ATTR float dot_bf16(std::size_t n, const bfloat16* x, const bfloat16* y) {
  const hn::ScalableTag<float> df;
  const hn::Repartition<hwy::bfloat16_t, decltype(df)> dbf;
  const std::size_t N = hn::Lanes(dbf);
  const hwy::bfloat16_t* hx = HwyBF16(x);
  const hwy::bfloat16_t* hy = HwyBF16(y);
  auto s0 = hn::Zero(df), s1 = hn::Zero(df), s2 = hn::Zero(df), s3 = hn::Zero(df);
  std::size_t i = 0;
  for (; i + 2 * N <= n; i += 2 * N) {
    s0 = hn::ReorderWidenMulAccumulate(df, hn::LoadU(dbf, hx + i), hn::LoadU(dbf, hy + i), s0, s1);
    s2 = hn::ReorderWidenMulAccumulate(df, hn::LoadU(dbf, hx + i + N), hn::LoadU(dbf, hy + i + N),
                                       s2, s3);
  }
  for (; i + N <= n; i += N) {
    s0 = hn::ReorderWidenMulAccumulate(df, hn::LoadU(dbf, hx + i), hn::LoadU(dbf, hy + i), s0, s1);
  }
  const auto lanes = hn::Add(hn::Add(s0, s1), hn::Add(s2, s3));
  float total = hn::GetLane(hn::SumOfLanes(df, lanes));
  for (; i < n; ++i) total += BF16ToFloat(x[i]) * BF16ToFloat(y[i]);
  return total;
}

// ------------------------------ gemm_bf16: the float GEMM with bf16 operands widened in its
// packing (gemm-inl.h, GemmBf16)

HWY_ATTR std::size_t gemm_workspace_bf16(std::size_t m, std::size_t n, std::size_t k) {
  return GemmWorkspaceBf16(m, n, k);
}

HWY_ATTR void gemm_bf16(std::size_t m, std::size_t n, std::size_t k, float alpha, const bfloat16* A,
                        std::size_t lda, const bfloat16* B, std::size_t ldb, float beta, float* C,
                        std::size_t ldc, void* work) {
  GemmBf16(m, n, k, alpha, A, lda, B, ldb, beta, C, ldc, work);
}

COHERIQ_GENERIC_END

#endif  // COHERIQ_ENGINES_GENERIC_REDUCED_INL_H_
