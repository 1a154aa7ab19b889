// The generic vector math: the algorithms of src/math (one per function, shared with the
// reference engine) on Highway vectors, and the loops that run them over arrays.
//
// Compiled once per engine, inside its kernels TU (src/engines/<engine>/kernels.cpp, through
// engine-inl.h), in the engine's own namespace with internal linkage. Vector-length agnostic.
// HwyOps maps each operation of the ops policy (src/math/ops.h) to the one Highway op that is the
// same IEEE operation on every target (MulAdd is a fused multiply-add on AVX2, AVX-512, NEON
// and SVE), so every engine returns the reference's bits.

#ifndef COHERIQ_ENGINES_GENERIC_MATH_INL_H_
#define COHERIQ_ENGINES_GENERIC_MATH_INL_H_

#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "engines/generic/blas1-inl.h"  // softmax scales with scal
#include "engines/generic/masked-inl.h"
#include "engines/generic/namespace.h"

// The algorithms are compiled for this engine's target too (Highway's target attributes, which
// on ARM add extensions beyond the TU's flags): they inline the ops of HwyOps.
HWY_BEFORE_NAMESPACE();
#include "math/activation.h"
#include "math/erf.h"
#include "math/exp.h"
#include "math/hyperbolic.h"
#include "math/inverse_trig.h"
#include "math/log.h"
#include "math/ops.h"
#include "math/power.h"
#include "math/scalar.h"
#include "math/trig.h"
HWY_AFTER_NAMESPACE();

COHERIQ_GENERIC_BEGIN

// ------------------------------ The ops policy

template <class Float>
struct HwyOps {
  using D = hn::ScalableTag<Float>;
  using DI = hn::RebindToSigned<D>;
  using T = Float;
  using V = hn::Vec<D>;
  using M = hn::Mask<D>;
  using VI = hn::Vec<DI>;
  D d;
  DI di;

  HWY_INLINE V Set(T c) const { return hn::Set(d, c); }
  HWY_INLINE V Zero() const { return hn::Zero(d); }

  HWY_INLINE V Add(V a, V b) const { return hn::Add(a, b); }
  HWY_INLINE V Sub(V a, V b) const { return hn::Sub(a, b); }
  HWY_INLINE V Mul(V a, V b) const { return hn::Mul(a, b); }
  HWY_INLINE V Div(V a, V b) const { return hn::Div(a, b); }
  HWY_INLINE V Sqrt(V a) const { return hn::Sqrt(a); }
  HWY_INLINE V MulAdd(V a, V b, V c) const { return hn::MulAdd(a, b, c); }
  HWY_INLINE V NegMulAdd(V a, V b, V c) const { return hn::NegMulAdd(a, b, c); }
  HWY_INLINE V MulSub(V a, V b, V c) const { return hn::MulSub(a, b, c); }

  HWY_INLINE V Neg(V a) const { return hn::Neg(a); }
  HWY_INLINE V Abs(V a) const { return hn::Abs(a); }
  HWY_INLINE V CopySign(V magnitude, V sign) const { return hn::CopySign(magnitude, sign); }
  HWY_INLINE V Min(V a, V b) const { return hn::Min(a, b); }
  HWY_INLINE V Max(V a, V b) const { return hn::Max(a, b); }

  HWY_INLINE M Lt(V a, V b) const { return hn::Lt(a, b); }
  HWY_INLINE M Le(V a, V b) const { return hn::Le(a, b); }
  HWY_INLINE M Gt(V a, V b) const { return hn::Gt(a, b); }
  HWY_INLINE M Ge(V a, V b) const { return hn::Ge(a, b); }
  HWY_INLINE M Eq(V a, V b) const { return hn::Eq(a, b); }
  HWY_INLINE M Ne(V a, V b) const { return hn::Ne(a, b); }
  HWY_INLINE M IsNaN(V a) const { return hn::IsNaN(a); }
  HWY_INLINE M IsNegative(V a) const {
    return hn::RebindMask(d, hn::Lt(hn::BitCast(di, a), hn::Zero(di)));
  }

