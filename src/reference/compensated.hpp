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

  // Adds a·b exactly: the rounded product, plus its rounding error.
  void add_product(double a, double b) noexcept {
    const double product = a * b;
    add(product);
    // fma(a, b, -Inf) is -Inf, not the error: an overflowed product has no finite correction.
    if (std::isfinite(product)) error_ += product_error(a, b, product);
  }

  double value() const noexcept {
    // An Inf or NaN term makes the corrections NaN; the plain sum then holds the IEEE answer
    // (Inf, or NaN for Inf - Inf or a NaN term), which does not depend on the order of terms.
    return std::isfinite(sum_) ? sum_ + error_ : sum_;
  }

 private:
  // a·b - product exactly, product = a·b rounded. Where the compiler has a fused multiply-add
  // instruction (FP_FAST_FMA: aarch64) that is one fma. Without one (the baseline x86-64 this
  // file is compiled for), std::fma is glibc's run-time choice: the FMA instruction on a host
  // that has it, else an exact software routine that made the reference's f64 products 6 times
  // its f32 ones under qemu64. Dekker's product from 26-bit halves (Veltkamp's split) costs
  // what that call costs on an FMA host, and is exact where no half overflows and no partial
  // product underflows: |a|, |b| below 2^995 and |a·b| from 2^-960 to 2^1020. Outside that
  // (zeros included) std::fma. Both give the same bits: the exact error.
  static double product_error(double a, double b, double product) noexcept {
#ifndef FP_FAST_FMA
    if (std::fabs(a) < 0x1p995 && std::fabs(b) < 0x1p995 && std::fabs(product) >= 0x1p-960 &&
        std::fabs(product) < 0x1p1020) {
      const auto [a_high, a_low] = split(a);
      const auto [b_high, b_low] = split(b);
      return ((a_high * b_high - product) + a_high * b_low + a_low * b_high) + a_low * b_low;
    }
#endif
    return std::fma(a, b, -product);
  }

  struct Halves {
    double high, low;
  };
  // x = high + low exactly, each with at most 26 significant bits (Veltkamp's split).
  static Halves split(double x) noexcept {
    constexpr double splitter = 0x1p27 + 1;
    const double scaled = splitter * x;
    const double high = scaled - (scaled - x);
    return {high, x - high};
  }

  double sum_ = 0.0;
  double error_ = 0.0;
};

}  // namespace coheriq::kernels::reference
