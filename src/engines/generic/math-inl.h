// Generic f32 vector math (exp, log, tanh, sigmoid, softmax), written once with Highway.
//
// Compiled once per engine, inside its kernels TU (through engines/generic/engine-table.h), in the
// engine's own namespace with internal linkage. Vector-length agnostic. What was measured for the
// forms below: docs/performance/log.md, "Vector math".
//
// Our own kernels rather than hwy/contrib/math: its Log is documented at 4 ulp (we promise 2),
// and its Exp covers x <= 104 only, without subnormal results. Log uses Cephes' logf
// polynomial; the exp and expm1 polynomials are our own near-minimax fits (Lawson-weighted least
// squares, coefficients rounded to float, relative error 3.8e-9 for exp and 1.5e-8 for the
// 1 - e^-2s of tanh). Worst errors against a double oracle, sweeping every 7th float (and every
// float with 2^-14 <= |x| < 16 for tanh): exp 0.99 ulp, log 0.80, tanh 3.3, sigmoid 2.3;
// softmax 1.6 on random inputs (bounds 2, 2, 4, 4, 4).
//
// Exp, log and sigmoid take a fast path for vectors whose lanes all lie in the ordinary range
// and a slower, fully general path otherwise (Inf, NaN, overflow, subnormal inputs or results);
// the range test is a compare or two and a branch that is almost always predicted.
// Tanh needs no general path: clamping x keeps it in range.

#ifndef COHERIQ_ENGINES_GENERIC_MATH_INL_H_
#define COHERIQ_ENGINES_GENERIC_MATH_INL_H_

#include <cstddef>
#include <cstdint>

#include "engines/generic/blas1-inl.h"  // softmax scales with scal
#include "engines/generic/namespace.h"

COHERIQ_GENERIC_BEGIN

// ------------------------------ Exp core

// e^x = 2^k · (1 + p) with k = round(x / ln 2), r = x - k·ln 2 in [-ln2/2, ln2/2], p = e^r - 1.
// No struct holds vectors here, nor is one returned: SVE's sizeless vector types cannot be
// members, so results come back through references.

// Adding 1.5·2^23 to |v| < 2^22 rounds v to an integer k held in the low mantissa bits (the
// float's ulp there is 1). The extra 127 is the exponent bias, so that those bits shifted into
// the exponent field give 2^k directly (Pow2FromShifted).
inline constexpr float kRoundShift = 12582912.0f + 127.0f;

// Range reduction and polynomial, for |x| < 2^21: returns p = e^r - 1 and sets `k_shifted` to
// k + kRoundShift (k + 127 sits in the low mantissa bits). With kHasLo, `x_lo` is a small
// correction added to r (softmax passes the rounding error of x_i - max there).
template <bool kHasLo, class D, class V = hn::Vec<D>>
HWY_INLINE V ExpReduce(D d, V x, V x_lo, V& k_shifted) {
  k_shifted = hn::MulAdd(x, hn::Set(d, 1.44269504088896341f), hn::Set(d, kRoundShift));
  const V k = hn::Sub(k_shifted, hn::Set(d, kRoundShift));
  // Cody-Waite: ln 2 = 0.693359375 - 2.12194440e-4 (+ 3e-12); k·0.693359375 is exact for
  // |k| < 2^15, and so is x - k·0.693359375 (Sterbenz).
  V r = hn::NegMulAdd(k, hn::Set(d, 0.693359375f), x);
  r = hn::NegMulAdd(k, hn::Set(d, -2.12194440e-4f), r);
  if constexpr (kHasLo) r = hn::Add(r, x_lo);
  // e^r - 1 = r + r²·P(r), P of degree 4: relative error 3.8e-9 on [-ln2/2, ln2/2].
  V poly = hn::Set(d, 1.3814610429e-3f);
  poly = hn::MulAdd(poly, r, hn::Set(d, 8.3687100559e-3f));
  poly = hn::MulAdd(poly, r, hn::Set(d, 4.1668388993e-2f));
  poly = hn::MulAdd(poly, r, hn::Set(d, 1.6666521132e-1f));
  poly = hn::MulAdd(poly, r, hn::Set(d, 4.9999994040e-1f));
  return hn::MulAdd(poly, hn::Mul(r, r), r);
}

