// The reference engine's f32 vector math: f64 <cmath>, rounded once to f32.
//
// glibc's f64 exp/log/tanh are accurate to well under 1 f64 ulp, so rounding their result to
// f32 is correctly rounded except when the exact value lies within about 2^-29 f32 ulp of a
// rounding boundary. Special values follow IEEE: overflow gives +Inf, gradual underflow gives
// denormals, then 0. Every kernel reads x[i] before writing y[i] and never reads x[j < i] again,
// so y == x is allowed.
#include <cmath>
#include <cstddef>
#include <limits>

#include "reference/compensated.hpp"
#include "reference/reference.hpp"

namespace coheriq::kernels::reference {

void exp(std::size_t n, const float* x, float* y) {
  for (std::size_t i = 0; i < n; ++i) y[i] = static_cast<float>(std::exp(double{x[i]}));
}

// log(±0) = -Inf, log(x < 0) = NaN, log(+Inf) = +Inf: std::log's IEEE results.
void log(std::size_t n, const float* x, float* y) {
  for (std::size_t i = 0; i < n; ++i) y[i] = static_cast<float>(std::log(double{x[i]}));
}

void tanh(std::size_t n, const float* x, float* y) {
  for (std::size_t i = 0; i < n; ++i) y[i] = static_cast<float>(std::tanh(double{x[i]}));
}

// In f64, e^-x overflows to +Inf only for x < -709, where 1/(1 + Inf) = 0 is the correctly
// rounded f32 answer, so the formula needs no special branch for any x.
void sigmoid(std::size_t n, const float* x, float* y) {
  for (std::size_t i = 0; i < n; ++i) {
    y[i] = static_cast<float>(1.0 / (1.0 + std::exp(-double{x[i]})));
  }
}

// Three passes over x: the maximum, the compensated sum of e^(x - max), then each output.
// The exponentials are recomputed in the last pass rather than stored in y, so that they keep
// f64 precision and y == x works.
void softmax(std::size_t n, const float* x, float* y) {
  if (n == 0) return;
  double largest = -std::numeric_limits<double>::infinity();
  bool has_nan = false;
  for (std::size_t i = 0; i < n; ++i) {
    if (std::isnan(x[i])) has_nan = true;
    if (x[i] > largest) largest = x[i];
  }
  // The stable formula in IEEE arithmetic: +Inf - +Inf and -Inf - -Inf are NaN, which reach
  // every output through the sum. Say so directly rather than rely on it.
  if (has_nan || !std::isfinite(largest)) {
    for (std::size_t i = 0; i < n; ++i) y[i] = std::numeric_limits<float>::quiet_NaN();
    return;
  }
  CompensatedSum total;
  for (std::size_t i = 0; i < n; ++i) total.add(std::exp(double{x[i]} - largest));
  const double denominator = total.value();  // >= 1: the maximum contributes e^0
  for (std::size_t i = 0; i < n; ++i) {
    y[i] = static_cast<float>(std::exp(double{x[i]} - largest) / denominator);
  }
}

}  // namespace coheriq::kernels::reference
