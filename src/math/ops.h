// The vector math algorithms' view of the machine: an ops policy, and helpers written on it.
//
// Every math function (src/math/<family>.h) is written once, as templates over an ops policy
// `O`, and run by every engine: the reference instantiates it with ScalarOps (scalar.h: float or
// double, std::fma), the generic engines with HwyOps (engines/generic/math-inl.h: Highway
// vectors of the engine's ISA). Both policies implement each operation as the one IEEE 754
// operation it names (fused multiply-adds included), so an algorithm performs the same
// roundings on every engine and every engine returns bitwise the reference's result
// (docs/decisions.md, "Vector math: one algorithm for every engine").
//
// The policy (`o`, passed by value; `V` a vector of T, `M` its mask, `VI` the signed integers of
// T's width, lane for lane):
//   types   T (float or double), V, M, VI
//   values  Set(T), Zero()
//   IEEE    Add Sub Mul Div (V, V); Sqrt(V); MulAdd(a, b, c) = a·b + c, NegMulAdd = c - a·b,
//           MulSub = a·b - c, each rounded once
//   exact   Neg Abs (V); CopySign(magnitude, sign); Min Max (V, V) for operands that are
//           neither NaN nor zeros of opposite signs (what those give differs between ISAs:
//           algorithms discard such lanes' results or keep them away)
//   compare Lt Le Gt Ge Eq Ne (V, V) -> M; IsNaN(V) -> M (false for every other value);
//           IsNegative(V) -> M (the sign bit: -0 and NaNs with the sign bit set included)
//   masks   And Or AndNot(a, b) = !a && b (M, M); Not(M); AllTrue(M), AllFalse(M) -> bool
//   select  IfThenElse(M, V yes, V no); IfThenElseZero(M, V); IfThenZeroElse(M, V)
//   bits    BitAnd BitOr BitXor (V, V); BitsOf(V) -> VI; FromBits(VI) -> V; SetI(int64),
//           AddI SubI AndI (VI, VI); ShiftLeftI<k>, ShiftRightI<k> (arithmetic) of VI
//           (free helpers ShiftLeft<k>(o, v), ShiftRight<k>(o, v) below spare the `template`)
//   lanes   Lanewise(M where, V x, V other, f): f(so, x) on the lanes of `where`, one lane at a
//           time, `other` elsewhere; so is a scalar policy (scalar.h) and f an algorithm written
//           on it, for inputs a vector path leaves out (huge arguments of sin); f runs only
//           where needed
//   wider   Widened(V x, f), Widened(V x, V y, f), float policies only: f(wo, w) (or
//           f(wo, w, v)) on the lanes promoted to double, wo being the double policy, each
//           result rounded to float once
// Nothing else: no approximate reciprocal, no rounding-mode-dependent conversion, no operation
// whose result differs between ISAs.
//
// An algorithm for y = f(x) is a struct with three static templates over the policy:
//   M InRange(O, V x)   lanes on which Fast is valid (the common case)
//   V Fast(O, V x)      f(x) where InRange
//   V General(O, V x)   f(x) for every x, bitwise equal to Fast where InRange
// Drivers run Fast on blocks whose lanes are all InRange and General on the others, so which
// path a lane takes never changes its result. Functions with one path say kOnePath = true.
// A function of two arrays, z = f(a, b), has the same three with two operands.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#if defined(__GNUC__)
#define COHERIQ_MATH_INLINE inline __attribute__((always_inline))
#else
#define COHERIQ_MATH_INLINE inline
#endif

