// sin, cos, tan, asin, acos, atan and atan2 of the engine in effect, f32 and f64: within 1 ulp of a
// long double oracle (glibc's long double functions: exact argument reduction, 11 more bits than
// f64) for every finite input, huge ones included, and bitwise the reference engine's results (one
// algorithm, src/math/trig-inl.h, run by every engine: docs/kernels.md).
#include <doctest/doctest.h>

#include <coheriq/kernels.hpp>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "oracle.hpp"
#include "reference/reference.hpp"
#include "support.hpp"

namespace coheriq::kernels::testing {
namespace {

namespace ref = coheriq::kernels::reference;

template <class T>
using Kernel = void (*)(std::size_t, const T*, T*);

template <class T>
struct TrigKernel {
  const char* name;
  Kernel<T> run;        // the public kernel: the engine in effect
  Kernel<T> reference;  // the reference engine's
  Wide (*oracle)(Wide);
  double bound;  // ulps, docs/kernels.md
};

Wide sin_oracle(Wide x) { return std::sin(x); }
Wide cos_oracle(Wide x) { return std::cos(x); }
Wide tan_oracle(Wide x) { return std::tan(x); }
Wide atan_oracle(Wide x) { return std::atan(x); }
Wide asin_oracle(Wide x) { return std::asin(x); }
Wide acos_oracle(Wide x) { return std::acos(x); }

template <class T>
std::vector<TrigKernel<T>> trig_kernels() {
  return {{"sin", &coheriq::kernels::sin, &ref::sin<T>, &sin_oracle, 1.0},
          {"cos", &coheriq::kernels::cos, &ref::cos<T>, &cos_oracle, 1.0},
          {"tan", &coheriq::kernels::tan, &ref::tan<T>, &tan_oracle, 1.0},
          {"atan", &coheriq::kernels::atan, &ref::atan<T>, &atan_oracle, 1.0},
          {"asin", &coheriq::kernels::asin, &ref::asin<T>, &asin_oracle, 1.0},
          {"acos", &coheriq::kernels::acos, &ref::acos<T>, &acos_oracle, 1.0}};
}

// |y - exact| in ulps of T at the exact value (the spacing of its binade; 2^-149 or 2^-1074
// among denormals); NaN must meet NaN.
template <class T>
double ulp_error(T y, Wide exact) {
  if (std::isnan(exact) || std::isnan(y)) return std::isnan(exact) && std::isnan(y) ? 0 : 1e300;
  int e = 0;
  std::frexp(exact, &e);  // |exact| = m·2^e, m in [0.5, 1)
  constexpr int kMinExponent = std::numeric_limits<T>::min_exponent;
  if (exact == 0 || e < kMinExponent) e = kMinExponent;
  const Wide spacing = std::ldexp(Wide(1), e - std::numeric_limits<T>::digits);
  return double(std::fabs(Wide(y) - exact) / spacing);
}

template <class T>
T from_bits(std::uint64_t bits) {
  using Bits = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
  const auto b = static_cast<Bits>(bits);
  T v;
  std::memcpy(&v, &b, sizeof v);
  return v;
}

// Measures a kernel over inputs: the engine's worst error and where, every error beyond the
// bound, and every difference from the reference engine's bits.
template <class T>
void check_trig(const TrigKernel<T>& kernel, const std::vector<T>& inputs,
                const std::string& sweep) {
  const std::size_t n = inputs.size();
  Buffer<T> x(n, 0), y(n, 0), reference_y(n, 0);
  std::copy(inputs.begin(), inputs.end(), x.begin());
  kernel.run(n, x.data(), y.data());
  kernel.reference(n, x.data(), reference_y.data());
  Failures beyond_bound, differ;
  double worst = 0;
  T worst_x = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const Wide exact = kernel.oracle(Wide(x[i]));
    const double error = ulp_error(y[i], exact);
    if (error > worst) {
      worst = error;
      worst_x = x[i];
    }
    if (error > kernel.bound) {
      beyond_bound.add([&] {
        return "x = " + show(double(x[i])) + ": got " + show(double(y[i])) + ", exact " +
               show(double(exact)) + " (" + std::to_string(error) + " ulp)";
      });
    }
    if (!same(y[i], reference_y[i])) {
      differ.add([&] {
        return "x = " + show(double(x[i])) + ": got " + show(double(y[i])) + ", reference " +
               show(double(reference_y[i]));
      });
    }
  }
  const std::string name = std::string(kernel.name) + "." + type_name<T>();
  report(name + " [" + engine() + "]: max " + std::to_string(worst) +
         " ulp at x = " + show(double(worst_x)) + " over " + std::to_string(n) + " " + sweep +
         " inputs; bound " + std::to_string(kernel.bound) + " ulp");
  CHECK_MESSAGE(beyond_bound.none(), name, " (", sweep, "): ", beyond_bound.report());
  CHECK_MESSAGE(differ.none(), name, " differs from the reference (", sweep,
                "): ", differ.report());
}

// Around the multiples of π/2 (the reduction's hardest inputs) and its range boundaries.
template <class T>
void add_multiples_of_half_pi(std::vector<T>& inputs, std::mt19937_64& random, std::size_t count,
                              double max_k) {
  for (std::size_t i = 0; i < count; ++i) {
    const double k = std::floor(std::ldexp(double(random() >> 11), -53) * max_k);
    T v = static_cast<T>(Wide(k) * 1.57079632679489661923132169163975144L);
    for (int step = 0; step < 3; ++step) {
      inputs.push_back(v);
      inputs.push_back(-v);
      v = std::nextafter(v, kInf<T>);
    }
  }
}

TEST_CASE(
    "sin, cos f32: a strided sweep of every bit pattern within 1 ulp, bitwise the reference") {
  // Every 1021st pattern (quick: 65521st): 4.2M inputs over both signs, denormals, huge values,
  // infinities and NaNs; then the neighbourhoods of multiples of π/2 up to 2^40 and the
  // Cody-Waite boundary 2^30.
  const std::uint64_t stride = quick() ? 65521 : 1021;
  std::vector<float> inputs;
  for (std::uint64_t bits = 0; bits <= 0xffffffffu; bits += stride) {
    inputs.push_back(from_bits<float>(bits));
  }
  std::mt19937_64 random(31);
  add_multiples_of_half_pi(inputs, random, quick() ? 200 : 20000, 1e12);
  for (float v : {0x1p30f, 0x1.fffffep29f, 0x1.000002p30f, 0x1.fffffep127f, 0x1p-149f, 0.0f, -0.0f,
                  kInf<float>, -kInf<float>, kNaN<float>}) {
    inputs.push_back(v);
    inputs.push_back(-v);
  }
  for (const auto& kernel : trig_kernels<float>()) check_trig(kernel, inputs, "strided");
}

TEST_CASE(
    "sin, cos, atan f64: dense random and special sweeps within 1 ulp, bitwise the reference") {
  const std::size_t count = quick() ? 20000 : 400000;
  std::mt19937_64 random(32);
  const auto uniform = [&](double a, double b) {
    return a + (b - a) * std::ldexp(double(random() >> 11), -53);
  };
  std::vector<double> ordinary, wide, near_multiples;
  for (std::size_t i = 0; i < count; ++i) {
    ordinary.push_back(uniform(-10, 10));
    ordinary.push_back(uniform(-1e6, 1e6));
    // asin and acos: their domain, and the neighbourhoods of ±1/2 (a change of method) and ±1.
    ordinary.push_back(uniform(-1, 1));
    ordinary.push_back((random() % 2 ? 1.0 : 0.5) -
                       std::ldexp(uniform(-1, 1), -int(random() % 52)));
    // Every magnitude from 2^-1074 to DBL_MAX (the huge ones through Payne-Hanek), and every
    // binade evenly.
    wide.push_back(from_bits<double>(random() & 0xffefffffffffffffu));
    wide.push_back(std::ldexp(uniform(-1, 1), int(random() % 1100) - 1075));
    wide.push_back(std::ldexp(uniform(-1, 1), int(random() % 1000) + 20));
  }
  add_multiples_of_half_pi(near_multiples, random, count / 4, 1e15);
  // The double closest to a multiple of π/2 (about 2^-61 away), and boundaries.
  for (double v : {0x1.6ac5b262ca1ffp+849, 0x1p30, 0x1.fffffffffffffp29, 0x1.0000000000001p30,
                   1e299, 0x1.fffffffffffffp1023, 0x1p-1074, 0x1p-1022, 0.0, -0.0, kInf<double>,
                   -kInf<double>, kNaN<double>}) {
    near_multiples.push_back(v);
    near_multiples.push_back(-v);
  }
  for (const auto& kernel : trig_kernels<double>()) {
    check_trig(kernel, ordinary, "ordinary (|x| <= 1e6, and near ±1/2 and ±1)");
    check_trig(kernel, wide, "every-magnitude");
    check_trig(kernel, near_multiples, "near-multiples-of-pi/2");
  }
}

// Equal as numbers and in sign (sin(-0) = -0), or both NaN.
template <class T>
bool matches(T got, T expected) {
  return (std::isnan(got) && std::isnan(expected)) ||
         (got == expected && std::signbit(got) == std::signbit(expected));
}

TEST_CASE_TEMPLATE("sin, cos, tan: exact special values alone and inside vectors", T, float,
                   double) {
  struct Case {
    Kernel<T> run;
    const char* name;
    T x;
    T expected;
  };
  constexpr T inf = kInf<T>, nan = kNaN<T>, tiny = kDenormMin<T>;
  const Case cases[] = {
      {&coheriq::kernels::sin, "sin", T(0), T(0)},   {&coheriq::kernels::sin, "sin", -T(0), -T(0)},
      {&coheriq::kernels::sin, "sin", inf, nan},     {&coheriq::kernels::sin, "sin", -inf, nan},
      {&coheriq::kernels::sin, "sin", nan, nan},     {&coheriq::kernels::sin, "sin", tiny, tiny},
      {&coheriq::kernels::sin, "sin", -tiny, -tiny}, {&coheriq::kernels::cos, "cos", T(0), T(1)},
      {&coheriq::kernels::cos, "cos", -T(0), T(1)},  {&coheriq::kernels::cos, "cos", inf, nan},
      {&coheriq::kernels::cos, "cos", -inf, nan},    {&coheriq::kernels::cos, "cos", nan, nan},
      {&coheriq::kernels::cos, "cos", tiny, T(1)},   {&coheriq::kernels::tan, "tan", T(0), T(0)},
      {&coheriq::kernels::tan, "tan", -T(0), -T(0)}, {&coheriq::kernels::tan, "tan", inf, nan},
      {&coheriq::kernels::tan, "tan", nan, nan},     {&coheriq::kernels::tan, "tan", -tiny, -tiny},
  };
  // Alone (n = 1: the tail path) and at every position of a 33-element array of ordinary
  // values (the vector body, and the lanes redone one by one beside ordinary ones).
  for (const Case& c : cases) {
    const std::string name = std::string(c.name) + "." + type_name<T>();
    CAPTURE(name);
    CAPTURE(show(double(c.x)));
    T y = 0;
    c.run(1, &c.x, &y);
    CHECK_MESSAGE(matches(y, c.expected), "got ", show(double(y)), ", expected ",
                  show(double(c.expected)));
    for (std::size_t p = 0; p < 33; ++p) {
      std::vector<T> xs(33, T(0.25)), ys(33);
      xs[p] = c.x;
      c.run(xs.size(), xs.data(), ys.data());
      CHECK_MESSAGE(matches(ys[p], c.expected), "at position ", p, ": got ", show(double(ys[p])),
                    ", expected ", show(double(c.expected)));
      std::vector<T> expected(33);
      const Kernel<T> sin_kernel = &coheriq::kernels::sin;
      const Kernel<T> cos_kernel = &coheriq::kernels::cos;
      (c.run == sin_kernel   ? &ref::sin<T>
       : c.run == cos_kernel ? &ref::cos<T>
                             : &ref::tan<T>)(33, xs.data(), expected.data());
      for (std::size_t i = 0; i < 33; ++i) CHECK(same(ys[i], expected[i]));
    }
  }
}

TEST_CASE_TEMPLATE("sin, cos: every size and alignment, in place, with huge lanes mixed in", T,
                   float, double) {
  std::mt19937_64 random(33);
  for (const auto& kernel : trig_kernels<T>()) {
    Failures failures;
    for (std::size_t n : sizes()) {
      for (std::size_t offset : kOffsets) {
        Buffer<T> x(n, offset), y(n, 1 - offset), in_place(n, offset), expected(n, 0);
        for (T& v : x) {
          const double u = std::ldexp(double(random() >> 11), -53);
          // One lane in 16 beyond the Cody-Waite range.
          v = random() % 16 == 0 ? T(u * 1e30) : T(u * 200 - 100);
        }
        kernel.run(n, x.data(), y.data());
        kernel.reference(n, x.data(), expected.data());
        std::copy(x.begin(), x.end(), in_place.begin());
        kernel.run(n, in_place.data(), in_place.data());
        for (std::size_t i = 0; i < n; ++i) {
          if (!same(y[i], expected[i]) || !same(in_place[i], expected[i])) {
            failures.add([&] {
              return "n = " + std::to_string(n) + ", x[" + std::to_string(i) +
                     "] = " + show(double(x[i])) + ": got " + show(double(y[i])) + " (in place " +
                     show(double(in_place[i])) + "), reference " + show(double(expected[i]));
            });
          }
        }
      }
    }
    CHECK_MESSAGE(failures.none(), kernel.name, ".", type_name<T>(), ": ", failures.report());
  }
}

// ------------------------------ atan2

template <class T>
void check_atan2(const std::vector<T>& ys, const std::vector<T>& xs, const std::string& sweep) {
  const std::size_t n = ys.size();
  Buffer<T> y(n, 0), x(n, 1), z(n, 0), reference_z(n, 0);
  std::copy(ys.begin(), ys.end(), y.begin());
  std::copy(xs.begin(), xs.end(), x.begin());
  coheriq::kernels::atan2(n, y.data(), x.data(), z.data());
  ref::atan2<T>(n, y.data(), x.data(), reference_z.data());
  Failures beyond_bound, differ;
  double worst = 0;
  std::string where = "nowhere";
  for (std::size_t i = 0; i < n; ++i) {
    const Wide exact = std::atan2(Wide(y[i]), Wide(x[i]));
    const double error = ulp_error(z[i], exact);
    const auto at = [&] {
      return "(y, x) = (" + show(double(y[i])) + ", " + show(double(x[i])) + ")";
    };
    if (error > worst) {
      worst = error;
      where = at();
    }
    if (error > 1.0) {
      beyond_bound.add([&] {
        return at() + ": got " + show(double(z[i])) + ", exact " + show(double(exact)) + " (" +
               std::to_string(error) + " ulp)";
      });
    }
    if (!same(z[i], reference_z[i])) {
      differ.add([&] {
        return at() + ": got " + show(double(z[i])) + ", reference " + show(double(reference_z[i]));
      });
    }
  }
  const std::string name = std::string("atan2.") + type_name<T>();
  report(name + " [" + engine() + "]: max " + std::to_string(worst) + " ulp at " + where +
         " over " + std::to_string(n) + " " + sweep + " inputs; bound 1 ulp");
  CHECK_MESSAGE(beyond_bound.none(), name, " (", sweep, "): ", beyond_bound.report());
  CHECK_MESSAGE(differ.none(), name, " differs from the reference (", sweep,
                "): ", differ.report());
}

TEST_CASE_TEMPLATE(
    "atan2: random pairs of every magnitude and ratio within 1 ulp, bitwise the reference", T,
    float, double) {
  const std::size_t count = quick() ? 20000 : 1000000;
  std::mt19937_64 random(34);
  const auto unit = [&] { return std::ldexp(double(random() >> 11), -53) * 2 - 1; };
  std::vector<T> ys, xs;
  for (std::size_t i = 0; i < count; ++i) {
    // Ordinary pairs, pairs of any exponents (ratios from denormal to overflowing), pairs near
    // the region boundaries y/x = tan(pi/8), tan(3pi/8), and random bit patterns.
    const double x = unit() * 10;
    ys.push_back(T(unit() * 10));
    xs.push_back(T(x));
    const int range = sizeof(T) == 4 ? 300 : 2200;
    ys.push_back(T(std::ldexp(unit(), int(random() % range) - range / 2)));
    xs.push_back(T(std::ldexp(unit(), int(random() % range) - range / 2)));
    const double ratio = random() % 2 ? 0.41421356237309503 : 2.4142135623730949;
    ys.push_back(T(x * ratio * (1 + unit() * 1e-6)));
    xs.push_back(T(x));
    ys.push_back(from_bits<T>(random()));
    xs.push_back(from_bits<T>(random()));
  }
  check_atan2(ys, xs, "random");
}

TEST_CASE_TEMPLATE("asin, acos, atan, atan2: C99 special values alone and inside vectors", T, float,
                   double) {
  constexpr T inf = kInf<T>, nan = kNaN<T>, zero = 0;
  const T pi = T(3.14159265358979323846264338327950288L);
  const T half_pi = T(1.57079632679489661923132169163975144L);
  const T quarter_pi = T(0.785398163397448309615660845819875721L);
  const T three_quarter_pi = T(2.35619449019234492884698253745962716L);
  struct Case {
    T y, x, expected;
  };
  const Case cases[] = {
      {zero, zero, zero},
      {-zero, zero, -zero},
      {zero, -zero, pi},
      {-zero, -zero, -pi},
      {zero, T(-2), pi},
      {-zero, T(-2), -pi},
      {zero, T(2), zero},
      {-zero, T(2), -zero},
      {T(3), zero, half_pi},
      {T(-3), -zero, -half_pi},
      {inf, inf, quarter_pi},
      {-inf, inf, -quarter_pi},
      {inf, -inf, three_quarter_pi},
      {-inf, -inf, -three_quarter_pi},
      {inf, T(5), half_pi},
      {-inf, T(-5), -half_pi},
      {T(5), inf, zero},
      {T(-5), inf, -zero},
      {T(5), -inf, pi},
      {T(-5), -inf, -pi},
      {nan, T(1), nan},
      {T(1), nan, nan},
      {nan, nan, nan},
  };
  for (const Case& c : cases) {
    CAPTURE(show(double(c.y)));
    CAPTURE(show(double(c.x)));
    T z = 0;
    coheriq::kernels::atan2(1, &c.y, &c.x, &z);
    CHECK_MESSAGE(matches(z, c.expected), "got ", show(double(z)), ", expected ",
                  show(double(c.expected)));
    for (std::size_t p = 0; p < 33; ++p) {
      std::vector<T> ys(33, T(0.5)), xs(33, T(-0.25)), zs(33);
      ys[p] = c.y;
      xs[p] = c.x;
      coheriq::kernels::atan2(33, ys.data(), xs.data(), zs.data());
      CHECK_MESSAGE(matches(zs[p], c.expected), "at position ", p, ": got ", show(double(zs[p])));
    }
  }
  const T asin_cases[][2] = {
      {zero, zero}, {-zero, -zero}, {T(1), half_pi}, {T(-1), -half_pi},
      {T(2), nan},  {inf, nan},     {nan, nan},      {kDenormMin<T>, kDenormMin<T>}};
  for (const auto& c : asin_cases) {
    T y = 0;
    coheriq::kernels::asin(1, &c[0], &y);
    CHECK_MESSAGE(matches(y, c[1]), "asin(", show(double(c[0])), ") = ", show(double(y)));
  }
  const T acos_cases[][2] = {{zero, half_pi}, {-zero, half_pi}, {T(1), zero}, {T(-1), pi},
                             {T(-2), nan},    {-inf, nan},      {nan, nan}};
  for (const auto& c : acos_cases) {
    T y = 0;
    coheriq::kernels::acos(1, &c[0], &y);
    CHECK_MESSAGE(matches(y, c[1]), "acos(", show(double(c[0])), ") = ", show(double(y)));
  }
  const T atan_cases[][2] = {{zero, zero},      {-zero, -zero}, {inf, half_pi},
                             {-inf, -half_pi},  {nan, nan},     {kDenormMin<T>, kDenormMin<T>},
                             {T(1), quarter_pi}};
  for (const auto& c : atan_cases) {
    T y = 0;
    coheriq::kernels::atan(1, &c[0], &y);
    CHECK_MESSAGE(matches(y, c[1]), "atan(", show(double(c[0])), ") = ", show(double(y)));
  }
}

}  // namespace
}  // namespace coheriq::kernels::testing
