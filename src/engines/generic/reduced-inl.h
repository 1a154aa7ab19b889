// Generic reduced-precision kernels (dot_u8s8, gemm_u8s8s32, dot_bf16, gemm_bf16), written once
// with the operations Highway 1.0.3 has for them: u8 and i8 promoted to i16 and multiplied in
// pairs into i32 (ReorderWidenMulAccumulate, pmaddwd on x86: exact, wrapping adds), and bf16
// promoted to f32 (ReorderWidenMulAccumulate for bf16, or PromoteTo + MulAdd). Highway 1.0.3 has
// no u8·i8 quad dot product (vpdpbusd) nor vdpbf16ps; the avx512_vnni and avx512_bf16 engines
// add those with intrinsics.
//
// gemm_u8s8s32 is blocked and packed as the float GEMM is, on pairs of k widened to 16 bits;
// gemm_bf16 is the float GEMM (gemm-inl.h) with its packing widening the bf16 operands. Vector-
// length agnostic. Byte and bf16 tails are scalar: Highway 1.0.3's MaskedLoad of 8- and 16-bit
// lanes on AVX2 loads the whole vector, which may read past the end of the data.
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

// ------------------------------ gemm_u8s8s32: blocked and packed, on 16-bit pairs of k
//
// k is taken in pairs (2g, 2g + 1). A cell is one pair of one row of A, or of one column of B, as
// two 16-bit lanes of a 32-bit lane, the even element in the low half (u8 zero-extended, s8
// sign-extended). ReorderWidenMulAccumulate multiplies the 16-bit lanes of two vectors of cells and
// adds the products into 32-bit lanes; RearrangeToOddPlusEven then gives, lane by lane, the sum of
// each pair: a[2g]·b[2g][j] + a[2g+1]·b[2g+1][j], at most 2·255·128 in magnitude, added with
// wrapping 32-bit adds, so C is the exact product modulo 2^32, as the reference's.
//
// The loops are the float GEMM's (gemm-inl.h) on cells: k in blocks of at most KC; each k-block of
// B packed into panels of NR = two vectors of cells (pair after pair, zero past n and past k);
// rows of A in blocks of MC, packed as rows of cells (the bytes widened to 16 bits); an MR x NR
// tile of C per microkernel call, written at the first k-block and added to at the later ones
// (integer sums: the same result for any blocking). Tuning: the engine's record (gemm_u8s8).

struct IntGemmShape {
  using D = hn::ScalableTag<std::int32_t>;
  static constexpr IntGemmTuning kBlocking = kTuning.gemm_u8s8;
  static constexpr std::size_t kMR = kBlocking.mr;
  static constexpr std::size_t kKC = kBlocking.kc;
  static constexpr std::size_t kMC = kBlocking.mc;
  static constexpr std::size_t kMaxRows = 12;  // the tile's named rows below
  // x86's pmaddwd adds both products of a pair into one accumulator; the other targets keep the
  // even and odd products apart (sum0, sum1) until RearrangeToOddPlusEven.
  static constexpr std::size_t kSums = HWY_ARCH_X86 ? 1 : 2;
  static_assert(kMR >= 1 && kMR <= kMaxRows, "tuning: gemm_u8s8 mr must be 1 to 12");
  static_assert(kMR * 2 * kSums + 2 + 1 <= kEngine.vector_registers,
                "tuning: the gemm_u8s8 register tile does not fit the ISA's vector registers");
  static_assert(kKC >= 2 && kKC % 2 == 0, "tuning: gemm_u8s8 kc must be even");
  static_assert(kMC >= kMR && kMC % kMR == 0, "tuning: gemm_u8s8 mc must be a multiple of mr");
  static HWY_INLINE std::size_t Lanes() { return hn::Lanes(D()); }
  static HWY_INLINE std::size_t NR() { return 2 * Lanes(); }
  // Pair rows of the largest k-block of a product of depth k.
  static constexpr std::size_t Pairs(std::size_t k) { return (GemmMin(k, kKC) + 1) / 2; }
  // Cells (4 bytes each) of the packed A block, a multiple of 16 (64 bytes) so that the B k-block
  // after it is 64-byte aligned.
  static HWY_INLINE std::size_t ABlockCells(std::size_t m, std::size_t k) {
    return GemmRoundUp(GemmMin(GemmRoundUp(m, kMR), kMC) * Pairs(k), 16);
  }
};

