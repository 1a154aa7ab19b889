// Conformance of libcoheriq_blas's BLAS-1 routines on the kernels domain and its GEMM with the
// system's reference BLAS (Debian's libblas3, netlib LAPACK 3.11; every other routine is held to
// the reference by netlib's testers, blas.testers.*, and blas.error_exits), both loaded in this
// process with dlopen(RTLD_LOCAL):
// neither library sees the other's symbols (the reference's own internal calls stay its own),
// and both see this program's xerbla_ and cblas_xerbla (it is linked with exported symbols), so
// every error exit of either library is recorded here and compared.
//
// Covered: every increment class (positive, negative, 0 where legal), n <= 0, ties and NaN in
// i?amax, every transpose (N, T, C, lower case) and both CBLAS layouts, odd sizes, leading
// dimensions larger than needed, alpha == 0 with NaN in A and B, beta == 0 with NaN in C, and
// every argument error with the outputs untouched. Results within the reference's own error
// bounds (the reference sums in order in T; ours may fuse and reorder): documented per check.
#include <doctest/doctest.h>

#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "libraries.hpp"

// ------------------------------ The replaced error handlers

namespace {
struct Report {
  std::string routine;  // lower case, trailing blanks removed
  int info = 0;
  int calls = 0;
  bool cblas = false;  // through cblas_xerbla
  // netlib CBLAS's globals (RowMajorStrg, CBLAS_CallFromC) of the library that reported, as the
  // handler saw them; -1 before any report.
  int row_major = -1;
  int from_c = -1;
};
Report last_report;
// The globals of the library under test in this call (each library has its own: the program
// defines none). Null: not recorded.
const int* current_row_major = nullptr;
const int* current_from_c = nullptr;

void record_globals(Report& r) {
  r.row_major = current_row_major ? *current_row_major : -1;
  r.from_c = current_from_c ? *current_from_c : -1;
}

std::string normalized(const char* name, std::size_t len) {
  std::string s(name, len);
  while (!s.empty() && s.back() == ' ') s.pop_back();
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}
}  // namespace

extern "C" void xerbla_(const char* srname, const int* info, std::size_t len) {
  last_report.routine = normalized(srname, len);
  last_report.info = *info;
  last_report.cblas = false;
  record_globals(last_report);
  ++last_report.calls;
}
extern "C" void cblas_xerbla(int info, const char* routine, const char*, ...) {
  last_report.routine = normalized(routine, std::strlen(routine));
  last_report.info = info;
  last_report.cblas = true;
  record_globals(last_report);
  ++last_report.calls;
}

