// atan and atan2, f32 and f64, written once over a math ops type (see trig-inl.h).
//
// For a = |y|, b = |x|: atan(a/b) = base + atan(t), t = num/den in [-tan(π/8), tan(π/8)] with
//   a <= tan(π/8)·b:   base 0,   t = a / b,
//   a <= tan(3π/8)·b:  base π/4, t = (a - b) / (a + b),
//   beyond:            base π/2, t = -b / a,
// one division per lane, then atan t = t + t·z·P(z), z = t². f64 keeps num and den as
// double-doubles (TwoSum) and the division's remainder (t_lo, one more division), adds the base
// as a double-double, and so stays within 1 ulp; f32 computes in f64 and rounds once. atan x is
// atan2(x, 1). Quadrants: x < 0 (its sign bit) takes π - base and negates atan t; the result
// gets y's sign. C99 Annex F: atan2(±0, +0) = ±0, atan2(±0, -0) = ±π, atan2(±Inf, ±Inf) =
// ±π/4 or ±3π/4, atan(±Inf) = ±π/2, NaN in gives NaN.
//
// Included inside a namespace, after trig-inl.h (Horner) and an ops header.
#ifndef COHERIQ_MATH_ATAN_INL_H_
#define COHERIQ_MATH_ATAN_INL_H_

struct Atan64 {
  static constexpr double kTanPiOver8 = 0x1.a827999fcef32p-2;
  static constexpr double kTan3PiOver8 = 0x1.3504f333f9de6p+1;
  // Bases as double-doubles.
  static constexpr double kPiOver4Hi = 0x1.921fb54442d18p-1, kPiOver4Lo = 0x1.1a62633145c07p-55;
  static constexpr double kPiOver2Hi = 0x1.921fb54442d18p+0, kPiOver2Lo = 0x1.1a62633145c07p-54;
  static constexpr double k3PiOver4Hi = 0x1.2d97c7f3321d2p+1, k3PiOver4Lo = 0x1.a79394c9e8a0ap-54;
  static constexpr double kPiHi = 0x1.921fb54442d18p+1, kPiLo = 0x1.1a62633145c07p-53;
  // (atan t - t) / t³ = P(t²), a Chebyshev fit on [0, tan²(π/8)]: error 2^-58 relative to atan t.
  static constexpr double kAtan[] = {
      -0.3333333333333333,  0.19999999999999804, -0.14285714285659828, 0.11111111105155447,
      -0.09090908753500877, 0.07692296375032143, -0.06666424885738254, 0.05878928997834749,
      -0.05230454270650051, 0.04551593220625667, -0.03457056198140507, 0.01628575685519589};
  // (atan t - t) / t³ for f32 (computed in f64): error 2^-33.5.
  static constexpr double kAtan32[] = {-0.333333332792548,   0.19999977258688387,
                                       -0.14284151193628603, 0.11071365021884604,
                                       -0.08624676145248077, 0.05048138512076087};
};

// a + b = s + e exactly.
template <class O, class V>
inline V TwoSum(const O& o, V a, V b, V& e) {
  const V s = o.Add(a, b);
  const V b_part = o.Sub(s, a);
  e = o.Add(o.Sub(a, o.Sub(s, b_part)), o.Sub(b, b_part));
  return s;
}

