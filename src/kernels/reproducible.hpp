// The reproducible mode's canonical orders: the figures every engine's kernels follow in the mode
// (COHERIQ_REPRODUCIBLE=1, coheriq::kernels::enable_reproducible()), so that every engine, every
// vector length and every thread count gives the same bits (docs/kernels.md, "The reproducible
// mode"). Fixed by the domain, not by an engine: an engine maps them onto its registers.
//
// Reductions. Over the terms t_0 .. t_{n-1} of a reduction, in the element type T:
//   partials s_0 .. s_{P-1} (P = kPartials<T>) start at +0; t_i goes into s_{i mod P}, in
//   increasing i: s = s + t (sum: t = x_i; asum: t = |x_i|), or s = fma(x_i, y_i, s) (dot); then
//   the halving tree: for h = P/2, P/4, ..., 1, s_j = s_j + s_{j+h} for every j < h; the result
//   is s_0.
//   The terms are padded with zeros to a multiple of P (s + 0, which turns a partial of -0, left
//   by a product that underflowed to -0, into +0): vector code pads its last block with zeros.
//   Strided forms reduce the same terms (element i of the vector is t_i). Complex dots reduce
//   the 2n interleaved reals: A_i = fma(x_i, y_i, A) and B_i = fma(x_i, y'_i, B), y' being y with
//   the real and imaginary part of each element swapped, each into P partials of the real type
//   by index i mod P over the 2n reals, then the halving tree down to h = 2, which leaves A_0
//   (the even, real-times-real sum) and A_1 (odd); dotu = (A_0 − A_1, B_0 + B_1), dotc =
//   (A_0 + A_1, B_0 − B_1).
//
// GEMM (f32, f64; every path: packed, small, batched, planned). Depth k is cut into blocks of
// gemm_k_block(k) (the last one shorter); for each block, every C
// element is one FMA chain over the block's k in increasing order, starting from +0 (acc =
// fma(a_ip, b_pj, acc)); then t = alpha·acc (t = acc when alpha == 1) and C = t when the block's
// beta is 0, else fma(beta_b, C, t), where beta_b is the caller's beta for the first block and 1
// for the others. k == 0: C = beta·C (0 when beta == 0). The real trmm's pass (trmm_packed): each
// element of B the sum over op(A)'s triangle in these k-blocks for a depth of the order, from the
// block holding the element's own row (Left) or column (Right) away from it, each block an FMA
// chain from +0 in k order, t = alpha·acc, the first block's t the element, each later one C =
// fma(1, C, t). The complex trmm's pass (trmm_1m) is that order on the complex matrices as
// reals (BLIS's 1m method): each real part of an element of B the sum over the real k-steps of
// its triangle (twice its element range) in the k-blocks for twice the order, of A' (op(A) as
// reals, a Unit diagonal 1 + 0i) times pack_b_1m's expansion of alpha·B (Left), or of B as reals
// times the expansion of alpha·op(A) (Right), t = acc (alpha is in the expansion). The bf16 GEMM is
// this GEMM on its operands widened to float (each product exact); dot_bf16 is dot on them. The
// integer kernels (dot_u8s8, gemm_u8s8s32) are exact: int32 sums wrap modulo 2^32 in any order.
//
// Also canonical: nrm2. Its sum of squares in T is cut in two at nrm2_split(n), each part the
// fused reduction above (s = fma(x_i, x_i, s), part two's terms numbered from 0), the result part
// one + part two: two sets of partials give an engine eight FMA chains where it has the
// registers (AVX-512), while one set keeps to the registers of the others. When that sum is not
// within [2^-80, max] (f32) or [2^-900, max] (f64), the fast kernels' fallbacks: f32 sums the
// squares in double on kPartials<double> partials (s = s + x_i·x_i, the square exact), f64
// rescales by two powers of two near 1/max|x| (the maximum is exact in any order) and sums the
// rounded squares of the scaled x_i (s = s + t, t = (x_i·a·b)² rounded) as one reduction. gemv N:
// its columns in chunks of kGemvChunk, y_i = y_i + alpha·D per chunk (alpha·D rounded, then the
// sum), D the canonical dot of row i's chunk with x's; gemv T is an FMA chain per y_j over the rows
// in order, the same on every width. softmax and log_softmax: the exponentials as always, their sum
// in double on kPartials<double> partials (term i into partial i mod 32, padded with zeros; f32
// terms added, f64 terms as pairs hi + lo with TwoSum: (hi, e) = TwoSum(hi, t), lo = lo + e; the
// tree adds pairs likewise: (h, e) = TwoSum(h_j, h_j+h), l_j = (l_j + l_j+h) + e), the result hi +
// lo as the fast kernels use it. Everything else is elementwise (one FMA where the generic kernels
// fuse, the reference with std::fma) or built on these: in the mode the level 2 and 3 are the
// blocked forms of src/kernels/level2.cpp and level3.cpp on every engine, the reference included,
// and the vector math is one algorithm for every engine already.
//
// Plain constants, no code: safe to include from baseline and ISA translation units alike.
#pragma once

#include <cstddef>

namespace coheriq::kernels::canonical {

// Partial sums of a reduction: 256 bytes of them (4 zmm, 8 ymm, 16 NEON or 128-bit SVE
// registers, one 2048-bit SVE register).
template <class T>
inline constexpr std::size_t kPartials = 256 / sizeof(T);

// Where nrm2's sum of squares is cut in two: after half its blocks of kPartials, rounded up (all n
// when there is a single block), so that the first part is whole blocks.
template <class T>
constexpr std::size_t nrm2_split(std::size_t n) {
  const std::size_t blocks = (n + kPartials<T> - 1) / kPartials<T>;
  const std::size_t first = (blocks + 1) / 2 * kPartials<T>;
  return first < n ? first : n;
}

// The GEMM's k-block in the mode, at most: the smallest KC of the built-in engines (neon, sve),
// so that no engine's packed panels or stack buffers outgrow what its own blocking sized.
inline constexpr std::size_t kGemmKc = 256;

// gemv N's column chunk (the strided kernels' chunk, a multiple of every kPartials).
inline constexpr std::size_t kGemvChunk = 1024;

// The depth of the mode's k-blocks for a product of depth k: the fewest blocks of at most kGemmKc,
// made equal up to a multiple of 16 (the normal mode's rule, with the domain's KC).
constexpr std::size_t gemm_k_block(std::size_t k) {
  const std::size_t blocks = k == 0 ? 1 : (k + kGemmKc - 1) / kGemmKc;
  return ((k + blocks - 1) / blocks + 15) / 16 * 16;
}

}  // namespace coheriq::kernels::canonical