  HWY_INLINE M And(M a, M b) const { return hn::And(a, b); }
  HWY_INLINE M Or(M a, M b) const { return hn::Or(a, b); }
  HWY_INLINE M AndNot(M a, M b) const { return hn::AndNot(a, b); }
  HWY_INLINE M Not(M a) const { return hn::Not(a); }
  HWY_INLINE bool AllTrue(M a) const { return hn::AllTrue(d, a); }
  HWY_INLINE bool AllFalse(M a) const { return hn::AllFalse(d, a); }

  HWY_INLINE V IfThenElse(M m, V yes, V no) const { return hn::IfThenElse(m, yes, no); }
  HWY_INLINE V IfThenElseZero(M m, V yes) const { return hn::IfThenElseZero(m, yes); }
  HWY_INLINE V IfThenZeroElse(M m, V no) const { return hn::IfThenZeroElse(m, no); }

  // The lanes of `where` one at a time, through memory; the others keep `other`. The scalar
  // policy is owned by this (internal) type: see math::ScalarOps.
  using Scalar = math::ScalarOps<T, HwyOps>;
  template <class F>
  HWY_INLINE V Lanewise(M where, V x, V other, F f) const {
    if (hn::AllFalse(d, where)) return other;
    const hn::RebindToUnsigned<D> du;
    constexpr std::size_t kMaxLanes = hn::MaxLanes(D());
    HWY_ALIGN T in[kMaxLanes];
    HWY_ALIGN T out[kMaxLanes];
    HWY_ALIGN hn::TFromD<decltype(du)> selected[kMaxLanes];
    hn::Store(x, d, in);
    hn::Store(other, d, out);
    hn::Store(hn::BitCast(du, hn::VecFromMask(d, where)), du, selected);
    for (std::size_t i = 0; i < hn::Lanes(d); ++i) {
      if (selected[i] != 0) out[i] = f(Scalar{}, in[i]);
    }
    return hn::Load(d, out);
  }
  // Each half promoted to double, f on it, and the two results rounded to float.
  template <class F>
  HWY_INLINE V Widened(V x, F f) const {
    static_assert(std::is_same_v<T, float>, "Widened: float to double only");
    const hn::Half<D> dh;
    const hn::RepartitionToWide<D> dw;
    const HwyOps<double> wo;
    const auto lo = f(wo, hn::PromoteTo(dw, hn::LowerHalf(dh, x)));
    const auto hi = f(wo, hn::PromoteTo(dw, hn::UpperHalf(dh, x)));
    return hn::Combine(d, hn::DemoteTo(dh, hi), hn::DemoteTo(dh, lo));
  }
  template <class F>
  HWY_INLINE V Widened(V x, V y, F f) const {
    static_assert(std::is_same_v<T, float>, "Widened: float to double only");
    const hn::Half<D> dh;
    const hn::RepartitionToWide<D> dw;
    const HwyOps<double> wo;
    const auto lo =
        f(wo, hn::PromoteTo(dw, hn::LowerHalf(dh, x)), hn::PromoteTo(dw, hn::LowerHalf(dh, y)));
    const auto hi =
        f(wo, hn::PromoteTo(dw, hn::UpperHalf(dh, x)), hn::PromoteTo(dw, hn::UpperHalf(dh, y)));
    return hn::Combine(d, hn::DemoteTo(dh, hi), hn::DemoteTo(dh, lo));
  }

  HWY_INLINE VI BitsOf(V a) const { return hn::BitCast(di, a); }
  HWY_INLINE V FromBits(VI a) const { return hn::BitCast(d, a); }
  HWY_INLINE V BitAnd(V a, V b) const { return hn::And(a, b); }
  HWY_INLINE V BitOr(V a, V b) const { return hn::Or(a, b); }
  HWY_INLINE V BitXor(V a, V b) const { return hn::Xor(a, b); }
  HWY_INLINE VI SetI(std::int64_t c) const { return hn::Set(di, static_cast<hn::TFromD<DI>>(c)); }
  HWY_INLINE VI AddI(VI a, VI b) const { return hn::Add(a, b); }
  HWY_INLINE VI SubI(VI a, VI b) const { return hn::Sub(a, b); }
  HWY_INLINE VI AndI(VI a, VI b) const { return hn::And(a, b); }
  template <int kBits>
  HWY_INLINE VI ShiftLeftI(VI a) const {
    return hn::ShiftLeft<kBits>(a);
  }
  template <int kBits>
  HWY_INLINE VI ShiftRightI(VI a) const {
    return hn::ShiftRight<kBits>(a);
  }
};

