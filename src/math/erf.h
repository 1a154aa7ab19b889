// erf and erfc for float: the algorithms every engine runs (src/math/ops.h).
//
// Computed in double and rounded to float once. With a = |x| (a float, so a² is exact in double):
//   a < 1:  erf a = a·P(a²); erfc a = 1 - erf a (erfc > 0.15 there: the cancellation costs a
//           factor 5.4 of P's 2^-34.8, far below a float ulp);
//   a >= 1: erfc a = e^(-a²)·t·Q(t) with t = 1/a (Q smooth on [1/10.1, 1]: erfc e^(a²) behaves as
//           1/(a√π)), erf a = 1 - erfc a.
// Odd and even: erf(-a) = -erf a, erfc(-a) = 2 - erfc a. a is clamped at 4 for erf (erf rounds to
// 1 from 3.92) and at 10.1 for erfc (erfc rounds to +0 beyond 10.06), so e^(-a²) stays normal in
// double. Both paths are computed and one selected per lane (no branch: Fast would gain little).
#pragma once

#include "math/exp.h"
#include "math/ops.h"

namespace coheriq::kernels::math {

struct ErfConstants {
  // erf a = a·P(a²) on [0, 1] (scripts/minimax.py erf_small f64): relative error 2^-34.8.
  static constexpr double kSmall[] = {
      -0x1.43840579f0314p-17, 0x1.d82692098da8cp-14, -0x1.bcbe9a88711cep-11, 0x1.5628edef9b644p-8,
      -0x1.b829a7a5e021ap-6,  0x1.ce2f0798ae81cp-4,  -0x1.8127465fb983ep-2,  0x1.20dd7504007e6p+0};
  // erfc a = e^(-a²)·t·Q(t), t = 1/a in [1/10.1, 1] (scripts/minimax.py erfc_large f64):
  // relative error 2^-32.5.
  static constexpr double kLarge[] = {
      0x1.cd9d70da61c6fp-6,  -0x1.cd52d65ec4663p-4, -0x1.1ac42e6f92e2bp-3, 0x1.e9e5504c9f79fp+0,
      -0x1.7fb8eab1b30b8p+2, 0x1.548ef359bd7a4p+3,  -0x1.89c9c101877ecp+3, 0x1.2f848300213a5p+3,
      -0x1.2187603ee6692p+2, 0x1.b968a667df721p-1,  0x1.18700e63a197ep-2,  0x1.227b7c1d87600p-6,
      -0x1.2245d84da5c36p-2, 0x1.060411f20f36ep-14, 0x1.20dd4adb0c48ap-1};
  static constexpr double kClampErf = 4.0, kClampErfc = 10.1;
};

// erf (kErfc false) or erfc of a float in double.
template <bool kErfc, class O>
COHERIQ_MATH_INLINE Vec<O> ErfOfFloat(const O& o, Vec<O> x) {
  using C = ErfConstants;
  const Vec<O> one = o.Set(1.0);
  const Vec<O> a = o.Min(o.Abs(x), o.Set(kErfc ? C::kClampErfc : C::kClampErf));
  const Vec<O> z = o.Mul(a, a);  // exact
  const Vec<O> erf_small = o.Mul(a, Horner(o, z, C::kSmall));
  const Vec<O> t = o.Div(one, a);
  const Vec<O> erfc_large = o.Mul(Exp::Fast(o, o.Neg(z)), o.Mul(t, Horner(o, t, C::kLarge)));
  const Mask<O> small = o.Lt(a, one);
  const Mask<O> negative = o.IsNegative(x);
  Vec<O> y;
  if constexpr (kErfc) {
    // erfc a for x >= 0, 2 - erfc a = 1 + erf a for x < 0.
    const Vec<O> erfc_a = o.IfThenElse(small, o.Sub(one, erf_small), erfc_large);
    const Vec<O> erf_a = o.IfThenElse(small, erf_small, o.Sub(one, erfc_large));
    y = o.IfThenElse(negative, o.Add(one, erf_a), erfc_a);
  } else {
    y = XorSign(o, o.IfThenElse(small, erf_small, o.Sub(one, erfc_large)), x);
  }
  // A NaN lane went through Min, whose NaN result differs between ISAs: put it back.
  return o.IfThenElse(o.IsNaN(x), o.Add(x, x), y);
}

template <bool kErfc>
struct ErfOf {
  static constexpr bool kOnePath = true;

  template <class O>
  static COHERIQ_MATH_INLINE Vec<O> General(const O& o, Vec<O> x) {
    static_assert(kIsFloat<O>, "erf, erfc: float only so far");
    return o.Widened(x, [](const auto& wo, auto w) { return ErfOfFloat<kErfc>(wo, w); });
  }
};

using Erf = ErfOf<false>;
using Erfc = ErfOf<true>;

}  // namespace coheriq::kernels::math
