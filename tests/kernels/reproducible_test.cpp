// coheriq_reproducible_digest: every kernel of the public API in the reproducible mode (issue 25;
// src/kernels/reproducible.hpp states the canonical orders), each kernel's outputs reduced to an
// FNV-1a 64 digest, one line per kernel family and transpose or side/uplo/op, sorted, then an
// "all" line over them. In the mode every engine (and every SVE vector length, every thread count)
// must print the same lines, which the committed tests/kernels/reproducible_digests.txt holds:
// a change of any kernel's order shows as that kernel's line.
//
//   coheriq_reproducible_digest [--threads N] [--print] [--expect FILE] [--mode-off]
//                               [--sve-bits BITS]
//     --threads N     set_num_threads(N) before the first use (default 1)
//     --print         write the lines to stdout (regenerating the expected file: docs/testing.md)
//     --expect FILE   compare with FILE's lines; each kernel whose digest differs is named
//     --mode-off      leave the mode off: for debugging, and for seeing which kernels follow the
//                     vector width when it is off (never in ctest: those lines differ by engine)
//     --sve-bits B    aarch64: set the SVE vector length to B bits first (prctl) and fail when
//                     the host cannot: the emulated entries' check that qemu's -cpu option took
//                     effect
// The engine is COHERIQ_ENGINE's, as in every kernel test. Exit: 0 all lines as expected, 1 a
// digest differs or a kernel failed, 2 usage, 3 the mode cannot be turned on (a failure, not a
// skip), 77 the host lacks what the engine requires (a skip, the reason printed).
//
// Inputs come from a generator of this file (splitmix64) and IEEE arithmetic only: no <random>
// distributions, no libm but ldexp (exact, or correctly rounded into subnormals), one draw per
// statement (the order of a call's arguments is the compiler's), -ffp-contract=off
// (CMakeLists.txt); so an x86-64 and an aarch64 build give the kernels the same bits, which the
// line "inputs" checks. NaN is hashed as one bit pattern: its sign and payload legitimately
// differ between ISAs, its presence does not.
#include <coheriq/coheriq.hpp>
#include <coheriq/kernels.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <fstream>
#include <limits>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#if defined(__aarch64__) && defined(__linux__)
#include <sys/auxv.h>
#include <sys/prctl.h>
#endif

#include "core/env.hpp"

namespace ck = coheriq::kernels;

namespace {

using ck::Diag;
using ck::Op;
using ck::Side;
using ck::Trans;
using ck::Uplo;
using std::size_t;

constexpr int kDigestsDiffer = 1;
constexpr int kUsage = 2;
constexpr int kNoReproducibleMode = 3;
constexpr int kSkipped = 77;  // SKIP_RETURN_CODE of the ctest entries

// ------------------------------ Types

template <class T>
struct RealOf {
  using type = T;
};
template <class T>
struct RealOf<std::complex<T>> {
  using type = T;
};
template <class T>
using Real = typename RealOf<T>::type;
template <class T>
inline constexpr bool kIsComplex = !std::is_same_v<T, Real<T>>;

template <class T>
std::string type_name() {
  if constexpr (std::is_same_v<T, float>) return "f32";
  if constexpr (std::is_same_v<T, double>) return "f64";
  if constexpr (std::is_same_v<T, std::complex<float>>) return "c32";
  if constexpr (std::is_same_v<T, std::complex<double>>) return "c64";
}

std::string name_of(Trans t) { return t == Trans::N ? "n" : "t"; }
std::string name_of(Op op) {
  switch (op) {
    case Op::N:
      return "n";
    case Op::T:
      return "t";
    case Op::C:
      return "c";
    case Op::Conj:
      return "conj";
  }
  return "?";
}
std::string name_of(Uplo u) { return u == Uplo::Upper ? "upper" : "lower"; }
std::string name_of(Side s) { return s == Side::Left ? "left" : "right"; }

constexpr Trans kTrans[] = {Trans::N, Trans::T};
constexpr Op kOps[] = {Op::N, Op::T, Op::C, Op::Conj};
constexpr Uplo kUplos[] = {Uplo::Upper, Uplo::Lower};
constexpr Side kSides[] = {Side::Left, Side::Right};
constexpr Diag kDiags[] = {Diag::NonUnit, Diag::Unit};

// ------------------------------ Digests

// FNV-1a 64 over a canonical byte form of the values: little-endian integers, every NaN as the
// quiet NaN with sign and payload 0 (the rest of a float's bits, -0 and subnormals included,
// as they are).
class Digest {
 public:
  void byte(unsigned char b) { h_ = (h_ ^ b) * 0x100000001b3ull; }
  void word(std::uint64_t w) { h_ = (h_ ^ w) * 0x100000001b3ull; }
  void u64(std::uint64_t v, int bytes = 8) {
    for (int i = 0; i < bytes; ++i) byte(static_cast<unsigned char>(v >> (8 * i)));
  }
  void value(float v) {
    std::uint32_t bits = 0x7fc00000u;
    if (!std::isnan(v)) std::memcpy(&bits, &v, sizeof bits);
    u64(bits, 4);
  }
  void value(double v) {
    std::uint64_t bits = 0x7ff8000000000000ull;
    if (!std::isnan(v)) std::memcpy(&bits, &v, sizeof bits);
    u64(bits);
  }
  template <class T>
  void value(std::complex<T> v) {
    value(v.real());
    value(v.imag());
  }
  void value(std::int32_t v) { u64(static_cast<std::uint32_t>(v), 4); }
  void value(std::uint64_t v) { u64(v); }
  template <class T>
  void values(const std::vector<T>& v) {
    for (const T& x : v) value(x);
  }
  void text(const std::string& s) {
    for (char c : s) byte(static_cast<unsigned char>(c));
  }
  std::uint64_t get() const { return h_; }

