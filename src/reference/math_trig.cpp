// The reference engine's sin, cos, tan, asin, acos, atan and atan2: the shared algorithms of
// src/math/trig-inl.h on one value at a time (ScalarOps), so the generic engines, which run them on
// vectors, give the same bits. f64 within 1 ulp (sin and cos for every finite input: Payne-Hanek
// beyond 2^30), f32 computed in f64 and rounded once. Each x[i] is read before y[i] is written, so
// y == x is allowed.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "reference/reference.hpp"

namespace coheriq::kernels::reference {
namespace {

#include "math/asin-inl.h"
#include "math/atan-inl.h"
#include "math/ops-scalar.h"
#include "math/reduce-huge-inl.h"
#include "math/trig-inl.h"

template <bool kCos, class T>
T sin_or_cos(T x) {
  if constexpr (sizeof(T) == 4) {
    return SinCos32Scalar<kCos>(x);
  } else {
    return SinCos64Scalar<kCos>(x);
  }
}

template <class T>
T atan_of(T x) {
  const ScalarOps<double> o;
  if constexpr (sizeof(T) == 4) {
    return static_cast<float>(Atan32Of(o, double{x}));
  } else {
    return Atan64Of(o, x);
  }
}

template <class T>
T atan2_of(T y, T x) {
  const ScalarOps<double> o;
  if constexpr (sizeof(T) == 4) {
    return static_cast<float>(Atan2_32(o, double{y}, double{x}));
  } else {
    return Atan2_64(o, y, x);
  }
}

template <bool kAcos, class T>
T asin_or_acos(T x) {
  const ScalarOps<double> o;
  if constexpr (sizeof(T) == 4) {
    return static_cast<float>(AsinAcos32<kAcos>(o, double{x}));
  } else {
    return AsinAcos64<kAcos>(o, x);
  }
}

}  // namespace

template <class T>
void tan(std::size_t n, const T* x, T* y) {
  for (std::size_t i = 0; i < n; ++i) {
    if constexpr (sizeof(T) == 4) {
      y[i] = Tan32Scalar(x[i]);
    } else {
      y[i] = Tan64Scalar(x[i]);
    }
  }
}

template <class T>
void asin(std::size_t n, const T* x, T* y) {
  for (std::size_t i = 0; i < n; ++i) y[i] = asin_or_acos<false>(x[i]);
}

template <class T>
void acos(std::size_t n, const T* x, T* y) {
  for (std::size_t i = 0; i < n; ++i) y[i] = asin_or_acos<true>(x[i]);
}

template <class T>
void atan(std::size_t n, const T* x, T* y) {
  for (std::size_t i = 0; i < n; ++i) y[i] = atan_of(x[i]);
}

template <class T>
void atan2(std::size_t n, const T* y, const T* x, T* z) {
  for (std::size_t i = 0; i < n; ++i) z[i] = atan2_of(y[i], x[i]);
}

template <class T>
void sin(std::size_t n, const T* x, T* y) {
  for (std::size_t i = 0; i < n; ++i) y[i] = sin_or_cos<false>(x[i]);
}

template <class T>
void cos(std::size_t n, const T* x, T* y) {
  for (std::size_t i = 0; i < n; ++i) y[i] = sin_or_cos<true>(x[i]);
}

template void tan(std::size_t, const float*, float*);
template void tan(std::size_t, const double*, double*);
template void asin(std::size_t, const float*, float*);
template void asin(std::size_t, const double*, double*);
template void acos(std::size_t, const float*, float*);
template void acos(std::size_t, const double*, double*);
template void atan(std::size_t, const float*, float*);
template void atan(std::size_t, const double*, double*);
template void atan2(std::size_t, const float*, const float*, float*);
template void atan2(std::size_t, const double*, const double*, double*);
template void sin(std::size_t, const float*, float*);
template void sin(std::size_t, const double*, double*);
template void cos(std::size_t, const float*, float*);
template void cos(std::size_t, const double*, double*);

}  // namespace coheriq::kernels::reference
