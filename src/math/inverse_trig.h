// asin, acos, atan and atan2, for float and double: the algorithms every engine runs
// (src/math/ops.h).
//
// asin, acos: |x| <= ½: asin x = x + x·z·P(z), z = x². |x| > ½: with z = (1 - |x|)/2 (exact) and
// s = √z, asin |x| = π/2 - 2·asin s and acos |x| = 2·asin s (π - 2·asin s for x < 0), asin s by
// the same polynomial. Both types, each in its own (AsinAcosOfOwnType), keep √z's rounding (s_lo,
// from the exact remainder z - s²) and the constants as hi + lo pairs, and subtract 2s or x from
// π/2 or π exactly (Fast2Sum), so the cancellation near |x| = ½ costs nothing. |x| > 1 and ±Inf
// give NaN (√ of a negative z); asin(±0) = ±0, acos(1) = +0.
//
// atan2(y, x), for a = |y|, b = |x|: atan(a/b) = base + atan(t), t = num/den in
// [-tan(π/8), tan(π/8)] with
//   a <= tan(π/8)·b:   base 0,   t = a / b,
//   a <= tan(3π/8)·b:  base π/4, t = (a - b) / (a + b),
//   beyond:            base π/2, t = -b / a,
// one division per lane, then atan t = t + t·z·P(z), z = t². Each type in its own arithmetic
// (f32 in float) keeps num and den as exact sums (TwoSum) and the division's remainder (t_lo, one
// more division), adds the base as a hi + lo pair, and so stays within 1 ulp. Quadrants: x < 0 (its
// sign bit) takes π - base and negates atan t; the result gets y's sign. C99 Annex F: atan2(±0, +0)
// = ±0, atan2(±0, -0) = ±π, atan2(±Inf, ±Inf) = ±π/4 or ±3π/4, atan(±Inf) = ±π/2, NaN in gives NaN.
//
// atan x is atan2(x, 1) with one division: t = num·(1/den) and its remainder scaled by the same
// reciprocal (AtanOf; a ± 1 need no TwoSum there).
#pragma once

#include <iterator>

#include "math/ops.h"

namespace coheriq::kernels::math {

struct InverseTrigConstants {
  static constexpr double kPiOver4Hi = 0x1.921fb54442d18p-1, kPiOver4Lo = 0x1.1a62633145c07p-55;
  static constexpr double kPiOver2Hi = 0x1.921fb54442d18p+0, kPiOver2Lo = 0x1.1a62633145c07p-54;
  static constexpr double k3PiOver4Hi = 0x1.2d97c7f3321d2p+1, k3PiOver4Lo = 0x1.a79394c9e8a0ap-54;
  static constexpr double kPiHi = 0x1.921fb54442d18p+1, kPiLo = 0x1.1a62633145c07p-53;
  static constexpr double kTanPiOver8 = 0x1.a827999fcef32p-2;
  static constexpr double kTan3PiOver8 = 0x1.3504f333f9de6p+1;