// 2^k as a float, for k in [-126, 127], from k + kRoundShift: the bits of 1.5·2^23 above the
// low 9 leave the register in the shift, so what remains is (k + 127) << 23.
template <class D, class V = hn::Vec<D>>
HWY_INLINE V Pow2FromShifted(D d, V k_shifted) {
  const hn::RebindToSigned<D> di;
  return hn::BitCast(d, hn::ShiftLeft<23>(hn::BitCast(di, k_shifted)));
}

// ExpFast is valid where k is in [-126, 127], so that 2^k is a normal float.
inline constexpr float kExpFastMin = -87.0f;
inline constexpr float kExpFastMax = 88.0f;

// e^x for x in [kExpFastMin, kExpFastMax]; NaN gives NaN (it propagates through the FMAs).
template <bool kHasLo, class D, class V = hn::Vec<D>>
HWY_INLINE V ExpFast(D d, V x, V x_lo) {
  V k_shifted = hn::Zero(d);
  const V p = ExpReduce<kHasLo>(d, x, x_lo, k_shifted);
  const V scale = Pow2FromShifted(d, k_shifted);
  return hn::MulAdd(scale, p, scale);
}

// Any x: overflow to +Inf above ln(FLT_MAX), subnormal results down to e^-103.97, 0 below,
// e^-Inf = 0, NaN stays NaN. 2^k is applied in two halves (k up to 128 or down to -150 has no
// float of its own).
template <bool kHasLo, class D, class V = hn::Vec<D>>
HWY_INLINE V ExpGeneral(D d, V x, V x_lo) {
  const hn::RebindToSigned<D> di;
  const V clamped = hn::Min(hn::Max(x, hn::Set(d, -104.0f)), hn::Set(d, 89.0f));
  // A clamped lane's correction is meaningless, and NaN when x is infinite (softmax's TwoSum).
  if constexpr (kHasLo) x_lo = hn::IfThenElseZero(hn::Eq(x, clamped), x_lo);
  V k_shifted = hn::Zero(d);
  const V p = ExpReduce<kHasLo>(d, clamped, x_lo, k_shifted);
  const auto k = hn::Sub(hn::BitCast(di, k_shifted), hn::BitCast(di, hn::Set(d, kRoundShift)));
  const auto k_half = hn::ShiftRight<1>(k);  // arithmetic: floor(k / 2)
  const auto exponent_bias = hn::Set(di, 127);
  const V scale_a = hn::BitCast(d, hn::ShiftLeft<23>(hn::Add(k_half, exponent_bias)));
  const V scale_b = hn::BitCast(d, hn::ShiftLeft<23>(hn::Add(hn::Sub(k, k_half), exponent_bias)));
  const V y = hn::Mul(hn::MulAdd(scale_a, p, scale_a), scale_b);
  return hn::IfThenElse(hn::IsNaN(x), hn::Add(x, x), y);
}

// True if ExpFast is valid for every lane of a and b that is not NaN. Min/Max may return either
// operand when one is NaN; both outcomes are fine, as ExpFast maps NaN to NaN.
template <class D, class V = hn::Vec<D>>
HWY_INLINE bool ExpFastRange(D d, V a, V b) {
  const auto in_range = hn::And(hn::Ge(hn::Min(a, b), hn::Set(d, kExpFastMin)),
                                hn::Le(hn::Max(a, b), hn::Set(d, kExpFastMax)));
  return hn::AllTrue(d, in_range);
}

// ------------------------------ Elementwise driver

