// erf and erfc for float and double: the algorithms every engine runs (src/math/ops.h).
//
// Float: computed in double and rounded to float once. With a = |x| (a float, so a² is exact in
// double):
//   a < 1:  erf a = a·P(a²); erfc a = 1 - erf a (erfc > 0.15 there: the cancellation costs a
//           factor 5.4 of P's 2^-34.8, far below a float ulp);
//   a >= 1: erfc a = e^(-a²)·t·Q(t) with t = 1/a (Q smooth on [1/10.1, 1]: erfc e^(a²) behaves as
//           1/(a√π)), erf a = 1 - erfc a (erf alone: a shorter Q on [1/4, 1], whose error erf
//           scales by erfc/erf <= 0.19); e^(-a²) to 2^-34 (Exp2ForFloat).
// Odd and even: erf(-a) = -erf a, erfc(-a) = 2 - erfc a. a is clamped at 4 for erf (erf rounds to
// 1 from 3.92) and at 10.1 for erfc (erfc rounds to +0 beyond 10.06), so e^(-a²) stays normal in
// double. Both paths are computed and one selected per lane (no branch: Fast would gain little).
//
// Double (ErfOfDouble below): the same two forms, each kept to a few 2^-56 before its last
// rounding.
#pragma once

#include <cstddef>
#include <iterator>

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
  // erf a alone (clamped at 4, so t >= 1/4): erf a = 1 - e^(-a²)·t·Q(t), t in [1/4, 1]
  // (scripts/minimax.py erf_large f64): relative error 2^-30.4 of Q, 2^-32.8 of erf (erfc/erf is
  // at most 0.19 there).
  static constexpr double kLargeErf[] = {
      0x1.4f40764dc0ab9p-6,  -0x1.67073b2e1309ep-3, 0x1.592183bf4edeep-1, -0x1.8785092ab4428p+0,
      0x1.1fa9ba1cd9e36p+1,  -0x1.15b6f183ed958p+1, 0x1.40b40251f0a94p+0, -0x1.a1ee6b3dbc2fep-3,
      -0x1.000debd25fc56p-2, -0x1.8134dd91f4893p-9, 0x1.20ed34430465fp-1};
  static constexpr double kClampErf = 4.0, kClampErfc = 10.1;
};