// Pairs [g0, g0 + pairs) of op(B) = B (k x n) into panels of nr cells per pair row.
HWY_INLINE void IntGemmPackB(const std::int8_t* HWY_RESTRICT B, std::size_t ldb, std::size_t k,
                             std::size_t n, std::size_t g0, std::size_t pairs,
                             std::int32_t* HWY_RESTRICT dst) {
  const IntGemmShape::D d;
  const hn::Rebind<std::int8_t, decltype(d)> d8;
  const std::size_t lanes = IntGemmShape::Lanes(), nr = IntGemmShape::NR();
  const auto low = hn::Set(d, 0xFFFF);
  for (std::size_t g = 0; g < pairs; ++g) {
    const std::size_t p = 2 * (g0 + g);
    const std::int8_t* HWY_RESTRICT even = B + p * ldb;
    const std::int8_t* HWY_RESTRICT odd = p + 1 < k ? B + (p + 1) * ldb : nullptr;
    std::int32_t* HWY_RESTRICT row = dst + g * nr;
    for (std::size_t j = 0; j < n; j += nr, row += pairs * nr) {
      for (std::size_t v = j; v < j + nr; v += lanes) {
        std::int32_t* HWY_RESTRICT out = row + (v - j);
        if (v + lanes <= n) {
          const auto e = hn::PromoteTo(d, hn::LoadU(d8, even + v));
          const auto o = odd ? hn::PromoteTo(d, hn::LoadU(d8, odd + v)) : hn::Zero(d);
          hn::Store(hn::Or(hn::And(e, low), hn::ShiftLeft<16>(o)), d, out);
        } else {
          for (std::size_t c = 0; c < lanes; ++c) {
            const std::size_t col = v + c;
            const std::uint32_t e = col < n ? static_cast<std::uint16_t>(even[col]) : 0u;
            const std::uint32_t o = col < n && odd ? static_cast<std::uint16_t>(odd[col]) : 0u;
            out[c] = static_cast<std::int32_t>(e | o << 16);
          }
        }
      }
    }
  }
}

// Rows [i0, i0 + mc) of A, elements [p0, p0 + kc), as rows of (kc + 1) / 2 cells, `pairs` apart:
// each byte widened to 16 bits, a zero after an odd kc.
HWY_INLINE void IntGemmPackA(const std::uint8_t* HWY_RESTRICT A, std::size_t lda, std::size_t i0,
                             std::size_t mc, std::size_t p0, std::size_t kc, std::size_t pairs,
                             std::int32_t* HWY_RESTRICT dst) {
  const hn::ScalableTag<std::uint16_t> d16;
  const hn::Rebind<std::uint8_t, decltype(d16)> d8;
  const std::size_t lanes = hn::Lanes(d16);
  for (std::size_t r = 0; r < mc; ++r) {
    const std::uint8_t* HWY_RESTRICT src = A + (i0 + r) * lda + p0;
    auto* HWY_RESTRICT out = reinterpret_cast<std::uint16_t*>(dst + r * pairs);
    std::size_t e = 0;
    for (; e + lanes <= kc; e += lanes)
      hn::StoreU(hn::PromoteTo(d16, hn::LoadU(d8, src + e)), d16, out + e);
    for (; e < kc; ++e) out[e] = src[e];
    if (kc % 2 != 0) out[kc] = 0;
  }
}

// The tile's rows, named one by one (SVE vectors cannot be array elements); rows at and past
// kRows are dead code.
#define COHERIQ_INT_GEMM_ROWS(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11)

