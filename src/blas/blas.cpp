// libcoheriq_blas: the Fortran BLAS and CBLAS entry points of the routines Coheriq accelerates,
// with the reference BLAS's semantics (netlib LAPACK 3.11, Debian's libblas3), forwarded to the
// kernels domain. Nothing else is defined, so every other BLAS routine resolves from the system
// BLAS when this library is preloaded or linked before it (docs/blas.md).
//
// Semantics kept from the reference in every corner: any increment (a negative one walks the
// vector from its far end, 0 repeats element 1), n <= 0 quick returns, the reference's own quick
// returns (incx <= 0 for ?scal, ?asum, i?amax; alpha == 0 for ?axpy), argument errors reported
// with the reference's parameter numbers through netlib CBLAS's protocol and nothing written,
// GEMM's alpha == 0 and beta == 0 rules (C not read when beta == 0, A and B not read when
// alpha == 0) and its NaNs and infinities for a non-finite alpha, 1-based i?amax in Fortran,
// 0-based in CBLAS.
//
// The engine: COHERIQ_ENGINE when set, else (unset or blank) the highest-priority engine this host
// can use ('auto'), because a drop-in BLAS that ran scalar code by default would be useless. The
// C++ API keeps its reference default; this difference is documented in docs/blas.md.
#include <coheriq/coheriq.hpp>
#include <coheriq/kernels.hpp>

#include <atomic>
#include <cctype>
#include <cmath>
#include <cstdarg>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <mutex>
#include <string>
#include <string_view>

// The error handlers are weak references: the application's own xerbla_ / cblas_xerbla, or the
// system BLAS's when the process has one, receive the errors (as with the reference BLAS, where
// the application replaces xerbla_ by defining it). Without any, this library behaves as
// netlib's handlers do (default_xerbla and default_cblas_xerbla below). Defining no xerbla_ here
// keeps a preload from replacing the system BLAS's handler for the routines that still run there
// (LAPACK included).
//
// RowMajorStrg and CBLAS_CallFromC are netlib CBLAS's globals. They are defined and exported
// here so that the process has one of each: a program that defines them (netlib's CBLAS testers
// do), or the reference BLAS behind a preload, uses the same variables as this library (built
// position-independent with default visibility, it reaches them through the GOT, where the
// program's definition wins). This library sets them only while a handler runs (CblasReport).
extern "C" {
void xerbla_(const char* srname, const int* info, std::size_t srname_len) __attribute__((weak));
void cblas_xerbla(int info, const char* rout, const char* form, ...) __attribute__((weak));
int RowMajorStrg = 0;
int CBLAS_CallFromC = 0;
}

