// The reference engine's vector math: the algorithms of src/math, one element at a time, on the
// scalar ops policy (std::fma). The generic engines run the same algorithms on vectors, so every
// engine returns these bits (docs/decisions.md, "Vector math: one algorithm for every engine").
// Every kernel reads x[i] before writing y[i] and never reads x[j < i] again, so y == x is
// allowed.
#include <cstddef>
#include <limits>

#include "math/activation.h"
#include "math/erf.h"
#include "math/exp.h"
#include "math/hyperbolic.h"
#include "math/inverse_trig.h"
#include "math/log.h"
#include "math/power.h"
#include "math/scalar.h"
#include "math/trig.h"
#include "reference/reference.hpp"

#include <coheriq/kernels_domain.hpp>

namespace coheriq::kernels::reference {
namespace {

// y[i] = Algo(x[i]), taking Fast where it is valid, as the vector drivers do lane by lane.
template <class Algo, class T>
void map_unary(std::size_t n, const T* x, T* y) {
  const math::ScalarOps<T> o;
  for (std::size_t i = 0; i < n; ++i) {
    const T v = x[i];
    if constexpr (math::kOnePath<Algo>) {
      y[i] = Algo::General(o, v);
    } else {
      y[i] = Algo::InRange(o, v) ? Algo::Fast(o, v) : Algo::General(o, v);
    }
  }
}

// z[i] = Algo(a[i], b[i]), as map_unary.
template <class Algo, class T>
void map_binary(std::size_t n, const T* a, const T* b, T* z) {
  const math::ScalarOps<T> o;
  for (std::size_t i = 0; i < n; ++i) {
    if constexpr (math::kOnePath<Algo>) {
      z[i] = Algo::General(o, a[i], b[i]);
    } else {
      z[i] =
          Algo::InRange(o, a[i], b[i]) ? Algo::Fast(o, a[i], b[i]) : Algo::General(o, a[i], b[i]);
    }
  }
}

}  // namespace

template <class T>
void exp(std::size_t n, const T* x, T* y) {
  map_unary<math::Exp>(n, x, y);
}
template <class T>
void exp2(std::size_t n, const T* x, T* y) {
  map_unary<math::Exp2>(n, x, y);
}
template <class T>
void expm1(std::size_t n, const T* x, T* y) {
  map_unary<math::Expm1>(n, x, y);
}
template <class T>
void log(std::size_t n, const T* x, T* y) {
  map_unary<math::Log>(n, x, y);
}
template <class T>
void log2(std::size_t n, const T* x, T* y) {
  map_unary<math::Log2>(n, x, y);
}
template <class T>
void log10(std::size_t n, const T* x, T* y) {
  map_unary<math::Log10>(n, x, y);
}
template <class T>
void log1p(std::size_t n, const T* x, T* y) {
  map_unary<math::Log1p>(n, x, y);
}
template <class T>
void tanh(std::size_t n, const T* x, T* y) {
  map_unary<math::Tanh>(n, x, y);
}
template <class T>
void sigmoid(std::size_t n, const T* x, T* y) {
  map_unary<math::Sigmoid>(n, x, y);
}

template <class T>
void sin(std::size_t n, const T* x, T* y) {
  map_unary<math::Sin>(n, x, y);
}
template <class T>
void cos(std::size_t n, const T* x, T* y) {
  map_unary<math::Cos>(n, x, y);
}
template <class T>
void tan(std::size_t n, const T* x, T* y) {
  map_unary<math::Tan>(n, x, y);
}
template <class T>
void asin(std::size_t n, const T* x, T* y) {
  map_unary<math::Asin>(n, x, y);
}
template <class T>
void acos(std::size_t n, const T* x, T* y) {
  map_unary<math::Acos>(n, x, y);
}
template <class T>
void atan(std::size_t n, const T* x, T* y) {
  map_unary<math::Atan>(n, x, y);
}
template <class T>
void atan2(std::size_t n, const T* y, const T* x, T* z) {
  map_binary<math::Atan2>(n, y, x, z);
}
template <class T>
void sinh(std::size_t n, const T* x, T* y) {
  map_unary<math::Sinh>(n, x, y);
}
template <class T>
void cosh(std::size_t n, const T* x, T* y) {
  map_unary<math::Cosh>(n, x, y);
}
template <class T>
void erf(std::size_t n, const T* x, T* y) {
  map_unary<math::Erf>(n, x, y);
}
template <class T>
void erfc(std::size_t n, const T* x, T* y) {
  map_unary<math::Erfc>(n, x, y);
}

template <class T>
void sqrt(std::size_t n, const T* x, T* y) {
  map_unary<math::Sqrt>(n, x, y);
}
template <class T>
void cbrt(std::size_t n, const T* x, T* y) {
  map_unary<math::Cbrt>(n, x, y);
}
template <class T>
void pow(std::size_t n, const T* x, const T* y, T* z) {
  map_binary<math::Pow>(n, x, y, z);
}

// Three passes, as the generic kernel: the maximum; the exponentials (math::SoftmaxExp, stored
// in y) and their sum in double; each scaled by 1/sum. A NaN, a +Inf, or all entries -Inf make
// every output NaN through the sum (x - max is NaN there); -Inf entries among finite ones give
// exactly 0.
template <class T>
void softmax(std::size_t n, const T* x, T* y) {
  if (n == 0) return;
  const math::ScalarOps<T> o;
  T largest = -std::numeric_limits<T>::infinity();
  for (std::size_t i = 0; i < n; ++i) largest = o.Max(largest, x[i]);
  const T neg_max = -largest;
  double sum = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const T v = x[i];
    const T diff = v + neg_max;
    const T lo = math::SoftmaxExp::Lo(o, v, neg_max, diff);
    y[i] = math::Exp::InRange(o, diff) ? math::Exp::FastWithLo(o, diff, lo)
                                       : math::Exp::GeneralWithLo(o, diff, lo);
    sum += y[i];
  }
  const T scale = static_cast<T>(1.0 / sum);
  for (std::size_t i = 0; i < n; ++i) y[i] *= scale;
}

// Explicit instantiations of every math row (coheriq/kernels_table.hpp).
#define COHERIQ_REFERENCE_INSTANTIATE(op, S, impl, touched, R, params, args) template R impl params;
COHERIQ_KERNELS_MATH(COHERIQ_REFERENCE_INSTANTIATE)
#undef COHERIQ_REFERENCE_INSTANTIATE

}  // namespace coheriq::kernels::reference
