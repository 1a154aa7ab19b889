// Roots and powers: sqrt, cbrt and pow, for float and double: the algorithms every engine runs
// (src/math/ops.h).
#pragma once

#include "math/exp.h"
#include "math/log.h"
#include "math/ops.h"

namespace coheriq::kernels::math {

// √x: the IEEE square root, correctly rounded on every engine (sqrt(-0) = -0, x < 0 gives NaN).
struct Sqrt {
  static constexpr bool kOnePath = true;
  template <class O>
  static COHERIQ_MATH_INLINE Vec<O> General(const O& o, Vec<O> x) {
    return o.Sqrt(x);
  }
};

template <class T>
struct CbrtConstants;
template <>
struct CbrtConstants<float> {
  // m^(-1/3) on [1, 2]: relative error 2^-14.7 (scripts/minimax.py cbrt_guess).
  static constexpr float kGuess[] = {0x1.d46f7ap-6f, -0x1.c5186p-3f, 0x1.64165p-1f, -0x1.2c41e2p+0f,
                                     0x1.ab859p+0f};
  static constexpr float kTwoToMinusThird = 0x1.965feap-1f;  // 2^(-1/3), 2^(-2/3)
  static constexpr float kTwoToMinusTwoThirds = 0x1.428a3p-1f;
  static constexpr float kThird = 0x1.555556p-2f;
  static constexpr int kNewtonSteps = 1;  // 2^-14.7 -> 2^-28
  static constexpr float kSmallestNormal = 0x1p-126f;
  static constexpr float kSubnormalScale = 0x1p24f;  // 2^(3·8)
  static constexpr float kSubnormalScaleCbrtLog2 = 8.0f;
};
template <>
struct CbrtConstants<double> {
  static constexpr double kGuess[] = {0x1.d46f7d3345a73p-6, -0x1.c5186105e887fp-3,
                                      0x1.6416505a0bb89p-1, -0x1.2c41e23e16d70p+0,
                                      0x1.ab859043f75b6p+0};
  static constexpr double kTwoToMinusThird = 0x1.965fea53d6e3dp-1;
  static constexpr double kTwoToMinusTwoThirds = 0x1.428a2f98d728bp-1;
  static constexpr double kThird = 0x1.5555555555555p-2;
  static constexpr int kNewtonSteps = 2;  // 2^-14.7 -> 2^-28 -> 2^-55
  static constexpr double kSmallestNormal = 0x1p-1022;
  static constexpr double kSubnormalScale = 0x1p54;  // 2^(3·18)
  static constexpr double kSubnormalScaleCbrtLog2 = 18.0;
};

// ∛x: |x| = 2^e·m, m in [1, 2), e = 3q + r (r in {0, 1, 2}), t = 2^r·m in [1, 8): ∛|x| = 2^q·∛t.
// z ≈ t^(-1/3) from a polynomial in m times 2^(-r/3), Newton's iteration for it (no division),
// y = t·z² ≈ ∛t, then one Newton step on y with the exact residual y³ - t (fused multiply-adds):
// y - (y³ - t)·z²/3, rounded once. Worst error about 0.5 ulp by analysis; the result is then
// scaled by 2^q (exact) and takes x's sign.
struct Cbrt {
  template <class O>
  static COHERIQ_MATH_INLINE Mask<O> InRange(const O& o, Vec<O> x) {
    using T = typename O::T;
    const Vec<O> a = o.Abs(x);
    return o.And(o.Ge(a, o.Set(CbrtConstants<T>::kSmallestNormal)),
                 o.Le(a, o.Set(LogConstants<T>::kLargest)));
  }

  template <class O>
  static COHERIQ_MATH_INLINE Vec<O> Fast(const O& o, Vec<O> x) {
    return Core(o, x, o.Abs(x), o.Zero());
  }

  // Subnormals are scaled by 2^(3j) first (j subtracted from q); ±0, ±Inf and NaN are their own
  // cube roots.
  template <class O>
  static COHERIQ_MATH_INLINE Vec<O> General(const O& o, Vec<O> x) {
    using T = typename O::T;
    using C = CbrtConstants<T>;
    const Vec<O> a = o.Abs(x);
    const Mask<O> subnormal = o.Lt(a, o.Set(C::kSmallestNormal));
    // Where InRange, this is Fast's result: the same operations on the same operands.
    const Vec<O> y = Core(o, x, o.IfThenElse(subnormal, o.Mul(a, o.Set(C::kSubnormalScale)), a),
                          o.IfThenElseZero(subnormal, o.Set(C::kSubnormalScaleCbrtLog2)));
    const Mask<O> own_root =
        o.Or(o.Or(o.Eq(a, o.Zero()), o.IsNaN(x)), o.Eq(a, o.Set(static_cast<T>(__builtin_inf()))));
    return o.IfThenElse(own_root, o.Add(x, x), y);
  }

