// sin, cos and tan, for float and double: the algorithms every engine runs (src/math/ops.h).
//
// f64: x = k·π/2 + r, r in [-π/4, π/4] as a double-double rh + rl (Cody-Waite with π/2 in three
// doubles and exact products, for |x| <= 2^30; payne_hanek.h beyond, lane by lane), then sin r and
// cos r by polynomials in r² whose leading terms carry rl and the roundings of r² and of 1 - r²/2
// (the largest errors otherwise), and the quadrant picks one and its sign. tan: sin r and cos r
// kept as double-doubles and their quotient with its remainder.
// f32: computed in double and rounded once (53 bits leave no error to compensate): sin and cos
// reduce the signed x by π, x = (j + c)·π ± r with r in [-π/2, π/2], c = 0 for sin and 1/2 for
// cos, and one odd polynomial gives sin x = ±sin r; tan reduces by π/2 and divides the two
// polynomials. Beyond 2^30 the lanes go through the double function.
#pragma once

#include "math/ops.h"
#include "math/payne_hanek.h"

namespace coheriq::kernels::math {

// In an unnamed namespace: the tables are odr-used, and an engine TU defines no external symbol
// (tests/symbols).
namespace {
struct TrigConstants {
  static constexpr double kTwoOverPi = 0x1.45f306dc9c883p-1;
  // π/2 = kP1 + kP2 + kP3 + O(2^-163). k·kP1 is exact inside an FMA and so is |x| - k·kP1 (a
  // multiple of 2^-52 below 2); k·kP2 is made exact by its FMA error term.
  static constexpr double kP1 = 0x1.921fb54442d18p+0;
  static constexpr double kP2 = 0x1.1a62633145c07p-54;
  static constexpr double kP3 = -0x1.f1976b7ed8fbcp-110;
  // Beyond 2^30 the tail's rounding (about k·2^-160) nears 2^-60 of the smallest r: lanes there
  // take Payne-Hanek.
  static constexpr double kMaxFast = 0x1p30;
  // (sin r - r) / r³ = S(r²), a Chebyshev fit on [0, (π/4)²]: error 2^-57 relative to sin r.
  static constexpr double kSin[] = {-7.586697117706918e-13,  1.6058531618986147e-10,
                                    -2.5052106232447578e-08, 2.7557319219339167e-06,
                                    -0.00019841269841265065, 0.008333333333333331,
                                    -0.16666666666666666};
  // (cos r - 1 + r²/2) / r⁴ = C(r²): error 2^-59 relative to cos r.
  static constexpr double kCos[] = {-1.1382632425521717e-11, 2.08761462684032e-09,
                                    -2.7557317271729793e-07, 2.480158729876569e-05,
                                    -0.0013888888888887398,  0.041666666666666664};