// C rows [0, kRows) x columns [0, cols) (cols <= NR) = (add ? C : 0) + A cells · B panel over
// `pairs` pair rows. Row i's cells start at a + i·a_row.
template <std::size_t kRows>
HWY_NOINLINE void IntGemmTile(std::size_t pairs, const std::int32_t* HWY_RESTRICT a,
                              std::size_t a_row, const std::int32_t* HWY_RESTRICT b, bool add,
                              std::int32_t* HWY_RESTRICT c, std::size_t ldc, std::size_t cols) {
  using V = hn::Vec<IntGemmShape::D>;
  const IntGemmShape::D d;
  const hn::Repartition<std::int16_t, decltype(d)> d16;
  const std::size_t lanes = hn::Lanes(d), nr = 2 * lanes;
#define COHERIQ_INT_GEMM_ZERO(i)                                                  \
  V acc##i##_0 = hn::Zero(d), acc##i##_1 = hn::Zero(d), odd##i##_0 = hn::Zero(d), \
    odd##i##_1 = hn::Zero(d);
  COHERIQ_INT_GEMM_ROWS(COHERIQ_INT_GEMM_ZERO)
#undef COHERIQ_INT_GEMM_ZERO
  // Rows 4 apart share a base pointer: each broadcast is a base plus 0 to 3 row strides.
  const std::int32_t* HWY_RESTRICT a0 = a;
  const std::int32_t* HWY_RESTRICT a4 = a + (kRows > 4 ? 4 * a_row : 0);
  const std::int32_t* HWY_RESTRICT a8 = a + (kRows > 8 ? 8 * a_row : 0);
#define COHERIQ_INT_GEMM_STEP(i)                                                   \
  if constexpr (i < kRows) {                                                       \
    const std::int32_t* HWY_RESTRICT base = i < 4 ? a0 : (i < 8 ? a4 : a8);        \
    const auto ai = hn::BitCast(d16, hn::Set(d, base[(i % 4) * a_row]));           \
    acc##i##_0 = hn::ReorderWidenMulAccumulate(d, ai, b0, acc##i##_0, odd##i##_0); \
    acc##i##_1 = hn::ReorderWidenMulAccumulate(d, ai, b1, acc##i##_1, odd##i##_1); \
  }
  for (std::size_t g = 0; g < pairs; ++g, b += nr) {
    const auto b0 = hn::BitCast(d16, hn::Load(d, b));
    const auto b1 = hn::BitCast(d16, hn::Load(d, b + lanes));
    COHERIQ_INT_GEMM_ROWS(COHERIQ_INT_GEMM_STEP)
    ++a0;
    ++a4;
    ++a8;
  }
#undef COHERIQ_INT_GEMM_STEP
  // A full tile adds to C and stores in place; a narrower one goes through a buffer of whole
  // vectors, so that no access reaches past column cols (Highway 1.0.3's NEON MaskedLoad reads
  // the whole vector).
  HWY_ALIGN std::int32_t part[2 * hn::MaxLanes(d)];
#define COHERIQ_INT_GEMM_PUT(i)                                                    \
  if constexpr (i < kRows) {                                                       \
    std::int32_t* HWY_RESTRICT out = c + i * ldc;                                  \
    V r0 = hn::RearrangeToOddPlusEven(acc##i##_0, odd##i##_0);                     \
    V r1 = hn::RearrangeToOddPlusEven(acc##i##_1, odd##i##_1);                     \
    if (cols == nr) {                                                              \
      if (add) {                                                                   \
        r0 = hn::Add(r0, hn::LoadU(d, out));                                       \
        r1 = hn::Add(r1, hn::LoadU(d, out + lanes));                               \
      }                                                                            \
      hn::StoreU(r0, d, out);                                                      \
      hn::StoreU(r1, d, out + lanes);                                              \
    } else {                                                                       \
      for (std::size_t j = 0; j < nr; ++j) part[j] = add && j < cols ? out[j] : 0; \
      hn::Store(hn::Add(r0, hn::Load(d, part)), d, part);                          \
      hn::Store(hn::Add(r1, hn::Load(d, part + lanes)), d, part + lanes);          \
      for (std::size_t j = 0; j < cols; ++j) out[j] = part[j];                     \
    }                                                                              \
  }
  COHERIQ_INT_GEMM_ROWS(COHERIQ_INT_GEMM_PUT)
#undef COHERIQ_INT_GEMM_PUT
}

#undef COHERIQ_INT_GEMM_ROWS

// The tile of exactly `rows` (1 to kRows) rows: the accumulators are a fixed set of registers.
template <std::size_t kRows>
HWY_INLINE void IntGemmTileOf(std::size_t rows, std::size_t pairs, const std::int32_t* a,
                              std::size_t a_row, const std::int32_t* b, bool add, std::int32_t* c,
                              std::size_t ldc, std::size_t cols) {
  if constexpr (kRows > 1) {
    if (rows < kRows) return IntGemmTileOf<kRows - 1>(rows, pairs, a, a_row, b, add, c, ldc, cols);
  }
  IntGemmTile<kRows>(pairs, a, a_row, b, add, c, ldc, cols);
}

HWY_ATTR std::size_t gemm_workspace_u8s8s32(std::size_t m, std::size_t n, std::size_t k) {
  using Shape = IntGemmShape;
  if (m == 0 || n == 0 || k == 0) return 0;
  return 4 * (Shape::ABlockCells(m, k) + Shape::Pairs(k) * GemmRoundUp(n, Shape::NR()));
}

HWY_ATTR void gemm_u8s8s32(std::size_t m, std::size_t n, std::size_t k, const std::uint8_t* A,
                           std::size_t lda, const std::int8_t* B, std::size_t ldb, std::int32_t* C,
                           std::size_t ldc, void* work) {
  using Shape = IntGemmShape;
  if (m == 0 || n == 0) return;
  if (k == 0) {
    for (std::size_t i = 0; i < m; ++i) {
      for (std::size_t j = 0; j < n; ++j) C[i * ldc + j] = 0;
    }
    return;
  }
  const std::size_t nr = Shape::NR();
  std::int32_t* const a_work = static_cast<std::int32_t*>(work);
  std::int32_t* const b_work = a_work + Shape::ABlockCells(m, k);
  for (std::size_t p0 = 0; p0 < k; p0 += Shape::kKC) {
    const std::size_t kc = GemmMin(k - p0, Shape::kKC);
    const std::size_t pairs = (kc + 1) / 2;
    IntGemmPackB(B, ldb, k, n, p0 / 2, pairs, b_work);
    for (std::size_t ic = 0; ic < m; ic += Shape::kMC) {
      const std::size_t mc = GemmMin(m - ic, Shape::kMC);
      IntGemmPackA(A, lda, ic, mc, p0, kc, pairs, a_work);
      for (std::size_t jr = 0; jr < n; jr += nr) {
        const std::int32_t* panel = b_work + jr * pairs;
        const std::size_t cols = GemmMin(n - jr, nr);
        for (std::size_t ir = 0; ir < mc; ir += Shape::kMR) {
          const std::size_t rows = GemmMin(mc - ir, Shape::kMR);
          IntGemmTileOf<Shape::kMR>(rows, pairs, a_work + ir * pairs, pairs, panel, p0 > 0,
                                    C + (ic + ir) * ldc + jr, ldc, cols);
        }
      }
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
