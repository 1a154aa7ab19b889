// The level-3 routines (the kernels domain's BLAS-3 candidates, src/kernels/level3.cpp on the
// generic engines, the reference BLAS's loops on the reference engine) against the system's
// reference BLAS, both loaded in this process (libraries.hpp): ?trsm, ?trmm, ?syrk, ?syr2k and
// ?symm in s, d, c and z, ?hemm, ?herk and ?her2k in c and z, Fortran and row-major CBLAS, every
// side, uplo, trans and diag the routine takes, at orders around the blocked form's base block
// (32) and its splits, odd sizes and leading dimensions larger than needed; one test per routine,
// a template over its types. Complex values have both parts random (alpha too, and the diagonal
// of a Hermitian matrix, whose imaginary part the routines must ignore). What neither may touch
// is poisoned: A's other triangle and a Unit diagonal hold NaN (never read), C's other triangle
// a sentinel (never written). Special values (NaN and Inf in A and B, in one part of a complex,
// and in alpha for the rank updates; alpha == 0 with NaN operands; beta == 0 with NaN in C) must
// give the reference's NaNs and infinities element by element, part by part. (A non-finite
// alpha in ?trsm, ?trmm, ?symm and ?hemm runs the reference engine's loops, whose NaNs differ
// from the reference's in places: not claimed, docs/blas.md. So does an Inf in A or B of the
// complex ones, which those loops run too: there only "not finite where the reference's is not"
// is claimed, the split between NaN and Inf of the textbook complex product is not.)
//
// With --threads-child the program prints a hash of every routine's result at an order above
// GEMM's threading threshold; the "bitwise the same for every thread count" case runs it under
// COHERIQ_NUM_THREADS = 1, 2, 3 and 7 and compares.
#include <doctest/doctest.h>
#include <unistd.h>

#include <cmath>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "libraries.hpp"
#include "quick.hpp"

