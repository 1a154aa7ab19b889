// The vector math of the engine in effect, every function of the catalogue (math_catalog.cpp):
// within its bound of an oracle one precision up (ulps as real numbers, denormal results
// included), bitwise equal to the reference engine's result (one algorithm per function runs on
// every engine), and exactly right on the special values. The maximum error of each function is
// printed. Softmax, a reduction, has its own cases below.
#include <doctest/doctest.h>

#include <coheriq/kernels.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "math_catalog.hpp"
#include "reference/reference.hpp"
#include "support.hpp"

namespace coheriq::kernels::testing {
namespace {

// ------------------------------ Running a function

// The function's kernel (`reference`: the reference engine's) on n inputs.
template <class T>
void apply(const MathFunction& f, bool reference, std::size_t n, const T* x, const T* y, T* out) {
  const Kernels<T>& k = f.kernels<T>();
  if (f.arity == 1) {
    (reference ? k.reference : k.run)(n, x, out);
  } else {
    (reference ? k.reference2 : k.run2)(n, x, y, out);
  }
}

template <class T>
std::string describe_input(const MathFunction& f, T x, T y) {
  std::string s = "x = " + show_value(x);
  if (f.arity == 2) s += ", y = " + show_value(y);
  return s;
}

// What one run of a function over inputs gives: the largest error, where, and every failure
// (beyond the bound, or not the reference's bits).
template <class T>
struct Verdict {
  double max_ulps = 0;
  std::string worst;
  Failures beyond_bound;
  Failures not_reference;

