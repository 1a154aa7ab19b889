// The activations: sigmoid, silu, gelu, gelu_tanh, and the pieces of softmax and log_softmax
// (src/math/ops.h).
#pragma once

#include <limits>

#include "math/erf.h"
#include "math/exp.h"
#include "math/log.h"
#include "math/ops.h"

namespace coheriq::kernels::math {

// σ(x) = 1/(1 + e^-x). With e = e^-|x| in (0, 1] (never overflows): σ(x) = 1/(1 + e) for x >= 0
// and e/(1 + e) for x < 0, one division either way. Keeps full relative accuracy for very
// negative x, including subnormal results, where 1/(1 + e^-x) would give 0. NaN: e is NaN, so is
// the quotient. Worst error 2.4 ulp (bound 4).
struct Sigmoid {
  template <class O>
  static COHERIQ_MATH_INLINE Vec<O> MinusAbs(const O& o, Vec<O> x) {
    return o.BitOr(x, o.Set(typename O::T(-0.0)));
  }
  template <class O>
  static COHERIQ_MATH_INLINE Vec<O> Of(const O& o, Vec<O> x, Vec<O> e) {
    using T = typename O::T;
    const Vec<O> one = o.Set(T(1));
    return o.Div(o.IfThenElse(o.Lt(x, o.Zero()), e, one), o.Add(one, e));
  }

  template <class O>
  static COHERIQ_MATH_INLINE Mask<O> InRange(const O& o, Vec<O> x) {
    return Exp::InRange(o, MinusAbs(o, x));
  }
  template <class O>
  static COHERIQ_MATH_INLINE Vec<O> Fast(const O& o, Vec<O> x) {
    return Of(o, x, Exp::Fast(o, MinusAbs(o, x)));
  }
  template <class O>
  static COHERIQ_MATH_INLINE Vec<O> General(const O& o, Vec<O> x) {
    return Of(o, x, Exp::General(o, MinusAbs(o, x)));
  }
};

// silu x = x·σ(x). x >= 0: x/(1 + e) with e = e^-x; x < 0: x·e^x/(1 + e^x). For x < 0, e^x is
// taken as m·2^k (m = e^r near 1, the reduction of exp.h) and the quotient x·m/(1 + e) is scaled
// by 2^k last: e^x alone is subnormal from -87.3 (f32) or -708.4 (f64) while x·e^x is still normal,
// and forming it first would lose the bits the product keeps. The scaling is exact where the
// result is normal, so Fast (2^k in one piece) and General (two halves, gradual underflow rounded
// once) agree. x below kClamp gives -0 (|x·e^x| < half the smallest subnormal), -Inf included;
// +Inf gives +Inf, ±0 gives ±0. Worst error 3.16 ulp (bound 4).
template <class T>
struct SiluConstants;
template <>
struct SiluConstants<float> {
  static constexpr float kClamp = -110.0f;  // x·e^x < 2^-150 below -108.7
};
template <>
struct SiluConstants<double> {
  static constexpr double kClamp = -760.0;  // x·e^x < 2^-1075 below -751.8
};

struct Silu {
  template <class O>
  static COHERIQ_MATH_INLINE Mask<O> InRange(const O& o, Vec<O> x) {
    return Exp::InRange(o, Sigmoid::MinusAbs(o, x));
  }
  template <class O>
  static COHERIQ_MATH_INLINE Vec<O> Fast(const O& o, Vec<O> x) {
    Vec<O> m, k, k_biased_shifted;
    const Vec<O> q = Quotient(o, x, Sigmoid::MinusAbs(o, x), m, k, k_biased_shifted, false);
    return o.IfThenElse(o.Lt(x, o.Zero()), o.Mul(q, Pow2FromBiasedShift(o, k_biased_shifted)), q);
  }
  template <class O>
  static COHERIQ_MATH_INLINE Vec<O> General(const O& o, Vec<O> x) {
    using T = typename O::T;
    using F = Format<T>;
    const Vec<O> low = o.Set(SiluConstants<T>::kClamp);
    const Vec<O> xc = o.Max(x, low);
    const Vec<O> minus_abs = o.Max(Sigmoid::MinusAbs(o, xc), low);
    Vec<O> m, k, k_biased_shifted;
    const Vec<O> q = Quotient(o, xc, minus_abs, m, k, k_biased_shifted, true);
    // 2^k in two normal halves (k down to -1097 for f64).
    const Vec<O> shift = o.Set(F::kRoundShift);
    const Vec<O> k_half = o.Sub(o.MulAdd(k, o.Set(T(0.5)), shift), shift);
    const Vec<O> scaled = o.Mul(o.Mul(q, Pow2(o, k_half)), Pow2(o, o.Sub(k, k_half)));
    const Vec<O> y = o.IfThenElse(o.Lt(xc, o.Zero()), scaled, q);
    // A NaN lane went through Max, whose NaN result differs between ISAs: put it back.
    const Vec<O> special = o.IfThenElse(o.IsNaN(x), o.Add(x, x), y);
    return o.IfThenElse(InRange(o, x), Fast(o, x), special);
  }

