// e^x, 2^x and e^x - 1, for float and double: the algorithms every engine runs (src/math/ops.h).
//
// b^x = 2^k·b^r with k = round(x·log2 b) and r = x - k/log2 b (for e: Cody-Waite, ln 2 as hi + lo;
// x - k·hi is exact with a fused multiply-add, as its bits fit T; for 2: r = x - k exactly).
// e^r = 1 + r + r²·P(r) (scripts/minimax.py exp): the leading 1 + r is split exactly into hi + lo
// (Fast2Sum), so the result 2^k·(hi + (lo + r²·P(r))) is rounded once; rounding e^r - 1 first and
// then scale·(1 + q) would add up to a quarter ulp where e^r < 1. Worst error about 0.8 ulp, most
// of it the final rounding and the rounding of r. 2^r = 1 + r·Q2(r) by one FMA (scripts/minimax.py
// exp2_short): the quarter ulp is taken there for a third fewer operations, worst error 0.91 ulp
// in float (all inputs) and 0.81 in double (sampled). docs/kernels.md has the measured figures.
#pragma once

#include "math/ops.h"

namespace coheriq::kernels::math {

template <class T>
struct ExpConstants;

template <>
struct ExpConstants<float> {
  static constexpr float kLog2e = 0x1.715476p+0f;
  static constexpr float kLn2Hi = 0x1.62e43p-1f;
  static constexpr float kLn2Lo = -0x1.05c61p-29f;
  // e^r = 1 + r + r²·P(r): relative error 2^-28.2 on [-ln2/2, ln2/2].
  static constexpr float kP[] = {0x1.6ac74ep-10f, 0x1.123dep-7f, 0x1.555858p-5f, 0x1.55548cp-3f,
                                 0x1.fffffcp-2f};
  // e^r - 1 = r + r²/2 + r³·P1(r): error 2^-31 relative to e^r - 1 on [-ln2/2, ln2/2].
  static constexpr float kP1[] = {0x1.a03b9cp-16f, 0x1.a16beep-13f, 0x1.6c172ap-10f,
                                  0x1.1110aep-7f,  0x1.555556p-5f,  0x1.555556p-3f};
  // 2^r = 1 + r·Q2(r) (scripts/minimax.py exp2_short): r·Q2(r) to 2^-26.4 relative to 2^r.
  static constexpr float kQ2[] = {0x1.41fbc2p-13f, 0x1.5f3e58p-10f, 0x1.3b2d52p-7f,
                                  0x1.c6aeeep-5f,  0x1.ebfbdap-3f,  0x1.62e43p-1f};
  // Fast: 2^k is a normal float (k in [-126, 127]) and so is the result.
  static constexpr float kFastMin = -87.0f, kFastMax = 88.0f;
  static constexpr float kFastMin2 = -126.0f, kFastMax2 = 127.0f;
  // General clamps x here: e^-104 and 2^-151 round to 0, e^89 and 2^129 overflow.
  static constexpr float kClampMin = -104.0f, kClampMax = 89.0f;
  static constexpr float kClampMin2 = -151.0f, kClampMax2 = 129.0f;
};

template <>
struct ExpConstants<double> {
  static constexpr double kLog2e = 0x1.71547652b82fep+0;
  static constexpr double kLn2Hi = 0x1.62e42fefa39efp-1;
  static constexpr double kLn2Lo = 0x1.abc9e3b39803fp-56;
  // Relative error 2^-56.6 on [-ln2/2, ln2/2].
  static constexpr double kP[] = {
      0x1.ad7f77fea9435p-26, 0x1.28ad68a509e15p-22, 0x1.71df253be416cp-19, 0x1.a0199a16df609p-16,
      0x1.a01a012a69051p-13, 0x1.6c16c184266dbp-10, 0x1.1111111127b9cp-7,  0x1.5555555550889p-5,
      0x1.55555555554fcp-3,  0x1.000000000000ap-1};
  // Error 2^-59.3 relative to e^r - 1 on [-ln2/2, ln2/2].
  static constexpr double kP1[] = {
      0x1.1ef5232f35b09p-29, 0x1.af5d201175135p-26, 0x1.27e52b2c79958p-22, 0x1.71ddf953fdb81p-19,
      0x1.a01a018305fe8p-16, 0x1.a01a01af758c4p-13, 0x1.6c16c16c1cce7p-10, 0x1.111111110f7e9p-7,
      0x1.5555555555549p-5,  0x1.5555555555559p-3};
  // 2^r = 1 + r·ln 2 + r²·P2(r), the split form pow uses (ExpReducedSplit; scripts/minimax.py
  // exp2): relative error 2^-57.7 on [-1/2, 1/2].
  static constexpr double kP2[] = {
      0x1.e7c6da85aeed6p-32, 0x1.e617b52362fbcp-28, 0x1.b52652da088c2p-24, 0x1.62bfc9f521482p-20,
      0x1.ffcbfbc7c8fc2p-17, 0x1.4309130dc599dp-13, 0x1.5d87fe78c3746p-10, 0x1.3b2ab6fba0791p-7,
      0x1.c6b08d704a045p-5,  0x1.ebfbdff82c5a1p-3};
  // r·Q2(r) to 2^-56.5 relative to 2^r on [-1/2, 1/2] (exp2_short).
  static constexpr double kQ2[] = {
      0x1.c2cea03f121a3p-36, 0x1.ea014ee31f987p-32, 0x1.e4d06c707518dp-28, 0x1.b524dd55482d6p-24,
      0x1.62c021e26f2c7p-20, 0x1.ffcbfc74d6120p-17, 0x1.430912f883cf8p-13, 0x1.5d87fe78a26ccp-10,
      0x1.3b2ab6fba4e25p-7,  0x1.c6b08d704a0d2p-5,  0x1.ebfbdff82c58ep-3,  0x1.62e42fefa39efp-1};
  static constexpr double kFastMin = -708.0, kFastMax = 709.0;
  static constexpr double kFastMin2 = -1022.0, kFastMax2 = 1023.0;
  static constexpr double kClampMin = -746.0, kClampMax = 710.0;
  static constexpr double kClampMin2 = -1076.0, kClampMax2 = 1025.0;
};

enum class ExpBase { kE, k2 };

// The reduction: k (integer-valued) and r, for |x| within the clamp bounds; `k_biased_shifted`
// holds k + bias in its low bits (Pow2FromBiasedShift).
template <ExpBase kBase, class O>
COHERIQ_MATH_INLINE Vec<O> ExpReduce(const O& o, Vec<O> x, Vec<O>& k, Vec<O>& k_biased_shifted) {
  using T = typename O::T;
  using C = ExpConstants<T>;
  using F = Format<T>;
  const Vec<O> shift = o.Set(F::kRoundShift + F::kBias);
  if constexpr (kBase == ExpBase::kE) {
    k_biased_shifted = o.MulAdd(x, o.Set(C::kLog2e), shift);
    k = o.Sub(k_biased_shifted, shift);
    const Vec<O> r = o.NegMulAdd(k, o.Set(C::kLn2Hi), x);
    return o.NegMulAdd(k, o.Set(C::kLn2Lo), r);
  } else {
    k_biased_shifted = o.Add(x, shift);
    k = o.Sub(k_biased_shifted, shift);
    return o.Sub(x, k);
  }
}

// b^r as hi + tail: hi + lo = 1 + r·ln b exactly, tail = lo + r²·P(r) (+ the rounding error of
// r·ln 2). hi is only the rounded 1 + r·ln b, so tail is not small beside hi (r²·P(r) reaches
// about 0.07): a product with b^r must multiply both parts, and hi + tail rounds to b^r.
template <ExpBase kBase, class O>
COHERIQ_MATH_INLINE Vec<O> ExpReducedSplit(const O& o, Vec<O> r, Vec<O>& tail) {
  using T = typename O::T;
  using C = ExpConstants<T>;
  const Vec<O> one = o.Set(T(1));
  const Vec<O> r2 = o.Mul(r, r);
  if constexpr (kBase == ExpBase::kE) {
    const Vec<O> p = Horner(o, r, C::kP);
    const Vec<O> hi = o.Add(one, r);
    const Vec<O> lo = o.Add(o.Sub(one, hi), r);
    tail = o.MulAdd(r2, p, lo);
    return hi;
  } else {
    const Vec<O> p = Horner(o, r, C::kP2);
    const Vec<O> a = o.Mul(r, o.Set(C::kLn2Hi));
    const Vec<O> hi = o.Add(one, a);
    const Vec<O> lo = o.Add(o.Sub(one, hi), a);
    // lo + r·ln2_lo + (the rounding error of r·ln2_hi) + r²·P(r)
    const Vec<O> a_lo = o.MulAdd(r, o.Set(C::kLn2Lo), o.MulSub(r, o.Set(C::kLn2Hi), a));
    tail = o.MulAdd(r2, p, o.Add(lo, a_lo));
    return hi;
  }
}

// scale·b^r (scale a power of two). e^r: rounded once where the result is normal. 2^r: 1 +
// r·Q2(r) by one FMA, where r·Q2(r) carries the rounding of Q2 (at most about half an ulp of Q2
// times |r| <= 1/2: a quarter ulp of the result where 2^r < 1) besides the final rounding, which
// still keeps exp2 within 1 ulp at a third fewer operations than the split form (pow, which
// needs 2^r to far below an ulp, takes ExpReducedSplit).
template <ExpBase kBase, class O>
COHERIQ_MATH_INLINE Vec<O> ScaledExpReduced(const O& o, Vec<O> r, Vec<O> scale) {
  using T = typename O::T;
  if constexpr (kBase == ExpBase::k2) {
    return o.Mul(o.MulAdd(Horner(o, r, ExpConstants<T>::kQ2), r, o.Set(T(1))), scale);
  } else {
    Vec<O> tail;
    const Vec<O> hi = ExpReducedSplit<kBase>(o, r, tail);
    return o.Mul(o.Add(hi, tail), scale);
  }
}

// 2^p in double to 2^-34 relative, for a result to be rounded to float once (pow and erf of a
// float, computed in double): p = k + r with r in [-1/2, 1/2] (exact), 2^r = 1 + r·ln2 + r²·P(r)
// (scripts/minimax.py pow_exp2), scaled by 2^k. |p| <= 1022.
struct Exp2ForFloatConstants {
  static constexpr double kP[] = {0x1.fe7bc187c66dcp-17, 0x1.4455140548bd7p-13,
                                  0x1.5d89c062d7ce6p-10, 0x1.3b29fec9d884fp-7,
                                  0x1.c6b08c0362090p-5,  0x1.ebfbe067d6e7ep-3};
  static constexpr double kLn2 = 0x1.62e42fefa39efp-1;
};

template <class O>
COHERIQ_MATH_INLINE Vec<O> Exp2ForFloat(const O& o, Vec<O> p) {
  using C = Exp2ForFloatConstants;
  const Vec<O> shift = o.Set(Format<double>::kRoundShift);
  const Vec<O> k = o.Sub(o.Add(p, shift), shift);
  const Vec<O> r = o.Sub(p, k);  // exact
  const Vec<O> poly = o.MulAdd(Horner(o, r, C::kP), r, o.Set(C::kLn2));
  return o.Mul(o.MulAdd(poly, r, o.Set(1.0)), Pow2(o, k));
}

template <ExpBase kBase>
struct ExpOf {
  template <class O>
  static COHERIQ_MATH_INLINE Mask<O> InRange(const O& o, Vec<O> x) {
    using C = ExpConstants<typename O::T>;
    const auto low = o.Set(kBase == ExpBase::kE ? C::kFastMin : C::kFastMin2);
    const auto high = o.Set(kBase == ExpBase::kE ? C::kFastMax : C::kFastMax2);
    return o.And(o.Ge(x, low), o.Le(x, high));
  }