namespace {

// ------------------------------ The two libraries (libraries.hpp)

using coheriq::blas_testing::Pair;

template <class T>
constexpr const char* prefix() {
  return sizeof(T) == 4 ? "s" : "d";
}
template <class T>
std::string routine(const char* base, bool cblas) {
  return std::string(cblas ? "cblas_" : "") + prefix<T>() + base + (cblas ? "" : "_");
}
template <class T>
constexpr T kEps = std::numeric_limits<T>::epsilon();

// ------------------------------ Vectors

constexpr int kSizes[] = {-1, 0, 1, 2, 3, 7, 16, 17, 33, 100, 1025};
constexpr int kIncrements[] = {1, 2, 3, -1, -2, -3, 0};

// The storage a Fortran vector of n elements with increment inc spans, plus 3 guard elements
// each side, filled with values; element i (0-based) is at Fortran position 1 + i·inc or, for a
// negative inc, counted from the far end.
template <class T>
struct Vector {
  Vector(int size, int increment, std::mt19937& random) : n(size), inc(increment) {
    const int magnitude = increment < 0 ? -increment : increment;
    const std::size_t span = size <= 0 ? 1 : std::size_t(size - 1) * std::size_t(magnitude) + 1;
    storage.resize(span + 6);
    std::uniform_real_distribution<T> uniform(T(-1), T(1));
    for (T& v : storage) v = uniform(random);
  }
  T* data() { return storage.data() + 3; }
  T& element(int i) {
    const int count = n > 0 ? n : 0;
    const std::ptrdiff_t pos =
        inc >= 0 ? std::ptrdiff_t(i) * inc : std::ptrdiff_t(count - 1 - i) * -inc;
    return data()[pos];
  }
  int n;
  int inc;
  std::vector<T> storage;
};

// Σ|x_i·y_i| (or Σ|x_i|), the scale of the reference's in-order sum error.
template <class T>
double magnitude(Vector<T>& x, Vector<T>* y) {
  double total = 0;
  for (int i = 0; i < x.n; ++i)
    total += std::fabs(double(x.element(i)) * (y ? double(y->element(i)) : 1.0));
  return total;
}

std::string where(const std::string& routine, int n, int incx, int incy) {
  return routine + " n = " + std::to_string(n) + ", incx = " + std::to_string(incx) +
         ", incy = " + std::to_string(incy);
}

// ------------------------------ BLAS-1

template <class T>
using FDot = T (*)(const int*, const T*, const int*, const T*, const int*);
template <class T>
using CDot = T (*)(int, const T*, int, const T*, int);
template <class T>
using FAxpy = void (*)(const int*, const T*, const T*, const int*, T*, const int*);
template <class T>
using CAxpy = void (*)(int, T, const T*, int, T*, int);
template <class T>
using FScal = void (*)(const int*, const T*, T*, const int*);
template <class T>
using CScal = void (*)(int, T, T*, int);
template <class T>
using FReduce = T (*)(const int*, const T*, const int*);
template <class T>
using CReduce = T (*)(int, const T*, int);
template <class T>
using FIamax = int (*)(const int*, const T*, const int*);
template <class T>
using CIamax = std::size_t (*)(int, const T*, int);

TEST_CASE_TEMPLATE("dot, axpy, scal, asum, nrm2 and i?amax agree with the reference BLAS", T, float,
                   double) {
  const Pair<FDot<T>> fdot(routine<T>("dot", false).c_str());
  const Pair<CDot<T>> cdot(routine<T>("dot", true).c_str());
  const Pair<FAxpy<T>> faxpy(routine<T>("axpy", false).c_str());
  const Pair<CAxpy<T>> caxpy(routine<T>("axpy", true).c_str());
  const Pair<FScal<T>> fscal(routine<T>("scal", false).c_str());
  const Pair<CScal<T>> cscal(routine<T>("scal", true).c_str());
  const Pair<FReduce<T>> fasum(routine<T>("asum", false).c_str());
  const Pair<CReduce<T>> casum(routine<T>("asum", true).c_str());
  const Pair<FReduce<T>> fnrm2(routine<T>("nrm2", false).c_str());
  const Pair<CReduce<T>> cnrm2(routine<T>("nrm2", true).c_str());
  const Pair<FIamax<T>> famax((std::string("i") + prefix<T>() + "amax_").c_str());
  const Pair<CIamax<T>> camax((std::string("cblas_i") + prefix<T>() + "amax").c_str());
  std::mt19937 random(7);
  const int before = last_report.calls;
  for (int n : kSizes) {
    const double nd = n > 0 ? n : 0;
    for (int incx : kIncrements) {
      for (int incy : {1, -1, 2, -3, 0}) {
        Vector<T> x(n, incx, random), y(n, incy, random);
        // dot: the reference's in-order sum errs by up to n·eps·Σ|x·y|; ours by less.
        const double bound = 2 * nd * double(kEps<T>) * magnitude(x, &y) + 1e-300;
        const T f_ours = fdot.ours(&n, x.data(), &incx, y.data(), &incy);
        const T f_ref = fdot.ref(&n, x.data(), &incx, y.data(), &incy);
        CHECK_MESSAGE(std::fabs(double(f_ours) - double(f_ref)) <= bound,
                      where(fdot.name, n, incx, incy), ": ", f_ours, " vs ", f_ref);
        const T c_ours = cdot.ours(n, x.data(), incx, y.data(), incy);
        CHECK_MESSAGE(c_ours == f_ours, where(cdot.name, n, incx, incy));
        CHECK_MESSAGE(std::fabs(double(cdot.ref(n, x.data(), incx, y.data(), incy)) -
                                double(c_ours)) <= bound,
                      where(cdot.name, n, incx, incy));
        // axpy: per element one update (incy != 0), ours fused, the reference rounding a·x
        // first: within 2 eps of |a·x| + |y| each; with incy == 0 all n updates hit one element.
        for (T a : {T(0.75), T(0)}) {
          for (int api = 0; api < 2; ++api) {
            Vector<T> y_ours = y, y_ref = y;
            if (api == 0) {
              faxpy.ours(&n, &a, x.data(), &incx, y_ours.data(), &incy);
              faxpy.ref(&n, &a, x.data(), &incx, y_ref.data(), &incy);
            } else {
              caxpy.ours(n, a, x.data(), incx, y_ours.data(), incy);
              caxpy.ref(n, a, x.data(), incx, y_ref.data(), incy);
            }
            const double updates = incy == 0 ? nd : 1;
            std::size_t bad = 0;
            for (std::size_t s = 0; s < y.storage.size(); ++s) {
              const double scale = std::fabs(double(y.storage[s])) + updates * std::fabs(double(a));
              if (std::fabs(double(y_ours.storage[s]) - double(y_ref.storage[s])) >
                  2 * updates * double(kEps<T>) * scale) {
                ++bad;
              }
              if (a == T(0) && y_ours.storage[s] != y.storage[s]) ++bad;  // quick return
            }
            CHECK_MESSAGE(bad == 0, where(api == 0 ? faxpy.name : caxpy.name, n, incx, incy),
                          ", a = ", a, ": ", bad, " elements differ");
          }
        }
      }
      Vector<T> x(n, incx, random);
      // scal: one multiplication per element in both, so bit for bit; incx <= 0 is a no-op.
      for (int api = 0; api < 2; ++api) {
        const T a = T(-1.25);
        Vector<T> x_ours = x, x_ref = x;
        if (api == 0) {
          fscal.ours(&n, &a, x_ours.data(), &incx);
          fscal.ref(&n, &a, x_ref.data(), &incx);
        } else {
          cscal.ours(n, a, x_ours.data(), incx);
          cscal.ref(n, a, x_ref.data(), incx);
        }
        CHECK_MESSAGE(x_ours.storage == x_ref.storage,
                      where(api == 0 ? fscal.name : cscal.name, n, incx, 0));
      }
      // asum: in-order sum bound; nrm2: the reference's scaled sum is accurate to a few eps·n.
      const double asum_bound = 2 * nd * double(kEps<T>) * magnitude<T>(x, nullptr) + 1e-300;
      CHECK_MESSAGE(std::fabs(double(fasum.ours(&n, x.data(), &incx)) -
                              double(fasum.ref(&n, x.data(), &incx))) <= asum_bound,
                    where(fasum.name, n, incx, 0));
      CHECK_MESSAGE(std::fabs(double(casum.ours(n, x.data(), incx)) -
                              double(casum.ref(n, x.data(), incx))) <= asum_bound,
                    where(casum.name, n, incx, 0));
      const T nrm_ref = fnrm2.ref(&n, x.data(), &incx);
      const double nrm_bound = (2 * nd + 4) * double(kEps<T>) * std::fabs(double(nrm_ref));
      CHECK_MESSAGE(
          std::fabs(double(fnrm2.ours(&n, x.data(), &incx)) - double(nrm_ref)) <= nrm_bound,
          where(fnrm2.name, n, incx, 0), ": ", fnrm2.ours(&n, x.data(), &incx), " vs ", nrm_ref);
      CHECK_MESSAGE(std::fabs(double(cnrm2.ours(n, x.data(), incx)) - double(nrm_ref)) <= nrm_bound,
                    where(cnrm2.name, n, incx, 0));
      // i?amax: exact, also with a tie and with NaNs (the reference lets a NaN win only as the
      // first element).
      for (int variant = 0; variant < 4; ++variant) {
        Vector<T> v = x;
        if (n >= 3 && variant == 1) {
          v.element(n - 1) = T(5);
          v.element(1) = T(-5);
        }
        if (n >= 3 && variant == 2) v.element(n / 2) = std::numeric_limits<T>::quiet_NaN();
        if (n >= 1 && variant == 3) v.element(0) = std::numeric_limits<T>::quiet_NaN();
        CHECK_MESSAGE(famax.ours(&n, v.data(), &incx) == famax.ref(&n, v.data(), &incx),
                      where(famax.name, n, incx, variant));
        CHECK_MESSAGE(camax.ours(n, v.data(), incx) == camax.ref(n, v.data(), incx),
                      where(camax.name, n, incx, variant));
      }
    }
  }
  CHECK_MESSAGE(last_report.calls == before, "no BLAS-1 routine reports an error");
}

// ------------------------------ GEMM

template <class T>
using FGemm = void (*)(const char*, const char*, const int*, const int*, const int*, const T*,
                       const T*, const int*, const T*, const int*, const T*, T*, const int*,
                       std::size_t, std::size_t);
template <class T>
using CGemm = void (*)(int, int, int, int, int, int, T, const T*, int, const T*, int, T, T*, int);

constexpr int kRowMajor = 101, kColMajor = 102;
constexpr int kNoTrans = 111, kTrans = 112, kConjTrans = 113;

// Element (i, j) of a matrix stored in `layout` with leading dimension ld.
template <class T>
T& at(std::vector<T>& a, bool row_major, int ld, int i, int j) {
  return row_major ? a[std::size_t(i) * ld + j] : a[std::size_t(j) * ld + i];
}

struct Shape {
  int m, n, k;
};
constexpr Shape kShapes[] = {{0, 3, 2},   {3, 0, 2},    {3, 2, 0},  {1, 1, 1},   {5, 7, 3},
                             {17, 9, 33}, {33, 65, 17}, {2, 40, 1}, {64, 64, 64}};

// One product through the routine `api` (0: Fortran, 1: CBLAS column-major, 2: CBLAS row-major)
// of both libraries, C compared with the reference's in-order sum bound.
template <class T>
void compare_gemm(const Pair<FGemm<T>>& fortran, const Pair<CGemm<T>>& cblas, int api, int ta,
                  int tb, Shape s, T alpha, T beta, std::mt19937& random) {
  const bool row = api == 2;
  const bool trans_a = ta != kNoTrans, trans_b = tb != kNoTrans;
  // Stored dimensions of A (op(A) is m x k) and B (op(B) is k x n), in the layout's terms.
  const int a_rows = trans_a ? s.k : s.m, a_cols = trans_a ? s.m : s.k;
  const int b_rows = trans_b ? s.n : s.k, b_cols = trans_b ? s.k : s.n;
  const auto ld_of = [&](int rows, int cols) { return (row ? cols : rows) + 3; };  // larger
  const int lda = ld_of(a_rows, a_cols), ldb = ld_of(b_rows, b_cols), ldc = ld_of(s.m, s.n);
  const auto extent = [&](int rows, int cols, int ld) {
    return std::size_t(row ? rows : cols) * std::size_t(ld) + 8;
  };
  std::uniform_real_distribution<T> uniform(T(-1), T(1));
  std::vector<T> A(extent(a_rows, a_cols, lda)), B(extent(b_rows, b_cols, ldb)),
      C(extent(s.m, s.n, ldc));
  for (T& v : A) v = alpha == T(0) ? std::numeric_limits<T>::quiet_NaN() : uniform(random);
  for (T& v : B) v = alpha == T(0) ? std::numeric_limits<T>::quiet_NaN() : uniform(random);
  for (T& v : C) v = beta == T(0) ? std::numeric_limits<T>::quiet_NaN() : uniform(random);
  // Padding of C keeps its NaN or value: checked below as "untouched".
  std::vector<T> C_ours = C, C_ref = C;
  const char transa = "NTC"[ta - kNoTrans], transb = "ntc"[tb - kNoTrans];  // both cases
  if (api == 0) {
    fortran.ours(&transa, &transb, &s.m, &s.n, &s.k, &alpha, A.data(), &lda, B.data(), &ldb, &beta,
                 C_ours.data(), &ldc, 1, 1);
    fortran.ref(&transa, &transb, &s.m, &s.n, &s.k, &alpha, A.data(), &lda, B.data(), &ldb, &beta,
                C_ref.data(), &ldc, 1, 1);
  } else {
    const int layout = row ? kRowMajor : kColMajor;
    cblas.ours(layout, ta, tb, s.m, s.n, s.k, alpha, A.data(), lda, B.data(), ldb, beta,
               C_ours.data(), ldc);
    cblas.ref(layout, ta, tb, s.m, s.n, s.k, alpha, A.data(), lda, B.data(), ldb, beta,
              C_ref.data(), ldc);
  }
  std::size_t bad = 0;
  std::vector<bool> inside(C.size(), false);
  for (int i = 0; i < s.m; ++i) {
    for (int j = 0; j < s.n; ++j) {
      double scale = beta == T(0) ? 0.0 : std::fabs(double(beta) * double(at(C, row, ldc, i, j)));
      if (alpha != T(0)) {
        for (int l = 0; l < s.k; ++l) {
          const T a = trans_a ? at(A, row, lda, l, i) : at(A, row, lda, i, l);
          const T b = trans_b ? at(B, row, ldb, j, l) : at(B, row, ldb, l, j);
          scale += std::fabs(double(alpha) * double(a) * double(b));
        }
      }
      const double bound = 2 * (s.k + 2) * double(kEps<T>) * scale;
      const T got = at(C_ours, row, ldc, i, j), want = at(C_ref, row, ldc, i, j);
      if (!(std::fabs(double(got) - double(want)) <= bound)) ++bad;
      inside[std::size_t(&at(C, row, ldc, i, j) - C.data())] = true;
    }
  }
  for (std::size_t p = 0; p < C.size(); ++p) {
    if (!inside[p] && std::memcmp(&C_ours[p], &C[p], sizeof(T)) != 0) ++bad;
  }
  CHECK_MESSAGE(bad == 0, (api == 0 ? fortran.name : cblas.name), " api ", api, " ta ", ta, " tb ",
                tb, " m n k = ", s.m, " ", s.n, " ", s.k, ", alpha ", alpha, ", beta ", beta, ": ",
                bad, " elements differ");
}

TEST_CASE_TEMPLATE("gemm agrees with the reference for every layout, transpose, alpha and beta", T,
                   float, double) {
  const Pair<FGemm<T>> fortran(routine<T>("gemm", false).c_str());
  const Pair<CGemm<T>> cblas(routine<T>("gemm", true).c_str());
  std::mt19937 random(3);
  const int before = last_report.calls;
  for (int api = 0; api < 3; ++api) {
    for (int ta : {kNoTrans, kTrans, kConjTrans}) {
      for (int tb : {kNoTrans, kTrans, kConjTrans}) {
        for (Shape s : kShapes) {
          for (T alpha : {T(1.5), T(0)}) {
            for (T beta : {T(0), T(1), T(-0.5)}) {
              compare_gemm(fortran, cblas, api, ta, tb, s, alpha, beta, random);
            }
          }
        }
      }
    }
  }
  CHECK_MESSAGE(last_report.calls == before, "no valid product reports an error");
}

// ------------------------------ Error exits

// netlib CBLAS reports the layout and transpose errors of a CBLAS call to cblas_xerbla, and the
// rest through the Fortran routine it calls, to xerbla_, numbered as that column-major call's
// (row-major swaps A and B, M and N), with RowMajorStrg and CBLAS_CallFromC set while the handler
// runs: this program defines both handlers, so every report is compared whole (handler, routine,
// number and both globals), and the globals must be 0 again after the call.
const int* global_of(void* library, const char* name) {
  return static_cast<const int*>(dlsym(library, name));
}

struct GemmArgs {
  int layout = kColMajor, ta = kNoTrans, tb = kNoTrans, m = 4, n = 5, k = 3, lda = 4, ldb = 3,
      ldc = 4;
  char fta = 'N', ftb = 'N';
};

template <class T>
void compare_error(const Pair<FGemm<T>>& fortran, const Pair<CGemm<T>>& cblas, bool use_cblas,
                   GemmArgs g, const std::string& what) {
  std::vector<T> A(4096, T(1)), B(4096, T(2)), C(4096, T(3));
  const T alpha = T(1), beta = T(0.5);
  Report got, want;
  for (int side = 0; side < 2; ++side) {
    last_report = Report{};
    void* library = side == 0 ? coheriq::blas_testing::ours() : coheriq::blas_testing::reference();
    current_row_major = global_of(library, "RowMajorStrg");
    current_from_c = global_of(library, "CBLAS_CallFromC");
    REQUIRE_MESSAGE(current_row_major != nullptr, "RowMajorStrg is missing (side ", side, ")");
    REQUIRE_MESSAGE(current_from_c != nullptr, "CBLAS_CallFromC is missing (side ", side, ")");
    std::vector<T> c = C;
    if (use_cblas) {
      (side == 0 ? cblas.ours : cblas.ref)(g.layout, g.ta, g.tb, g.m, g.n, g.k, alpha, A.data(),
                                           g.lda, B.data(), g.ldb, beta, c.data(), g.ldc);
    } else {
      (side == 0 ? fortran.ours : fortran.ref)(&g.fta, &g.ftb, &g.m, &g.n, &g.k, &alpha, A.data(),
                                               &g.lda, B.data(), &g.ldb, &beta, c.data(), &g.ldc, 1,
                                               1);
    }
    CHECK_MESSAGE(c == C, what, ": C was written on an error (side ", side, ")");
    CHECK_MESSAGE(*current_row_major == 0, what, ": RowMajorStrg left set (side ", side, ")");
    CHECK_MESSAGE(*current_from_c == 0, what, ": CBLAS_CallFromC left set (side ", side, ")");
    (side == 0 ? got : want) = last_report;
  }
  current_row_major = current_from_c = nullptr;
  CHECK_MESSAGE(got.calls == 1, what, ": ", got.calls, " reports");
  CHECK_MESSAGE(want.calls == 1, what, ": the reference made ", want.calls, " reports");
  CHECK_MESSAGE(got.routine == want.routine, what, ": routine ", got.routine, " vs ", want.routine);
  CHECK_MESSAGE(got.info == want.info, what, ": parameter ", got.info, " vs ", want.info);
  CHECK_MESSAGE(got.cblas == want.cblas, what, ": reported to ",
                got.cblas ? "cblas_xerbla" : "xerbla_", ", the reference to ",
                want.cblas ? "cblas_xerbla" : "xerbla_");
  CHECK_MESSAGE(got.row_major == want.row_major, what, ": RowMajorStrg ", got.row_major, " vs ",
                want.row_major);
  CHECK_MESSAGE(got.from_c == want.from_c, what, ": CBLAS_CallFromC ", got.from_c, " vs ",
                want.from_c);
}

TEST_CASE_TEMPLATE("every gemm argument error is reported as the reference reports it", T, float,
                   double) {
  const Pair<FGemm<T>> fortran(routine<T>("gemm", false).c_str());
  const Pair<CGemm<T>> cblas(routine<T>("gemm", true).c_str());
  // Fortran (column-major): each check of the reference, in its order of precedence.
  const auto F = [&](const std::string& what, auto edit) {
    GemmArgs g;
    edit(g);
    compare_error<T>(fortran, cblas, false, g, "Fortran " + what);
  };
  F("transa", [](GemmArgs& g) { g.fta = 'X'; });
  F("transb", [](GemmArgs& g) { g.ftb = 'y'; });
  F("m < 0", [](GemmArgs& g) { g.m = -1; });
  F("n < 0", [](GemmArgs& g) { g.n = -1; });
  F("k < 0", [](GemmArgs& g) { g.k = -2; });
  F("m, n < 0", [](GemmArgs& g) { g.m = g.n = -1; });
  F("lda < m", [](GemmArgs& g) { g.lda = 3; });
  F("lda < k (T)", [](GemmArgs& g) {
    g.fta = 'T';
    g.lda = 2;
  });
  F("lda = 0, m = 0", [](GemmArgs& g) {
    g.m = 0;
    g.lda = 0;
    g.ldc = 1;
  });
  F("ldb < k", [](GemmArgs& g) { g.ldb = 2; });
  F("ldb < n (C)", [](GemmArgs& g) {
    g.ftb = 'C';
    g.ldb = 4;
  });
  F("ldc < m", [](GemmArgs& g) { g.ldc = 3; });
  F("transa and m", [](GemmArgs& g) {
    g.fta = '?';
    g.m = -1;
  });
  // CBLAS, both layouts: the layout, the transposes, then the Fortran checks renumbered.
  for (int layout : {kRowMajor, kColMajor, 7}) {
    const auto C = [&](const std::string& what, auto edit) {
      GemmArgs g;
      g.layout = layout;
      if (layout == kRowMajor) {
        g.lda = 3;  // A 4 x 3, B 3 x 5, C 4 x 5 row-major
        g.ldb = 5;
        g.ldc = 5;
      }
      edit(g);
      compare_error<T>(fortran, cblas, true, g,
                       "CBLAS layout " + std::to_string(layout) + " " + what);
    };
    if (layout == 7) {
      C("layout", [](GemmArgs&) {});
      continue;
    }
    const bool row = layout == kRowMajor;
    C("TransA", [](GemmArgs& g) { g.ta = 99; });
    C("TransB", [](GemmArgs& g) { g.tb = 110; });
    C("M < 0", [](GemmArgs& g) { g.m = -1; });
    C("N < 0", [](GemmArgs& g) { g.n = -1; });
    C("K < 0", [](GemmArgs& g) { g.k = -1; });
    C("M, N < 0", [](GemmArgs& g) { g.m = g.n = -1; });
    C("lda", [&](GemmArgs& g) { g.lda = row ? 2 : 3; });
    C("lda (Trans)", [&](GemmArgs& g) {
      g.ta = kTrans;
      g.lda = row ? 3 : 2;
    });
    C("ldb", [&](GemmArgs& g) { g.ldb = row ? 4 : 2; });
    C("ldb (ConjTrans)", [&](GemmArgs& g) {
      g.tb = kConjTrans;
      g.ldb = row ? 2 : 4;
    });
    C("ldc", [&](GemmArgs& g) { g.ldc = row ? 4 : 3; });
    C("lda and ldc", [&](GemmArgs& g) {
      g.lda = 1;
      g.ldc = 1;
    });
  }
}

// ------------------------------ cblas_?gemm_batch_strided (ours only: netlib has no batches)

template <class T>
using CGemmBatch = void (*)(int, int, int, int, int, int, T, const T*, int, int, const T*, int, int,
                            T, T*, int, int, int);

TEST_CASE_TEMPLATE("cblas_?gemm_batch_strided gives each product's cblas_?gemm bits", T, float,
                   double) {
  const std::string name = routine<T>("gemm_batch_strided", true);
  const auto batch =
      coheriq::blas_testing::symbol<CGemmBatch<T>>(coheriq::blas_testing::ours(), name.c_str());
  const auto gemm = coheriq::blas_testing::symbol<CGemm<T>>(coheriq::blas_testing::ours(),
                                                            routine<T>("gemm", true).c_str());
  std::mt19937 random(11);
  std::uniform_real_distribution<T> uniform(T(-1), T(1));
  const int before = last_report.calls;
  constexpr int m = 7, n = 5, k = 9, count = 6;
  for (int layout : {kColMajor, kRowMajor}) {
    for (int ta : {kNoTrans, kTrans}) {
      for (int tb : {kNoTrans, kConjTrans}) {
        // alpha 0 and infinity: the reference's cases, product by product.
        for (T alpha : {T(0.75), T(0), std::numeric_limits<T>::infinity()}) {
          for (T beta : {T(0), T(-0.5)}) {
            const int lda = 12, ldb = 11, ldc = 10;  // larger than any row or column here
            const int stridea = 12 * 12 + 1, strideb = 0, stridec = 12 * 10 + 3;  // B shared
            std::vector<T> A(std::size_t(stridea) * count), B(12 * 12),
                C(std::size_t(stridec) * count);
            for (T& v : A) v = uniform(random);
            for (T& v : B) v = uniform(random);
            for (T& v : C) v = beta == T(0) ? std::numeric_limits<T>::quiet_NaN() : uniform(random);
            std::vector<T> by_batch = C, by_gemm = C;
            batch(layout, ta, tb, m, n, k, alpha, A.data(), lda, stridea, B.data(), ldb, strideb,
                  beta, by_batch.data(), ldc, stridec, count);
            for (int i = 0; i < count; ++i) {
              gemm(layout, ta, tb, m, n, k, alpha, A.data() + i * stridea, lda, B.data(), ldb, beta,
                   by_gemm.data() + i * stridec, ldc);
            }
            CHECK_MESSAGE(std::memcmp(by_batch.data(), by_gemm.data(), C.size() * sizeof(T)) == 0,
                          name, " layout ", layout, " ta ", ta, " tb ", tb, " alpha ", alpha,
                          " beta ", beta);
          }
        }
      }
    }
  }
  CHECK_MESSAGE(last_report.calls == before, "no valid batch reports an error");
  // Its own checks, numbered in its own argument list, to cblas_xerbla; nothing written.
  std::vector<T> A(256, T(1)), B(256, T(2)), C(256, T(3));
  const auto refused = [&](int expected, int layout, int ta, int m_, int lda, int stridea, int ldc,
                           int stridec, int count_) {
    last_report = Report{};
    std::vector<T> c = C;
    batch(layout, ta, kNoTrans, m_, 3, 2, T(1), A.data(), lda, stridea, B.data(), 3, 6, T(0),
          c.data(), ldc, stridec, count_);
    CHECK_MESSAGE(last_report.calls == 1, "parameter ", expected);
    CHECK_MESSAGE(last_report.info == expected, "parameter ", expected, ": got ", last_report.info);
    CHECK_MESSAGE(last_report.routine == name, last_report.routine);
    CHECK(c == C);
  };
  refused(1, 7, kNoTrans, 2, 2, 4, 2, 6, 2);
  refused(2, kColMajor, 5, 2, 2, 4, 2, 6, 2);
  refused(4, kColMajor, kNoTrans, -1, 2, 4, 2, 6, 2);
  refused(9, kColMajor, kNoTrans, 4, 3, 12, 4, 12, 2);  // lda < m
  refused(9, kRowMajor, kNoTrans, 4, 1, 12, 4, 12, 2);  // lda < k
  refused(10, kColMajor, kNoTrans, 2, 2, -4, 2, 6, 2);
  refused(16, kRowMajor, kNoTrans, 2, 2, 4, 2, 6, 2);  // ldc < n
  refused(18, kColMajor, kNoTrans, 2, 2, 4, 2, 6, -1);
  // Two products' C overlap (stride 1 < a C's 5 elements): the kernels' message, info 0.
  refused(0, kColMajor, kNoTrans, 2, 2, 4, 2, 1, 2);
}

}  // namespace