 private:
  // x·s/(1 + e), e = e^a = m·2^k (a = -|x|), s = m where x < 0 and 1 elsewhere. `general`: k may
  // be below the normal range, where e only needs to be small enough that 1 + e rounds to 1.
  template <class O>
  static COHERIQ_MATH_INLINE Vec<O> Quotient(const O& o, Vec<O> x, Vec<O> a, Vec<O>& m, Vec<O>& k,
                                             Vec<O>& k_biased_shifted, bool general) {
    using T = typename O::T;
    const Vec<O> one = o.Set(T(1));
    const Vec<O> r = ExpReduce<ExpBase::kE>(o, a, k, k_biased_shifted);
    Vec<O> tail;
    const Vec<O> hi = ExpReducedSplit<ExpBase::kE>(o, r, tail);
    m = o.Add(hi, tail);
    const Vec<O> scale = general ? Pow2(o, o.Max(k, o.Set(T(Format<T>::kMinExponent))))
                                 : Pow2FromBiasedShift(o, k_biased_shifted);
    const Vec<O> e = o.Mul(m, scale);
    return o.Div(o.Mul(x, o.IfThenElse(o.Lt(x, o.Zero()), m, one)), o.Add(one, e));
  }
};

// ------------------------------ gelu, gelu_tanh

struct GeluConstants {
  // -1/√2 and 2√(2/π), 2√(2/π)·0.044715 as hi + lo.
  static constexpr double kMinusInvSqrt2 = -0x1.6a09e667f3bcdp-1;
  static constexpr double kMinusInvSqrt2Lo = 0x1.bdd3413b26460p-55;
  static constexpr double kTanhC1 = 0x1.9884533d43651p+0;
  static constexpr double kTanhC1Lo = -0x1.cbc0d30ebfd10p-54;
  static constexpr double kTanhC2 = 0x1.2444f2a4d8b4bp-4;
  static constexpr double kTanhC2Lo = -0x1.6c843a29d1c00p-61;
  // gelu x = -0 below -40 (x/2·erfc(28.3) < 2^-1075); gelu_tanh below -30, where w < -760.
  static constexpr double kClamp = -40.0, kTanhClamp = -30.0;
  static constexpr double kTanhClampW = -760.0;  // x·e^w < 2^-1075 for |x| <= 30
  // A float's gelu is -0 below -14.4 (0.27 of 2^-149 there), where -x/√2 = 10.18: erfc is taken
  // up to 10.2. A float's gelu_tanh: x·e^w < 2^-200 for w < -150 and |x| <= 30.
  static constexpr double kFloatClamp = -14.4, kFloatErfcClamp = 10.2;
  static constexpr double kFloatTanhClampW = -150.0;
};

// gelu x = x·Φ(x) = x/2·erfc(-x/√2), in double. A float: v = -x/√2 rounded to double (its
// relative error 2^-53, which erfc's sensitivity 2v² <= 208 leaves far below a float ulp) and
// erfc of a float's algorithm (src/math/erf.h ErfOfFloat: to 2^-32), the product rounded to
// float once; x is clamped at -14.4, where the result is -0 already. A double: v is formed as hi
// + lo and erfc takes both: erfc's relative sensitivity to v is about 2v², some 1,600 at the
// underflow, so v rounded alone would cost that many ulps. erfc = y·2^k with y in [2^-6, 2]:
// x·(y/2) is rounded once and scaled by 2^k last (exact where the result is normal, gradual
// underflow rounded once). x is clamped at -40, where the result is -0 already (so -Inf gives
// -0, not -Inf·0); +Inf gives +Inf.
struct Gelu {
  static constexpr bool kOnePath = true;

  template <class O>
  static COHERIQ_MATH_INLINE Vec<O> General(const O& o, Vec<O> x) {
    if constexpr (kIsFloat<O>) {
      return o.Widened(x, [](const auto& wo, auto w) { return OfFloat(wo, w); });
    } else {
      return OfDouble(o, x);
    }
  }

