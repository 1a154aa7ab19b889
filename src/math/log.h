// The logarithms ln, log2, log10 and ln(1 + x), for float and double: the algorithms every engine
// runs (src/math/ops.h).
//
// x = 2^k·m with m in [√½, √2), f = m - 1 (exact), log_b x = k·log_b 2 + ln(1 + f)/ln b, with
// ln(1 + f) = f - f²/2 + w:
//   float:  w = f³·P(f) (scripts/minimax.py log1p), P's 8 terms by Estrin's scheme: a chain of
//           8 multiply-adds was the loops' critical path (Horner's ran log, log2, log10 and
//           log1p f32 at 0.94-0.96 of the speed on a Zen 5 guest);
//   double: w = s·(f²/2 + R) with s = f/(2 + f) and 2·atanh(s) = 2s + s·R(s²) (scripts/minimax.py
//           log_atanh): a division and a polynomial of 7 terms instead of one of 21 in f.
// The sum is formed so that it is rounded once: k·c_hi + f·(1/ln b)_hi exactly as hi + lo
// (Fast2Sum; c_hi has few enough bits that k·c_hi is exact, and the rounding error of the
// product comes from a fused multiply-add), the rest gathered with one rounding of the size of
// f²/2, then hi. ln(1 + x) splits u = 1 + x the same way, with the rounding error of 1 + x
// (TwoSum) added to f. Worst errors measured: docs/kernels.md.
#pragma once

#include "math/ops.h"