// ------------------------------ Elementwise drivers

// y[i] = Algo(x[i]), two vectors per step (SVE vectors cannot be array elements, so the step is
// written out). Steps whose lanes are all in the algorithm's fast range take Fast, the others
// General (which agrees with Fast lane for lane); then a masked remainder, whose inactive lanes
// are computed on zeros, never stored, and do not decide the path. Each vector is loaded before
// its result is stored, so y == x is fine.
template <class Algo, class T>
HWY_INLINE void MapUnary(std::size_t n, const T* x, T* y) {
  const HwyOps<T> o;
  const auto d = o.d;
  using V = typename HwyOps<T>::V;
  const std::size_t N = hn::Lanes(d);
  std::size_t i = 0;
  for (; i + 2 * N <= n; i += 2 * N) {
    V a = hn::LoadU(d, x + i);
    V b = hn::LoadU(d, x + i + N);
    if constexpr (math::kOnePath<Algo>) {
      a = Algo::General(o, a);
      b = Algo::General(o, b);
    } else if (HWY_LIKELY(hn::AllTrue(d, hn::And(Algo::InRange(o, a), Algo::InRange(o, b))))) {
      a = Algo::Fast(o, a);
      b = Algo::Fast(o, b);
    } else {
      a = Algo::General(o, a);
      b = Algo::General(o, b);
    }
    hn::StoreU(a, d, y + i);
    hn::StoreU(b, d, y + i + N);
  }
  for (; i < n; i += N) {
    // At most N lanes: on an SVE length that is not a power of two (384 bits), the hardware has
    // more lanes than d, and FirstN(d, n - i) would enable them past the vector.
    const auto mask = hn::FirstN(d, HWY_MIN(n - i, N));
    const V v = LoadSelected(mask, d, x + i);
    V r;
    if constexpr (math::kOnePath<Algo>) {
      r = Algo::General(o, v);
    } else if (hn::AllTrue(d, hn::Or(hn::Not(mask), Algo::InRange(o, v)))) {
      r = Algo::Fast(o, v);
    } else {
      r = Algo::General(o, v);
    }
    StoreSelected(r, mask, d, y + i);
  }
}

// z[i] = Algo(a[i], b[i]), as MapUnary.
template <class Algo, class T>
HWY_INLINE void MapBinary(std::size_t n, const T* a, const T* b, T* z) {
  const HwyOps<T> o;
  const auto d = o.d;
  using V = typename HwyOps<T>::V;
  const std::size_t N = hn::Lanes(d);
  std::size_t i = 0;
  for (; i + 2 * N <= n; i += 2 * N) {
    const V a0 = hn::LoadU(d, a + i), a1 = hn::LoadU(d, a + i + N);
    const V b0 = hn::LoadU(d, b + i), b1 = hn::LoadU(d, b + i + N);
    V r0, r1;
    if constexpr (math::kOnePath<Algo>) {
      r0 = Algo::General(o, a0, b0);
      r1 = Algo::General(o, a1, b1);
    } else if (HWY_LIKELY(
                   hn::AllTrue(d, hn::And(Algo::InRange(o, a0, b0), Algo::InRange(o, a1, b1))))) {
      r0 = Algo::Fast(o, a0, b0);
      r1 = Algo::Fast(o, a1, b1);
    } else {
      r0 = Algo::General(o, a0, b0);
      r1 = Algo::General(o, a1, b1);
    }
    hn::StoreU(r0, d, z + i);
    hn::StoreU(r1, d, z + i + N);
  }
  for (; i < n; i += N) {
    const auto mask = hn::FirstN(d, HWY_MIN(n - i, N));  // at most N lanes, as in MapUnary
    const V av = LoadSelected(mask, d, a + i), bv = LoadSelected(mask, d, b + i);
    V r;
    if constexpr (math::kOnePath<Algo>) {
      r = Algo::General(o, av, bv);
    } else if (hn::AllTrue(d, hn::Or(hn::Not(mask), Algo::InRange(o, av, bv)))) {
      r = Algo::Fast(o, av, bv);
    } else {
      r = Algo::General(o, av, bv);
    }
    StoreSelected(r, mask, d, z + i);
  }
}