 private:
  // ∛a·2^-q_bias with x's sign, for a positive normal.
  template <class O>
  static COHERIQ_MATH_INLINE Vec<O> Core(const O& o, Vec<O> x, Vec<O> a, Vec<O> q_bias) {
    using T = typename O::T;
    using C = CbrtConstants<T>;
    using F = Format<T>;
    const Vec<O> one = o.Set(T(1));
    const Vec<O> third = o.Set(C::kThird);
    // a = 2^e·m: the exponent field and the mantissa with 1's exponent.
    const Ints<O> bits = o.BitsOf(a);
    const Vec<O> e =
        o.Sub(SmallIntToFloat(o, ShiftRight<F::kMantissaBits>(o, bits)), o.Set(T(F::kBias)));
    const Ints<O> mantissa = o.AndI(bits, o.SetI((std::int64_t{1} << F::kMantissaBits) - 1));
    const Vec<O> m = o.FromBits(o.AddI(mantissa, o.BitsOf(one)));
    // q = round((e - 1)/3) (the nearest integer is q exactly), r = e - 3q.
    const Vec<O> shift = o.Set(F::kRoundShift);
    const Vec<O> q = o.Sub(o.MulAdd(o.Sub(e, one), third, shift), shift);
    const Vec<O> r = o.NegMulAdd(q, o.Set(T(3)), e);
    const Vec<O> t = o.Mul(m, Pow2(o, r));
    const Vec<O> r_factor =
        o.IfThenElse(o.Eq(r, one), o.Set(C::kTwoToMinusThird),
                     o.IfThenElse(o.Eq(r, o.Set(T(2))), o.Set(C::kTwoToMinusTwoThirds), one));
    Vec<O> z = o.Mul(Horner(o, m, C::kGuess), r_factor);
    for (int i = 0; i < C::kNewtonSteps; ++i) {
      // z += z·(1 - t·z³)/3
      const Vec<O> residual = o.NegMulAdd(t, o.Mul(o.Mul(z, z), z), one);
      z = o.MulAdd(o.Mul(z, residual), third, z);
    }
    const Vec<O> z2 = o.Mul(z, z);
    Vec<O> y = o.Mul(t, z2);
    // y - (y³ - t)/(3y²), with y³ - t exact to far below an ulp: y² = y2 + y2_lo exactly.
    const Vec<O> y2 = o.Mul(y, y);
    const Vec<O> y2_lo = o.MulSub(y, y, y2);
    const Vec<O> y3_minus_t = o.MulAdd(y2_lo, y, o.MulSub(y2, y, t));
    y = o.NegMulAdd(y3_minus_t, o.Mul(z2, third), y);
    const Vec<O> sign = o.BitAnd(x, o.Set(T(-0.0)));
    return o.BitOr(o.Mul(y, Pow2(o, o.Sub(q, q_bias))), sign);
  }
};

// ------------------------------ pow

template <class T>
struct PowConstants;
template <>
struct PowConstants<float> {
  // x and y are computed on in double: log2 x to 2^-44 relative, y·log2 x, and 2^(y·log2 x) to
  // 2^-34 (Exp2ForFloat), rounded once to float at the end. |y·log2 x| <= 150 for a result in
  // float's range, so log2 x's error moves the result by at most 150·ln 2·2^-44 = 2^-37.
  static constexpr double kClamp = 160.0;  // 2^±160: beyond float's range, within double's
  static constexpr float kYMax = 0x1p60f;  // the fast path's |y| (any finite y would do)
  // ln m = 2·atanh(s) = 2s + s·z·Q(z), z = s² <= 0.0295: absolute error of z·Q 2^-43.9
  // (scripts/minimax.py pow_log_float).
  static constexpr double kLogQ[] = {0x1.9114dade5efb7p-3, 0x1.c62b2023d6a89p-3,
                                     0x1.249411ce4a37ap-2, 0x1.999996a98ec0fp-2,
                                     0x1.555555561e2cfp-1};
  static constexpr double kInvLn2 = 0x1.71547652b82fep+0;
};
template <>
struct PowConstants<double> {
  // 2·atanh(s) = 2s + (2/3)s³ + s·z²·R(z), z = s²: absolute error 2^-66.6 relative to 2s
  // (scripts/minimax.py pow_log).
  static constexpr double kR[] = {0x1.eb104300d8caap-4, 0x1.de338b0bfbd50p-4, 0x1.1120b4fd7d37dp-3,
                                  0x1.3b1362ba3f324p-3, 0x1.745d1832432bbp-3, 0x1.c71c71c580886p-3,
                                  0x1.2492492493031p-2, 0x1.9999999999996p-2};
  static constexpr double kTwoThirdsHi = 0x1.5555555555555p-1;
  static constexpr double kTwoThirdsLo = 0x1.5555555555555p-55;
  static constexpr double kClamp = 1100.0;  // 2^±1100: beyond double's range both ways
  static constexpr double kYMax = 0x1p60;
};

// xʸ = 2^(y·log₂ x). For double, log₂ x is formed as hi + lo to 2^-66 (s = f/(2 + f) and its
// rounding error, 2s + (2/3)s³ as double-doubles, the rest of the series in double), y·log₂ x
// as hi + lo (a fused multiply-add gives the product's error), and 2^(hi + lo) with exp2's split
// (hi + tail, one rounding) and two half scalings, so that over- and underflow round as the
// result would. |y·log₂ x| reaches 1075, so log₂ x needs 2^-65 for the result to be within a
// tenth of an ulp before its rounding. For float, everything is computed in double (the float
// inputs are exact there, subnormals included) and rounded once: the error is the float rounding
// plus 2^-10 ulp. Special values as C99 Annex F (General).
struct Pow {
  template <class O>
  static COHERIQ_MATH_INLINE Mask<O> InRange(const O& o, Vec<O> x, Vec<O> y) {
    using T = typename O::T;
    return o.And(o.And(o.Ge(x, o.Set(LogConstants<T>::kSmallestNormal)),
                       o.Le(x, o.Set(LogConstants<T>::kLargest))),
                 o.Le(o.Abs(y), o.Set(PowConstants<T>::kYMax)));
  }