  template <class O>
  static COHERIQ_MATH_INLINE Vec<O> Fast(const O& o, Vec<O> x) {
    return FastImpl<false>(o, x, x);
  }
  template <class O>
  static COHERIQ_MATH_INLINE Vec<O> General(const O& o, Vec<O> x) {
    return GeneralImpl<false>(o, x, x);
  }

  // e^(x + x_lo) for a small correction x_lo (softmax's rounding error of x - max).
  template <class O>
  static COHERIQ_MATH_INLINE Vec<O> FastWithLo(const O& o, Vec<O> x, Vec<O> x_lo) {
    return FastImpl<true>(o, x, x_lo);
  }
  template <class O>
  static COHERIQ_MATH_INLINE Vec<O> GeneralWithLo(const O& o, Vec<O> x, Vec<O> x_lo) {
    return GeneralImpl<true>(o, x, x_lo);
  }

 private:
  template <bool kHasLo, class O>
  static COHERIQ_MATH_INLINE Vec<O> FastImpl(const O& o, Vec<O> x, Vec<O> x_lo) {
    Vec<O> k, k_biased_shifted;
    Vec<O> r = ExpReduce<kBase>(o, x, k, k_biased_shifted);
    if constexpr (kHasLo) r = o.Add(r, x_lo);
    return ScaledExpReduced<kBase>(o, r, Pow2FromBiasedShift(o, k_biased_shifted));
  }