  // f32 in double: π = kPi1 + kPi2 + O(2^-107), k·kPi1 and |x| - k·kPi1 exact as above.
  static constexpr double kOneOverPi = 0x1.45f306dc9c883p-2;
  static constexpr double kPi1 = 0x1.921fb54442d18p+1;
  static constexpr double kPi2 = 0x1.1a62633145c07p-53;
  static constexpr double kPiOver2Hi = 0x1.921fb54442d18p+0;
  static constexpr double kPiOver2Lo = 0x1.1a62633145c07p-54;
  // (sin r - r) / r³ = S(r²) for f32, on [0, (π/2)²] (scripts/minimax.py sin_float): error
  // 2^-27.3 relative to sin r, a tenth of a float ulp. Stored as Q(t) = -S(-t), t = -r², whose
  // coefficients are S's with the signs of its odd degrees flipped: sin r = r + r·t·Q(t).
  static constexpr double kSin32Neg[] = {0x1.5dbdf0e3150eep-19, 0x1.9f6ffeea568a6p-13,
                                         0x1.110ed3804c2a2p-7, 0x1.55554bc836570p-3};
  // f32 tan in double, on tan's r in [-π/4, π/4]: (sin r - r) / r³ = S(r²) to 2^-37.5 relative
  // to sin r, and (cos r - 1 + r²/2) / r⁴ = C(r²) to 2^-33 relative to cos r (scripts/minimax.py
  // tan_sin, tan_cos). S stored as Q(t) = -S(-t), t = -r², as kSin32Neg: the odd degrees' signs
  // flipped.
  static constexpr double kTanSin32Neg[] = {0x1.6cd1f2ae7ed5ep-19, 0x1.a00f7f28c041dp-13,
                                            0x1.1111086a61651p-7, 0x1.5555554c71d15p-3};
  static constexpr double kTanCos32[] = {0x1.99eb9c48ba1a7p-16, -0x1.6c0c33a81712dp-10,
                                         0x1.55554a115b4e0p-5};
};
}  // namespace

// ------------------------------ double

// |a| <= kMaxFast: r = a - k·π/2 = rh + rl; returns k + kRoundShift (every step odd in a).
template <class O>
COHERIQ_MATH_INLINE Vec<O> ReducePiOver2(const O& o, Vec<O> a, Vec<O>& rh, Vec<O>& rl) {
  using C = TrigConstants;
  const Vec<O> shift = o.Set(Format<double>::kRoundShift);
  const Vec<O> k_shifted = o.MulAdd(a, o.Set(C::kTwoOverPi), shift);
  const Vec<O> k = o.Sub(k_shifted, shift);
  const Vec<O> r1 = o.NegMulAdd(k, o.Set(C::kP1), a);  // exact
  const Vec<O> p = o.Mul(k, o.Set(C::kP2));
  const Vec<O> p_err = o.MulSub(k, o.Set(C::kP2), p);  // k·kP2 = p + p_err exactly
  Vec<O> err;
  rh = TwoSum(o, r1, o.Neg(p), err);
  rl = o.Sub(err, o.MulAdd(k, o.Set(C::kP3), p_err));
  return k_shifted;
}

// cos(rh + rl) = w + ((1 - w) - hz - z_lo/2 - rh·rl + z²·C(z)), w = 1 - hz rounded (returned),
// z = rh² rounded, hz = z/2, z_lo the rounding error of z: everything beyond w is below 0.3 and
// carries only relative errors; `corr` is all of it but z²·C(z).
template <class O>
COHERIQ_MATH_INLINE Vec<O> CosLead(const O& o, Vec<O> rh, Vec<O> rl, Vec<O> z, Vec<O> hz,
                                   Vec<O>& corr) {
  const Vec<O> one = o.Set(1.0);
  const Vec<O> z_lo = o.MulSub(rh, rh, z);
  const Vec<O> w = o.Sub(one, hz);
  corr = o.Sub(o.Sub(one, w), hz);
  corr = o.NegMulAdd(o.Set(0.5), z_lo, corr);
  corr = o.NegMulAdd(rh, rl, corr);
  return w;
}

// sin r and cos r of r = rh + rl, each as an unrounded sum lead + tail (sin: lead rh; cos: lead
// w = 1 - r²/2 rounded).
template <class O>
COHERIQ_MATH_INLINE void SinCosParts(const O& o, Vec<O> rh, Vec<O> rl, Vec<O>& sin_tail,
                                     Vec<O>& cos_lead, Vec<O>& cos_tail) {
  using C = TrigConstants;
  const Vec<O> z = o.Mul(rh, rh);
  const Vec<O> hz = o.Mul(z, o.Set(0.5));
  // sin(rh + rl) = rh + (rh·z·S(z) + rl·(1 - z/2)).
  sin_tail = o.MulAdd(o.Mul(z, rh), Horner(o, z, C::kSin), o.NegMulAdd(hz, rl, rl));
  Vec<O> corr;
  cos_lead = CosLead(o, rh, rl, z, hz, corr);
  cos_tail = o.MulAdd(o.Mul(z, z), Horner(o, z, C::kCos), corr);
}

// sin or cos of x = k·π/2 + rh + rl: q_shifted holds q = k for sin, k + 1 for cos (odd q: the
// cosine polynomial; q & 2: negate). Each lane takes SinCosParts's sum for its polynomial, by the
// same operations, but only one polynomial is evaluated: the coefficients are chosen per lane,
// the cosine's one term shorter from a leading 0 (0·z + c = c: the same bits). The result is
// negated again where `sign` has its sign bit set (sin's x): the quadrant's sign and x's are one
// xor at the end, not two in a row on the latency-bound tail (sin.f64 1.11x under zen5).
template <class O>
COHERIQ_MATH_INLINE Vec<O> SinCosQuadrant(const O& o, Vec<O> rh, Vec<O> rl, Vec<O> q_shifted,
                                          Vec<O> sign) {
  using C = TrigConstants;
  constexpr std::size_t kTerms = sizeof(C::kSin) / sizeof(C::kSin[0]);
  static_assert(sizeof(C::kCos) / sizeof(C::kCos[0]) + 1 == kTerms);
  const Mask<O> cos = o.IsNegative(IntBitAsSign<0>(o, q_shifted));
  const Vec<O> z = o.Mul(rh, rh);
  const Vec<O> hz = o.Mul(z, o.Set(0.5));
  Vec<O> poly = o.IfThenZeroElse(cos, o.Set(C::kSin[0]));
  for (std::size_t i = 1; i < kTerms; ++i) {
    poly = o.MulAdd(poly, z, o.IfThenElse(cos, o.Set(C::kCos[i - 1]), o.Set(C::kSin[i])));
  }
  // sin: rh + (rh·z·S(z) + rl·(1 - z/2)); cos: w + (z²·C(z) + corr), as in SinCosParts.
  Vec<O> corr;
  const Vec<O> cos_lead = CosLead(o, rh, rl, z, hz, corr);
  const Vec<O> scale = o.IfThenElse(cos, o.Mul(z, z), o.Mul(z, rh));
  const Vec<O> rest = o.IfThenElse(cos, corr, o.NegMulAdd(hz, rl, rl));
  const Vec<O> y = o.Add(o.IfThenElse(cos, cos_lead, rh), o.MulAdd(scale, poly, rest));
  return XorSign(o, y, o.BitXor(IntBitAsSign<1>(o, q_shifted), sign));
}

// tan of x = k·π/2 + rh + rl: sin r / cos r, or -cos r / sin r for odd k, each kept as the
// normalized double-double of SinCosParts (Fast2Sum: the leads are the larger), and the quotient
// num·(1/den) with its remainder scaled by the same reciprocal, so that it too stays within 1 ulp.
template <class O>
COHERIQ_MATH_INLINE Vec<O> TanQuadrant(const O& o, Vec<O> rh, Vec<O> rl, Vec<O> k_shifted) {
  Vec<O> sin_tail, w, cos_tail;
  SinCosParts(o, rh, rl, sin_tail, w, cos_tail);
  const Vec<O> sin_r = o.Add(rh, sin_tail), cos_r = o.Add(w, cos_tail);
  const Vec<O> sin_r_lo = o.Add(o.Sub(rh, sin_r), sin_tail);
  const Vec<O> cos_r_lo = o.Add(o.Sub(w, cos_r), cos_tail);
  const Mask<O> odd = o.IsNegative(IntBitAsSign<0>(o, k_shifted));
  const Vec<O> num = o.IfThenElse(odd, o.Neg(cos_r), sin_r);
  const Vec<O> num_lo = o.IfThenElse(odd, o.Neg(cos_r_lo), sin_r_lo);
  const Vec<O> den = o.IfThenElse(odd, sin_r, cos_r);
  const Vec<O> den_lo = o.IfThenElse(odd, sin_r_lo, cos_r_lo);
  const Vec<O> inv = o.Div(o.Set(1.0), den);
  const Vec<O> q = o.Mul(num, inv);
  const Vec<O> rem = o.Add(o.NegMulAdd(q, den, num), o.NegMulAdd(q, den_lo, num_lo));
  return o.MulAdd(rem, inv, q);
}

// Any double beyond the Cody-Waite range (Inf and NaN give NaN), on a scalar policy.
template <bool kCos, class S>
double SinCosHuge(const S& so, double x) {
  if (!(so.Abs(x) <= 0x1.fffffffffffffp1023)) return x - x;
  const HugeReduction h = ReduceHuge(so, so.Abs(x));
  const double q_shifted = Format<double>::kRoundShift + (h.k + (kCos ? 1 : 0));
  return SinCosQuadrant(so, h.hi, h.lo, q_shifted, kCos ? 0.0 : x);
}

template <class S>
double TanHuge(const S& so, double x) {
  if (!(so.Abs(x) <= 0x1.fffffffffffffp1023)) return x - x;
  const HugeReduction h = ReduceHuge(so, so.Abs(x));
  return XorSign(so, TanQuadrant(so, h.hi, h.lo, Format<double>::kRoundShift + h.k), x);
}

// ------------------------------ float, computed in double

// sin of r in [-π/2, π/2], negated where bit 0 of j_shifted is set. t = 0 - r² is +0 at r = ±0,
// so that r·t·Q(t) is a zero of r's sign and sin(-0) = -0; elsewhere t = -(r²) and every
// product has the value and rounding of the form r + r·r²·S(r²). The sign goes onto r, s = ±r,
// beside t rather than after the last multiply-add: the polynomial is odd in s, rounding
// included, so the result is the negated one bit for bit (all 2^32 floats, sin and cos), and
// the loop's latency-bound chain is one operation shorter (sin.f32 1.04-1.07x under zen5).
template <class O>
COHERIQ_MATH_INLINE Vec<O> SinHalfTurn(const O& o, Vec<O> r, Vec<O> j_shifted) {
  const Vec<O> t = o.NegMulAdd(r, r, o.Zero());
  const Vec<O> s = XorSign(o, r, IntBitAsSign<0>(o, j_shifted));
  return o.MulAdd(o.Mul(s, t), Horner(o, t, TrigConstants::kSin32Neg), s);
}

// x: a float in double, |x| <= 2^30, signed: sin x = (-1)^j sin(x - j·π), j = round(x/π), and
// cos x = (-1)^j sin((j + ½)·π - x), j = round(x/π - ½) (the product's rounding only moves a
// tie, never r out of range). The reductions and the polynomial are odd, rounding included, so
// sin(-x) = -sin x and cos(-x) = cos x without an absolute value (for cos, -x takes -j - 1, of
// the other parity, and r its negative; the two roundings of x/π ∓ ½ differ only where
// cos x rounds to ±1 either way: cos(x) and cos(-x) agree for every float, checked). The
// absolute value, first on the path to r, cost cos.f32 a tenth of its speed (2.78 against
// 3.11 G/s under zen5).
template <bool kCos, class O>
COHERIQ_MATH_INLINE Vec<O> SinCosOfFloat(const O& o, Vec<O> x) {
  using C = TrigConstants;
  const Vec<O> shift = o.Set(Format<double>::kRoundShift);
  if constexpr (kCos) {
    const Vec<O> j_shifted = o.Add(o.MulAdd(x, o.Set(C::kOneOverPi), o.Set(-0.5)), shift);
    const Vec<O> multiple = o.Add(o.Sub(j_shifted, shift), o.Set(0.5));
    Vec<O> r = o.MulSub(multiple, o.Set(C::kPi1), x);  // exact (TrigConstants)
    r = o.MulAdd(multiple, o.Set(C::kPi2), r);
    return SinHalfTurn(o, r, j_shifted);
  } else {
    const Vec<O> j_shifted = o.MulAdd(x, o.Set(C::kOneOverPi), shift);
    const Vec<O> j = o.Sub(j_shifted, shift);
    Vec<O> r = o.NegMulAdd(j, o.Set(C::kPi1), x);  // exact (TrigConstants)
    r = o.NegMulAdd(j, o.Set(C::kPi2), r);
    return SinHalfTurn(o, r, j_shifted);
  }
}

// tan of a float in double, |x| <= 2^30: r = x - k·π/2 in double, sin r and cos r by short
// polynomials on [-π/4, π/4] (2^-37.5 and 2^-33: far below a float's half ulp), one division.
// Of the signed x, as sin's: -x takes -k and -r exactly, and sin r in t = 0 - r² (SinHalfTurn's
// form) keeps tan(-0) = -0, so the result is odd bit for bit with no absolute value and no sign
// copy (the same bits as with them, for every float up to 2^30; tan.f32 1.06x under zen5).
template <class O>
COHERIQ_MATH_INLINE Vec<O> TanOfFloat(const O& o, Vec<O> x) {
  using C = TrigConstants;
  const Vec<O> shift = o.Set(Format<double>::kRoundShift);
  const Vec<O> k_shifted = o.MulAdd(x, o.Set(C::kTwoOverPi), shift);
  const Vec<O> k = o.Sub(k_shifted, shift);
  Vec<O> r = o.NegMulAdd(k, o.Set(C::kP1), x);
  r = o.NegMulAdd(k, o.Set(C::kP2), r);
  const Vec<O> z = o.Mul(r, r);
  const Vec<O> t = o.NegMulAdd(r, r, o.Zero());
  const Vec<O> sin_r = o.MulAdd(o.Mul(r, t), Horner(o, t, C::kTanSin32Neg), r);
  const Vec<O> cos_r =
      o.MulAdd(z, o.MulAdd(z, Horner(o, z, C::kTanCos32), o.Set(-0.5)), o.Set(1.0));
  const Mask<O> odd = o.IsNegative(IntBitAsSign<0>(o, k_shifted));
  return o.Div(o.IfThenElse(odd, o.Neg(cos_r), sin_r), o.IfThenElse(odd, sin_r, cos_r));
}

// ------------------------------ The algorithms

template <bool kCos>
struct SinCosOf {
  template <class O>
  static COHERIQ_MATH_INLINE Mask<O> InRange(const O& o, Vec<O> x) {
    return o.Le(o.Abs(x), o.Set(typename O::T(TrigConstants::kMaxFast)));
  }