 private:
  // A float's gelu in double (W: the double policy).
  template <class W>
  static COHERIQ_MATH_INLINE Vec<W> OfFloat(const W& o, Vec<W> x) {
    using C = GeluConstants;
    const Vec<W> xc = o.Max(x, o.Set(C::kFloatClamp));
    const Vec<W> y = ErfOfFloat<true>(o, o.Mul(xc, o.Set(C::kMinusInvSqrt2)), C::kFloatErfcClamp);
    const Vec<W> g = o.Mul(xc, o.Mul(y, o.Set(0.5)));
    // A NaN lane went through Max, whose NaN result differs between ISAs: put it back.
    return o.IfThenElse(o.IsNaN(x), o.Add(x, x), g);
  }

  template <class O>
  static COHERIQ_MATH_INLINE Vec<O> OfDouble(const O& o, Vec<O> x) {
    using C = GeluConstants;
    const Vec<O> xc = o.Max(x, o.Set(C::kClamp));
    const Vec<O> c = o.Set(C::kMinusInvSqrt2);
    const Vec<O> v = o.Mul(xc, c);
    const Vec<O> v_lo = o.MulAdd(xc, o.Set(C::kMinusInvSqrt2Lo), o.MulSub(xc, c, v));
    Vec<O> k;
    const Vec<O> y = ErfOfDoubleUnscaled<true, true>(o, v, v_lo, k);
    const Vec<O> g = ScaleByPow2(o, o.Mul(xc, o.Mul(y, o.Set(0.5))), k);
    // A NaN lane went through Max (and Min), whose NaN result differs between ISAs: put it back.
    return o.IfThenElse(o.IsNaN(x), o.Add(x, x), g);
  }
};

// gelu_tanh x = x/2·(1 + tanh(√(2/π)·(x + 0.044715x³))) = x·σ(w), w = x·(c1 + c2·x²) with c1 =
// 2√(2/π), c2 = 0.044715·c1 (1 + tanh(u) = 2σ(2u): no cancellation for negative x). Float: in
// double, rounded once: x·(1 or e)/(1 + e) with e = e^-|w| (w's rounding, 2^-52 relative, costs
// |w|·2^-52, far below a float ulp where the result is normal). Double: σ(w) is as sensitive to w
// as erfc is to its argument (|w| reaches 750), so w is formed as hi + lo (x², c2·x², c1 + c2·x²
// and the product by x each with its rounding error; c1 and c2 as hi + lo) and e^(-|w|) taken
// from exp's reduction with the low part added to r; then silu's form (src/math/activation.h
// Silu): e^(-|w|) = m·2^k, x·(m or 1)/(1 + e) scaled by 2^k last for w < 0. x is clamped at -30
// and -|w| at -760, where the result is -0 already; +Inf gives +Inf, -Inf gives -0.
struct GeluTanh {
  static constexpr bool kOnePath = true;

  template <class O>
  static COHERIQ_MATH_INLINE Vec<O> General(const O& o, Vec<O> x) {
    if constexpr (kIsFloat<O>) {
      return o.Widened(x, [](const auto& wo, auto w) { return OfFloat(wo, w); });
    } else {
      return OfDouble(o, x);
    }
  }

 private:
  // A float's gelu_tanh in double (W: the double policy).
  template <class W>
  static COHERIQ_MATH_INLINE Vec<W> OfFloat(const W& o, Vec<W> x) {
    using C = GeluConstants;
    const Vec<W> one = o.Set(1.0);
    const Vec<W> xc = o.Max(x, o.Set(C::kTanhClamp));
    const Vec<W> w = o.Mul(xc, o.MulAdd(o.Set(C::kTanhC2), o.Mul(xc, xc), o.Set(C::kTanhC1)));
    const Vec<W> minus_abs = o.Max(Sigmoid::MinusAbs(o, w), o.Set(C::kFloatTanhClampW));
    const Vec<W> e = Exp2ForFloat(o, o.Mul(minus_abs, o.Set(ExpConstants<double>::kLog2e)));
    const Vec<W> y = o.Div(o.Mul(xc, o.IfThenElse(o.Lt(w, o.Zero()), e, one)), o.Add(one, e));
    return o.IfThenElse(o.IsNaN(x), o.Add(x, x), y);
  }