  template <class O>
  static COHERIQ_MATH_INLINE Vec<O> Fast(const O& o, Vec<O> x, Vec<O> y) {
    return Positive(o, x, y, o.Zero());
  }

  template <class O>
  static COHERIQ_MATH_INLINE Vec<O> General(const O& o, Vec<O> x, Vec<O> y) {
    using T = typename O::T;
    using F = Format<T>;
    const Vec<O> zero = o.Zero();
    const Vec<O> one = o.Set(T(1));
    const Vec<O> inf = o.Set(static_cast<T>(__builtin_inf()));
    const Vec<O> ax = o.Abs(x);
    // |x|^y for every positive finite |x|: subnormal |x| is scaled into the normal range first
    // (double; float's are normal in double). Where InRange, this is Fast's result: the same
    // operations on the same operands.
    Vec<O> x_scaled = ax, k_bias = zero;
    if constexpr (sizeof(T) == 8) {
      const Mask<O> subnormal = o.Lt(ax, o.Set(LogConstants<T>::kSmallestNormal));
      x_scaled = o.IfThenElse(subnormal, o.Mul(ax, o.Set(LogConstants<T>::kSubnormalScale)), ax);
      k_bias = o.IfThenElseZero(subnormal, o.Set(LogConstants<T>::kSubnormalScaleLog2));
    }
    const Vec<O> magnitude = Positive(o, x_scaled, y, k_bias);
    // y an integer (every |y| >= 2^p-1 is), and odd.
    const Vec<O> ay = o.Abs(y);
    const Vec<O> big = o.Set(T(std::int64_t{1} << F::kMantissaBits));
    const Mask<O> integer = o.Or(o.Ge(ay, big), o.Eq(o.Sub(o.Add(ay, big), big), ay));
    const Vec<O> half_ay = o.Mul(ay, o.Set(T(0.5)));
    const Mask<O> odd = o.And(o.And(integer, o.Lt(ay, o.Add(big, big))),
                              o.Ne(o.Sub(o.Add(half_ay, big), big), half_ay));
    const Mask<O> x_negative = o.Lt(x, zero);
    const Mask<O> y_negative = o.Lt(y, zero);
    // x < 0: the sign of an odd power; a non-integer power of a negative number is NaN.
    Vec<O> r = o.IfThenElse(o.And(x_negative, odd), o.Neg(magnitude), magnitude);
    r = o.IfThenElse(o.AndNot(integer, x_negative), o.Set(static_cast<T>(__builtin_nan(""))), r);
    // x = ±0: a pole for y < 0 (±Inf for odd y), ±0 for y > 0.
    const Vec<O> at_zero = o.IfThenElse(y_negative, inf, zero);
    r = o.IfThenElse(o.Eq(x, zero), o.IfThenElse(odd, o.CopySign(at_zero, x), at_zero), r);
    // x = ±Inf: +0 for y < 0, +Inf for y > 0; -0 and -Inf for -Inf and odd y.
    const Vec<O> at_inf = o.IfThenElse(y_negative, zero, inf);
    r = o.IfThenElse(o.Eq(ax, inf), o.IfThenElse(o.And(odd, x_negative), o.Neg(at_inf), at_inf), r);
    // y = ±Inf: 1 for |x| = 1; +Inf where |x| < 1 and y = -Inf or |x| > 1 and y = +Inf; +0.
    const Mask<O> below_one = o.Lt(ax, one);
    const Mask<O> grows = o.Or(o.And(below_one, y_negative),
                               o.AndNot(below_one, o.AndNot(y_negative, o.Gt(ax, one))));
    r = o.IfThenElse(o.Eq(ay, inf),
                     o.IfThenElse(o.Eq(ax, one), one, o.IfThenElse(grows, inf, zero)), r);
    // NaN in, NaN out, except for x^0 = 1 and 1^y = 1.
    r = o.IfThenElse(o.Or(o.IsNaN(x), o.IsNaN(y)), o.Add(x, y), r);
    return o.IfThenElse(o.Or(o.Eq(y, zero), o.Eq(x, one)), one, r);
  }

