// Generic sin and cos, f32 and f64: the shared algorithms of src/math/trig-inl.h on Highway
// vectors (vector-length agnostic), bitwise the reference engine's results.
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

template <bool kCos>
HWY_ATTR void SinCosArray(std::size_t n, const double* x, double* y) {
  const hn::ScalableTag<double> d;
  const HwyOps<decltype(d)> o{d};
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
  const hn::Half<decltype(df)> dh;
  const hn::RepartitionToWide<decltype(df)> dd;
  const HwyOps<decltype(dd)> o{dd};
  const auto limit = hn::Set(df, static_cast<float>(Trig32::kMaxFast));
  MapWithFallback(
      df, n, x, y,
      [&](hn::Vec<decltype(df)> v) HWY_ATTR {
        const auto lo = SinCos32Fast<kCos>(o, hn::PromoteTo(dd, hn::LowerHalf(dh, v)));
        const auto hi = SinCos32Fast<kCos>(o, hn::PromoteTo(dd, hn::UpperHalf(dh, v)));
        return hn::Combine(df, hn::DemoteTo(dh, hi), hn::DemoteTo(dh, lo));
      },
      [&](hn::Vec<decltype(df)> v) HWY_ATTR { return hn::Le(hn::Abs(v), limit); },
      [](float v) { return SinCos32Scalar<kCos>(v); });
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
