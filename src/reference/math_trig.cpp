// The reference engine's sin and cos: the shared algorithms of src/math/trig-inl.h on one value
// at a time (ScalarOps), so the generic engines, which run them on vectors, give the same bits.
// f64 within 1 ulp for every finite input (Payne-Hanek beyond 2^30), f32 computed in f64.
// Each x[i] is read before y[i] is written, so y == x is allowed.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "reference/reference.hpp"

namespace coheriq::kernels::reference {
namespace {

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

}  // namespace

template <class T>
void sin(std::size_t n, const T* x, T* y) {
  for (std::size_t i = 0; i < n; ++i) y[i] = sin_or_cos<false>(x[i]);
}

template <class T>
void cos(std::size_t n, const T* x, T* y) {
  for (std::size_t i = 0; i < n; ++i) y[i] = sin_or_cos<true>(x[i]);
}

template void sin(std::size_t, const float*, float*);
template void sin(std::size_t, const double*, double*);
template void cos(std::size_t, const float*, float*);
template void cos(std::size_t, const double*, double*);

}  // namespace coheriq::kernels::reference