 private:
  // |x|^y for positive finite normal x·2^-k_bias and |y| for which y·log₂ x is finite.
  template <class O>
  static COHERIQ_MATH_INLINE Vec<O> Positive(const O& o, Vec<O> x, Vec<O> y, Vec<O> k_bias) {
    using T = typename O::T;
    if constexpr (sizeof(T) == 4) {
      (void)k_bias;
      return o.Widened(x, y, [](const auto& w, auto wx, auto wy) { return InDouble(w, wx, wy); });
    } else {
      Vec<O> log_lo;
      const Vec<O> log_hi = Log2Extended(o, x, k_bias, log_lo);
      // y·log₂ x = p + p_lo
      const Vec<O> p = o.Mul(y, log_hi);
      const Vec<O> p_lo = o.MulAdd(y, log_lo, o.MulSub(y, log_hi, p));
      return Exp2Extended(o, p, p_lo);
    }
  }

  // A float's x^y in double (W: the double policy): log2 x = k + ln m/ln 2, m = 1 + f in
  // [√½, √2), ln m = 2s + s·z·Q(z) with s = f/(2 + f) and z = s².
  template <class W>
  static COHERIQ_MATH_INLINE Vec<W> InDouble(const W& w, Vec<W> x, Vec<W> y) {
    using C = PowConstants<float>;
    Vec<W> k;
    const Vec<W> f = w.Sub(SplitSqrtHalf(w, x, k), w.Set(1.0));
    const Vec<W> s = w.Div(f, w.Add(w.Set(2.0), f));
    const Vec<W> z = w.Mul(s, s);
    const Vec<W> ln_m = w.MulAdd(w.Mul(s, z), Horner(w, z, C::kLogQ), w.Add(s, s));
    const Vec<W> log2_x = w.MulAdd(ln_m, w.Set(C::kInvLn2), k);
    return Exp2ForFloat(w, Clamp(w, w.Mul(y, log2_x), C::kClamp));
  }

  // v clamped to [-bound, bound] (v not NaN).
  template <class O>
  static COHERIQ_MATH_INLINE Vec<O> Clamp(const O& o, Vec<O> v, typename O::T bound) {
    return o.Min(o.Max(v, o.Set(-bound)), o.Set(bound));
  }

