// The matrix functions on Op, Uplo, Side and Diag of the engine in effect (symv, trmv, trsv, hemv;
// trsm, trmm, syrk, syr2k, symm in four types; complex gemm, hemm, herk, her2k) against the
// reference engine's, which are the reference BLAS's loops (src/reference/blas2.cpp, blas3.cpp;
// tests/blas checks those against the system's reference BLAS): every side, uplo, op and diag each
// function takes, at sizes below, at and beyond the generic forms' blocks (8 and 32 rows, symv's
// bands of 32) and their splits, leading dimensions past the row, vectors of any increment. A
// well-conditioned triangle (a diagonal of magnitude 2 to 3) keeps the solves' errors at the order
// of the products', so a normwise bound of a few ulps per term separates a rounding difference from
// a wrong element. What a function must not touch holds NaN (A's other triangle, a Unit diagonal:
// never read) or a sentinel (C's other triangle: never written). The argument checks: a leading
// dimension smaller than its row, an op the rank update does not take.
#include <doctest/doctest.h>

#include <coheriq/kernels.hpp>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstddef>
#include <cstring>
#include <iterator>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "kernels/candidates.hpp"
#include "reference/reference.hpp"
#include "reference/scalar.hpp"
#include "support.hpp"

namespace coheriq::kernels::testing {
namespace {

namespace ref = coheriq::kernels::reference;

using ref::real_t;
template <class T>
constexpr bool kComplex = ref::is_complex_v<T>;

// re + i·im (re alone for a real type).
template <class T>
T make(double re, double im) {
  using R = real_t<T>;
  if constexpr (kComplex<T>) {
    return T(R(re), R(im));
  } else {
    (void)im;
    return T(R(re));
  }
}
template <class T>
T draw(Random& random) {
  using R = real_t<T>;
  if constexpr (kComplex<T>) {
    return T(random.uniform<R>(R(-1), R(1)), random.uniform<R>(R(-1), R(1)));
  } else {
    return random.uniform<R>(R(-1), R(1));
  }
}
template <class T>
T nan_value() {
  return T(kNaN<real_t<T>>);
}
constexpr double kSentinel = 54321;

// (rows, cols) of B or C, a matrix with ld = cols + 2.
struct Shape {
  std::size_t m, n;
};
constexpr Shape kShapes[] = {{0, 3}, {3, 0}, {1, 1}, {5, 9}, {33, 2}, {9, 33}, {40, 70}, {70, 40}};
// Under COHERIQ_TEST_QUICK (emulated CPUs, 25-50x slower) the shapes that still cross the blocks
// of 8 and 32 and both splits, at a twentieth of the work: the emulated runs look for an
// instruction the CPU lacks, which every path reaches at these sizes.
constexpr Shape kQuickShapes[] = {{0, 3}, {1, 1}, {9, 33}, {33, 9}};
std::vector<Shape> shapes() {
  if (quick()) return {std::begin(kQuickShapes), std::end(kQuickShapes)};
  return {std::begin(kShapes), std::end(kShapes)};
}

template <class T>
std::vector<T> random_matrix(std::size_t rows, std::size_t ld, Random& random) {
  std::vector<T> m(rows * ld);
  for (T& v : m) v = draw<T>(random);
  return m;
}

// An order x order matrix whose `uplo` triangle is random with a diagonal of magnitude 2 to 3
// (NaN there when `unit`) and the rest of its rows at most 1 in all (diagonally dominant, so its
// solves are as well conditioned as its products), the other triangle NaN.
template <class T>
std::vector<T> triangle(Uplo uplo, bool unit, std::size_t order, std::size_t ld, Random& random) {
  std::vector<T> a(std::max<std::size_t>(order * ld, 1), nan_value<T>());
  for (std::size_t i = 0; i < order; ++i) {
    for (std::size_t j = 0; j < order; ++j) {
      if (uplo == Uplo::Upper ? j < i : j > i) continue;
      a[i * ld + j] = i == j ? (unit ? nan_value<T>() : T(2.5) + draw<T>(random) / T(2))
                             : draw<T>(random) / T(real_t<T>(order));
    }
  }
  return a;
}

// Whether `ours` and `theirs` agree on every element where `compared(i, j)`, within `terms` ulps
// of the largest magnitude of `theirs` (at least 1), NaN where NaN; elsewhere bit for bit.
template <class T, class Compared>
bool agree(const std::vector<T>& ours, const std::vector<T>& theirs, std::size_t rows,
           std::size_t cols, std::size_t ld, double terms, Compared compared) {
  double scale = 1;
  for (std::size_t i = 0; i < rows; ++i)
    for (std::size_t j = 0; j < cols; ++j)
      if (compared(i, j)) scale = std::max(scale, double(std::abs(theirs[i * ld + j])));
  const double bound = 8 * terms * double(kEps<real_t<T>>) * scale;
  for (std::size_t e = 0; e < ours.size(); ++e) {
    const std::size_t i = e / ld, j = e % ld;
    if (i < rows && j < cols && compared(i, j)) {
      const double diff = double(std::abs(ours[e] - theirs[e]));
      if (!(diff <= bound)) return false;
    } else if (std::memcmp(&ours[e], &theirs[e], sizeof(T)) != 0) {
      return false;
    }
  }
  return true;
}

std::string where(const char* f, int side, int uplo, int op, int diag, Shape s) {
  return std::string(f) + " side " + std::to_string(side) + " uplo " + std::to_string(uplo) +
         " op " + std::to_string(op) + " diag " + std::to_string(diag) + " m " +
         std::to_string(s.m) + " n " + std::to_string(s.n);
}

template <class T>
std::vector<Op> every_op() {
  return {Op::N, Op::T, Op::C, Op::Conj};
}

TEST_CASE_TEMPLATE("trsm and trmm agree with the reference engine's loops", T, float, double,
                   std::complex<float>, std::complex<double>) {
  Random random(31);
  const T alpha = make<T>(0.75, -0.5);
  for (Shape s : shapes()) {
    for (Side side : {Side::Left, Side::Right}) {
      const std::size_t order = side == Side::Left ? s.m : s.n, lda = order + 1, ldb = s.n + 2;
      for (Uplo uplo : {Uplo::Upper, Uplo::Lower}) {
        for (Op op : every_op<T>()) {
          for (Diag diag : {Diag::NonUnit, Diag::Unit}) {
            const std::vector<T> a = triangle<T>(uplo, diag == Diag::Unit, order, lda, random);
            const std::vector<T> b = random_matrix<T>(s.m, ldb, random);
            const auto all = [](std::size_t, std::size_t) { return true; };
            const std::string at = where("trsm", int(side), int(uplo), int(op), int(diag), s);
            std::vector<T> ours = b, theirs = b;
            trsm(side, uplo, op, diag, s.m, s.n, alpha, a.data(), lda, ours.data(), ldb);
            ref::trsm(side, uplo, op, diag, s.m, s.n, alpha, a.data(), lda, theirs.data(), ldb);
            CHECK_MESSAGE(agree(ours, theirs, s.m, s.n, ldb, double(order + 1), all), at);
            ours = b, theirs = b;
            trmm(side, uplo, op, diag, s.m, s.n, alpha, a.data(), lda, ours.data(), ldb);
            ref::trmm(side, uplo, op, diag, s.m, s.n, alpha, a.data(), lda, theirs.data(), ldb);
            CHECK_MESSAGE(agree(ours, theirs, s.m, s.n, ldb, double(order + 1), all), "trmm ", at);
          }
        }
      }
    }
  }
}

// The trmm's pass (the trmm_packed candidate, kernels_table.hpp; trmm_1m for complex types, the
// same pass on the 1m method) against the reference engine's (each element, or each real part,
// one compensated sum): orders across the engines' k-blocks (256 to 512 reals, so the blocks after
// the diagonal one are added on both sides of it: a complex element is two reals), widths inside
// and across a tile, every uplo, op and diag, alpha 1 or not (complex: its expansion, and a Unit
// diagonal's entries alpha's on the Right); A's other triangle and a Unit diagonal NaN (packed
// but never used) and B's padding as it was.
TEST_CASE_TEMPLATE("trmm's pass agrees with the reference engine's across k-blocks", T, float,
                   double, std::complex<float>, std::complex<double>) {
  using R = real_t<T>;
  Random random(36);
  const std::size_t reals = kComplex<T> ? 2 : 1;
  std::vector<std::size_t> orders = {1, 17, 300 / reals};
  std::vector<std::size_t> widths = {7};
  if (!quick()) {
    orders.push_back(600 / reals);
    widths = {1, 7, 40 / reals};
  }
  const std::vector<Op> ops = kComplex<T> ? every_op<T>() : std::vector<Op>{Op::N, Op::T};
  for (std::size_t order : orders) {
    for (std::size_t width : widths) {
      if (order > 300 / reals && width > 7) continue;  // the oracle's time
      for (Side side : {Side::Left, Side::Right}) {
        const std::size_t m = side == Side::Left ? order : width;
        const std::size_t n = side == Side::Left ? width : order;
        const std::size_t lda = order + 1, ldb = n + 3;
        for (Uplo uplo : {Uplo::Upper, Uplo::Lower}) {
          for (Op op : ops) {
            for (Diag diag : {Diag::NonUnit, Diag::Unit}) {
              // Quick runs take half of the largest order's (op, diag) pairs, in turn with uplo:
              // each op still meets both diagonals and each (side, uplo) both (the complex
              // orders were a quarter of the A64FX's sve suite).
              if (quick() && order > 17 && (int(op) + int(uplo) + int(diag)) % 2 != 0) {
                continue;
              }
              const T alpha = (order + width) % 2 == 0 ? T(1) : make<T>(-0.75, 0.5);
              const std::vector<T> a = triangle<T>(uplo, diag == Diag::Unit, order, lda, random);
              const std::vector<T> b = random_matrix<T>(m, ldb, random);
              std::vector<T> ours = b, theirs = b;
              const R* a_reals = reinterpret_cast<const R*>(a.data());
              R* ours_reals = reinterpret_cast<R*>(ours.data());
              R* theirs_reals = reinterpret_cast<R*>(theirs.data());
              if constexpr (kComplex<T>) {
                using Trmm = typename GemmCandidates<R>::trmm_1m;
                using Workspace = typename GemmCandidates<R>::trmm_1m_workspace;
                Buffer<unsigned char> work(coheriq::call<Domain, Workspace>(side, m, n), 0);
                coheriq::call<Domain, Trmm>(side, uplo, op, diag, m, n, alpha.real(), alpha.imag(),
                                            a_reals, lda, ours_reals, ldb, work.data());
                ref::trmm_1m(side, uplo, op, diag, m, n, alpha.real(), alpha.imag(), a_reals, lda,
                             theirs_reals, ldb, nullptr);
              } else {
                using Trmm = typename GemmCandidates<R>::trmm_packed;
                using Workspace = typename GemmCandidates<R>::trmm_packed_workspace;
                const Trans ta = op == Op::N ? Trans::N : Trans::T;
                Buffer<unsigned char> work(coheriq::call<Domain, Workspace>(side, m, n), 0);
                coheriq::call<Domain, Trmm>(side, uplo, ta, diag, m, n, alpha, a_reals, lda,
                                            ours_reals, ldb, work.data());
                ref::trmm_packed(side, uplo, ta, diag, m, n, alpha, a_reals, lda, theirs_reals, ldb,
                                 nullptr);
              }
              const auto all = [](std::size_t, std::size_t) { return true; };
              CHECK_MESSAGE(
                  agree(ours, theirs, m, n, ldb, double(reals * order + 1), all),
                  where("trmm's pass", int(side), int(uplo), int(op), int(diag), Shape{m, n}));
            }
          }
        }
      }
    }
  }
}

// The real symm's pass (the symm_packed candidate, kernels_table.hpp): bit for bit gemm on A
// written in full, with C's padding as it was. Orders across the engines' k-blocks and row
// blocks (so blocks wholly on either side of the diagonal and across it, on both sides), the
// other dimension inside and across a tile, both triangles (the other one NaN: never read), beta
// 0 over NaN in C and not.
TEST_CASE_TEMPLATE("symm_packed is gemm on the matrix written in full, bit for bit", T, float,
                   double) {
  using Symm = typename GemmCandidates<T>::symm_packed;
  using Workspace = typename GemmCandidates<T>::symm_packed_workspace;
  Random random(37);
  std::vector<std::size_t> orders = {1, 17, 300};
  std::vector<std::size_t> others = {7};
  if (!quick()) {
    orders.push_back(700);
    others = {1, 7, 40};
  }
  for (std::size_t order : orders) {
    for (std::size_t other : others) {
      for (Side side : {Side::Left, Side::Right}) {
        const std::size_t m = side == Side::Left ? order : other;
        const std::size_t n = side == Side::Left ? other : order;
        const std::size_t lda = order + 1, ldb = n + 2, ldc = n + 3;
        for (Uplo uplo : {Uplo::Upper, Uplo::Lower}) {
          const T beta = (order + other) % 2 == 0 ? T(0) : T(0.5);
          // The stored triangle (the diagonal's magnitude does not matter here), the other NaN.
          const std::vector<T> a = triangle<T>(uplo, false, order, lda, random);
          std::vector<T> full(order * order);
          for (std::size_t i = 0; i < order; ++i) {
            for (std::size_t j = 0; j < order; ++j) {
              const bool stored = uplo == Uplo::Lower ? j <= i : j >= i;
              full[i * order + j] = stored ? a[i * lda + j] : a[j * lda + i];
            }
          }
          const std::vector<T> b = random_matrix<T>(m, ldb, random);
          std::vector<T> c = random_matrix<T>(m, ldc, random);
          if (beta == T(0)) {
            for (std::size_t i = 0; i < m; ++i) c[i * ldc] = nan_value<T>();
          }
          std::vector<T> ours = c, expected = c;
          Buffer<unsigned char> work(coheriq::call<Domain, Workspace>(side, m, n), 0);
          coheriq::call<Domain, Symm>(side, uplo, m, n, T(-0.75), a.data(), lda, b.data(), ldb,
                                      beta, ours.data(), ldc, work.data());
          if (side == Side::Left) {
            gemm(Trans::N, Trans::N, m, n, m, T(-0.75), full.data(), order, b.data(), ldb, beta,
                 expected.data(), ldc);
          } else {
            gemm(Trans::N, Trans::N, m, n, n, T(-0.75), b.data(), ldb, full.data(), order, beta,
                 expected.data(), ldc);
          }
          CHECK_MESSAGE(std::memcmp(ours.data(), expected.data(), ours.size() * sizeof(T)) == 0,
                        where("symm_packed", int(side), int(uplo), 0, 0, Shape{m, n}));
        }
      }
    }
  }
}

// The real trsm's base block (the trsm_rows candidate, kernels_table.hpp), bit for bit the row
// form its row defines, written here with std::fma: orders around the block's 32, widths around
// every strip the generic kernel takes (8, 1 and a part of a vector, for 16- to 64-byte vectors),
// every uplo, transpose and diag, alpha 1 (no scaling) or not, zeros (of both signs) in the
// triangle (skipped: a -0 in B stays -0), and B's padding, which must stay as it was.
TEST_CASE_TEMPLATE("trsm_rows is the row form of its row, bit for bit", T, float, double) {
  using Rows = typename Blas3BlockCandidates<T>::trsm_rows;
  Random random(35);
  // Past 32 (the level 3's blocks) too: the kernel keeps a copy of at most 8 to 128 solved rows
  // (by its vectors' width) and reads the others from B.
  std::vector<std::size_t> orders = {1, 2, 5, 17, 32, 70};
  if (!quick()) orders.push_back(130);
  std::vector<std::size_t> widths = {1, 2, 3, 4, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 129};
  if (!quick()) widths.push_back(300);
  for (std::size_t m : orders) {
    for (std::size_t n : widths) {
      for (Uplo uplo : {Uplo::Lower, Uplo::Upper}) {
        for (Trans ta : {Trans::N, Trans::T}) {
          for (Diag diag : {Diag::NonUnit, Diag::Unit}) {
            for (T alpha : {T(1), T(-0.75)}) {
              // Quick runs take, from order 32, alpha 1 with the unit diagonal and the other
              // alpha with the stored one (every pair at the smaller orders): 32 and 70 are 95% of
              // the case's work, a software fma per multiply-add on qemu64.
              if (quick() && m >= 32 && (alpha == T(1)) != (diag == Diag::Unit)) continue;
              const std::size_t lda = m + 1, ldb = n + 3;
              std::vector<T> a = triangle<T>(uplo, diag == Diag::Unit, m, lda, random);
              // Zeros in the triangle below or above the diagonal.
              for (std::size_t i = 0; i < m; ++i) {
                for (std::size_t l = 0; l < m; ++l) {
                  if (l != i && !std::isnan(a[i * lda + l]) && (i * 7 + l) % 5 == 0) {
                    a[i * lda + l] = (i + l) % 2 == 0 ? T(0) : -T(0);
                  }
                }
              }
              std::vector<T> b = random_matrix<T>(m, ldb, random);
              b[0] = -T(0);
              const bool t = ta == Trans::T, lower = (uplo == Uplo::Lower) != t;
              const auto at = [&](std::size_t r, std::size_t c) {
                return t ? a[c * lda + r] : a[r * lda + c];
              };
              std::vector<T> expected = b;
              for (std::size_t step = 0; step < m; ++step) {
                const std::size_t i = lower ? step : m - 1 - step;
                for (std::size_t j = 0; j < n; ++j) {
                  T x = expected[i * ldb + j];
                  if (alpha != T(1)) x = alpha * x;
                  for (std::size_t l = lower ? 0 : i + 1; l < (lower ? i : m); ++l) {
                    if (at(i, l) != T(0)) x = std::fma(-at(i, l), expected[l * ldb + j], x);
                  }
                  expected[i * ldb + j] = diag == Diag::Unit ? x : x / at(i, i);
                }
              }
              coheriq::call<Domain, Rows>(uplo, ta, diag, m, n, alpha, a.data(), lda, b.data(),
                                          ldb);
              CHECK_MESSAGE(
                  std::memcmp(b.data(), expected.data(), b.size() * sizeof(T)) == 0,
                  where("trsm_rows", int(Side::Left), int(uplo), int(ta), int(diag), Shape{m, n}),
                  " alpha ", alpha);
            }
          }
        }
      }
    }
  }
}

// C's `uplo` triangle (n x n, ld n + 1) of a rank update; the rest holds the sentinel.
template <class T>
std::vector<T> rank_c(Uplo uplo, std::size_t n, std::size_t ldc, Random& random) {
  std::vector<T> c(std::max<std::size_t>(n * ldc, 1), T(kSentinel));
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j)
      if (uplo == Uplo::Upper ? j >= i : j <= i) c[i * ldc + j] = draw<T>(random);
  return c;
}

TEST_CASE_TEMPLATE("syrk, syr2k, herk and her2k agree with the reference engine's loops", T, float,
                   double, std::complex<float>, std::complex<double>) {
  Random random(32);
  using R = real_t<T>;
  const T alpha = make<T>(0.75, -0.5), beta = make<T>(-1.25, 0);
  for (Shape s : shapes()) {
    const std::size_t n = s.m, k = s.n, ldc = n + 1;
    for (Uplo uplo : {Uplo::Upper, Uplo::Lower}) {
      const auto triangle_of = [uplo](std::size_t i, std::size_t j) {
        return uplo == Uplo::Upper ? j >= i : j <= i;
      };
      for (bool hermitian : {false, true}) {
        if (hermitian && !kComplex<T>) continue;
        for (Op op : {Op::N, hermitian ? Op::C : Op::T}) {
          const bool t = op != Op::N;
          const std::size_t rows = t ? k : n, cols = t ? n : k, ld = cols + 2;
          const std::vector<T> a = random_matrix<T>(rows, ld, random);
          const std::vector<T> b = random_matrix<T>(rows, ld, random);
          const std::vector<T> c = rank_c<T>(uplo, n, ldc, random);
          const std::string at = where(hermitian ? "herk" : "syrk", 0, int(uplo), int(op), 0, s);
          std::vector<T> ours = c, theirs = c;
          if constexpr (kComplex<T>) {
            if (hermitian) {
              herk(uplo, op, n, k, R(0.75), a.data(), ld, R(-1.25), ours.data(), ldc);
              ref::herk(uplo, op, n, k, R(0.75), a.data(), ld, R(-1.25), theirs.data(), ldc);
            }
          }
          if (!hermitian) {
            syrk(uplo, op, n, k, alpha, a.data(), ld, beta, ours.data(), ldc);
            ref::syrk(uplo, op, n, k, alpha, a.data(), ld, beta, theirs.data(), ldc);
          }
          CHECK_MESSAGE(agree(ours, theirs, n, n, ldc, double(k + 2), triangle_of), at);
          ours = c, theirs = c;
          if constexpr (kComplex<T>) {
            if (hermitian) {
              her2k(uplo, op, n, k, alpha, a.data(), ld, b.data(), ld, R(-1.25), ours.data(), ldc);
              ref::her2k(uplo, op, n, k, alpha, a.data(), ld, b.data(), ld, R(-1.25), theirs.data(),
                         ldc);
            }
          }
          if (!hermitian) {
            syr2k(uplo, op, n, k, alpha, a.data(), ld, b.data(), ld, beta, ours.data(), ldc);
            ref::syr2k(uplo, op, n, k, alpha, a.data(), ld, b.data(), ld, beta, theirs.data(), ldc);
          }
          CHECK_MESSAGE(agree(ours, theirs, n, n, ldc, double(2 * k + 2), triangle_of), "2k ", at);
        }
      }
    }
  }
}

TEST_CASE_TEMPLATE("symm, hemm and complex gemm agree with the reference engine's loops", T, float,
                   double, std::complex<float>, std::complex<double>) {
  Random random(33);
  const T alpha = make<T>(0.75, -0.5);
  const T beta = make<T>(-1.25, 0.25);
  const auto all = [](std::size_t, std::size_t) { return true; };
  for (Shape s : shapes()) {
    const std::size_t ldb = s.n + 2, ldc = s.n + 1;
    const std::vector<T> b = random_matrix<T>(s.m, ldb, random);
    const std::vector<T> c = random_matrix<T>(s.m, ldc, random);
    for (Side side : {Side::Left, Side::Right}) {
      const std::size_t order = side == Side::Left ? s.m : s.n, lda = order + 1;
      for (Uplo uplo : {Uplo::Upper, Uplo::Lower}) {
        // The other triangle NaN (not read); the diagonal as stored (hemm ignores its imaginary
        // part).
        std::vector<T> a = triangle<T>(uplo, false, order, lda, random);
        const std::string at = where("symm", int(side), int(uplo), 0, 0, s);
        std::vector<T> ours = c, theirs = c;
        symm(side, uplo, s.m, s.n, alpha, a.data(), lda, b.data(), ldb, beta, ours.data(), ldc);
        ref::symm(side, uplo, s.m, s.n, alpha, a.data(), lda, b.data(), ldb, beta, theirs.data(),
                  ldc);
        CHECK_MESSAGE(agree(ours, theirs, s.m, s.n, ldc, double(order + 2), all), at);
        if constexpr (kComplex<T>) {
          ours = c, theirs = c;
          hemm(side, uplo, s.m, s.n, alpha, a.data(), lda, b.data(), ldb, beta, ours.data(), ldc);
          ref::hemm(side, uplo, s.m, s.n, alpha, a.data(), lda, b.data(), ldb, beta, theirs.data(),
                    ldc);
          CHECK_MESSAGE(agree(ours, theirs, s.m, s.n, ldc, double(order + 2), all), "hemm ", at);
        }
      }
    }
    if constexpr (kComplex<T>) {
      // A complex alpha and beta, and the values the real product takes as they are (alpha 1,
      // beta 0: C not read; beta 1).
      const std::pair<T, T> scalars[] = {{alpha, beta}, {T(1), T(0)}, {T(1), T(1)}};
      for (Op opa : every_op<T>()) {
        for (Op opb : every_op<T>()) {
          const std::size_t k = s.m + s.n / 2 + 1;
          const bool ta = opa == Op::T || opa == Op::C, tb = opb == Op::T || opb == Op::C;
          const std::size_t lda = (ta ? s.m : k) + 1, ldb2 = (tb ? k : s.n) + 3;
          const std::vector<T> a = random_matrix<T>(ta ? k : s.m, lda, random);
          const std::vector<T> b2 = random_matrix<T>(tb ? s.n : k, ldb2, random);
          for (const auto& [al, be] : scalars) {
            const std::string at = where("gemm", 0, 0, int(opa), int(opb), s) + " alpha " +
                                   std::to_string(al.real()) + " beta " + std::to_string(be.real());
            std::vector<T> ours = c, theirs = c;
            gemm(opa, opb, s.m, s.n, k, al, a.data(), lda, b2.data(), ldb2, be, ours.data(), ldc);
            ref::gemm(opa, opb, s.m, s.n, k, al, a.data(), lda, b2.data(), ldb2, be, theirs.data(),
                      ldc);
            CHECK_MESSAGE(agree(ours, theirs, s.m, s.n, ldc, double(k + 2), all), at);
          }
        }
      }
    }
  }
}

// symm and hemm expand their matrix in panels of at most 4 MiB (level3.cpp, kPanelBytes): rows
// of A for the Left side, columns for the Right. Order 520 of complex<double> is two panels (504
// and 16), so that the second starts inside the matrix, with mirrored elements and the diagonal
// on both sides of its edge.
TEST_CASE("symm and hemm agree with the reference engine's loops across panels") {
  using T = std::complex<double>;
  Random random(35);
  const T alpha = make<T>(0.75, -0.5);
  const T beta = make<T>(-1.25, 0.25);
  const auto all = [](std::size_t, std::size_t) { return true; };
  const std::size_t order = 520, other = 9, lda = order + 3;
  for (Side side : {Side::Left, Side::Right}) {
    const std::size_t m = side == Side::Left ? order : other;
    const std::size_t n = side == Side::Left ? other : order;
    const std::size_t ldb = n + 2, ldc = n + 1;
    const std::vector<T> b = random_matrix<T>(m, ldb, random);
    const std::vector<T> c = random_matrix<T>(m, ldc, random);
    for (Uplo uplo : {Uplo::Upper, Uplo::Lower}) {
      const std::vector<T> a = triangle<T>(uplo, false, order, lda, random);
      const std::string at =
          "side " + std::to_string(int(side)) + " uplo " + std::to_string(int(uplo));
      std::vector<T> ours = c, theirs = c;
      symm(side, uplo, m, n, alpha, a.data(), lda, b.data(), ldb, beta, ours.data(), ldc);
      ref::symm(side, uplo, m, n, alpha, a.data(), lda, b.data(), ldb, beta, theirs.data(), ldc);
      CHECK_MESSAGE(agree(ours, theirs, m, n, ldc, double(order + 2), all), "symm ", at);
      ours = c, theirs = c;
      hemm(side, uplo, m, n, alpha, a.data(), lda, b.data(), ldb, beta, ours.data(), ldc);
      ref::hemm(side, uplo, m, n, alpha, a.data(), lda, b.data(), ldb, beta, theirs.data(), ldc);
      CHECK_MESSAGE(agree(ours, theirs, m, n, ldc, double(order + 2), all), "hemm ", at);
    }
  }
}

// A vector of n elements `inc` apart (x pointing at element 0, the far end for inc < 0), in a
// buffer whose other elements hold the sentinel.
template <class T>
struct Vector {
  Vector(std::size_t n, std::ptrdiff_t inc, Random& random)
      : step(std::size_t(inc < 0 ? -inc : inc)),
        storage(n == 0 ? 1 : (n - 1) * step + 1, T(kSentinel)),
        increment(inc) {
    for (std::size_t i = 0; i < n; ++i) storage[i * step] = draw<T>(random);
  }
  T* base() { return increment < 0 ? storage.data() + (storage.size() - 1) : storage.data(); }
  std::size_t step;
  std::vector<T> storage;
  std::ptrdiff_t increment;
};

TEST_CASE_TEMPLATE("symv, hemv, trmv and trsv agree with the reference engine's loops", T, float,
                   double, std::complex<float>, std::complex<double>) {
  Random random(34);
  const T alpha = make<T>(0.75, -0.5);
  const T beta = make<T>(-1.25, 0.25);
  // symv's bands are 32 rows; 1100 is a product beyond the blocks of every engine's gemv (symv
  // only: the triangular loops are checked up to 70). Quick: no 31, 32 and 1100.
  const std::vector<std::size_t> orders =
      quick() ? std::vector<std::size_t>{0, 1, 7, 33, 70}
              : std::vector<std::size_t>{0, 1, 7, 31, 32, 33, 70, 1100};
  for (std::size_t n : orders) {
    const std::size_t lda = n + 1;
    for (std::ptrdiff_t inc : {1, -2, 3}) {
      // The vector's elements (the sentinel between them compared bit for bit).
      const std::size_t step = std::size_t(inc < 0 ? -inc : inc);
      const auto elements = [step](std::size_t, std::size_t j) { return j % step == 0; };
      for (Uplo uplo : {Uplo::Upper, Uplo::Lower}) {
        const std::string at = "n " + std::to_string(n) + " inc " + std::to_string(inc) + " uplo " +
                               std::to_string(int(uplo));
        if (n < 1000) {
          for (Op op : every_op<T>()) {
            for (Diag diag : {Diag::NonUnit, Diag::Unit}) {
              const std::vector<T> a = triangle<T>(uplo, diag == Diag::Unit, n, lda, random);
              Vector<T> ours(n, inc, random);
              Vector<T> theirs = ours;
              trmv(uplo, op, diag, n, a.data(), lda, ours.base(), inc);
              ref::trmv(uplo, op, diag, n, a.data(), lda, theirs.base(), inc);
              CHECK_MESSAGE(agree(ours.storage, theirs.storage, 1, ours.storage.size(),
                                  ours.storage.size(), double(n + 1), elements),
                            "trmv op ", int(op), " diag ", int(diag), " ", at);
              ours = theirs;
              trsv(uplo, op, diag, n, a.data(), lda, ours.base(), inc);
              ref::trsv(uplo, op, diag, n, a.data(), lda, theirs.base(), inc);
              CHECK_MESSAGE(agree(ours.storage, theirs.storage, 1, ours.storage.size(),
                                  ours.storage.size(), double(n + 1), elements),
                            "trsv op ", int(op), " diag ", int(diag), " ", at);
            }
          }
        }
        // The symmetric product: the other triangle NaN (not read).
        const std::vector<T> a = triangle<T>(uplo, false, n, lda, random);
        Vector<T> x(n, inc, random), ours(n, -inc, random);
        Vector<T> theirs = ours;
        for (Op op : {Op::N, Op::Conj}) {
          if constexpr (kComplex<T>) {
            hemv(uplo, op, n, alpha, a.data(), lda, x.base(), inc, beta, ours.base(), -inc);
            ref::hemv(uplo, op, n, alpha, a.data(), lda, x.base(), inc, beta, theirs.base(), -inc);
          } else {
            if (op == Op::Conj) continue;
            symv(uplo, n, alpha, a.data(), lda, x.base(), inc, beta, ours.base(), -inc);
            ref::symv(uplo, n, alpha, a.data(), lda, x.base(), inc, beta, theirs.base(), -inc);
          }
          CHECK_MESSAGE(agree(ours.storage, theirs.storage, 1, ours.storage.size(),
                              ours.storage.size(), double(n + 2), elements),
                        (kComplex<T> ? "hemv op " : "symv op "), int(op), " ", at);
        }
      }
    }
  }
}

TEST_CASE(
    "the matrix functions reject a short leading dimension, an op they do not take and a "
    "written vector of increment 0") {
  std::vector<double> a(64, 1.0), b(64, 1.0), c(64, 1.0);
  const std::vector<double> before = c;
  CHECK_THROWS_WITH_AS(
      trsm(Side::Left, Uplo::Upper, Op::N, Diag::NonUnit, 4, 2, 1.0, a.data(), 3, b.data(), 2),
      doctest::Contains("coheriq: trsm: lda = 3 is smaller than a row of A (m = 4)"),
      std::invalid_argument);
  CHECK_THROWS_WITH_AS(syrk(Uplo::Lower, Op::T, 4, 5, 1.0, a.data(), 3, 0.0, c.data(), 4),
                       doctest::Contains("coheriq: syrk: lda = 3 is smaller than a row of A (n = "
                                         "4 for Op::T)"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(
      symm(Side::Right, Uplo::Lower, 2, 3, 1.0, a.data(), 3, b.data(), 3, 0.0, c.data(), 2),
      doctest::Contains("coheriq: symm: ldc = 2 is smaller than a row of C"),
      std::invalid_argument);
  CHECK(c == before);
  std::vector<std::complex<float>> z(64);
  CHECK_THROWS_WITH_AS(herk(Uplo::Upper, Op::T, 2, 2, 1.0f, z.data(), 2, 0.0f, z.data(), 2),
                       doctest::Contains("coheriq: herk: op = Op::T is not an op herk takes; "
                                         "pass Op::N or Op::C"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(syr2k(Uplo::Upper, Op::C, 2, 2, std::complex<float>(1), z.data(), 2,
                             z.data(), 2, std::complex<float>(0), z.data(), 2),
                       doctest::Contains("coheriq: syr2k: op = Op::C is not an op syr2k takes; "
                                         "pass Op::N or Op::T"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(gemm(Op::C, Op::N, 2, 3, 4, std::complex<float>(1), z.data(), 1, z.data(), 3,
                            std::complex<float>(0), z.data(), 3),
                       doctest::Contains("coheriq: gemm: lda = 1 is smaller than a row of A (m = "
                                         "2 for Op::C)"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(trsv(Uplo::Upper, Op::T, Diag::Unit, 3, a.data(), 3, b.data(), 0),
                       doctest::Contains("coheriq: trsv: incx = 0: x is written"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(symv(Uplo::Upper, 3, 1.0, a.data(), 2, b.data(), 1, 0.0, c.data(), 1),
                       doctest::Contains("coheriq: symv: lda = 2 is smaller than a row of A"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(hemv(Uplo::Lower, Op::T, 2, std::complex<float>(1), z.data(), 2, z.data(), 1,
                            std::complex<float>(0), z.data(), 1),
                       doctest::Contains("coheriq: hemv: op = Op::T is not an op hemv takes; "
                                         "pass Op::N or Op::Conj"),
                       std::invalid_argument);
  // A real syrk takes Op::C as Op::T, as the BLAS's ssyrk and dsyrk do.
  CHECK_NOTHROW(syrk(Uplo::Upper, Op::C, 2, 3, 1.0, a.data(), 2, 0.0, c.data(), 2));
}

}  // namespace
}  // namespace coheriq::kernels::testing
