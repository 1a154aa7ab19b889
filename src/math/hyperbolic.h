// sinh, cosh and tanh for float and double: the algorithms every engine runs (src/math/ops.h).
#pragma once

#include "math/exp.h"
#include "math/ops.h"

namespace coheriq::kernels::math {

template <class T>
struct TanhConstants;

template <>
struct TanhConstants<float> {
  static constexpr float kClamp = 9.5f;  // tanh rounds to ±1 beyond 9.01
  static constexpr float kMinus2Log2e = -0x1.715476p+1f;
  static constexpr float kHalfLn2 = 0x1.62e43p-2f;
  // 1 - e^(-2s) = s·S(s), with the Taylor terms 2 - 2s kept exact: relative error 1.5e-8 on
  // [-ln2/4, ln2/4].
  static constexpr float kS[] = {
      -8.8948644698e-2f, 2.6771309972e-1f, -6.6666966677e-1f, 1.3333239555e+0f, -2.0f, 2.0f};
};

template <>
struct TanhConstants<double> {
  static constexpr double kClamp = 20.0;  // tanh rounds to ±1 beyond 19.06
  static constexpr double kMinus2Log2e = -0x1.71547652b82fep+1;
  // ln2/2 as hi + lo: k·hi is exact beside x (Cody-Waite, as exp.h).
  static constexpr double kHalfLn2 = 0x1.62e42fefa39efp-2;
  static constexpr double kHalfLn2Lo = 0x1.abc9e3b39803fp-57;
  // 1 - e^(-2s) = s·S(s), 2 - 2s kept exact: relative error 2^-59.7 on [-ln2/4, ln2/4]
  // (scripts/minimax.py tanh).
  static constexpr double kS[] = {-0x1.939e30dc2894ep-23,
                                  0x1.61d658eed2226p-20,
                                  -0x1.1eedb2fee3d84p-17,
                                  0x1.ae641d1616c3dp-15,
                                  -0x1.27e4fb6987246p-12,
                                  0x1.71de3a5e82e63p-10,
                                  -0x1.a01a01a01e409p-8,
                                  0x1.a01a01a0188efp-6,
                                  -0x1.6c16c16c16c0bp-4,
                                  0x1.1111111111116p-2,
                                  -0x1.5555555555555p-1,
                                  0x1.5555555555555p+0,
                                  -2.0,
                                  2.0};
};

// tanh x = w / (2 - w) with w = 1 - e^(-2x): one formula for every x, accurate near 0 too
// because w comes from an expm1, scale·(1 - e^r) - (scale - 1) with scale = 2^k, without
// cancellation. The reduction is done on s = x + k·ln2/2 (r = -2s) with the polynomial fitted
// in s, which saves the doubling; for float one reduction step suffices, as its error is scaled
// by 2^k and so matters only while k is small (double takes ln2/2 as hi + lo). x is clamped to
// ±9.5 (f32) or ±20 (f64), where tanh already rounds to ±1, so |k| <= 27 (58) and 2^k is normal.
// The operand order keeps -0 as -0 (x - (+0), -0·2 - (+0) and -0 / 2 are -0). scale·s (exact: a
// power of two times a float) is formed beside the polynomial, so w is one fused multiply-add after
// it. Worst error 3.3 ulp f32, 2.95 f64 (sampled; bound 4).
struct Tanh {
  static constexpr bool kOnePath = true;

