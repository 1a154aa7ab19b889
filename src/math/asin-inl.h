// asin and acos, f32 and f64, written once over a math ops type (see trig-inl.h).
//
// |x| <= ½: asin x = x + x·z·P(z), z = x². |x| > ½: with z = (1 - |x|)/2 (exact) and
// s = √z, asin |x| = π/2 - 2·asin s and acos |x| = 2·asin s (π - 2·asin s for x < 0), asin s
// by the same polynomial. f64 keeps √z's rounding (s_lo, from the exact remainder z - s²) and
// the constants as double-doubles, and subtracts 2s from π/2 or π exactly (Fast2Sum), so the
// cancellation near |x| = ½ costs nothing; f32 computes in f64 and rounds once. |x| > 1 and
// ±Inf give NaN (√ of a negative z); asin(±0) = ±0, acos(1) = +0.
//
// Included inside a namespace, after trig-inl.h (Horner) and an ops header.
#ifndef COHERIQ_MATH_ASIN_INL_H_
#define COHERIQ_MATH_ASIN_INL_H_

struct Asin64 {
  static constexpr double kPiOver2Hi = 0x1.921fb54442d18p+0, kPiOver2Lo = 0x1.1a62633145c07p-54;
  static constexpr double kPiHi = 0x1.921fb54442d18p+1, kPiLo = 0x1.1a62633145c07p-53;
  // (asin t - t) / t³ = P(t²), a Chebyshev fit on [0, ¼]: error 2^-58.5 relative to asin t.
  static constexpr double kAsin[] = {
      0.16666666666666666,  0.07500000000000118,  0.044642857142551895,  0.03038194447553234,
      0.02237215744350722,  0.017352816540325496, 0.01396378001220357,   0.011566459612121669,
      0.009621842970100282, 0.009319560794767446, 0.0030448799094556773, 0.019554513336123378,
      -0.01924167174674304, 0.02961201126495512};
  // The same for f32 computed in f64: error 2^-33.9.
  static constexpr double kAsin32[] = {
      0.16666666686085643,  0.07499992404401838,  0.04464766388813485, 0.030269138728589183,
      0.023611817008891752, 0.010574415516912909, 0.030974540371355073};
};

// asin (kAcos false) or acos of x, f64.
template <bool kAcos, class O, class V>
inline V AsinAcos64(const O& o, V x) {
  const V zero = o.Set(0.0);
  const V a = o.Abs(x);
  const auto small = o.Le(a, o.Set(0.5));
  const V z_big = o.Mul(o.Sub(o.Set(1.0), a), o.Set(0.5));
  const V s = o.Sqrt(z_big);
  // √z = s + s_lo: (z - s²) / 2s, the remainder exact through the FMA.
  V s_lo = o.Div(o.NegMulAdd(s, s, z_big), o.Add(s, s));
  s_lo = o.Select(o.Eq(s, zero), zero, s_lo);
  const V t = o.Select(small, a, s);
  const V z = o.Select(small, o.Mul(a, a), z_big);
  // asin(t + t_lo) = t + (t_lo + t·z·P(z)); corr is that bracket.
  const V corr = o.MulAdd(o.Mul(t, z), Horner(o, z, Asin64::kAsin), o.Select(small, zero, s_lo));
  const V two_t = o.Add(t, t), two_corr = o.Add(corr, corr);
  if constexpr (!kAcos) {
    // π/2 - 2t exactly as hi + e (π/2 > 2t), then the small terms.
    const V pio2 = o.Set(Asin64::kPiOver2Hi);
    const V hi = o.Sub(pio2, two_t);
    const V e = o.Sub(o.Sub(pio2, hi), two_t);
    const V big = o.Add(hi, o.Add(e, o.Sub(o.Set(Asin64::kPiOver2Lo), two_corr)));
    return o.XorSign(o.Select(small, o.Add(t, corr), big), x);
  } else {
    // |x| <= ½: π/2 - asin x; x > ½: 2·asin s; x < -½: π - 2·asin s.
    const V small_r = o.Add(o.Set(Asin64::kPiOver2Hi),
                            o.Sub(o.Sub(o.Set(Asin64::kPiOver2Lo), o.XorSign(corr, x)), x));
    const V pi = o.Set(Asin64::kPiHi);
    const V hi = o.Sub(pi, two_t);
    const V e = o.Sub(o.Sub(pi, hi), two_t);
    const V negative = o.Add(hi, o.Add(e, o.Sub(o.Set(Asin64::kPiLo), two_corr)));
    const V big = o.Select(o.SignBit(x), negative, o.Add(two_t, two_corr));
    return o.Select(small, small_r, big);
  }
}

// f32 values in f64, the result to be rounded to f32.
template <bool kAcos, class O, class V>
inline V AsinAcos32(const O& o, V x) {
  const V a = o.Abs(x);
  const auto small = o.Le(a, o.Set(0.5));
  const V z_big = o.Mul(o.Sub(o.Set(1.0), a), o.Set(0.5));
  const V t = o.Select(small, a, o.Sqrt(z_big));
  const V z = o.Select(small, o.Mul(a, a), z_big);
  const V asin_t = o.MulAdd(o.Mul(t, z), Horner(o, z, Asin64::kAsin32), t);
  const V two = o.Add(asin_t, asin_t);
  if constexpr (!kAcos) {
    return o.XorSign(o.Select(small, asin_t, o.Sub(o.Set(Asin64::kPiOver2Hi), two)), x);
  } else {
    const V small_r = o.Sub(o.Set(Asin64::kPiOver2Hi), o.XorSign(asin_t, x));
    const V big = o.Select(o.SignBit(x), o.Sub(o.Set(Asin64::kPiHi), two), two);
    return o.Select(small, small_r, big);
  }
}

#endif  // COHERIQ_MATH_ASIN_INL_H_