// ------------------------------ Elementwise kernels

template <class T>
HWY_ATTR void exp(std::size_t n, const T* x, T* y) {
  MapUnary<math::Exp>(n, x, y);
}
template <class T>
HWY_ATTR void exp2(std::size_t n, const T* x, T* y) {
  MapUnary<math::Exp2>(n, x, y);
}
template <class T>
HWY_ATTR void expm1(std::size_t n, const T* x, T* y) {
  MapUnary<math::Expm1>(n, x, y);
}
template <class T>
HWY_ATTR void log(std::size_t n, const T* x, T* y) {
  MapUnary<math::Log>(n, x, y);
}
template <class T>
HWY_ATTR void log2(std::size_t n, const T* x, T* y) {
  MapUnary<math::Log2>(n, x, y);
}
template <class T>
HWY_ATTR void log10(std::size_t n, const T* x, T* y) {
  MapUnary<math::Log10>(n, x, y);
}
template <class T>
HWY_ATTR void log1p(std::size_t n, const T* x, T* y) {
  MapUnary<math::Log1p>(n, x, y);
}
template <class T>
HWY_ATTR void tanh(std::size_t n, const T* x, T* y) {
  MapUnary<math::Tanh>(n, x, y);
}
template <class T>
HWY_ATTR void sigmoid(std::size_t n, const T* x, T* y) {
  MapUnary<math::Sigmoid>(n, x, y);
}
template <class T>
HWY_ATTR void silu(std::size_t n, const T* x, T* y) {
  MapUnary<math::Silu>(n, x, y);
}
template <class T>
HWY_ATTR void gelu(std::size_t n, const T* x, T* y) {
  MapUnary<math::Gelu>(n, x, y);
}
template <class T>
HWY_ATTR void gelu_tanh(std::size_t n, const T* x, T* y) {
  MapUnary<math::GeluTanh>(n, x, y);
}

template <class T>
HWY_ATTR void sin(std::size_t n, const T* x, T* y) {
  MapUnary<math::Sin>(n, x, y);
}
template <class T>
HWY_ATTR void cos(std::size_t n, const T* x, T* y) {
  MapUnary<math::Cos>(n, x, y);
}
template <class T>
HWY_ATTR void tan(std::size_t n, const T* x, T* y) {
  MapUnary<math::Tan>(n, x, y);
}
template <class T>
HWY_ATTR void asin(std::size_t n, const T* x, T* y) {
  MapUnary<math::Asin>(n, x, y);
}
template <class T>
HWY_ATTR void acos(std::size_t n, const T* x, T* y) {
  MapUnary<math::Acos>(n, x, y);
}
template <class T>
HWY_ATTR void atan(std::size_t n, const T* x, T* y) {
  MapUnary<math::Atan>(n, x, y);
}
template <class T>
HWY_ATTR void atan2(std::size_t n, const T* y, const T* x, T* z) {
  MapBinary<math::Atan2>(n, y, x, z);
}
template <class T>
HWY_ATTR void sinh(std::size_t n, const T* x, T* y) {
  MapUnary<math::Sinh>(n, x, y);
}
template <class T>
HWY_ATTR void cosh(std::size_t n, const T* x, T* y) {
  MapUnary<math::Cosh>(n, x, y);
}
template <class T>
HWY_ATTR void erf(std::size_t n, const T* x, T* y) {
  MapUnary<math::Erf>(n, x, y);
}
template <class T>
HWY_ATTR void erfc(std::size_t n, const T* x, T* y) {
  MapUnary<math::Erfc>(n, x, y);
}

template <class T>
HWY_ATTR void sqrt(std::size_t n, const T* x, T* y) {
  MapUnary<math::Sqrt>(n, x, y);
}
template <class T>
HWY_ATTR void cbrt(std::size_t n, const T* x, T* y) {
  MapUnary<math::Cbrt>(n, x, y);
}
template <class T>
HWY_ATTR void pow(std::size_t n, const T* x, const T* y, T* z) {
  MapBinary<math::Pow>(n, x, y, z);
}

// ------------------------------ Softmax and log_softmax

