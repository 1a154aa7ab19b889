// The complex BLAS-1 kernels (dotu_strided, dotc_strided, axpy_strided, axpyc_strided over
// std::complex<float> and std::complex<double>) of the engine in effect against a long double
// oracle, on the increment classes of strided_test.cpp, across the generic engines' chunk (512
// complex elements) and the vector lengths. The dots' parts are sums of 2n products (bound of
// docs/kernels.md, as the real dot's); each axpy element is a textbook product and a sum, within
// 2 eps of its terms' magnitude per part; elements between the strided ones stay untouched. And
// the complex triangle product behind the complex rank updates against the complex gemm.
#include <doctest/doctest.h>

#include <coheriq/kernels.hpp>

#include <cmath>
#include <complex>
#include <cstddef>
#include <cstring>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "kernels/candidates.hpp"
#include "kernels/complex_gemm.hpp"
#include "oracle.hpp"
#include "support.hpp"

namespace coheriq::kernels::testing {
namespace {

constexpr std::size_t kSizes[] = {0,  1,  2,  3,  4,   5,   7,   8,   9,
                                  15, 16, 17, 33, 100, 511, 512, 513, 1300};
constexpr std::ptrdiff_t kIncrements[] = {1, 2, 3, -1, -2, -5, 100};

std::string where(const char* kernel, std::size_t n, std::ptrdiff_t incx, std::ptrdiff_t incy) {
  return std::string(kernel) + " n = " + std::to_string(n) + ", incx = " + std::to_string(incx) +
         ", incy = " + std::to_string(incy);
}

using WideComplex = std::complex<Wide>;
template <class R>
WideComplex wide(std::complex<R> v) {
  return {Wide(v.real()), Wide(v.imag())};
}
// |re| + |im|: each part of a product is bounded by the product of these.
template <class R>
Wide magnitude(std::complex<R> v) {
  return std::fabs(Wide(v.real())) + std::fabs(Wide(v.imag()));
}

TEST_CASE_TEMPLATE("complex dotu and dotc are within the dot's bound of the oracle", R, float,
                   double) {
  using C = std::complex<R>;
  Random random(21);
  for (std::size_t n : kSizes) {
    for (std::ptrdiff_t incx : kIncrements) {
      for (std::ptrdiff_t incy : {std::ptrdiff_t(1), std::ptrdiff_t(-3), incx}) {
        Strided<C> x(n, incx, random), y(n, incy, random);
        const std::vector<C> gx = x.gathered(), gy = y.gathered();
        for (const bool conj : {false, true}) {
          WideComplex exact = 0;
          Wide size = 0;
          for (std::size_t i = 0; i < n; ++i) {
            const WideComplex a = conj ? std::conj(wide(gx[i])) : wide(gx[i]);
            exact += a * wide(gy[i]);
            size += magnitude(gx[i]) * magnitude(gy[i]);
          }
          C got(R(77), R(77));
          if (conj) {
            dotc_strided(n, x.base(), incx, y.base(), incy, &got);
          } else {
            dotu_strided(n, x.base(), incx, y.base(), incy, &got);
          }
          const double allowed =
              (summation_bound(2 * n) * double(kEps<R>) + oracle_error(2 * n)) * double(size);
          const char* name = conj ? "dotc_strided" : "dotu_strided";
          CHECK_MESSAGE(double(std::fabs(Wide(got.real()) - exact.real())) <= allowed,
                        where(name, n, incx, incy), ": re ", show(double(got.real())));
          CHECK_MESSAGE(double(std::fabs(Wide(got.imag()) - exact.imag())) <= allowed,
                        where(name, n, incx, incy), ": im ", show(double(got.imag())));
        }
        CHECK_MESSAGE(x.gathered() == gx, where("complex dot changed x", n, incx, incy));
      }
    }
  }
}

// y + a·conj?(x) element by element, each part within 2 eps of its terms.
template <class R>
std::size_t axpy_errors(bool conj, std::complex<R> a, const std::vector<std::complex<R>>& gx,
                        const std::vector<std::complex<R>>& gy, Strided<std::complex<R>>& y) {
  std::size_t bad = 0;
  for (std::size_t i = 0; i < gx.size(); ++i) {
    const WideComplex xi = conj ? std::conj(wide(gx[i])) : wide(gx[i]);
    const WideComplex exact = wide(gy[i]) + wide(a) * xi;
    const Wide size = magnitude(a) * magnitude(gx[i]) + magnitude(gy[i]);
    const Wide allowed = 2 * Wide(kEps<R>) * size;
    const std::complex<R> got = y.at(i);
    if (std::fabs(Wide(got.real()) - exact.real()) > allowed ||
        std::fabs(Wide(got.imag()) - exact.imag()) > allowed) {
      ++bad;
    }
  }
  return bad;
}

TEST_CASE_TEMPLATE("complex axpy and axpyc write only their elements, within 2 eps", R, float,
                   double) {
  using C = std::complex<R>;
  Random random(23);
  const C a(R(-0.625), R(0.375));
  for (std::size_t n : kSizes) {
    for (std::ptrdiff_t incx : kIncrements) {
      for (std::ptrdiff_t incy : {std::ptrdiff_t(1), std::ptrdiff_t(-2), std::ptrdiff_t(5), incx}) {
        for (const bool conj : {false, true}) {
          Strided<C> x(n, incx, random), y(n, incy, random);
          const std::vector<C> gx = x.gathered(), gy = y.gathered();
          const char* name = conj ? "axpyc_strided" : "axpy_strided";
          if (conj) {
            axpyc_strided(n, a, x.base(), incx, y.base(), incy);
          } else {
            axpy_strided(n, a, x.base(), incx, y.base(), incy);
          }
          const std::size_t bad = axpy_errors(conj, a, gx, gy, y);
          CHECK_MESSAGE(bad == 0, where(name, n, incx, incy), ": ", bad, " elements off");
          CHECK_MESSAGE(y.untouched_between(), where(name, n, incx, incy), ": wrote between");
          CHECK_MESSAGE(x.gathered() == gx, where(name, n, incx, incy), ": changed x");
        }
      }
      // In place: y == x with one increment gives x += a·conj?(x).
      for (const bool conj : {false, true}) {
        Strided<C> z(n, incx, random);
        const std::vector<C> gz = z.gathered();
        if (conj) {
          axpyc_strided(n, a, z.base(), incx, z.base(), incx);
        } else {
          axpy_strided(n, a, z.base(), incx, z.base(), incx);
        }
        CHECK_MESSAGE(
            axpy_errors(conj, a, gz, gz, z) == 0,
            where(conj ? "axpyc_strided in place" : "axpy_strided in place", n, incx, incx));
      }
    }
  }
}

TEST_CASE_TEMPLATE("complex axpy with an increment of 0 on y applies every update in order", R,
                   float, double) {
  using C = std::complex<R>;
  std::vector<C> x;
  for (int i = 1; i <= 20; ++i) x.emplace_back(R(i), R(0.5) * R(i));
  const C a(R(0.25), R(-0.5));
  for (const bool conj : {false, true}) {
    // Small integers and quarters: every sum here is exact, so any order of the terms of one
    // update gives the same bits, and only the order of the updates could differ.
    C expected(R(0.5), R(-1));
    for (const C& v : x) expected += a * (conj ? std::conj(v) : v);
    C y(R(0.5), R(-1));
    if (conj) {
      axpyc_strided(x.size(), a, x.data(), 1, &y, 0);
    } else {
      axpy_strided(x.size(), a, x.data(), 1, &y, 0);
    }
    CHECK_MESSAGE(y == expected, (conj ? "axpyc" : "axpy"), " with incy = 0");
  }
}

TEST_CASE_TEMPLATE("complex dots of n = 0 are 0, and NaN and Inf reach the result", R, float,
                   double) {
  using C = std::complex<R>;
  const C x[] = {C(R(1), R(2)), C(kNaN<R>, R(0)), C(R(3), R(4))};
  const C y[] = {C(R(1), R(0)), C(R(1), R(1)), C(kInf<R>, R(0))};
  C got(R(9), R(9));
  dotu_strided(0, x, 1, y, 1, &got);
  CHECK(got == C(R(0), R(0)));
  dotc_strided(3, x, 1, y, 1, &got);
  CHECK(std::isnan(got.real()));
  CHECK(std::isnan(got.imag()));
  dotu_strided(1, x + 2, 1, y + 2, 1, &got);  // (3 + 4i)·Inf = Inf + Inf·i
  CHECK(std::isinf(got.real()));
  CHECK(std::isinf(got.imag()));
}

// The triangle product of the complex rank updates (level3::real_triangle_product: the engine's
// gemmt on C's interleaved reals, a panel of op(B)'s columns at a time; herk's and syrk's with
// B = A, a term of her2k's and syr2k's with another B): on C's `uplo` triangle the complex gemm's
// bits for the same operands (a Hermitian diagonal: its real part, and 0),
// nothing written elsewhere, C's padding included. Panels of 16 columns (the fewest), so that the
// larger orders cross several; a Hermitian diagonal's imaginary parts are NaN (not read), and so
// is the triangle when beta == 0. Quick runs leave out order 70 at depth 40 (60% of the case, 24 s
// of the qemu64 suite; 70 still runs at the shallower depths).
TEST_CASE_TEMPLATE("the complex triangle product writes the complex gemm's bits on C's triangle", R,
                   float, double) {
  using C = std::complex<R>;
  const R nan = std::numeric_limits<R>::quiet_NaN();
  Random random(35);
  const auto value = [&] { return C(random.uniform<R>(-1, 1), random.uniform<R>(-1, 1)); };
  for (const bool hermitian : {false, true}) {
    const Op across = hermitian ? Op::C : Op::T;
    for (const auto& [opa, opb] : {std::pair{Op::N, across}, std::pair{across, Op::N}}) {
      for (const std::size_t n : {1, 7, 16, 37, 70}) {
        for (const std::size_t k : {1, 9, 40}) {
          if (quick() && n == 70 && k == 40) continue;
          for (const Uplo uplo : {Uplo::Lower, Uplo::Upper}) {
            for (const R beta_re : {R(0), R(1), R(0.75)}) {
              const C alpha(R(0.7), hermitian ? R(0) : R(0.3));
              const C beta(beta_re, hermitian || beta_re != R(0.75) ? R(0) : R(-0.5));
              const bool t = opa != Op::N;
              const std::size_t lda = (t ? n : k) + 3, ldc = n + 2;
              std::vector<C> a((t ? k : n) * lda), b(a.size());
              for (C& v : a) v = value();
              for (C& v : b) v = value();
              std::vector<C> c(n * ldc);
              for (C& v : c) v = value();
              const auto inside = [&](std::size_t i, std::size_t j) {
                return j < n && (uplo == Uplo::Lower ? j <= i : j >= i);
              };
              for (std::size_t i = 0; i < n; ++i) {
                for (std::size_t j = 0; j < n; ++j) {
                  if (inside(i, j) && beta == C(0)) c[i * ldc + j] = C(nan, nan);
                }
                if (hermitian && beta != C(0)) c[i * ldc + i].imag(nan);
              }
              std::vector<C> expected = c;  // the gemm's, on the triangle
              for (std::size_t i = 0; hermitian && beta != C(0) && i < n; ++i) {
                expected[i * ldc + i].imag(0);
              }
              level3::real_product(opa, opb, n, n, k, alpha, a.data(), lda, b.data(), lda, beta,
                                   expected.data(), ldc);
              for (std::size_t i = 0; i < n; ++i) {
                for (std::size_t j = 0; j < ldc; ++j) {
                  C& e = expected[i * ldc + j];
                  if (!inside(i, j)) e = c[i * ldc + j];
                  if (hermitian && i == j) e.imag(0);
                }
              }
              std::vector<C> got = c;
              level3::real_triangle_product(hermitian, uplo, opa, opb, n, k, alpha, a.data(), lda,
                                            b.data(), lda, beta, got.data(), ldc, 1);
              CAPTURE(hermitian);
              CAPTURE(n);
              CAPTURE(k);
              CAPTURE(uplo == Uplo::Lower ? "Lower" : "Upper");
              CAPTURE(beta_re);
              CAPTURE(t);
              CHECK(std::memcmp(got.data(), expected.data(), got.size() * sizeof(C)) == 0);
            }
          }
        }
      }
    }
  }
}

// The complex products on the engine's packing (pack_b_1m, gemm_1m and gemmt_1m,
// kernels_table.hpp): gemm_1m on what pack_b_1m packed gives the real gemm's bits on op(A) as
// reals and the 1m expansion, both written out here (their definitions, with std::complex's
// parts), and gemmt_1m gemmt's, on C's triangle only. Every op(B), op(A) as stored or transposed
// and conjugated or not, alpha 1 (op(B)'s own values) or not, depths that cross the k-blocks (2k
// = 600 and 1400), widths around a panel of columns, an odd depth (a k group half filled).
TEST_CASE_TEMPLATE("gemm_1m and gemmt_1m on pack_b_1m's packing are gemm on the expansion", R,
                   float, double) {
  using C = std::complex<R>;
  using Candidates = GemmCandidates<R>;
  Random random(38);
  const auto value = [&] { return C(random.uniform<R>(-1, 1), random.uniform<R>(-1, 1)); };
  std::vector<std::pair<std::size_t, std::size_t>> shapes = {{1, 1}, {3, 17}, {300, 9}};
  if (!quick()) shapes.push_back({700, 40});
  for (const auto& [k, n] : shapes) {
    for (const Op op : {Op::N, Op::T, Op::C, Op::Conj}) {
      for (const Trans ta : {Trans::N, Trans::T}) {
        const bool conj_a = (k + n + int(op)) % 2 == 0;
        for (const C alpha : {C(1), C(R(0.7), R(-0.3))}) {
          const bool t = op == Op::T || op == Op::C;
          const std::size_t ldb = (t ? k : n) + 3;
          std::vector<C> b((t ? n : k) * ldb);
          for (C& v : b) v = value();
          // The expansion, 2k x 2n reals.
          const R s = conj_a ? R(-1) : R(1);
          std::vector<R> expansion(4 * k * n);
          for (std::size_t l = 0; l < k; ++l) {
            for (std::size_t j = 0; j < n; ++j) {
              C v = t ? b[j * ldb + l] : b[l * ldb + j];
              if (op == Op::C || op == Op::Conj) v = std::conj(v);
              if (alpha != C(1)) {
                v = C(alpha.real() * v.real() - alpha.imag() * v.imag(),
                      alpha.real() * v.imag() + alpha.imag() * v.real());
              }
              R* even = expansion.data() + 2 * l * 2 * n + 2 * j;
              R* odd = even + 2 * n;
              even[0] = v.real();
              even[1] = v.imag();
              odd[0] = -s * v.imag();
              odd[1] = s * v.real();
            }
          }
          Buffer<unsigned char> packed(
              coheriq::call<Domain, typename Candidates::packed_bytes>(2 * k, 2 * n), 0);
          coheriq::call<Domain, typename Candidates::pack_b_1m>(
              op, conj_a, k, n, alpha.real(), alpha.imag(), reinterpret_cast<const R*>(b.data()),
              ldb, packed.data());
          // op(A), n x k (the triangle's square), and as reals, n x 2k.
          const std::size_t lda = (ta == Trans::N ? k : n) + 2;
          std::vector<C> a((ta == Trans::N ? n : k) * lda);
          for (C& v : a) v = value();
          std::vector<R> real_a(n * 2 * k);
          for (std::size_t i = 0; i < n; ++i) {
            for (std::size_t l = 0; l < k; ++l) {
              const C v = ta == Trans::N ? a[i * lda + l] : a[l * lda + i];
              real_a[i * 2 * k + 2 * l] = v.real();
              real_a[i * 2 * k + 2 * l + 1] = v.imag();
            }
          }
          const std::size_t ldc = n + 1;
          std::vector<C> c(n * ldc);
          for (C& v : c) v = value();
          CAPTURE(k);
          CAPTURE(n);
          CAPTURE(int(op));
          CAPTURE(ta == Trans::T);
          CAPTURE(conj_a);
          CAPTURE(alpha.imag());
          Buffer<unsigned char> work(
              coheriq::call<Domain, typename Candidates::gemm_1m_workspace>(n, k), 0);
          const R* a_reals = reinterpret_cast<const R*>(a.data());
          std::vector<C> got = c, expected = c;
          coheriq::call<Domain, typename Candidates::gemm_1m>(
              ta, n, n, k, a_reals, lda, packed.data(), R(0.5), reinterpret_cast<R*>(got.data()),
              ldc, work.data());
          gemm(Trans::N, Trans::N, n, 2 * n, 2 * k, R(1), real_a.data(), 2 * k, expansion.data(),
               2 * n, R(0.5), reinterpret_cast<R*>(expected.data()), 2 * ldc);
          CHECK(std::memcmp(got.data(), expected.data(), got.size() * sizeof(C)) == 0);
          for (const Uplo uplo : {Uplo::Lower, Uplo::Upper}) {
            got = c;
            expected = c;
            coheriq::call<Domain, typename Candidates::gemmt_1m>(
                uplo, ta, n, k, a_reals, lda, packed.data(), R(1), reinterpret_cast<R*>(got.data()),
                ldc, work.data());
            Buffer<unsigned char> gemmt_work(
                coheriq::call<Domain, typename Candidates::gemmt_workspace>(n, 2, 2 * k), 0);
            coheriq::call<Domain, typename Candidates::gemmt>(
                uplo, Trans::N, Trans::N, n, 2, 2 * k, R(1), real_a.data(), 2 * k, expansion.data(),
                2 * n, R(1), reinterpret_cast<R*>(expected.data()), 2 * ldc, gemmt_work.data());
            CHECK(std::memcmp(got.data(), expected.data(), got.size() * sizeof(C)) == 0);
          }
        }
      }
    }
  }
}

}  // namespace
}  // namespace coheriq::kernels::testing
