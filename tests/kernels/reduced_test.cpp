// The reduced-precision kernels of the engine in effect against the tests' own oracles: int64
// sums for the integer kernels (exact equality; the true sum whenever it fits int32, which the
// kernels guarantee up to n = k = 65793, and the same sum modulo 2^32 beyond), long double sums
// of the bf16 values as floats for the bf16 kernels, with the bound stated at each check. Sizes
// around every tile edge (16, 48 and 64 columns, 4-byte k-groups, 8-row tiles), n = 0,
// leading dimensions wider than a row (the padding holds garbage that must not leak), and data
// misaligned by one element.
#include <doctest/doctest.h>

#include <coheriq/kernels.hpp>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <ios>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "support.hpp"

namespace coheriq::kernels::testing {
namespace {

// ------------------------------ bfloat16

std::uint32_t bits_of(float f) {
  std::uint32_t b;
  std::memcpy(&b, &f, sizeof b);
  return b;
}
float float_of(std::uint32_t b) {
  float f;
  std::memcpy(&f, &b, sizeof f);
  return f;
}

TEST_CASE("bfloat16 is 16-bit storage that rounds to nearest even") {
  static_assert(sizeof(bfloat16) == 2);
  static_assert(std::is_trivially_copyable_v<bfloat16>);
  CHECK(bfloat16(1.0f).bits() == 0x3f80);
  CHECK(static_cast<float>(bfloat16(-2.5f)) == -2.5f);
  CHECK(bfloat16::from_bits(0x4049).bits() == 0x4049);
  CHECK(static_cast<float>(bfloat16::from_bits(0x4049)) == float_of(0x40490000u));
  // Ties go to the even neighbour, everything else to the nearest.
  CHECK(bfloat16(float_of(0x3f808000u)).bits() == 0x3f80);  // tie, 0x3f80 even
  CHECK(bfloat16(float_of(0x3f818000u)).bits() == 0x3f82);  // tie, 0x3f82 even
  CHECK(bfloat16(float_of(0x3f808001u)).bits() == 0x3f81);  // above the tie
  CHECK(bfloat16(float_of(0x3f807fffu)).bits() == 0x3f80);  // below the tie
  CHECK(bfloat16(float_of(0xbf818000u)).bits() == 0xbf82);  // sign does not matter
  // Overflow rounds to infinity; infinities, zeros and subnormals keep their meaning.
  CHECK(bfloat16(std::numeric_limits<float>::max()).bits() == 0x7f80);
  CHECK(bfloat16(kInf<float>).bits() == 0x7f80);
  CHECK(bfloat16(-kInf<float>).bits() == 0xff80);
  CHECK(bfloat16(-0.0f).bits() == 0x8000);
  CHECK(bfloat16(float_of(0x00010000u)).bits() == 0x0001);
  // NaN stays NaN, whatever its payload (a payload in the low half alone must not become Inf).
  for (std::uint32_t nan : {0x7fc00000u, 0x7f800001u, 0xff800001u, 0x7fffffffu}) {
    const bfloat16 b(float_of(nan));
    CHECK_MESSAGE(std::isnan(static_cast<float>(b)), "0x" << std::hex << nan);
    CHECK((b.bits() & 0x8000) == ((nan >> 16) & 0x8000));
  }
  // operator float is exact: every bf16 pattern survives a round trip.
  std::size_t failures = 0;
  for (std::uint32_t b = 0; b < 0x10000; ++b) {
    const float f = static_cast<float>(bfloat16::from_bits(static_cast<std::uint16_t>(b)));
    if (bits_of(f) != b << 16) ++failures;
    if (!std::isnan(f) && bfloat16(f).bits() != b) ++failures;
  }
  CHECK(failures == 0);
}

// ------------------------------ Data

constexpr std::size_t kSizes[] = {0,   1,   2,   3,   4,   5,   7,   8,    15,  16,
                                  17,  31,  32,  33,  47,  48,  49,  63,   64,  65,
                                  127, 128, 129, 255, 256, 257, 511, 1000, 4093};

void fill_u8(std::uint8_t* x, std::size_t n, Random& random) {
  for (std::size_t i = 0; i < n; ++i) x[i] = static_cast<std::uint8_t>(random.index(256));
}
void fill_s8(std::int8_t* x, std::size_t n, Random& random) {
  for (std::size_t i = 0; i < n; ++i) x[i] = static_cast<std::int8_t>(int(random.index(256)) - 128);
}
// Normal bf16 values across a few binades, both signs (no subnormals: vdpbf16ps treats them as
// zero, and the kernels promise f32 accumulation, not subnormal bf16 arithmetic).
void fill_bf16(bfloat16* x, std::size_t n, Random& random) {
  for (std::size_t i = 0; i < n; ++i) x[i] = bfloat16(random.wide<float>(6));
}
float f(bfloat16 v) { return static_cast<float>(v); }

// What an int32 accumulator holds after adding `exact`: exact itself when it fits, else wrapped.
std::int32_t wrapped(std::int64_t exact) {
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(static_cast<std::uint64_t>(exact)));
}

// ------------------------------ dot_u8s8

TEST_CASE("dot_u8s8 is exact for every size, alignment and value") {
  Random random(100);
  for (std::size_t n : kSizes) {
    for (std::size_t offset : kOffsets) {
      Buffer<std::uint8_t> x(n, offset);
      Buffer<std::int8_t> y(n, offset + 2);  // the two misaligned differently
      fill_u8(x.data(), n, random);
      fill_s8(y.data(), n, random);
      std::int64_t exact = 0;
      for (std::size_t i = 0; i < n; ++i) exact += std::int64_t{x[i]} * y[i];
      CHECK_MESSAGE(dot_u8s8(n, x.data(), y.data()) == exact, "n = " << n << ", offset " << offset);
    }
  }
  // n = 0 with any pointers.
  CHECK(dot_u8s8(0, nullptr, nullptr) == 0);
}

TEST_CASE("dot_u8s8 accumulation range: exact at n = 65793 of the extreme products, then wraps") {
  // 255·(-128) is the product of largest magnitude; 65793 of them, -2147466240, still fit int32.
  const std::size_t n = quick() ? 4099 : 65793;
  std::vector<std::uint8_t> x(n + 7, 255);
  std::vector<std::int8_t> y(n + 7, -128);
  CHECK(dot_u8s8(n, x.data(), y.data()) == std::int64_t(n) * 255 * -128);
  // Beyond the range the sum wraps modulo 2^32 (never saturates), like the reference.
  const std::size_t over = n + 7;
  CHECK(dot_u8s8(over, x.data(), y.data()) == wrapped(std::int64_t(over) * 255 * -128));
  std::vector<std::int8_t> positive(over, 127);
  CHECK(dot_u8s8(over, x.data(), positive.data()) == wrapped(std::int64_t(over) * 255 * 127));
}

// ------------------------------ GEMM shapes

struct ReducedShape {
  std::size_t m, n, k;
};
// Rows around 8-row tiles, columns around 16-, 48- and 64-column panels, k around 4-byte groups
// and pairs; then a few products of some hundreds.
std::vector<ReducedShape> reduced_shapes() {
  std::vector<ReducedShape> shapes = {{0, 5, 3},    {4, 0, 3},    {3, 5, 0},    {1, 1, 1},
                                      {1, 16, 4},   {2, 17, 5},   {7, 15, 3},   {8, 48, 8},
                                      {9, 49, 9},   {13, 33, 6},  {5, 64, 2},   {6, 65, 7},
                                      {17, 97, 31}, {3, 200, 65}, {31, 47, 130}};
  if (!quick()) {
    shapes.push_back({67, 131, 259});
    shapes.push_back({129, 250, 515});
  }
  return shapes;
}

// A row-major rows x cols matrix, leading dimension cols + pad, `offset` elements past a 64-byte
// boundary; the padding holds `garbage`.
template <class T>
struct Strided {
  Strided(std::size_t rows, std::size_t cols, std::size_t pad, std::size_t offset, T garbage)
      : ld(cols + pad), buffer(rows * (cols + pad) + 1, offset) {
    for (T& v : buffer) v = garbage;
  }
  T& at(std::size_t r, std::size_t c) { return buffer[r * ld + c]; }
  std::size_t ld;
  Buffer<T> buffer;
};

struct Layout {
  std::size_t pad, offset;
};
constexpr Layout kLayouts[] = {{0, 0}, {3, 1}};

TEST_CASE("gemm_u8s8s32 is exact for every shape and layout") {
  Random random(101);
  for (const ReducedShape& s : reduced_shapes()) {
    for (const Layout& layout : kLayouts) {
      Strided<std::uint8_t> a(s.m, s.k, layout.pad, layout.offset, 0xff);
      Strided<std::int8_t> b(s.k, s.n, layout.pad, layout.offset, -128);
      Strided<std::int32_t> c(s.m, s.n, layout.pad, layout.offset, 0x5a5a5a5a);
      for (std::size_t i = 0; i < s.m; ++i) fill_u8(&a.at(i, 0), s.k, random);
      for (std::size_t p = 0; p < s.k; ++p) fill_s8(&b.at(p, 0), s.n, random);
      gemm_u8s8s32(s.m, s.n, s.k, a.buffer.data(), a.ld, b.buffer.data(), b.ld, c.buffer.data(),
                   c.ld);
      Failures failures;
      for (std::size_t i = 0; i < s.m; ++i) {
        for (std::size_t j = 0; j < s.n; ++j) {
          std::int64_t exact = 0;
          for (std::size_t p = 0; p < s.k; ++p) exact += std::int64_t{a.at(i, p)} * b.at(p, j);
          if (c.at(i, j) != exact) {
            failures.add([&] {
              return "C(" + std::to_string(i) + ", " + std::to_string(j) +
                     ") = " + std::to_string(c.at(i, j)) + ", exact " + std::to_string(exact);
            });
          }
        }
        // The padding of C is not written.
        for (std::size_t j = s.n; j < c.ld; ++j) {
          if (c.at(i, j) != 0x5a5a5a5a)
            failures.add([] { return std::string("C padding written"); });
        }
      }
      CHECK_MESSAGE(failures.none(),
                    "gemm_u8s8s32 m = " << s.m << ", n = " << s.n << ", k = " << s.k << ", pad "
                                        << layout.pad << ", offset " << layout.offset << ": "
                                        << failures.report());
    }
  }
}

TEST_CASE("gemm_u8s8s32 accumulation range: exact for the extreme products at k = 65793") {
  const std::size_t k = quick() ? 515 : 65793;
  const std::size_t m = 3, n = 19;
  std::vector<std::uint8_t> a(m * k, 255);
  std::vector<std::int8_t> b(k * n, -128);
  std::vector<std::int32_t> c(m * n, 1);
  gemm_u8s8s32(m, n, k, a.data(), k, b.data(), n, c.data(), n);
  std::size_t wrong = 0;
  for (std::int32_t v : c) wrong += v == std::int64_t(k) * 255 * -128 ? 0 : 1;
  CHECK(wrong == 0);
}

// ------------------------------ dot_bf16

// The bound of f32 accumulation of n exact products: n·eps·Σ|x·y| (eps = 2^-23, twice the unit
// roundoff: any order of summation, FMA or not).
TEST_CASE("dot_bf16 matches a long double sum of the bf16 values within n eps sum|x y|") {
  Random random(102);
  Worst worst;
  for (std::size_t n : kSizes) {
    for (std::size_t offset : kOffsets) {
      Buffer<bfloat16> x(n, offset);
      Buffer<bfloat16> y(n, offset);
      fill_bf16(x.data(), n, random);
      fill_bf16(y.data(), n, random);
      long double exact = 0, magnitude = 0;
      for (std::size_t i = 0; i < n; ++i) {
        const long double p = static_cast<long double>(f(x[i])) * f(y[i]);
        exact += p;
        magnitude += std::fabs(p);
      }
      const long double got = dot_bf16(n, x.data(), y.data());
      const long double error = std::fabs(got - exact);
      const long double bound = static_cast<long double>(n) * kEps<float> * magnitude;
      CHECK_MESSAGE(error <= bound, "n = " << n << ", offset " << offset
                                           << ": dot_bf16 = " << show(double(got)) << ", exact "
                                           << show(double(exact)));
      if (magnitude > 0) {
        worst.offer(double(error / (kEps<float> * magnitude)),
                    [&] { return "n = " + std::to_string(n); });
      }
    }
  }
  CHECK(dot_bf16(0, nullptr, nullptr) == 0.0f);
  report_worst("dot.bf16", worst, "eps*sum|x*y|", "n");
}

// ------------------------------ gemm_bf16

// Per element: (k + 2)·eps·(|alpha|·Σ|a·b| + |beta·c|): k for the f32 accumulation, two more for
// the scaling by alpha and the update by beta.
TEST_CASE("gemm_bf16 matches the long double product of the bf16 values") {
  Random random(103);
  const float kAlphas[] = {1.0f, -0.75f};
  const float kBetas[] = {0.0f, 1.0f, -2.5f};
  Worst worst;
  for (const ReducedShape& s : reduced_shapes()) {
    for (const Layout& layout : kLayouts) {
      for (float alpha : kAlphas) {
        for (float beta : kBetas) {
          Strided<bfloat16> a(s.m, s.k, layout.pad, layout.offset, bfloat16(kNaN<float>));
          Strided<bfloat16> b(s.k, s.n, layout.pad, layout.offset, bfloat16(kNaN<float>));
          // beta == 0: C's old contents are NaN and must not leak.
          Strided<float> c(s.m, s.n, layout.pad, layout.offset, kNaN<float>);
          for (std::size_t i = 0; i < s.m; ++i) fill_bf16(&a.at(i, 0), s.k, random);
          for (std::size_t p = 0; p < s.k; ++p) fill_bf16(&b.at(p, 0), s.n, random);
          std::vector<float> old(s.m * s.n);
          for (std::size_t i = 0; i < s.m; ++i) {
            for (std::size_t j = 0; j < s.n; ++j) {
              if (beta != 0.0f) c.at(i, j) = random.uniform<float>(-4, 4);
              old[i * s.n + j] = c.at(i, j);
            }
          }
          gemm_bf16(s.m, s.n, s.k, alpha, a.buffer.data(), a.ld, b.buffer.data(), b.ld, beta,
                    c.buffer.data(), c.ld);
          Failures failures;
          for (std::size_t i = 0; i < s.m; ++i) {
            for (std::size_t j = 0; j < s.n; ++j) {
              long double dot = 0, magnitude = 0;
              for (std::size_t p = 0; p < s.k; ++p) {
                const long double t = static_cast<long double>(f(a.at(i, p))) * f(b.at(p, j));
                dot += t;
                magnitude += std::fabs(t);
              }
              const long double c_old = beta == 0.0f ? 0.0L : old[i * s.n + j];
              const long double exact = alpha * dot + beta * c_old;
              const long double scale =
                  std::fabs(alpha) * magnitude + std::fabs(beta * c_old) + 1e-30L;
              const long double error = std::fabs(c.at(i, j) - exact);
              const long double bound = static_cast<long double>(s.k + 2) * kEps<float> * scale;
              if (!(error <= bound)) {
                failures.add([&] {
                  return "C(" + std::to_string(i) + ", " + std::to_string(j) +
                         ") = " + show(c.at(i, j)) + ", exact " + show(double(exact));
                });
              }
              worst.offer(double(error / (kEps<float> * scale)), [&] {
                return "m n k = " + std::to_string(s.m) + " " + std::to_string(s.n) + " " +
                       std::to_string(s.k);
              });
            }
            for (std::size_t j = s.n; j < c.ld; ++j) {
              if (!std::isnan(c.at(i, j)))
                failures.add([] { return std::string("C padding written"); });
            }
          }
          CHECK_MESSAGE(failures.none(),
                        "gemm_bf16 m = " << s.m << ", n = " << s.n << ", k = " << s.k << ", pad "
                                         << layout.pad << ", alpha " << alpha << ", beta " << beta
                                         << ": " << failures.report());
        }
      }
    }
  }
  report_worst("gemm.bf16", worst, "eps*(|alpha||A||B| + |beta C|)", "k + 2");
}

// ------------------------------ Argument checks

TEST_CASE("the reduced GEMMs refuse leading dimensions smaller than a row, naming them") {
  std::vector<std::uint8_t> a(64);
  std::vector<std::int8_t> b(64);
  std::vector<std::int32_t> c(64);
  std::vector<bfloat16> ha(64), hb(64);
  std::vector<float> fc(64);
  const auto message = [](auto&& call) {
    try {
      call();
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no exception");
  };
  CHECK(message([&] { gemm_u8s8s32(2, 3, 4, a.data(), 3, b.data(), 3, c.data(), 3); }) ==
        "coheriq: gemm_u8s8s32: lda = 3 is smaller than a row of A (k = 4); pass lda >= 4");
  CHECK(message([&] { gemm_u8s8s32(2, 3, 4, a.data(), 4, b.data(), 2, c.data(), 3); }) ==
        "coheriq: gemm_u8s8s32: ldb = 2 is smaller than a row of B (n = 3); pass ldb >= 3");
  CHECK(message([&] { gemm_bf16(2, 3, 4, 1, ha.data(), 4, hb.data(), 3, 0, fc.data(), 2); }) ==
        "coheriq: gemm_bf16: ldc = 2 is smaller than a row of C (n = 3); pass ldc >= 3");
}

}  // namespace
}  // namespace coheriq::kernels::testing