  template <class O>
  static COHERIQ_MATH_INLINE Vec<O> OfDouble(const O& o, Vec<O> x) {
    using C = GeluConstants;
    const Vec<O> one = o.Set(1.0);
    const Vec<O> xc = o.Max(x, o.Set(C::kTanhClamp));
    // w = x·q, q = c1 + c2·x², as w + w_lo.
    const Vec<O> x2 = o.Mul(xc, xc);
    const Vec<O> x2_lo = o.MulSub(xc, xc, x2);
    const Vec<O> c2 = o.Set(C::kTanhC2);
    const Vec<O> p = o.Mul(c2, x2);
    const Vec<O> p_lo = o.MulAdd(c2, x2_lo, o.MulAdd(o.Set(C::kTanhC2Lo), x2, o.MulSub(c2, x2, p)));
    const Vec<O> c1 = o.Set(C::kTanhC1);
    // Fast2Sum would need |c1| >= |p|, false for |x| > 4.7: TwoSum.
    Vec<O> q_lo;
    const Vec<O> q = TwoSum(o, c1, p, q_lo);
    q_lo = o.Add(q_lo, o.Add(p_lo, o.Set(C::kTanhC1Lo)));
    const Vec<O> w = o.Mul(xc, q);
    const Vec<O> w_lo = o.MulAdd(xc, q_lo, o.MulSub(xc, q, w));
    // a = -|w| (clamped), a_lo its low part (zero where clamped: meaningless there, NaN for Inf).
    const Mask<O> negative = o.Lt(w, o.Zero());
    const Vec<O> low = o.Set(C::kTanhClampW);
    const Vec<O> minus_abs = Sigmoid::MinusAbs(o, w);
    const Vec<O> a = o.Max(minus_abs, low);
    const Vec<O> a_lo =
        o.IfThenElseZero(o.Eq(a, minus_abs), o.IfThenElse(negative, w_lo, o.Neg(w_lo)));
    Vec<O> k, k_biased_shifted;
    const Vec<O> r = o.Add(ExpReduce<ExpBase::kE>(o, a, k, k_biased_shifted), a_lo);
    Vec<O> tail;
    const Vec<O> hi = ExpReducedSplit<ExpBase::kE>(o, r, tail);
    const Vec<O> m = o.Add(hi, tail);
    // e = e^a: only needs 1 + e to round to 1 where 2^k is below the normal range.
    const Vec<O> e = o.Mul(m, Pow2(o, o.Max(k, o.Set(double(Format<double>::kMinExponent)))));
    const Vec<O> quotient = o.Div(o.Mul(xc, o.IfThenElse(negative, m, one)), o.Add(one, e));
    const Vec<O> y = o.IfThenElse(negative, ScaleByPow2(o, quotient, k), quotient);
    return o.IfThenElse(o.IsNaN(x), o.Add(x, x), y);
  }
};

// Softmax's exponentials: e^(x - max) with the rounding error of x - max fed to the reduction.
// x - max is not exact in floating point (64 ulp of error in e^(x - max) for f32 differences near
// -80); TwoSum gives its rounding error exactly, and Fast2Sum (two operations instead of five)
// where it is exact, that is where |x| <= |max|.
struct SoftmaxExp {
  // diff = x - max rounded, lo its rounding error, by TwoSum (any x and max).
  template <class O>
  static COHERIQ_MATH_INLINE Vec<O> Lo(const O& o, Vec<O> x, Vec<O> neg_max, Vec<O> diff) {
    const Vec<O> x_part = o.Sub(diff, neg_max);
    const Vec<O> max_part = o.Sub(diff, x_part);
    return o.Add(o.Sub(x, x_part), o.Sub(neg_max, max_part));
  }
  // The same when |x| <= |max| (Fast2Sum).
  template <class O>
  static COHERIQ_MATH_INLINE Vec<O> LoFast(const O& o, Vec<O> x, Vec<O> neg_max, Vec<O> diff) {
    return o.Sub(x, o.Sub(diff, neg_max));
  }
};

// log_softmax: y = (x - max) - L, L = ln Σ e^(x - max) = log1p(rest + (count - 1)), with `rest`
// the sum of the exponentials of the entries below the maximum and `count` the number of entries
// equal to it: L keeps its relative accuracy when it is tiny (one maximum, the others far below),
// where the log of the rounded sum would be 0. x - max and -L have the same sign, so y suffers no
// cancellation: y = diff + (lo - L), lo the rounding error of x - max (SoftmaxExp::Lo).
struct LogSoftmax {
  // The argument of L's log1p, in double, from rest = rest_hi + rest_lo.
  static double SumLessOne(double rest_hi, double rest_lo, double count) {
    return rest_hi + (rest_lo + (count - 1));
  }
  template <class O>
  static COHERIQ_MATH_INLINE Vec<O> Of(const O& o, Vec<O> x, Vec<O> neg_max, Vec<O> log_sum) {
    using T = typename O::T;
    const Vec<O> diff = o.Add(x, neg_max);
    // diff = -Inf (x = -Inf, or x - max overflowing) makes Lo NaN: y is -Inf there.
    const Mask<O> finite = o.Gt(diff, o.Set(-std::numeric_limits<T>::infinity()));
    const Vec<O> lo = o.IfThenElseZero(finite, SoftmaxExp::Lo(o, x, neg_max, diff));
    return o.Add(diff, o.Sub(lo, log_sum));
  }
};

}  // namespace coheriq::kernels::math