  template <class O>
  static COHERIQ_MATH_INLINE Vec<O> Fast(const O& o, Vec<O> x) {
    if constexpr (kIsFloat<O>) {
      return o.Widened(x, [](const auto& wo, auto w) { return SinCosOfFloat<kCos>(wo, w); });
    } else {
      // cos reduces the signed x: the reduction is odd and cos's quadrant rule even, rounding
      // included (-x takes -k, -rh and -rl exactly), so cos(-x) = cos x bit for bit without the
      // absolute value at the head of the chain (cos.f64 1.05-1.09x under zen5). sin keeps |x| and
      // x's sign at the end: of the signed x, sin(-0) would be +0, and the fix for it on the
      // tail cost more than the head gained (0.96x).
      Vec<O> rh, rl;
      Vec<O> q_shifted = ReducePiOver2(o, kCos ? x : o.Abs(x), rh, rl);
      if constexpr (kCos) q_shifted = o.Add(q_shifted, o.Set(1.0));
      return SinCosQuadrant(o, rh, rl, q_shifted, kCos ? o.Zero() : x);
    }
  }

  // Lanes beyond the Cody-Waite range, Inf and NaN one by one: Payne-Hanek (f32: the double
  // function, rounded once).
  template <class O>
  static COHERIQ_MATH_INLINE Vec<O> General(const O& o, Vec<O> x) {
    return o.Lanewise(o.Not(InRange(o, x)), x, Fast(o, x), [](const auto& so, auto v) {
      if constexpr (kIsFloat<std::decay_t<decltype(so)>>) {
        return so.Widened(v, [](const auto& wso, double w) { return SinCosHuge<kCos>(wso, w); });
      } else {
        return SinCosHuge<kCos>(so, v);
      }
    });
  }
};

using Sin = SinCosOf<false>;
using Cos = SinCosOf<true>;

struct Tan {
  template <class O>
  static COHERIQ_MATH_INLINE Mask<O> InRange(const O& o, Vec<O> x) {
    return SinCosOf<false>::InRange(o, x);
  }

  template <class O>
  static COHERIQ_MATH_INLINE Vec<O> Fast(const O& o, Vec<O> x) {
    if constexpr (kIsFloat<O>) {
      return o.Widened(x, [](const auto& wo, auto w) { return TanOfFloat(wo, w); });
    } else {
      Vec<O> rh, rl;
      const Vec<O> k_shifted = ReducePiOver2(o, o.Abs(x), rh, rl);
      return XorSign(o, TanQuadrant(o, rh, rl, k_shifted), x);  // tan is odd
    }
  }

  template <class O>
  static COHERIQ_MATH_INLINE Vec<O> General(const O& o, Vec<O> x) {
    return o.Lanewise(o.Not(InRange(o, x)), x, Fast(o, x), [](const auto& so, auto v) {
      if constexpr (kIsFloat<std::decay_t<decltype(so)>>) {
        return so.Widened(v, [](const auto& wso, double w) { return TanHuge(wso, w); });
      } else {
        return TanHuge(so, v);
      }
    });
  }
};

}  // namespace coheriq::kernels::math
