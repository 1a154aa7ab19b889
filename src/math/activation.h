// The activations: sigmoid, and softmax's pieces (src/math/ops.h).
#pragma once

#include "math/exp.h"
#include "math/ops.h"

namespace coheriq::kernels::math {

// σ(x) = 1/(1 + e^-x). With e = e^-|x| in (0, 1] (never overflows): σ(x) = 1/(1 + e) for x >= 0
// and e/(1 + e) for x < 0, one division either way. Keeps full relative accuracy for very
// negative x, including subnormal results, where 1/(1 + e^-x) would give 0. NaN: e is NaN, so is
// the quotient. Worst error 2.3 ulp (bound 4).
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

}  // namespace coheriq::kernels::math