  // Overflow to +Inf, gradual underflow, b^-Inf = 0, NaN. 2^k is applied in two halves (k up to
  // 128 or down to -150 has no float of its own), so a subnormal result is rounded twice: the
  // first rounding is 2^-24 (2^-53) relative, far below the second's half ulp.
  template <bool kHasLo, class O>
  static COHERIQ_MATH_INLINE Vec<O> GeneralImpl(const O& o, Vec<O> x, Vec<O> x_lo) {
    using T = typename O::T;
    using C = ExpConstants<T>;
    using F = Format<T>;
    const auto low = o.Set(kBase == ExpBase::kE ? C::kClampMin : C::kClampMin2);
    const auto high = o.Set(kBase == ExpBase::kE ? C::kClampMax : C::kClampMax2);
    const Vec<O> clamped = o.Min(o.Max(x, low), high);
    Vec<O> k, k_biased_shifted;
    Vec<O> r = ExpReduce<kBase>(o, clamped, k, k_biased_shifted);
    // A clamped lane's correction is meaningless, and NaN when x is infinite (TwoSum of Inf).
    if constexpr (kHasLo) r = o.Add(r, o.IfThenElseZero(o.Eq(x, clamped), x_lo));
    // k = k_half + (k - k_half), each half a normal power of two.
    const Vec<O> shift = o.Set(F::kRoundShift);
    const Vec<O> k_half = o.Sub(o.MulAdd(k, o.Set(T(0.5)), shift), shift);
    const Vec<O> scale_a = Pow2(o, k_half);
    const Vec<O> scale_b = Pow2(o, o.Sub(k, k_half));
    const Vec<O> y = o.Mul(ScaledExpReduced<kBase>(o, r, scale_a), scale_b);
    const Vec<O> special = o.IfThenElse(o.IsNaN(x), o.Add(x, x), y);
    return o.IfThenElse(InRange(o, x), FastImpl<kHasLo>(o, x, x_lo), special);
  }
};

using Exp = ExpOf<ExpBase::kE>;
using Exp2 = ExpOf<ExpBase::k2>;

// e^x - 1 = 2^k·e^r - 1 = (2^k - 1) + 2^k·r + 2^k·(e^r - 1 - r), where 2^k - 1 is exact as two
// terms and 2^k·r is exact, and their sum exact as two terms (TwoSum), so that the result is
// rounded once for every k: near 0 (k = 0) it is r + (r²/2 + r³·P1(r)) with r = x, and where e^x
// is tiny, -1 plus a tiny correction. Where k is 1, 2 or -1, e^x - 1 magnifies the relative error
// of e^x by up to 3.4, so e^r - 1 - r is formed more carefully than exp's: r keeps its rounding
// error, r² its own, and the polynomial starts at r³ (scripts/minimax.py expm1).
struct Expm1 {
  template <class O>
  static COHERIQ_MATH_INLINE Mask<O> InRange(const O& o, Vec<O> x) {
    // Not ±0, whose sign the sum below would lose.
    return o.And(Exp::InRange(o, x), o.Ne(x, o.Zero()));
  }