// atan2(a, ±b) in [0, π] for a, b >= 0 (NaN lanes give anything: callers put NaN back);
// x_negative: x's sign bit.
template <class O, class V, class M>
inline V Atan2Magnitudes64(const O& o, V a, V b, M x_negative) {
  const V zero = o.Set(0.0);
  // Keep a + b finite and the remainders above the denormals: scale both by a power of 2.
  const V larger = o.Select(o.Lt(a, b), b, a);
  V scale = o.Select(o.Gt(larger, o.Set(0x1p1020)), o.Set(0x1p-4), o.Set(1.0));
  scale = o.Select(o.Lt(larger, o.Set(0x1p-900)), o.Set(0x1p1000), scale);
  a = o.Mul(a, scale);
  b = o.Mul(b, scale);
  // Strictly below, or a = 0: both infinite go to the middle (π/4), both zero to the first.
  const M first = o.Or(o.Lt(a, o.Mul(b, o.Set(Atan64::kTanPiOver8))), o.Eq(a, zero));
  const M third = o.Gt(a, o.Mul(b, o.Set(Atan64::kTan3PiOver8)));
  const M middle = o.Not(o.Or(first, third));
  V diff_lo = zero, sum_lo = zero;
  const V diff = TwoSum(o, a, o.Neg(b), diff_lo);
  const V sum = TwoSum(o, a, b, sum_lo);
  const V num = o.Select(first, a, o.Select(third, o.Neg(b), diff));
  const V num_lo = o.Select(middle, diff_lo, zero);
  const V den = o.Select(first, b, o.Select(third, a, sum));
  const V den_lo = o.Select(middle, sum_lo, zero);
  V t = o.Div(num, den);
  // (num - t·den) / den, the division's remainder: exact numerator, rounded quotient.
  V t_lo = o.Div(o.Add(o.NegMulAdd(t, den, num), o.NegMulAdd(t, den_lo, num_lo)), den);
  // 0/0 (both zero) and Inf - Inf (both infinite) have t = 0; Inf·0 remainders are dropped.
  t = o.Select(o.IsNaN(t), zero, t);
  t_lo = o.Select(o.Le(o.Abs(t_lo), o.Set(1.0)), t_lo, zero);
  const V z = o.Mul(t, t);
  // atan(t + t_lo) = t + t·z·P(z) + t_lo·(1 - z) (1/(1 + t²) to first order).
  V corr = o.MulAdd(o.Mul(t, z), Horner(o, z, Atan64::kAtan), o.NegMulAdd(z, t_lo, t_lo));
  const V base_hi = o.Select(
      x_negative,
      o.Select(first, o.Set(Atan64::kPiHi),
               o.Select(third, o.Set(Atan64::kPiOver2Hi), o.Set(Atan64::k3PiOver4Hi))),
      o.Select(first, zero, o.Select(third, o.Set(Atan64::kPiOver2Hi), o.Set(Atan64::kPiOver4Hi))));
  const V base_lo = o.Select(
      x_negative,
      o.Select(first, o.Set(Atan64::kPiLo),
               o.Select(third, o.Set(Atan64::kPiOver2Lo), o.Set(Atan64::k3PiOver4Lo))),
      o.Select(first, zero, o.Select(third, o.Set(Atan64::kPiOver2Lo), o.Set(Atan64::kPiOver4Lo))));
  const V minus = o.Select(x_negative, o.Set(-0.0), zero);
  t = o.XorSign(t, minus);
  corr = o.XorSign(corr, minus);
  // Fast2Sum (|base| > |t| unless base = 0, where it is exact anyway), then the small terms.
  const V s = o.Add(base_hi, t);
  const V e = o.Add(o.Sub(base_hi, s), t);
  return o.Add(s, o.Add(e, o.Add(corr, base_lo)));
}

template <class O, class V>
inline V Atan2_64(const O& o, V y, V x) {
  const V r = Atan2Magnitudes64(o, o.Abs(y), o.Abs(x), o.SignBit(x));
  return o.Select(o.Or(o.IsNaN(x), o.IsNaN(y)), o.Add(x, y), o.XorSign(r, y));
}

template <class O, class V>
inline V Atan64Of(const O& o, V x) {
  const V r = Atan2Magnitudes64(o, o.Abs(x), o.Set(1.0), o.SignBit(o.Set(1.0)));
  return o.Select(o.IsNaN(x), x, o.XorSign(r, x));
}

// f32 in f64: a and b are floats, so a ± b, the quotient and z need no compensation.
template <class O, class V, class M>
inline V Atan2Magnitudes32(const O& o, V a, V b, M x_negative) {
  const V zero = o.Set(0.0);
  // Strictly below, or a = 0: both infinite go to the middle (π/4), both zero to the first.
  const M first = o.Or(o.Lt(a, o.Mul(b, o.Set(Atan64::kTanPiOver8))), o.Eq(a, zero));
  const M third = o.Gt(a, o.Mul(b, o.Set(Atan64::kTan3PiOver8)));
  const V num = o.Select(first, a, o.Select(third, o.Neg(b), o.Sub(a, b)));
  const V den = o.Select(first, b, o.Select(third, a, o.Add(a, b)));
  V t = o.Div(num, den);
  t = o.Select(o.IsNaN(t), zero, t);
  const V z = o.Mul(t, t);
  const V atan_t = o.MulAdd(o.Mul(t, z), Horner(o, z, Atan64::kAtan32), t);
  const V base = o.Select(
      x_negative,
      o.Select(first, o.Set(Atan64::kPiHi),
               o.Select(third, o.Set(Atan64::kPiOver2Hi), o.Set(Atan64::k3PiOver4Hi))),
      o.Select(first, zero, o.Select(third, o.Set(Atan64::kPiOver2Hi), o.Set(Atan64::kPiOver4Hi))));
  return o.Add(base, o.XorSign(atan_t, o.Select(x_negative, o.Set(-0.0), zero)));
}

// y, x: f32 values in f64; the result is to be rounded to f32.
template <class O, class V>
inline V Atan2_32(const O& o, V y, V x) {
  const V r = Atan2Magnitudes32(o, o.Abs(y), o.Abs(x), o.SignBit(x));
  return o.Select(o.Or(o.IsNaN(x), o.IsNaN(y)), o.Add(x, y), o.XorSign(r, y));
}

template <class O, class V>
inline V Atan32Of(const O& o, V x) {
  const V r = Atan2Magnitudes32(o, o.Abs(x), o.Set(1.0), o.SignBit(o.Set(1.0)));
  return o.Select(o.IsNaN(x), x, o.XorSign(r, x));
}

#endif  // COHERIQ_MATH_ATAN_INL_H_
