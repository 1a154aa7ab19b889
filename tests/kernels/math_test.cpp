// f32 vector math of the engine in effect against f64 <cmath> oracles: exp and log within 2 ulp,
// tanh, sigmoid and softmax within 4 ulp (docs/kernels.md), ulps counted between the kernel's
// result and the oracle rounded to f32, denormal results included. The reference engine is measured
// the same way and printed alongside.
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

#include "reference/reference.hpp"
#include "support.hpp"

namespace coheriq::kernels::testing {
namespace {

namespace ref = coheriq::kernels::reference;
using Kernel = void (*)(std::size_t, const float*, float*);

float from_bits(std::uint32_t bits) {
  float v;
  std::memcpy(&v, &bits, sizeof v);
  return v;
}

// ------------------------------ Oracles and verdicts

double exp_oracle(double x) { return std::exp(x); }
double log_oracle(double x) { return std::log(x); }
double tanh_oracle(double x) { return std::tanh(x); }
double sigmoid_oracle(double x) { return 1.0 / (1.0 + std::exp(-x)); }

// How far y is from the exact value rounded to f32, in ulps; NaN must meet NaN.
constexpr std::uint64_t kNanMismatch = std::numeric_limits<std::uint64_t>::max();
std::uint64_t ulps_from(float y, double exact) {
  const auto expected = static_cast<float>(exact);
  if (std::isnan(expected) || std::isnan(y)) {
    return std::isnan(expected) && std::isnan(y) ? 0 : kNanMismatch;
  }
  return ulp_distance(y, expected);
}

std::string show_ulps(std::uint64_t ulps) {
  return ulps == kNanMismatch ? std::string("NaN mismatch") : std::to_string(ulps) + " ulp";
}

// The worst result of a kernel over an input array, and every result beyond its bound.
struct Measure {
  std::uint64_t max_ulps = 0;
  float worst_x = 0;  // where max_ulps was first reached, when it is not 0
  Failures failures;

