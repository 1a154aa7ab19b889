// sin, cos and tan, written once over a math ops type O (src/math/ops-scalar.h for the reference
// engine, engines/generic/math-ops-inl.h for the Highway kernels): the same operations in the
// same order on either side, so every engine gives the reference engine's bits.
//
// f64: x = k·π/2 + r, r in [-π/4, π/4] as a double-double rh + rl (Cody-Waite with π/2 in three
// doubles and exact products, for |x| <= 2^30; reduce-huge-inl.h's Payne-Hanek beyond), then
// sin r and cos r by polynomials in r² whose leading terms carry rl and the rounding of r² and of
// 1 - r²/2 (the largest errors otherwise), and the quadrant picks one and its sign.
// f32: computed in f64 and rounded once (f64's 53 bits leave no error to compensate):
// x = (j + c)·π + r, r in [-π/2, π/2], c = 0 for sin and 1/2 for cos, and one odd polynomial,
// sin x = ±sin r; for |x| <= 2^30, then through the same Payne-Hanek reduction.
// tan: sin r / cos r from the f64 polynomials, kept unrounded, and a compensated quotient; f32
// the plain quotient of the two polynomials in f64.
//
// Included inside a namespace; <cmath>, <cstdint>, <cstring>, reduce-huge-inl.h and an ops
// header first.
#ifndef COHERIQ_MATH_TRIG_INL_H_
#define COHERIQ_MATH_TRIG_INL_H_

// Adding 1.5·2^52 to |v| < 2^51 rounds v to the integer k held in the low mantissa bits (the
// ops' IntBit reads them).
inline constexpr double kRoundShift64 = 0x1.8p52;

// ------------------------------ f64

struct Trig64 {
  static constexpr double kTwoOverPi = 0x1.45f306dc9c883p-1;
  // π/2 = kP1 + kP2 + kP3 + O(2^-163). k·kP1 is exact inside an FMA and so is |x| - k·kP1 (a
  // multiple of 2^-52 below 2); k·kP2 is made exact by its FMA error term.
  static constexpr double kP1 = 0x1.921fb54442d18p+0;
  static constexpr double kP2 = 0x1.1a62633145c07p-54;
  static constexpr double kP3 = -0x1.f1976b7ed8fbcp-110;
  // Beyond 2^30 the tail's rounding (about k·2^-160) nears 2^-60 of the smallest r.
  static constexpr double kMaxFast = 0x1p30;
  // (sin r - r) / r³ = S(r²), a Chebyshev fit on [0, (π/4)²]: error 2^-57 relative to sin r.
  static constexpr double kSin[] = {-0.16666666666666666,    0.008333333333333331,
                                    -0.00019841269841265065, 2.7557319219339167e-06,
                                    -2.5052106232447578e-08, 1.6058531618986147e-10,
                                    -7.586697117706918e-13};
  // (cos r - 1 + r²/2) / r⁴ = C(r²): error 2^-59 relative to cos r.
  static constexpr double kCos[] = {0.041666666666666664,  -0.0013888888888887398,
                                    2.480158729876569e-05, -2.7557317271729793e-07,
                                    2.08761462684032e-09,  -1.1382632425521717e-11};
};

template <class O, class V, std::size_t kN>
inline V Horner(const O& o, V x, const double (&c)[kN]) {
  V p = o.Set(c[kN - 1]);
  for (std::size_t i = kN - 1; i-- > 0;) p = o.MulAdd(p, x, o.Set(c[i]));
  return p;
}

// a = |x| <= Trig64::kMaxFast: r = a - k·π/2 = rh + rl; returns 1.5·2^52 + k.
template <class O, class V>
inline V ReducePiOver2(const O& o, V a, V& rh, V& rl) {
  const V shift = o.Set(kRoundShift64);
  const V k_shifted = o.MulAdd(a, o.Set(Trig64::kTwoOverPi), shift);
  const V k = o.Sub(k_shifted, shift);
  const V r1 = o.NegMulAdd(k, o.Set(Trig64::kP1), a);  // exact
  const V p = o.Mul(k, o.Set(Trig64::kP2));
  const V p_err = o.MulAdd(k, o.Set(Trig64::kP2), o.Neg(p));  // k·kP2 = p + p_err exactly
  // TwoSum: s + err = r1 - p exactly.
  const V s = o.Sub(r1, p);
  const V s_p = o.Sub(s, r1);
  const V err = o.Add(o.Sub(r1, o.Sub(s, s_p)), o.Sub(o.Neg(p), s_p));
  rh = s;
  rl = o.Sub(err, o.MulAdd(k, o.Set(Trig64::kP3), p_err));
  return k_shifted;
}