  // (asin t - t) / t³ = P(t²), a Chebyshev fit on [0, ¼]: error 2^-58.5 relative to asin t.
  static constexpr double kAsin[] = {
      0.02961201126495512,  -0.01924167174674304, 0.019554513336123378, 0.0030448799094556773,
      0.009319560794767446, 0.009621842970100282, 0.011566459612121669, 0.01396378001220357,
      0.017352816540325496, 0.02237215744350722,  0.03038194447553234,  0.044642857142551895,
      0.07500000000000118,  0.16666666666666666};
  // (atan t - t) / t³ = P(t²), a Chebyshev fit on [0, tan²(π/8)]: error 2^-58 relative to atan t.
  static constexpr double kAtan[] = {
      0.01628575685519589, -0.03457056198140507, 0.04551593220625667, -0.05230454270650051,
      0.05878928997834749, -0.06666424885738254, 0.07692296375032143, -0.09090908753500877,
      0.11111111105155447, -0.14285714285659828, 0.19999999999999804, -0.3333333333333333};
};

// The constants in the type T the functions compute in (f32: float; AsinAcosOfOwnType,
// AtanMagnitudes, AtanOf).
template <class T>
struct InverseTrigConstantsOf;

template <>
struct InverseTrigConstantsOf<float> {
  static constexpr float kPiOver4Hi = 0x1.921fb6p-1f, kPiOver4Lo = -0x1.777a5cp-26f;
  static constexpr float kPiOver2Hi = 0x1.921fb6p+0f, kPiOver2Lo = -0x1.777a5cp-25f;
  static constexpr float k3PiOver4Hi = 0x1.2d97c8p+1f, k3PiOver4Lo = -0x1.99bc5cp-28f;
  static constexpr float kPiHi = 0x1.921fb6p+1f, kPiLo = -0x1.777a5cp-24f;
  static constexpr float kTanPiOver8 = 0x1.a8279ap-2f, kTan3PiOver8 = 0x1.3504f4p+1f;
  // (asin t - t) / t³ = P(t²) on [0, ¼], a Chebyshev fit (error 2^-33.9 relative to asin t)
  // rounded to float: the term it feeds is below 0.05·t, so the rounding costs under 2^-28 of t.
  static constexpr float kAsin[] = {0x1.fb7ca4p-6f, 0x1.5a80ap-7f,  0x1.82db24p-6f, 0x1.efedf8p-6f,
                                    0x1.6dc0fp-5f,  0x1.33331ep-4f, 0x1.555556p-3f};
  // (atan t - t) / t³ = P(t²) on [0, tan²(π/8)], a Chebyshev fit (error 2^-33.5 relative to
  // atan t) rounded to float: the term it feeds is below 0.06·t, so the rounding costs under
  // 2^-28 of t.
  static constexpr float kAtan[] = {0x1.9d8b24p-5f,  -0x1.614448p-4f, 0x1.c57baep-4f,
                                    -0x1.248a18p-3f, 0x1.99997cp-3f,  -0x1.555556p-2f};
  // atan2's scaling (AtanMagnitudes): beyond kHuge a + b could overflow; with the smaller below
  // kTiny the quotient's remainder could fall among the subnormals, which matters while the
  // larger is below kTinyLarger (beyond, the remainder's error divided by it is far below t's ulp).
  static constexpr float kHuge = 0x1p124f, kHugeScale = 0x1p-4f;
  static constexpr float kTiny = 0x1p-90f, kTinyLarger = 0x1p20f, kTinyScale = 0x1p100f;
};

template <>
struct InverseTrigConstantsOf<double> {
  using C = InverseTrigConstants;
  static constexpr double kPiOver4Hi = C::kPiOver4Hi, kPiOver4Lo = C::kPiOver4Lo;
  static constexpr double kPiOver2Hi = C::kPiOver2Hi, kPiOver2Lo = C::kPiOver2Lo;
  static constexpr double k3PiOver4Hi = C::k3PiOver4Hi, k3PiOver4Lo = C::k3PiOver4Lo;
  static constexpr double kPiHi = C::kPiHi, kPiLo = C::kPiLo;
  static constexpr double kTanPiOver8 = C::kTanPiOver8, kTan3PiOver8 = C::kTan3PiOver8;
  static constexpr const double (&kAsin)[std::size(C::kAsin)] = C::kAsin;
  static constexpr const double (&kAtan)[std::size(C::kAtan)] = C::kAtan;
  static constexpr double kHuge = 0x1p1020, kHugeScale = 0x1p-4;
  static constexpr double kTiny = 0x1p-900, kTinyLarger = 0x1p100, kTinyScale = 0x1p900;
};

// ------------------------------ asin, acos

// asin (kAcos false) or acos of x in x's own type.
template <bool kAcos, class O>
COHERIQ_MATH_INLINE Vec<O> AsinAcosOfOwnType(const O& o, Vec<O> x) {
  using T = typename O::T;
  using C = InverseTrigConstantsOf<T>;
  const Vec<O> zero = o.Zero();
  const Vec<O> a = o.Abs(x);
  const Mask<O> small = o.Le(a, o.Set(T(0.5)));
  const Vec<O> z_big = o.Mul(o.Sub(o.Set(T(1)), a), o.Set(T(0.5)));
  const Vec<O> s = o.Sqrt(z_big);
  // √z = s + s_lo: (z - s²) / 2s, the remainder exact through the FMA.
  Vec<O> s_lo = o.Div(o.NegMulAdd(s, s, z_big), o.Add(s, s));
  s_lo = o.IfThenElse(o.Eq(s, zero), zero, s_lo);
  const Vec<O> t = o.IfThenElse(small, a, s);
  const Vec<O> z = o.IfThenElse(small, o.Mul(a, a), z_big);
  // asin(t + t_lo) = t + (t_lo + t·z·P(z)); corr is that bracket.
  const Vec<O> corr =
      o.MulAdd(o.Mul(t, z), Horner(o, z, C::kAsin), o.IfThenElse(small, zero, s_lo));
  const Vec<O> two_t = o.Add(t, t), two_corr = o.Add(corr, corr);
  if constexpr (!kAcos) {
    // π/2 - 2t exactly as hi + e (π/2 > 2t), then the small terms.
    const Vec<O> pio2 = o.Set(C::kPiOver2Hi);
    const Vec<O> hi = o.Sub(pio2, two_t);
    const Vec<O> e = o.Sub(o.Sub(pio2, hi), two_t);
    const Vec<O> big = o.Add(hi, o.Add(e, o.Sub(o.Set(C::kPiOver2Lo), two_corr)));
    return XorSign(o, o.IfThenElse(small, o.Add(t, corr), big), x);
  } else {
    // |x| <= ½: π/2 - asin x; x > ½: 2·asin s; x < -½: π - 2·asin s.
    // π/2 - x exactly as hi + e (π/2 > |x|), then the small terms.
    const Vec<O> pio2 = o.Set(C::kPiOver2Hi);
    const Vec<O> small_hi = o.Sub(pio2, x);
    const Vec<O> small_e = o.Sub(o.Sub(pio2, small_hi), x);
    const Vec<O> small_r =
        o.Add(small_hi, o.Add(small_e, o.Sub(o.Set(C::kPiOver2Lo), XorSign(o, corr, x))));
    const Vec<O> pi = o.Set(C::kPiHi);
    const Vec<O> hi = o.Sub(pi, two_t);
    const Vec<O> e = o.Sub(o.Sub(pi, hi), two_t);
    const Vec<O> negative = o.Add(hi, o.Add(e, o.Sub(o.Set(C::kPiLo), two_corr)));
    const Vec<O> big = o.IfThenElse(o.IsNegative(x), negative, o.Add(two_t, two_corr));
    return o.IfThenElse(small, small_r, big);
  }
}

template <bool kAcos>
struct AsinAcosOf {
  static constexpr bool kOnePath = true;