 private:
  std::uint64_t h_ = 0xcbf29ce484222325ull;
};

// One digest per line name ("gemm.f32 n.t"); a line's first word is the candidate it covers.
std::map<std::string, Digest>& lines() {
  static std::map<std::string, Digest> all;
  return all;
}
Digest& line(const std::string& name) { return lines()[name]; }

// Every input the program makes, hashed where it is made, as the line "inputs": the inputs must
// be the same bits in every build (x86-64 and aarch64 alike), and this line says so when they
// are not, before any kernel's line is blamed. (It found one: two draws of the generator in one
// constructor call, whose order the compilers chose differently.)
//
// One FNV step per element, not per byte: the inputs are several times the outputs, and qemu
// makes a byte loop over them a good part of an emulated run.
template <class T>
std::uint64_t bits_of(T v) {
  if constexpr (std::is_same_v<T, ck::bfloat16>) {
    return v.bits();
  } else if constexpr (std::is_floating_point_v<T>) {
    std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t> bits;
    std::memcpy(&bits, &v, sizeof bits);
    return bits;
  } else {
    return static_cast<std::uint64_t>(v);
  }
}
template <class T>
const std::vector<T>& input(const std::vector<T>& v) {
  Digest& d = line("inputs");
  for (const T& x : v) {
    if constexpr (kIsComplex<T>) {
      d.word(bits_of(x.real()));
      d.word(bits_of(x.imag()));
    } else {
      d.word(bits_of(x));
    }
  }
  return v;
}

// Candidates that no line names, reached through a public function whose line does.
std::set<std::string>& reached() {
  static std::set<std::string> all;
  return all;
}

// ------------------------------ Inputs

// splitmix64: fixed seed per use, so every build of every engine sees the same inputs.
class Rng {
 public:
  explicit Rng(std::uint64_t seed) : s_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (s_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  // [-1, 1) with 53 random bits: sums of such values round, so their order shows.
  double unit() {
    return static_cast<double>(static_cast<std::int64_t>(next() >> 11) - (std::int64_t{1} << 52)) *
           0x1p-52;
  }
  size_t below(size_t n) { return static_cast<size_t>(next() % n); }
  template <class T>
  T draw() {
    if constexpr (kIsComplex<T>) {
      const Real<T> re = draw<Real<T>>();
      return T(re, draw<Real<T>>());
    } else {
      return static_cast<T>(unit());
    }
  }
  // ±[0, 1)·2^e, e in [-range, range]: many binades, where the order of a sum shows most.
  template <class T>
  T wide(int range) {
    const int e = static_cast<int>(below(static_cast<size_t>(2 * range + 1))) - range;
    return static_cast<T>(std::ldexp(unit(), e));
  }

 private:
  std::uint64_t s_;
};

template <class T>
inline constexpr T kNaN = std::numeric_limits<T>::quiet_NaN();
template <class T>
inline constexpr T kInf = std::numeric_limits<T>::infinity();

constexpr size_t kSizes[] = {0, 1, 7, 63, 64, 65, 257, 1000, 5000};

template <class T>
std::vector<T> random_vector(size_t n, Rng& rng) {
  std::vector<T> v(n);
  for (T& x : v) x = rng.draw<T>();
  return input(v);
}

// The vectors every BLAS-1 kernel sees: random at each size, many binades, and the edges of the
// reductions: +0 and -0, subnormals, values whose squares overflow or underflow (nrm2), Inf,
// Inf - Inf, NaN first and inside, and ties of the largest magnitude (iamax takes the first).
template <class T>
std::vector<std::vector<T>> real_catalog(std::uint64_t seed) {
  using L = std::numeric_limits<T>;
  Rng rng(seed);
  std::vector<std::vector<T>> out;
  for (size_t n : kSizes) out.push_back(random_vector<T>(n, rng));
  for (size_t n : {size_t{1000}, size_t{5000}}) {
    std::vector<T> v(n);
    for (T& x : v) x = rng.wide<T>(20);
    out.push_back(v);
  }
  {
    std::vector<T> v(65);
    for (size_t i = 0; i < v.size(); ++i) v[i] = i % 2 == 0 ? T(0) : -T(0);
    out.push_back(v);
    out.push_back(std::vector<T>(65, -T(0)));
  }
  {
    std::vector<T> v(257);
    for (T& x : v) x = static_cast<T>(std::ldexp(rng.unit(), L::min_exponent - 2));
    out.push_back(v);  // subnormals (and zeros)
  }
  {
    std::vector<T> v(257);
    for (T& x : v) x = static_cast<T>(rng.unit() * 0.5) * L::max();
    out.push_back(v);  // squares and sums overflow
    out.push_back(std::vector<T>(7, static_cast<T>(0.75) * L::max()));
  }
  for (size_t n : {size_t{65}, size_t{5000}}) {
    std::vector<T> v(n);
    for (T& x : v) x = static_cast<T>(std::ldexp(rng.unit(), -(L::max_exponent * 6 / 10)));
    out.push_back(v);  // squares underflow (nrm2's fallback, over several of its chunks)
  }
  {
    std::vector<T> v = random_vector<T>(257, rng);
    v[100] = kInf<T>;
    out.push_back(v);
    v[200] = -kInf<T>;
    out.push_back(v);
  }
  {
    std::vector<T> v = random_vector<T>(1000, rng);
    v[3] = kNaN<T>;
    v[999] = kNaN<T>;
    out.push_back(v);
    std::vector<T> first = random_vector<T>(65, rng);
    first[0] = kNaN<T>;
    out.push_back(first);
  }
  {
    std::vector<T> v = random_vector<T>(257, rng);
    v[5] = T(-3);
    v[70] = T(3);
    v[200] = T(-3);
    out.push_back(v);
    v[30] = kInf<T>;
    v[10] = -kInf<T>;
    out.push_back(v);
  }
  for (const std::vector<T>& v : out) input(v);
  return out;
}

template <class T>
std::vector<std::vector<T>> catalog(std::uint64_t seed) {
  if constexpr (kIsComplex<T>) {
    const auto re = real_catalog<Real<T>>(seed);
    const auto im = real_catalog<Real<T>>(seed + 1000);
    std::vector<std::vector<T>> out;
    for (size_t j = 0; j < re.size(); ++j) {
      std::vector<T> v(re[j].size());
      for (size_t i = 0; i < v.size(); ++i) v[i] = T(re[j][i], im[j][i]);
      out.push_back(v);
    }
    return out;
  } else {
    return real_catalog<T>(seed);
  }
}

// A vector of n elements at increment inc in its own storage, element i at at(i) (element 0 at
// the highest address when inc < 0, as the kernels take it); the gaps hold values of their own
// that a kernel must neither read nor write (the whole storage is hashed).
template <class T>
class Strided {
 public:
  Strided(const std::vector<T>& v, std::ptrdiff_t inc, Rng& rng)
      : inc_(inc), stride_(static_cast<size_t>(inc < 0 ? -inc : inc)) {
    const size_t n = v.size();
    storage_.resize(n == 0 ? 1 : (n - 1) * stride_ + 1);
    for (T& x : storage_) x = rng.draw<T>();
    base_ = inc < 0 && n > 0 ? (n - 1) * stride_ : 0;
    // inc == 0: every element is the storage's one value, the vector's first.
    for (size_t i = 0; i < n && (inc != 0 || i == 0); ++i) at(i) = v[i];
    input(storage_);
  }
  T* data() { return storage_.data() + base_; }
  std::ptrdiff_t inc() const { return inc_; }
  T& at(size_t i) {
    return inc_ < 0 ? storage_[base_ - i * stride_] : storage_[base_ + i * stride_];
  }
  const std::vector<T>& storage() const { return storage_; }