// sin or cos of x = k·π/2 + rh + rl: q_shifted holds q = k for sin, k + 1 for cos (odd q: the
// cosine polynomial; q & 2: negate).
template <class O, class V>
inline V SinCosQuadrant64(const O& o, V rh, V rl, V q_shifted) {
  const V one = o.Set(1.0);
  const V z = o.Mul(rh, rh);
  const V hz = o.Mul(z, o.Set(0.5));
  // sin(rh + rl) = rh + (rh·z·S(z) + rl·(1 - z/2)).
  const V sin_r =
      o.Add(rh, o.MulAdd(o.Mul(z, rh), Horner(o, z, Trig64::kSin), o.NegMulAdd(hz, rl, rl)));
  // cos(rh + rl) = w + ((1 - w) - hz - z_lo/2 - rh·rl + z²·C(z)), w = 1 - hz rounded, z_lo the
  // rounding error of z: everything beyond w is below 0.3 and carries only relative errors.
  const V z_lo = o.MulAdd(rh, rh, o.Neg(z));
  const V w = o.Sub(one, hz);
  V corr = o.Sub(o.Sub(one, w), hz);
  corr = o.NegMulAdd(o.Set(0.5), z_lo, corr);
  corr = o.NegMulAdd(rh, rl, corr);
  corr = o.MulAdd(o.Mul(z, z), Horner(o, z, Trig64::kCos), corr);
  const V cos_r = o.Add(w, corr);
  const V y = o.Select(o.template IntBit<0>(q_shifted), cos_r, sin_r);
  return o.XorSign(y, o.template IntBitAsSign<1>(q_shifted));
}

// tan of x = k·π/2 + rh + rl, k in k_shifted: sin r / cos r, or -cos r / sin r for odd k, each
// kept as the unrounded pair of SinCosQuadrant64's last addition, and the quotient with its
// remainder (one more division), so that it too stays within 1 ulp.
template <class O, class V>
inline V TanQuadrant64(const O& o, V rh, V rl, V k_shifted) {
  const V one = o.Set(1.0);
  const V z = o.Mul(rh, rh);
  const V hz = o.Mul(z, o.Set(0.5));
  const V sin_lo = o.MulAdd(o.Mul(z, rh), Horner(o, z, Trig64::kSin), o.NegMulAdd(hz, rl, rl));
  const V z_lo = o.MulAdd(rh, rh, o.Neg(z));
  const V w = o.Sub(one, hz);
  V cos_lo = o.Sub(o.Sub(one, w), hz);
  cos_lo = o.NegMulAdd(o.Set(0.5), z_lo, cos_lo);
  cos_lo = o.NegMulAdd(rh, rl, cos_lo);
  cos_lo = o.MulAdd(o.Mul(z, z), Horner(o, z, Trig64::kCos), cos_lo);
  // Normalized double-doubles (Fast2Sum: the leading terms are the larger), so that dividing
  // the remainder by the leading part alone is accurate.
  const V sin_r = o.Add(rh, sin_lo), cos_r = o.Add(w, cos_lo);
  const V sin_r_lo = o.Add(o.Sub(rh, sin_r), sin_lo), cos_r_lo = o.Add(o.Sub(w, cos_r), cos_lo);
  const auto odd = o.template IntBit<0>(k_shifted);
  const V num = o.Select(odd, o.Neg(cos_r), sin_r);
  const V num_lo = o.Select(odd, o.Neg(cos_r_lo), sin_r_lo);
  const V den = o.Select(odd, sin_r, cos_r), den_lo = o.Select(odd, sin_r_lo, cos_r_lo);
  const V q = o.Div(num, den);
  const V rem = o.Add(o.NegMulAdd(q, den, num), o.NegMulAdd(q, den_lo, num_lo));
  return o.Add(q, o.Div(rem, den));
}