namespace coheriq::kernels::math {

template <class T>
struct LogConstants;

template <>
struct LogConstants<float> {
  static constexpr std::int64_t kSqrtHalfBits = 0x3f3504f3;  // √½ rounded down
  // ln(1 + f) = f - f²/2 + f³·P(f): relative error 2^-27.2 on [√½ - 1, √2 - 1].
  static constexpr float kP[] = {-0x1.38b58ep-4f, 0x1.055b72p-3f, -0x1.0d8548p-3f, 0x1.22da22p-3f,
                                 -0x1.54724ap-3f, 0x1.99a008p-3f, -0x1.000226p-2f, 0x1.555554p-2f};
  // log_b 2 = hi + lo with 16 significant bits in hi: k·hi is exact for every k of a float.
  static constexpr float kLn2Hi = 0x1.62e4p-1f, kLn2Lo = 0x1.7f7d1cp-20f;
  static constexpr float kLog10of2Hi = 0x1.3442p-2f, kLog10of2Lo = -0x1.95ec1p-19f;
  // 1/ln b = hi + lo, hi the nearest float.
  static constexpr float kInvLn2Hi = 0x1.715476p+0f, kInvLn2Lo = 0x1.4ae0cp-26f;
  static constexpr float kInvLn10Hi = 0x1.bcb7b2p-2f, kInvLn10Lo = -0x1.5b235ep-27f;
  static constexpr float kSmallestNormal = 0x1p-126f;
  static constexpr float kLargest = 0x1.fffffep127f;
  static constexpr float kSubnormalScale = 0x1p23f;
  static constexpr float kSubnormalScaleLog2 = 23.0f;
};

template <>
struct LogConstants<double> {
  static constexpr std::int64_t kSqrtHalfBits = 0x3fe6a09e667f3bcd;  // √½ rounded
  // 2·atanh(s) = 2s + s·R, R = z·Q(z), z = s²: absolute error of R 2^-58 on [0, 0.1716²].
  static constexpr double kQ[] = {0x1.2f05636754158p-3, 0x1.39a1bababa380p-3, 0x1.74663ee846c0bp-3,
                                  0x1.c71c52095dfa9p-3, 0x1.24924941f123dp-2, 0x1.999999997fdbbp-2,
                                  0x1.5555555555592p-1};
  // log_b 2 = hi + lo with 42 significant bits in hi: k·hi is exact for every k of a double.
  static constexpr double kLn2Hi = 0x1.62e42fefa38p-1, kLn2Lo = 0x1.ef35793c7673p-45;
  static constexpr double kLog10of2Hi = 0x1.34413509f78p-2, kLog10of2Lo = 0x1.fef311f12b358p-46;
  static constexpr double kInvLn2Hi = 0x1.71547652b82fep+0, kInvLn2Lo = 0x1.777d0ffda0d24p-56;
  static constexpr double kInvLn10Hi = 0x1.bcb7b1526e50ep-2, kInvLn10Lo = 0x1.95355baaafad3p-57;
  static constexpr double kSmallestNormal = 0x1p-1022;
  static constexpr double kLargest = 0x1.fffffffffffffp1023;
  static constexpr double kSubnormalScale = 0x1p52;
  static constexpr double kSubnormalScaleLog2 = 52.0;
};

// An integer-valued VI (|v| < 2^22 for float, 2^51 for double) as a V, exactly.
template <class O>
COHERIQ_MATH_INLINE Vec<O> SmallIntToFloat(const O& o, Ints<O> v) {
  const Vec<O> shift = o.Set(Format<typename O::T>::kRoundShift);
  return o.Sub(o.FromBits(o.AddI(v, o.BitsOf(shift))), shift);
}

// x = 2^k·m, m in [√½, √2), for positive normal x: returns m, sets k.
template <class O>
COHERIQ_MATH_INLINE Vec<O> SplitSqrtHalf(const O& o, Vec<O> x, Vec<O>& k) {
  using C = LogConstants<typename O::T>;
  using F = Format<typename O::T>;
  // Subtracting the bits of √½ moves m's range boundary to a power of two: the exponent field
  // of the difference is k, and its mantissa bits plus √½'s bits give m.
  const Ints<O> sqrt_half = o.SetI(C::kSqrtHalfBits);
  const Ints<O> shifted = o.SubI(o.BitsOf(x), sqrt_half);
  k = SmallIntToFloat(o, ShiftRight<F::kMantissaBits>(o, shifted));
  const Ints<O> mantissa_mask = o.SetI((std::int64_t{1} << F::kMantissaBits) - 1);
  return o.FromBits(o.AddI(o.AndI(shifted, mantissa_mask), sqrt_half));
}

// ln(1 + f) = f - h + w for f in [√½ - 1, √2 - 1] (slightly beyond for ln(1 + x)'s corrected
// f): h = f²/2 rounded (|h| <= 0.086) and w the rest (|w| <= 0.02), its rounding error included,
// so that the caller rounds the sum once.
template <class O>
COHERIQ_MATH_INLINE Vec<O> Log1pParts(const O& o, Vec<O> f, Vec<O>& w) {
  using T = typename O::T;
  using C = LogConstants<T>;
  const Vec<O> half = o.Set(T(0.5));
  const Vec<O> f2 = o.Mul(f, f);
  const Vec<O> h = o.Mul(f2, half);
  const Vec<O> h_lo = o.Mul(o.MulSub(f, f, f2), half);  // f²/2 = h + h_lo exactly
  if constexpr (sizeof(T) == 4) {
    // w = f³·P(f) - h_lo
    w = o.MulSub(o.Mul(Estrin(o, f, C::kP), f), f2, h_lo);
  } else {
    // ln(1 + f) = f - f²/2 + s·(f²/2 + R): w = s·(h + R) - h_lo
    const Vec<O> s = o.Div(f, o.Add(o.Set(T(2)), f));
    const Vec<O> z = o.Mul(s, s);
    const Vec<O> r = o.Mul(z, Horner(o, z, C::kQ));
    w = o.MulSub(s, o.Add(h, r), h_lo);
  }
  return h;
}

// The base of a logarithm: log_b x = k·(log_b 2) + ln(1 + f)·(1/ln b).
enum class LogBase { kE, k2, k10 };

// k·log_b 2 + (f - h + w)/ln b, rounded once (see the top of this file): hi + lo = k·c_hi + a
// exactly, where a = f·(1/ln b)_hi (f itself for base e). The small terms that do not depend on
// w (lo, k·c_lo, and for bases 2 and 10 f·(1/ln b)_lo and the rounding error of a) are summed
// while w is still being computed, so that w, the last value to arrive, meets one multiply-add,
// then h (one rounding of the size of h, |h| <= 0.086) and hi: summed after w, they put four or
// five operations on the loops' latency-bound tail (log 1.07-1.09x, log10 1.07-1.08x, f32 and
// f64, on a Zen 5 guest; the worst errors measured did not move: docs/kernels.md).
template <LogBase kBase, class O>
COHERIQ_MATH_INLINE Vec<O> LogCombine(const O& o, Vec<O> k, Vec<O> f, Vec<O> h, Vec<O> w) {
  using T = typename O::T;
  using C = LogConstants<T>;
  Vec<O> a = f, k_hi = k, h_scale = o.Set(T(1));
  if constexpr (kBase == LogBase::kE) {
    k_hi = o.Mul(k, o.Set(C::kLn2Hi));
  } else {
    h_scale = o.Set(kBase == LogBase::k2 ? C::kInvLn2Hi : C::kInvLn10Hi);
    a = o.Mul(f, h_scale);
    if constexpr (kBase == LogBase::k10) k_hi = o.Mul(k, o.Set(C::kLog10of2Hi));
  }
  // hi + lo = k_hi + a exactly (|k_hi| >= |a| unless k = 0, when the sum is a).
  const Vec<O> hi = o.Add(k_hi, a);
  Vec<O> early = o.Sub(a, o.Sub(hi, k_hi));
  if constexpr (kBase == LogBase::kE) {
    early = o.MulAdd(k, o.Set(C::kLn2Lo), early);
  } else {
    // f·(1/ln b)_lo + the rounding error of f·(1/ln b)_hi.
    const auto inv_lo = o.Set(kBase == LogBase::k2 ? C::kInvLn2Lo : C::kInvLn10Lo);
    early = o.Add(early, o.MulAdd(f, inv_lo, o.MulSub(f, h_scale, a)));
    if constexpr (kBase == LogBase::k10) early = o.MulAdd(k, o.Set(C::kLog10of2Lo), early);
  }
  return o.Add(hi, o.NegMulAdd(h, h_scale, o.MulAdd(w, h_scale, early)));
}

// log_b x for positive normal x (x·2^-k_bias, then k_bias added back: subnormal inputs).
template <LogBase kBase, class O>
COHERIQ_MATH_INLINE Vec<O> LogNormal(const O& o, Vec<O> x, Vec<O> k_bias) {
  using T = typename O::T;
  Vec<O> k;
  const Vec<O> m = SplitSqrtHalf(o, x, k);
  k = o.Sub(k, k_bias);
  const Vec<O> f = o.Sub(m, o.Set(T(1)));
  Vec<O> w;
  const Vec<O> h = Log1pParts(o, f, w);
  return LogCombine<kBase>(o, k, f, h, w);
}

template <LogBase kBase>
struct LogOf {
  template <class O>
  static COHERIQ_MATH_INLINE Mask<O> InRange(const O& o, Vec<O> x) {
    using C = LogConstants<typename O::T>;
    return o.And(o.Ge(x, o.Set(C::kSmallestNormal)), o.Le(x, o.Set(C::kLargest)));
  }