  template <class O>
  static COHERIQ_MATH_INLINE Vec<O> Fast(const O& o, Vec<O> x) {
    using T = typename O::T;
    using C = ExpConstants<T>;
    using F = Format<T>;
    const Vec<O> one = o.Set(T(1));
    const Vec<O> half = o.Set(T(0.5));
    const Vec<O> shift = o.Set(F::kRoundShift + F::kBias);
    const Vec<O> k_biased_shifted = o.MulAdd(x, o.Set(C::kLog2e), shift);
    const Vec<O> k = o.Sub(k_biased_shifted, shift);
    const Vec<O> r_hi = o.NegMulAdd(k, o.Set(C::kLn2Hi), x);  // exact
    const Vec<O> r = o.NegMulAdd(k, o.Set(C::kLn2Lo), r_hi);
    const Vec<O> r_lo = o.NegMulAdd(k, o.Set(C::kLn2Lo), o.Sub(r_hi, r));  // r + r_lo, to 2^-2p
    // e^(r + r_lo) - 1 - r = small: r²/2 + r³·P1(r), r² = r2 + r2_lo exactly, + r_lo·(1 + r).
    const Vec<O> r2 = o.Mul(r, r);
    const Vec<O> r2_lo = o.MulSub(r, r, r2);
    Vec<O> t = o.MulAdd(r2_lo, half, o.MulAdd(r_lo, r, r_lo));
    t = o.MulAdd(o.Mul(r, r2), Horner(o, r, C::kP1), t);
    const Vec<O> small = o.MulAdd(r2, half, t);
    // 2^k - 1 = c + c_lo exactly (c_lo is -1 where 2^k - 1 has more bits than T, else 0).
    const Vec<O> scale = Pow2FromBiasedShift(o, k_biased_shifted);
    const Vec<O> c = o.Sub(scale, one);
    const Vec<O> c_lo = o.Sub(o.Sub(scale, c), one);
    // c + 2^k·r = d + d_lo exactly (TwoSum).
    const Vec<O> b = o.Mul(scale, r);
    const Vec<O> d = o.Add(c, b);
    const Vec<O> b_part = o.Sub(d, c);
    const Vec<O> d_lo = o.Add(o.Sub(c, o.Sub(d, b_part)), o.Sub(b, b_part));
    return o.Add(d, o.MulAdd(scale, small, o.Add(d_lo, c_lo)));
  }

  // e^x - 1 = e^x above the fast range (+Inf beyond ln(max)), -1 below it (-Inf included),
  // ±0 for ±0, NaN for NaN.
  template <class O>
  static COHERIQ_MATH_INLINE Vec<O> General(const O& o, Vec<O> x) {
    using T = typename O::T;
    const Vec<O> y = o.IfThenElse(o.Gt(x, o.Zero()), Exp::General(o, x), o.Set(T(-1)));
    const Vec<O> special = o.IfThenElse(o.Or(o.Eq(x, o.Zero()), o.IsNaN(x)), o.Add(x, x), y);
    return o.IfThenElse(InRange(o, x), Fast(o, x), special);
  }
};

}  // namespace coheriq::kernels::math