namespace coheriq::blas {
namespace {

namespace k = coheriq::kernels;

// ------------------------------ The engine

// Settles the engine once per process, through the domain's own reading of COHERIQ_ENGINE: an
// engine the application enabled, or the one COHERIQ_ENGINE names (the domain reads it at the
// first kernel call), stands; unset or blank, the variable means 'auto' here, enabled as
// enable_engine("auto") (the highest-priority engine this host can use, exactly as
// COHERIQ_ENGINE=auto chooses: a plugin whose library does not load is passed over). Errors (a
// malformed COHERIQ_ENGINE or host variable) propagate, for the calling routine to report once.
void settle_engine_once() {
  static std::once_flag once;
  std::call_once(once, [] {
    const char* log = std::getenv("COHERIQ_LOG");
    const bool info = log != nullptr && std::string_view(log) == "info";
    // The reason is "default" only when nothing was enabled and the variable is unset or blank;
    // any other reason already echoes the variable's value escaped and bounded (printable()).
    const coheriq::DomainStatus status = coheriq::status(k::domain_name);
    if (status.reason != "default") {
      if (info) {
        std::fprintf(stderr, "coheriq: libcoheriq_blas: engine %s (%s)\n", status.engine.c_str(),
                     status.reason.c_str());
      }
      return;
    }
    try {
      k::enable_engine("auto");
    } catch (const coheriq::EngineLockedError&) {
      // Another thread of the application enabled an engine meanwhile: its choice stands.
    }
    if (info) {
      std::fprintf(stderr,
                   "coheriq: libcoheriq_blas: COHERIQ_ENGINE is %s, so 'auto': %s (the "
                   "highest-priority engine this host can use)\n",
                   std::getenv("COHERIQ_ENGINE") == nullptr ? "unset" : "blank",
                   k::active_engine().c_str());
    }
  });
}

// Every call checks one flag; only the first calls take the once_flag (a call into libc).
std::atomic<bool> engine_settled{false};

inline void settle_engine() {
  if (engine_settled.load(std::memory_order_acquire)) return;
  settle_engine_once();
  engine_settled.store(true, std::memory_order_release);
}

// Errors that are not argument errors (no memory for a workspace or a thread, a COHERIQ_ENGINE or
// COHERIQ_NUM_THREADS this process cannot honour) cannot be returned through the BLAS
// interface, and returning with the output unwritten would hand the caller wrong results: say
// what it was and stop. Argument errors never come here: they are reported before `compute`
// runs, so an application's xerbla_ that throws propagates through the entry points.
[[noreturn]] void fatal(const char* routine, const std::exception& e) {
  std::string_view what = e.what();
  constexpr std::string_view prefix = "coheriq: ";  // the kernels' messages start with it too
  if (what.substr(0, prefix.size()) == prefix) what.remove_prefix(prefix.size());
  std::fprintf(stderr, "coheriq: %s: %.*s\n", routine, static_cast<int>(what.size()), what.data());
  std::abort();
}

// Runs the computation of a call whose arguments are valid; `f` calls no application code.
template <class F>
auto compute(const char* routine, F f) noexcept -> decltype(f()) {
  try {
    settle_engine();
    return f();
  } catch (const std::exception& e) {
    fatal(routine, e);
  }
}

// ------------------------------ Errors: netlib CBLAS's protocol
//
// A Fortran routine reports an argument error to xerbla_(name, info) and returns. A CBLAS
// function reports its own checks (layout, transposes) to cblas_xerbla(info, "cblas_...", form,
// value), numbered in its argument list, and leaves the rest to the Fortran routine it calls: in
// row-major that is the equivalent column-major call (A and B, M and N swapped), so xerbla_
// receives that call's parameter number. While a CBLAS call reports, CBLAS_CallFromC is 1 and
// RowMajorStrg says the layout: netlib's xerbla_ then passes the error on to cblas_xerbla as
// info + 1 (the layout argument comes first), and netlib's cblas_xerbla, like the one of netlib's
// CBLAS testers, swaps a row-major call's numbers back to its own argument list.

// The globals for the duration of one report, cleared also when the handler throws.
class CblasReport {
 public:
  explicit CblasReport(bool row_major) {
    CBLAS_CallFromC = 1;
    RowMajorStrg = row_major ? 1 : 0;
  }
  CblasReport(const CblasReport&) = delete;
  CblasReport& operator=(const CblasReport&) = delete;
  ~CblasReport() {
    CBLAS_CallFromC = 0;
    RowMajorStrg = 0;
  }
};

// netlib's cblas_xerbla, when the process has none: a row-major call's number swapped back to
// its argument list, the message, exit(-1).
[[noreturn]] void default_cblas_xerbla(int info, const char* rout, const char* form, int value) {
  if (RowMajorStrg != 0 && std::strstr(rout, "gemm") != nullptr) {
    if (info == 4 || info == 5) {
      info = 9 - info;  // M <-> N
    } else if (info == 9 || info == 11) {
      info = 20 - info;  // lda <-> ldb
    }
  }
  if (info != 0) std::fprintf(stderr, "Parameter %d to routine %s was incorrect\n", info, rout);
  std::fprintf(stderr, form, value);
  std::exit(-1);
}

// `form` has at most one conversion, for `value`.
void report_cblas(int info, const char* rout, const char* form, int value) {
  if (cblas_xerbla != nullptr) return cblas_xerbla(info, rout, form, value);
  default_cblas_xerbla(info, rout, form, value);
}

// netlib CBLAS's xerbla_, when the process has none: a CBLAS call's error goes on to cblas_xerbla
// as "cblas_" + the lower-case Fortran name (blank-padded to 6 characters, as netlib's is) and
// parameter info + 1. A Fortran call's is printed with netlib xerbla.f's message, and the routine
// returns (as with Debian's libblas3; xerbla.f itself stops).
void default_xerbla(const char* srname, int info) {
  if (CBLAS_CallFromC != 0) {
    std::string rout = "cblas_";
    for (const char* c = srname; *c != '\0'; ++c) {
      rout += static_cast<char>(std::tolower(static_cast<unsigned char>(*c)));
    }
    return report_cblas(info + 1, rout.c_str(), "", 0);
  }
  std::fprintf(stderr, " ** On entry to %s parameter number %d had an illegal value\n", srname,
               info);
}

// `srname` is the Fortran name blank-padded to 6 characters ("SGEMM "), as the reference's.
void report_xerbla(const char* srname, int info) {
  if (xerbla_ != nullptr) return xerbla_(srname, &info, std::char_traits<char>::length(srname));
  default_xerbla(srname, info);
}

// ------------------------------ BLAS-1 (the reference's rules, then the kernels)

// Element 1 of a Fortran vector: x itself, or its far end for a negative increment.
template <class T>
T* first(T* x, int n, int inc) {
  return inc < 0 ? x + static_cast<std::ptrdiff_t>(n - 1) * -inc : x;
}

template <class T>
T dot(int n, const T* x, int incx, const T* y, int incy) {
  if (n <= 0) return T{0};
  const auto count = static_cast<std::size_t>(n);
  if (incx == 1 && incy == 1) return k::dot(count, x, y);
  return k::dot_strided(count, first(x, n, incx), incx, first(y, n, incy), incy);
}

template <class T>
void axpy(int n, T a, const T* x, int incx, T* y, int incy) {
  if (n <= 0 || a == T{0}) return;
  const auto count = static_cast<std::size_t>(n);
  if (incx == 1 && incy == 1) return k::axpy(count, a, x, y);
  k::axpy_strided(count, a, first(x, n, incx), incx, first(y, n, incy), incy);
}

template <class T>
void scal(int n, T a, T* x, int incx) {
  if (n <= 0 || incx <= 0) return;
  const auto count = static_cast<std::size_t>(n);
  if (incx == 1) return k::scal(count, a, x);
  k::scal_strided(count, a, x, incx);
}

template <class T>
T asum(int n, const T* x, int incx) {
  if (n <= 0 || incx <= 0) return T{0};
  const auto count = static_cast<std::size_t>(n);
  return incx == 1 ? k::asum(count, x) : k::asum_strided(count, x, incx);
}

// The reference's nrm2 (LAPACK 3.10 and later) takes any increment, 0 and negative included.
template <class T>
T nrm2(int n, const T* x, int incx) {
  if (n <= 0) return T{0};
  const auto count = static_cast<std::size_t>(n);
  return incx == 1 ? k::nrm2(count, x) : k::nrm2_strided(count, first(x, n, incx), incx);
}

// 1-based, 0 for n < 1 or incx <= 0. The reference compares |x_i| > max, so a NaN wins only as
// element 1; the kernels return the first NaN, so a later one means the reference's scan.
template <class T>
int iamax(int n, const T* x, int incx) {
  if (n < 1 || incx <= 0) return 0;
  const auto count = static_cast<std::size_t>(n);
  const std::size_t i = incx == 1 ? k::iamax(count, x) : k::iamax_strided(count, x, incx);
  const T v = x[static_cast<std::ptrdiff_t>(i) * incx];
  if (i == 0 || !std::isnan(v)) return static_cast<int>(i) + 1;
  int best = 1;
  T largest = std::fabs(x[0]);
  for (int j = 1; j < n; ++j) {
    const T magnitude = std::fabs(x[static_cast<std::ptrdiff_t>(j) * incx]);
    if (magnitude > largest) {
      best = j + 1;
      largest = magnitude;
    }
  }
  return best;
}

// ------------------------------ GEMM, column-major (the Fortran routine)

bool lsame(char c, char upper) { return std::toupper(static_cast<unsigned char>(c)) == upper; }

// The reference's checks in its order; 0 when the arguments are valid.
int gemm_info(char ta, char tb, int m, int n, int k_, int lda, int ldb, int ldc) {
  const bool nota = lsame(ta, 'N'), notb = lsame(tb, 'N');
  const int nrowa = nota ? m : k_, nrowb = notb ? k_ : n;
  const auto at_least_one = [](int v) { return v > 1 ? v : 1; };
  if (!nota && !lsame(ta, 'C') && !lsame(ta, 'T')) return 1;
  if (!notb && !lsame(tb, 'C') && !lsame(tb, 'T')) return 2;
  if (m < 0) return 3;
  if (n < 0) return 4;
  if (k_ < 0) return 5;
  if (lda < at_least_one(nrowa)) return 8;
  if (ldb < at_least_one(nrowb)) return 10;
  if (ldc < at_least_one(m)) return 13;
  return 0;
}

// A product with a non-finite alpha, in the reference's own order: which of alpha's products
// with a zero become NaN depends on where the reference multiplies by alpha (into each element
// of op(B) when op(A) = A, into each finished sum when op(A) = A^T, where k == 0 gives alpha·0),
// so only its order gives its NaNs and infinities. Column-major; beta == 0 does not read C.
template <class T>
void gemm_in_reference_order(bool ta, bool tb, int m, int n, int k_, T alpha, const T* A, int lda,
                             const T* B, int ldb, T beta, T* C, int ldc) {
  const auto a = [&](int i, int l) {
    return ta ? A[l + static_cast<std::ptrdiff_t>(i) * lda]
              : A[i + static_cast<std::ptrdiff_t>(l) * lda];
  };
  const auto b = [&](int l, int j) {
    return tb ? B[j + static_cast<std::ptrdiff_t>(l) * ldb]
              : B[l + static_cast<std::ptrdiff_t>(j) * ldb];
  };
  for (int j = 0; j < n; ++j) {
    T* c = C + static_cast<std::ptrdiff_t>(j) * ldc;
    if (!ta) {
      for (int i = 0; i < m; ++i) c[i] = beta == T{0} ? T{0} : beta * c[i];
      for (int l = 0; l < k_; ++l) {
        const T scaled = alpha * b(l, j);
        for (int i = 0; i < m; ++i) c[i] += scaled * a(i, l);
      }
      continue;
    }
    for (int i = 0; i < m; ++i) {
      T sum{0};
      for (int l = 0; l < k_; ++l) sum += a(i, l) * b(l, j);
      c[i] = beta == T{0} ? alpha * sum : alpha * sum + beta * c[i];
    }
  }
}

// Valid column-major arguments. The reference's quick return and alpha == 0 / k == 0 cases are
// handled here (C = beta·C, zero when beta == 0, A and B never read); the product maps onto the
// row-major kernels by transposing the whole equation: C^T = alpha·op(B)^T·op(A)^T + beta·C^T,
// where a column-major matrix read row-major is its transpose.
template <class T>
void gemm(bool ta, bool tb, int m, int n, int k_, T alpha, const T* A, int lda, const T* B, int ldb,
          T beta, T* C, int ldc) {
  if (m == 0 || n == 0 || ((alpha == T{0} || k_ == 0) && beta == T{1})) return;
  if (!std::isfinite(alpha)) {
    return gemm_in_reference_order(ta, tb, m, n, k_, alpha, A, lda, B, ldb, beta, C, ldc);
  }
  if (alpha == T{0} || k_ == 0) {
    for (int j = 0; j < n; ++j) {
      T* column = C + static_cast<std::ptrdiff_t>(j) * ldc;
      for (int i = 0; i < m; ++i) column[i] = beta == T{0} ? T{0} : beta * column[i];
    }
    return;
  }
  k::gemm(tb ? k::Trans::T : k::Trans::N, ta ? k::Trans::T : k::Trans::N,
          static_cast<std::size_t>(n), static_cast<std::size_t>(m), static_cast<std::size_t>(k_),
          alpha, B, static_cast<std::size_t>(ldb), A, static_cast<std::size_t>(lda), beta, C,
          static_cast<std::size_t>(ldc));
}

template <class T>
void fortran_gemm(const char* routine, const char* name, const char* ta, const char* tb,
                  const int* m, const int* n, const int* k_, const T* alpha, const T* A,
                  const int* lda, const T* B, const int* ldb, const T* beta, T* C, const int* ldc) {
  const int info = gemm_info(*ta, *tb, *m, *n, *k_, *lda, *ldb, *ldc);
  if (info != 0) return report_xerbla(name, info);
  compute(routine, [&] {
    gemm(!lsame(*ta, 'N'), !lsame(*tb, 'N'), *m, *n, *k_, *alpha, A, *lda, B, *ldb, *beta, C, *ldc);
  });
}

// ------------------------------ CBLAS GEMM

enum Layout { kRowMajor = 101, kColMajor = 102 };
enum Transpose { kNoTrans = 111, kTrans = 112, kConjTrans = 113 };

// 'N', 'T' (ConjTrans is Trans for real data), or 0 for an invalid value.
char trans_char(int t) {
  if (t == kNoTrans) return 'N';
  if (t == kTrans || t == kConjTrans) return 'T';
  return 0;
}

// The reference CBLAS (cblas_?gemm.c) in its order: the layout (1), TransA (2) and TransB (3; 2
// in row-major, as the reference reports it) to cblas_xerbla, then the Fortran checks of the
// column-major call it makes to xerbla_ (`name`, the Fortran routine's): row-major swaps A and B,
// M and N, so its N < 0 is that call's parameter 3 and found before its M < 0.
template <class T>
void cblas_gemm(const char* routine, const char* name, int layout, int trans_a, int trans_b, int m,
                int n, int k_, T alpha, const T* A, int lda, const T* B, int ldb, T beta, T* C,
                int ldc) {
  if (layout != kRowMajor && layout != kColMajor) {
    const CblasReport report(false);
    return report_cblas(1, routine, "Illegal layout setting, %d\n", layout);
  }
  const bool row = layout == kRowMajor;
  const char ta = trans_char(trans_a), tb = trans_char(trans_b);
  if (ta == 0) {
    const CblasReport report(row);
    return report_cblas(2, routine, "Illegal TransA setting, %d\n", trans_a);
  }
  if (tb == 0) {
    const CblasReport report(row);
    return report_cblas(row ? 2 : 3, routine, "Illegal TransB setting, %d\n", trans_b);
  }
  const int info =
      row ? gemm_info(tb, ta, n, m, k_, ldb, lda, ldc) : gemm_info(ta, tb, m, n, k_, lda, ldb, ldc);
  if (info != 0) {
    const CblasReport report(row);
    return report_xerbla(name, info);
  }
  compute(routine, [&] {
    if (row) return gemm(tb == 'T', ta == 'T', n, m, k_, alpha, B, ldb, A, lda, beta, C, ldc);
    gemm(ta == 'T', tb == 'T', m, n, k_, alpha, A, lda, B, ldb, beta, C, ldc);
  });
}

}  // namespace
}  // namespace coheriq::blas

