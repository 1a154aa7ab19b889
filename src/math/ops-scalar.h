// The scalar side of the math ops: the operations the shared algorithms of src/math/*-inl.h are
// written in, on one value of type T (float or double), so that the reference engine runs the
// very operation sequence the Highway kernels run (engines/generic/math-ops-inl.h is the vector
// side). Every operation is one IEEE operation (MulAdd is std::fma), so both sides give bitwise
// the same results.
//
// Included inside a namespace, like the -inl.h files (internal linkage in every engine TU): the
// standard headers it needs are included first, outside.
#ifndef COHERIQ_MATH_OPS_SCALAR_H_
#define COHERIQ_MATH_OPS_SCALAR_H_

template <class T>
struct ScalarOps {
  using V = T;
  using M = bool;
  using Bits = std::conditional_t<sizeof(T) == 8, std::uint64_t, std::uint32_t>;
  static constexpr int kMantissaBits = sizeof(T) == 8 ? 52 : 23;

  static V Set(T c) { return c; }
  static V Add(V a, V b) { return a + b; }
  static V Sub(V a, V b) { return a - b; }
  static V Mul(V a, V b) { return a * b; }
  static V Div(V a, V b) { return a / b; }
  static V Sqrt(V a) { return std::sqrt(a); }
  static V Neg(V a) { return -a; }
  static V Abs(V a) { return std::fabs(a); }
  // a·b + c and c - a·b, each rounded once.
  static V MulAdd(V a, V b, V c) { return std::fma(a, b, c); }
  static V NegMulAdd(V a, V b, V c) { return std::fma(-a, b, c); }

  static M Lt(V a, V b) { return a < b; }
  static M Le(V a, V b) { return a <= b; }
  static M Gt(V a, V b) { return a > b; }
  static M Eq(V a, V b) { return a == b; }
  static M IsNaN(V a) { return a != a; }
  static M SignBit(V a) { return std::signbit(a); }  // -0 and NaNs with the sign bit too
  static M And(M a, M b) { return a && b; }
  static M Or(M a, M b) { return a || b; }
  static M Not(M a) { return !a; }
  static bool AllTrue(M a) { return a; }
  static V Select(M m, V yes, V no) { return m ? yes : no; }

  static Bits ToBits(V a) {
    Bits b;
    std::memcpy(&b, &a, sizeof b);
    return b;
  }
  static V FromBits(Bits b) {
    V a;
    std::memcpy(&a, &b, sizeof a);
    return a;
  }
  // a with its sign bit flipped where `sign` has its sign bit set (sign: ±0 or any value).
  static V XorSign(V a, V sign) {
    return FromBits(ToBits(a) ^ (ToBits(sign) & (Bits{1} << (sizeof(T) * 8 - 1))));
  }
  // From v = 1.5·2^p + k (p = kMantissaBits, |k| < 2^(p-1)), whose low mantissa bits hold k:
  // whether bit `b` of k is set, as a mask and as a sign (the sign bit set when it is).
  template <int kBit>
  static M IntBit(V shifted) {
    return ((ToBits(shifted) >> kBit) & 1) != 0;
  }
  template <int kBit>
  static V IntBitAsSign(V shifted) {
    return FromBits(((ToBits(shifted) >> kBit) & 1) << (sizeof(T) * 8 - 1));
  }
};

#endif  // COHERIQ_MATH_OPS_SCALAR_H_
