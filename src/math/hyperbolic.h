// tanh x for float and double: the algorithm every engine runs (src/math/ops.h).
#pragma once

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

}  // namespace coheriq::kernels::math
