// Helpers of the kernel tests: sizes, buffers at chosen alignments, reproducible random data,
// ulp arithmetic and compact failure reports.
//
// The binary runs under whatever engine COHERIQ_ENGINE selects and compares every public kernel
// with the tests' own oracles (oracle.hpp; docs/testing.md, "The test oracle"), never with the
// reference engine, which is under test like the others.
#pragma once

#include <coheriq/kernels.hpp>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "quick.hpp"

namespace coheriq::kernels::testing {

// ------------------------------ Run configuration

// COHERIQ_TEST_QUICK=1 (emulated runs): sizes and sweeps shrink about 50x.
using coheriq::test::quick;

// The engine the kernels run on (the domain's engine in effect).
const std::string& engine();

// Every size a kernel sees: 0, 1, lane-1, lane, lane+1 for lanes of 4, 8 and 16 elements (the
// f32 and f64 vectors of SSE, AVX and AVX-512), the same around 4x-unrolled loops, some odd
// mid sizes, and large_size().
const std::vector<std::size_t>& sizes();
// Odd and large: 1000003 natively, 20011 in quick mode.
std::size_t large_size();

// Element offsets from a 64-byte boundary that data is placed at: aligned, and misaligned by
// one element.
inline constexpr std::size_t kOffsets[] = {0, 1};

// ------------------------------ Buffers

// n elements starting `offset` elements after a 64-byte boundary.
template <class T>
class Buffer {
 public:
  Buffer(std::size_t n, std::size_t offset) : storage_(n + offset + 64 / sizeof(T)), size_(n) {
    const auto address = reinterpret_cast<std::uintptr_t>(storage_.data());
    const std::size_t skip = (64 - address % 64) % 64 / sizeof(T);
    data_ = storage_.data() + skip + offset;
  }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;

  T* data() noexcept { return data_; }
  const T* data() const noexcept { return data_; }
  std::size_t size() const noexcept { return size_; }
  T& operator[](std::size_t i) noexcept { return data_[i]; }
  const T& operator[](std::size_t i) const noexcept { return data_[i]; }
  T* begin() noexcept { return data_; }
  T* end() noexcept { return data_ + size_; }

 private:
  std::vector<T> storage_;
  std::size_t size_;
  T* data_;
};

// ------------------------------ Random data

// A fixed-seed generator: every run of every engine sees the same inputs.
class Random {
 public:
  explicit Random(std::uint64_t seed) : engine_(seed) {}

  template <class T>
  T uniform(T low, T high) {
    return std::uniform_real_distribution<T>(low, high)(engine_);
  }
  // ±2^e·m, e uniform in [-range, range], m in [1, 2): values across many binades, which is
  // what makes summation order matter.
  template <class T>
  T wide(int range) {
    const int e = std::uniform_int_distribution<int>(-range, range)(engine_);
    const T m = uniform<T>(T(1), T(2));
    return std::ldexp(coin() ? m : -m, e);
  }
  std::size_t index(std::size_t n) {
    return std::uniform_int_distribution<std::size_t>(0, n - 1)(engine_);
  }
  bool coin() { return (engine_() & 1u) != 0; }

