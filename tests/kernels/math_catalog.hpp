// The vector math functions as the tests and the accuracy tool see them: one row per function
// (math_catalog.cpp), with its kernels, an oracle in higher precision, its bounds and its
// special values, and the ulp measure they are checked with.
//
// The oracles are the C library's, one precision up: double for the f32 kernels (glibc's double
// functions err by at most a few double ulps, 2^-28 of a float ulp), long double for the f64
// ones (x87 80-bit: 2^-11 of a double ulp; IEEE quad on aarch64). They share no code with the
// library.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

namespace coheriq::kernels::testing {

template <class T>
using UnaryKernel = void (*)(std::size_t, const T*, T*);
template <class T>
using BinaryKernel = void (*)(std::size_t, const T*, const T*, T*);

// f(x) in the precision one up from T's: double for float, long double for double.
template <class T>
using Wider = std::conditional_t<sizeof(T) == 4, double, long double>;

struct Oracle {
  double (*f32)(double) = nullptr;
  long double (*f64)(long double) = nullptr;
  double (*f32_2)(double, double) = nullptr;
  long double (*f64_2)(long double, long double) = nullptr;
};

// An oracle from a generic lambda, e.g. oracle([](auto x) { return std::exp(x); }).
template <class L>
struct OracleOf {
  static double f32(double x) { return L{}(x); }
  static long double f64(long double x) { return L{}(x); }
  static double f32_2(double x, double y) { return L{}(x, y); }
  static long double f64_2(long double x, long double y) { return L{}(x, y); }
};
template <class L>
Oracle unary_oracle(L) {
  return {&OracleOf<L>::f32, &OracleOf<L>::f64, nullptr, nullptr};
}
template <class L>
Oracle binary_oracle(L) {
  return {nullptr, nullptr, &OracleOf<L>::f32_2, &OracleOf<L>::f64_2};
}

// A value of the function that C99 Annex F (or the function's own definition) fixes exactly:
// compared bit for bit (the sign of a zero counts), NaN with any NaN.
struct Special {
  long double x;
  long double expected;
  long double y = 0;  // the second argument of a binary function
};

struct Range {
  long double low, high;
};

// Bounds in ulps of the result (docs/kernels.md); kCorrectlyRounded: equal to the IEEE operation.
inline constexpr double kCorrectlyRounded = 0.5;

template <class T>
struct Kernels {
  UnaryKernel<T> run = nullptr;  // the public kernel: the engine in effect
  UnaryKernel<T> reference = nullptr;
  BinaryKernel<T> run2 = nullptr;
  BinaryKernel<T> reference2 = nullptr;
  bool present() const { return run != nullptr || run2 != nullptr; }
};

struct MathFunction {
  const char* name;
  int arity;  // 1: y = f(x); 2: z = f(x, y), x and y its first and second arguments
  Kernels<float> f32;
  Kernels<double> f64;
  Oracle oracle;
  double bound_f32;
  double bound_f64;
  // Where the function's interesting inputs lie: the random sweeps draw from each uniformly
  // (besides random bit patterns over every value). For a binary function, pairs: x's range,
  // then y's.
  std::vector<Range> ranges;
  std::vector<Special> specials;  // besides NaN -> NaN, which holds for every function

  template <class T>
  const Kernels<T>& kernels() const {
    if constexpr (sizeof(T) == 4) {
      return f32;
    } else {
      return f64;
    }
  }
  template <class T>
  double bound() const {
    return sizeof(T) == 4 ? bound_f32 : bound_f64;
  }
};

// Every function, in the order of docs/kernels.md.
const std::vector<MathFunction>& math_functions();
// The row named `name`, or nullptr.
const MathFunction* find_math_function(std::string_view name);

// ------------------------------ Measuring

// The oracle's f(x) (or f(x, y)) for T's kernels.
template <class T>
Wider<T> exact_value(const MathFunction& f, Wider<T> x, Wider<T> y = 0) {
  if constexpr (sizeof(T) == 4) {
    return f.arity == 1 ? f.oracle.f32(x) : f.oracle.f32_2(x, y);
  } else {
    return f.arity == 1 ? f.oracle.f64(x) : f.oracle.f64_2(x, y);
  }
}

// The error of `got` against the exact value, in ulps of T at the exact value (the spacing of
// T's values in its binade; 2^-149 or 2^-1074 among subnormals), as a real number: 0.5 is the
// most a correctly rounded result can be off. An infinite exact value (a pole, f(Inf)) must be
// met exactly, and so must the infinity a finite exact value beyond T's range rounds to (any other
// result is that far off); an infinite result for an exact value within the range counts as the
// power of two past T's largest value (so overflowing where the exact value is within an ulp of
// the range is not an infinite error). NaN must meet NaN; otherwise the error is infinite.
template <class T>
double ulp_error(T got, Wider<T> exact) {
  using W = Wider<T>;
  constexpr double kInfinite = std::numeric_limits<double>::infinity();
  if (std::isnan(exact) || std::isnan(got))
    return std::isnan(exact) && std::isnan(got) ? 0 : kInfinite;
  if (std::isinf(exact)) return W(got) == exact ? 0 : kInfinite;
  // Beyond T's range, an exact value rounds to an infinity: that infinity is exact.
  if (std::isinf(static_cast<T>(exact)) && got == static_cast<T>(exact)) return 0;
  constexpr int kDigits = std::numeric_limits<T>::digits;
  constexpr int kMinExponent = std::numeric_limits<T>::min_exponent - 1;  // of the smallest normal
  constexpr int kMaxExponent = std::numeric_limits<T>::max_exponent;      // 2^this is past the max
  const W value = std::isinf(got) ? std::copysign(std::ldexp(W(1), kMaxExponent), W(got)) : W(got);
  int exponent = kMinExponent;
  if (exact != 0) exponent = std::min(std::max(std::ilogb(exact), kMinExponent), kMaxExponent - 1);
  const W ulp = std::ldexp(W(1), exponent - kDigits + 1);
  return static_cast<double>(std::fabs(value - exact) / ulp);
}

// "1.5 (0x1.8p+0)": decimal for people, hex for reproducing, at T's precision.
template <class T>
std::string show_value(T v) {
  char text[96];
  if constexpr (sizeof(T) == 4) {
    std::snprintf(text, sizeof text, "%.9g (%a)", double(v), double(v));
  } else {
    std::snprintf(text, sizeof text, "%.17g (%a)", v, v);
  }
  return text;
}
std::string show_ulps(double ulps);

// The inputs of the sweeps, for unary functions (binary: pairs, below).
// f32: every `stride`-th bit pattern from 0 (all signs, subnormals, infinities, NaNs), the
// specials, and `random` draws from each range.
// f64: `random` random bit patterns, `random` draws from each range, and the specials.
template <class T>
std::vector<T> sweep_inputs(const MathFunction& f, std::uint64_t stride, std::size_t random,
                            std::uint64_t seed);
// Pairs (x[i], y[i]) for a binary function: `random` draws from each pair of ranges, random bit
// patterns for both, the specials, and every pairing of a list of notable values.
template <class T>
void sweep_pairs(const MathFunction& f, std::size_t random, std::uint64_t seed, std::vector<T>& x,
                 std::vector<T>& y);

}  // namespace coheriq::kernels::testing