// y[i] = op(x[i]) where `op(a, b, ra, rb)` maps two vectors at once into ra and rb (one range
// test for both; references, as SVE vectors cannot sit in a struct), with a
// masked remainder (computed on zeros, never stored). Each vector is loaded before its result
// is stored, so y == x is fine.
template <class D, class Op>
HWY_INLINE void MapUnary(D d, std::size_t n, const float* x, float* y, Op op) {
  const std::size_t N = hn::Lanes(d);
  std::size_t i = 0;
  for (; i + 2 * N <= n; i += 2 * N) {
    auto first = hn::Zero(d);
    auto second = hn::Zero(d);
    op(hn::LoadU(d, x + i), hn::LoadU(d, x + i + N), first, second);
    hn::StoreU(first, d, y + i);
    hn::StoreU(second, d, y + i + N);
  }
  for (; i < n; i += N) {
    // At most N lanes: on an SVE length that is not a power of two (384 bits), the hardware has
    // more lanes than d, and FirstN(d, n - i) would enable them past the vector.
    const auto mask = hn::FirstN(d, HWY_MIN(n - i, N));
    const auto v = hn::MaskedLoad(mask, d, x + i);
    auto first = hn::Zero(d);
    auto second = hn::Zero(d);
    op(v, v, first, second);
    hn::BlendedStore(first, mask, d, y + i);
  }
}

// ------------------------------ Exp

HWY_ATTR void exp(std::size_t n, const float* x, float* y) {
  const hn::ScalableTag<float> d;
  using V = hn::Vec<decltype(d)>;
  const V none = hn::Zero(d);
  MapUnary(d, n, x, y, [&](V a, V b, V& ra, V& rb) HWY_ATTR {
    if (HWY_LIKELY(ExpFastRange(d, a, b))) {
      ra = ExpFast<false>(d, a, none);
      rb = ExpFast<false>(d, b, none);
      return;
    }
    ra = ExpGeneral<false>(d, a, none);
    rb = ExpGeneral<false>(d, b, none);
  });
}

// ------------------------------ Log

// ln x = k·ln 2 + ln m with x = m·2^(k - k_bias), m in [√½, √2); ln m = f - f²/2 + f³·P(f),
// f = m - 1 (exact). Valid for positive normal x; k_bias undoes a prescaling of subnormals.
template <class D, class V = hn::Vec<D>>
HWY_INLINE V LogNormal(D d, V x, V k_bias) {
  const hn::RebindToSigned<D> di;
  // Subtracting the bits of √½ moves m's range boundary to a power of two: the exponent field
  // of the difference is k, and its mantissa bits plus √½'s bits give m.
  const auto sqrt_half_bits = hn::Set(di, 0x3f3504f3);
  const auto shifted = hn::Sub(hn::BitCast(di, x), sqrt_half_bits);
  const V k = hn::Sub(hn::ConvertTo(d, hn::ShiftRight<23>(shifted)), k_bias);
  const V m = hn::BitCast(d, hn::Add(hn::And(shifted, hn::Set(di, 0x007fffff)), sqrt_half_bits));
  const V f = hn::Sub(m, hn::Set(d, 1.0f));
  const V f2 = hn::Mul(f, f);
  // Cephes logf: relative error of the polynomial part below 2^-24 on [√½ - 1, √2 - 1].
  V poly = hn::Set(d, 7.0376836292e-2f);
  poly = hn::MulAdd(poly, f, hn::Set(d, -1.1514610310e-1f));
  poly = hn::MulAdd(poly, f, hn::Set(d, 1.1676998740e-1f));
  poly = hn::MulAdd(poly, f, hn::Set(d, -1.2420140846e-1f));
  poly = hn::MulAdd(poly, f, hn::Set(d, 1.4249322787e-1f));
  poly = hn::MulAdd(poly, f, hn::Set(d, -1.6668057665e-1f));
  poly = hn::MulAdd(poly, f, hn::Set(d, 2.0000714765e-1f));
  poly = hn::MulAdd(poly, f, hn::Set(d, -2.4999993993e-1f));
  poly = hn::MulAdd(poly, f, hn::Set(d, 3.3333331174e-1f));
  // Small terms first, then f, then the exact k·0.693359375 (ln 2 split as in ExpReduce).
  V y = hn::Mul(hn::Mul(poly, f), f2);
  y = hn::MulAdd(k, hn::Set(d, -2.12194440e-4f), y);
  y = hn::MulAdd(f2, hn::Set(d, -0.5f), y);
  y = hn::Add(f, y);
  return hn::MulAdd(k, hn::Set(d, 0.693359375f), y);
}