namespace {

using coheriq::blas_testing::Pair;
using cfloat = std::complex<float>;
using cdouble = std::complex<double>;

constexpr int kRowMajor = 101;
constexpr int kNoTrans = 111, kTrans = 112, kConjTrans = 113;
constexpr int kUpper = 121, kLower = 122, kNonUnit = 131, kUnit = 132, kLeft = 141, kRight = 142;

// ------------------------------ The four types

using coheriq::blas_testing::kComplex;
using coheriq::blas_testing::real_t;
using coheriq::blas_testing::routine_name;

// re + i·im (re alone for a real type).
template <class T>
T make(real_t<T> re, real_t<T> im) {
  if constexpr (kComplex<T>) {
    return T(re, im);
  } else {
    (void)im;
    return re;
  }
}
template <class T>
T nan_value() {
  const real_t<T> nan = std::numeric_limits<real_t<T>>::quiet_NaN();
  return make<T>(nan, nan);
}
// A special value in one part: the imaginary part of a complex (its real part finite), else v.
template <class T>
T special(real_t<T> v) {
  if constexpr (kComplex<T>) {
    return T(real_t<T>(0.25), v);
  } else {
    return v;
  }
}
// Part p (0: real, 1: imaginary) of x.
template <class T>
real_t<T> part(const T& x, int p) {
  if constexpr (kComplex<T>) {
    return p == 0 ? x.real() : x.imag();
  } else {
    (void)p;
    return x;
  }
}
template <class T>
std::string str(const T& x) {
  std::ostringstream out;
  out << x;
  return out.str();
}

// A CBLAS scalar argument of type S: by value when real, by pointer when complex.
template <class S>
using CScalar = std::conditional_t<kComplex<S>, const S*, S>;
template <class S>
CScalar<S> cblas_scalar(const S& x) {
  if constexpr (kComplex<S>) {
    return &x;
  } else {
    return x;
  }
}

// Fortran (column-major; CHARACTER*1 hidden lengths last) and CBLAS signatures; A and B are
// the types of alpha and beta (real for ?herk, beta real for ?her2k).
template <class T>
using FTri = void (*)(const char*, const char*, const char*, const char*, const int*, const int*,
                      const T*, const T*, const int*, T*, const int*, std::size_t, std::size_t,
                      std::size_t, std::size_t);
template <class T>
using CTri = void (*)(int, int, int, int, int, int, int, CScalar<T>, const T*, int, T*, int);
template <class T, class A, class B>
using FSyrk = void (*)(const char*, const char*, const int*, const int*, const A*, const T*,
                       const int*, const B*, T*, const int*, std::size_t, std::size_t);
template <class T, class A, class B>
using CSyrk = void (*)(int, int, int, int, int, CScalar<A>, const T*, int, CScalar<B>, T*, int);
template <class T, class A, class B>
using FSyr2k = void (*)(const char*, const char*, const int*, const int*, const A*, const T*,
                        const int*, const T*, const int*, const B*, T*, const int*, std::size_t,
                        std::size_t);
template <class T, class A, class B>
using CSyr2k = void (*)(int, int, int, int, int, CScalar<A>, const T*, int, const T*, int,
                        CScalar<B>, T*, int);
template <class T>
using FSymm = void (*)(const char*, const char*, const int*, const int*, const T*, const T*,
                       const int*, const T*, const int*, const T*, T*, const int*, std::size_t,
                       std::size_t);
template <class T>
using CSymm = void (*)(int, int, int, int, int, CScalar<T>, const T*, int, const T*, int,
                       CScalar<T>, T*, int);

// A rows x cols matrix stored in `layout` with a leading dimension 3 larger than needed; (i, j)
// is logical, whatever the layout.
template <class T>
struct Matrix {
  Matrix(int r, int c, bool row_major)
      : rows(r),
        cols(c),
        row(row_major),
        ld((row_major ? c : r) + 3),
        data(std::size_t(ld) * std::size_t(row_major ? r : c) + 3, nan_value<T>()) {}
  T& operator()(int i, int j) {
    return data[row ? std::size_t(i) * ld + std::size_t(j) : std::size_t(j) * ld + std::size_t(i)];
  }
  int rows, cols;
  bool row;
  int ld;
  std::vector<T> data;
};

// A general matrix of uniform values in [-1, 1] (each part).
template <class T>
Matrix<T> general(int r, int c, bool row, std::mt19937& random) {
  Matrix<T> m(r, c, row);
  std::uniform_real_distribution<real_t<T>> u(-1, 1);
  for (int i = 0; i < r; ++i)
    for (int j = 0; j < c; ++j) {
      const real_t<T> re = u(random);
      m(i, j) = make<T>(re, u(random));
    }
  return m;
}
// The `upper` triangle of an order-p matrix, well conditioned (off-diagonal parts at most 1/p,
// the diagonal's real part in [1, 2], its imaginary part in [-1/4, 1/4]); the other triangle
// NaN, and the diagonal NaN too when `unit`.
template <class T>
Matrix<T> triangle(int p, bool row, bool upper, bool unit, std::mt19937& random) {
  using R = real_t<T>;
  Matrix<T> m(p, p, row);
  std::uniform_real_distribution<R> u(-1, 1);
  for (int i = 0; i < p; ++i) {
    for (int j = 0; j < p; ++j) {
      if (i == j) {
        const R re = R(1.5) + u(random) / 2;
        m(i, j) = unit ? nan_value<T>() : make<T>(re, u(random) / 4);
      } else if (upper == (j > i)) {
        const R re = u(random) / R(p);
        m(i, j) = make<T>(re, u(random) / R(p));
      }
    }
  }
  return m;
}

// Same class part by part (NaN, +Inf, -Inf, finite; `loose`: finite or not) and the finite ones
// within tol·(1 + max|ref|); bitwise equal where `exact` says so (C's untouched triangle).
template <class T, class Exact>
void agree(const std::string& what, Matrix<T>& ours, Matrix<T>& ref, double tol, Exact exact,
           bool loose = false) {
  const int parts = kComplex<T> ? 2 : 1;
  double scale = 1;
  for (int i = 0; i < ref.rows; ++i)
    for (int j = 0; j < ref.cols; ++j)
      for (int p = 0; p < parts; ++p)
        if (std::isfinite(part(ref(i, j), p)))
          scale = std::fmax(scale, std::fabs(double(part(ref(i, j), p))));
  int reported = 0;
  for (int i = 0; i < ref.rows && reported < 3; ++i) {
    for (int j = 0; j < ref.cols && reported < 3; ++j) {
      const T o = ours(i, j), r = ref(i, j);
      bool ok = true;
      if (exact(i, j)) {
        ok = std::memcmp(&o, &r, sizeof o) == 0;
      } else {
        for (int p = 0; p < parts; ++p) {
          const real_t<T> op = part(o, p), rp = part(r, p);
          if (std::isnan(rp) || std::isinf(rp)) {
            ok = ok && (loose ? !std::isfinite(op) : std::isnan(rp) ? std::isnan(op) : op == rp);
          } else {
            ok = ok && std::isfinite(op) && std::fabs(double(op) - double(rp)) <= tol * scale;
          }
        }
      }
      if (!ok) {
        ++reported;
        FAIL_CHECK(what << ": (" << i << ", " << j << ") is " << o << ", the reference's " << r);
      }
    }
  }
}
template <class T>
void agree(const std::string& what, Matrix<T>& ours, Matrix<T>& ref, double tol,
           bool loose = false) {
  agree(
      what, ours, ref, tol, [](int, int) { return false; }, loose);
}

// Complex products round twice as often as real ones.
template <class T>
double tolerance(int p, int q) {
  return (kComplex<T> ? 16.0 : 8.0) * double(p + q) *
         double(std::numeric_limits<real_t<T>>::epsilon());
}

const char* letter(int v) {
  switch (v) {
    case kUpper:
      return "U";
    case kLower:
      return "L";
    case kLeft:
      return "L";
    case kRight:
      return "R";
    case kNoTrans:
      return "N";
    case kTrans:
      return "T";
    case kConjTrans:
      return "C";
    case kUnit:
      return "U";
    default:
      return "N";
  }
}

constexpr int kOrders[] = {1, 11, 12, 31, 32, 33, 47, 64, 65, 97};
constexpr int kOthers[] = {8, 33};

// ------------------------------ trsm, trmm

// One triangular call (trsm or trmm) in both libraries on copies of the same B.
template <class T>
struct TriangularCase {
  const Pair<FTri<T>>& f;
  const Pair<CTri<T>>& c;
  bool cblas_row;
  int side, uplo, trans, diag, m, n;
  T alpha;