  // `oracle`: measure against the oracle too (else only compare with the reference's bits).
  void check(const MathFunction& f, std::size_t n, const T* x, const T* y, const T* got,
             const T* reference_got, bool oracle = true) {
    const double bound = f.bound<T>();
    for (std::size_t i = 0; i < n; ++i) {
      const T yi = f.arity == 2 ? y[i] : T(0);
      const double ulps = oracle ? ulp_error(got[i], exact_value<T>(f, x[i], yi)) : 0.0;
      if (ulps > max_ulps) {
        max_ulps = ulps;
        worst = describe_input(f, x[i], yi);
      }
      if (ulps > bound) {
        beyond_bound.add([&] {
          return describe_input(f, x[i], yi) + ": got " + show_value(got[i]) + " (" +
                 show_ulps(ulps) + ")";
        });
      }
      if (!same(got[i], reference_got[i])) {
        not_reference.add([&] {
          return describe_input(f, x[i], yi) + ": got " + show_value(got[i]) +
                 ", the reference engine " + show_value(reference_got[i]);
        });
      }
    }
  }
};

template <class T>
std::string label(const MathFunction& f) {
  return std::string(f.name) + "." + type_name<T>() + " [" + engine() + "]";
}

// ------------------------------ The sweep

TEST_CASE_TEMPLATE("vector math: a sweep of every function against its oracle, max ulp printed", T,
                   float, double) {
  // f32: every 4093rd bit pattern (1M inputs whose low mantissa bits take every value, over
  // both signs, subnormals, infinities and NaNs; quick: every 65521st; coheriq_accuracy
  // --exhaustive takes all 2^32); f64: random bit patterns and random draws from the function's
  // ranges; both: the special values.
  const std::uint64_t stride = quick() ? 65521 : 4093;
  const std::size_t random = quick() ? 2000 : 100000;
  for (const MathFunction& f : math_functions()) {
    if (!f.kernels<T>().present()) continue;
    std::vector<T> x, y;
    if (f.arity == 1) {
      x = sweep_inputs<T>(f, stride, random, 23);
    } else {
      sweep_pairs<T>(f, quick() ? 2000 : 1000000, 23, x, y);
    }
    const std::size_t n = x.size();
    std::vector<T> got(n), reference_got(n);
    apply(f, false, n, x.data(), y.data(), got.data());
    apply(f, true, n, x.data(), y.data(), reference_got.data());
    Verdict<T> v;
    v.check(f, n, x.data(), y.data(), got.data(), reference_got.data());
    report(label<T>(f) + ": max " + show_ulps(v.max_ulps) +
           (v.worst.empty() ? "" : " at " + v.worst) + " over " + std::to_string(n) +
           " inputs; bound " + show_ulps(f.bound<T>()) +
           (v.not_reference.none() ? "; bitwise the reference's" : ""));
    CHECK_MESSAGE(v.beyond_bound.none(), label<T>(f), ": ", v.beyond_bound.report());
    CHECK_MESSAGE(v.not_reference.none(), label<T>(f),
                  " differs from the reference engine: ", v.not_reference.report());
  }
}

// ------------------------------ Special values

TEST_CASE_TEMPLATE("vector math: special values (C99 Annex F), alone and among ordinary values", T,
                   float, double) {
  for (const MathFunction& f : math_functions()) {
    if (!f.kernels<T>().present()) continue;
    std::vector<Special> specials = f.specials;
    specials.push_back({kNaN<long double>, kNaN<long double>, 0.5L});
    if (f.arity == 2) specials.push_back({0.5L, kNaN<long double>, kNaN<long double>});
    for (const Special& s : specials) {
      const T x = static_cast<T>(s.x), y = static_cast<T>(s.y);
      const T expected = static_cast<T>(s.expected);
      const std::string context = label<T>(f) + " at " + describe_input(f, x, y);
      CAPTURE(context);
      // Alone (n = 1: the remainder path), then at every position of 33 ordinary values (the
      // vector body, with the special value in a vector of ordinary ones).
      T got = 0;
      apply(f, false, 1, &x, &y, &got);
      CHECK_MESSAGE(same(got, expected), "got ", show_value(got), ", expected ",
                    show_value(expected));
      for (std::size_t p = 0; p < 33; ++p) {
        std::vector<T> xs(33, T(0.25)), ys(33, T(0.75)), out(33), reference_out(33);
        xs[p] = x;
        ys[p] = y;
        apply(f, false, xs.size(), xs.data(), ys.data(), out.data());
        apply(f, true, xs.size(), xs.data(), ys.data(), reference_out.data());
        CHECK_MESSAGE(same(out[p], expected), "at position ", p, ": got ", show_value(out[p]),
                      ", expected ", show_value(expected));
        for (std::size_t i = 0; i < xs.size(); ++i) {
          if (i == p) continue;
          CHECK_MESSAGE(same(out[i], reference_out[i]), "ordinary value at ", i, " beside it: got ",
                        show_value(out[i]), ", the reference engine ",
                        show_value(reference_out[i]));
        }
      }
    }
  }
}

// ------------------------------ Sizes, alignment, in place

TEST_CASE_TEMPLATE("vector math: every size and alignment, and in place", T, float, double) {
  Random random(20);
  for (const MathFunction& f : math_functions()) {
    if (!f.kernels<T>().present()) continue;
    const Range r = f.ranges.front();
    const Range r2 = f.arity == 2 ? f.ranges.at(1) : r;
    const auto draw = [&](const Range& range) {
      const long double largest = std::numeric_limits<T>::max();
      return random.uniform<T>(static_cast<T>(std::max(range.low, -largest)),
                               static_cast<T>(std::min(range.high, largest)));
    };
    for (std::size_t n : sizes()) {
      // The loops have no behaviour that depends on n beyond their remainders (no blocking):
      // the large size would add time, not cases.
      if (n > 4099) continue;
      for (std::size_t offset : kOffsets) {
        Buffer<T> x(n, offset), y(n, 1 - offset), out(n, 1 - offset), reference_out(n, 0),
            in_place(n, offset);
        for (std::size_t i = 0; i < n; ++i) {
          x[i] = draw(r);
          y[i] = draw(r2);
        }
        apply(f, false, n, x.data(), y.data(), out.data());
        apply(f, true, n, x.data(), y.data(), reference_out.data());
        std::copy(x.begin(), x.end(), in_place.begin());
        apply(f, false, n, in_place.data(), y.data(), in_place.data());
        // Within the bound, and bitwise the reference's (the loops' bodies, remainders and
        // alignment); in place, bitwise.
        Verdict<T> v, v_in_place;
        v.check(f, n, x.data(), y.data(), out.data(), reference_out.data());
        v_in_place.check(f, n, x.data(), y.data(), in_place.data(), reference_out.data(), false);
        const std::string context =
            label<T>(f) + " n = " + std::to_string(n) + ", offset " + std::to_string(offset);
        CHECK_MESSAGE(v.beyond_bound.none(), context, ": ", v.beyond_bound.report());
        CHECK_MESSAGE(v.not_reference.none(), context, ": ", v.not_reference.report());
        CHECK_MESSAGE(v_in_place.not_reference.none(), context,
                      ", in place: ", v_in_place.not_reference.report());
      }
    }
  }
}

// ------------------------------ softmax

// Long double softmax, with the documented special cases: a NaN, a +Inf, or all -Inf give NaN
// everywhere.
template <class T>
std::vector<long double> softmax_oracle(const T* x, std::size_t n) {
  std::vector<long double> y(n);
  long double largest = -kInf<long double>;
  bool nan = false;
  for (std::size_t i = 0; i < n; ++i) {
    nan = nan || std::isnan(x[i]);
    largest = std::max(largest, static_cast<long double>(x[i]));
  }
  if (nan || !std::isfinite(largest)) {
    std::fill(y.begin(), y.end(), kNaN<long double>);
    return y;
  }
  long double total = 0;  // n·2^-64 relative at worst: far below an ulp for any n here
  for (std::size_t i = 0; i < n; ++i) total += std::exp(static_cast<long double>(x[i]) - largest);
  for (std::size_t i = 0; i < n; ++i) {
    y[i] = std::exp(static_cast<long double>(x[i]) - largest) / total;
  }
  return y;
}

template <class T>
void check_softmax(const T* x, const T* y, std::size_t n, const std::string& context) {
  const std::vector<long double> exact = softmax_oracle(x, n);
  Failures failures;
  for (std::size_t i = 0; i < n; ++i) {
    const double ulps = ulp_error(y[i], static_cast<Wider<T>>(exact[i]));
    if (ulps > 4) {
      failures.add([&] {
        return "y[" + std::to_string(i) + "] (x = " + show_value(x[i]) + ") = " + show_value(y[i]) +
               " (" + show_ulps(ulps) + ")";
      });
    }
  }
  CHECK_MESSAGE(failures.none(), context, ": ", failures.report());
}

TEST_CASE("softmax is within 4 ulp per element, every size and alignment, in place too") {
  Random random(21);
  for (std::size_t n : sizes()) {
    for (std::size_t offset : kOffsets) {
      for (float spread : {10.0f, 60.0f}) {  // 60: outputs down to e^-120, denormals included
        Buffer<float> x(n, offset), y(n, 1 - offset), in_place(n, offset);
        for (float& v : x) v = random.uniform<float>(-spread, spread);
        const std::string context =
            "softmax n = " + std::to_string(n) + ", offset " + std::to_string(offset) +
            ", x in [-" + std::to_string(int(spread)) + ", " + std::to_string(int(spread)) + "]";
        softmax(n, x.data(), y.data());
        check_softmax(x.data(), y.data(), n, context);
        std::copy(x.begin(), x.end(), in_place.begin());
        softmax(n, in_place.data(), in_place.data());
        check_softmax(x.data(), in_place.data(), n, context + ", in place");
      }
    }
  }
}

TEST_CASE("softmax special values: stable for huge inputs, -Inf masks, NaN and +Inf poison") {
  CHECK_NOTHROW(softmax(0, static_cast<const float*>(nullptr), static_cast<float*>(nullptr)));
  Random random(22);
  for (std::size_t n : sizes()) {
    if (n == 0 || n > 200) continue;
    CAPTURE(n);
    Buffer<float> x(n, 1), y(n, 0);
    // Inputs whose exponentials overflow f32: only differences matter.
    for (float& v : x) v = random.uniform<float>(1e4f, 1e4f + 50.0f);
    softmax(n, x.data(), y.data());
    check_softmax(x.data(), y.data(), n, "huge inputs");

    std::fill(x.begin(), x.end(), 3.0f);  // constant: 1/n each
    softmax(n, x.data(), y.data());
    check_softmax(x.data(), y.data(), n, "constant input");

    for (std::size_t p = 0; p < n; ++p) {
      CAPTURE(p);
      for (float& v : x) v = random.uniform<float>(-5.0f, 5.0f);
      if (n > 1) {
        x[p] = -kInf<float>;  // masked: exactly 0, the others renormalized
        softmax(n, x.data(), y.data());
        CHECK(y[p] == 0.0f);
        check_softmax(x.data(), y.data(), n, "one -Inf");
      }
      x[p] = kNaN<float>;
      softmax(n, x.data(), y.data());
      CHECK(std::all_of(y.begin(), y.end(), [](float v) { return std::isnan(v); }));
      x[p] = kInf<float>;
      softmax(n, x.data(), y.data());
      CHECK(std::all_of(y.begin(), y.end(), [](float v) { return std::isnan(v); }));
    }
    std::fill(x.begin(), x.end(), -kInf<float>);
    softmax(n, x.data(), y.data());
    CHECK(std::all_of(y.begin(), y.end(), [](float v) { return std::isnan(v); }));
  }
  const float one = 7.5f;
  float y = 0;
  softmax(1, &one, &y);
  CHECK(y == 1.0f);
}

}  // namespace
}  // namespace coheriq::kernels::testing
