// Generic sin, cos, tan, asin, acos, atan and atan2, f32 and f64: the shared algorithms of
// src/math/trig-inl.h on Highway vectors (vector-length agnostic), bitwise the reference engine's
// results.
//
// Not hwy/contrib/math: its Sin and Cos are valid for |x| <= 39000 only and promise a few ulp,
// and they would differ from the reference's bits. The vectors run the Cody-Waite reduction;
// lanes beyond its range (|x| > 2^30, Inf, NaN) are redone one by one by the scalar function the
// reference runs (Payne-Hanek), after a test that costs one compare per vector.
#ifndef COHERIQ_ENGINES_GENERIC_TRIG_INL_H_
#define COHERIQ_ENGINES_GENERIC_TRIG_INL_H_

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "engines/generic/math-ops-inl.h"
#include "engines/generic/namespace.h"

COHERIQ_GENERIC_BEGIN

#include "math/asin-inl.h"
#include "math/atan-inl.h"
#include "math/ops-scalar.h"
#include "math/reduce-huge-inl.h"
#include "math/trig-inl.h"

// y = f(x) over an array, `vector` on whole vectors (and on the zero-padded tail), `scalar`
// redoing the lanes where `in_range` fails. Each vector is loaded before its result is stored,
// so y == x is fine.
template <class D, class Vector, class InRange, class Scalar>
HWY_INLINE void MapWithFallback(D d, std::size_t n, const hn::TFromD<D>* x, hn::TFromD<D>* y,
                                Vector vector, InRange in_range, Scalar scalar) {
  using T = hn::TFromD<D>;
  using V = hn::Vec<D>;
  const std::size_t N = hn::Lanes(d);
  const auto one = [&](V v) HWY_ATTR {
    V r = vector(v);
    if (HWY_UNLIKELY(!hn::AllTrue(d, in_range(v)))) {
      HWY_ALIGN_MAX T in[hn::MaxLanes(d)];
      HWY_ALIGN_MAX T out[hn::MaxLanes(d)];
      HWY_ALIGN_MAX T ok[hn::MaxLanes(d)];  // all ones (a NaN) where in range, else +0
      hn::Store(v, d, in);
      hn::Store(r, d, out);
      hn::Store(hn::VecFromMask(d, in_range(v)), d, ok);
      for (std::size_t i = 0; i < N; ++i) {
        if (ok[i] == T{0}) out[i] = scalar(in[i]);
      }
      r = hn::Load(d, out);
    }
    return r;
  };
  std::size_t i = 0;
  for (; i + 2 * N <= n; i += 2 * N) {
    const V a = one(hn::LoadU(d, x + i));
    const V b = one(hn::LoadU(d, x + i + N));
    hn::StoreU(a, d, y + i);
    hn::StoreU(b, d, y + i + N);
  }
  for (; i < n; i += N) {
    // At most N lanes (an SVE length that is not a power of two has more hardware lanes).
    const auto mask = hn::FirstN(d, HWY_MIN(n - i, N));
    hn::BlendedStore(one(hn::MaskedLoad(mask, d, x + i)), mask, d, y + i);
  }
}

// y = f(x) (or z = f(y, x)) over arrays, two vectors per step, the tail masked (computed on
// zeros, never stored). Every input vector is loaded before its result is stored, so the output
// may be an input.
template <class D, class Vector>
HWY_INLINE void MapVectors(D d, std::size_t n, const hn::TFromD<D>* x, hn::TFromD<D>* y,
                           Vector vector) {
  const std::size_t N = hn::Lanes(d);
  std::size_t i = 0;
  for (; i + 2 * N <= n; i += 2 * N) {
    const auto a = vector(hn::LoadU(d, x + i));
    const auto b = vector(hn::LoadU(d, x + i + N));
    hn::StoreU(a, d, y + i);
    hn::StoreU(b, d, y + i + N);
  }
  for (; i < n; i += N) {
    const auto mask = hn::FirstN(d, HWY_MIN(n - i, N));
    hn::BlendedStore(vector(hn::MaskedLoad(mask, d, x + i)), mask, d, y + i);
  }
}