  std::string what() const {
    return f.name + (cblas_row ? " (CBLAS row-major)" : "") + " side " + letter(side) + " uplo " +
           letter(uplo) + " trans " + letter(trans) + " diag " + letter(diag) + " m " +
           std::to_string(m) + " n " + std::to_string(n) + " alpha " + str(alpha);
  }
  void run(Matrix<T>& a, const Matrix<T>& b, double tol, bool loose = false) const {
    Matrix<T> ours = b, ref = b;
    if (cblas_row) {
      c.ours(kRowMajor, side, uplo, trans, diag, m, n, cblas_scalar(alpha), a.data.data(), a.ld,
             ours.data.data(), ours.ld);
      c.ref(kRowMajor, side, uplo, trans, diag, m, n, cblas_scalar(alpha), a.data.data(), a.ld,
            ref.data.data(), ref.ld);
    } else {
      f.ours(letter(side), letter(uplo), letter(trans), letter(diag), &m, &n, &alpha, a.data.data(),
             &a.ld, ours.data.data(), &ours.ld, 1, 1, 1, 1);
      f.ref(letter(side), letter(uplo), letter(trans), letter(diag), &m, &n, &alpha, a.data.data(),
            &a.ld, ref.data.data(), &ref.ld, 1, 1, 1, 1);
    }
    agree(what(), ours, ref, tol, loose);
  }
};

template <class T>
void triangular_routine(const char* stem) {
  using R = real_t<T>;
  const Pair<FTri<T>> f(routine_name<T>(stem, false));
  const Pair<CTri<T>> c(routine_name<T>(stem, true));
  std::mt19937 random(11);
  const T alpha = make<T>(R(0.7), R(-0.4));
  for (const bool row : {false, true}) {
    for (const int side : {kLeft, kRight})
      for (const int uplo : {kUpper, kLower})
        for (const int trans : {kNoTrans, kTrans, kConjTrans})
          for (const int diag : {kNonUnit, kUnit})
            for (const int p : kOrders)
              for (const int q : kOthers) {
                const int m = side == kLeft ? p : q, n = side == kLeft ? q : p;
                Matrix<T> a = triangle<T>(p, row, uplo == kUpper, diag == kUnit, random);
                const Matrix<T> b = general<T>(m, n, row, random);
                const TriangularCase<T> call{f, c, row, side, uplo, trans, diag, m, n, alpha};
                call.run(a, b, tolerance<T>(p, q));
              }
  }
  // A Right side with more rows of B than one transposed chunk (128) of the base blocks.
  for (const int uplo : {kUpper, kLower})
    for (const int trans : {kNoTrans, kTrans, kConjTrans}) {
      Matrix<T> a = triangle<T>(40, false, uplo == kUpper, false, random);
      const Matrix<T> b = general<T>(600, 40, false, random);
      const TriangularCase<T> call{f, c, false, kRight, uplo, trans, kNonUnit, 600, 40, alpha};
      call.run(a, b, tolerance<T>(40, 600));
    }
  // Special values at an order the blocked form takes: the reference's NaNs and infinities.
  const R inf = std::numeric_limits<R>::infinity(), nan = std::numeric_limits<R>::quiet_NaN();
  for (const int side : {kLeft, kRight})
    for (const int uplo : {kUpper, kLower})
      for (const int trans : {kNoTrans, kTrans, kConjTrans})
        for (int special_case = 0; special_case < 5; ++special_case) {
          const int p = 65, q = 33, m = side == kLeft ? p : q, n = side == kLeft ? q : p;
          Matrix<T> a = triangle<T>(p, false, uplo == kUpper, false, random);
          Matrix<T> b = general<T>(m, n, false, random);
          T scalar = T(1);
          if (special_case == 0) b(m / 2, n / 3) = special<T>(nan);
          if (special_case == 1) b(m / 3, n / 2) = special<T>(-inf);
          if (special_case == 2)
            a(uplo == kUpper ? 3 : p - 3, uplo == kUpper ? p - 3 : 3) = special<T>(inf);
          // Row and column 0: every solve and product uses them.
          if (special_case == 3) b(0, 0) = special<T>(inf);
          if (special_case == 4) {  // alpha == 0 reads neither A nor B
            scalar = T(0);
            for (T& v : a.data) v = nan_value<T>();
            b(1, 1) = nan_value<T>();
          }
          const TriangularCase<T> call{f, c, false, side, uplo, trans, kNonUnit, m, n, scalar};
          INFO("special case " << special_case);
          call.run(a, b, tolerance<T>(p, q), kComplex<T> && special_case >= 1 && special_case <= 3);
        }
}

TEST_CASE_TEMPLATE("trsm agrees with the reference BLAS around the base block", T, float, double,
                   cfloat, cdouble) {
  triangular_routine<T>("trsm");
}
TEST_CASE_TEMPLATE("trmm agrees with the reference BLAS around the base block", T, float, double,
                   cfloat, cdouble) {
  triangular_routine<T>("trmm");
}

// ------------------------------ syrk, syr2k, herk, her2k

// syrk and syr2k (`hermitian`: herk and her2k): C's other triangle must keep its sentinel, bit
// for bit. The trans a routine takes: N and T (complex symmetric), N and C (Hermitian), all
// three (real).
template <class T, bool kTwo, bool kHermitian>
void rank_routine() {
  using R = real_t<T>;
  using Alpha = std::conditional_t<kHermitian && !kTwo, R, T>;
  using Beta = std::conditional_t<kHermitian, R, T>;
  const char* stem = kTwo ? (kHermitian ? "her2k" : "syr2k") : (kHermitian ? "herk" : "syrk");
  const Pair<FSyr2k<T, Alpha, Beta>> f2(routine_name<T>(stem, false));
  const Pair<CSyr2k<T, Alpha, Beta>> c2(routine_name<T>(stem, true));
  const Pair<FSyrk<T, Alpha, Beta>> fk(routine_name<T>(stem, false));
  const Pair<CSyrk<T, Alpha, Beta>> ck(routine_name<T>(stem, true));
  std::vector<int> transes{kNoTrans};
  if (!kComplex<T> || !kHermitian) transes.push_back(kTrans);
  if (!kComplex<T> || kHermitian) transes.push_back(kConjTrans);
  std::mt19937 random(13);
  const R nan = std::numeric_limits<R>::quiet_NaN(), inf = std::numeric_limits<R>::infinity();
  for (const bool row : {false, true}) {
    for (const int uplo : {kUpper, kLower})
      for (const int trans : transes)
        for (const int n : kOrders)
          for (const int k : kOthers)
            for (int special_case = 0; special_case < (n == 65 && k == 33 && !row ? 6 : 1);
                 ++special_case) {
              const bool t = trans != kNoTrans;
              Matrix<T> a = general<T>(t ? k : n, t ? n : k, row, random);
              Matrix<T> b = general<T>(t ? k : n, t ? n : k, row, random);
              Matrix<T> c = general<T>(n, n, row, random);
              const auto outside = [&](int i, int j) { return uplo == kUpper ? j < i : j > i; };
              for (int i = 0; i < n; ++i)
                for (int j = 0; j < n; ++j)
                  if (outside(i, j)) c(i, j) = make<T>(R(1234.5), R(-4321.5));
              Alpha alpha = make<Alpha>(R(0.7), R(0.3));
              Beta beta = make<Beta>(R(1.3), R(-0.2));
              if (special_case == 1) a(a.rows / 2, a.cols / 3) = special<T>(nan);
              if (special_case == 2) b(b.rows / 3, b.cols / 2) = special<T>(inf);
              if (special_case == 3) alpha = special<Alpha>(inf);
              if (special_case == 4) {  // alpha == 0 reads neither A nor B
                alpha = Alpha(0);
                for (T& v : a.data) v = nan_value<T>();
                for (T& v : b.data) v = nan_value<T>();
              }
              if (special_case == 5) {  // beta == 0 does not read C
                beta = Beta(0);
                for (int i = 0; i < n; ++i)
                  for (int j = 0; j < n; ++j)
                    if (!outside(i, j)) c(i, j) = nan_value<T>();
              }
              Matrix<T> ours = c, ref = c;
              const int layout = kRowMajor;
              if (kTwo && row) {
                c2.ours(layout, uplo, trans, n, k, cblas_scalar(alpha), a.data.data(), a.ld,
                        b.data.data(), b.ld, cblas_scalar(beta), ours.data.data(), ours.ld);
                c2.ref(layout, uplo, trans, n, k, cblas_scalar(alpha), a.data.data(), a.ld,
                       b.data.data(), b.ld, cblas_scalar(beta), ref.data.data(), ref.ld);
              } else if (kTwo) {
                f2.ours(letter(uplo), letter(trans), &n, &k, &alpha, a.data.data(), &a.ld,
                        b.data.data(), &b.ld, &beta, ours.data.data(), &ours.ld, 1, 1);
                f2.ref(letter(uplo), letter(trans), &n, &k, &alpha, a.data.data(), &a.ld,
                       b.data.data(), &b.ld, &beta, ref.data.data(), &ref.ld, 1, 1);
              } else if (row) {
                ck.ours(layout, uplo, trans, n, k, cblas_scalar(alpha), a.data.data(), a.ld,
                        cblas_scalar(beta), ours.data.data(), ours.ld);
                ck.ref(layout, uplo, trans, n, k, cblas_scalar(alpha), a.data.data(), a.ld,
                       cblas_scalar(beta), ref.data.data(), ref.ld);
              } else {
                fk.ours(letter(uplo), letter(trans), &n, &k, &alpha, a.data.data(), &a.ld, &beta,
                        ours.data.data(), &ours.ld, 1, 1);
                fk.ref(letter(uplo), letter(trans), &n, &k, &alpha, a.data.data(), &a.ld, &beta,
                       ref.data.data(), &ref.ld, 1, 1);
              }
              agree(fk.name + (row ? " (CBLAS row-major)" : "") + " uplo " + letter(uplo) +
                        " trans " + letter(trans) + " n " + std::to_string(n) + " k " +
                        std::to_string(k) + " special " + std::to_string(special_case),
                    ours, ref, tolerance<T>(n, k), outside);
            }
  }
}

TEST_CASE_TEMPLATE("syrk agrees with the reference BLAS around the base block", T, float, double,
                   cfloat, cdouble) {
  rank_routine<T, false, false>();
}
TEST_CASE_TEMPLATE("syr2k agrees with the reference BLAS around the base block", T, float, double,
                   cfloat, cdouble) {
  rank_routine<T, true, false>();
}
TEST_CASE_TEMPLATE("herk agrees with the reference BLAS around the base block", T, cfloat,
                   cdouble) {
  rank_routine<T, false, true>();
}
TEST_CASE_TEMPLATE("her2k agrees with the reference BLAS around the base block", T, cfloat,
                   cdouble) {
  rank_routine<T, true, true>();
}

// ------------------------------ symm, hemm

// 1100: the complex symmetric matrix is expanded in more than one panel of 4 MiB, a case of the
// complex types alone (the real symm packs A from its triangle, whatever the order) and of the
// Fortran interface (CBLAS's row-major calls are the same routine with side and uplo swapped, at
// every other order): in every form, the 1100 was a third of the suite's time under qemu. Not in
// quick runs (COHERIQ_TEST_QUICK=1, the cross build's entry): the expansion's panels are the same
// C++ on every target, run natively, and 1100 was half of the entry's time under qemu-aarch64.
constexpr int kSymmOrders[] = {1, 11, 12, 31, 32, 33, 47, 64, 65, 97, 1100};

template <class T>
void symmetric_routine(const char* stem) {
  using R = real_t<T>;
  const Pair<FSymm<T>> f(routine_name<T>(stem, false));
  const Pair<CSymm<T>> c(routine_name<T>(stem, true));
  std::mt19937 random(17);
  const R nan = std::numeric_limits<R>::quiet_NaN(), inf = std::numeric_limits<R>::infinity();
  for (const bool row : {false, true})
    for (const int side : {kLeft, kRight})
      for (const int uplo : {kUpper, kLower})
        for (const int p : kSymmOrders)
          for (const int q : kOthers)
            for (int special_case = 0; special_case < (p == 65 && q == 33 && !row ? 6 : 1);
                 ++special_case) {
              if (p == 1100 && (q != 8 || row || !kComplex<T> || coheriq::test::quick())) continue;
              const int m = side == kLeft ? p : q, n = side == kLeft ? q : p;
              Matrix<T> a = triangle<T>(p, row, uplo == kUpper, false, random);
              Matrix<T> b = general<T>(m, n, row, random);
              Matrix<T> cm = general<T>(m, n, row, random);
              T alpha = make<T>(R(0.7), R(0.3)), beta = make<T>(R(1.3), R(-0.2));
              if (special_case == 1) b(m / 2, n / 3) = special<T>(nan);
              if (special_case == 2)
                a(uplo == kUpper ? 2 : p - 2, uplo == kUpper ? p - 2 : 2) = special<T>(-inf);
              if (special_case == 3) b(0, 0) = special<T>(-inf);
              if (special_case == 4) {
                alpha = T(0);
                for (T& v : a.data) v = nan_value<T>();
                for (T& v : b.data) v = nan_value<T>();
              }
              if (special_case == 5) {
                beta = T(0);
                for (T& v : cm.data) v = nan_value<T>();
              }
              Matrix<T> ours = cm, ref = cm;
              if (row) {
                c.ours(kRowMajor, side, uplo, m, n, cblas_scalar(alpha), a.data.data(), a.ld,
                       b.data.data(), b.ld, cblas_scalar(beta), ours.data.data(), ours.ld);
                c.ref(kRowMajor, side, uplo, m, n, cblas_scalar(alpha), a.data.data(), a.ld,
                      b.data.data(), b.ld, cblas_scalar(beta), ref.data.data(), ref.ld);
              } else {
                f.ours(letter(side), letter(uplo), &m, &n, &alpha, a.data.data(), &a.ld,
                       b.data.data(), &b.ld, &beta, ours.data.data(), &ours.ld, 1, 1);
                f.ref(letter(side), letter(uplo), &m, &n, &alpha, a.data.data(), &a.ld,
                      b.data.data(), &b.ld, &beta, ref.data.data(), &ref.ld, 1, 1);
              }
              agree(f.name + (row ? " (CBLAS row-major)" : "") + " side " + letter(side) +
                        " uplo " + letter(uplo) + " m " + std::to_string(m) + " n " +
                        std::to_string(n) + " special " + std::to_string(special_case),
                    ours, ref, tolerance<T>(p, q),
                    kComplex<T> && (special_case == 2 || special_case == 3));
            }
}

TEST_CASE_TEMPLATE("symm agrees with the reference BLAS around the base block", T, float, double,
                   cfloat, cdouble) {
  symmetric_routine<T>("symm");
}
TEST_CASE_TEMPLATE("hemm agrees with the reference BLAS around the base block", T, cfloat,
                   cdouble) {
  symmetric_routine<T>("hemm");
}

// ------------------------------ Threads

// FNV-1a over the bytes of a result.
template <class T>
std::uint64_t hash(const std::vector<T>& v, std::uint64_t h = 1469598103934665603ull) {
  const auto* bytes = reinterpret_cast<const unsigned char*>(v.data());
  for (std::size_t i = 0; i < v.size() * sizeof(T); ++i) h = (h ^ bytes[i]) * 1099511628211ull;
  return h;
}

// hemm, herk and her2k (trans T read as C) on the operands of one results_hash step.
template <class T>
std::uint64_t hermitian_hash(const char* side, const char* uplo, const char* trans, Matrix<T>& a,
                             Matrix<T>& b, const Matrix<T>& c, Matrix<T>& g, std::uint64_t h) {
  using R = real_t<T>;
  const Pair<FSymm<T>> hemm(routine_name<T>("hemm", false));
  const Pair<FSyrk<T, R, R>> herk(routine_name<T>("herk", false));
  const Pair<FSyr2k<T, T, R>> her2k(routine_name<T>("her2k", false));
  const int p = a.rows;
  const T alpha = make<T>(R(0.7), R(0.3));
  const R real_alpha = R(0.7), real_beta = R(1.3);
  const char* op = *trans == 'N' ? "N" : "C";
  Matrix<T> x = c;
  hemm.ours(side, uplo, &p, &p, &alpha, a.data.data(), &a.ld, b.data.data(), &b.ld, &alpha,
            x.data.data(), &x.ld, 1, 1);
  h = hash(x.data, h);
  x = c;
  herk.ours(uplo, op, &p, &p, &real_alpha, b.data.data(), &b.ld, &real_beta, x.data.data(), &x.ld,
            1, 1);
  h = hash(x.data, h);
  x = c;
  her2k.ours(uplo, op, &p, &p, &alpha, g.data.data(), &g.ld, b.data.data(), &b.ld, &real_beta,
             x.data.data(), &x.ld, 1, 1);
  return hash(x.data, h);
}

// Every routine once per side/uplo/trans at order 320 (above GEMM's threading threshold for every
// type, 192³ and 152³ multiply-adds, in its largest blocks; a complex product is a real one of
// twice the size), through the Fortran entry points.
template <class T>
std::uint64_t results_hash() {
  const Pair<FTri<T>> trsm(routine_name<T>("trsm", false)), trmm(routine_name<T>("trmm", false));
  const Pair<FSyrk<T, T, T>> syrk(routine_name<T>("syrk", false));
  const Pair<FSyr2k<T, T, T>> syr2k(routine_name<T>("syr2k", false));
  const Pair<FSymm<T>> symm(routine_name<T>("symm", false));
  const int p = 320;
  std::mt19937 random(19);
  std::uint64_t h = 1469598103934665603ull;
  const T alpha = make<T>(real_t<T>(0.7), real_t<T>(0.3)), beta = make<T>(real_t<T>(1.3), 0);
  for (const char* side : {"L", "R"})
    for (const char* uplo : {"U", "L"})
      for (const char* trans : {"N", "T"}) {
        Matrix<T> a = triangle<T>(p, false, *uplo == 'U', false, random);
        Matrix<T> b = general<T>(p, p, false, random);
        Matrix<T> c = general<T>(p, p, false, random);
        Matrix<T> g = general<T>(p, p, false, random);
        for (const auto* routine : {&trsm, &trmm}) {
          Matrix<T> x = b;
          routine->ours(side, uplo, trans, "N", &p, &p, &alpha, a.data.data(), &a.ld, x.data.data(),
                        &x.ld, 1, 1, 1, 1);
          h = hash(x.data, h);
        }
        Matrix<T> x = c;
        syrk.ours(uplo, trans, &p, &p, &alpha, b.data.data(), &b.ld, &beta, x.data.data(), &x.ld, 1,
                  1);
        h = hash(x.data, h);
        x = c;
        syr2k.ours(uplo, trans, &p, &p, &alpha, g.data.data(), &g.ld, b.data.data(), &b.ld, &beta,
                   x.data.data(), &x.ld, 1, 1);
        h = hash(x.data, h);
        for (T& v : a.data)
          if (std::isnan(part(v, 0))) v = T(0);  // symm reads one triangle; the other stays unread
        x = c;
        symm.ours(side, uplo, &p, &p, &alpha, a.data.data(), &a.ld, b.data.data(), &b.ld, &beta,
                  x.data.data(), &x.ld, 1, 1);
        h = hash(x.data, h);
        if constexpr (kComplex<T>) h = hermitian_hash(side, uplo, trans, a, b, c, g, h);
      }
  return h;
}

std::string child_output(int threads) {
  char self[4096] = {};
  if (readlink("/proc/self/exe", self, sizeof self - 1) <= 0) return "no /proc/self/exe";
  const std::string command =
      "COHERIQ_NUM_THREADS=" + std::to_string(threads) + " '" + self + "' --threads-child 2>&1";
  std::string out;
  if (FILE* pipe = popen(command.c_str(), "r")) {
    char buffer[256];
    while (std::fgets(buffer, sizeof buffer, pipe)) out += buffer;
    if (pclose(pipe) != 0) out += " (exit status not 0)";
  }
  return out;
}

TEST_CASE("level-3 results are bitwise the same for 1, 2, 3 and 7 threads") {
  const std::string one = child_output(1);
  INFO("1 thread: " << one);
  REQUIRE(one.rfind("hashes ", 0) == 0);
  for (const int threads : {2, 3, 7}) CHECK_MESSAGE(child_output(threads) == one, threads);
}

}  // namespace

// The child of the threads case: the hashes, before doctest's main sees the argument.
struct ThreadsChild {
  ThreadsChild() {
    const char* cmdline = "/proc/self/cmdline";
    FILE* f = std::fopen(cmdline, "rb");
    if (f == nullptr) return;
    char buffer[4096];
    const std::size_t size = std::fread(buffer, 1, sizeof buffer - 1, f);
    std::fclose(f);
    buffer[size] = 0;
    const std::string args(buffer, size);
    if (args.find(std::string("--threads-child") + '\0') == std::string::npos) return;
    std::printf("hashes %016llx %016llx %016llx %016llx\n",
                static_cast<unsigned long long>(results_hash<float>()),
                static_cast<unsigned long long>(results_hash<double>()),
                static_cast<unsigned long long>(results_hash<cfloat>()),
                static_cast<unsigned long long>(results_hash<cdouble>()));
    std::exit(0);
  }
};
const ThreadsChild threads_child;