// A sum of vectors of nonnegative T to far better than T's precision, so that it adds nothing
// to an element's error but its last rounding: float lanes in pairs in float (one rounding, 2^-24
// of the pair at most), then in double; double lanes with their rounding errors (TwoSum). Its
// order follows the vector length, so the sum (not the exponentials) may differ in its last bits
// between engines.
//
// The running sum is two vectors the caller keeps as locals (SVE vectors are sizeless: they
// cannot be members of a struct), started by Zero, updated by Add or Add2, read by Total.
template <class T>
struct ExpSum;

template <>
struct ExpSum<float> {
  using D = HwyOps<float>::D;
  using V = HwyOps<float>::V;
  using W = hn::Vec<hn::RepartitionToWide<D>>;  // a half of the float lanes, in double

  static HWY_INLINE W Zero() { return hn::Zero(hn::RepartitionToWide<D>()); }
  static HWY_INLINE void Add(W& sum0, W& sum1, V e) {
    const hn::Half<D> dh;
    const hn::RepartitionToWide<D> dw;
    sum0 = hn::Add(sum0, hn::PromoteTo(dw, hn::LowerHalf(dh, e)));
    sum1 = hn::Add(sum1, hn::PromoteTo(dw, hn::UpperHalf(dh, e)));
  }
  // Half the conversions: a + b in float first.
  static HWY_INLINE void Add2(W& sum0, W& sum1, V a, V b) { Add(sum0, sum1, hn::Add(a, b)); }
  // The total as hi + lo.
  static HWY_INLINE void Total(W sum0, W sum1, double& hi, double& lo) {
    const hn::RepartitionToWide<D> dw;
    hi = hn::GetLane(hn::SumOfLanes(dw, hn::Add(sum0, sum1)));
    lo = 0;
  }
};

template <>
struct ExpSum<double> {
  using D = HwyOps<double>::D;
  using V = HwyOps<double>::V;
  using W = V;  // the sum and the sum of its rounding errors

  static HWY_INLINE W Zero() { return hn::Zero(D()); }
  static HWY_INLINE void Add(W& sum, W& err, V e) {
    const HwyOps<double> o;
    V e_err;
    sum = math::TwoSum(o, sum, e, e_err);
    err = hn::Add(err, e_err);
  }
  static HWY_INLINE void Add2(W& sum, W& err, V a, V b) {
    Add(sum, err, a);
    Add(sum, err, b);
  }
  static HWY_INLINE void Total(W sum, W err, double& hi, double& lo) {
    const D d;
    constexpr std::size_t kMaxLanes = hn::MaxLanes(D());
    HWY_ALIGN double sums[kMaxLanes];
    hn::Store(sum, d, sums);
    const math::ScalarOps<double, HwyOps<double>> so;
    hi = 0;
    lo = hn::GetLane(hn::SumOfLanes(d, err));
    for (std::size_t i = 0; i < hn::Lanes(d); ++i) {
      double e;
      hi = math::TwoSum(so, hi, sums[i], e);
      lo += e;
    }
  }
};

// -max x as a vector (pass 1 of both). The remainder's masked-off lanes are -Inf, neutral for Max.
template <class T>
HWY_INLINE typename HwyOps<T>::V NegMax(const HwyOps<T>& o, std::size_t n, const T* x) {
  const auto d = o.d;
  using V = typename HwyOps<T>::V;
  const std::size_t N = hn::Lanes(d);
  const V neg_inf = hn::Set(d, -std::numeric_limits<T>::infinity());
  V m0 = neg_inf, m1 = neg_inf;
  std::size_t i = 0;
  for (; i + 2 * N <= n; i += 2 * N) {
    m0 = hn::Max(m0, hn::LoadU(d, x + i));
    m1 = hn::Max(m1, hn::LoadU(d, x + i + N));
  }
  for (; i < n; i += N) {
    const auto mask = hn::FirstN(d, HWY_MIN(n - i, N));  // at most N lanes, as in MapUnary
    m0 = hn::Max(m0, hn::IfThenElse(mask, LoadSelected(mask, d, x + i), neg_inf));
  }
  return hn::Neg(hn::MaxOfLanes(d, hn::Max(m0, m1)));
}