template <class O, class V>
inline V Tan64Fast(const O& o, V x) {
  V rh = x, rl = x;
  const V k_shifted = ReducePiOver2(o, o.Abs(x), rh, rl);
  return o.XorSign(TanQuadrant64(o, rh, rl, k_shifted), x);  // tan is odd
}

inline double Tan64Scalar(double x) {
  const ScalarOps<double> o;
  const double a = std::fabs(x);
  if (a <= Trig64::kMaxFast) return Tan64Fast(o, x);
  if (!(a <= 0x1.fffffffffffffp1023)) return x - x;
  const HugeReduction h = ReduceHuge(a);
  return o.XorSign(TanQuadrant64(o, h.hi, h.lo, kRoundShift64 + h.k), x);
}

// The Cody-Waite part: exact for |x| <= kMaxFast, any value elsewhere (those lanes are redone
// by SinCos64Scalar).
template <bool kCos, class O, class V>
inline V SinCos64Fast(const O& o, V x) {
  V rh = x, rl = x;
  V q_shifted = ReducePiOver2(o, o.Abs(x), rh, rl);
  if (kCos) q_shifted = o.Add(q_shifted, o.Set(1.0));
  const V y = SinCosQuadrant64(o, rh, rl, q_shifted);
  return kCos ? y : o.XorSign(y, x);  // sin is odd
}

// Any x: NaN and ±Inf give NaN.
template <bool kCos>
inline double SinCos64Scalar(double x) {
  const ScalarOps<double> o;
  const double a = std::fabs(x);
  if (a <= Trig64::kMaxFast) return SinCos64Fast<kCos>(o, x);
  if (!(a <= 0x1.fffffffffffffp1023)) return x - x;
  const HugeReduction h = ReduceHuge(a);
  double q_shifted = kRoundShift64 + (h.k + (kCos ? 1 : 0));
  const double y = SinCosQuadrant64(o, h.hi, h.lo, q_shifted);
  return kCos ? y : o.XorSign(y, x);
}

// ------------------------------ f32, computed in f64

struct Trig32 {
  static constexpr double kOneOverPi = 0x1.45f306dc9c883p-2;
  // π = kPi1 + kPi2 + O(2^-107): k·kPi1 and |x| - k·kPi1 exact as for f64.
  static constexpr double kPi1 = 0x1.921fb54442d18p+1;
  static constexpr double kPi2 = 0x1.1a62633145c07p-53;
  static constexpr double kPiOver2Hi = 0x1.921fb54442d18p+0;
  static constexpr double kPiOver2Lo = 0x1.1a62633145c07p-54;
  static constexpr double kMaxFast = 0x1p30;
  // (sin r - r) / r³ = S(r²), a Chebyshev fit on [0, (π/2)²]: error 2^-33.8 relative to sin r.
  static constexpr double kSin[] = {-0.16666666663881236, 0.008333332768753579,
                                    -0.000198410865614788, 2.75364635625748e-06,
                                    -2.4080190432969638e-08};
};

// sin of r in [-π/2, π/2], negated where bit 0 of j_shifted is set.
template <class O, class V>
inline V SinHalfTurn32(const O& o, V r, V j_shifted) {
  const V s = o.Mul(r, r);
  const V y = o.MulAdd(o.Mul(r, s), Horner(o, s, Trig32::kSin), r);
  return o.XorSign(y, o.template IntBitAsSign<0>(j_shifted));
}