  void check(const float* x, const float* y, std::size_t n, double (*oracle)(double),
             std::uint64_t bound) {
    for (std::size_t i = 0; i < n; ++i) {
      const double exact = oracle(x[i]);
      const std::uint64_t ulps = ulps_from(y[i], exact);
      if (ulps > max_ulps) {
        max_ulps = ulps;
        worst_x = x[i];
      }
      if (ulps > bound) {
        failures.add([&] {
          return "x = " + show(x[i]) + ": got " + show(y[i]) + ", exact " + show(exact) + " (" +
                 show_ulps(ulps) + ")";
        });
      }
    }
  }
};

struct MathKernel {
  const char* name;
  Kernel run;                // the public kernel: the engine in effect
  Kernel reference;          // the reference engine's
  double (*oracle)(double);  // f64 <cmath>
  std::uint64_t bound;       // ulps, docs/kernels.md
  float (*draw)(Random&);    // inputs of the sized tests: the kernel's interesting range
};

const MathKernel kMathKernels[] = {
    {"exp.f32", &coheriq::kernels::exp, &ref::exp, &exp_oracle, 2,
     [](Random& r) { return r.uniform<float>(-110.0f, 95.0f); }},
    {"log.f32", &coheriq::kernels::log, &ref::log, &log_oracle, 2,
     // Every positive finite f32, denormals included, evenly by bit pattern.
     [](Random& r) { return from_bits(std::uint32_t(1 + r.index(0x7f7fffffu))); }},
    {"tanh.f32", &coheriq::kernels::tanh, &ref::tanh, &tanh_oracle, 4,
     [](Random& r) { return r.uniform<float>(-12.0f, 12.0f); }},
    {"sigmoid.f32", &coheriq::kernels::sigmoid, &ref::sigmoid, &sigmoid_oracle, 4,
     [](Random& r) { return r.uniform<float>(-120.0f, 120.0f); }},
};

// Inputs where implementations switch methods or results change regime: overflow, the
// normal/denormal boundary, total underflow, 1 for log, small arguments of tanh.
const float kBoundaries[] = {
    88.7228317f,  88.7228394f,     88.7228470f, -87.3365402f,  -87.3365479f,   -103.278923f,
    -103.972084f, -103.972092f,    -104.0f,     0x1p-24f,      -0x1p-24f,      0x1p-126f,
    0x1p-149f,    0x1.fffffep127f, 1.0f,        0x1.000002p0f, 0x1.fffffep-1f, 0.5f,
    0.55f,        0.625f,          1e-20f,      1e-5f,         8.9f,           9.0f,
    9.1f,         16.6f,           17.0f,       87.0f,         -16.6f,         -17.0f,
    -88.0f,       -88.8f,          -104.5f};

// ------------------------------ exp, log, tanh, sigmoid

TEST_CASE("exp, log, tanh, sigmoid: a dense sweep of every f32 bit pattern, max ulp printed") {
  // Primes near 2^10 and 2^16: 4.2M (quick: 65.5k) inputs whose low mantissa bits take every
  // value, over both signs, denormals, infinities and NaNs; then the boundaries above.
  const std::uint64_t stride = quick() ? 65521 : 1021;
  std::vector<float> inputs;
  for (std::uint64_t bits = 0; bits <= 0xffffffffu; bits += stride) {
    inputs.push_back(from_bits(std::uint32_t(bits)));
  }
  for (float b : kBoundaries) {
    inputs.push_back(b);
    inputs.push_back(-b);
  }
  const float specials[] = {0.0f, -0.0f, kInf<float>, -kInf<float>, kNaN<float>};
  inputs.insert(inputs.end(), std::begin(specials), std::end(specials));

  const std::size_t n = inputs.size();
  Buffer<float> x(n, 0), y(n, 0), reference_y(n, 0);
  std::copy(inputs.begin(), inputs.end(), x.begin());
  for (const MathKernel& kernel : kMathKernels) {
    kernel.run(n, x.data(), y.data());
    kernel.reference(n, x.data(), reference_y.data());
    Measure engine_measure, reference_measure;
    engine_measure.check(x.data(), y.data(), n, kernel.oracle, kernel.bound);
    reference_measure.check(x.data(), reference_y.data(), n, kernel.oracle, kernel.bound);
    const std::string at =
        engine_measure.max_ulps == 0 ? "" : " at x = " + show(engine_measure.worst_x);
    report(std::string(kernel.name) + " [" + engine() + "]: max " +
           show_ulps(engine_measure.max_ulps) + at + " over " + std::to_string(n) +
           " inputs (reference: max " + show_ulps(reference_measure.max_ulps) + "); bound " +
           std::to_string(kernel.bound) + " ulp");
    CHECK_MESSAGE(engine_measure.failures.none(), std::string(kernel.name), ": ",
                  engine_measure.failures.report());
    CHECK_MESSAGE(reference_measure.failures.none(), std::string(kernel.name),
                  " (reference engine): ", reference_measure.failures.report());
  }
}

// Equal as numbers (+0 == -0), or both NaN.
bool matches(float got, float expected) {
  return (std::isnan(got) && std::isnan(expected)) || got == expected;
}

TEST_CASE("exp, log, tanh, sigmoid: exact special values") {
  struct Case {
    Kernel run;
    const char* name;
    float x;
    float expected;  // compared with ==, so +0 and -0 are equal; NaN must give NaN
  };
  constexpr float inf = kInf<float>, nan = kNaN<float>, max = 0x1.fffffep127f;
  const Case cases[] = {
      {&coheriq::kernels::exp, "exp", 0.0f, 1.0f},
      {&coheriq::kernels::exp, "exp", -0.0f, 1.0f},
      {&coheriq::kernels::exp, "exp", inf, inf},
      {&coheriq::kernels::exp, "exp", -inf, 0.0f},
      {&coheriq::kernels::exp, "exp", nan, nan},
      {&coheriq::kernels::exp, "exp", 89.0f, inf},
      {&coheriq::kernels::exp, "exp", max, inf},
      {&coheriq::kernels::exp, "exp", -110.0f, 0.0f},
      {&coheriq::kernels::exp, "exp", -max, 0.0f},
      {&coheriq::kernels::exp, "exp", 0x1p-149f, 1.0f},
      {&coheriq::kernels::log, "log", 1.0f, 0.0f},
      {&coheriq::kernels::log, "log", 0.0f, -inf},
      {&coheriq::kernels::log, "log", -0.0f, -inf},
      {&coheriq::kernels::log, "log", -1.0f, nan},
      {&coheriq::kernels::log, "log", -0x1p-149f, nan},
      {&coheriq::kernels::log, "log", -inf, nan},
      {&coheriq::kernels::log, "log", inf, inf},
      {&coheriq::kernels::log, "log", nan, nan},
      {&coheriq::kernels::tanh, "tanh", 0.0f, 0.0f},
      {&coheriq::kernels::tanh, "tanh", inf, 1.0f},
      {&coheriq::kernels::tanh, "tanh", -inf, -1.0f},
      {&coheriq::kernels::tanh, "tanh", nan, nan},
      {&coheriq::kernels::tanh, "tanh", 20.0f, 1.0f},
      {&coheriq::kernels::tanh, "tanh", -20.0f, -1.0f},
      {&coheriq::kernels::tanh, "tanh", max, 1.0f},
      {&coheriq::kernels::tanh, "tanh", -max, -1.0f},
      {&coheriq::kernels::sigmoid, "sigmoid", 0.0f, 0.5f},
      {&coheriq::kernels::sigmoid, "sigmoid", inf, 1.0f},
      {&coheriq::kernels::sigmoid, "sigmoid", -inf, 0.0f},
      {&coheriq::kernels::sigmoid, "sigmoid", nan, nan},
      {&coheriq::kernels::sigmoid, "sigmoid", 100.0f, 1.0f},
      {&coheriq::kernels::sigmoid, "sigmoid", -200.0f, 0.0f},
      {&coheriq::kernels::sigmoid, "sigmoid", max, 1.0f},
      {&coheriq::kernels::sigmoid, "sigmoid", -max, 0.0f},
  };
  // Each value alone (n = 1: the tail path) and at every position of a 33-element array whose
  // other elements are ordinary (the vector body too).
  for (const Case& c : cases) {
    const std::string name = c.name;  // doctest prints a const char* as a pointer
    CAPTURE(name);
    CAPTURE(show(c.x));
    float y = 0;
    c.run(1, &c.x, &y);
    CHECK_MESSAGE(matches(y, c.expected), "got ", show(y), ", expected ", show(c.expected));
    for (std::size_t p = 0; p < 33; ++p) {
      std::vector<float> xs(33, 0.25f), ys(33);
      xs[p] = c.x;
      c.run(xs.size(), xs.data(), ys.data());
      CHECK_MESSAGE(matches(ys[p], c.expected), "at position ", p, ": got ", show(ys[p]),
                    ", expected ", show(c.expected));
    }
  }
}

TEST_CASE("exp, log, tanh, sigmoid: every size and alignment, and in place") {
  Random random(20);
  for (const MathKernel& kernel : kMathKernels) {
    Measure measure;
    for (std::size_t n : sizes()) {
      for (std::size_t offset : kOffsets) {
        Buffer<float> x(n, offset), y(n, 1 - offset), in_place(n, offset);
        for (float& v : x) v = kernel.draw(random);
        kernel.run(n, x.data(), y.data());
        std::copy(x.begin(), x.end(), in_place.begin());
        kernel.run(n, in_place.data(), in_place.data());
        measure.check(x.data(), y.data(), n, kernel.oracle, kernel.bound);
        measure.check(x.data(), in_place.data(), n, kernel.oracle, kernel.bound);
      }
    }
    CHECK_MESSAGE(measure.failures.none(), std::string(kernel.name), ": ",
                  measure.failures.report());
  }
}

// ------------------------------ softmax

// f64 softmax of f32 inputs, with the documented special cases: a NaN, a +Inf, or all -Inf
// give NaN everywhere.
std::vector<double> softmax_oracle(const float* x, std::size_t n) {
  std::vector<double> y(n);
  double largest = -kInf<double>;
  bool nan = false;
  for (std::size_t i = 0; i < n; ++i) {
    nan = nan || std::isnan(x[i]);
    largest = std::max(largest, double(x[i]));
  }
  if (nan || !std::isfinite(largest)) {
    std::fill(y.begin(), y.end(), kNaN<double>);
    return y;
  }
  double total = 0;  // n·2^-53 relative at worst: far below an f32 ulp for any n here
  for (std::size_t i = 0; i < n; ++i) total += std::exp(double(x[i]) - largest);
  for (std::size_t i = 0; i < n; ++i) y[i] = std::exp(double(x[i]) - largest) / total;
  return y;
}

void check_softmax(const float* x, const float* y, std::size_t n, const std::string& context) {
  const std::vector<double> exact = softmax_oracle(x, n);
  Failures failures;
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint64_t ulps = ulps_from(y[i], exact[i]);
    if (ulps > 4) {
      failures.add([&] {
        return "y[" + std::to_string(i) + "] (x = " + show(x[i]) + ") = " + show(y[i]) +
               ", exact " + show(exact[i]) + " (" + show_ulps(ulps) + ")";
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
  CHECK_NOTHROW(softmax(0, nullptr, nullptr));
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