// Pass 2 of both: e = e^(x - max) for every element, the shared algorithm's exponential with the
// rounding error of x - max fed to the reduction (math::SoftmaxExp); each vector of them goes to
// use(i, diff, e) (diff = x - max rounded), two vectors to use2(i, diff_a, ea, diff_b, eb), the
// remainder's inactive lanes as diff = -Inf, e = 0.
template <class T, class Use, class Use2>
HWY_INLINE void ShiftedExps(const HwyOps<T>& o, std::size_t n, const T* x,
                            typename HwyOps<T>::V neg_max, Use use, Use2 use2) {
  const auto d = o.d;
  using V = typename HwyOps<T>::V;
  const std::size_t N = hn::Lanes(d);
  const auto exp_shifted = [&](V v, V diff) HWY_ATTR {
    const V lo = math::SoftmaxExp::Lo(o, v, neg_max, diff);
    if (HWY_LIKELY(hn::AllTrue(d, math::Exp::InRange(o, diff)))) {
      return math::Exp::FastWithLo(o, diff, lo);
    }
    return math::Exp::GeneralWithLo(o, diff, lo);
  };
  // Two vectors per step, with one range test for both; where every lane has |x_i| <= |max|
  // (x_i >= -|max|), Fast2Sum gives the rounding error of x_i - max exactly in two operations
  // instead of TwoSum's five (the same value: the error is exact either way).
  const V neg_abs_max = hn::Neg(hn::Abs(neg_max));
  std::size_t i = 0;
  for (; i + 2 * N <= n; i += 2 * N) {
    const V a = hn::LoadU(d, x + i);
    const V b = hn::LoadU(d, x + i + N);
    const V diff_a = hn::Add(a, neg_max);
    const V diff_b = hn::Add(b, neg_max);
    V ea, eb;
    const auto fast_range = hn::And(math::Exp::InRange(o, diff_a), math::Exp::InRange(o, diff_b));
    if (HWY_LIKELY(hn::AllTrue(d, hn::And(fast_range, hn::Ge(hn::Min(a, b), neg_abs_max))))) {
      ea = math::Exp::FastWithLo(o, diff_a, math::SoftmaxExp::LoFast(o, a, neg_max, diff_a));
      eb = math::Exp::FastWithLo(o, diff_b, math::SoftmaxExp::LoFast(o, b, neg_max, diff_b));
    } else {
      ea = exp_shifted(a, diff_a);
      eb = exp_shifted(b, diff_b);
    }
    use2(i, diff_a, ea, diff_b, eb);
  }
  for (; i + N <= n; i += N) {
    const V v = hn::LoadU(d, x + i);
    const V diff = hn::Add(v, neg_max);
    use(i, diff, exp_shifted(v, diff));
  }
  if (i < n) {
    const auto mask = hn::FirstN(d, n - i);
    const V v = LoadSelected(mask, d, x + i);
    const V diff =
        hn::IfThenElse(mask, hn::Add(v, neg_max), hn::Set(d, -std::numeric_limits<T>::infinity()));
    use(i, diff, hn::IfThenElseZero(mask, exp_shifted(v, diff)));
  }
}

// y = e^(x - max x) / Σ e^(x - max x), three passes: max; exponentials (stored in y) and their
// sum; scaling by 1 / sum. The sum is the caller's: add(i, e) takes the vector of exponentials of
// elements [i, i + lanes) (zero past n), add2(i, ea, eb) two of them, total(hi, lo) gives the sum
// as hi + lo. The fast softmax sums with ExpSum; the reproducible mode in its canonical order.
template <class T, class Add, class Add2, class Total>
HWY_INLINE void SoftmaxWith(std::size_t n, const T* x, T* y, Add add, Add2 add2, Total total) {
  const HwyOps<T> o;
  const auto d = o.d;
  using V = typename HwyOps<T>::V;
  const std::size_t N = hn::Lanes(d);
  ShiftedExps(
      o, n, x, NegMax(o, n, x),
      [&](std::size_t i, V, V e) HWY_ATTR {
        StoreSelected(e, hn::FirstN(d, HWY_MIN(n - i, N)), d, y + i);
        add(i, e);
      },
      [&](std::size_t i, V, V ea, V, V eb) HWY_ATTR {
        hn::StoreU(ea, d, y + i);
        hn::StoreU(eb, d, y + i + N);
        add2(i, ea, eb);
      });
  double hi, lo;
  total(hi, lo);
  scal(n, static_cast<T>(1.0 / (hi + lo)), y);
}