inline constexpr float kSmallestNormal = 1.17549435e-38f;

// Any x: subnormals are scaled by 2^23 first; ln 0 = -Inf, ln(<0) = NaN, ln Inf = Inf,
// NaN stays NaN.
template <class D, class V = hn::Vec<D>>
HWY_INLINE V LogGeneral(D d, V x) {
  const auto subnormal = hn::Lt(x, hn::Set(d, kSmallestNormal));
  const V scaled = hn::IfThenElse(subnormal, hn::Mul(x, hn::Set(d, 8388608.0f)), x);  // 2^23
  V y = LogNormal(d, scaled, hn::IfThenElseZero(subnormal, hn::Set(d, 23.0f)));
  const V inf = hn::Set(d, __builtin_inff());
  y = hn::IfThenElse(hn::Eq(x, inf), inf, y);
  y = hn::IfThenElse(hn::Eq(x, hn::Zero(d)), hn::Neg(inf), y);
  const auto invalid = hn::Or(hn::Lt(x, hn::Zero(d)), hn::IsNaN(x));
  return hn::IfThenElse(invalid, hn::Set(d, __builtin_nanf("")), y);
}

HWY_ATTR void log(std::size_t n, const float* x, float* y) {
  const hn::ScalableTag<float> d;
  const auto smallest_normal = hn::Set(d, kSmallestNormal);
  const auto largest = hn::Set(d, hwy::HighestValue<float>());
  const auto zero = hn::Zero(d);
  using V = hn::Vec<decltype(d)>;
  // Not a Min/Max test as in Exp: LogNormal does not propagate NaN, so each lane is checked.
  const auto log1 = [&](V v) HWY_ATTR {
    const auto ordinary = hn::And(hn::Ge(v, smallest_normal), hn::Le(v, largest));
    if (HWY_LIKELY(hn::AllTrue(d, ordinary))) return LogNormal(d, v, zero);
    return LogGeneral(d, v);
  };
  MapUnary(d, n, x, y, [&](V a, V b, V& ra, V& rb) HWY_ATTR {
    ra = log1(a);
    rb = log1(b);
  });
}

// ------------------------------ Tanh