// ------------------------------ The exported symbols

namespace b = coheriq::blas;

extern "C" {

// Fortran (gfortran's convention: every argument by reference, REAL results returned as float,
// CHARACTER lengths as trailing hidden size_t arguments).
float sdot_(const int* n, const float* x, const int* incx, const float* y, const int* incy) {
  return b::compute("sdot_", [&] { return b::dot(*n, x, *incx, y, *incy); });
}
double ddot_(const int* n, const double* x, const int* incx, const double* y, const int* incy) {
  return b::compute("ddot_", [&] { return b::dot(*n, x, *incx, y, *incy); });
}
void saxpy_(const int* n, const float* a, const float* x, const int* incx, float* y,
            const int* incy) {
  b::compute("saxpy_", [&] { b::axpy(*n, *a, x, *incx, y, *incy); });
}
void daxpy_(const int* n, const double* a, const double* x, const int* incx, double* y,
            const int* incy) {
  b::compute("daxpy_", [&] { b::axpy(*n, *a, x, *incx, y, *incy); });
}
void sscal_(const int* n, const float* a, float* x, const int* incx) {
  b::compute("sscal_", [&] { b::scal(*n, *a, x, *incx); });
}
void dscal_(const int* n, const double* a, double* x, const int* incx) {
  b::compute("dscal_", [&] { b::scal(*n, *a, x, *incx); });
}
float sasum_(const int* n, const float* x, const int* incx) {
  return b::compute("sasum_", [&] { return b::asum(*n, x, *incx); });
}
double dasum_(const int* n, const double* x, const int* incx) {
  return b::compute("dasum_", [&] { return b::asum(*n, x, *incx); });
}
float snrm2_(const int* n, const float* x, const int* incx) {
  return b::compute("snrm2_", [&] { return b::nrm2(*n, x, *incx); });
}
double dnrm2_(const int* n, const double* x, const int* incx) {
  return b::compute("dnrm2_", [&] { return b::nrm2(*n, x, *incx); });
}
int isamax_(const int* n, const float* x, const int* incx) {
  return b::compute("isamax_", [&] { return b::iamax(*n, x, *incx); });
}
int idamax_(const int* n, const double* x, const int* incx) {
  return b::compute("idamax_", [&] { return b::iamax(*n, x, *incx); });
}
void sgemm_(const char* ta, const char* tb, const int* m, const int* n, const int* k,
            const float* alpha, const float* A, const int* lda, const float* B, const int* ldb,
            const float* beta, float* C, const int* ldc, std::size_t, std::size_t) {
  b::fortran_gemm("sgemm_", "SGEMM ", ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}
void dgemm_(const char* ta, const char* tb, const int* m, const int* n, const int* k,
            const double* alpha, const double* A, const int* lda, const double* B, const int* ldb,
            const double* beta, double* C, const int* ldc, std::size_t, std::size_t) {
  b::fortran_gemm("dgemm_", "DGEMM ", ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}

// CBLAS (<cblas.h>: enums passed as int, CBLAS_INDEX is size_t).
float cblas_sdot(int n, const float* x, int incx, const float* y, int incy) {
  return b::compute("cblas_sdot", [&] { return b::dot(n, x, incx, y, incy); });
}
double cblas_ddot(int n, const double* x, int incx, const double* y, int incy) {
  return b::compute("cblas_ddot", [&] { return b::dot(n, x, incx, y, incy); });
}
void cblas_saxpy(int n, float a, const float* x, int incx, float* y, int incy) {
  b::compute("cblas_saxpy", [&] { b::axpy(n, a, x, incx, y, incy); });
}
void cblas_daxpy(int n, double a, const double* x, int incx, double* y, int incy) {
  b::compute("cblas_daxpy", [&] { b::axpy(n, a, x, incx, y, incy); });
}
void cblas_sscal(int n, float a, float* x, int incx) {
  b::compute("cblas_sscal", [&] { b::scal(n, a, x, incx); });
}
void cblas_dscal(int n, double a, double* x, int incx) {
  b::compute("cblas_dscal", [&] { b::scal(n, a, x, incx); });
}
float cblas_sasum(int n, const float* x, int incx) {
  return b::compute("cblas_sasum", [&] { return b::asum(n, x, incx); });
}
double cblas_dasum(int n, const double* x, int incx) {
  return b::compute("cblas_dasum", [&] { return b::asum(n, x, incx); });
}
float cblas_snrm2(int n, const float* x, int incx) {
  return b::compute("cblas_snrm2", [&] { return b::nrm2(n, x, incx); });
}
double cblas_dnrm2(int n, const double* x, int incx) {
  return b::compute("cblas_dnrm2", [&] { return b::nrm2(n, x, incx); });
}
// 0-based; 0 also where the Fortran routine returns 0 (the reference's `iamax ? iamax - 1 : 0`).
std::size_t cblas_isamax(int n, const float* x, int incx) {
  return b::compute("cblas_isamax", [&] {
    const int i = b::iamax(n, x, incx);
    return i > 0 ? static_cast<std::size_t>(i - 1) : std::size_t{0};
  });
}
std::size_t cblas_idamax(int n, const double* x, int incx) {
  return b::compute("cblas_idamax", [&] {
    const int i = b::iamax(n, x, incx);
    return i > 0 ? static_cast<std::size_t>(i - 1) : std::size_t{0};
  });
}
void cblas_sgemm(int layout, int ta, int tb, int m, int n, int k, float alpha, const float* A,
                 int lda, const float* B, int ldb, float beta, float* C, int ldc) {
  b::cblas_gemm("cblas_sgemm", "SGEMM ", layout, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C,
                ldc);
}
void cblas_dgemm(int layout, int ta, int tb, int m, int n, int k, double alpha, const double* A,
                 int lda, const double* B, int ldb, double beta, double* C, int ldc) {
  b::cblas_gemm("cblas_dgemm", "DGEMM ", layout, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C,
                ldc);
}

}  // extern "C"