// x: an f32 value in f64. sin x = (-1)^j sin(x - j·π); cos x = (-1)^(j+1) sin(x - (j + ½)·π).
template <bool kCos, class O, class V>
inline V SinCos32Fast(const O& o, V x) {
  const V a = o.Abs(x);
  const V shift = o.Set(kRoundShift64);
  // cos: j = round(a/π - ½); the product's rounding only moves a tie, never r out of range.
  const V j_shifted = kCos ? o.Add(o.MulAdd(a, o.Set(Trig32::kOneOverPi), o.Set(-0.5)), shift)
                           : o.MulAdd(a, o.Set(Trig32::kOneOverPi), shift);
  V multiple = o.Sub(j_shifted, shift);
  if (kCos) multiple = o.Add(multiple, o.Set(0.5));
  V r = o.NegMulAdd(multiple, o.Set(Trig32::kPi1), a);
  r = o.NegMulAdd(multiple, o.Set(Trig32::kPi2), r);
  const V y = SinHalfTurn32(o, r, kCos ? o.Add(j_shifted, o.Set(1.0)) : j_shifted);
  return kCos ? y : o.XorSign(y, x);
}

// tan for f32 values in f64, |x| <= Trig32::kMaxFast: r = |x| - k·π/2 in f64, sin r and cos r by
// the f32 sine polynomial (valid on [-π/2, π/2]) and the f64 cosine one, one division.
template <class O, class V>
inline V Tan32Fast(const O& o, V x) {
  const V a = o.Abs(x);
  const V shift = o.Set(kRoundShift64);
  const V k_shifted = o.MulAdd(a, o.Set(Trig64::kTwoOverPi), shift);
  const V k = o.Sub(k_shifted, shift);
  V r = o.NegMulAdd(k, o.Set(Trig64::kP1), a);
  r = o.NegMulAdd(k, o.Set(Trig64::kP2), r);
  const V z = o.Mul(r, r);
  const V sin_r = o.MulAdd(o.Mul(r, z), Horner(o, z, Trig32::kSin), r);
  const V cos_r = o.MulAdd(z, o.MulAdd(z, Horner(o, z, Trig64::kCos), o.Set(-0.5)), o.Set(1.0));
  const auto odd = o.template IntBit<0>(k_shifted);
  const V q = o.Div(o.Select(odd, o.Neg(cos_r), sin_r), o.Select(odd, sin_r, cos_r));
  return o.XorSign(q, x);
}

inline float Tan32Scalar(float x) {
  if (std::fabs(x) <= static_cast<float>(Trig32::kMaxFast)) {
    return static_cast<float>(Tan32Fast(ScalarOps<double>{}, double{x}));
  }
  return static_cast<float>(Tan64Scalar(x));  // Payne-Hanek, Inf and NaN
}

template <bool kCos>
inline float SinCos32Scalar(float xf) {
  const ScalarOps<double> o;
  const double x = xf;
  const double a = std::fabs(x);
  if (a <= Trig32::kMaxFast) return static_cast<float>(SinCos32Fast<kCos>(o, x));
  if (!(a <= 0x1.fffffep127)) return xf - xf;
  // x = k·π/2 + r, |r| <= π/4, to x = (j + c)·π + r' with |r'| <= π/2.
  const HugeReduction h = ReduceHuge(a);
  const double r = h.hi + h.lo;
  const int k = h.k + 4;  // k mod 4, kept positive through the ±1 below
  const bool odd_multiple = (k & 1) != (kCos ? 1 : 0);  // k is not of the form (j + c)·2
  double r_turn = r;
  int half_turns = kCos ? (k - 1) / 2 : k / 2;
  if (odd_multiple) {
    // Move to the neighbouring multiple on r's side: r' = r ∓ π/2.
    const bool up = r >= 0;
    r_turn = up ? (h.hi - Trig32::kPiOver2Hi) + (h.lo - Trig32::kPiOver2Lo)
                : (h.hi + Trig32::kPiOver2Hi) + (h.lo + Trig32::kPiOver2Lo);
    half_turns = kCos ? (up ? k / 2 : k / 2 - 1) : (up ? (k + 1) / 2 : (k - 1) / 2);
  }
  const double j_shifted = kRoundShift64 + (half_turns + (kCos ? 1 : 0));
  const double y = SinHalfTurn32(o, r_turn, j_shifted);
  return static_cast<float>(kCos ? y : o.XorSign(y, x));
}

#endif  // COHERIQ_MATH_TRIG_INL_H_
