// The vector side of the math ops (src/math/ops-scalar.h is the scalar side): the same
// operations on Highway vectors of D, one IEEE operation each (MulAdd is a fused multiply-add on
// every target), so that the shared algorithms of src/math/*-inl.h give bitwise the reference
// engine's results on every engine.
#ifndef COHERIQ_ENGINES_GENERIC_MATH_OPS_INL_H_
#define COHERIQ_ENGINES_GENERIC_MATH_OPS_INL_H_

#include "engines/generic/namespace.h"

COHERIQ_GENERIC_BEGIN

template <class D>
struct TrigHwyOps {
  using T = hn::TFromD<D>;
  using V = hn::Vec<D>;
  using M = hn::Mask<D>;
  D d;

  HWY_INLINE V Set(T c) const { return hn::Set(d, c); }
  HWY_INLINE V Add(V a, V b) const { return hn::Add(a, b); }
  HWY_INLINE V Sub(V a, V b) const { return hn::Sub(a, b); }
  HWY_INLINE V Mul(V a, V b) const { return hn::Mul(a, b); }
  HWY_INLINE V Div(V a, V b) const { return hn::Div(a, b); }
  HWY_INLINE V Sqrt(V a) const { return hn::Sqrt(a); }
  HWY_INLINE V Neg(V a) const { return hn::Neg(a); }
  HWY_INLINE V Abs(V a) const { return hn::Abs(a); }
  HWY_INLINE V MulAdd(V a, V b, V c) const { return hn::MulAdd(a, b, c); }
  HWY_INLINE V NegMulAdd(V a, V b, V c) const { return hn::NegMulAdd(a, b, c); }

  HWY_INLINE M Lt(V a, V b) const { return hn::Lt(a, b); }
  HWY_INLINE M Le(V a, V b) const { return hn::Le(a, b); }
  HWY_INLINE M Gt(V a, V b) const { return hn::Gt(a, b); }
  HWY_INLINE M Eq(V a, V b) const { return hn::Eq(a, b); }
  HWY_INLINE M IsNaN(V a) const { return hn::IsNaN(a); }
  HWY_INLINE M SignBit(V a) const {
    const hn::RebindToSigned<D> di;
    return hn::RebindMask(d, hn::Lt(hn::BitCast(di, a), hn::Zero(di)));
  }
  HWY_INLINE M And(M a, M b) const { return hn::And(a, b); }
  HWY_INLINE M Or(M a, M b) const { return hn::Or(a, b); }
  HWY_INLINE M Not(M a) const { return hn::Not(a); }
  HWY_INLINE bool AllTrue(M a) const { return hn::AllTrue(d, a); }
  HWY_INLINE V Select(M m, V yes, V no) const { return hn::IfThenElse(m, yes, no); }

  HWY_INLINE V XorSign(V a, V sign) const { return hn::Xor(a, hn::And(sign, hn::Set(d, T(-0.0)))); }
  template <int kBit>
  HWY_INLINE M IntBit(V shifted) const {
    const hn::RebindToUnsigned<D> du;
    using U = hn::TFromD<decltype(du)>;
    const auto bit = hn::And(hn::BitCast(du, shifted), hn::Set(du, U{1} << kBit));
    return hn::RebindMask(d, hn::Ne(bit, hn::Zero(du)));
  }
  template <int kBit>
  HWY_INLINE V IntBitAsSign(V shifted) const {
    const hn::RebindToUnsigned<D> du;
    constexpr int kSign = sizeof(T) * 8 - 1;
    return hn::BitCast(d, hn::ShiftLeft<kSign - kBit>(hn::BitCast(du, shifted)));
  }
};

COHERIQ_GENERIC_END

#endif  // COHERIQ_ENGINES_GENERIC_MATH_OPS_INL_H_
