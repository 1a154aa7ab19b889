// The reference engine's vector math: the algorithms of src/math, one element at a time, on the
// scalar ops policy (std::fma). The generic engines run the same algorithms on vectors, so every
// engine returns these bits (docs/decisions.md, "Vector math: one algorithm for every engine").
// Every kernel reads x[i] before writing y[i] and never reads x[j < i] again, so y == x is
// allowed.
#include <cstddef>
#include <limits>
#include <type_traits>

#include "kernels/reproducible.hpp"
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
#include "reference/reproducible.hpp"

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
void silu(std::size_t n, const T* x, T* y) {
  map_unary<math::Silu>(n, x, y);
}
template <class T>
void gelu(std::size_t n, const T* x, T* y) {
  map_unary<math::Gelu>(n, x, y);
}
template <class T>
void gelu_tanh(std::size_t n, const T* x, T* y) {
  map_unary<math::GeluTanh>(n, x, y);
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

namespace {

// A sum of nonnegative terms in double with its rounding errors kept (TwoSum): far below an ulp
// of T for any n, float or double.
struct Sum {
  double hi = 0, lo = 0;
  void add(double v) {
    double err;
    hi = math::TwoSum(math::ScalarOps<double>{}, hi, v, err);
    lo += err;
  }
  double value() const { return hi + lo; }
};

template <class T>
T largest_of(std::size_t n, const T* x) {
  const math::ScalarOps<T> o;
  T largest = -std::numeric_limits<T>::infinity();
  for (std::size_t i = 0; i < n; ++i) largest = o.Max(largest, x[i]);
  return largest;
}

// e^(x - max), with the rounding error of x - max fed to the reduction (math::SoftmaxExp).
template <class T>
T shifted_exp(T v, T neg_max, T& diff) {
  const math::ScalarOps<T> o;
  diff = v + neg_max;
  const T lo = math::SoftmaxExp::Lo(o, v, neg_max, diff);
  return math::Exp::InRange(o, diff) ? math::Exp::FastWithLo(o, diff, lo)
                                     : math::Exp::GeneralWithLo(o, diff, lo);
}

}  // namespace

// Three passes, as the generic kernel: the maximum; the exponentials (stored in y) and their
// sum; each scaled by 1/sum. A NaN, a +Inf, or all entries -Inf make every output NaN through the
// sum (x - max is NaN there); -Inf entries among finite ones give exactly 0.
template <class T>
void softmax(std::size_t n, const T* x, T* y) {
  if (n == 0) return;
  const T neg_max = -largest_of(n, x);
  Sum sum;
  for (std::size_t i = 0; i < n; ++i) {
    T diff;
    y[i] = shifted_exp(x[i], neg_max, diff);
    sum.add(y[i]);
  }
  const T scale = static_cast<T>(1.0 / sum.value());
  for (std::size_t i = 0; i < n; ++i) y[i] *= scale;
}

// Three passes: the maximum; the sum of the exponentials below it and the count of entries equal
// to it (math::LogSoftmax); y = (x - max) - L. The special values are softmax's: NaN everywhere
// for a NaN, a +Inf or all entries -Inf (the sum is NaN), -Inf for -Inf entries.
template <class T>
void log_softmax(std::size_t n, const T* x, T* y) {
  if (n == 0) return;
  const math::ScalarOps<T> o;
  const T neg_max = -largest_of(n, x);
  Sum rest;
  double count = 0;
  for (std::size_t i = 0; i < n; ++i) {
    T diff;
    const T e = shifted_exp(x[i], neg_max, diff);
    if (diff == 0) {
      count += 1;
    } else {
      rest.add(e);
    }
  }
  const double sum_less_one = math::LogSoftmax::SumLessOne(rest.hi, rest.lo, count);
  const T log_sum = static_cast<T>(math::Log1p::General(math::ScalarOps<double>{}, sum_less_one));
  for (std::size_t i = 0; i < n; ++i) y[i] = math::LogSoftmax::Of(o, x[i], neg_max, log_sum);
}

// ------------------------------ The reproducible mode: the sum in the canonical order

namespace reproducible {
namespace {

// Σ of the terms in double on kPartials<double> partials, term i into partial i mod P, then the
// halving tree (kernels/reproducible.hpp): float exponentials added, double ones as hi + lo pairs
// (TwoSum), the tree adding pairs likewise. No term is -0 and no partial becomes -0, so the
// padding to a multiple of P the vector code does changes nothing and is left out.
template <class T>
class CanonicalSum {
 public:
  void add(std::size_t i, double v) {
    const std::size_t j = i % kP;
    if constexpr (std::is_same_v<T, float>) {
      hi_[j] = hi_[j] + v;
    } else {
      double err;
      hi_[j] = math::TwoSum(math::ScalarOps<double>{}, hi_[j], v, err);
      lo_[j] = lo_[j] + err;
    }
  }
  void total(double& hi, double& lo) {
    for (std::size_t h = kP / 2; h >= 1; h /= 2) {
      for (std::size_t j = 0; j < h; ++j) {
        if constexpr (std::is_same_v<T, float>) {
          hi_[j] = hi_[j] + hi_[j + h];
        } else {
          double err;
          hi_[j] = math::TwoSum(math::ScalarOps<double>{}, hi_[j], hi_[j + h], err);
          lo_[j] = (lo_[j] + lo_[j + h]) + err;
        }
      }
    }
    hi = hi_[0];
    lo = lo_[0];
  }

 private:
  static constexpr std::size_t kP = ::coheriq::kernels::canonical::kPartials<double>;
  double hi_[kP] = {};
  double lo_[kP] = {};
};

}  // namespace

// The normal softmax's passes, the sum canonical.
template <class T>
void softmax(std::size_t n, const T* x, T* y) {
  if (n == 0) return;
  const T neg_max = -largest_of(n, x);
  CanonicalSum<T> sum;
  for (std::size_t i = 0; i < n; ++i) {
    T diff;
    y[i] = shifted_exp(x[i], neg_max, diff);
    sum.add(i, y[i]);
  }
  double hi, lo;
  sum.total(hi, lo);
  const T scale = static_cast<T>(1.0 / (hi + lo));
  for (std::size_t i = 0; i < n; ++i) y[i] *= scale;
}

// The normal log_softmax's passes, the sum of the exponentials below the maximum canonical (an
// entry at the maximum is a zero term: it keeps its index).
template <class T>
void log_softmax(std::size_t n, const T* x, T* y) {
  if (n == 0) return;
  const math::ScalarOps<T> o;
  const T neg_max = -largest_of(n, x);
  CanonicalSum<T> rest;
  double count = 0;
  for (std::size_t i = 0; i < n; ++i) {
    T diff;
    const T e = shifted_exp(x[i], neg_max, diff);
    if (diff == 0) {
      count += 1;
      rest.add(i, 0.0);
    } else {
      rest.add(i, e);
    }
  }
  double hi, lo;
  rest.total(hi, lo);
  const double sum_less_one = math::LogSoftmax::SumLessOne(hi, lo, count);
  const T log_sum = static_cast<T>(math::Log1p::General(math::ScalarOps<double>{}, sum_less_one));
  for (std::size_t i = 0; i < n; ++i) y[i] = math::LogSoftmax::Of(o, x[i], neg_max, log_sum);
}

template void softmax<float>(std::size_t, const float*, float*);
template void softmax<double>(std::size_t, const double*, double*);
template void log_softmax<float>(std::size_t, const float*, float*);
template void log_softmax<double>(std::size_t, const double*, double*);

}  // namespace reproducible

// Explicit instantiations of every math row (coheriq/kernels_table.hpp).
#define COHERIQ_REFERENCE_INSTANTIATE(op, S, impl, touched, R, params, args) template R impl params;
COHERIQ_KERNELS_MATH(COHERIQ_REFERENCE_INSTANTIATE)
#undef COHERIQ_REFERENCE_INSTANTIATE

}  // namespace coheriq::kernels::reference
