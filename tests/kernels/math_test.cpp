// The vector math of the engine in effect, every function of the catalogue (math_catalog.cpp):
// within its bound of an oracle one precision up (ulps as real numbers, denormal results
// included), bitwise equal to the reference engine's result (one algorithm per function runs on
// every engine), and exactly right on the special values. The maximum error of each function is
// printed. softmax and log_softmax, reductions, have their own cases below.
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
        // Bitwise the reference's (the loops' bodies, remainders and alignment), in place too;
        // and within the bound, measured in the reference engine's run: another engine's output
        // bitwise the reference's on the same inputs (the same seed) is within it too, and the
        // oracle costs more than the kernels under an emulator (long double in software).
        Verdict<T> v, v_in_place;
        v.check(f, n, x.data(), y.data(), out.data(), reference_out.data(),
                engine() == "reference");
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

// ------------------------------ softmax and log_softmax

// The two reductions, by overload.
template <class T>
struct Reduction {
  const char* name;
  bool log;
  void (*run)(std::size_t, const T*, T*);
};
template <class T>
std::vector<Reduction<T>> reductions() {
  return {{"softmax", false, &softmax}, {"log_softmax", true, &log_softmax}};
}

// Long double softmax or log_softmax, with the documented special cases: a NaN, a +Inf, or all
// -Inf give NaN everywhere. log_softmax's log Σ as log1p of the terms below the maximum plus the
// count of maxima less one, which keeps it exact where it is tiny.
template <class T>
std::vector<long double> softmax_oracle(const T* x, std::size_t n, bool log) {
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
  // n·2^-64 relative at worst: far below an ulp for any n here
  long double rest = 0, maxima = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const long double diff = static_cast<long double>(x[i]) - largest;
    if (diff == 0) {
      maxima += 1;
    } else {
      rest += std::exp(diff);
    }
  }
  const long double total = rest + maxima;
  const long double log_total = std::log1p(rest + (maxima - 1));
  for (std::size_t i = 0; i < n; ++i) {
    const long double diff = static_cast<long double>(x[i]) - largest;
    y[i] = log ? diff - log_total : std::exp(diff) / total;
  }
  return y;
}

template <class T>
void check_softmax(const Reduction<T>& f, const T* x, const T* y, std::size_t n,
                   const std::string& context) {
  const std::vector<long double> exact = softmax_oracle(x, n, f.log);
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
  CHECK_MESSAGE(failures.none(), f.name, ".", type_name<T>(), " ", context, ": ",
                failures.report());
}

TEST_CASE_TEMPLATE(
    "softmax and log_softmax are within 4 ulp per element, every size and "
    "alignment, in place too",
    T, float, double) {
  Random random(21);
  // The larger spread: outputs down to e^-120 (f32) or e^-720 (f64), denormals included.
  const T spreads[] = {T(10), sizeof(T) == 4 ? T(60) : T(360)};
  for (const Reduction<T>& f : reductions<T>()) {
    for (std::size_t n : sizes()) {
      for (std::size_t offset : kOffsets) {
        for (T spread : spreads) {
          Buffer<T> x(n, offset), y(n, 1 - offset), in_place(n, offset);
          for (T& v : x) v = random.uniform<T>(-spread, spread);
          const std::string context =
              "n = " + std::to_string(n) + ", offset " + std::to_string(offset) + ", x in [-" +
              std::to_string(int(spread)) + ", " + std::to_string(int(spread)) + "]";
          f.run(n, x.data(), y.data());
          check_softmax(f, x.data(), y.data(), n, context);
          std::copy(x.begin(), x.end(), in_place.begin());
          f.run(n, in_place.data(), in_place.data());
          check_softmax(f, x.data(), in_place.data(), n, context + ", in place");
        }
      }
    }
  }
}

TEST_CASE_TEMPLATE(
    "softmax and log_softmax special values: stable for huge inputs, -Inf masks, "
    "NaN and +Inf poison",
    T, float, double) {
  Random random(22);
  for (const Reduction<T>& f : reductions<T>()) {
    CAPTURE(f.name);
    CHECK_NOTHROW(f.run(0, static_cast<const T*>(nullptr), static_cast<T*>(nullptr)));
    for (std::size_t n : sizes()) {
      if (n == 0 || n > 200) continue;
      CAPTURE(n);
      Buffer<T> x(n, 1), y(n, 0);
      // Inputs whose exponentials overflow: only differences matter.
      for (T& v : x) v = random.uniform<T>(T(1e4), T(1e4 + 50));
      f.run(n, x.data(), y.data());
      check_softmax(f, x.data(), y.data(), n, "huge inputs");

      std::fill(x.begin(), x.end(), T(3));  // constant: 1/n each, or -ln n
      f.run(n, x.data(), y.data());
      check_softmax(f, x.data(), y.data(), n, "constant input");

      // One maximum far above the rest: log_softmax's -L is tiny there, and must stay accurate.
      for (T& v : x) v = random.uniform<T>(T(-90), T(-30));
      x[n / 2] = T(0);
      f.run(n, x.data(), y.data());
      check_softmax(f, x.data(), y.data(), n, "one maximum far above the rest");

      for (std::size_t p = 0; p < n; ++p) {
        CAPTURE(p);
        for (T& v : x) v = random.uniform<T>(T(-5), T(5));
        if (n > 1) {
          x[p] = -kInf<T>;  // masked: exactly 0 (log_softmax: -Inf), the others renormalized
          f.run(n, x.data(), y.data());
          CHECK(y[p] == (f.log ? -kInf<T> : T(0)));
          check_softmax(f, x.data(), y.data(), n, "one -Inf");
        }
        x[p] = kNaN<T>;
        f.run(n, x.data(), y.data());
        CHECK(std::all_of(y.begin(), y.end(), [](T v) { return std::isnan(v); }));
        x[p] = kInf<T>;
        f.run(n, x.data(), y.data());
        CHECK(std::all_of(y.begin(), y.end(), [](T v) { return std::isnan(v); }));
      }
      std::fill(x.begin(), x.end(), -kInf<T>);
      f.run(n, x.data(), y.data());
      CHECK(std::all_of(y.begin(), y.end(), [](T v) { return std::isnan(v); }));
    }
    const T one = T(7.5);
    T y = 0;
    f.run(1, &one, &y);
    CHECK(same(y, f.log ? T(0) : T(1)));  // log_softmax: +0
  }
}

}  // namespace
}  // namespace coheriq::kernels::testing