  template <class O>
  static COHERIQ_MATH_INLINE Vec<O> General(const O& o, Vec<O> x) {
    return AsinAcosOfOwnType<kAcos>(o, x);
  }
};

using Asin = AsinAcosOf<false>;
using Acos = AsinAcosOf<true>;

// ------------------------------ atan, atan2

// The base of the region (first, third, else the middle), π - base where x is negative.
template <class O>
COHERIQ_MATH_INLINE Vec<O> AtanBase(const O& o, Mask<O> x_negative, Mask<O> first, Mask<O> third,
                                    typename O::T k_pi_over_4, typename O::T k_pi_over_2,
                                    typename O::T k_3pi_over_4, typename O::T k_pi) {
  return o.IfThenElse(
      x_negative,
      o.IfThenElse(first, o.Set(k_pi),
                   o.IfThenElse(third, o.Set(k_pi_over_2), o.Set(k_3pi_over_4))),
      o.IfThenElse(first, o.Zero(), o.IfThenElse(third, o.Set(k_pi_over_2), o.Set(k_pi_over_4))));
}

// atan2(a, ±b) in [0, π] for a, b >= 0 (NaN lanes give anything: callers put NaN back),
// x_negative: x's sign bit; in a's own type.
template <class O>
COHERIQ_MATH_INLINE Vec<O> AtanMagnitudes(const O& o, Vec<O> a, Vec<O> b, Mask<O> x_negative) {
  using T = typename O::T;
  using C = InverseTrigConstantsOf<T>;
  const Vec<O> zero = o.Zero();
  // Keep a + b finite and the remainders above the subnormals: scale both by a power of 2.
  const Mask<O> a_smaller = o.Lt(a, b);
  const Vec<O> larger = o.IfThenElse(a_smaller, b, a);
  const Vec<O> smaller = o.IfThenElse(a_smaller, a, b);
  Vec<O> scale = o.IfThenElse(o.Gt(larger, o.Set(C::kHuge)), o.Set(C::kHugeScale), o.Set(T(1)));
  scale = o.IfThenElse(o.And(o.Lt(smaller, o.Set(C::kTiny)), o.Lt(larger, o.Set(C::kTinyLarger))),
                       o.Set(C::kTinyScale), scale);
  a = o.Mul(a, scale);
  b = o.Mul(b, scale);
  // Strictly below, or a = 0: both infinite go to the middle (π/4), both zero to the first.
  const Mask<O> first = o.Or(o.Lt(a, o.Mul(b, o.Set(C::kTanPiOver8))), o.Eq(a, zero));
  const Mask<O> third = o.Gt(a, o.Mul(b, o.Set(C::kTan3PiOver8)));
  const Mask<O> middle = o.Not(o.Or(first, third));
  Vec<O> diff_lo, sum_lo;
  const Vec<O> diff = TwoSum(o, a, o.Neg(b), diff_lo);
  const Vec<O> sum = TwoSum(o, a, b, sum_lo);
  const Vec<O> num = o.IfThenElse(first, a, o.IfThenElse(third, o.Neg(b), diff));
  const Vec<O> num_lo = o.IfThenElse(middle, diff_lo, zero);
  const Vec<O> den = o.IfThenElse(first, b, o.IfThenElse(third, a, sum));
  const Vec<O> den_lo = o.IfThenElse(middle, sum_lo, zero);
  Vec<O> t = o.Div(num, den);
  // (num - t·den) / den, the division's remainder: exact numerator, rounded quotient.
  Vec<O> t_lo = o.Div(o.Add(o.NegMulAdd(t, den, num), o.NegMulAdd(t, den_lo, num_lo)), den);
  // 0/0 (both zero) and Inf - Inf (both infinite) have t = 0; Inf·0 remainders are dropped.
  t = o.IfThenElse(o.IsNaN(t), zero, t);
  t_lo = o.IfThenElse(o.Le(o.Abs(t_lo), o.Set(T(1))), t_lo, zero);
  const Vec<O> z = o.Mul(t, t);
  // atan(t + t_lo) = t + t·z·P(z) + t_lo·(1 - z) (1/(1 + t²) to first order).
  Vec<O> corr = o.MulAdd(o.Mul(t, z), LongPolynomial(o, z, C::kAtan), o.NegMulAdd(z, t_lo, t_lo));
  const Vec<O> base_hi =
      AtanBase(o, x_negative, first, third, C::kPiOver4Hi, C::kPiOver2Hi, C::k3PiOver4Hi, C::kPiHi);
  const Vec<O> base_lo =
      AtanBase(o, x_negative, first, third, C::kPiOver4Lo, C::kPiOver2Lo, C::k3PiOver4Lo, C::kPiLo);
  const Vec<O> minus = o.IfThenElse(x_negative, o.Set(T(-0.0)), zero);
  t = XorSign(o, t, minus);
  corr = XorSign(o, corr, minus);
  // Fast2Sum (|base| > |t| unless base = 0, where it is exact anyway), then the small terms.
  const Vec<O> s = o.Add(base_hi, t);
  const Vec<O> e = o.Add(o.Sub(base_hi, s), t);
  return o.Add(s, o.Add(e, o.Add(corr, base_lo)));
}

// atan x in x's own type: the regions of AtanMagnitudes with b = 1, t = num/den kept as
// t + t_lo (num and den as exact sums, t = num·(1/den) and the remainder from a fused
// multiply-add: one division, where atan2 needs two), atan(t + t_lo) = t + t_lo·(1 - t²) +
// t·z·P(z), and the base added by Fast2Sum with its low part: the rounding at the end dominates.
template <class O>
COHERIQ_MATH_INLINE Vec<O> AtanOf(const O& o, Vec<O> x) {
  using T = typename O::T;
  using C = InverseTrigConstantsOf<T>;
  const Vec<O> zero = o.Zero(), one = o.Set(T(1));
  const Vec<O> a = o.Abs(x);
  const Mask<O> first = o.Lt(a, o.Set(C::kTanPiOver8));
  const Mask<O> third = o.Gt(a, o.Set(C::kTan3PiOver8));
  const Mask<O> middle = o.Not(o.Or(first, third));
  // On the middle lanes (tan(π/8) <= a <= tan(3π/8)) a - 1 and a + 1 are one rounding from
  // exact, and their errors are a - (diff + 1) and a - (sum - 1) exactly: Fast2Sum for a <= 1;
  // beyond, diff is exact (so diff + 1 = a) and sum - 1 is too (sum has a's spacing or twice it).
  // Two operations each, where TwoSum takes five.
  const Vec<O> diff = o.Sub(a, one);
  const Vec<O> sum = o.Add(a, one);
  // first: a / 1; middle: (a - 1) / (a + 1); third: -1 / a.
  const Vec<O> num = o.IfThenElse(first, a, o.IfThenElse(third, o.Neg(one), diff));
  const Vec<O> num_lo = o.IfThenElseZero(middle, o.Sub(a, o.Add(diff, one)));
  const Vec<O> den = o.IfThenElse(first, one, o.IfThenElse(third, a, sum));
  const Vec<O> den_lo = o.IfThenElseZero(middle, o.Sub(a, o.Sub(sum, one)));
  const Vec<O> inv = o.Div(one, den);
  const Vec<O> t = o.Mul(num, inv);
  Vec<O> t_lo = o.Mul(o.Add(o.NegMulAdd(t, den, num), o.NegMulAdd(t, den_lo, num_lo)), inv);
  t_lo = o.IfThenElse(o.Le(o.Abs(t_lo), one), t_lo, zero);  // a = Inf: Inf·0 remainders
  const Vec<O> z = o.Mul(t, t);
  // Horner's scheme, not LongPolynomial (as atan2): Estrin's was 1.06-1.10x faster for f64 but
  // 0.705 ulp worst against 0.639 (x near tan(π/8)), and the row was past its target already.
  const Vec<O> corr = o.MulAdd(o.Mul(t, z), Horner(o, z, C::kAtan), o.NegMulAdd(z, t_lo, t_lo));
  const Vec<O> base_hi =
      o.IfThenElse(first, zero, o.IfThenElse(third, o.Set(C::kPiOver2Hi), o.Set(C::kPiOver4Hi)));
  const Vec<O> base_lo =
      o.IfThenElse(first, zero, o.IfThenElse(third, o.Set(C::kPiOver2Lo), o.Set(C::kPiOver4Lo)));
  // Fast2Sum: |base| > |t| unless base = 0, where it is exact anyway.
  const Vec<O> s = o.Add(base_hi, t);
  const Vec<O> e = o.Add(o.Sub(base_hi, s), t);
  const Vec<O> r = o.Add(s, o.Add(e, o.Add(corr, base_lo)));
  return o.IfThenElse(o.IsNaN(x), x, XorSign(o, r, x));
}

struct Atan {
  static constexpr bool kOnePath = true;

  template <class O>
  static COHERIQ_MATH_INLINE Vec<O> General(const O& o, Vec<O> x) {
    return AtanOf(o, x);
  }
};

// z = atan2(y, x): the angle of the point (x, y), in [-π, π].
struct Atan2 {
  static constexpr bool kOnePath = true;

  template <class O>
  static COHERIQ_MATH_INLINE Vec<O> General(const O& o, Vec<O> y, Vec<O> x) {
    const Vec<O> r = AtanMagnitudes(o, o.Abs(y), o.Abs(x), o.IsNegative(x));
    return o.IfThenElse(o.Or(o.IsNaN(x), o.IsNaN(y)), o.Add(x, y), XorSign(o, r, y));
  }
};

}  // namespace coheriq::kernels::math
