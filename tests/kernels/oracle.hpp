// The kernel tests' oracle: plain long double loops, written here and sharing no code with the
// library. The reference engine is one of the engines under test (kernels.reference), so it
// cannot also be the expected value: a reference kernel that is wrong would agree with itself.
//
// long double is x87 80-bit on x86-64 (64-bit significand, 15-bit exponent) or IEEE quad: every
// f32 product is exact in it, an f64 product rounds at 2^-64, and no square of a finite f64
// overflows or underflows. Sums are pairwise, so the oracle's own error is at most
// (log2(n) + 8)·eps_ld·Σ|terms| (oracle_error), below 2^-40 of an f64 eps at any size the tests
// use; the checks add it to their bounds anyway.
#pragma once

#include <cmath>
#include <cstddef>
#include <limits>

namespace coheriq::kernels::testing {

using Wide = long double;

static_assert(std::numeric_limits<Wide>::digits >= 64 &&
                  std::numeric_limits<Wide>::max_exponent >= 16384,
              "coheriq: the kernel tests' oracle needs a long double wider than double in "
              "precision and range (x86 80-bit or IEEE quad); port tests/kernels/oracle.hpp to a "
              "double-double type for this target");

inline constexpr Wide kWideEps = std::numeric_limits<Wide>::epsilon();

// Σ term(i) for i in [begin, end), pairwise: halves until at most 8 terms are left, which are
// added in order. Sum: what is summed (Wide, or SignedAndMagnitude below).
template <class Sum = Wide, class Term>
Sum pairwise_sum(std::size_t begin, std::size_t end, const Term& term) {
  if (end - begin <= 8) {
    Sum total{};
    for (std::size_t i = begin; i < end; ++i) total += term(i);
    return total;
  }
  const std::size_t middle = begin + (end - begin) / 2;
  Sum total = pairwise_sum<Sum>(begin, middle, term);
  total += pairwise_sum<Sum>(middle, end, term);
  return total;
}

// x·y in Wide, exactly for f32 (24 + 24 significant bits fit a double's 53, so the double
// product is exact and cheaper than a long double one where that is software) and rounded once
// at 2^-64 or less for f64.
template <class T>
Wide wide_product(T x, T y) {
  if constexpr (sizeof(T) == sizeof(float)) {
    return Wide(double(x) * double(y));
  } else {
    return Wide(x) * Wide(y);
  }
}

// Σ term(i) and Σ|term(i)| in one pass, pairwise_sum<SignedAndMagnitude>: each the same bits as a
// pairwise_sum of its own, with each term computed once (a term is a long double product, the
// oracle's cost where long double is IEEE quad in software: aarch64, under qemu too).
struct SignedAndMagnitude {
  Wide sum = 0, magnitude = 0;
  SignedAndMagnitude& operator+=(Wide term) {
    sum += term;
    magnitude += std::fabs(term);
    return *this;
  }
  SignedAndMagnitude& operator+=(const SignedAndMagnitude& other) {
    sum += other.sum;
    magnitude += other.magnitude;
    return *this;
  }
};

// The oracle's error bound of a pairwise sum of n terms, relative to Σ|terms| (one more eps_ld
// for a rounded f64 product per term).
inline double oracle_error(std::size_t n) {
  return (std::log2(double(n) + 1.0) + 9.0) * double(kWideEps);
}

template <class T>
Wide oracle_dot(std::size_t n, const T* x, const T* y) {
  return pairwise_sum(0, n, [&](std::size_t i) { return Wide(x[i]) * Wide(y[i]); });
}

template <class T>
Wide oracle_sum(std::size_t n, const T* x) {
  return pairwise_sum(0, n, [&](std::size_t i) { return Wide(x[i]); });
}

template <class T>
Wide oracle_asum(std::size_t n, const T* x) {
  return pairwise_sum(0, n, [&](std::size_t i) { return std::fabs(Wide(x[i])); });
}

// √Σx², with no scaling: long double's range holds every square of a finite f32 or f64.
template <class T>
Wide oracle_nrm2(std::size_t n, const T* x) {
  return std::sqrt(pairwise_sum(0, n, [&](std::size_t i) { return Wide(x[i]) * Wide(x[i]); }));
}

// The first index of the largest |x|; the first NaN wins; 0 for n == 0 (docs/kernels.md).
template <class T>
std::size_t oracle_iamax(std::size_t n, const T* x) {
  std::size_t best = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (std::isnan(x[i])) return i;
    if (std::fabs(x[i]) > std::fabs(x[best])) best = i;
  }
  return best;
}

}  // namespace coheriq::kernels::testing