 private:
  std::vector<T> storage_;
  std::ptrdiff_t inc_;
  size_t stride_;
  size_t base_ = 0;
};

// A row-major matrix of `rows` rows, ld = cols + 3 apart (a padded leading dimension: the padding
// must be neither read nor written, and the whole storage is hashed).
template <class T>
struct Matrix {
  Matrix(size_t r, size_t c, Rng& rng)
      : rows(r), cols(c), ld(c + 3), a(std::max<size_t>(1, r * ld)) {
    for (T& x : a) x = rng.draw<T>();
    input(a);
  }
  T* data() { return a.data(); }
  size_t rows, cols, ld;
  std::vector<T> a;
};

// The operand of a triangular solve or product, order n: a diagonal of magnitude in [2, 3) and
// off-diagonal elements below 1/n (so solutions stay near the right-hand side's size), the
// other triangle holding values of its own (never read).
template <class T>
Matrix<T> triangular(size_t n, Rng& rng) {
  Matrix<T> m(n, n, rng);
  using R = Real<T>;
  const R scale = R(1) / static_cast<R>(std::max<size_t>(n, 1));
  for (size_t i = 0; i < n; ++i) {
    for (size_t j = 0; j < n; ++j) {
      T& x = m.a[i * m.ld + j];
      if (i == j) {
        const R re = R(2) + std::abs(static_cast<R>(rng.unit()));
        if constexpr (kIsComplex<T>) {
          // One draw a statement: the order of a call's arguments is the compiler's choice.
          const R real = rng.next() % 2 == 0 ? re : -re;
          x = T(real, static_cast<R>(rng.unit()));
        } else {
          x = rng.next() % 2 == 0 ? re : -re;
        }
      } else {
        x = x * scale;
      }
    }
  }
  input(m.a);
  return m;
}

// The scalars a product is run with: (alpha, beta, C poisoned with NaN). beta == 0 must not read
// C, so its NaN must not reach the result.
template <class T>
struct Scalars {
  T alpha, beta;
  bool nan_c;
};
template <class T>
std::vector<Scalars<T>> all_scalars() {
  std::vector<Scalars<T>> out;
  for (double a : {1.0, 0.0, 0.5, -2.0}) {
    for (double b : {1.0, 0.0, 0.5, -2.0}) out.push_back({T(Real<T>(a)), T(Real<T>(b)), false});
  }
  out.push_back({T(1), T(0), true});
  out.push_back({T(Real<T>(-2)), T(0), true});
  return out;
}
template <class T>
std::vector<Scalars<T>> few_scalars() {
  if constexpr (kIsComplex<T>) {
    using R = Real<T>;
    return {{T(R(0.5), R(-2)), T(R(-2), R(0.5)), false}, {T(1), T(0), true}};
  } else {
    return {{T(0.5), T(-2), false}, {T(1), T(0), true}};
  }
}
template <class T>
void prepare_c(Matrix<T>& c, const Scalars<T>& s, Rng& rng) {
  for (T& x : c.a) x = s.nan_c ? T(kNaN<Real<T>>) : rng.draw<T>();
  input(c.a);
}

// ------------------------------ BLAS-1

template <class T>
void blas1_real() {
  const std::string s = type_name<T>();
  const auto xs = catalog<T>(11);
  const auto ys = catalog<T>(12);
  Rng rng(13);
  const T alphas[] = {T(0.5), T(-2), T(0)};
  for (size_t j = 0; j < xs.size(); ++j) {
    const std::vector<T>& x = xs[j];
    const std::vector<T>& y = ys[j];
    const size_t n = x.size();
    line("dot." + s).value(ck::dot(n, x.data(), y.data()));
    line("sum." + s).value(ck::sum(n, x.data()));
    line("asum." + s).value(ck::asum(n, x.data()));
    line("nrm2." + s).value(ck::nrm2(n, x.data()));
    line("iamax." + s).value(std::uint64_t{ck::iamax(n, x.data())});
    for (T a : alphas) {
      std::vector<T> out = y;
      ck::axpy(n, a, x.data(), out.data());
      line("axpy." + s).values(out);
      out = x;
      ck::scal(n, a, out.data());
      line("scal." + s).values(out);
    }
    // Strided: increments 1, 2, -3, and 0 for vectors only read.
    constexpr std::ptrdiff_t kIncs[][2] = {{1, 1}, {2, -3}, {-3, 2}, {0, 1}};
    for (const auto& inc : kIncs) {
      Strided<T> sx(x, inc[0], rng), sy(y, inc[1], rng);
      line("dot_strided." + s).value(ck::dot_strided(n, sx.data(), inc[0], sy.data(), inc[1]));
      line("asum_strided." + s).value(ck::asum_strided(n, sx.data(), inc[0]));
      line("nrm2_strided." + s).value(ck::nrm2_strided(n, sx.data(), inc[0]));
      line("iamax_strided." + s).value(std::uint64_t{ck::iamax_strided(n, sx.data(), inc[0])});
      {
        Strided<T> out(y, inc[1], rng);
        ck::axpy_strided(n, T(-2), sx.data(), inc[0], out.data(), inc[1]);
        line("axpy_strided." + s).values(out.storage());
      }
      {
        Strided<T> out(y, inc[1], rng), v(x, inc[0] == 0 ? -3 : inc[0], rng);
        const T r = ck::axpy_dot_strided(n, T(0.5), sx.data(), inc[0], out.data(), inc[1], v.data(),
                                         v.inc());
        line("axpy_dot_strided." + s).value(r);
        line("axpy_dot_strided." + s).values(out.storage());
      }
      {
        Strided<T> out(y, inc[1], rng);
        ck::copy_strided(n, sx.data(), inc[0], out.data(), inc[1]);
        line("copy_strided." + s).values(out.storage());
      }
      if (inc[0] != 0) {  // written
        Strided<T> a(x, inc[0], rng), b(y, inc[1], rng);
        ck::scal_strided(n, T(-2), a.data(), inc[0]);
        line("scal_strided." + s).values(a.storage());
        ck::swap_strided(n, a.data(), inc[0], b.data(), inc[1]);
        line("swap_strided." + s).values(a.storage());
        line("swap_strided." + s).values(b.storage());
        ck::rot_strided(n, a.data(), inc[0], b.data(), inc[1], T(0.6), T(-0.8));
        line("rot_strided." + s).values(a.storage());
        line("rot_strided." + s).values(b.storage());
      }
    }
  }
}

template <class T>
void blas1_complex() {
  using R = Real<T>;
  const std::string s = type_name<T>();
  const auto xs = catalog<T>(21);
  const auto ys = catalog<T>(22);
  Rng rng(23);
  constexpr std::ptrdiff_t kIncs[][2] = {{1, 1}, {2, -3}, {-3, 2}, {0, 1}};
  for (size_t j = 0; j < xs.size(); ++j) {
    const size_t n = xs[j].size();
    for (const auto& inc : kIncs) {
      Strided<T> x(xs[j], inc[0], rng), y(ys[j], inc[1], rng);
      T r;
      ck::dotu_strided(n, x.data(), inc[0], y.data(), inc[1], &r);
      line("dotu_strided." + s).value(r);
      ck::dotc_strided(n, x.data(), inc[0], y.data(), inc[1], &r);
      line("dotc_strided." + s).value(r);
      for (const T a : {T(R(0.5), R(-2)), T(0)}) {
        Strided<T> out(ys[j], inc[1], rng);
        ck::axpy_strided(n, a, x.data(), inc[0], out.data(), inc[1]);
        line("axpy_strided." + s).values(out.storage());
        Strided<T> outc(ys[j], inc[1], rng);
        ck::axpyc_strided(n, a, x.data(), inc[0], outc.data(), inc[1]);
        line("axpyc_strided." + s).values(outc.storage());
      }
    }
  }
}

// ------------------------------ Vector math

// Special values and the edges of the functions' ranges: zeros, subnormals, the smallest normal,
// the largest finite, infinities, NaN, and where results overflow, underflow or poles sit.
template <class T>
std::vector<T> math_specials() {
  using L = std::numeric_limits<T>;
  std::vector<T> v = {T(0),     -T(0),     L::denorm_min(), -L::denorm_min(), L::min(), -L::min(),
                      L::max(), -L::max(), kInf<T>,         -kInf<T>,         kNaN<T>};
  // exp's overflow and underflow (f32, f64), poles and branch points, large arguments.
  for (double x : {1.0,    -1.0,     0.5,       -0.5,     2.0,
                   -2.0,   88.7,     -87.3,     -103.9,   709.8,
                   -708.4, -745.2,   1000.0,    -1000.0,  1e-8,
                   -1e-8,  0.999999, -0.999999, 1.000001, 3.14159265358979,
                   1e30}) {
    v.push_back(static_cast<T>(x));
  }
  return v;
}

template <class T>
std::vector<std::vector<T>> math_inputs(std::uint64_t seed) {
  Rng rng(seed);
  std::vector<std::vector<T>> out;
  for (size_t n : kSizes) {
    std::vector<T> v(n);
    for (T& x : v) x = static_cast<T>(rng.unit() * 8);
    out.push_back(v);
  }
  std::vector<T> wide(1000);
  for (T& x : wide) x = rng.wide<T>(10);
  out.push_back(wide);
  // The specials among random values (vector body and tail both see them).
  const std::vector<T> sp = math_specials<T>();
  std::vector<T> mixed;
  for (size_t i = 0; i < 3 * sp.size(); ++i) {
    mixed.push_back(i % 3 == 1 ? sp[i / 3] : static_cast<T>(rng.unit() * 4));
  }
  out.push_back(mixed);
  for (const std::vector<T>& v : out) input(v);
  return out;
}

template <class T>
void math_case(const std::string& name, void (*f)(size_t, const T*, T*)) {
  Digest& d = line(name);
  for (const std::vector<T>& x : math_inputs<T>(31)) {
    std::vector<T> y(x.size());
    f(x.size(), x.data(), y.data());
    d.values(y);
    std::vector<T> in_place = x;  // y == x is allowed
    f(in_place.size(), in_place.data(), in_place.data());
    d.values(in_place);
  }
}

template <class T>
void math_case(const std::string& name, void (*f)(size_t, const T*, const T*, T*)) {
  Digest& d = line(name);
  const auto as = math_inputs<T>(31);
  const auto bs = math_inputs<T>(32);
  for (size_t j = 0; j < as.size(); ++j) {
    std::vector<T> z(as[j].size());
    f(z.size(), as[j].data(), bs[j].data(), z.data());
    d.values(z);
  }
  // Every special against every special.
  const std::vector<T> sp = math_specials<T>();
  std::vector<T> a, b;
  for (T u : sp) {
    for (T v : sp) {
      a.push_back(u);
      b.push_back(v);
    }
  }
  std::vector<T> z(a.size());
  f(z.size(), a.data(), b.data(), z.data());
  d.values(z);
}

void vector_math() {
  // Every function of the table, unary or binary by its signature: a new function is covered
  // (and its line missing from the expected file) without a change here.
#define COHERIQ_DIGEST_MATH(op, S, impl, touched, R, params, args) \
  math_case(#op "." #S, static_cast<R(*) params>(&ck::op));
  COHERIQ_KERNELS_MATH(COHERIQ_DIGEST_MATH)
#undef COHERIQ_DIGEST_MATH
}

// ------------------------------ GEMM (f32, f64)

struct Shape {
  size_t m, n, k;
};
// Small, medium, and deep (k across the mode's k-blocks of 256: 600 in 3, 1100 in 5), k = 0.
constexpr Shape kGemmShapes[] = {{3, 5, 7},     {23, 29, 31},  {100, 70, 300},
                                 {17, 19, 600}, {9, 33, 1100}, {4, 6, 0}};

template <class T>
Matrix<T> op_matrix(Trans t, size_t rows, size_t cols, Rng& rng) {
  return t == Trans::N ? Matrix<T>(rows, cols, rng) : Matrix<T>(cols, rows, rng);
}

template <class T>
void gemm_real() {
  const std::string s = type_name<T>();
  Rng rng(41);
  for (Trans ta : kTrans) {
    for (Trans tb : kTrans) {
      Digest& d = line("gemm." + s + " " + name_of(ta) + "." + name_of(tb));
      for (const Shape& sh : kGemmShapes) {
        Matrix<T> a = op_matrix<T>(ta, sh.m, sh.k, rng);
        Matrix<T> b = op_matrix<T>(tb, sh.k, sh.n, rng);
        Matrix<T> c(sh.m, sh.n, rng);
        // Every alpha and beta on the small shapes, a few on the large ones.
        const bool small = sh.m * sh.n * sh.k <= 23 * 29 * 31;
        std::vector<Scalars<T>> scalars = all_scalars<T>();
        if (!small) {
          scalars = {{T(1), T(0), false},
                     {T(0.5), T(-2), false},
                     {T(-2), T(1), false},
                     {T(0), T(0.5), false},
                     {T(1), T(0), true}};
        }
        for (const Scalars<T>& sc : scalars) {
          prepare_c(c, sc, rng);
          ck::gemm(ta, tb, sh.m, sh.n, sh.k, sc.alpha, a.data(), a.ld, b.data(), b.ld, sc.beta,
                   c.data(), c.ld);
          d.values(c.a);
        }
      }
    }
  }
  reached().insert("gemm_workspace." + s);  // gemm's workspace, sized by it
}

template <class T>
void gemm_batches() {
  const std::string s = type_name<T>();
  Rng rng(42);
  constexpr Shape kShapes[] = {{3, 5, 7}, {23, 29, 31}, {17, 19, 600}};
  constexpr size_t kBatch = 4;
  for (Trans ta : kTrans) {
    for (Trans tb : kTrans) {
      const std::string suffix = " " + name_of(ta) + "." + name_of(tb);
      for (const Shape& sh : kShapes) {
        std::vector<Matrix<T>> as, bs, cs;
        for (size_t i = 0; i < kBatch; ++i) {
          as.push_back(op_matrix<T>(ta, sh.m, sh.k, rng));
          bs.push_back(op_matrix<T>(tb, sh.k, sh.n, rng));
          cs.emplace_back(sh.m, sh.n, rng);
        }
        const size_t lda = as[0].ld, ldb = bs[0].ld, ldc = cs[0].ld;
        const size_t sa = as[0].a.size(), sb = bs[0].a.size(), sc_stride = cs[0].a.size() + 5;
        // Strided: the operands one after another; the second case reuses A (stride 0).
        std::vector<T> a_all, b_all;
        for (size_t i = 0; i < kBatch; ++i) {
          a_all.insert(a_all.end(), as[i].a.begin(), as[i].a.end());
          b_all.insert(b_all.end(), bs[i].a.begin(), bs[i].a.end());
        }
        for (const Scalars<T>& sc : few_scalars<T>()) {
          const size_t stride_a = sc.nan_c ? 0 : sa;
          std::vector<T> c_all(kBatch * sc_stride);
          for (T& x : c_all) x = sc.nan_c ? kNaN<T> : rng.draw<T>();
          input(c_all);
          ck::gemm_batch_strided(ta, tb, sh.m, sh.n, sh.k, sc.alpha, a_all.data(), lda, stride_a,
                                 b_all.data(), ldb, sb, sc.beta, c_all.data(), ldc, sc_stride,
                                 kBatch);
          line("gemm_batch_strided." + s + suffix).values(c_all);
        }
        for (const Scalars<T>& sc : few_scalars<T>()) {
          std::vector<const T*> ap, bp;
          std::vector<T*> cp;
          for (size_t i = 0; i < kBatch; ++i) {
            prepare_c(cs[i], sc, rng);
            ap.push_back(as[i].data());
            bp.push_back(bs[i].data());
            cp.push_back(cs[i].data());
          }
          ck::gemm_batch(ta, tb, sh.m, sh.n, sh.k, sc.alpha, ap.data(), lda, bp.data(), ldb,
                         sc.beta, cp.data(), ldc, kBatch);
          for (const Matrix<T>& c : cs) line("gemm_batch." + s + suffix).values(c.a);
        }
      }
    }
  }
}

template <class T>
void gemm_plans_and_packed() {
  const std::string s = type_name<T>();
  Rng rng(43);
  constexpr Shape kPlanShapes[] = {{3, 5, 7}, {23, 29, 31}, {100, 70, 300}};
  constexpr Shape kPackedShapes[] = {{23, 29, 31}, {100, 70, 300}, {9, 33, 1100}};
  for (Trans ta : kTrans) {
    for (Trans tb : kTrans) {
      const std::string suffix = " " + name_of(ta) + "." + name_of(tb);
      for (const Shape& sh : kPlanShapes) {
        Matrix<T> a = op_matrix<T>(ta, sh.m, sh.k, rng);
        Matrix<T> b = op_matrix<T>(tb, sh.k, sh.n, rng);
        Matrix<T> c(sh.m, sh.n, rng);
        for (const Scalars<T>& sc : few_scalars<T>()) {
          const ck::GemmPlan<T> plan(ta, tb, sh.m, sh.n, sh.k, sc.alpha, a.ld, b.ld, sc.beta, c.ld);
          prepare_c(c, sc, rng);
          plan(a.data(), b.data(), c.data());
          line("gemm_plan." + s + suffix).values(c.a);
        }
      }
      for (const Shape& sh : kPackedShapes) {
        Matrix<T> a = op_matrix<T>(ta, sh.m, sh.k, rng);
        Matrix<T> b = op_matrix<T>(tb, sh.k, sh.n, rng);
        Matrix<T> c(sh.m, sh.n, rng);
        const ck::PackedMatrix<T> packed = ck::pack_b(tb, sh.k, sh.n, b.data(), b.ld);
        for (const Scalars<T>& sc : few_scalars<T>()) {
          prepare_c(c, sc, rng);
          ck::gemm(ta, sh.m, sh.n, sh.k, sc.alpha, a.data(), a.ld, packed, sc.beta, c.data(), c.ld);
          line("gemm_packed." + s + suffix).values(c.a);
        }
      }
    }
  }
  // The plan's candidates (used when the engine plans the shape) and pack_b's.
  for (const char* op : {"gemm_planned.", "packed_bytes.", "pack_b."}) reached().insert(op + s);
}

// ------------------------------ BLAS-2

constexpr std::ptrdiff_t kVectorIncs[][2] = {{1, 1}, {2, -3}, {-3, 2}};

template <class T>
void blas2_real() {
  const std::string s = type_name<T>();
  Rng rng(51);
  struct Mn {
    size_t m, n;
  };
  // {9, 2100}: gemv N's rows four at a time and one left, over three column chunks of 1024.
  constexpr Mn kShapes[] = {{1, 1}, {7, 5}, {65, 63}, {257, 1000}, {1000, 257}, {9, 2100}};
  for (const Mn& sh : kShapes) {
    Matrix<T> a(sh.m, sh.n, rng);
    for (Trans op : kTrans) {
      const size_t lx = op == Trans::N ? sh.n : sh.m, ly = op == Trans::N ? sh.m : sh.n;
      const std::vector<T> x = random_vector<T>(lx, rng), y = random_vector<T>(ly, rng);
      for (const auto& inc : kVectorIncs) {
        for (const Scalars<T>& sc :
             {Scalars<T>{T(0.5), T(-2), false}, Scalars<T>{T(-2), T(1), false},
              Scalars<T>{T(1), T(0), true}}) {
          Strided<T> sx(x, inc[0], rng), sy(y, inc[1], rng);
          if (sc.nan_c) {
            for (size_t i = 0; i < ly; ++i) sy.at(i) = kNaN<T>;
          }
          ck::gemv(op, sh.m, sh.n, sc.alpha, a.data(), a.ld, sx.data(), inc[0], sc.beta, sy.data(),
                   inc[1]);
          line("gemv." + s + " " + name_of(op)).values(sy.storage());
        }
      }
    }
    // ger: some x_i are 0 (their rows are skipped) and y holds a NaN (it must not reach them).
    std::vector<T> x = random_vector<T>(sh.m, rng), y = random_vector<T>(sh.n, rng);
    for (size_t i = 0; i < x.size(); i += 3) x[i] = T(0);
    if (!y.empty()) y[y.size() / 2] = kNaN<T>;
    for (const auto& inc : kVectorIncs) {
      for (T alpha : {T(0.5), T(-2)}) {
        Strided<T> sx(x, inc[0], rng), sy(y, inc[1], rng);
        Matrix<T> out = a;
        ck::ger(sh.m, sh.n, alpha, sx.data(), inc[0], sy.data(), inc[1], out.data(), out.ld);
        line("ger." + s).values(out.a);
      }
    }
  }
  // symv: one diagonal block and several bands of 32 rows.
  for (size_t n : {size_t{1}, size_t{7}, size_t{65}, size_t{257}}) {
    Matrix<T> a(n, n, rng);
    const std::vector<T> x = random_vector<T>(n, rng), y = random_vector<T>(n, rng);
    for (Uplo uplo : kUplos) {
      for (const auto& inc : kVectorIncs) {
        for (const Scalars<T>& sc : few_scalars<T>()) {
          Strided<T> sx(x, inc[0], rng), sy(y, inc[1], rng);
          if (sc.nan_c) {
            for (size_t i = 0; i < n; ++i) sy.at(i) = kNaN<T>;
          }
          ck::symv(uplo, n, sc.alpha, a.data(), a.ld, sx.data(), inc[0], sc.beta, sy.data(),
                   inc[1]);
          line("symv." + s + " " + name_of(uplo)).values(sy.storage());
        }
      }
    }
  }
}

// trmv and trsv (the four types): rows of 40 elements and more run the engine's dots and axpys.
template <class T>
void blas2_triangular() {
  const std::string s = type_name<T>();
  Rng rng(52);
  for (size_t n : {size_t{1}, size_t{7}, size_t{65}, size_t{100}}) {
    const Matrix<T> a = triangular<T>(n, rng);
    const std::vector<T> x = random_vector<T>(n, rng);
    for (Uplo uplo : kUplos) {
      for (Op op : kOps) {
        const std::string suffix = " " + name_of(uplo) + "." + name_of(op);
        for (Diag diag : kDiags) {
          for (std::ptrdiff_t inc : {std::ptrdiff_t{1}, std::ptrdiff_t{-3}}) {
            Strided<T> v(x, inc, rng);
            ck::trmv(uplo, op, diag, n, a.a.data(), a.ld, v.data(), inc);
            line("trmv." + s + suffix).values(v.storage());
            Strided<T> w(x, inc, rng);
            ck::trsv(uplo, op, diag, n, a.a.data(), a.ld, w.data(), inc);
            line("trsv." + s + suffix).values(w.storage());
          }
        }
      }
    }
  }
}

template <class T>
void blas2_hermitian() {
  const std::string s = type_name<T>();
  Rng rng(53);
  for (size_t n : {size_t{7}, size_t{65}}) {
    Matrix<T> a(n, n, rng);
    const std::vector<T> x = random_vector<T>(n, rng), y = random_vector<T>(n, rng);
    for (Uplo uplo : kUplos) {
      for (Op op : {Op::N, Op::Conj}) {
        for (const auto& inc : kVectorIncs) {
          for (const Scalars<T>& sc : few_scalars<T>()) {
            Strided<T> sx(x, inc[0], rng), sy(y, inc[1], rng);
            if (sc.nan_c) {
              for (size_t i = 0; i < n; ++i) sy.at(i) = T(kNaN<Real<T>>);
            }
            ck::hemv(uplo, op, n, sc.alpha, a.data(), a.ld, sx.data(), inc[0], sc.beta, sy.data(),
                     inc[1]);
            line("hemv." + s + " " + name_of(uplo) + "." + name_of(op)).values(sy.storage());
          }
        }
      }
    }
  }
}

// ------------------------------ BLAS-3

struct MnShape {
  size_t m, n;
};
// One shape within a base block, one across the blocked forms' blocks (of 32, and 64 for the
// rank updates' diagonal blocks).
constexpr MnShape kLevel3Shapes[] = {{7, 5}, {70, 67}};

template <class T>
void level3() {
  const std::string s = type_name<T>();
  using R = Real<T>;
  Rng rng(61);
  T alpha = T(R(0.5));
  if constexpr (kIsComplex<T>) alpha = T(R(0.5), R(-2));
  // The trmm's pass takes op(A)'s k-blocks of the mode (256 reals) from the diagonal one away
  // from it: an order of 300 has two, on either side of most elements' own (the complex pass, on
  // two reals an element, at 150). (A generator of its own: the lines below keep their inputs.)
  {
    Rng trmm_rng(62);
    const size_t order = kIsComplex<T> ? 150 : 300;
    const std::vector<Op> ops = kIsComplex<T> ? std::vector<Op>{Op::N, Op::T, Op::C, Op::Conj}
                                              : std::vector<Op>{Op::N, Op::T};
    for (Side side : kSides) {
      const size_t m = side == Side::Left ? order : 9, n = side == Side::Left ? 9 : order;
      const Matrix<T> a = triangular<T>(order, trmm_rng);
      const Matrix<T> b(m, n, trmm_rng);
      for (Uplo uplo : kUplos) {
        for (Op op : ops) {
          for (Diag diag : kDiags) {
            Matrix<T> y = b;
            ck::trmm(side, uplo, op, diag, m, n, alpha, a.a.data(), a.ld, y.data(), y.ld);
            line("trmm." + s + " " + name_of(side) + "." + name_of(uplo) + "." + name_of(op) +
                 " order " + std::to_string(order))
                .values(y.a);
          }
        }
      }
    }
  }
  for (const MnShape& sh : kLevel3Shapes) {
    // trsm, trmm: A of order m (Left) or n (Right).
    for (Side side : kSides) {
      const size_t order = side == Side::Left ? sh.m : sh.n;
      const Matrix<T> a = triangular<T>(order, rng);
      const Matrix<T> b(sh.m, sh.n, rng);
      for (Uplo uplo : kUplos) {
        for (Op op : kOps) {
          const std::string suffix = " " + name_of(side) + "." + name_of(uplo) + "." + name_of(op);
          for (Diag diag : kDiags) {
            Matrix<T> x = b;
            ck::trsm(side, uplo, op, diag, sh.m, sh.n, alpha, a.a.data(), a.ld, x.data(), x.ld);
            line("trsm." + s + suffix).values(x.a);
            Matrix<T> y = b;
            ck::trmm(side, uplo, op, diag, sh.m, sh.n, alpha, a.a.data(), a.ld, y.data(), y.ld);
            line("trmm." + s + suffix).values(y.a);
          }
        }
      }
    }
    // The real trsm's base blocks (the order 70 is cut into blocks of at most 32), and the trmm's
    // pass (the complex one on the 1m method; above, across the mode's k-blocks too).
    if constexpr (!kIsComplex<T>) {
      reached().insert("trsm_rows." + s);
      for (const char* op : {"trmm_packed.", "trmm_packed_workspace."}) reached().insert(op + s);
    } else {
      for (const char* op : {"trmm_1m.", "trmm_1m_workspace."}) {
        reached().insert(op + type_name<Real<T>>());
      }
    }
    // syrk, syr2k: C of order m, op(A) m x n; symm: A of order m or n.
    const size_t n = sh.m, k = sh.n;
    std::vector<Op> rank_ops = {Op::N, Op::T};
    if constexpr (!kIsComplex<T>) rank_ops.push_back(Op::C);
    for (Uplo uplo : kUplos) {
      for (Op op : rank_ops) {
        const bool trans = op != Op::N;
        const Matrix<T> a = trans ? Matrix<T>(k, n, rng) : Matrix<T>(n, k, rng);
        const Matrix<T> b = trans ? Matrix<T>(k, n, rng) : Matrix<T>(n, k, rng);
        Matrix<T> c(n, n, rng);
        const std::string suffix = " " + name_of(uplo) + "." + name_of(op);
        for (const Scalars<T>& sc : few_scalars<T>()) {
          prepare_c(c, sc, rng);
          ck::syrk(uplo, op, n, k, sc.alpha, a.a.data(), a.ld, sc.beta, c.data(), c.ld);
          line("syrk." + s + suffix).values(c.a);
          prepare_c(c, sc, rng);
          ck::syr2k(uplo, op, n, k, sc.alpha, a.a.data(), a.ld, b.a.data(), b.ld, sc.beta, c.data(),
                    c.ld);
          line("syr2k." + s + suffix).values(c.a);
        }
      }
    }
    // The real syrk's diagonal blocks (the order 70 crosses one): the triangle GEMM; the real
    // symm (below): its pass, which has GEMM's bits for A written in full (as before it).
    if constexpr (!kIsComplex<T>) {
      for (const char* op :
           {"gemmt.", "gemmt_workspace.", "symm_packed.", "symm_packed_workspace."})
        reached().insert(op + s);
    }
    for (Side side : kSides) {
      const size_t order = side == Side::Left ? sh.m : sh.n;
      const Matrix<T> a(order, order, rng);
      const Matrix<T> b(sh.m, sh.n, rng);
      Matrix<T> c(sh.m, sh.n, rng);
      for (Uplo uplo : kUplos) {
        for (const Scalars<T>& sc : few_scalars<T>()) {
          prepare_c(c, sc, rng);
          ck::symm(side, uplo, sh.m, sh.n, sc.alpha, a.a.data(), a.ld, b.a.data(), b.ld, sc.beta,
                   c.data(), c.ld);
          line("symm." + s + " " + name_of(side) + "." + name_of(uplo)).values(c.a);
        }
      }
    }
  }
}

template <class T>
void level3_complex() {
  const std::string s = type_name<T>();
  Rng rng(62);
  constexpr Shape kShapes[] = {{3, 5, 7}, {23, 29, 31}, {70, 65, 67}};
  // The products past the engines' unpacked sizes (order 65 to 70) pack op(B)'s 1m expansion and
  // multiply by it, the rank updates' triangles too.
  for (const char* op : {"pack_b_1m.", "gemm_1m_workspace.", "gemm_1m.", "gemmt_1m."}) {
    reached().insert(op + type_name<Real<T>>());
  }
  for (Op opa : kOps) {
    for (Op opb : kOps) {
      const bool ta = opa == Op::T || opa == Op::C, tb = opb == Op::T || opb == Op::C;
      for (const Shape& sh : kShapes) {
        const Matrix<T> a = ta ? Matrix<T>(sh.k, sh.m, rng) : Matrix<T>(sh.m, sh.k, rng);
        const Matrix<T> b = tb ? Matrix<T>(sh.n, sh.k, rng) : Matrix<T>(sh.k, sh.n, rng);
        Matrix<T> c(sh.m, sh.n, rng);
        for (const Scalars<T>& sc : few_scalars<T>()) {
          prepare_c(c, sc, rng);
          ck::gemm(opa, opb, sh.m, sh.n, sh.k, sc.alpha, a.a.data(), a.ld, b.a.data(), b.ld,
                   sc.beta, c.data(), c.ld);
          line("gemm." + s + " " + name_of(opa) + "." + name_of(opb)).values(c.a);
        }
      }
    }
  }
  for (const MnShape& sh : kLevel3Shapes) {
    for (Side side : kSides) {
      const size_t order = side == Side::Left ? sh.m : sh.n;
      const Matrix<T> a(order, order, rng);
      const Matrix<T> b(sh.m, sh.n, rng);
      Matrix<T> c(sh.m, sh.n, rng);
      for (Uplo uplo : kUplos) {
        for (const Scalars<T>& sc : few_scalars<T>()) {
          prepare_c(c, sc, rng);
          ck::hemm(side, uplo, sh.m, sh.n, sc.alpha, a.a.data(), a.ld, b.a.data(), b.ld, sc.beta,
                   c.data(), c.ld);
          line("hemm." + s + " " + name_of(side) + "." + name_of(uplo)).values(c.a);
        }
      }
    }
    const size_t n = sh.m, k = sh.n;
    for (Uplo uplo : kUplos) {
      for (Op op : {Op::N, Op::C}) {
        const bool trans = op != Op::N;
        const Matrix<T> a = trans ? Matrix<T>(k, n, rng) : Matrix<T>(n, k, rng);
        const Matrix<T> b = trans ? Matrix<T>(k, n, rng) : Matrix<T>(n, k, rng);
        Matrix<T> c(n, n, rng);
        const std::string suffix = " " + name_of(uplo) + "." + name_of(op);
        for (const Scalars<T>& sc : few_scalars<T>()) {
          // herk's alpha and beta are real: the real parts of this case's.
          prepare_c(c, sc, rng);
          ck::herk(uplo, op, n, k, sc.alpha.real(), a.a.data(), a.ld, sc.beta.real(), c.data(),
                   c.ld);
          line("herk." + s + suffix).values(c.a);
          prepare_c(c, sc, rng);
          ck::her2k(uplo, op, n, k, sc.alpha, a.a.data(), a.ld, b.a.data(), b.ld, sc.beta.real(),
                    c.data(), c.ld);
          line("her2k." + s + suffix).values(c.a);
        }
      }
    }
  }
}

// ------------------------------ Reduced precision

void reduced() {
  Rng rng(71);
  // dot_u8s8: random bytes at each size; the extremes 255 and -128 everywhere, up to the largest
  // exact n (65793) and beyond it, where the sum wraps modulo 2^32.
  auto u8 = [&](size_t n) {
    std::vector<std::uint8_t> v(n);
    for (auto& x : v) x = static_cast<std::uint8_t>(rng.next());
    return input(v);
  };
  auto s8 = [&](size_t n) {
    std::vector<std::int8_t> v(n);
    for (auto& x : v) x = static_cast<std::int8_t>(static_cast<std::uint8_t>(rng.next()));
    return input(v);
  };
  Digest& dot_u8s8 = line("dot.u8s8");
  for (size_t n : kSizes) {
    const auto x = u8(n);
    const auto y = s8(n);
    dot_u8s8.value(ck::dot_u8s8(n, x.data(), y.data()));
  }
  for (size_t n : {size_t{1000}, size_t{65793}, size_t{70001}}) {
    const std::vector<std::uint8_t> x(n, 255);
    const std::vector<std::int8_t> y(n, -128);
    dot_u8s8.value(ck::dot_u8s8(n, x.data(), y.data()));
  }
  Digest& gemm_u8 = line("gemm.u8s8s32");
  for (const Shape& sh : kGemmShapes) {
    for (bool extreme : {false, true}) {
      const size_t lda = sh.k + 3, ldb = sh.n + 3, ldc = sh.n + 3;
      std::vector<std::uint8_t> a = u8(std::max<size_t>(1, sh.m * lda));
      std::vector<std::int8_t> b = s8(std::max<size_t>(1, sh.k * ldb));
      if (extreme) {
        std::fill(a.begin(), a.end(), std::uint8_t{255});
        std::fill(b.begin(), b.end(), std::int8_t{-128});
      }
      std::vector<std::int32_t> c(std::max<size_t>(1, sh.m * ldc));
      for (auto& x : c) x = static_cast<std::int32_t>(static_cast<std::uint32_t>(rng.next()));
      input(c);
      ck::gemm_u8s8s32(sh.m, sh.n, sh.k, a.data(), lda, b.data(), ldb, c.data(), ldc);
      gemm_u8.values(c);
    }
  }
  // bf16: random values (every one a bf16 of the random floats), then the specials.
  auto bf16 = [&](size_t n) {
    std::vector<ck::bfloat16> v(n);
    for (auto& x : v) x = ck::bfloat16(static_cast<float>(rng.unit() * 4));
    return input(v);
  };
  Digest& dot_bf16 = line("dot.bf16");
  for (size_t n : kSizes) {
    const auto x = bf16(n);
    const auto y = bf16(n);
    dot_bf16.value(ck::dot_bf16(n, x.data(), y.data()));
  }
  {
    const std::vector<float> sp = math_specials<float>();
    std::vector<ck::bfloat16> x, y;
    for (size_t i = 0; i < sp.size(); ++i) {
      x.emplace_back(sp[i]);
      y.emplace_back(sp[(i * 7 + 3) % sp.size()]);
    }
    input(x);
    input(y);
    for (size_t n = 1; n <= x.size(); n += 5) dot_bf16.value(ck::dot_bf16(n, x.data(), y.data()));
  }
  Digest& gemm_bf16 = line("gemm.bf16");
  for (const Shape& sh : kGemmShapes) {
    const size_t lda = sh.k + 3, ldb = sh.n + 3, ldc = sh.n + 3;
    const auto a = bf16(std::max<size_t>(1, sh.m * lda));
    const auto b = bf16(std::max<size_t>(1, sh.k * ldb));
    const std::vector<Scalars<float>> scalars = {{1.f, 0.f, false},
                                                 {0.5f, -2.f, false},
                                                 {-2.f, 1.f, false},
                                                 {0.f, 0.5f, false},
                                                 {1.f, 0.f, true}};
    for (const Scalars<float>& sc : scalars) {
      std::vector<float> c(std::max<size_t>(1, sh.m * ldc));
      for (float& x : c) x = sc.nan_c ? kNaN<float> : static_cast<float>(rng.unit());
      input(c);
      ck::gemm_bf16(sh.m, sh.n, sh.k, sc.alpha, a.data(), lda, b.data(), ldb, sc.beta, c.data(),
                    ldc);
      gemm_bf16.values(c);
    }
  }
  reached().insert("gemm_workspace.u8s8s32");
  reached().insert("gemm_workspace.bf16");
}

void run_all() {
  blas1_real<float>();
  blas1_real<double>();
  blas1_complex<std::complex<float>>();
  blas1_complex<std::complex<double>>();
  vector_math();
  gemm_real<float>();
  gemm_real<double>();
  gemm_batches<float>();
  gemm_batches<double>();
  gemm_plans_and_packed<float>();
  gemm_plans_and_packed<double>();
  blas2_real<float>();
  blas2_real<double>();
  blas2_triangular<float>();
  blas2_triangular<double>();
  blas2_triangular<std::complex<float>>();
  blas2_triangular<std::complex<double>>();
  blas2_hermitian<std::complex<float>>();
  blas2_hermitian<std::complex<double>>();
  level3<float>();
  level3<double>();
  level3<std::complex<float>>();
  level3<std::complex<double>>();
  level3_complex<std::complex<float>>();
  level3_complex<std::complex<double>>();
  reduced();
}

// Every candidate of the kernels' table is run: named by a line's first word, or reached through
// a public function whose line is (reached()). A row added to the table without a case here
// fails, naming it.
std::vector<std::string> uncovered() {
  std::set<std::string> covered = reached();
  for (const auto& [name, digest] : lines()) covered.insert(name.substr(0, name.find(' ')));
  std::vector<std::string> missing;
#define COHERIQ_DIGEST_NAME(op, S, impl, touched, R, params, args) \
  if (covered.count(#op "." #S) == 0) missing.push_back(#op "." #S);
  COHERIQ_KERNELS_CANDIDATES(COHERIQ_DIGEST_NAME)
#undef COHERIQ_DIGEST_NAME
  return missing;
}

// ------------------------------ Output and comparison

std::string hex(std::uint64_t v) {
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(v));
  return text;
}

// The lines, sorted by name, then "all": the digest of the lines before it.
std::vector<std::pair<std::string, std::string>> result_lines() {
  std::vector<std::pair<std::string, std::string>> out;
  Digest all;
  for (const auto& [name, digest] : lines()) {
    out.emplace_back(name, hex(digest.get()));
    all.text(name + " " + out.back().second + "\n");
  }
  out.emplace_back("all", hex(all.get()));
  return out;
}

// Compares with FILE ("name digest" lines; blank lines and lines starting with '#' ignored).
// Returns the number of lines that differ, each named on stderr.
int compare(const std::vector<std::pair<std::string, std::string>>& got, const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read the expected digests, " + path);
  std::map<std::string, std::string> expected;
  std::string text;
  int line_number = 0;
  while (std::getline(in, text)) {
    ++line_number;
    if (text.empty() || text[0] == '#') continue;
    // The name may hold a space ("gemm.f32 n.t"); the digest is the last word, 16 hex digits.
    const size_t space = text.rfind(' ');
    const std::string digest = space == std::string::npos ? "" : text.substr(space + 1);
    if (space == 0 || digest.size() != 16 ||
        digest.find_first_not_of("0123456789abcdef") != std::string::npos) {
      throw std::runtime_error(path + ":" + std::to_string(line_number) +
                               ": not a 'name digest' line: " + text);
    }
    expected[text.substr(0, space)] = digest;
  }
  int differ = 0;
  for (const auto& [name, digest] : got) {
    const auto it = expected.find(name);
    if (it == expected.end()) {
      std::fprintf(stderr, "NEW     %s %s: not in %s\n", name.c_str(), digest.c_str(),
                   path.c_str());
      ++differ;
    } else {
      if (it->second != digest) {
        const char* hint = name == "inputs"
                               ? " (this build made other inputs: a fault of this program's "
                                 "build, not of a kernel)"
                               : "";
        std::fprintf(stderr, "DIFFERS %s: %s, expected %s%s\n", name.c_str(), digest.c_str(),
                     it->second.c_str(), hint);
        ++differ;
      }
      expected.erase(it);
    }
  }
  for (const auto& [name, digest] : expected) {
    std::fprintf(stderr, "NOT RUN %s: in %s, not run by this program\n", name.c_str(),
                 path.c_str());
    ++differ;
  }
  return differ;
}

// ------------------------------ Engine, skip rule, vector length

// Why this host cannot run what COHERIQ_ENGINE asks for, when that is the only reason (as the
// kernel suite's main.cpp decides): every engine it names exists, composes, and lacks CPU
// features or host properties here. Empty otherwise: then the error is a failure.
std::string host_shortfall() {
  const char* value = std::getenv("COHERIQ_ENGINE");
  std::vector<std::string> requested;
  std::vector<coheriq::EngineInfo> infos;
  try {
    requested = coheriq::detail::parse_engine_list(value != nullptr ? value : "", "COHERIQ_ENGINE");
    infos = coheriq::engines(ck::domain_name);
  } catch (const coheriq::Error&) {
    return {};
  }
  std::string out;
  for (const std::string& name : requested) {
    const coheriq::EngineInfo* info = nullptr;
    for (const coheriq::EngineInfo& candidate : infos) {
      if (candidate.name == name) info = &candidate;
    }
    if (info == nullptr || !info->error.empty()) return {};
    if (info->missing_features.empty() && info->missing_host.empty()) return {};
    std::string missing;
    for (const auto* list : {&info->missing_features, &info->missing_host}) {
      for (const std::string& m : *list) missing += (missing.empty() ? "" : ", ") + m;
    }
    out += (out.empty() ? "" : "; ") +
           ("engine " + name + " is not supported on this host: " + "missing " + missing);
  }
  return out;
}

// The SVE vector length of this thread in bits (0 without SVE); with `set`, first sets it
// (prctl; the pool's threads, started later, take it).
size_t sve_bits(size_t set) {
#if defined(__aarch64__) && defined(__linux__) && defined(HWCAP_SVE) && defined(PR_SVE_SET_VL)
  if ((getauxval(AT_HWCAP) & HWCAP_SVE) == 0) return 0;
  const int vl =
      set != 0 ? prctl(PR_SVE_SET_VL, static_cast<unsigned long>(set / 8)) : prctl(PR_SVE_GET_VL);
  return vl < 0 ? 0 : static_cast<size_t>(vl & PR_SVE_VL_LEN_MASK) * 8;
#else
  (void)set;
  return 0;
#endif
}

struct Options {
  size_t threads = 1;
  bool print = false;
  std::string expect;
  bool mode_off = false;
  size_t sve = 0;
};

int usage(const char* argv0, const std::string& why) {
  std::fprintf(stderr,
               "coheriq_reproducible_digest: %s\n"
               "usage: %s [--threads N] [--print] [--expect FILE] [--mode-off] [--sve-bits B]\n",
               why.c_str(), argv0);
  return kUsage;
}

bool parse_count(const char* text, size_t& out) {
  char* end = nullptr;
  const unsigned long long v = std::strtoull(text, &end, 10);
  if (end == text || *end != '\0' || v == 0 || text[0] == '-') return false;
  out = static_cast<size_t>(v);
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  Options opt;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const bool has_value = i + 1 < argc;
    if (arg == "--threads" && has_value) {
      if (!parse_count(argv[++i], opt.threads)) return usage(argv[0], "--threads takes N >= 1");
    } else if (arg == "--expect" && has_value) {
      opt.expect = argv[++i];
    } else if (arg == "--sve-bits" && has_value) {
      if (!parse_count(argv[++i], opt.sve)) return usage(argv[0], "--sve-bits takes a length");
    } else if (arg == "--print") {
      opt.print = true;
    } else if (arg == "--mode-off") {
      opt.mode_off = true;
    } else {
      return usage(argv[0], "unknown or incomplete argument '" + arg + "'");
    }
  }
  if (!opt.print && opt.expect.empty())
    return usage(argv[0], "pass --print, --expect FILE or both");

  if (opt.sve != 0 && sve_bits(opt.sve) != opt.sve) {
    std::fprintf(stderr,
                 "coheriq_reproducible_digest: asked for %zu-bit SVE vectors, the host set %zu "
                 "(0: no SVE)\n",
                 opt.sve, sve_bits(0));
    return kDigestsDiffer;
  }
  if (!opt.mode_off) {
    try {
      ck::enable_reproducible();
    } catch (const std::exception& error) {
      std::fprintf(stderr,
                   "coheriq_reproducible_digest: the reproducible mode cannot be turned on: %s\n"
                   "coheriq_reproducible_digest: a failure, not a skip: every engine must "
                   "serve the mode (--mode-off runs without it, for debugging)\n",
                   error.what());
      return kNoReproducibleMode;
    }
  }
  std::string engine;
  try {
    ck::set_num_threads(opt.threads);
    engine = ck::active_engine();
    if (ck::num_threads() != opt.threads) {
      std::fprintf(stderr, "coheriq_reproducible_digest: asked for %zu threads, got %zu\n",
                   opt.threads, ck::num_threads());
      return kDigestsDiffer;
    }
    if (ck::reproducible() == opt.mode_off) {
      std::fprintf(stderr, "coheriq_reproducible_digest: the mode is %s, expected %s\n",
                   opt.mode_off ? "on" : "off", opt.mode_off ? "off" : "on");
      return kDigestsDiffer;
    }
  } catch (const coheriq::Error& error) {
    const std::string shortfall = host_shortfall();
    if (!shortfall.empty()) {
      std::printf("SKIPPED: %s\n", shortfall.c_str());
      return kSkipped;
    }
    std::fprintf(stderr, "coheriq_reproducible_digest: %s\n", error.what());
    return kDigestsDiffer;
  }

  const auto start = std::chrono::steady_clock::now();
  try {
    run_all();
  } catch (const std::exception& error) {
    std::fprintf(stderr, "coheriq_reproducible_digest: a kernel failed: %s\n", error.what());
    return kDigestsDiffer;
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const std::vector<std::string> missing = uncovered();
  for (const std::string& name : missing) {
    std::fprintf(stderr,
                 "coheriq_reproducible_digest: candidate %s of the kernels' table is not run; "
                 "add it to reproducible_test.cpp\n",
                 name.c_str());
  }
  const std::string sve = sve_bits(0) != 0 ? ", SVE " + std::to_string(sve_bits(0)) + " bits" : "";
  const std::string run = "engine " + engine + ", " + std::to_string(opt.threads) + " thread(s)" +
                          sve + ", reproducible mode " + (opt.mode_off ? "off" : "on");
  const auto result = result_lines();
  std::fprintf(stderr, "coheriq_reproducible_digest: %s: %zu kernel lines in %.2f s\n", run.c_str(),
               result.size() - 1, seconds);
  if (opt.print) {
    // Comments, which the comparison ignores: what the file is and what generated it, so that
    // a regenerated file says so in its diff.
    std::printf(
        "# The reproducible mode's digests: every engine, SVE vector length and thread count\n"
        "# must print these lines (tests/kernels/reproducible_test.cpp). Regenerated only for an\n"
        "# intended change of order, in a reviewed commit of its own: docs/testing.md.\n"
        "# coheriq_reproducible_digest --print: %s\n",
        run.c_str());
    for (const auto& [name, digest] : result) std::printf("%s %s\n", name.c_str(), digest.c_str());
  }
  int differ = 0;
  if (!opt.expect.empty()) {
    try {
      differ = compare(result, opt.expect);
    } catch (const std::exception& error) {
      std::fprintf(stderr, "coheriq_reproducible_digest: %s\n", error.what());
      return kDigestsDiffer;
    }
    if (differ != 0) {
      std::fprintf(stderr,
                   "coheriq_reproducible_digest: %d of %zu lines differ from %s (%s); an "
                   "intended change of order regenerates it: docs/testing.md\n",
                   differ, result.size(), opt.expect.c_str(), run.c_str());
    } else {
      std::fprintf(stderr, "coheriq_reproducible_digest: all %zu lines match %s\n", result.size(),
                   opt.expect.c_str());
    }
  }
  return differ != 0 || !missing.empty() ? kDigestsDiffer : 0;
}