// tanh x = w / (2 - w) with w = 1 - e^(-2x): one formula for every x, accurate near 0 too
// because w comes from an expm1, scale·(1 - e^r) - (scale - 1) with scale = 2^k, without
// cancellation. The reduction is done on s = x + k·ln2/2 (r = -2s) with the polynomial fitted
// in s, which saves the doubling; one reduction step suffices, as its error is scaled by 2^k
// and so matters only while k is small. x is clamped to ±9.5, where tanh already rounds to ±1,
// so k stays in [-27, 27] and 2^k is a normal float. Working on x rather than |x| saves the
// sign handling (measured: 15% of the time); the operand order keeps -0 as -0 (x - (+0),
// -0·2 - (+0) and -0 / 2 are -0).
//
// The time goes to the FMA pipes and to the length of the dependency chain (about 50 cycles
// per vector on Zen 5), not to the divider. So scale·s (exact: a power of two times a normal
// float) is formed beside the polynomial, and w = (scale·s)·S(s) - (scale - 1) is one FMA
// after it, instead of s·S(s) after the polynomial and then the FMA: one rounding fewer, a
// multiply off the chain, 5% faster. Four vectors per step instead of two: 1.5% more.
// (Percentages: Zen 5, 4K elements, against the previous form in the same process.)
// Measured and dropped: 2 - w as a second FMA beside w (an FMA-pipe operation for an add-pipe
// one: 5% slower), the polynomial in Estrin's form (one multiply more: slower), and a rational
// x·P(x²)/Q(x²) as Eigen's tanh is (ours of degree 4 over 4 in x², fitted on |x| <= 9, 10%
// faster): its float evaluation errs by up to 5.5 ulp near |x| = 8.5 (Eigen's 4.9), beyond
// the 4 ulp bound, though the approximation itself is within 0.4 ulp.
template <class D, class V = hn::Vec<D>>
HWY_INLINE V Tanh1(D d, V v) {
  const V one = hn::Set(d, 1.0f);
  const V two = hn::Set(d, 2.0f);
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX3
  // AVX-512 DQ's VRANGEPS clamps in one operation, not two: the smaller magnitude of x and
  // 9.5, with x's sign (imm 0b0010; 4% faster, measured). It maps NaN to ±9.5, so the
  // division below is merge-masked to the lanes that are not NaN and keeps x in the others.
  const auto not_nan = hn::Eq(v, v);  // one compare (IsNaN and Not would be two operations)
  const V xc{_mm512_range_ps(v.raw, _mm512_set1_ps(9.5f), 0x02)};
#else
  // Min/Max(constant, NaN) are NaN on x86 (it returns the second operand when either is
  // NaN), so NaN propagates to the result there. Highway's NEON and SVE Min/Max are IEEE
  // minNum/maxNum (FMINNM), which return the number: ARM puts the NaN back below.
  const V xc = hn::Min(hn::Set(d, 9.5f), hn::Max(hn::Set(d, -9.5f), v));
#endif
  const V k_shifted = hn::MulAdd(xc, hn::Set(d, -2.88539008177792681f), hn::Set(d, kRoundShift));
  const V minus_k = hn::Sub(hn::Set(d, kRoundShift), k_shifted);
  const V s = hn::NegMulAdd(minus_k, hn::Set(d, 0.346573590279972655f), xc);
  const V scale = Pow2FromShifted(d, k_shifted);
  const V scale_s = hn::Mul(scale, s);
  // 1 - e^(-2s) = s·S(s), S of degree 5 with the Taylor terms 2 - 2s kept exact: relative
  // error 1.5e-8 on [-ln2/4, ln2/4].
  V poly = hn::Set(d, -8.8948644698e-2f);
  poly = hn::MulAdd(poly, s, hn::Set(d, 2.6771309972e-1f));
  poly = hn::MulAdd(poly, s, hn::Set(d, -6.6666966677e-1f));
  poly = hn::MulAdd(poly, s, hn::Set(d, 1.3333239555e+0f));
  poly = hn::MulAdd(poly, s, hn::Set(d, -2.0f));
  poly = hn::MulAdd(poly, s, two);
  const V w = hn::MulSub(scale_s, poly, hn::Sub(scale, one));
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX3
  return V{_mm512_mask_div_ps(v.raw, not_nan.raw, w.raw, hn::Sub(two, w).raw)};
#else
  const V result = hn::Div(w, hn::Sub(two, w));
  if constexpr (HWY_ARCH_ARM) return hn::IfThenElse(hn::IsNaN(v), v, result);
  return result;
#endif
}