template <class T>
HWY_ATTR void softmax(std::size_t n, const T* x, T* y) {
  if (n == 0) return;
  using V = typename HwyOps<T>::V;
  using Sum = ExpSum<T>;
  auto sum0 = Sum::Zero(), sum1 = Sum::Zero();
  SoftmaxWith(
      n, x, y, [&](std::size_t, V e) HWY_ATTR { Sum::Add(sum0, sum1, e); },
      [&](std::size_t, V ea, V eb) HWY_ATTR { Sum::Add2(sum0, sum1, ea, eb); },
      [&](double& hi, double& lo) HWY_ATTR { Sum::Total(sum0, sum1, hi, lo); });
}

// y = (x - max) - ln Σ e^(x - max), three passes: max; the sum of the exponentials below the
// maximum and the count of entries equal to it (math::LogSoftmax); y. The sum is the caller's, as
// in SoftmaxWith (an entry at the maximum adds a zero).
template <class T, class Add, class Add2, class Total>
HWY_INLINE void LogSoftmaxWith(std::size_t n, const T* x, T* y, Add add, Add2 add2, Total total) {
  const HwyOps<T> o;
  const auto d = o.d;
  using V = typename HwyOps<T>::V;
  const std::size_t N = hn::Lanes(d);
  const V neg_max = NegMax(o, n, x);
  V count = hn::Zero(d);  // exact while a lane counts below 2^24 (f32); beyond, L >= 16 anyway
  const V one = hn::Set(d, T(1));
  const auto below = [&](V diff, V e) HWY_ATTR {
    const auto at_max = hn::Eq(diff, hn::Zero(d));
    count = hn::Add(count, hn::IfThenElseZero(at_max, one));
    return hn::IfThenZeroElse(at_max, e);  // NaN stays, so that it poisons the sum
  };
  ShiftedExps(
      o, n, x, neg_max, [&](std::size_t i, V diff, V e) HWY_ATTR { add(i, below(diff, e)); },
      [&](std::size_t i, V diff_a, V ea, V diff_b, V eb)
          HWY_ATTR { add2(i, below(diff_a, ea), below(diff_b, eb)); });
  double hi, lo;
  total(hi, lo);
  const double total_count = static_cast<double>(hn::GetLane(hn::SumOfLanes(d, count)));
  // L on a vector of doubles (one lane used): the vector code's constants stay internal.
  const HwyOps<double> wo;
  const double sum_less_one = math::LogSoftmax::SumLessOne(hi, lo, total_count);
  const double log_sum_wide = hn::GetLane(math::Log1p::General(wo, wo.Set(sum_less_one)));
  const V log_sum = hn::Set(d, static_cast<T>(log_sum_wide));
  std::size_t i = 0;
  for (; i + N <= n; i += N) {
    hn::StoreU(math::LogSoftmax::Of(o, hn::LoadU(d, x + i), neg_max, log_sum), d, y + i);
  }
  if (i < n) {
    const auto mask = hn::FirstN(d, HWY_MIN(n - i, N));
    const V v = LoadSelected(mask, d, x + i);
    StoreSelected(math::LogSoftmax::Of(o, v, neg_max, log_sum), mask, d, y + i);
  }
}

template <class T>
HWY_ATTR void log_softmax(std::size_t n, const T* x, T* y) {
  if (n == 0) return;
  using V = typename HwyOps<T>::V;
  using Sum = ExpSum<T>;
  auto rest0 = Sum::Zero(), rest1 = Sum::Zero();
  LogSoftmaxWith(
      n, x, y, [&](std::size_t, V e) HWY_ATTR { Sum::Add(rest0, rest1, e); },
      [&](std::size_t, V ea, V eb) HWY_ATTR { Sum::Add2(rest0, rest1, ea, eb); },
      [&](double& hi, double& lo) HWY_ATTR { Sum::Total(rest0, rest1, hi, lo); });
}

COHERIQ_GENERIC_END

#endif  // COHERIQ_ENGINES_GENERIC_MATH_INL_H_
