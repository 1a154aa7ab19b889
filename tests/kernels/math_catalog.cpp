// The vector math catalogue (math_catalog.hpp): one row per function.
//
// A row: the name; the public kernels and the reference engine's, per type; the oracle (a generic
// lambda, instantiated for double and long double); the bounds in ulps, f32 and f64
// (docs/kernels.md); the ranges the random sweeps draw from; the special values (C99 Annex F: the
// signed zeros, infinities, poles, domain errors, overflow and underflow). NaN -> NaN is checked
// for every function without being listed.
#include "math_catalog.hpp"

#include <coheriq/kernels.hpp>

#include <algorithm>
#include <cstring>
#include <random>

#include "reference/reference.hpp"

namespace coheriq::kernels::testing {
namespace {

namespace ck = coheriq::kernels;
namespace ref = coheriq::kernels::reference;

constexpr long double kInfinity = std::numeric_limits<long double>::infinity();
constexpr long double kNaN = std::numeric_limits<long double>::quiet_NaN();

// The kernels of a unary function, by overload: `float_kernel` etc. may be nullptr for a type
// the function does not have.
template <class T>
Kernels<T> unary(void (*run)(std::size_t, const T*, T*),
                 void (*reference)(std::size_t, const T*, T*)) {
  Kernels<T> k;
  k.run = run;
  k.reference = reference;
  return k;
}
template <class T>
Kernels<T> binary(void (*run)(std::size_t, const T*, const T*, T*),
                  void (*reference)(std::size_t, const T*, const T*, T*)) {
  Kernels<T> k;
  k.run2 = run;
  k.reference2 = reference;
  return k;
}

// π and its fractions, correctly rounded to each type when cast.
constexpr long double kPi = 3.14159265358979323846264338327950288L;
constexpr long double kHalfPi = kPi / 2;
constexpr long double kQuarterPi = kPi / 4;
constexpr long double kThreeQuarterPi = 2.35619449019234492884698253745962716L;

// The oracles of gelu and gelu_tanh, in W (double for the f32 kernels, long double for the f64
// ones). erfc(v) and σ(w) magnify the relative error of their argument by about 2v² and |w| (up
// to 1,600 and 750 where the f64 results underflow), so W's rounding of v = -x/√2 or of w would
// cost the f64 oracle most of a double ulp: the argument is formed as hi + lo (the constants as
// long double hi + lo) and the function corrected to first order by the low part.
template <class W>
W gelu_oracle(W x) {
  if (std::isinf(x)) return x > 0 ? x : W(-0.0);
  const W c = static_cast<W>(0xb504f333f9de6484p-64L);  // 1/√2
  const W c_lo = static_cast<W>(0xb2fb1366ea957d3ep-129L);
  const W two_over_sqrt_pi = static_cast<W>(0x906eba8214db688dp-63L);
  const W v = -(x * c);
  const W v_lo = -(std::fma(x, c, v) + x * c_lo);
  // erfc(v + v_lo) = erfc v - v_lo·(2/√π)·e^(-v²)
  return x / 2 * (std::erfc(v) - v_lo * two_over_sqrt_pi * std::exp(-v * v));
}
template <class W>
W gelu_tanh_oracle(W x) {
  if (std::isinf(x)) return x > 0 ? x : W(-0.0);
  // w = 2√(2/π)·(x + 0.044715x³) = x·c1 + x³·c2
  const W c1 = static_cast<W>(0xcc42299ea1b28468p-63L);
  const W c1_lo = static_cast<W>(0xfcb3c500bab8e2ffp-128L);
  const W c2 = static_cast<W>(0x922279526c5a57a5p-67L);
  const W c2_lo = static_cast<W>(-0x843a29d1c7079669p-133L);
  const W a = x * c1;
  const W a_lo = std::fma(x, c1, -a) + x * c1_lo;
  const W x2 = x * x;
  const W x3 = x2 * x;
  const W x3_lo = std::fma(x2, x, -x3) + std::fma(x, x, -x2) * x;
  const W b = x3 * c2;
  const W b_lo = std::fma(x3, c2, -b) + x3_lo * c2 + x3 * c2_lo;
  const W w = a + b;
  const W b_part = w - a;
  W w_lo = (a - (w - b_part)) + (b - b_part) + a_lo + b_lo;
  if (!std::isfinite(w_lo)) w_lo = 0;  // x³ beyond W's range: w is ±Inf
  // x/2·(1 + tanh(w/2)) = x·σ(w), σ(w + w_lo) = σ(w)·(1 + w_lo·(1 - σ(w)))
  const W e = std::exp(-w);
  if (std::isinf(e)) return x * W(0);  // σ(w) below W's range: -0
  const W sigma = 1 / (1 + e);
  return x * (sigma + sigma * w_lo * (e * sigma));
}

std::vector<MathFunction> make_catalogue() {
  std::vector<MathFunction> all;

  // ------------------------------ exp, log

  all.push_back({"exp",
                 1,
                 unary<float>(&ck::exp, &ref::exp<float>),
                 unary<double>(&ck::exp, &ref::exp<double>),
                 unary_oracle([](auto x) { return std::exp(x); }),
                 1.0,
                 1.0,
                 {{-104, 89}, {-746, 710}, {-1, 1}},
                 {{0.0L, 1.0L},
                  {-0.0L, 1.0L},
                  {kInfinity, kInfinity},
                  {-kInfinity, 0.0L},
                  {1e4L, kInfinity},
                  {-1e4L, 0.0L},
                  {std::numeric_limits<double>::max(), kInfinity},
                  {-std::numeric_limits<double>::max(), 0.0L},
                  {0x1p-149L, 1.0L},
                  {-0x1p-149L, 1.0L}}});

  all.push_back({"exp2",
                 1,
                 unary<float>(&ck::exp2, &ref::exp2<float>),
                 unary<double>(&ck::exp2, &ref::exp2<double>),
                 unary_oracle([](auto x) { return std::exp2(x); }),
                 1.0,
                 1.0,
                 {{-151, 129}, {-1076, 1025}, {-1, 1}},
                 {{0.0L, 1.0L},
                  {-0.0L, 1.0L},
                  {kInfinity, kInfinity},
                  {-kInfinity, 0.0L},
                  {1e5L, kInfinity},
                  {-1e5L, 0.0L},
                  {1.0L, 2.0L},
                  {-1.0L, 0.5L},
                  {10.0L, 1024.0L},
                  {-126.0L, 0x1p-126L}}});

  all.push_back({"expm1",
                 1,
                 unary<float>(&ck::expm1, &ref::expm1<float>),
                 unary<double>(&ck::expm1, &ref::expm1<double>),
                 unary_oracle([](auto x) { return std::expm1(x); }),
                 1.0,
                 1.0,
                 {{-104, 89}, {-746, 710}, {-1, 1}, {-1e-3L, 1e-3L}},
                 {{0.0L, 0.0L},
                  {-0.0L, -0.0L},
                  {kInfinity, kInfinity},
                  {-kInfinity, -1.0L},
                  {1e4L, kInfinity},
                  {-1e4L, -1.0L},
                  {0x1p-149L, 0x1p-149L},
                  {-0x1p-149L, -0x1p-149L}}});

  // The logarithms: poles at ±0, NaN below 0.
  const std::vector<Special> log_specials = {
      {0.0L, -kInfinity}, {-0.0L, -kInfinity},    {-1.0L, kNaN}, {-0x1p-149L, kNaN},
      {-kInfinity, kNaN}, {kInfinity, kInfinity}, {1.0L, 0.0L}};
  const std::vector<Range> log_ranges = {{0, 4}, {0, 1e30L}, {0, 1e300L}, {0.5L, 2}};
  all.push_back({"log", 1, unary<float>(&ck::log, &ref::log<float>),
                 unary<double>(&ck::log, &ref::log<double>),
                 unary_oracle([](auto x) { return std::log(x); }), 1.0, 1.0, log_ranges,
                 log_specials});
  std::vector<Special> log2_specials = log_specials;
  log2_specials.insert(log2_specials.end(), {{2.0L, 1.0L}, {0.5L, -1.0L}, {1024.0L, 10.0L}});
  all.push_back({"log2", 1, unary<float>(&ck::log2, &ref::log2<float>),
                 unary<double>(&ck::log2, &ref::log2<double>),
                 unary_oracle([](auto x) { return std::log2(x); }), 1.0, 1.0, log_ranges,
                 log2_specials});
  all.push_back({"log10", 1, unary<float>(&ck::log10, &ref::log10<float>),
                 unary<double>(&ck::log10, &ref::log10<double>),
                 unary_oracle([](auto x) { return std::log10(x); }), 1.0, 1.0, log_ranges,
                 log_specials});
  all.push_back({"log1p",
                 1,
                 unary<float>(&ck::log1p, &ref::log1p<float>),
                 unary<double>(&ck::log1p, &ref::log1p<double>),
                 unary_oracle([](auto x) { return std::log1p(x); }),
                 1.0,
                 1.0,
                 {{-1, 4}, {-1e-3L, 1e-3L}, {-1, 1e30L}, {-1, 1e300L}},
                 {{0.0L, 0.0L},
                  {-0.0L, -0.0L},
                  {-1.0L, -kInfinity},
                  {-2.0L, kNaN},
                  {-kInfinity, kNaN},
                  {kInfinity, kInfinity},
                  {0x1p-149L, 0x1p-149L},
                  {-0x1p-149L, -0x1p-149L}}});

  // ------------------------------ Trigonometric

  // sin, cos, tan: exact reduction for every finite x (the random bit patterns reach DBL_MAX).
  const std::vector<Range> trig_ranges = {{-10, 10}, {-1e6L, 1e6L}, {-1e300L, 1e300L}};
  all.push_back({"sin",
                 1,
                 unary<float>(&ck::sin, &ref::sin<float>),
                 unary<double>(&ck::sin, &ref::sin<double>),
                 unary_oracle([](auto x) { return std::sin(x); }),
                 1.0,
                 1.0,
                 trig_ranges,
                 {{0.0L, 0.0L},
                  {-0.0L, -0.0L},
                  {kInfinity, kNaN},
                  {-kInfinity, kNaN},
                  {0x1p-149L, 0x1p-149L},
                  {-0x1p-149L, -0x1p-149L},
                  {0x1p-1074L, 0x1p-1074L}}});
  all.push_back({"cos",
                 1,
                 unary<float>(&ck::cos, &ref::cos<float>),
                 unary<double>(&ck::cos, &ref::cos<double>),
                 unary_oracle([](auto x) { return std::cos(x); }),
                 1.0,
                 1.0,
                 trig_ranges,
                 {{0.0L, 1.0L},
                  {-0.0L, 1.0L},
                  {kInfinity, kNaN},
                  {-kInfinity, kNaN},
                  {0x1p-149L, 1.0L},
                  {-0x1p-1074L, 1.0L}}});
  all.push_back({"tan",
                 1,
                 unary<float>(&ck::tan, &ref::tan<float>),
                 unary<double>(&ck::tan, &ref::tan<double>),
                 unary_oracle([](auto x) { return std::tan(x); }),
                 1.0,
                 1.0,
                 trig_ranges,
                 {{0.0L, 0.0L},
                  {-0.0L, -0.0L},
                  {kInfinity, kNaN},
                  {-kInfinity, kNaN},
                  {-0x1p-149L, -0x1p-149L},
                  {0x1p-1074L, 0x1p-1074L}}});
  // asin, acos: the domain, and the neighbourhoods of ±1/2 (a change of method) and of ±1.
  const std::vector<Range> arc_ranges = {
      {-1, 1}, {0.49L, 0.51L}, {-0.51L, -0.49L}, {0.999L, 1}, {-1, -0.999L}};
  all.push_back({"asin",
                 1,
                 unary<float>(&ck::asin, &ref::asin<float>),
                 unary<double>(&ck::asin, &ref::asin<double>),
                 unary_oracle([](auto x) { return std::asin(x); }),
                 1.0,
                 1.0,
                 arc_ranges,
                 {{0.0L, 0.0L},
                  {-0.0L, -0.0L},
                  {1.0L, kHalfPi},
                  {-1.0L, -kHalfPi},
                  {2.0L, kNaN},
                  {kInfinity, kNaN},
                  {-kInfinity, kNaN},
                  {0x1p-149L, 0x1p-149L},
                  {-0x1p-1074L, -0x1p-1074L}}});
  all.push_back({"acos",
                 1,
                 unary<float>(&ck::acos, &ref::acos<float>),
                 unary<double>(&ck::acos, &ref::acos<double>),
                 unary_oracle([](auto x) { return std::acos(x); }),
                 1.0,
                 1.0,
                 arc_ranges,
                 {{0.0L, kHalfPi},
                  {-0.0L, kHalfPi},
                  {1.0L, 0.0L},
                  {-1.0L, kPi},
                  {-2.0L, kNaN},
                  {kInfinity, kNaN},
                  {-kInfinity, kNaN}}});
  all.push_back({"atan",
                 1,
                 unary<float>(&ck::atan, &ref::atan<float>),
                 unary<double>(&ck::atan, &ref::atan<double>),
                 unary_oracle([](auto x) { return std::atan(x); }),
                 1.0,
                 1.0,
                 {{-10, 10}, {-1, 1}, {-1e10L, 1e10L}},
                 {{0.0L, 0.0L},
                  {-0.0L, -0.0L},
                  {kInfinity, kHalfPi},
                  {-kInfinity, -kHalfPi},
                  {1.0L, kQuarterPi},
                  {0x1p-149L, 0x1p-149L},
                  {-0x1p-1074L, -0x1p-1074L}}});
  // atan2(y, x): the first argument y. C99 Annex F's quadrants, zeros and infinities.
  all.push_back({"atan2",
                 2,
                 binary<float>(&ck::atan2, &ref::atan2<float>),
                 binary<double>(&ck::atan2, &ref::atan2<double>),
                 binary_oracle([](auto y, auto x) { return std::atan2(y, x); }),
                 1.0,
                 1.0,
                 {{-10, 10}, {-10, 10}},
                 {{0.0L, 0.0L, 0.0L},
                  {-0.0L, -0.0L, 0.0L},
                  {0.0L, kPi, -0.0L},
                  {-0.0L, -kPi, -0.0L},
                  {0.0L, kPi, -2.0L},
                  {-0.0L, -kPi, -2.0L},
                  {0.0L, 0.0L, 2.0L},
                  {-0.0L, -0.0L, 2.0L},
                  {3.0L, kHalfPi, 0.0L},
                  {-3.0L, -kHalfPi, -0.0L},
                  {kInfinity, kQuarterPi, kInfinity},
                  {-kInfinity, -kQuarterPi, kInfinity},
                  {kInfinity, kThreeQuarterPi, -kInfinity},
                  {-kInfinity, -kThreeQuarterPi, -kInfinity},
                  {kInfinity, kHalfPi, 5.0L},
                  {-kInfinity, -kHalfPi, -5.0L},
                  {5.0L, 0.0L, kInfinity},
                  {-5.0L, -0.0L, kInfinity},
                  {5.0L, kPi, -kInfinity},
                  {-5.0L, -kPi, -kInfinity}}});

  // sinh, cosh: the end of sinh's polynomial (|x| = 1), where e^-|x| stops mattering, the f32
  // overflow threshold (89.42) and the f64 one (710.48).
  const std::vector<Range> hyperbolic_ranges = {{-2, 2}, {-30, 30}, {-90, 90}, {700, 711}};
  all.push_back({"sinh",
                 1,
                 unary<float>(&ck::sinh, &ref::sinh<float>),
                 unary<double>(&ck::sinh, &ref::sinh<double>),
                 unary_oracle([](auto x) { return std::sinh(x); }),
                 1.0,
                 1.0,
                 hyperbolic_ranges,
                 {{0.0L, 0.0L},
                  {-0.0L, -0.0L},
                  {kInfinity, kInfinity},
                  {-kInfinity, -kInfinity},
                  {1e4L, kInfinity},
                  {-1e4L, -kInfinity},
                  {711.0L, kInfinity},
                  {-711.0L, -kInfinity},
                  {0x1p-149L, 0x1p-149L},
                  {-0x1p-149L, -0x1p-149L},
                  {0x1p-1074L, 0x1p-1074L}}});
  all.push_back({"cosh",
                 1,
                 unary<float>(&ck::cosh, &ref::cosh<float>),
                 unary<double>(&ck::cosh, &ref::cosh<double>),
                 unary_oracle([](auto x) { return std::cosh(x); }),
                 1.0,
                 1.0,
                 hyperbolic_ranges,
                 {{0.0L, 1.0L},
                  {-0.0L, 1.0L},
                  {kInfinity, kInfinity},
                  {-kInfinity, kInfinity},
                  {1e4L, kInfinity},
                  {-1e4L, kInfinity},
                  {711.0L, kInfinity},
                  {-711.0L, kInfinity},
                  {0x1p-149L, 1.0L},
                  {-0x1p-1074L, 1.0L}}});

  // erf, erfc: the changes of method (f32: |x| = 1; f64: 1/2, 3/4, 3/2 and 4), where erf reaches 1
  // (f32 3.92, f64 5.93) and where erfc underflows (f32 9.19 to subnormal, 10.06 to 0; f64 26.55
  // and 27.23).
  const std::vector<Range> erf_ranges = {{-1.5L, 1.5L}, {-4.5L, 4.5L}, {-11, 11},  {-0.6L, 0.6L},
                                         {-6.5L, 6.5L}, {-28, 28},     {26, 27.5L}};
  all.push_back({"erf",
                 1,
                 unary<float>(&ck::erf, &ref::erf<float>),
                 unary<double>(&ck::erf, &ref::erf<double>),
                 unary_oracle([](auto x) { return std::erf(x); }),
                 1.0,
                 1.0,
                 erf_ranges,
                 {{0.0L, 0.0L},
                  {-0.0L, -0.0L},
                  {kInfinity, 1.0L},
                  {-kInfinity, -1.0L},
                  {10.0L, 1.0L},
                  {-10.0L, -1.0L},
                  {6.0L, 1.0L},
                  {-30.0L, -1.0L},
                  // f32: rounds to ±0; f64: erf rounds to the smallest subnormal
                  {0x1p-1074L, 0x1p-1074L},
                  {-0x1p-1074L, -0x1p-1074L}}});
  all.push_back({"erfc",
                 1,
                 unary<float>(&ck::erfc, &ref::erfc<float>),
                 unary<double>(&ck::erfc, &ref::erfc<double>),
                 unary_oracle([](auto x) { return std::erfc(x); }),
                 1.5,
                 1.5,
                 erf_ranges,
                 {{0.0L, 1.0L},
                  {-0.0L, 1.0L},
                  {kInfinity, 0.0L},
                  {-kInfinity, 2.0L},
                  {27.5L, 0.0L},
                  {30.0L, 0.0L},
                  {-6.0L, 2.0L},
                  {-30.0L, 2.0L},
                  {0x1p-149L, 1.0L},
                  {-0x1p-1074L, 1.0L}}});

  // ------------------------------ Roots and powers

  all.push_back({"sqrt",
                 1,
                 unary<float>(&ck::sqrt, &ref::sqrt<float>),
                 unary<double>(&ck::sqrt, &ref::sqrt<double>),
                 unary_oracle([](auto x) { return std::sqrt(x); }),
                 kCorrectlyRounded,
                 kCorrectlyRounded,
                 {{0, 4}, {0, 1e30L}, {0, 1e300L}},
                 {{0.0L, 0.0L},
                  {-0.0L, -0.0L},
                  {kInfinity, kInfinity},
                  {-kInfinity, kNaN},
                  {-1.0L, kNaN},
                  {-0x1p-149L, kNaN},
                  {4.0L, 2.0L},
                  {0x1p-148L, 0x1p-74L}}});

  all.push_back({"cbrt",
                 1,
                 unary<float>(&ck::cbrt, &ref::cbrt<float>),
                 unary<double>(&ck::cbrt, &ref::cbrt<double>),
                 unary_oracle([](auto x) { return std::cbrt(x); }),
                 1.0,
                 1.0,
                 {{-10, 10}, {-1e30L, 1e30L}, {-1e300L, 1e300L}, {0.5L, 8}},
                 {{0.0L, 0.0L},
                  {-0.0L, -0.0L},
                  {kInfinity, kInfinity},
                  {-kInfinity, -kInfinity},
                  {8.0L, 2.0L},
                  {-27.0L, -3.0L},
                  {0x1p-147L, 0x1p-49L}}});

  all.push_back({"pow",
                 2,
                 binary<float>(&ck::pow, &ref::pow<float>),
                 binary<double>(&ck::pow, &ref::pow<double>),
                 binary_oracle([](auto x, auto y) { return std::pow(x, y); }),
                 1.0,
                 1.0,
                 // pairs of ranges, x's then y's: ordinary powers, x near 1 with large y, and
                 // results near the ends of the range
                 {{0, 10}, {-40, 40}, {0.9L, 1.1L}, {-5000, 5000}, {0, 1e300L}, {-1.05L, 1.05L}},
                 {// y = ±0: 1, whatever x (NaN included); x = 1: 1, whatever y (NaN included)
                  {kNaN, 1.0L, 0.0L},
                  {kNaN, 1.0L, -0.0L},
                  {1.0L, 1.0L, kNaN},
                  {1.0L, 1.0L, kInfinity},
                  // x = ±0
                  {0.0L, kInfinity, -3.0L},
                  {-0.0L, -kInfinity, -3.0L},
                  {-0.0L, kInfinity, -2.0L},
                  {-0.0L, kInfinity, -0.5L},
                  {0.0L, 0.0L, 3.0L},
                  {-0.0L, -0.0L, 3.0L},
                  {-0.0L, 0.0L, 2.0L},
                  {-0.0L, 0.0L, 0.5L},
                  {-0.0L, kInfinity, -kInfinity},
                  // y = ±Inf
                  {-1.0L, 1.0L, kInfinity},
                  {-1.0L, 1.0L, -kInfinity},
                  {0.5L, kInfinity, -kInfinity},
                  {-0.5L, 0.0L, kInfinity},
                  {2.0L, 0.0L, -kInfinity},
                  {-2.0L, kInfinity, kInfinity},
                  // x = ±Inf
                  {-kInfinity, -0.0L, -3.0L},
                  {-kInfinity, 0.0L, -2.0L},
                  {-kInfinity, -kInfinity, 3.0L},
                  {-kInfinity, kInfinity, 2.5L},
                  {kInfinity, 0.0L, -0.5L},
                  {kInfinity, kInfinity, 0.5L},
                  // x < 0
                  {-2.0L, -8.0L, 3.0L},
                  {-2.0L, 4.0L, 2.0L},
                  {-2.0L, kNaN, 0.5L},
                  {-kInfinity, kNaN, kNaN},
                  // overflow and underflow, with the sign of an odd power
                  {10.0L, kInfinity, 400.0L},
                  {-10.0L, -kInfinity, 401.0L},
                  {10.0L, 0.0L, -400.0L},
                  {-10.0L, -0.0L, -401.0L},
                  // exact
                  {2.0L, 1024.0L, 10.0L},
                  {4.0L, 2.0L, 0.5L},
                  {0.5L, 2.0L, -1.0L}}});

  // ------------------------------ Hyperbolic and activations

  all.push_back({"tanh",
                 1,
                 unary<float>(&ck::tanh, &ref::tanh<float>),
                 unary<double>(&ck::tanh, &ref::tanh<double>),
                 unary_oracle([](auto x) { return std::tanh(x); }),
                 4.0,
                 4.0,
                 {{-12, 12}, {-1, 1}, {-22, 22}, {-1e-3L, 1e-3L}},
                 {{0.0L, 0.0L},
                  {-0.0L, -0.0L},
                  {kInfinity, 1.0L},
                  {-kInfinity, -1.0L},
                  {20.0L, 1.0L},
                  {-20.0L, -1.0L},
                  {30.0L, 1.0L},
                  {0x1p-149L, 0x1p-149L},
                  {-0x1p-149L, -0x1p-149L},
                  {0x1p-1074L, 0x1p-1074L},
                  {-0x1p-1000L, -0x1p-1000L}}});

  all.push_back({"sigmoid",
                 1,
                 unary<float>(&ck::sigmoid, &ref::sigmoid<float>),
                 unary<double>(&ck::sigmoid, &ref::sigmoid<double>),
                 unary_oracle([](auto x) { return 1 / (1 + std::exp(-x)); }),
                 4.0,
                 4.0,
                 {{-120, 120}, {-800, 800}, {-5, 5}},
                 {{0.0L, 0.5L},
                  {-0.0L, 0.5L},
                  {kInfinity, 1.0L},
                  {-kInfinity, 0.0L},
                  {100.0L, 1.0L},
                  {-1e4L, 0.0L}}});

  // silu x = x·σ(x): results normal while e^x is subnormal (x in [-104, -87] f32, [-745, -708]
  // f64), then gradual underflow to -0.
  all.push_back({"silu",
                 1,
                 unary<float>(&ck::silu, &ref::silu<float>),
                 unary<double>(&ck::silu, &ref::silu<double>),
                 unary_oracle([](auto x) {
                   using W = decltype(x);
                   return std::isinf(x) ? (x > 0 ? x : W(-0.0)) : x / (1 + std::exp(-x));
                 }),
                 4.0,
                 4.0,
                 {{-120, 120}, {-800, 800}, {-5, 5}, {-110, -80}, {-760, -700}},
                 {{0.0L, 0.0L},
                  {-0.0L, -0.0L},
                  {kInfinity, kInfinity},
                  {-kInfinity, -0.0L},
                  {200.0L, 200.0L},
                  {-1e4L, -0.0L},
                  {0x1p-140L, 0x1p-141L},
                  {-0x1p-1000L, -0x1p-1001L}}});

  // gelu x = x·Φ(x): -0 below about -14.3 (f32) and -38.5 (f64), after gradual underflow.
  const std::vector<Special> gelu_specials = {{0.0L, 0.0L},
                                              {-0.0L, -0.0L},
                                              {kInfinity, kInfinity},
                                              {-kInfinity, -0.0L},
                                              {1e4L, 1e4L},
                                              {-1e4L, -0.0L},
                                              {-50.0L, -0.0L},
                                              {0x1p-140L, 0x1p-141L},
                                              {-0x1p-140L, -0x1p-141L},
                                              {-0x1p-1000L, -0x1p-1001L}};
  all.push_back({"gelu",
                 1,
                 unary<float>(&ck::gelu, &ref::gelu<float>),
                 unary<double>(&ck::gelu, &ref::gelu<double>),
                 unary_oracle([](auto x) { return gelu_oracle(x); }),
                 4.0,
                 4.0,
                 {{-6, 6}, {-16, 16}, {-40, 40}, {-1e6L, 1e6L}, {-14.5L, -12}, {-39, -35}},
                 gelu_specials});
  // gelu_tanh x = x·σ(w), w = 2√(2/π)·(x + 0.044715x³): -0 below about -10.3 (f32) and -21.7
  // (f64).
  all.push_back({"gelu_tanh",
                 1,
                 unary<float>(&ck::gelu_tanh, &ref::gelu_tanh<float>),
                 unary<double>(&ck::gelu_tanh, &ref::gelu_tanh<double>),
                 unary_oracle([](auto x) { return gelu_tanh_oracle(x); }),
                 4.0,
                 4.0,
                 {{-6, 6}, {-12, 12}, {-25, 25}, {-1e6L, 1e6L}, {-11, -9}, {-22.5L, -20.5L}},
                 gelu_specials});
  return all;
}

template <class T>
T from_bits(std::uint64_t bits) {
  if constexpr (sizeof(T) == 4) {
    const auto b = static_cast<std::uint32_t>(bits);
    T v;
    std::memcpy(&v, &b, sizeof v);
    return v;
  } else {
    T v;
    std::memcpy(&v, &bits, sizeof v);
    return v;
  }
}

// Uniform in [low, high] clipped to T's finite range.
template <class T>
T draw(std::mt19937_64& engine, const Range& r) {
  const long double largest = std::numeric_limits<T>::max();
  const double low = static_cast<double>(std::max(r.low, -largest));
  const double high = static_cast<double>(std::min(r.high, largest));
  return static_cast<T>(std::uniform_real_distribution<double>(low, high)(engine));
}

}  // namespace

const std::vector<MathFunction>& math_functions() {
  static const std::vector<MathFunction> all = make_catalogue();
  return all;
}

const MathFunction* find_math_function(std::string_view name) {
  for (const MathFunction& f : math_functions()) {
    if (name == f.name) return &f;
  }
  return nullptr;
}

std::string show_ulps(double ulps) {
  if (std::isinf(ulps)) return "infinite (a NaN, an infinity or a pole missed)";
  char text[32];
  std::snprintf(text, sizeof text, "%.3f ulp", ulps);
  return text;
}

template <class T>
std::vector<T> sweep_inputs(const MathFunction& f, std::uint64_t stride, std::size_t random,
                            std::uint64_t seed) {
  std::vector<T> inputs;
  std::mt19937_64 engine(seed);
  if constexpr (sizeof(T) == 4) {
    for (std::uint64_t bits = 0; bits <= 0xffffffffu; bits += stride) {
      inputs.push_back(from_bits<T>(bits));
    }
  } else {
    (void)stride;
    for (std::size_t i = 0; i < random; ++i) inputs.push_back(from_bits<T>(engine()));
  }
  for (const Range& r : f.ranges) {
    for (std::size_t i = 0; i < random; ++i) inputs.push_back(draw<T>(engine, r));
  }
  for (const Special& s : f.specials) inputs.push_back(static_cast<T>(s.x));
  inputs.push_back(std::numeric_limits<T>::quiet_NaN());
  return inputs;
}

template <class T>
void sweep_pairs(const MathFunction& f, std::size_t random, std::uint64_t seed, std::vector<T>& x,
                 std::vector<T>& y) {
  std::mt19937_64 engine(seed);
  for (std::size_t r = 0; r + 1 < f.ranges.size(); r += 2) {
    for (std::size_t i = 0; i < random; ++i) {
      x.push_back(draw<T>(engine, f.ranges[r]));
      y.push_back(draw<T>(engine, f.ranges[r + 1]));
    }
  }
  for (std::size_t i = 0; i < random; ++i) {
    x.push_back(from_bits<T>(engine()));
    y.push_back(from_bits<T>(engine()));
  }
  for (const Special& s : f.specials) {
    x.push_back(static_cast<T>(s.x));
    y.push_back(static_cast<T>(s.y));
  }
  const T notable[] = {T(0),
                       T(-0.0),
                       T(1),
                       T(-1),
                       T(0.5),
                       T(-0.5),
                       T(2),
                       T(-2),
                       T(3),
                       T(-3),
                       T(1e-3),
                       T(1e3),
                       std::numeric_limits<T>::infinity(),
                       -std::numeric_limits<T>::infinity(),
                       std::numeric_limits<T>::quiet_NaN(),
                       std::numeric_limits<T>::max(),
                       std::numeric_limits<T>::denorm_min()};
  for (T a : notable) {
    for (T b : notable) {
      x.push_back(a);
      y.push_back(b);
    }
  }
}

template std::vector<float> sweep_inputs<float>(const MathFunction&, std::uint64_t, std::size_t,
                                                std::uint64_t);
template std::vector<double> sweep_inputs<double>(const MathFunction&, std::uint64_t, std::size_t,
                                                  std::uint64_t);
template void sweep_pairs<float>(const MathFunction&, std::size_t, std::uint64_t,
                                 std::vector<float>&, std::vector<float>&);
template void sweep_pairs<double>(const MathFunction&, std::size_t, std::uint64_t,
                                  std::vector<double>&, std::vector<double>&);

}  // namespace coheriq::kernels::testing