HWY_ATTR void tanh(std::size_t n, const float* x, float* y) {
  const hn::ScalableTag<float> d;
  using V = hn::Vec<decltype(d)>;
  const std::size_t N = hn::Lanes(d);
  std::size_t i = 0;
  // Each vector is loaded before its result is stored, so y == x is fine.
  for (; i + 4 * N <= n; i += 4 * N) {
    const V a = Tanh1(d, hn::LoadU(d, x + i));
    const V b = Tanh1(d, hn::LoadU(d, x + i + N));
    const V c = Tanh1(d, hn::LoadU(d, x + i + 2 * N));
    const V e = Tanh1(d, hn::LoadU(d, x + i + 3 * N));
    hn::StoreU(a, d, y + i);
    hn::StoreU(b, d, y + i + N);
    hn::StoreU(c, d, y + i + 2 * N);
    hn::StoreU(e, d, y + i + 3 * N);
  }
  MapUnary(d, n - i, x + i, y + i, [&](V a, V b, V& ra, V& rb) HWY_ATTR {
    ra = Tanh1(d, a);
    rb = Tanh1(d, b);
  });
}

// ------------------------------ Sigmoid

// With e = e^-|x| in (0, 1] (never overflows): σ(x) = 1 / (1 + e) for x >= 0 and e / (1 + e)
// for x < 0, one division either way. Keeps full relative accuracy for very negative x,
// including subnormal results (x down to -103.97), where 1 / (1 + e^-x) would give 0.
// NaN: e is NaN, so is the quotient.
HWY_ATTR void sigmoid(std::size_t n, const float* x, float* y) {
  const hn::ScalableTag<float> d;
  using V = hn::Vec<decltype(d)>;
  const V none = hn::Zero(d);
  const V one = hn::Set(d, 1.0f);
  const V sign_bit = hn::Set(d, -0.0f);
  const auto sigmoid_of = [&](V v, V e) HWY_ATTR {
    return hn::Div(hn::IfThenElse(hn::Lt(v, none), e, one), hn::Add(one, e));
  };
  MapUnary(d, n, x, y, [&](V a, V b, V& ra, V& rb) HWY_ATTR {
    const V minus_abs_a = hn::Or(a, sign_bit);
    const V minus_abs_b = hn::Or(b, sign_bit);
    if (HWY_LIKELY(ExpFastRange(d, minus_abs_a, minus_abs_b))) {
      ra = sigmoid_of(a, ExpFast<false>(d, minus_abs_a, none));
      rb = sigmoid_of(b, ExpFast<false>(d, minus_abs_b, none));
      return;
    }
    ra = sigmoid_of(a, ExpGeneral<false>(d, minus_abs_a, none));
    rb = sigmoid_of(b, ExpGeneral<false>(d, minus_abs_b, none));
  });
}

// ------------------------------ Softmax