namespace coheriq::kernels::math {

template <class O>
using Vec = typename O::V;
template <class O>
using Mask = typename O::M;
template <class O>
using Ints = typename O::VI;

// Whether an algorithm has one path only (General; no InRange, no Fast).
template <class Algo>
inline constexpr bool kOnePath = requires {
  requires Algo::kOnePath;
};

template <class O>
inline constexpr bool kIsFloat = std::is_same_v<typename O::T, float>;

template <int kBits, class O>
COHERIQ_MATH_INLINE Ints<O> ShiftLeft(const O& o, Ints<O> v) {
  return o.template ShiftLeftI<kBits>(v);
}
template <int kBits, class O>
COHERIQ_MATH_INLINE Ints<O> ShiftRight(const O& o, Ints<O> v) {
  return o.template ShiftRightI<kBits>(v);
}

// Horner's scheme: c[0]·x^(N-1) + c[1]·x^(N-2) + ... + c[N-1], highest degree first (the order
// scripts/minimax.py prints).
template <class O, std::size_t N>
COHERIQ_MATH_INLINE Vec<O> Horner(const O& o, Vec<O> x, const typename O::T (&c)[N]) {
  Vec<O> p = o.Set(c[0]);
  for (std::size_t i = 1; i < N; ++i) p = o.MulAdd(p, x, o.Set(c[i]));
  return p;
}

// The same polynomial by Estrin's scheme: pairs c[i]·x + c[i+1] combined by x², x⁴, x⁸, so that
// the chain of dependent operations is about log₂ N long instead of N, for a few more
// operations; the sums round differently from Horner's. N <= 16.
template <std::size_t kLow, std::size_t kCount, class O, std::size_t N>
COHERIQ_MATH_INLINE Vec<O> EstrinPart(const O& o, Vec<O> x, Vec<O> x2, Vec<O> x4, Vec<O> x8,
                                      const typename O::T (&c)[N]) {
  // The terms of degree kLow to kLow + kCount - 1, divided by x^kLow.
  if constexpr (kCount == 1) {
    return o.Set(c[N - 1 - kLow]);
  } else if constexpr (kCount == 2) {
    return o.MulAdd(o.Set(c[N - 2 - kLow]), x, o.Set(c[N - 1 - kLow]));
  } else {
    constexpr std::size_t kHalf = kCount > 8 ? 8 : (kCount > 4 ? 4 : 2);
    const Vec<O> power = kHalf == 8 ? x8 : (kHalf == 4 ? x4 : x2);
    return o.MulAdd(EstrinPart<kLow + kHalf, kCount - kHalf>(o, x, x2, x4, x8, c), power,
                    EstrinPart<kLow, kHalf>(o, x, x2, x4, x8, c));
  }
}
template <class O, std::size_t N>
COHERIQ_MATH_INLINE Vec<O> Estrin(const O& o, Vec<O> x, const typename O::T (&c)[N]) {
  static_assert(N >= 1 && N <= 16, "Estrin: 1 to 16 coefficients");
  const Vec<O> x2 = o.Mul(x, x);
  const Vec<O> x4 = N > 4 ? o.Mul(x2, x2) : x2;
  const Vec<O> x8 = N > 8 ? o.Mul(x4, x4) : x4;
  return EstrinPart<0, N>(o, x, x2, x4, x8, c);
}

// A polynomial of many terms: Horner's scheme up to 8 coefficients, Estrin's beyond, where a
// chain of N dependent multiply-adds would be the loop's critical path (atan2 f64: 12
// coefficients, 1.15x faster by Estrin's on the Zen 3 guest; a float's 6 ran 0-5% slower).
template <class O, std::size_t N>
COHERIQ_MATH_INLINE Vec<O> LongPolynomial(const O& o, Vec<O> x, const typename O::T (&c)[N]) {
  if constexpr (N > 8) {
    return Estrin(o, x, c);
  } else {
    return Horner(o, x, c);
  }
}

// a with its sign flipped where `sign` is negative (its sign bit set).
template <class O>
COHERIQ_MATH_INLINE Vec<O> XorSign(const O& o, Vec<O> a, Vec<O> sign) {
  return o.BitXor(a, o.BitAnd(sign, o.Set(typename O::T(-0.0))));
}

// a + b = s + err exactly (TwoSum: any a and b).
template <class O>
COHERIQ_MATH_INLINE Vec<O> TwoSum(const O& o, Vec<O> a, Vec<O> b, Vec<O>& err) {
  const Vec<O> s = o.Add(a, b);
  const Vec<O> b_part = o.Sub(s, a);
  err = o.Add(o.Sub(a, o.Sub(s, b_part)), o.Sub(b, b_part));
  return s;
}

// The facts of T the algorithms need.
template <class T>
struct Format;
template <>
struct Format<float> {
  using Bits = std::int32_t;
  static constexpr int kMantissaBits = 23;  // stored, without the implicit 1
  static constexpr int kBias = 127;
  static constexpr int kMinExponent = -126;  // of the smallest normal
  static constexpr int kMaxExponent = 127;
  // Adding it to |v| < 2^22 rounds v to an integer (ties to even), held in the low mantissa bits.
  static constexpr float kRoundShift = 0x1.8p23f;
};
template <>
struct Format<double> {
  using Bits = std::int64_t;
  static constexpr int kMantissaBits = 52;
  static constexpr int kBias = 1023;
  static constexpr int kMinExponent = -1022;
  static constexpr int kMaxExponent = 1023;
  static constexpr double kRoundShift = 0x1.8p52;
};

// Bit `kBit` of the integer k held in `k_shifted` = k + kRoundShift (RoundShifted), moved to the
// sign bit of an otherwise zero value: XorSign with it negates where the bit is set, IsNegative
// of it tests the bit. (Negative k: two's complement in the low bits, so the parity holds.)
template <int kBit, class O>
COHERIQ_MATH_INLINE Vec<O> IntBitAsSign(const O& o, Vec<O> k_shifted) {
  constexpr int kSignBit = 8 * sizeof(typename O::T) - 1;
  const Vec<O> moved = o.FromBits(ShiftLeft<kSignBit - kBit>(o, o.BitsOf(k_shifted)));
  if constexpr (kBit == 0) {
    return moved;  // the bits below bit 0 are none: nothing else remains
  } else {
    return o.BitAnd(moved, o.Set(typename O::T(-0.0)));
  }
}

// k rounded to the nearest integer (ties to even), for |k| < 2^22 (f32) or 2^51 (f64), with
// `shifted` = k + kRoundShift: the integer sits in the low mantissa bits of `shifted`.
template <class O>
COHERIQ_MATH_INLINE Vec<O> RoundShifted(const O& o, Vec<O> k_shifted) {
  return o.Sub(k_shifted, o.Set(Format<typename O::T>::kRoundShift));
}

// 2^k for an integer k in [kMinExponent, kMaxExponent], from k + kRoundShift + kBias (its bits
// below the exponent field hold k + bias: shifted into the exponent field, the rest leave the
// register).
template <class O>
COHERIQ_MATH_INLINE Vec<O> Pow2FromBiasedShift(const O& o, Vec<O> k_biased_shifted) {
  return o.FromBits(ShiftLeft<Format<typename O::T>::kMantissaBits>(o, o.BitsOf(k_biased_shifted)));
}

// 2^k for an integer-valued k (a V) in [kMinExponent, kMaxExponent].
template <class O>
COHERIQ_MATH_INLINE Vec<O> Pow2(const O& o, Vec<O> k) {
  using F = Format<typename O::T>;
  return Pow2FromBiasedShift(o, o.Add(k, o.Set(F::kRoundShift + F::kBias)));
}

}  // namespace coheriq::kernels::math