// erf (kErfc false) or erfc of a float in double. `erfc_clamp` (erfc only) may pass kClampErfc a
// little for a caller whose results there are below a float's smallest subnormal anyway (gelu:
// Q at t = 1/10.2, past its fit, is still within 2^-31.9). x need not be a float (gelu passes
// -x/√2 rounded to double): a² is then rounded, which costs e^(-a²) a²·2^-53 <= 2^-46.
template <bool kErfc, class O>
COHERIQ_MATH_INLINE Vec<O> ErfOfFloat(const O& o, Vec<O> x,
                                      double erfc_clamp = ErfConstants::kClampErfc) {
  using C = ErfConstants;
  const Vec<O> one = o.Set(1.0);
  const Vec<O> a = o.Min(o.Abs(x), o.Set(kErfc ? erfc_clamp : C::kClampErf));
  const Vec<O> z = o.Mul(a, a);  // exact for a float's a
  const Vec<O> erf_small = o.Mul(a, Horner(o, z, C::kSmall));
  const Vec<O> t = o.Div(one, a);
  const Vec<O> q = kErfc ? LongPolynomial(o, t, C::kLarge) : LongPolynomial(o, t, C::kLargeErf);
  // e^(-a²) to 2^-34: the product -a²·log2(e) is rounded within 2^-48 of its at most 148.
  const Vec<O> e = Exp2ForFloat(o, o.Mul(z, o.Set(-ExpConstants<double>::kLog2e)));
  const Vec<O> erfc_large = o.Mul(e, o.Mul(t, q));
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

// ------------------------------ double

// The polynomials (scripts/minimax.py, names given): erf a = a + a·R(a²) for a < 3/4 (fitted up
// to 1), and erfc a = e^(-a²)·F(a) for a >= 1/2, F = erfcx (the scaled complementary error
// function, smooth and slowly decreasing: 1 at 0, 1/(a√π) for large a) on three intervals, each
// a polynomial of degree 18 whose constant term is hi + lo (rounded to one double, it alone would
// cost 2^-54):
//   near [1/2, 3/2): F in u = a - 1 (exact);
//   mid  [3/2, 4):   F = t·G, G = erfcx(a)·a (smooth in t, tending to 1/√π), t = 1/a rounded, G
//                    in u = t - 7/16 (exact: Sterbenz);
//   far  [4, 27.3]:  F = t·G, G in u = t.
// Highest degree first, the constant term apart.
struct ErfDoubleConstants {
  // erf_small_f64: error 2^-56.3 relative to erf a / a.
  static constexpr double kR[] = {
      0x1.0579ab29d098cp-34, -0x1.386ac0ef04a31p-30, 0x1.f7a4123bbfb06p-27, -0x1.5f1d36c38498cp-23,
      0x1.b9def19e196ffp-20, -0x1.f4d1df394e70bp-17, 0x1.f9a321a11dfd6p-14, -0x1.c02db3d8ed263p-11,
      0x1.565bcd0db02e2p-8,  -0x1.b82ce3128499ep-6,  0x1.ce2f21a042b20p-4,  -0x1.812746b0379e6p-2,
      0x1.06eba8214db69p-3};
  // erfcx_near_1, erfcx_mid, erfcx_far: relative errors 2^-58.13, 2^-58.49, 2^-59.3.
  static constexpr double kNear[] = {
      0x1.723eaccd70a4cp-27, -0x1.51c9b5dbb86fdp-25, 0x1.0dfeea1503fadp-23, -0x1.cd6a1f3b7907fp-22,
      0x1.8278db4ffee07p-20, -0x1.39cc9198d16a7p-18, 0x1.ef08cc85176a5p-17, -0x1.7ab1a9a48d1f2p-15,
      0x1.184fc3375bfe9p-13, -0x1.908223d1d1118p-12, 0x1.135262e5efbcbp-10, -0x1.6af2654d425dfp-9,
      0x1.c8cb958c83503p-8,  -0x1.10fcf1b55a0b6p-6,  0x1.33cad0ef5e9d5p-5,  -0x1.44837f8906fc4p-4,
      0x1.3c27283c32cc4p-3,  -0x1.17c4e3f17c050p-2};
  static constexpr double kMid[] = {
      0x1.b4020d7642ffbp-1,  -0x1.bf3411e232c96p+0, 0x1.9ec2bfdd1fee9p+0,  -0x1.b88099cb58791p-1,
      0x1.fab6a00ac3842p-4,  0x1.4e5e8d937cdfap-2,  -0x1.dc0f63c85492fp-2, 0x1.7ac5738635d47p-2,
      -0x1.4e9dd22241157p-3, -0x1.41a04e918fc92p-5, 0x1.4ac91075468abp-3,  -0x1.69573d9aedf6bp-3,
      0x1.9ee726de5398ep-4,  0x1.149e74b0f444dp-6,  -0x1.e5e1a1fc8a63dp-4, 0x1.2e2ed213f07fep-3,
      -0x1.f876500d99829p-5, -0x1.49fdc91a7e7ddp-3};
  static constexpr double kFar[] = {
      -0x1.6b0b4c236c7fdp+11, 0x1.c439f69033b15p+12,  -0x1.e30055d770fe5p+12,
      0x1.0c00c14f058a8p+12,  -0x1.e60ca9fd8ab45p+9,  -0x1.f734ccfccbdf4p+7,
      0x1.bb17f2ebe92e8p+7,   -0x1.1598f433b4654p+5,  -0x1.4870460691e4ap+3,
      -0x1.c2431132b1b47p-1,  0x1.e5cd2614509efp+1,   -0x1.f22f619d2a1a3p-8,
      -0x1.0eb000708bec6p+0,  -0x1.89eab30b06685p-16, 0x1.b14c69275591ap-2,
      -0x1.879c03b2e6c0bp-26, -0x1.20dd74fd0e228p-2,  -0x1.4283023edaf3dp-38};
  static constexpr double kNearC0[] = {0x1.b5d8780f956b2p-2, 0x1.829e96a66feb7p-58};  // hi, lo
  static constexpr double kMidC0[] = {0x1.0ac97386ab509p-1, 0x1.aba48f31a498ep-59};
  static constexpr double kFarC0[] = {0x1.20dd750429c3fp-1, 0x1.6fd9619291c40p-56};
  static constexpr double kNearEnd = 1.5, kMidEnd = 4.0, kMidCenter = 0.4375;
  // erf takes a + a·R(a²) below this, 1 - erfc a from it.
  static constexpr double kErfSmallEnd = 0.75;
  static constexpr double kTwoOverSqrtPi = 0x1.20dd750429b6dp+0;
  // erfc a rounds to +0 beyond 27.23 (below 2^-1075); erf a to 1 from 5.93.
  static constexpr double kClamp = 27.3;
};

// The coefficient i of three tables, chosen per lane: `first` where in_first, else `second`
// where in_second, else `third`.
template <class O, std::size_t N>
COHERIQ_MATH_INLINE Vec<O> Pick(const O& o, Mask<O> in_first, Mask<O> in_second,
                                const double (&first)[N], const double (&second)[N],
                                const double (&third)[N], std::size_t i) {
  return o.IfThenElse(in_first, o.Set(first[i]),
                      o.IfThenElse(in_second, o.Set(second[i]), o.Set(third[i])));
}

// erfc(a + a_lo) = (y + y_lo)·2^k for a in [1/2, kClamp] and |a_lo| <= ulp(a)/2 (returns y;
// |y_lo| within an ulp of y).
//
// e^(-(a + a_lo)²) = 2^k·(e_hi + e_tail): a² = h + l exactly (l takes 2a·a_lo too), -h reduced
// as exp.h does (k, r, and r's rounding error r_lo), e^(r + r_lo - l) = e^r·(1 + r_lo - l) to
// 2^-86, e^r split as exp.h's ExpReducedSplit. F(a) = f + f_lo: p, all but the constant term,
// then c0 + u·p with the product's and the sum's rounding errors kept (Fast2Sum:
// |u·p| < |c0| on every interval), times t for mid and far. There the product is F at 1/t, not
// at a: F(a + a_lo) = F(1/t) + (a + a_lo - 1/t)·F' to first order, with F' = 2a·F - 2/√π and a
// - 1/t = -(1 - a·t)/t (1 - a·t exact from a fused multiply-add), a correction of up to 0.8 ulp.
// The product (e_hi + e_tail)(f + f_lo) is then rounded once.
template <class O>
COHERIQ_MATH_INLINE Vec<O> ErfcScaled(const O& o, Vec<O> a, Vec<O> a_lo, Vec<O>& y_lo, Vec<O>& k) {
  using C = ErfDoubleConstants;
  using E = ExpConstants<double>;
  const Vec<O> one = o.Set(1.0);
  const Vec<O> h = o.Mul(a, a);
  const Vec<O> l = o.MulAdd(o.Add(a, a), a_lo, o.MulSub(a, a, h));
  const Vec<O> shift = o.Set(Format<double>::kRoundShift);
  k = o.Sub(o.NegMulAdd(h, o.Set(E::kLog2e), shift), shift);
  const Vec<O> r_hi = o.NegMulAdd(k, o.Set(E::kLn2Hi), o.Neg(h));  // exact
  const Vec<O> r = o.NegMulAdd(k, o.Set(E::kLn2Lo), r_hi);
  const Vec<O> r_lo = o.Sub(o.NegMulAdd(k, o.Set(E::kLn2Lo), o.Sub(r_hi, r)), l);
  Vec<O> e_tail;
  const Vec<O> e_hi = ExpReducedSplit<ExpBase::kE>(o, r, e_tail);
  e_tail = o.MulAdd(r_lo, o.Add(e_hi, e_tail), e_tail);  // e_hi alone is 1 + r, not e^r

  const Mask<O> near = o.Lt(a, o.Set(C::kNearEnd));
  const Mask<O> mid = o.Lt(a, o.Set(C::kMidEnd));  // near or mid
  const Vec<O> t = o.Div(one, a);
  const Vec<O> u =
      o.IfThenElse(near, o.Sub(a, one), o.IfThenElse(mid, o.Sub(t, o.Set(C::kMidCenter)), t));
  // p = c17 + u·(L(u) + u^8·H(u)): two Horner chains side by side (half the latency of one
  // chain of 18), H's rounding errors scaled by |u|^9 <= 2^-9, the last steps as Horner's.
  constexpr std::size_t kSplit = std::size(C::kNear) / 2;
  static_assert(std::size(C::kNear) == 2 * kSplit && kSplit == 9, "u^8 below");
  const auto pick = [&](std::size_t i) {
    return Pick(o, near, mid, C::kNear, C::kMid, C::kFar, i);
  };
  Vec<O> p_high = pick(0);
  Vec<O> p_low = pick(kSplit);
  for (std::size_t i = 1; i < kSplit; ++i) {
    p_high = o.MulAdd(p_high, u, pick(i));
    if (i + 1 < kSplit) p_low = o.MulAdd(p_low, u, pick(kSplit + i));
  }
  const Vec<O> u2 = o.Mul(u, u);
  const Vec<O> u4 = o.Mul(u2, u2);
  const Vec<O> p = o.MulAdd(o.MulAdd(p_high, o.Mul(u4, u4), p_low), u, pick(2 * kSplit - 1));
  const Vec<O> c0 = Pick(o, near, mid, C::kNearC0, C::kMidC0, C::kFarC0, 0);
  const Vec<O> c0_lo = Pick(o, near, mid, C::kNearC0, C::kMidC0, C::kFarC0, 1);
  const Vec<O> up = o.Mul(u, p);
  const Vec<O> up_lo = o.MulSub(u, p, up);
  const Vec<O> s = o.Add(c0, up);
  const Vec<O> s_lo = o.Add(o.Add(o.Sub(c0, s), up), o.Add(up_lo, c0_lo));
  const Vec<O> m = o.IfThenElse(near, one, t);
  const Vec<O> f = o.Mul(m, s);
  Vec<O> f_lo = o.MulAdd(m, s_lo, o.MulSub(m, s, f));
  // delta = a + a_lo - (the point F was taken at); F' = -slope.
  const Vec<O> residual = o.IfThenZeroElse(near, o.NegMulAdd(a, t, one));
  const Vec<O> delta = o.NegMulAdd(residual, a, a_lo);
  const Vec<O> slope = o.NegMulAdd(o.Add(a, a), f, o.Set(C::kTwoOverSqrtPi));
  f_lo = o.NegMulAdd(delta, slope, f_lo);

  const Vec<O> cross = o.MulAdd(e_hi, f_lo, o.Mul(e_tail, f));
  const Vec<O> y = o.MulAdd(e_hi, f, cross);
  y_lo = o.Add(o.MulSub(e_hi, f, y), cross);
  return y;
}

// erf (kErfc false) or erfc of x + x_lo (x_lo: a correction of at most half an ulp of x, zero
// unless kHasLo) in double, as y·2^k: k is 0 but where erfc is formed as ErfcScaled's product (x
// >= 1/2), so that gelu can scale its own product (src/math/activation.h). a = |x|:
//   erf:  a < 3/4: a + a·R(a²), one rounding (the rounding of a² costs up to 0.25 ulp, 0.5 at
//         a = 1: hence 3/4 and not 1);
//         a >= 3/4: 1 - erfc a, erfc a = c + c_lo from ErfcScaled, 1 - c by Fast2Sum.
//   erfc: |x| < 1/2: 1 - x - x·R(x²), 1 - x as hi + lo by Fast2Sum (either sign of x);
//         x >= 1/2: ErfcScaled;
//         x <= -1/2: 2 - erfc a as erf's 1 - erfc a.
// Every path is computed and one selected per lane. a is clamped to [1/2, kClamp] for ErfcScaled:
// ±Inf gives erf ±1, erfc +0 and 2. NaN is the caller's (Min and Max here).
template <bool kErfc, bool kHasLo, class O>
COHERIQ_MATH_INLINE Vec<O> ErfOfDoubleUnscaled(const O& o, Vec<O> x, Vec<O> x_lo, Vec<O>& k) {
  using C = ErfDoubleConstants;
  const Vec<O> one = o.Set(1.0);
  const Vec<O> half = o.Set(0.5);
  const Vec<O> shift = o.Set(Format<double>::kRoundShift);
  const Vec<O> a = o.Abs(x);
  // The small path: R at a² (a < 1; larger a are left out, their result is not used).
  const Vec<O> a_small = o.Min(a, one);
  const Vec<O> r = Horner(o, o.Mul(a_small, a_small), C::kR);
  // The large path: erfc a_big = (y + y_lo)·2^k. A clamped lane's correction is meaningless
  // (and NaN for ±Inf).
  const Vec<O> a_big = o.Min(o.Max(a, half), o.Set(C::kClamp));
  Vec<O> a_lo = o.Zero();
  if constexpr (kHasLo) a_lo = o.IfThenElseZero(o.Eq(a, a_big), XorSign(o, x_lo, x));
  Vec<O> y_lo;
  const Vec<O> y = ErfcScaled(o, a_big, a_lo, y_lo, k);
  // base - erfc a for base 1 or 2 (> erfc a, 2^k applied in two halves: k reaches -1075 at the
  // clamp): base - c as hi + lo (Fast2Sum), rounded once.
  const auto minus_erfc = [&](Vec<O> base) {
    const Vec<O> k_half = o.Sub(o.MulAdd(k, half, shift), shift);
    const Vec<O> scale_a = Pow2(o, k_half);
    const Vec<O> scale_b = Pow2(o, o.Sub(k, k_half));
    const Vec<O> c = o.Mul(o.Mul(y, scale_a), scale_b);
    const Vec<O> c_lo = o.Mul(o.Mul(y_lo, scale_a), scale_b);
    const Vec<O> d = o.Sub(base, c);
    return o.Add(d, o.Sub(o.Sub(o.Sub(base, d), c), c_lo));
  };
  if constexpr (kErfc) {
    Vec<O> d_lo = o.Zero();
    if constexpr (kHasLo) d_lo = o.Neg(x_lo);
    const Vec<O> d = o.Sub(one, x);
    d_lo = o.Add(o.Sub(o.Sub(one, d), x), d_lo);
    const Vec<O> small = o.Add(d, o.NegMulAdd(x, r, d_lo));
    const Mask<O> is_small = o.Lt(a, half);
    const Mask<O> negative = o.IsNegative(x);
    const Vec<O> result =
        o.IfThenElse(is_small, small, o.IfThenElse(negative, minus_erfc(o.Set(2.0)), y));
    k = o.IfThenZeroElse(o.Or(is_small, negative), k);
    return result;
  } else {
    static_assert(!kHasLo, "erf: no correction");
    const Vec<O> small = o.MulAdd(a, r, a);
    const Vec<O> result =
        XorSign(o, o.IfThenElse(o.Lt(a, o.Set(C::kErfSmallEnd)), small, minus_erfc(one)), x);
    k = o.Zero();
    return result;
  }
}

// y·2^k where y·2^k is the result: 2^k in two halves, each normal (k >= -1075), gradual
// underflow rounded once.
template <class O>
COHERIQ_MATH_INLINE Vec<O> ScaleByPow2(const O& o, Vec<O> y, Vec<O> k) {
  const Vec<O> shift = o.Set(Format<double>::kRoundShift);
  const Vec<O> k_half = o.Sub(o.MulAdd(k, o.Set(0.5), shift), shift);
  return o.Mul(o.Mul(y, Pow2(o, k_half)), Pow2(o, o.Sub(k, k_half)));
}

template <bool kErfc, class O>
COHERIQ_MATH_INLINE Vec<O> ErfOfDouble(const O& o, Vec<O> x) {
  Vec<O> k;
  Vec<O> y = ErfOfDoubleUnscaled<kErfc, false>(o, x, o.Zero(), k);
  if constexpr (kErfc) y = ScaleByPow2(o, y, k);
  // A NaN lane went through Min and Max, whose NaN result differs between ISAs: put it back.
  return o.IfThenElse(o.IsNaN(x), o.Add(x, x), y);
}

template <bool kErfc>
struct ErfOf {
  static constexpr bool kOnePath = true;

  template <class O>
  static COHERIQ_MATH_INLINE Vec<O> General(const O& o, Vec<O> x) {
    if constexpr (kIsFloat<O>) {
      return o.Widened(x, [](const auto& wo, auto w) { return ErfOfFloat<kErfc>(wo, w); });
    } else {
      return ErfOfDouble<kErfc>(o, x);
    }
  }
};

using Erf = ErfOf<false>;
using Erfc = ErfOf<true>;

}  // namespace coheriq::kernels::math