template <class D, class Vector>
HWY_INLINE void MapVectors2(D d, std::size_t n, const hn::TFromD<D>* y, const hn::TFromD<D>* x,
                            hn::TFromD<D>* z, Vector vector) {
  const std::size_t N = hn::Lanes(d);
  std::size_t i = 0;
  for (; i + 2 * N <= n; i += 2 * N) {
    const auto a = vector(hn::LoadU(d, y + i), hn::LoadU(d, x + i));
    const auto b = vector(hn::LoadU(d, y + i + N), hn::LoadU(d, x + i + N));
    hn::StoreU(a, d, z + i);
    hn::StoreU(b, d, z + i + N);
  }
  for (; i < n; i += N) {
    const auto mask = hn::FirstN(d, HWY_MIN(n - i, N));
    const auto r = vector(hn::MaskedLoad(mask, d, y + i), hn::MaskedLoad(mask, d, x + i));
    hn::BlendedStore(r, mask, d, z + i);
  }
}

// An f32 vector through an f64 function of its lanes: each half promoted, computed, rounded.
template <class DF, class F, class VF = hn::Vec<DF>>
HWY_INLINE VF ThroughF64(DF df, VF v, F f) {
  const hn::Half<DF> dh;
  const hn::RepartitionToWide<DF> dd;
  const auto lo = f(hn::PromoteTo(dd, hn::LowerHalf(dh, v)));
  const auto hi = f(hn::PromoteTo(dd, hn::UpperHalf(dh, v)));
  return hn::Combine(df, hn::DemoteTo(dh, hi), hn::DemoteTo(dh, lo));
}

template <class DF, class F, class VF = hn::Vec<DF>>
HWY_INLINE VF ThroughF64(DF df, VF u, VF v, F f) {
  const hn::Half<DF> dh;
  const hn::RepartitionToWide<DF> dd;
  const auto lo =
      f(hn::PromoteTo(dd, hn::LowerHalf(dh, u)), hn::PromoteTo(dd, hn::LowerHalf(dh, v)));
  const auto hi =
      f(hn::PromoteTo(dd, hn::UpperHalf(dh, u)), hn::PromoteTo(dd, hn::UpperHalf(dh, v)));
  return hn::Combine(df, hn::DemoteTo(dh, hi), hn::DemoteTo(dh, lo));
}

template <bool kCos>
HWY_ATTR void SinCosArray(std::size_t n, const double* x, double* y) {
  const hn::ScalableTag<double> d;
  const TrigHwyOps<decltype(d)> o{d};
  const auto limit = hn::Set(d, Trig64::kMaxFast);
  MapWithFallback(
      d, n, x, y, [&](hn::Vec<decltype(d)> v) HWY_ATTR { return SinCos64Fast<kCos>(o, v); },
      [&](hn::Vec<decltype(d)> v) HWY_ATTR { return hn::Le(hn::Abs(v), limit); },
      [](double v) { return SinCos64Scalar<kCos>(v); });
}

// f32 through f64: each half of a float vector promoted, computed, and rounded back.
template <bool kCos>
HWY_ATTR void SinCosArray(std::size_t n, const float* x, float* y) {
  const hn::ScalableTag<float> df;
  const TrigHwyOps<hn::RepartitionToWide<decltype(df)>> o{};
  const auto limit = hn::Set(df, static_cast<float>(Trig32::kMaxFast));
  MapWithFallback(
      df, n, x, y,
      [&](hn::Vec<decltype(df)> v) HWY_ATTR {
        return ThroughF64(df, v, [&](auto w) HWY_ATTR { return SinCos32Fast<kCos>(o, w); });
      },
      [&](hn::Vec<decltype(df)> v) HWY_ATTR { return hn::Le(hn::Abs(v), limit); },
      [](float v) { return SinCos32Scalar<kCos>(v); });
}