// y = e^(x - max x) / Σ e^(x - max x), three passes: max; exponentials (stored in y) and their
// sum; scaling by 1 / sum. x_i - max is not exact in float (64 ulp of error in e^(x_i - max)
// for differences near -80): its rounding error, from TwoSum (Fast2Sum where it is exact), goes
// into the exp reduction. The sum is accumulated in double, after one float addition of two
// exponentials, so it adds at most 2^-24 relative (half an ulp) to each element.
HWY_ATTR void softmax(std::size_t n, const float* x, float* y) {
  if (n == 0) return;
  const hn::ScalableTag<float> d;
  const std::size_t N = hn::Lanes(d);
  const auto neg_inf = hn::Set(d, -__builtin_inff());

  // Pass 1: max. The remainder's masked-off lanes are -Inf, neutral for Max.
  auto m0 = neg_inf, m1 = neg_inf;
  std::size_t i = 0;
  for (; i + 2 * N <= n; i += 2 * N) {
    m0 = hn::Max(m0, hn::LoadU(d, x + i));
    m1 = hn::Max(m1, hn::LoadU(d, x + i + N));
  }
  for (; i < n; i += N) {
    const auto mask = hn::FirstN(d, HWY_MIN(n - i, N));  // at most N lanes, as in MapUnary
    m0 = hn::Max(m0, hn::IfThenElse(mask, hn::MaskedLoad(mask, d, x + i), neg_inf));
  }
  const auto vmax = hn::MaxOfLanes(d, hn::Max(m0, m1));
  const auto neg_max = hn::Neg(vmax);

  // Pass 2: y = e^(x - max), sum in double.
  const hn::Half<decltype(d)> dh;
  const hn::RepartitionToWide<decltype(d)> dw;
  auto sum0 = hn::Zero(dw), sum1 = hn::Zero(dw);
  const auto exp_shifted = [&](auto v) HWY_ATTR {
    // TwoSum: diff + diff_lo == v - max exactly.
    const auto diff = hn::Add(v, neg_max);
    const auto v_part = hn::Sub(diff, neg_max);
    const auto max_part = hn::Sub(diff, v_part);
    const auto diff_lo = hn::Add(hn::Sub(v, v_part), hn::Sub(neg_max, max_part));
    if (HWY_LIKELY(hn::AllTrue(d, hn::Ge(diff, hn::Set(d, kExpFastMin))))) {
      return ExpFast<true>(d, diff, diff_lo);
    }
    return ExpGeneral<true>(d, diff, diff_lo);
  };
  const auto accumulate = [&](auto e) HWY_ATTR {
    sum0 = hn::Add(sum0, hn::PromoteTo(dw, hn::LowerHalf(dh, e)));
    sum1 = hn::Add(sum1, hn::PromoteTo(dw, hn::UpperHalf(dh, e)));
  };
  // Two vectors per step, with one range test for both (measured 13% faster than one vector).
  // Where every lane has |x_i| <= |max| (x_i >= -|max|), Fast2Sum gives the rounding error of
  // x_i - max exactly in two operations instead of TwoSum's five: 5% more (Fast2Sum is exact
  // when the operand added to has the larger magnitude, here -max).
  const auto neg_abs_max = hn::Neg(hn::Abs(vmax));
  const auto exp_min = hn::Set(d, kExpFastMin);
  i = 0;
  for (; i + 2 * N <= n; i += 2 * N) {
    const auto a = hn::LoadU(d, x + i);
    const auto b = hn::LoadU(d, x + i + N);
    const auto diff_a = hn::Add(a, neg_max);
    const auto diff_b = hn::Add(b, neg_max);
    hn::Vec<decltype(d)> ea, eb;
    const auto fast_range = hn::Ge(hn::Min(diff_a, diff_b), exp_min);
    if (HWY_LIKELY(hn::AllTrue(d, hn::And(fast_range, hn::Ge(hn::Min(a, b), neg_abs_max))))) {
      ea = ExpFast<true>(d, diff_a, hn::Sub(a, hn::Sub(diff_a, neg_max)));
      eb = ExpFast<true>(d, diff_b, hn::Sub(b, hn::Sub(diff_b, neg_max)));
    } else {
      ea = exp_shifted(a);
      eb = exp_shifted(b);
    }
    hn::StoreU(ea, d, y + i);
    hn::StoreU(eb, d, y + i + N);
    // ea + eb in float first (one rounding, 2^-24 of the sum at most), then in double: half
    // the conversions.
    accumulate(hn::Add(ea, eb));
  }
  for (; i + N <= n; i += N) {
    const auto e = exp_shifted(hn::LoadU(d, x + i));
    hn::StoreU(e, d, y + i);
    accumulate(e);
  }
  if (i < n) {
    const auto mask = hn::FirstN(d, n - i);
    const auto e = hn::IfThenElseZero(mask, exp_shifted(hn::MaskedLoad(mask, d, x + i)));
    hn::BlendedStore(e, mask, d, y + i);
    accumulate(e);
  }

  // Pass 3: scale.
  const double sum = hn::GetLane(hn::SumOfLanes(dw, hn::Add(sum0, sum1)));
  scal(n, static_cast<float>(1.0 / sum), y);
}

COHERIQ_GENERIC_END

#endif  // COHERIQ_ENGINES_GENERIC_MATH_INL_H_
