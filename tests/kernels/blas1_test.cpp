// BLAS-1 kernels of the engine in effect against the oracle of oracle.hpp (long double loops in
// this directory, not the reference engine, which is itself under test in kernels.reference).
// Bounds: dot/sum/asum summation_bound(n)·eps·Σ|terms| (docs/kernels.md promises n), axpy 1 ulp
// (FMA allowed), scal exact, nrm2 min(2n, 2·sqrt(n) + 8)·eps relative (the promise: 2n), iamax
// exact; sums of small integers exact whatever the order. Each bound also allows what gradual
// underflow can cost (documented per check) and the oracle's own error.
#include <doctest/doctest.h>

#include <coheriq/kernels.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "oracle.hpp"
#include "reference/reference.hpp"
#include "support.hpp"

namespace coheriq::kernels::testing {
namespace {

namespace ref = coheriq::kernels::reference;

// Kernel names are std::string throughout: doctest prints a const char* as a pointer.
std::string where(const std::string& kernel, std::size_t n, std::size_t offset,
                  const std::string& values) {
  return kernel + (kernel.empty() ? "" : " ") + "n = " + std::to_string(n) + ", offset " +
         std::to_string(offset) + ", " + values + " values";
}

// A reduction's result against the oracle:
// |got - exact| <= summation_bound(n)·eps·magnitude + the oracle's error + slack.
template <class T>
void check_reduction(const std::string& kernel, T got, Wide expected, std::size_t n, Wide magnitude,
                     double slack, const std::string& context, Worst& worst) {
  const double error = double(std::fabs(Wide(got) - expected));
  const double bound =
      (summation_bound(n) * double(kEps<T>) + oracle_error(n)) * double(magnitude) + slack;
  CHECK_MESSAGE(error <= bound, context, ": ", kernel, " = ", show(got), ", oracle ",
                show(double(expected)), ", error ", error, " > bound ", bound);
  if (magnitude > 0) {
    worst.offer(error / (double(kEps<T>) * double(magnitude)), [&] { return context; });
  }
}

// ------------------------------ The oracle itself

// The reference is what runs by default and what engines inherit, so its own accuracy is
// checked as well on inputs whose exact results naive (or merely Kahan-compensated) arithmetic
// gets wrong.
TEST_CASE("the reference engine's reductions are exact where naive arithmetic is not") {
  const double cancelling[] = {1.0, 1e100, 1.0, -1e100};  // Kahan's summation gives 0
  CHECK(ref::sum(4, cancelling) == 2.0);
  // (1 + 2^-30)(1 - 2^-30) - 1 = -2^-60: rounding the product first gives 0.
  const double x[] = {1.0 + 0x1p-30, -1.0}, y[] = {1.0 - 0x1p-30, 1.0};
  CHECK(ref::dot(2, x, y) == -0x1p-60);
  const float xf[] = {1.0f + 0x1p-12f, -1.0f}, yf[] = {1.0f - 0x1p-12f, 1.0f};
  CHECK(ref::dot(2, xf, yf) == -0x1p-24f);
  // 3-4-5 triangles far outside the range where squares are representable, down to denormals.
  const double huge[] = {0x3p1000, 0x4p1000}, tiny[] = {0x3p-1074, 0x4p-1074};
  CHECK(ref::nrm2(2, huge) == 0x5p1000);
  CHECK(ref::nrm2(2, tiny) == 0x5p-1074);
  const float huge_f[] = {0x3p100f, 0x4p100f}, tiny_f[] = {0x3p-149f, 0x4p-149f};
  CHECK(ref::nrm2(2, huge_f) == 0x5p100f);
  CHECK(ref::nrm2(2, tiny_f) == 0x5p-149f);
}

// Each f64 product of the reference is exact (src/reference/compensated.hpp: Dekker's product
// where that is exact, std::fma elsewhere), so dot(a, -p; b, 1) with p = a·b rounded is the
// product's rounding error, which std::fma gives exactly: the same value at every exponent
// (normal, subnormal, overflowing ones skipped; a product that underflows to zero gives fma's -0
// where the sum is +0) and at the ends of Dekker's range (2^995 for a factor, 2^-960 and 2^1020
// for the product).
TEST_CASE("the reference engine's f64 dot recovers each product's rounding error exactly") {
  Random random(1103);
  const auto check = [](double a, double b) {
    const double p = a * b;
    if (!std::isfinite(p)) return;
    const double x[] = {a, -p}, y[] = {b, 1.0};
    const double got = ref::dot(2, x, y), want = std::fma(a, b, -p);
    CHECK_MESSAGE(got == want, "a = ", show(a), ", b = ", show(b), ": ", show(got),
                  " against fma's ", show(want));
  };
  for (int i = 0; i < 20000; ++i) check(random.wide<double>(1074), random.wide<double>(1074));
  const double m = 1.0 + 0x1p-30 + 0x1p-52;  // a factor whose product with itself is inexact
  for (double edge : {0x1p995, 0x1p-960, 0x1p1020}) {
    for (double side : {1 - 0x1p-53, 1.0, 1 + 0x1p-52}) {
      check(edge * side * m, m);
      check(std::sqrt(edge) * side * m, std::sqrt(edge) * m);
      check(-edge * side, 0.75 * m);
    }
  }
}

// ------------------------------ dot, sum, asum

TEST_CASE_TEMPLATE(
    "dot, sum and asum are within min(n, 2 sqrt(n) + 8)*eps*sum|terms| of the oracle", T, float,
    double) {
  Random random(1);
  Worst worst_dot, worst_sum, worst_asum;
  for (std::size_t n : sizes()) {
    for (std::size_t offset : kOffsets) {
      for (Values values : {Values::kUniform, Values::kWide}) {
        Buffer<T> x(n, offset), y(n, offset);
        fill(x.data(), n, values, random);
        fill(y.data(), n, values, random);
        const Wide products =
            pairwise_sum(0, n, [&](std::size_t i) { return std::fabs(Wide(x[i]) * Wide(y[i])); });
        const Wide magnitudes = oracle_asum(n, x.data());
        const std::string context = where("", n, offset, name_of(values));
        // Each product may also lose up to denorm_min/2 to gradual underflow.
        check_reduction("dot", dot(n, x.data(), y.data()), oracle_dot(n, x.data(), y.data()), n,
                        products, double(n) * double(kDenormMin<T>), context, worst_dot);
        check_reduction("sum", sum(n, x.data()), oracle_sum(n, x.data()), n, magnitudes, 0.0,
                        context, worst_sum);
        check_reduction("asum", asum(n, x.data()), magnitudes, n, magnitudes, 0.0, context,
                        worst_asum);
      }
    }
  }
  const std::string type = type_name<T>();
  const std::string bound = "min(n, 2 sqrt(n) + 8) (promised: n)";
  report_worst("dot." + type, worst_dot, "eps*sum|x*y|", bound);
  report_worst("sum." + type, worst_sum, "eps*sum|x|", bound);
  report_worst("asum." + type, worst_asum, "eps*sum|x|", bound);
}

// Small integers: every partial sum, in any order and with or without FMA, is an integer below
// 2^24, so exact in f32 and f64. Any engine must then return the exact result, which no
// tolerance hides: a kernel that drops, repeats or misplaces one element (the last one, one past
// a block boundary, one of a large array only) is off by at least 1.
TEST_CASE_TEMPLATE("dot, sum, asum and nrm2 of small integers are exact at every size", T, float,
                   double) {
  Random random(10);
  for (std::size_t n : sizes()) {
    for (std::size_t offset : kOffsets) {
      // |x| <= 8 and |y| <= 2: |Σ x·y| <= 16·n < 2^24 for every size the tests use.
      REQUIRE(16 * n < (std::size_t{1} << 24));
      Buffer<T> x(n, offset), y(n, offset), small(n, offset);
      long long dot_exact = 0, sum_exact = 0, asum_exact = 0, squares_exact = 0;
      for (std::size_t i = 0; i < n; ++i) {
        // The last element is never 0, so losing it always shows.
        const long long xi = i + 1 == n ? 7 : static_cast<long long>(random.index(17)) - 8;
        const long long yi = i + 1 == n ? -2 : static_cast<long long>(random.index(5)) - 2;
        const long long si = i + 1 == n ? 3 : static_cast<long long>(random.index(9)) - 4;
        x[i] = T(xi);
        y[i] = T(yi);
        small[i] = T(si);
        dot_exact += xi * yi;
        sum_exact += xi;
        asum_exact += xi < 0 ? -xi : xi;
        squares_exact += si * si;  // |small| <= 4: Σ small² <= 16·n
      }
      const std::string context = where("", n, offset, "small integer");
      CHECK_MESSAGE(dot(n, x.data(), y.data()) == T(dot_exact), context,
                    ": dot = ", show(dot(n, x.data(), y.data())), ", exact ", dot_exact);
      CHECK_MESSAGE(sum(n, x.data()) == T(sum_exact), context, ": sum = ", show(sum(n, x.data())),
                    ", exact ", sum_exact);
      CHECK_MESSAGE(asum(n, x.data()) == T(asum_exact), context,
                    ": asum = ", show(asum(n, x.data())), ", exact ", asum_exact);
      // The sum of squares is exact too; only the square root rounds (once in T, or once in f64
      // and again in f32): within 1 ulp of the exact root.
      const Wide root = std::sqrt(Wide(squares_exact));
      const T got = nrm2(n, small.data());
      CHECK_MESSAGE(double(std::fabs(Wide(got) - root)) <= ulp(T(root)), context,
                    ": nrm2 = ", show(got), ", exact sqrt(", squares_exact,
                    ") = ", show(double(root)));
    }
  }
}

// asum of 128 KiB up to 1 MiB takes its own loop on the AVX-512 engines (half-width loads,
// blas1-inl.h), which sizes() never reaches: the first and last sizes of that range and an odd
// one, exact on small integers, and Inf and NaN from the half-width head and from the tail.
TEST_CASE_TEMPLATE("asum between 128 KiB and 1 MiB is exact and propagates Inf and NaN", T, float,
                   double) {
  Random random(11);
  const std::size_t first = (std::size_t{128} << 10) / sizeof(T);
  const std::size_t last = (std::size_t{1} << 20) / sizeof(T) - 1;
  for (std::size_t n : {first, first + 37, last}) {
    for (std::size_t offset : kOffsets) {
      Buffer<T> x(n, offset);
      long long exact = 0;
      for (std::size_t i = 0; i < n; ++i) {
        const long long xi = i + 1 == n ? -7 : static_cast<long long>(random.index(9)) - 4;
        x[i] = T(xi);
        exact += xi < 0 ? -xi : xi;
      }
      const std::string context = where("asum", n, offset, "small integer");
      CHECK_MESSAGE(asum(n, x.data()) == T(exact), context, ": ", show(asum(n, x.data())),
                    ", exact ", exact);
      for (std::size_t p : {std::size_t{0}, n / 2, n - 1}) {
        const T saved = x[p];
        x[p] = -kInf<T>;
        CHECK_MESSAGE(asum(n, x.data()) == kInf<T>, context, ": -Inf at ", p);
        x[p] = kNaN<T>;
        CHECK_MESSAGE(std::isnan(asum(n, x.data())), context, ": NaN at ", p);
        x[p] = saved;
      }
    }
  }
}

// Past a million elements, where blocking may take paths that sizes() never reaches: a sum that
// lost its tail only for n > 1,100,000 passed every size up to 1,000,003, and on random data one
// lost element is about 1/n of the result, far inside any bound. Values in {-1, 0, 1} and one 2
// keep every partial sum an integer below 2^24 in f32, exact in any order, so sum, asum, dot
// and the sum of squares are exact (nrm2 within the 1 ulp of its root) and iamax is the 2's
// index. The first and last 64 elements are -1 and +1, so that losing any of them shows.
// f32 sizes just past 2^22 and just below 2^24, f64 past 2^25 (quick: past 2^20).
TEST_CASE_TEMPLATE("sum, asum, dot, nrm2 and iamax are exact past a million elements", T, float,
                   double) {
  std::vector<std::size_t> lengths = {4194307, 16777213};
  if (sizeof(T) == 8) lengths = {(std::size_t{1} << 25) + 3};
  if (quick()) lengths = {1048579};
  for (std::size_t n : lengths) {
    // x is n elements at an odd offset; y = x + 1 (so dot also sees a misaligned operand).
    Buffer<T> storage(n + 1, 1);
    T* const x = storage.data();
    const T* const y = x + 1;
    long long sum_exact = 0, asum_exact = 0, dot_exact = 0, squares_exact = 0;
    std::uint64_t state = n;
    long long previous = 0;
    for (std::size_t i = 0; i <= n; ++i) {
      state = state * 6364136223846793005u + 1442695040888963407u;
      long long v = i < 64 ? -1 : i + 64 >= n ? 1 : static_cast<long long>(state >> 62) % 3 - 1;
      if (i == n - 1) v = 2;  // the largest |x|, in the tail
      x[i] = T(v);
      if (i > 0) dot_exact += previous * v;  // x[i - 1]·y[i - 1], y[i - 1] = x[i]
      if (i < n) {
        sum_exact += v;
        asum_exact += v < 0 ? -v : v;
        squares_exact += v * v;
      }
      previous = v;
    }
    // So that every partial sum is exact in T (below 2^24 for f32).
    REQUIRE(squares_exact < (1LL << std::numeric_limits<T>::digits));
    const std::string context = where("", n, 1, "{-1, 0, 1, 2}");
    const T got_sum = sum(n, x), got_asum = asum(n, x), got_dot = dot(n, x, y);
    CHECK_MESSAGE(got_sum == T(sum_exact), context, ": sum = ", show(got_sum), ", exact ",
                  sum_exact);
    CHECK_MESSAGE(got_asum == T(asum_exact), context, ": asum = ", show(got_asum), ", exact ",
                  asum_exact);
    CHECK_MESSAGE(got_dot == T(dot_exact), context, ": dot = ", show(got_dot), ", exact ",
                  dot_exact);
    const Wide root = std::sqrt(Wide(squares_exact));
    const T got_nrm2 = nrm2(n, x);
    CHECK_MESSAGE(double(std::fabs(Wide(got_nrm2) - root)) <= ulp(T(root)), context,
                  ": nrm2 = ", show(got_nrm2), ", exact sqrt(", squares_exact, ")");
    CHECK_MESSAGE(iamax(n, x) == n - 1, context, ": iamax = ", iamax(n, x), ", expected ", n - 1);
  }
}

TEST_CASE_TEMPLATE("dot, sum and asum propagate Inf and NaN from any position", T, float, double) {
  Random random(2);
  for (std::size_t n : sizes()) {
    if (n == 0 || n > 200) continue;  // every position of every lane and tail, small sizes
    Buffer<T> x(n, 1), y(n, 0);
    for (std::size_t p = 0; p < n; ++p) {
      CAPTURE(n);
      CAPTURE(p);
      fill(x.data(), n, Values::kUniform, random);
      for (T& v : y) v = random.uniform<T>(T(0.5), T(1));  // positive: signs come from x
      x[p] = kInf<T>;
      CHECK(sum(n, x.data()) == kInf<T>);
      CHECK(asum(n, x.data()) == kInf<T>);
      CHECK(dot(n, x.data(), y.data()) == kInf<T>);
      x[p] = -kInf<T>;
      CHECK(sum(n, x.data()) == -kInf<T>);
      CHECK(asum(n, x.data()) == kInf<T>);
      CHECK(dot(n, x.data(), y.data()) == -kInf<T>);
      if (n > 1) {  // +Inf and -Inf: NaN, whichever lanes they fall in
        x[n - 1 - p == p ? (p + 1) % n : n - 1 - p] = kInf<T>;
        CHECK(std::isnan(sum(n, x.data())));
        CHECK(asum(n, x.data()) == kInf<T>);
        CHECK(std::isnan(dot(n, x.data(), y.data())));
      }
      fill(x.data(), n, Values::kUniform, random);
      x[p] = kNaN<T>;
      CHECK(std::isnan(sum(n, x.data())));
      CHECK(std::isnan(asum(n, x.data())));
      CHECK(std::isnan(dot(n, x.data(), y.data())));
      CHECK(std::isnan(dot(n, y.data(), x.data())));
    }
  }
}

TEST_CASE_TEMPLATE("dot, sum and asum handle denormals", T, float, double) {
  Random random(3);
  for (std::size_t n : sizes()) {
    Buffer<T> x(n, 1), y(n, 0);
    for (std::size_t i = 0; i < n; ++i) {
      // Multiples of denorm_min up to 2^20 of them: all below the smallest normal.
      x[i] = T(random.uniform<double>(-1, 1) * 1048576.0) * kDenormMin<T>;
      y[i] = random.uniform<T>(T(-1), T(1));
    }
    const Wide magnitudes = oracle_asum(n, x.data());
    const Wide products =
        pairwise_sum(0, n, [&](std::size_t i) { return std::fabs(Wide(x[i]) * Wide(y[i])); });
    Worst ignored;
    const std::string context = where("", n, 1, "denormal");
    // Sums of denormals are exact; products of denormals underflow by up to denorm_min/2 each.
    check_reduction("sum", sum(n, x.data()), oracle_sum(n, x.data()), n, magnitudes, 0.0, context,
                    ignored);
    check_reduction("asum", asum(n, x.data()), magnitudes, n, magnitudes, 0.0, context, ignored);
    check_reduction("dot", dot(n, x.data(), y.data()), oracle_dot(n, x.data(), y.data()), n,
                    products, double(n) * double(kDenormMin<T>), context, ignored);
  }
}

// ------------------------------ nrm2

// The tests' nrm2 bound in eps relative: min(2n, 2·sqrt(n) + 8) (the promise: 2n). A sum of
// squares has positive terms, so its relative error is the summation's; the root halves it and
// adds one rounding.
inline double nrm2_bound(std::size_t n) {
  return std::fmin(2.0 * double(n), 2.0 * std::sqrt(double(n)) + 8.0);
}

// |got - expected| <= nrm2_bound(n)·eps·expected, plus denorm_min: a denormal result cannot
// carry a relative precision.
template <class T>
void check_nrm2(T got, Wide expected, std::size_t n, const std::string& context, Worst& worst) {
  REQUIRE_MESSAGE(expected <= Wide(std::numeric_limits<T>::max()), context,
                  ": the test's input overflows nrm2");
  const double error = double(std::fabs(Wide(got) - expected));
  const double bound = (nrm2_bound(n) * double(kEps<T>) + oracle_error(n)) * double(expected) +
                       double(kDenormMin<T>);
  CHECK_MESSAGE(error <= bound, context, ": nrm2 = ", show(got), ", oracle ",
                show(double(expected)), ", error ", error, " > bound ", bound);
  // A subnormal result has no relative precision to report (its bound is denorm_min).
  if (expected >= Wide(std::numeric_limits<T>::min()))
    worst.offer(error / (double(kEps<T>) * double(expected)), [&] { return context; });
}

TEST_CASE_TEMPLATE("nrm2 is within min(2n, 2 sqrt(n) + 8)*eps relative of the oracle, at any scale",
                   T, float, double) {
  Random random(4);
  // Scales whose squares overflow (huge) or underflow (tiny, denormal) in T: the kernel must
  // scale. The huge one leaves room for the 2^21 of wide values and sqrt(n) growth.
  const int huge = sizeof(T) == 4 ? 90 : 900;
  const int tiny = sizeof(T) == 4 ? -100 : -1000;
  const int denormal = sizeof(T) == 4 ? -140 : -1060;
  Worst worst;
  for (std::size_t n : sizes()) {
    for (std::size_t offset : kOffsets) {
      for (int scale : {0, huge, tiny, denormal}) {
        for (Values values : {Values::kUniform, Values::kWide}) {
          Buffer<T> x(n, offset);
          fill(x.data(), n, values, random);
          for (T& v : x) v = std::ldexp(v, scale);
          const std::string context =
              where("", n, offset, name_of(values)) + " times 2^" + std::to_string(scale);
          check_nrm2(nrm2(n, x.data()), oracle_nrm2(n, x.data()), n, context, worst);
        }
      }
      // One huge element among tiny ones, at the end: the scale changes late in the pass.
      if (n > 0) {
        Buffer<T> x(n, offset);
        fill(x.data(), n, Values::kUniform, random);
        for (T& v : x) v = std::ldexp(v, tiny);
        x[n - 1] = std::ldexp(T(1.5), huge);
        check_nrm2(nrm2(n, x.data()), oracle_nrm2(n, x.data()), n,
                   where("", n, offset, "tiny then one huge"), worst);
      }
    }
  }
  report_worst(std::string("nrm2.") + type_name<T>(), worst, "eps*nrm2",
               "min(2n, 2 sqrt(n) + 8) (promised: 2n)");
}

TEST_CASE_TEMPLATE("nrm2 special values: 0 for n = 0, +Inf for an Inf, NaN for a NaN", T, float,
                   double) {
  CHECK(nrm2(0, static_cast<const T*>(nullptr)) == T(0));
  Random random(5);
  for (std::size_t n : sizes()) {
    if (n == 0 || n > 200) continue;
    Buffer<T> x(n, 1);
    for (std::size_t p = 0; p < n; ++p) {
      CAPTURE(n);
      CAPTURE(p);
      fill(x.data(), n, Values::kUniform, random);
      x[p] = -kInf<T>;
      CHECK(nrm2(n, x.data()) == kInf<T>);
      x[p] = kNaN<T>;
      CHECK(std::isnan(nrm2(n, x.data())));
      if (n > 1) {
        x[p == 0 ? n - 1 : 0] = kInf<T>;  // NaN wins over Inf, before or after it
        CHECK(std::isnan(nrm2(n, x.data())));
      }
    }
    std::fill(x.begin(), x.end(), T(0));
    CHECK(nrm2(n, x.data()) == T(0));
  }
}

// ------------------------------ iamax

TEST_CASE_TEMPLATE("iamax is the oracle's index exactly", T, float, double) {
  Random random(6);
  for (std::size_t n : sizes()) {
    for (std::size_t offset : kOffsets) {
      for (Values values : {Values::kUniform, Values::kWide}) {
        Buffer<T> x(n, offset);
        fill(x.data(), n, values, random);
        CHECK_MESSAGE(iamax(n, x.data()) == oracle_iamax(n, x.data()),
                      where("iamax", n, offset, name_of(values)));
      }
    }
  }
  CHECK(iamax(0, static_cast<const T*>(nullptr)) == 0);
}

TEST_CASE_TEMPLATE("iamax: first of ties, first NaN, infinities, at every position", T, float,
                   double) {
  Random random(7);
  for (std::size_t n : sizes()) {
    if (n == 0 || n > 200) continue;
    Buffer<T> x(n, 1);
    std::fill(x.begin(), x.end(), T(0));
    CHECK(iamax(n, x.data()) == 0);  // all zeros
    for (std::size_t p = 0; p < n; ++p) {
      CAPTURE(n);
      CAPTURE(p);
      fill(x.data(), n, Values::kUniform, random);
      x[p] = T(-2);  // the largest magnitude, negative
      CHECK(iamax(n, x.data()) == p);
      for (std::size_t q = p + 1; q < n; q += 3) x[q] = (q % 2) != 0 ? T(2) : T(-2);
      CHECK(iamax(n, x.data()) == p);  // later ties, either sign, lose
      x[p] = kInf<T>;
      CHECK(iamax(n, x.data()) == p);
      x[n - 1] = -kInf<T>;
      CHECK(iamax(n, x.data()) == p);
      x[n - 1 - p] = kNaN<T>;  // a NaN beats everything, before or after the largest
      CHECK(iamax(n, x.data()) == n - 1 - p);
      x[n - 1] = kNaN<T>;
      CHECK(iamax(n, x.data()) == n - 1 - p);  // the first NaN
    }
  }
  // The largest element far into a large array, past any block boundary.
  const std::size_t n = large_size();
  Buffer<T> x(n, 1);
  fill(x.data(), n, Values::kUniform, random);
  for (std::size_t p : {n / 2 + 1, n - 1}) {
    CAPTURE(p);
    x[p] = T(4);
    CHECK(iamax(n, x.data()) == p);
    x[p] = T(0);
  }
}

// ------------------------------ scal, axpy

TEST_CASE_TEMPLATE("scal is exactly a*x in T, special values included", T, float, double) {
  Random random(8);
  const T specials[] = {T(0),
                        -T(0),
                        kInf<T>,
                        -kInf<T>,
                        kNaN<T>,
                        kDenormMin<T>,
                        std::numeric_limits<T>::min(),
                        std::numeric_limits<T>::max()};
  for (std::size_t n : sizes()) {
    for (std::size_t offset : kOffsets) {
      Buffer<T> x(n, offset), expected(n, 0);
      fill(x.data(), n, Values::kWide, random);
      for (std::size_t i = 0; i < n && i < 64; i += 5) x[i] = specials[(i / 5) % 8];
      for (T a : {T(0), T(-1), T(2.5), T(1e-30), kDenormMin<T>, kInf<T>, kNaN<T>}) {
        Buffer<T> got(n, offset);
        std::copy(x.begin(), x.end(), got.begin());
        std::copy(x.begin(), x.end(), expected.begin());
        scal(n, a, got.data());
        for (T& v : expected) v = a * v;  // one IEEE product, rounded once
        Failures failures;
        for (std::size_t i = 0; i < n; ++i) {
          if (!same(got[i], expected[i])) {
            failures.add([&] {
              return "x[" + std::to_string(i) + "] = " + show(x[i]) + ": got " + show(got[i]) +
                     ", expected " + show(expected[i]);
            });
          }
        }
        CHECK_MESSAGE(failures.none(), where("scal", n, offset, "wide"), ", a = ", show(a), ": ",
                      failures.report());
      }
    }
  }
}

// a·x + y per element in long double, rounded to T (for f32 the product is exact, for f64 it
// errs by 2^-64 relative: far inside the ulp tolerance below).
template <class T>
void oracle_axpy(T a, const Buffer<T>& x, Buffer<T>& y) {
  for (std::size_t i = 0; i < y.size(); ++i) y[i] = T(Wide(a) * Wide(x[i]) + Wide(y[i]));
}

// Per element: within 1 ulp of the oracle's a·x + y, plus half an ulp of a·x for engines that
// round the product first (docs/kernels.md allows FMA, so both are accepted).
template <class T>
void check_axpy(const std::string& what, T a, const Buffer<T>& x, const Buffer<T>& y0,
                const Buffer<T>& got, const Buffer<T>& expected) {
  Failures failures;
  for (std::size_t i = 0; i < got.size(); ++i) {
    const T e = expected[i], g = got[i];
    bool ok;
    if (std::isnan(e) || std::isinf(e)) {
      ok = same(g, e);
    } else {
      const T product = a * x[i];
      ok = std::isfinite(g) && std::fabs(double(g) - double(e)) <= std::max(ulp(e), ulp(g)) +
                                                                       0.5 * ulp(product) +
                                                                       double(kDenormMin<T>);
    }
    if (!ok) {
      failures.add([&] {
        return "i = " + std::to_string(i) + ": a = " + show(a) + ", x = " + show(x[i]) +
               ", y = " + show(y0[i]) + ": got " + show(g) + ", oracle " + show(e);
      });
    }
  }
  CHECK_MESSAGE(failures.none(), what, ": ", failures.report());
}

TEST_CASE_TEMPLATE("axpy is within 1 ulp of the oracle (fused or not), in place too", T, float,
                   double) {
  Random random(9);
  for (std::size_t n : sizes()) {
    for (std::size_t offset : kOffsets) {
      for (Values values : {Values::kUniform, Values::kWide}) {
        const T a = random.wide<T>(4);
        Buffer<T> x(n, offset), y0(n, offset), got(n, offset), expected(n, 0);
        fill(x.data(), n, values, random);
        fill(y0.data(), n, values, random);
        // Specials early in the array, where they cover vector bodies and tails alike.
        if (n > 3) {
          x[1] = kNaN<T>;
          x[2] = kInf<T>;
          y0[3] = -kInf<T>;
        }
        std::copy(y0.begin(), y0.end(), got.begin());
        std::copy(y0.begin(), y0.end(), expected.begin());
        axpy(n, a, x.data(), got.data());
        oracle_axpy(a, x, expected);
        check_axpy(where("axpy", n, offset, name_of(values)), a, x, y0, got, expected);

        // y == x: x += a·x.
        std::copy(x.begin(), x.end(), got.begin());
        std::copy(x.begin(), x.end(), expected.begin());
        axpy(n, a, got.data(), got.data());
        oracle_axpy(a, x, expected);
        check_axpy(where("axpy in place", n, offset, name_of(values)), a, x, x, got, expected);
      }
    }
  }
}

// Fails on purpose, so that kernels.failure_messages can check what a failure prints (the
// kernel's name, not a pointer). Skipped in every other run.
TEST_CASE("deliberate failures: what their messages print" * doctest::skip()) {
  Worst ignored;
  check_reduction<float>("dot", 1.0f, Wide(2), 4, Wide(2), 0.0, where("", 4, 0, "deliberate"),
                         ignored);
  Buffer<float> x(1, 0), y0(1, 0), got(1, 0), expected(1, 0);
  x[0] = 1.0f;
  y0[0] = 0.0f;
  got[0] = 3.0f;
  expected[0] = 1.0f;
  check_axpy(where("axpy", 1, 0, "deliberate"), 1.0f, x, y0, got, expected);
}

}  // namespace
}  // namespace coheriq::kernels::testing