template <class T>
HWY_ATTR void atan(std::size_t n, const T* x, T* y) {
  const hn::ScalableTag<T> d;
  if constexpr (sizeof(T) == 8) {
    const TrigHwyOps<decltype(d)> o{d};
    MapVectors(d, n, x, y, [&](hn::Vec<decltype(d)> v) HWY_ATTR { return Atan64Of(o, v); });
  } else {
    const TrigHwyOps<hn::RepartitionToWide<decltype(d)>> o{};
    MapVectors(d, n, x, y, [&](hn::Vec<decltype(d)> v) HWY_ATTR {
      return ThroughF64(d, v, [&](auto w) HWY_ATTR { return Atan32Of(o, w); });
    });
  }
}

template <bool kAcos, class T>
HWY_ATTR void AsinAcosArray(std::size_t n, const T* x, T* y) {
  const hn::ScalableTag<T> d;
  if constexpr (sizeof(T) == 8) {
    const TrigHwyOps<decltype(d)> o{d};
    MapVectors(d, n, x, y,
               [&](hn::Vec<decltype(d)> v) HWY_ATTR { return AsinAcos64<kAcos>(o, v); });
  } else {
    const TrigHwyOps<hn::RepartitionToWide<decltype(d)>> o{};
    MapVectors(d, n, x, y, [&](hn::Vec<decltype(d)> v) HWY_ATTR {
      return ThroughF64(d, v, [&](auto w) HWY_ATTR { return AsinAcos32<kAcos>(o, w); });
    });
  }
}

template <class T>
HWY_ATTR void asin(std::size_t n, const T* x, T* y) {
  AsinAcosArray<false>(n, x, y);
}
template <class T>
HWY_ATTR void acos(std::size_t n, const T* x, T* y) {
  AsinAcosArray<true>(n, x, y);
}

// z = atan2(y, x).
template <class T>
HWY_ATTR void atan2(std::size_t n, const T* y, const T* x, T* z) {
  const hn::ScalableTag<T> d;
  using V = hn::Vec<decltype(d)>;
  if constexpr (sizeof(T) == 8) {
    const TrigHwyOps<decltype(d)> o{d};
    MapVectors2(d, n, y, x, z, [&](V u, V v) HWY_ATTR { return Atan2_64(o, u, v); });
  } else {
    const TrigHwyOps<hn::RepartitionToWide<decltype(d)>> o{};
    MapVectors2(d, n, y, x, z, [&](V u, V v) HWY_ATTR {
      return ThroughF64(d, u, v, [&](auto a, auto b) HWY_ATTR { return Atan2_32(o, a, b); });
    });
  }
}

HWY_ATTR void TanArray(std::size_t n, const double* x, double* y) {
  const hn::ScalableTag<double> d;
  const TrigHwyOps<decltype(d)> o{d};
  const auto limit = hn::Set(d, Trig64::kMaxFast);
  MapWithFallback(
      d, n, x, y, [&](hn::Vec<decltype(d)> v) HWY_ATTR { return Tan64Fast(o, v); },
      [&](hn::Vec<decltype(d)> v) HWY_ATTR { return hn::Le(hn::Abs(v), limit); },
      [](double v) { return Tan64Scalar(v); });
}

HWY_ATTR void TanArray(std::size_t n, const float* x, float* y) {
  const hn::ScalableTag<float> df;
  const TrigHwyOps<hn::RepartitionToWide<decltype(df)>> o{};
  const auto limit = hn::Set(df, static_cast<float>(Trig32::kMaxFast));
  MapWithFallback(
      df, n, x, y,
      [&](hn::Vec<decltype(df)> v)
          HWY_ATTR { return ThroughF64(df, v, [&](auto w) HWY_ATTR { return Tan32Fast(o, w); }); },
      [&](hn::Vec<decltype(df)> v) HWY_ATTR { return hn::Le(hn::Abs(v), limit); },
      [](float v) { return Tan32Scalar(v); });
}

template <class T>
HWY_ATTR void tan(std::size_t n, const T* x, T* y) {
  TanArray(n, x, y);
}

template <class T>
HWY_ATTR void sin(std::size_t n, const T* x, T* y) {
  SinCosArray<false>(n, x, y);
}
template <class T>
HWY_ATTR void cos(std::size_t n, const T* x, T* y) {
  SinCosArray<true>(n, x, y);
}

COHERIQ_GENERIC_END

#endif  // COHERIQ_ENGINES_GENERIC_TRIG_INL_H_
