// The trigonometric functions' own hard cases, beyond the catalogue's sweeps (math_test.cpp):
// inputs next to multiples of π/2, where the argument reduction cancels most (up to the double
// closest to one, about 2^-61 away), vectors with huge lanes among ordinary ones (those lanes
// leave the vector path), the symmetry of sin, cos and tan, and atan2's pairs at its region
// boundaries. Each input within the function's bound of its oracle and bitwise the reference
// engine's result.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "math_catalog.hpp"
#include "support.hpp"

namespace coheriq::kernels::testing {
namespace {

template <class T>
std::string label(const MathFunction& f) {
  return std::string(f.name) + "." + type_name<T>() + " [" + engine() + "]";
}

// The function of the catalogue on the inputs (a, and b for a binary one): within its bound and
// the reference's bits; prints the worst case.
template <class T>
void check(const MathFunction& f, const std::vector<T>& a, const std::vector<T>& b,
           const std::string& sweep) {
  const std::size_t n = a.size();
  Buffer<T> x(n, 0), y(n, 1), got(n, 0), expected(n, 1);
  std::copy(a.begin(), a.end(), x.begin());
  if (f.arity == 2) std::copy(b.begin(), b.end(), y.begin());
  const Kernels<T>& k = f.kernels<T>();
  if (f.arity == 1) {
    k.run(n, x.data(), got.data());
    k.reference(n, x.data(), expected.data());
  } else {
    k.run2(n, x.data(), y.data(), got.data());
    k.reference2(n, x.data(), y.data(), expected.data());
  }
  Failures beyond_bound, differ;
  double worst = 0;
  std::string where = "nowhere";
  for (std::size_t i = 0; i < n; ++i) {
    const T yi = f.arity == 2 ? y[i] : T(0);
    const auto at = [&] {
      return "x = " + show_value(x[i]) + (f.arity == 2 ? ", y = " + show_value(yi) : "");
    };
    const double ulps = ulp_error(got[i], exact_value<T>(f, x[i], yi));
    if (ulps > worst) {
      worst = ulps;
      where = at();
    }
    if (ulps > f.bound<T>()) {
      beyond_bound.add(
          [&] { return at() + ": got " + show_value(got[i]) + " (" + show_ulps(ulps) + ")"; });
    }
    if (!same(got[i], expected[i])) {
      differ.add([&] {
        return at() + ": got " + show_value(got[i]) + ", the reference " + show_value(expected[i]);
      });
    }
  }
  report(label<T>(f) + ": max " + show_ulps(worst) + " at " + where + " over " + std::to_string(n) +
         " " + sweep + " inputs");
  CHECK_MESSAGE(beyond_bound.none(), label<T>(f), " (", sweep, "): ", beyond_bound.report());
  CHECK_MESSAGE(differ.none(), label<T>(f), " differs from the reference (", sweep,
                "): ", differ.report());
}

const MathFunction& row(const char* name) {
  const MathFunction* f = find_math_function(name);
  REQUIRE_MESSAGE(f != nullptr, "no catalogue row ", name);
  return *f;
}

double unit(std::mt19937_64& random) { return std::ldexp(double(random() >> 11), -53); }

TEST_CASE_TEMPLATE("sin, cos, tan next to multiples of pi/2, within 1 ulp and the reference's bits",
                   T, float, double) {
  // The T values nearest k·π/2 and their two neighbours above, for k up to 1e12 (f32) or 1e15
  // (f64) and the Cody-Waite boundary 2^30; f64 also the double nearest a multiple of π/2
  // (6381956970095103·2^797) and the largest values.
  std::mt19937_64 random(31);
  const std::size_t count = quick() ? 500 : 40000;
  const double max_k = sizeof(T) == 4 ? 1e12 : 1e15;
  std::vector<T> inputs;
  for (std::size_t i = 0; i < count; ++i) {
    const double k = std::floor(unit(random) * max_k);
    T v = static_cast<T>(static_cast<long double>(k) * 1.57079632679489661923132169163975144L);
    for (int step = 0; step < 3; ++step) {
      inputs.push_back(v);
      inputs.push_back(-v);
      v = std::nextafter(v, kInf<T>);
    }
  }
  const T boundary = T(0x1p30);
  for (T v : {boundary, std::nextafter(boundary, T(0)), std::nextafter(boundary, kInf<T>),
              std::numeric_limits<T>::max(), T(1e30f)}) {
    inputs.push_back(v);
    inputs.push_back(-v);
  }
  if constexpr (sizeof(T) == 8) {
    for (double v : {0x1.6ac5b262ca1ffp+849, 1e299, 1e22}) {
      inputs.push_back(v);
      inputs.push_back(-v);
    }
  }
  for (const char* name : {"sin", "cos", "tan"}) check(row(name), inputs, {}, "near-multiples");
}

TEST_CASE_TEMPLATE("sin and tan are odd and cos even, bit for bit", T, float, double) {
  // The three reduce the signed x (f64: cos only): -x takes another multiple of π or π/2,
  // and next to the multiples of π (where cos's two sums may round to other multiples) the
  // results must still agree. Inputs: the values nearest k·π and their neighbours, every binade.
  std::mt19937_64 random(37);
  const std::size_t count = quick() ? 2000 : 100000;
  const double max_k = 3e8;  // k·π below 2^30, the vector path's range
  std::vector<T> x;
  for (std::size_t i = 0; i < count; ++i) {
    const double k = std::floor(unit(random) * max_k);
    T v = static_cast<T>(static_cast<long double>(k) * 3.14159265358979323846264338327950288L);
    for (int step = 0; step < 3; ++step, v = std::nextafter(v, T(0))) x.push_back(v);
    x.push_back(static_cast<T>(std::ldexp(1 + unit(random), int(random() % 80) - 40)));
  }
  const std::size_t n = x.size();
  Buffer<T> neg(n, 0), y(n, 0), y_neg(n, 0);
  for (std::size_t i = 0; i < n; ++i) neg[i] = -x[i];
  for (const char* name : {"sin", "cos", "tan"}) {
    const bool even = std::string(name) == "cos";
    const Kernels<T>& k = row(name).kernels<T>();
    k.run(n, x.data(), y.data());
    k.run(n, neg.data(), y_neg.data());
    Failures failures;
    for (std::size_t i = 0; i < n; ++i) {
      if (!same(y_neg[i], even ? y[i] : -y[i])) {
        failures.add([&] {
          return "x = " + show_value(x[i]) + ": " + show_value(y[i]) + ", at -x " +
                 show_value(y_neg[i]);
        });
      }
    }
    CHECK_MESSAGE(failures.none(), label<T>(row(name)), ": ", failures.report());
  }
}

TEST_CASE_TEMPLATE("sin, cos, tan: huge lanes among ordinary ones, every size, alignment, in place",
                   T, float, double) {
  // One lane in 16 beyond the vector path's range (|x| up to 1e30), the others in [-100, 100]:
  // vectors that mix the two paths, in the body and in the remainder.
  std::mt19937_64 random(33);
  for (const char* name : {"sin", "cos", "tan"}) {
    const MathFunction& f = row(name);
    const Kernels<T>& k = f.kernels<T>();
    Failures failures;
    for (std::size_t n : sizes()) {
      if (n > 4099) continue;
      for (std::size_t offset : kOffsets) {
        Buffer<T> x(n, offset), y(n, 1 - offset), in_place(n, offset), expected(n, 0);
        for (T& v : x) {
          const double u = unit(random);
          v = random() % 16 == 0 ? T(u * 1e30) : T(u * 200 - 100);
        }
        k.run(n, x.data(), y.data());
        k.reference(n, x.data(), expected.data());
        std::copy(x.begin(), x.end(), in_place.begin());
        k.run(n, in_place.data(), in_place.data());
        for (std::size_t i = 0; i < n; ++i) {
          if (!same(y[i], expected[i]) || !same(in_place[i], expected[i])) {
            failures.add([&] {
              return "n = " + std::to_string(n) + ", x[" + std::to_string(i) +
                     "] = " + show_value(x[i]) + ": got " + show_value(y[i]) + " (in place " +
                     show_value(in_place[i]) + "), the reference " + show_value(expected[i]);
            });
          }
        }
      }
    }
    CHECK_MESSAGE(failures.none(), label<T>(f), ": ", failures.report());
  }
}

TEST_CASE_TEMPLATE("atan2 at its region boundaries and over every exponent pair", T, float,
                   double) {
  // y/x near tan(π/8) and tan(3π/8), where the reduction changes base, and pairs of independent
  // exponents (ratios from subnormal to overflowing, sums that overflow).
  std::mt19937_64 random(34);
  const std::size_t count = quick() ? 5000 : 400000;
  std::vector<T> ys, xs;
  for (std::size_t i = 0; i < count; ++i) {
    const double x = (unit(random) * 2 - 1) * 10;
    const double ratio = random() % 2 ? 0.41421356237309503 : 2.4142135623730949;
    ys.push_back(T(x * ratio * (1 + (unit(random) * 2 - 1) * 1e-6)));
    xs.push_back(T(x));
    const int range = sizeof(T) == 4 ? 300 : 2200;
    ys.push_back(T(std::ldexp(unit(random) * 2 - 1, int(random() % range) - range / 2)));
    xs.push_back(T(std::ldexp(unit(random) * 2 - 1, int(random() % range) - range / 2)));
  }
  check(row("atan2"), ys, xs, "boundary and exponent-pair");
}

}  // namespace
}  // namespace coheriq::kernels::testing
