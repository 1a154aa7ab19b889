// Compensated summation for the reference engine (blas1.cpp, math.cpp, gemm.cpp).
//
// Baseline code only: no ISA translation unit includes this header, so its inline functions
// cannot be folded with a copy compiled for a newer ISA (docs/design.md, "ISA hygiene").
#pragma once

#include <cmath>

namespace coheriq::kernels::reference {

// Σ of f64 terms as if accumulated in twice f64 precision: every addition's rounding error is
// recovered exactly (Knuth's branch-free TwoSum, valid whatever the magnitudes) and added back
// at the end. The error is about eps·|Σ| + n·eps²·Σ|terms|, far inside any engine's bound.
// f32 inputs are widened first; their products are exact in f64 and need no correction.
class CompensatedSum {
 public:
  void add(double term) noexcept {
    const double total = sum_ + term;
    const double term_part = total - sum_;
    error_ += (sum_ - (total - term_part)) + (term - term_part);
    sum_ = total;
  }

  // Adds a·b exactly: the rounded product, plus its rounding error from a fused multiply-add
  // (std::fma is correctly rounded everywhere; glibc uses the FMA instruction when the host has
  // one and an exact software path otherwise).
  void add_product(double a, double b) noexcept {
    const double product = a * b;
    add(product);
    // fma(a, b, -Inf) is -Inf, not the error: an overflowed product has no finite correction.
    if (std::isfinite(product)) error_ += std::fma(a, b, -product);
  }

  double value() const noexcept {
    // An Inf or NaN term makes the corrections NaN; the plain sum then holds the IEEE answer
    // (Inf, or NaN for Inf - Inf or a NaN term), which does not depend on the order of terms.
    return std::isfinite(sum_) ? sum_ + error_ : sum_;
  }

 private:
  double sum_ = 0.0;
  double error_ = 0.0;
};

}  // namespace coheriq::kernels::reference