  template <class O>
  static COHERIQ_MATH_INLINE Vec<O> Fast(const O& o, Vec<O> x) {
    return LogNormal<kBase>(o, x, o.Zero());
  }

  // Subnormals are scaled into the normal range first; log ±0 = -Inf, log(x < 0) = NaN (-Inf
  // included), log +Inf = +Inf, NaN stays NaN.
  template <class O>
  static COHERIQ_MATH_INLINE Vec<O> General(const O& o, Vec<O> x) {
    using T = typename O::T;
    using C = LogConstants<T>;
    const Mask<O> subnormal = o.Lt(x, o.Set(C::kSmallestNormal));
    const Vec<O> scaled = o.IfThenElse(subnormal, o.Mul(x, o.Set(C::kSubnormalScale)), x);
    // Where InRange, this is Fast's result: the same operations on the same operands.
    Vec<O> y =
        LogNormal<kBase>(o, scaled, o.IfThenElseZero(subnormal, o.Set(C::kSubnormalScaleLog2)));
    const Vec<O> inf = o.Set(static_cast<T>(__builtin_inf()));
    y = o.IfThenElse(o.Eq(x, inf), inf, y);
    y = o.IfThenElse(o.Eq(x, o.Zero()), o.Neg(inf), y);
    const Mask<O> invalid = o.Or(o.Lt(x, o.Zero()), o.IsNaN(x));
    return o.IfThenElse(invalid, o.Set(static_cast<T>(__builtin_nan(""))), y);
  }
};

using Log = LogOf<LogBase::kE>;
using Log2 = LogOf<LogBase::k2>;
using Log10 = LogOf<LogBase::k10>;

// ln(1 + x): u = 1 + x rounded, with its rounding error c (TwoSum); u = 2^k·m as above, and
// ln(1 + x) = k·ln 2 + ln m + c·2^-k/m (ln(1 + x) itself where k = 0).
struct Log1p {
  template <class O>
  static COHERIQ_MATH_INLINE Mask<O> InRange(const O& o, Vec<O> x) {
    using T = typename O::T;
    // Not ±0, whose sign the sums below would lose.
    return o.And(o.And(o.Gt(x, o.Set(T(-1))), o.Le(x, o.Set(LogConstants<T>::kLargest))),
                 o.Ne(x, o.Zero()));
  }