  // log₂ x as hi + lo, to 2^-66 relative, for positive normal x·2^-k_bias (double).
  template <class O>
  static COHERIQ_MATH_INLINE Vec<O> Log2Extended(const O& o, Vec<O> x, Vec<O> k_bias, Vec<O>& lo) {
    using T = typename O::T;
    using C = PowConstants<T>;
    using L = LogConstants<T>;
    const Vec<O> one = o.Set(T(1)), two = o.Set(T(2)), half = o.Set(T(0.5));
    Vec<O> k;
    const Vec<O> m = SplitSqrtHalf(o, x, k);
    k = o.Sub(k, k_bias);
    const Vec<O> f = o.Sub(m, one);
    // s = f/(2 + f) as s + s_lo: 2 + f = d + d_lo exactly, the residual f - s·(d + d_lo) from
    // fused multiply-adds, and 1/(2 + f) = (1 - s)/2.
    const Vec<O> d = o.Add(two, f);
    const Vec<O> d_lo = o.Add(o.Sub(two, d), f);
    const Vec<O> s = o.Div(f, d);
    const Vec<O> residual = o.NegMulAdd(s, d_lo, o.NegMulAdd(s, d, f));
    const Vec<O> s_lo = o.Mul(residual, o.NegMulAdd(s, half, half));
    // z = s² as z + z_lo
    const Vec<O> z = o.Mul(s, s);
    const Vec<O> z_lo = o.MulAdd(o.Add(s, s), s_lo, o.MulSub(s, s, z));
    // c = 2/3 + z·R(z) as c + c_lo (Fast2Sum: 2/3 > z·R)
    const Vec<O> zr = o.Mul(z, Horner(o, z, C::kR));
    const Vec<O> c = o.Add(o.Set(C::kTwoThirdsHi), zr);
    const Vec<O> c_lo = o.Add(o.Add(o.Sub(o.Set(C::kTwoThirdsHi), c), zr), o.Set(C::kTwoThirdsLo));
    // t = s·z·c as t + t_lo
    const Vec<O> sz = o.Mul(s, z);
    const Vec<O> sz_lo = o.MulAdd(s, z_lo, o.MulAdd(s_lo, z, o.MulSub(s, z, sz)));
    const Vec<O> t = o.Mul(sz, c);
    const Vec<O> t_lo = o.MulAdd(sz_lo, c, o.MulAdd(sz, c_lo, o.MulSub(sz, c, t)));
    // ln(1 + f) = 2s + t as u + u_lo (Fast2Sum: |2s| > |t|)
    const Vec<O> s2 = o.Add(s, s);
    const Vec<O> u = o.Add(s2, t);
    const Vec<O> u_lo = o.Add(o.Add(o.Sub(s2, u), t), o.Add(o.Add(s_lo, s_lo), t_lo));
    // ln(1 + f)/ln 2 as b + b_lo
    const Vec<O> inv_hi = o.Set(L::kInvLn2Hi);
    const Vec<O> b = o.Mul(u, inv_hi);
    const Vec<O> b_lo =
        o.MulAdd(u_lo, inv_hi, o.MulAdd(u, o.Set(L::kInvLn2Lo), o.MulSub(u, inv_hi, b)));
    // k + b as hi + lo (Fast2Sum: |k| >= 1 > |b| unless k = 0)
    const Vec<O> hi = o.Add(k, b);
    lo = o.Add(o.Add(o.Sub(k, hi), b), b_lo);
    return hi;
  }

  // 2^(p + p_lo) for |p_lo| <= ulp(p), any p (clamped: overflow to +Inf, underflow to 0 or
  // subnormals), double.
  template <class O>
  static COHERIQ_MATH_INLINE Vec<O> Exp2Extended(const O& o, Vec<O> p, Vec<O> p_lo) {
    using T = typename O::T;
    using F = Format<T>;
    using E = ExpConstants<T>;
    const Vec<O> clamped = Clamp(o, p, PowConstants<T>::kClamp);
    const Vec<O> shift = o.Set(F::kRoundShift);
    const Vec<O> k = o.Sub(o.Add(clamped, shift), shift);
    const Vec<O> r_hi = o.Sub(clamped, k);  // exact
    // A clamped lane's correction is meaningless (its result over- or underflows anyway).
    const Vec<O> lo = o.IfThenElseZero(o.Eq(p, clamped), p_lo);
    const Vec<O> r = o.Add(r_hi, lo);
    const Vec<O> r_lo = o.Add(o.Sub(r_hi, r), lo);
    Vec<O> tail;
    const Vec<O> hi = ExpReducedSplit<ExpBase::k2>(o, r, tail);
    // 2^(r + r_lo) = 2^r·(1 + r_lo·ln 2) to far below an ulp
    tail = o.MulAdd(o.Mul(hi, r_lo), o.Set(E::kLn2Hi), tail);
    // 2^k in two halves, each a normal power of two.
    const Vec<O> k_half = o.Sub(o.MulAdd(k, o.Set(T(0.5)), shift), shift);
    return o.Mul(o.Mul(o.Add(hi, tail), Pow2(o, k_half)), Pow2(o, o.Sub(k, k_half)));
  }
};

}  // namespace coheriq::kernels::math
