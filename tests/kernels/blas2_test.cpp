// gemv and ger of the engine in effect against the long double oracle of oracle.hpp: both gemv
// forms on sizes around the vector lengths and the generic engines' chunk (1024), increments of
// every sign (0 for the vectors only read), leading dimensions past the row; and the reference
// BLAS's rules (docs/kernels.md): alpha == 0 reads neither A nor x, beta == 0 does not read y,
// m == 0 or n == 0 leaves y untouched, ger skips the rows whose x_i is 0. Nothing outside the
// written elements may change.
#include <doctest/doctest.h>

#include <coheriq/kernels.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "oracle.hpp"
#include "support.hpp"

namespace coheriq::kernels::testing {
namespace {

constexpr std::size_t kSizes[] = {0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 33, 100};
constexpr std::ptrdiff_t kIncrements[] = {1, 2, -1, -3};

// A row-major m x n matrix with lda = n + 3, the padding holding a sentinel.
template <class T>
struct Matrix {
  Matrix(std::size_t rows, std::size_t cols, Random& random)
      : m(rows), n(cols), lda(cols + 3), storage(rows * (cols + 3), T(54321)) {
    for (std::size_t i = 0; i < m; ++i) {
      for (std::size_t j = 0; j < n; ++j) (*this)(i, j) = random.uniform<T>(T(-1), T(1));
    }
  }
  T& operator()(std::size_t i, std::size_t j) { return storage[i * lda + j]; }
  bool padding_untouched() const {
    for (std::size_t i = 0; i < m; ++i) {
      for (std::size_t j = n; j < lda; ++j) {
        if (storage[i * lda + j] != T(54321)) return false;
      }
    }
    return true;
  }
  std::size_t m, n, lda;
  std::vector<T> storage;
};

std::string where(const char* kernel, std::size_t m, std::size_t n, std::ptrdiff_t incx,
                  std::ptrdiff_t incy) {
  return std::string(kernel) + " m = " + std::to_string(m) + ", n = " + std::to_string(n) +
         ", incx = " + std::to_string(incx) + ", incy = " + std::to_string(incy);
}

template <class T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() &&
         (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

// Checks gemv(op, m, n, alpha, A, x, beta, y) against the oracle, y_i = alpha·Σ op(A)_ij·x_j +
// beta·y_i, within the summation bound of the row's terms plus the two roundings of the update.
template <class T>
void check_gemv(Trans op, std::size_t m, std::size_t n, std::ptrdiff_t incx, std::ptrdiff_t incy,
                T alpha, T beta, Random& random) {
  const bool t = op == Trans::T;
  const std::size_t lx = t ? m : n, ly = t ? n : m;
  Matrix<T> a(m, n, random);
  Strided<T> x(lx, incx, random), y(ly, incy, random);
  const std::vector<T> ga = a.storage, gx = x.gathered(), gy = y.gathered();
  gemv(op, m, n, alpha, a.storage.data(), a.lda, x.base(), incx, beta, y.base(), incy);
  std::size_t bad = 0;
  for (std::size_t i = 0; i < ly; ++i) {
    const auto term = [&](std::size_t j) { return wide_product(t ? a(j, i) : a(i, j), gx[j]); };
    const auto [sum, magnitude] = pairwise_sum<SignedAndMagnitude>(0, lx, term);
    if (m == 0 || n == 0) {  // y untouched
      bad += y.at(i) == gy[i] ? 0 : 1;
      continue;
    }
    const Wide scaled = beta == T(0) ? Wide(0) : Wide(beta) * gy[i];
    const Wide exact = Wide(alpha) * sum + scaled;
    const double bound = (summation_bound(lx) + 3) * double(kEps<T>) *
                             double(std::fabs(Wide(alpha)) * magnitude + std::fabs(scaled)) +
                         oracle_error(lx) * double(magnitude);
    if (double(std::fabs(Wide(y.at(i)) - exact)) > bound) ++bad;
  }
  const std::string at = where(t ? "gemv T" : "gemv N", m, n, incx, incy);
  CHECK_MESSAGE(bad == 0, at, ": ", bad, " elements off");
  CHECK_MESSAGE(y.untouched_between(), at, ": wrote between the elements of y");
  CHECK_MESSAGE(same_bits(a.storage, ga), at, ": changed A");
  CHECK_MESSAGE(x.gathered() == gx, at, ": changed x");
}

TEST_CASE_TEMPLATE("gemv matches the oracle in both forms, any increments", T, float, double) {
  Random random(21);
  for (Trans op : {Trans::N, Trans::T}) {
    for (std::size_t m : kSizes) {
      for (std::size_t n : kSizes) {
        for (std::ptrdiff_t incx : kIncrements) {
          for (std::ptrdiff_t incy : {std::ptrdiff_t(1), std::ptrdiff_t(-2), std::ptrdiff_t(3)}) {
            check_gemv<T>(op, m, n, incx, incy, T(0.75), T(-1.25), random);
          }
        }
        check_gemv<T>(op, m, n, 0, 1, T(1), T(0.5), random);
        check_gemv<T>(op, m, n, 1, 1, T(-2), T(1), random);
        check_gemv<T>(op, m, n, 2, -1, T(1), T(0), random);
      }
    }
    // Past the generic engines' chunk of 1024 columns, the strided vectors taken in pieces.
    for (std::size_t n : {1023, 1024, 1025, 2100}) {
      for (std::ptrdiff_t inc : {1, -2, 3}) {
        check_gemv<T>(op, 9, n, inc, 1, T(0.5), T(2), random);
        check_gemv<T>(op, 6, n, 1, inc, T(0.5), T(2), random);
        check_gemv<T>(op, 5, n, inc, -inc, T(1), T(0), random);
      }
    }
  }
}

TEST_CASE_TEMPLATE("gemv keeps the reference BLAS's rules for alpha, beta and empty sizes", T,
                   float, double) {
  Random random(22);
  for (Trans op : {Trans::N, Trans::T}) {
    for (std::size_t size : {1, 5, 17, 100}) {
      for (std::ptrdiff_t incy : {1, -2}) {
        Matrix<T> a(size, size + 1, random);
        const std::size_t lx = op == Trans::N ? size + 1 : size;
        const std::size_t ly = op == Trans::N ? size : size + 1;
        Strided<T> x(lx, 1, random), y(ly, incy, random);
        const std::string at = where(op == Trans::N ? "gemv N" : "gemv T", size, size + 1, 1, incy);
        // alpha == 0 reads neither A nor x: NaNs there change nothing; y := beta·y exactly.
        std::fill(a.storage.begin(), a.storage.end(), kNaN<T>);
        for (std::size_t i = 0; i < lx; ++i) x.at(i) = kNaN<T>;
        const std::vector<T> gy = y.gathered();
        gemv(op, size, size + 1, T(0), a.storage.data(), a.lda, x.base(), 1, T(-0.5), y.base(),
             incy);
        std::size_t bad = 0;
        for (std::size_t i = 0; i < ly; ++i) bad += y.at(i) == T(-0.5) * gy[i] ? 0 : 1;
        CHECK_MESSAGE(bad == 0, at, ": alpha = 0 is not y := beta·y");
        // alpha == 0 and beta == 1: y untouched; alpha == 0 and beta == 0: y := 0.
        const std::vector<T> before = y.storage;
        gemv(op, size, size + 1, T(0), a.storage.data(), a.lda, x.base(), 1, T(1), y.base(), incy);
        CHECK_MESSAGE(same_bits(y.storage, before), at, ": alpha = 0, beta = 1 changed y");
        for (std::size_t i = 0; i < ly; ++i) y.at(i) = kNaN<T>;
        gemv(op, size, size + 1, T(0), a.storage.data(), a.lda, x.base(), 1, T(0), y.base(), incy);
        CHECK_MESSAGE(y.gathered() == std::vector<T>(ly, T(0)), at, ": alpha = beta = 0");
        CHECK_MESSAGE(y.untouched_between(), at, ": wrote between the elements of y");
      }
      // beta == 0 does not read y: NaNs in y give the product alone.
      Matrix<T> a(size, size, random);
      Strided<T> x(size, 1, random), y(size, 1, random);
      for (std::size_t i = 0; i < size; ++i) y.at(i) = kNaN<T>;
      gemv(op, size, size, T(1), a.storage.data(), a.lda, x.base(), 1, T(0), y.base(), 1);
      std::size_t nan = 0;
      for (std::size_t i = 0; i < size; ++i) nan += std::isnan(y.at(i)) ? 1 : 0;
      CHECK_MESSAGE(nan == 0, "beta = 0 read y: size ", size);
    }
    // m == 0 or n == 0: y untouched even for beta == 0 (no element of op(A)·x exists to add).
    T y[3] = {kNaN<T>, T(2), T(3)};
    const T a[1] = {T(1)}, x[3] = {T(1), T(1), T(1)};
    gemv(op, 0, 3, T(1), a, 3, x, 1, T(0), y, 1);
    gemv(op, 3, 0, T(1), a, 0, x, 1, T(0), y, 1);
    CHECK((std::isnan(y[0]) && y[1] == T(2) && y[2] == T(3)));
  }
}

TEST_CASE("gemv and ger reject an impossible matrix or a zero increment on y") {
  float a[12] = {}, x[4] = {}, y[4] = {};
  CHECK_THROWS_WITH_AS(gemv(Trans::N, 3, 4, 1.0f, a, 3, x, 1, 0.0f, y, 1),
                       doctest::Contains("coheriq: gemv: lda = 3 is smaller than a row of A"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(gemv(Trans::T, 3, 4, 1.0f, a, 4, x, 1, 0.0f, y, 0),
                       doctest::Contains("coheriq: gemv: incy = 0"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(ger(3, 4, 1.0f, x, 1, y, 1, a, 2),
                       doctest::Contains("coheriq: ger: lda = 2 is smaller than a row of A"),
                       std::invalid_argument);
}

TEST_CASE_TEMPLATE("ger matches the oracle and skips the rows whose x_i is 0", T, float, double) {
  Random random(23);
  const auto check = [&](std::size_t m, std::size_t n, std::ptrdiff_t incx, std::ptrdiff_t incy) {
    Matrix<T> a(m, n, random);
    Strided<T> x(m, incx == 0 ? 1 : incx, random), y(n, incy == 0 ? 1 : incy, random);
    const T alpha = T(-0.75);
    const std::vector<T> ga = a.storage, gx = x.gathered(), gy = y.gathered();
    ger(m, n, alpha, x.base(), incx, y.base(), incy, a.storage.data(), a.lda);
    std::size_t bad = 0;
    for (std::size_t i = 0; i < m; ++i) {
      for (std::size_t j = 0; j < n; ++j) {
        const Wide xi = gx[incx == 0 ? 0 : i], yj = gy[incy == 0 ? 0 : j];
        const Wide update = Wide(alpha) * xi * yj, old = ga[i * a.lda + j];
        const Wide bound = 3 * Wide(kEps<T>) * (std::fabs(update) + std::fabs(old));
        if (std::fabs(Wide(a(i, j)) - (old + update)) > bound) ++bad;
      }
    }
    const std::string at = where("ger", m, n, incx, incy);
    CHECK_MESSAGE(bad == 0, at, ": ", bad, " elements off");
    CHECK_MESSAGE(a.padding_untouched(), at, ": wrote past a row");
    CHECK_MESSAGE((x.gathered() == gx && y.gathered() == gy), at, ": changed x or y");
  };
  for (std::size_t m : kSizes) {
    for (std::size_t n : {0, 1, 3, 8, 9, 17, 33, 100}) {
      for (std::ptrdiff_t incx : {1, -2, 0}) {
        for (std::ptrdiff_t incy : {1, -1, 3, 0}) check(m, n, incx, incy);
      }
    }
  }
  // Past the generic engines' chunk of 1024 columns, a strided y gathered in pieces: a few rows
  // suffice (each row is the same axpy of the chunk), as in gemv's case.
  for (std::size_t m : {1, 3, 9}) {
    for (std::ptrdiff_t incx : {1, -2, 0}) {
      for (std::ptrdiff_t incy : {1, -1, 3, 0}) check(m, 1025, incx, incy);
    }
  }
  // x_i == 0 skips row i, so NaN and Inf in y do not reach it; alpha == 0 reads nothing.
  for (std::size_t n : {1, 7, 20}) {
    Matrix<T> a(4, n, random);
    std::vector<T> x = {T(0), T(1), T(0), T(-0.0)}, y(n, T(1));
    y[0] = kNaN<T>;
    y[n - 1] = std::numeric_limits<T>::infinity();
    const std::vector<T> ga = a.storage;
    ger(4, n, T(2), x.data(), 1, y.data(), 1, a.storage.data(), a.lda);
    for (std::size_t i : {0, 2, 3}) {
      CHECK_MESSAGE(std::memcmp(&a(i, 0), &ga[i * a.lda], n * sizeof(T)) == 0, "row ", i, " of ", n,
                    " was touched");
    }
    CHECK(!std::isfinite(a(1, 0)));  // NaN, or Inf when n == 1
    std::vector<T> nan_x(4, kNaN<T>);
    const std::vector<T> before = a.storage;
    ger(4, n, T(0), nan_x.data(), 1, y.data(), 1, a.storage.data(), a.lda);
    CHECK(same_bits(a.storage, before));
  }
}

}  // namespace
}  // namespace coheriq::kernels::testing