  template <class O>
  static COHERIQ_MATH_INLINE Vec<O> Fast(const O& o, Vec<O> x) {
    using T = typename O::T;
    const Vec<O> one = o.Set(T(1));
    const Vec<O> u = o.Add(one, x);
    const Vec<O> x_part = o.Sub(u, one);
    const Vec<O> c = o.Add(o.Sub(x, x_part), o.Sub(one, o.Sub(u, x_part)));
    Vec<O> k;
    const Vec<O> m = SplitSqrtHalf(o, u, k);
    // ln(1 + x) = k·ln 2 + ln(m + d) with d = c·2^-k, and ln(m + d) = ln m + d/m to far below an
    // ulp: |d| <= ulp(m)/2, and 1/m = 1 - f + f² - f³ to 2^-5. Where k = 0, m - 1 + d is x itself
    // (f = x, d = 0): the result is then as accurate as ln(1 + f) for tiny f. 2^-k: k is in
    // [-53, 1024] for a double (u >= 2^-53); capped at 1022, so that 2^-k is normal: where u is
    // that large, c is at most 1 and d far below an ulp of ln m.
    const Mask<O> k_zero = o.Eq(k, o.Zero());
    const Vec<O> f = o.IfThenElse(k_zero, x, o.Sub(m, one));
    const Vec<O> d = o.IfThenZeroElse(
        k_zero, o.Mul(c, Pow2(o, o.Neg(o.Min(k, o.Set(T(Format<T>::kMaxExponent - 1)))))));
    const Vec<O> inv_m = o.MulAdd(o.MulAdd(o.Sub(f, one), f, one), o.Neg(f), one);
    Vec<O> w;
    const Vec<O> h = Log1pParts(o, f, w);
    return LogCombine<LogBase::kE>(o, k, f, h, o.MulAdd(d, inv_m, w));
  }

  // log1p(±0) = ±0, log1p(-1) = -Inf, log1p(x < -1) = NaN (-Inf included), log1p(+Inf) = +Inf,
  // NaN stays NaN.
  template <class O>
  static COHERIQ_MATH_INLINE Vec<O> General(const O& o, Vec<O> x) {
    using T = typename O::T;
    const Vec<O> inf = o.Set(static_cast<T>(__builtin_inf()));
    const Vec<O> minus_one = o.Set(T(-1));
    const Mask<O> in_range = InRange(o, x);
    Vec<O> y = o.IfThenElse(in_range, Fast(o, o.IfThenElse(in_range, x, o.Set(T(1)))), x);
    y = o.IfThenElse(o.Eq(x, inf), inf, y);
    y = o.IfThenElse(o.Eq(x, minus_one), o.Neg(inf), y);
    const Mask<O> invalid = o.Or(o.Lt(x, minus_one), o.IsNaN(x));
    return o.IfThenElse(invalid, o.Set(static_cast<T>(__builtin_nan(""))), y);
  }
};

}  // namespace coheriq::kernels::math
