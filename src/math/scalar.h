// The scalar ops policy (src/math/ops.h): one float or double, the reference engine's machine.
//
// Each operation is the IEEE operation the policy names: std::fma is a fused multiply-add (a
// library call on baseline x86-64, where the FMA instruction is not assumed), std::sqrt the
// correctly rounded square root. Masks are bools. Lanewise is a call; Widened converts to double
// and back (both exact and correctly rounded, as the vector conversions).
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "math/ops.h"

namespace coheriq::kernels::math {

// Owner: void for the reference engine; a vector engine's scalar lanes (HwyOps::Lanewise) use
// ScalarOps<T, HwyOps<T>>, a type of the engine's internal namespace, so that what they
// instantiate has internal linkage there and is compiled for that engine's ISA only (one
// definition compiled with AVX-512 and another without would otherwise share a name, and the
// linker would keep either).
template <class Float, class Owner = void>
struct ScalarOps {
  using T = Float;
  using V = Float;
  using M = bool;
  using VI = typename Format<Float>::Bits;

  V Set(T c) const { return c; }
  V Zero() const { return T(0); }

  V Add(V a, V b) const { return a + b; }
  V Sub(V a, V b) const { return a - b; }
  V Mul(V a, V b) const { return a * b; }
  V Div(V a, V b) const { return a / b; }
  V Sqrt(V a) const { return std::sqrt(a); }
  V MulAdd(V a, V b, V c) const { return std::fma(a, b, c); }
  V NegMulAdd(V a, V b, V c) const { return std::fma(-a, b, c); }
  V MulSub(V a, V b, V c) const { return std::fma(a, b, -c); }

  V Neg(V a) const { return -a; }
  V Abs(V a) const { return std::fabs(a); }
  V CopySign(V magnitude, V sign) const { return std::copysign(magnitude, sign); }
  // As x86 does (the second operand unless the first is smaller/larger); ops.h keeps NaN and
  // zeros of opposite signs, where ISAs differ, away from them.
  V Min(V a, V b) const { return a < b ? a : b; }
  V Max(V a, V b) const { return a > b ? a : b; }

  M Lt(V a, V b) const { return a < b; }
  M Le(V a, V b) const { return a <= b; }
  M Gt(V a, V b) const { return a > b; }
  M Ge(V a, V b) const { return a >= b; }
  M Eq(V a, V b) const { return a == b; }
  M Ne(V a, V b) const { return a != b; }
  M IsNaN(V a) const { return a != a; }
  M IsNegative(V a) const { return std::signbit(a); }

  M And(M a, M b) const { return a && b; }
  M Or(M a, M b) const { return a || b; }
  M AndNot(M a, M b) const { return !a && b; }
  M Not(M a) const { return !a; }
  bool AllTrue(M a) const { return a; }
  bool AllFalse(M a) const { return !a; }

  V IfThenElse(M m, V yes, V no) const { return m ? yes : no; }
  V IfThenElseZero(M m, V yes) const { return m ? yes : T(0); }
  V IfThenZeroElse(M m, V no) const { return m ? T(0) : no; }

  template <class F>
  V Lanewise(M where, V x, V other, F f) const {
    return where ? f(*this, x) : other;
  }
  template <class F>
  V Widened(V x, F f) const {
    static_assert(std::is_same_v<T, float>, "Widened: float to double only");
    return static_cast<float>(f(ScalarOps<double, Owner>{}, double{x}));
  }
  template <class F>
  V Widened(V x, V y, F f) const {
    static_assert(std::is_same_v<T, float>, "Widened: float to double only");
    return static_cast<float>(f(ScalarOps<double, Owner>{}, double{x}, double{y}));
  }

  VI BitsOf(V a) const { return std::bit_cast<VI>(a); }
  V FromBits(VI a) const { return std::bit_cast<V>(a); }
  V BitAnd(V a, V b) const { return FromBits(BitsOf(a) & BitsOf(b)); }
  V BitOr(V a, V b) const { return FromBits(BitsOf(a) | BitsOf(b)); }
  V BitXor(V a, V b) const { return FromBits(BitsOf(a) ^ BitsOf(b)); }
  VI SetI(std::int64_t c) const { return static_cast<VI>(c); }
  // In unsigned arithmetic: wrapping, as the vector lanes do.
  VI AddI(VI a, VI b) const { return static_cast<VI>(Unsigned(a) + Unsigned(b)); }
  VI SubI(VI a, VI b) const { return static_cast<VI>(Unsigned(a) - Unsigned(b)); }
  VI AndI(VI a, VI b) const { return a & b; }
  template <int kBits>
  VI ShiftLeftI(VI a) const {
    return static_cast<VI>(Unsigned(a) << kBits);
  }
  template <int kBits>
  VI ShiftRightI(VI a) const {
    return a >> kBits;  // arithmetic (C++20)
  }

 private:
  static std::make_unsigned_t<VI> Unsigned(VI a) {
    return static_cast<std::make_unsigned_t<VI>>(a);
  }
};

}  // namespace coheriq::kernels::math