  template <class O>
  static COHERIQ_MATH_INLINE Vec<O> General(const O& o, Vec<O> x) {
    using T = typename O::T;
    using C = TanhConstants<T>;
    using F = Format<T>;
    const Vec<O> one = o.Set(T(1));
    const Vec<O> two = o.Set(T(2));
    const Vec<O> xc = o.Min(o.Set(C::kClamp), o.Max(o.Set(-C::kClamp), x));
    const Vec<O> shift = o.Set(F::kRoundShift + F::kBias);
    const Vec<O> k_shifted = o.MulAdd(xc, o.Set(C::kMinus2Log2e), shift);
    const Vec<O> minus_k = o.Sub(shift, k_shifted);
    Vec<O> s = o.NegMulAdd(minus_k, o.Set(C::kHalfLn2), xc);
    if constexpr (!kIsFloat<O>) s = o.NegMulAdd(minus_k, o.Set(C::kHalfLn2Lo), s);
    const Vec<O> scale = Pow2FromBiasedShift(o, k_shifted);
    const Vec<O> scale_s = o.Mul(scale, s);
    const Vec<O> poly = Horner(o, s, C::kS);
    const Vec<O> w = o.MulSub(scale_s, poly, o.Sub(scale, one));
    // A NaN lane went through Min/Max, whose NaN result differs between ISAs: put it back.
    return o.IfThenElse(o.IsNaN(x), x, o.Div(w, o.Sub(two, w)));
  }
};

// ------------------------------ sinh, cosh

struct SinhCoshConstants {
  // sinh a = a + a³·P(a²) on [0, 1] (scripts/minimax.py sinh f64): relative error 2^-57.4.
  static constexpr double kSinh[] = {
      0x1.b4c75ab274aeap-41, 0x1.611a561d87e2ap-33, 0x1.ae64671b18f58p-26, 0x1.71de3a465b1e1p-19,
      0x1.a01a01a02899ap-13, 0x1.11111111110a3p-7,  0x1.5555555555556p-3};
  // |x| is clamped here: sinh and cosh overflow beyond 710.48, and 2^(k-2) stays normal.
  static constexpr double kClamp = 710.5;
  // f32 (in double): sinh and cosh of a float overflow beyond 89.42.
  static constexpr double kClampOfFloat = 90.0;
  // cosh r = 1 + r²/2! + ... + r^8/8!, and sinh r = r + r³·(1/3! + ... + r^6/9!), in z = r²
  // (SinhCoshOfFloat: |r| <= ln2/2, where the next terms are below 2^-36 relative).
  static constexpr double kCoshOfFloat[] = {1.0 / 40320, 1.0 / 720, 1.0 / 24, 1.0 / 2, 1.0};
  static constexpr double kSinhOfFloat[] = {1.0 / 362880, 1.0 / 5040, 1.0 / 120, 1.0 / 6};
};

// The reduction both sinh and cosh start from: a = min(|x|, clamp) and k = round(a·log2 e) (as
// a double); returns k + kRoundShift + bias (Pow2FromBiasedShift).
template <class O>
COHERIQ_MATH_INLINE Vec<O> SinhCoshReduce(const O& o, Vec<O> x, double clamp, Vec<O>& a,
                                          Vec<O>& k) {
  using F = Format<double>;
  a = o.Min(o.Abs(x), o.Set(clamp));
  const Vec<O> shift = o.Set(F::kRoundShift + F::kBias);
  const Vec<O> k_biased_shifted = o.MulAdd(a, o.Set(ExpConstants<double>::kLog2e), shift);
  k = o.Sub(k_biased_shifted, shift);
  return k_biased_shifted;
}

// sinh |x| (kCosh false) or cosh x in double, for a = |x| clamped to kClamp: e^a = 2^k·(hi +
// tail) as exp's reduction gives it, with r's own rounding error added to the tail, so that e^a
// is known to about 2^-56 relative. With B = e^a/4 = S·(hi + tail), S = 2^(k-2) (normal up to the
// clamp, so B never overflows), sinh a = 2·(B - 1/(16B)) and cosh a = 2·(B + 1/(16B)), summed
// as S·hi + (S·tail ∓ 1/(16B)) (S·hi and S·tail exact); the final doubling is exact or overflows
// as the correctly rounded result would. Below a = 1, where e^a - e^-a cancels, sinh is the odd
// polynomial a + a³·P(a²).
template <bool kCosh, class O>
COHERIQ_MATH_INLINE Vec<O> SinhCoshOfDouble(const O& o, Vec<O> x) {
  using C = ExpConstants<double>;
  using K = SinhCoshConstants;
  Vec<O> a, k;
  const Vec<O> k_biased_shifted = SinhCoshReduce(o, x, K::kClamp, a, k);
  const Vec<O> r_hi = o.NegMulAdd(k, o.Set(C::kLn2Hi), a);  // exact
  const Vec<O> r = o.NegMulAdd(k, o.Set(C::kLn2Lo), r_hi);
  const Vec<O> r_lo = o.NegMulAdd(k, o.Set(C::kLn2Lo), o.Sub(r_hi, r));
  Vec<O> tail;
  const Vec<O> hi = ExpReducedSplit<ExpBase::kE>(o, r, tail);
  tail = o.MulAdd(r_lo, hi, tail);  // e^(r + r_lo) = e^r·(1 + r_lo)
  const Vec<O> scale = Pow2FromBiasedShift(o, o.Sub(k_biased_shifted, o.Set(2.0)));
  const Vec<O> b_hi = o.Mul(hi, scale);
  const Vec<O> b_tail = o.Mul(tail, scale);
  const Vec<O> inv = o.Div(o.Set(0.0625), o.Add(b_hi, b_tail));
  const Vec<O> y = o.Add(b_hi, kCosh ? o.Add(b_tail, inv) : o.Sub(b_tail, inv));
  Vec<O> r_big = o.Add(y, y);
  if constexpr (!kCosh) {
    const Vec<O> z = o.Mul(a, a);
    const Vec<O> small = o.MulAdd(o.Mul(a, z), Horner(o, z, K::kSinh), a);
    r_big = XorSign(o, o.IfThenElse(o.Lt(a, o.Set(1.0)), small, r_big), x);
  }
  // A NaN lane went through Min, whose NaN result differs between ISAs: put it back.
  return o.IfThenElse(o.IsNaN(x), o.Add(x, x), r_big);
}

// The same for a float in double, the result to be rounded to float once, without a division:
// with a = k·ln2 + r, |r| <= ln2/2 (one reduction step: |k| <= 130, so r's error is far below a
// float's), e^(±a) = 2^(±k)·(C ± S) for C = cosh r and S = sinh r, so
//   sinh a = C·m + S·p,  cosh a = C·p + S·m,  with p, m = 2^(k-1) ± 2^(-k-1).
// Nothing cancels: k = 0 gives sinh a = S (m = 0, p = 1), and for k >= 1 the terms' sum is at
// least half their larger. C and S are their Taylor series (truncated at r^8 and r^9: relative
// error below 2^-36), so the double result is within a few 2^-36 of sinh or cosh, far below a
// float's half ulp. Beyond |x| = 90 (clamped) both overflow a float, as rounding the double does.
template <bool kCosh, class O>
COHERIQ_MATH_INLINE Vec<O> SinhCoshOfFloat(const O& o, Vec<O> x) {
  using K = SinhCoshConstants;
  using F = Format<double>;
  Vec<O> a, k;
  const Vec<O> k_biased_shifted = SinhCoshReduce(o, x, K::kClampOfFloat, a, k);
  const Vec<O> r = o.NegMulAdd(k, o.Set(ExpConstants<double>::kLn2Hi), a);
  const Vec<O> z = o.Mul(r, r);
  const Vec<O> cosh_r = Horner(o, z, K::kCoshOfFloat);
  const Vec<O> sinh_r = o.MulAdd(o.Mul(r, z), Horner(o, z, K::kSinhOfFloat), r);
  const Vec<O> up = Pow2FromBiasedShift(o, o.Sub(k_biased_shifted, o.Set(1.0)));  // 2^(k-1)
  const Vec<O> down =
      Pow2FromBiasedShift(o, o.Sub(o.Set(F::kRoundShift + F::kBias - 1.0), k));  // 2^(-k-1)
  const Vec<O> p = o.Add(up, down);
  const Vec<O> m = o.Sub(up, down);
  Vec<O> y;
  if constexpr (kCosh) {
    y = o.MulAdd(cosh_r, p, o.Mul(sinh_r, m));
  } else {
    y = XorSign(o, o.MulAdd(cosh_r, m, o.Mul(sinh_r, p)), x);
  }
  // A NaN lane went through Min, whose NaN result differs between ISAs: put it back.
  return o.IfThenElse(o.IsNaN(x), o.Add(x, x), y);
}

template <bool kCosh>
struct SinhCoshOf {
  static constexpr bool kOnePath = true;

  template <class O>
  static COHERIQ_MATH_INLINE Vec<O> General(const O& o, Vec<O> x) {
    if constexpr (kIsFloat<O>) {
      return o.Widened(x, [](const auto& wo, auto w) { return SinhCoshOfFloat<kCosh>(wo, w); });
    } else {
      return SinhCoshOfDouble<kCosh>(o, x);
    }
  }
};

using Sinh = SinhCoshOf<false>;
using Cosh = SinhCoshOf<true>;

}  // namespace coheriq::kernels::math