 private:
  std::mt19937_64 engine_;
};

// The distributions BLAS-1 tests draw from.
enum class Values { kUniform, kWide };
inline const char* name_of(Values v) { return v == Values::kUniform ? "uniform" : "wide"; }

template <class T>
void fill(T* x, std::size_t n, Values values, Random& random) {
  for (std::size_t i = 0; i < n; ++i) {
    x[i] = values == Values::kUniform ? random.uniform<T>(T(-1), T(1)) : random.wide<T>(20);
  }
}

// ------------------------------ Floating point

template <class T>
inline constexpr T kEps = std::numeric_limits<T>::epsilon();
template <class T>
inline constexpr T kDenormMin = std::numeric_limits<T>::denorm_min();
template <class T>
inline constexpr T kNaN = std::numeric_limits<T>::quiet_NaN();
template <class T>
inline constexpr T kInf = std::numeric_limits<T>::infinity();

// A monotone integer image of a float: consecutive values differ by 1, +0 and -0 map to 0.
template <class T>
std::int64_t ordered(T v) {
  using Bits = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
  Bits bits;
  std::memcpy(&bits, &v, sizeof bits);
  constexpr Bits sign = Bits(1) << (8 * sizeof(T) - 1);
  const auto magnitude = static_cast<std::int64_t>(bits & ~sign);
  return (bits & sign) != 0 ? -magnitude : magnitude;
}

// Representable values from a to b (neither NaN); FLT_MAX to +Inf is 1.
template <class T>
std::uint64_t ulp_distance(T a, T b) {
  const std::int64_t d = ordered(a) - ordered(b);
  return static_cast<std::uint64_t>(d < 0 ? -d : d);
}

// The spacing of T at |v|: the distance from |v| to the next representable magnitude.
template <class T>
double ulp(T v) {
  const T magnitude = std::fabs(v);
  if (!std::isfinite(magnitude)) return std::numeric_limits<double>::infinity();
  if (magnitude == std::numeric_limits<T>::max()) {
    return double(magnitude) - double(std::nextafter(magnitude, T(0)));
  }
  return double(std::nextafter(magnitude, kInf<T>)) - double(magnitude);
}

// Bitwise equal, or both NaN.
template <class T>
bool same(T a, T b) {
  return (std::isnan(a) && std::isnan(b)) || std::memcmp(&a, &b, sizeof(T)) == 0;
}

// The tests' bound on a sum of n terms (dot, sum, asum; GEMM with n = k), in units of
// eps·Σ|terms|: min(n, 2·sqrt(n) + 8). n is docs/kernels.md's promise, which holds for any
// order of summation; the kernels sum in 8·lanes interleaved accumulators (the reference:
// compensated, about 0.5), whose rounding errors on the tests' random data grow like the square
// root of the terms per accumulator (measured worst: 68 at n = 1000003). A bound proportional to
// n is about 12% in f32 at that size and would pass a kernel that loses whole elements; see
// docs/testing.md.
inline double summation_bound(std::size_t n) {
  return std::fmin(double(n), 2.0 * std::sqrt(double(n)) + 8.0);
}

// "1.5 (0x1.8p+0)": decimal for people, hex for reproducing.
std::string show(double v);
// "f32" or "f64".
template <class T>
const char* type_name() {
  return sizeof(T) == 4 ? "f32" : "f64";
}

// ------------------------------ Failure reports

// Collects the failures of a per-element check, so one doctest assertion covers an array:
// counts them and keeps the first few descriptions.
class Failures {
 public:
  template <class Describe>
  void add(Describe&& describe) {
    if (count_++ < kKept) descriptions_ += "\n  " + describe();
  }
  bool none() const noexcept { return count_ == 0; }
  std::size_t count() const noexcept { return count_; }
  std::string report() const {
    return std::to_string(count_) + " failure(s); the first:" + descriptions_;
  }

 private:
  static constexpr std::size_t kKept = 5;
  std::size_t count_ = 0;
  std::string descriptions_;
};

// The largest value of a ratio seen so far, and where: for printing how close to its bound a
// kernel comes.
struct Worst {
  double ratio = 0.0;
  std::string where;
  template <class Describe>
  void offer(double r, Describe&& describe) {
    if (r > ratio) {
      ratio = r;
      where = describe();
    }
  }
};

// One line on stdout, always shown (ctest -V, or the log of a failing run).
void report(const std::string& line);
// "dot.f32 [avx2]: worst error 3.25 eps*sum|x*y| (n = 1000, ...); bound n": how close to its
// bound a kernel came, in the bound's own unit.
void report_worst(const std::string& kernel, const Worst& worst, const std::string& unit,
                  const std::string& bound);

// A strided vector of n elements with increment inc in its own storage, filled around the
// elements with a sentinel so that stray writes show.
template <class T>
struct Strided {
  Strided(std::size_t size, std::ptrdiff_t increment, Random& random)
      : n(size),
        inc(increment),
        span(size == 0 ? 1 : (size - 1) * std::size_t(increment < 0 ? -increment : increment) + 1),
        storage(span, T(12345)) {
    for (std::size_t i = 0; i < size; ++i) at(i) = draw(random);
  }
  // Uniform in [-1, 1) (each part of a complex T).
  static T draw(Random& random) {
    if constexpr (std::is_floating_point_v<T>) {
      return random.uniform<T>(T(-1), T(1));
    } else {
      using R = typename T::value_type;
      const R re = random.uniform<R>(R(-1), R(1));
      return T(re, random.uniform<R>(R(-1), R(1)));
    }
  }
  // Element 0: the lowest address for inc >= 0, the highest for inc < 0 (the kernels' contract).
  T* base() { return storage.data() + (inc < 0 ? span - 1 : 0); }
  T& at(std::size_t i) { return base()[std::ptrdiff_t(i) * inc]; }
  std::vector<T> gathered() {
    std::vector<T> v(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = at(i);
    return v;
  }
  // Every storage slot that is not an element still holds the sentinel.
  bool untouched_between() {
    std::vector<bool> element(span, false);
    for (std::size_t i = 0; i < n; ++i) element[std::size_t(&at(i) - storage.data())] = true;
    for (std::size_t s = 0; s < span; ++s) {
      if (!element[s] && storage[s] != T(12345)) return false;
    }
    return true;
  }
  std::size_t n;
  std::ptrdiff_t inc;
  std::size_t span;
  std::vector<T> storage;
};

}  // namespace coheriq::kernels::testing
