// libcoheriq_blas: every routine of the reference BLAS (netlib LAPACK 3.11, Debian's libblas3),
// Fortran and CBLAS, expanded from the table of src/blas/routines.hpp onto the computations of
// src/blas/layer.hpp: the kernels domain's BLAS-1 and real GEMM, the reference engine's BLAS
// kernels (src/reference/blas.hpp) for the rest. docs/blas.md says what holds.
//
// Each row of the table becomes, for each of its types, a Fortran entry point (sgemv_) and a
// CBLAS one (cblas_sgemv) which check the arguments in the reference's order with its parameter
// numbers (errors.cpp reports them by netlib CBLAS's protocol; a failed call writes nothing),
// then compute: col::stem for a column-major call, row::stem for a row-major one, l1::function
// at level 1.
//
// The engine: COHERIQ_ENGINE when set, else (unset or blank) the highest-priority engine this host
// can use ('auto'), because a drop-in BLAS that ran scalar code by default would be useless. The
// C++ API keeps its reference default; this difference is documented in docs/blas.md.
#include <coheriq/coheriq.hpp>
#include <coheriq/kernels.hpp>

#include <atomic>
#include <complex>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <initializer_list>
#include <mutex>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "blas/errors.hpp"
#include "blas/kinds.hpp"
#include "blas/layer.hpp"
#include "blas/preprocessor.hpp"
#include "blas/routines.hpp"

namespace coheriq::blas {
namespace {

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

// ------------------------------ What the rows' row-major statements use

// netlib CBLAS's row-major letters: a transpose for ?gemv, ?gbmv, the triangular routines, ?syrk
// and ?syr2k (N -> T, T or C -> N), and for ?herk and ?her2k (N -> C, T or C -> N).
char to_t(char c) { return c == 'N' ? 'T' : 'N'; }
char to_c(char c) { return c == 'N' ? 'C' : 'N'; }
char flip_uplo(char c) { return c == 'U' ? 'L' : 'U'; }
char flip_side(char c) { return c == 'L' ? 'R' : 'L'; }
// netlib's row-major cblas_?gerc calls ?geru, whose name its errors carry.
const char* as_geru(const char* routine) { return routine[0] == 'c' ? "cgeru" : "zgeru"; }

// The number of the first failed check (1-based), 0 when all pass.
int first_failure(std::initializer_list<bool> passed) {
  int position = 0;
  for (const bool ok : passed) {
    ++position;
    if (!ok) return position;
  }
  return 0;
}

}  // namespace

// A CBLAS argument's value for the message of an invalid character (the enum itself).
template <class V>
int enum_value(V v) {
  if constexpr (std::is_same_v<V, int>) {
    return v;
  } else {
    return 0;
  }
}

// CBLAS's i?amax: 0-based, and 0 where the Fortran function returns 0.
std::size_t cblas_index(int i) { return i > 0 ? static_cast<std::size_t>(i - 1) : 0; }

}  // namespace coheriq::blas

// ------------------------------ The entry points, from the table

// One argument (kind, name[, extra]) in each place it appears.
#define COHERIQ_FORTRAN_PARAMETER(K, name, ...) , COHERIQ_KIND(K)::fortran<T> name
#define COHERIQ_CBLAS_PARAMETER(K, name, ...) , COHERIQ_KIND(K)::cblas<T> name
#define COHERIQ_VALUE_PARAMETER(K, name, ...) , COHERIQ_KIND(K)::value<T> name
#define COHERIQ_CANONICAL_PARAMETER(K, name, ...) , COHERIQ_KIND(K)::canonical<T> name
#define COHERIQ_CANONICAL_REFERENCE(K, name, ...) \
  , [[maybe_unused]] COHERIQ_KIND(K)::canonical<T>& name
#define COHERIQ_NAME(K, name, ...) , name
#define COHERIQ_COPY_NAME(K, name, ...) , checked_##name
#define COHERIQ_FROM_FORTRAN(K, name, ...) , COHERIQ_KIND(K)::from_fortran(name)
#define COHERIQ_FROM_CBLAS(K, name, ...) , COHERIQ_KIND(K)::from_cblas(name)
#define COHERIQ_CANONICAL_COPY(K, name, ...) \
  COHERIQ_KIND(K)::canonical<T> checked_##name = COHERIQ_KIND(K)::from_cblas_value(name);
#define COHERIQ_CHECK(K, name, ...) , COHERIQ_KIND(K)::check(name __VA_OPT__(, ) __VA_ARGS__)
#define COHERIQ_CBLAS_CHECK(K, name, ...)                                        \
  , ::coheriq::blas::CblasCheck {                                                \
    COHERIQ_KIND(K)::valid_enum(name), COHERIQ_KIND(K)::row_major_number, #name, \
        ::coheriq::blas::enum_value(name)                                        \
  }
#define COHERIQ_COMPUTE(K, name, ...) , COHERIQ_KIND(K)::to_compute(name)
#define COHERIQ_COMPUTE_COPY(K, name, ...) , COHERIQ_KIND(K)::to_compute(checked_##name)
#define COHERIQ_COMPUTE_ENUM(K, name, ...) , COHERIQ_KIND(K)::to_compute_enum(name)
#define COHERIQ_EACH(M, ...) COHERIQ_FOR_EACH(M, __VA_ARGS__)
#define COHERIQ_LIST(M, ...) COHERIQ_TAIL(~COHERIQ_FOR_EACH(M, __VA_ARGS__))

// A level-2/3 routine in one type: its checks, its row-major mapping, the two entry points.
#define COHERIQ_ENTRIES_23(letter, Type, stem, mapping, ...)                                   \
  namespace coheriq::blas::entry_##letter##stem {                                              \
    using T = Type;                                                                            \
    int check(COHERIQ_LIST(COHERIQ_CANONICAL_PARAMETER, __VA_ARGS__)) {                        \
      return first_failure({COHERIQ_LIST(COHERIQ_CHECK, __VA_ARGS__)});                        \
    }                                                                                          \
    void to_column_major([[maybe_unused]] const char*& routine COHERIQ_EACH(                   \
        COHERIQ_CANONICAL_REFERENCE, __VA_ARGS__)) {                                           \
      COHERIQ_UNPAREN mapping                                                                  \
    }                                                                                          \
    void fortran(const char* routine COHERIQ_EACH(COHERIQ_CANONICAL_PARAMETER, __VA_ARGS__)) { \
      if (const int info = check(COHERIQ_LIST(COHERIQ_NAME, __VA_ARGS__))) {                   \
        return report_fortran_error(routine, info);                                            \
      }                                                                                        \
      compute(#letter #stem "_",                                                               \
              [&] { col::stem<T>(COHERIQ_LIST(COHERIQ_COMPUTE, __VA_ARGS__)); });              \
    }                                                                                          \
    void cblas(const char* routine,                                                            \
               int layout COHERIQ_EACH(COHERIQ_VALUE_PARAMETER, __VA_ARGS__)) {                \
      if (layout != kRowMajor && layout != kColMajor) return report_layout(routine, layout);   \
      const bool row_major = layout == kRowMajor;                                              \
      if (report_cblas_checks(routine, row_major,                                              \
                              {COHERIQ_LIST(COHERIQ_CBLAS_CHECK, __VA_ARGS__)})) {             \
        return;                                                                                \
      }                                                                                        \
      COHERIQ_EACH(COHERIQ_CANONICAL_COPY, __VA_ARGS__)                                        \
      const char* checked = routine;                                                           \
      if (row_major) to_column_major(checked COHERIQ_EACH(COHERIQ_COPY_NAME, __VA_ARGS__));    \
      if (const int info = check(COHERIQ_LIST(COHERIQ_COPY_NAME, __VA_ARGS__))) {              \
        return report_cblas_error(checked, row_major, info);                                   \
      }                                                                                        \
      compute("cblas_" #letter #stem, [&] {                                                    \
        if (row_major) return row::stem<T>(COHERIQ_LIST(COHERIQ_COMPUTE_ENUM, __VA_ARGS__));   \
        col::stem<T>(COHERIQ_LIST(COHERIQ_COMPUTE_COPY, __VA_ARGS__));                         \
      });                                                                                      \
    }                                                                                          \
    extern "C" void letter##stem##_(COHERIQ_LIST(COHERIQ_FORTRAN_PARAMETER, __VA_ARGS__)       \
                                        COHERIQ_EACH(COHERIQ_HIDDEN_LENGTH, __VA_ARGS__)) {    \
      fortran(#letter #stem COHERIQ_EACH(COHERIQ_FROM_FORTRAN, __VA_ARGS__));                  \
    }                                                                                          \
    extern "C" void cblas_##letter##stem(                                                      \
        int layout COHERIQ_EACH(COHERIQ_CBLAS_PARAMETER, __VA_ARGS__)) {                       \
      cblas(#letter #stem, layout COHERIQ_EACH(COHERIQ_FROM_CBLAS, __VA_ARGS__));              \
    }                                                                                          \
  }

// A level-1 routine in one type: the Fortran function, and the CBLAS one by its result kind.
#define COHERIQ_CBLAS_1(result_type, convert, letter, stem, function, ...)   \
  extern "C" result_type cblas_##letter##stem(                               \
      COHERIQ_LIST(COHERIQ_CBLAS_PARAMETER, __VA_ARGS__)) {                  \
    return convert(compute("cblas_" #letter #stem, [&] {                     \
      return l1::function<T>(COHERIQ_LIST(COHERIQ_FROM_CBLAS, __VA_ARGS__)); \
    }));                                                                     \
  }
#define COHERIQ_CBLAS_1_VOID(...) COHERIQ_CBLAS_1(void, static_cast<void>, __VA_ARGS__)
#define COHERIQ_CBLAS_1_T(...) COHERIQ_CBLAS_1(T, , __VA_ARGS__)
#define COHERIQ_CBLAS_1_REAL(...) COHERIQ_CBLAS_1(::coheriq::blas::real_t<T>, , __VA_ARGS__)
#define COHERIQ_CBLAS_1_DOUBLE(...) COHERIQ_CBLAS_1(double, , __VA_ARGS__)
#define COHERIQ_CBLAS_1_INDEX(...) \
  COHERIQ_CBLAS_1(std::size_t, ::coheriq::blas::cblas_index, __VA_ARGS__)
#define COHERIQ_CBLAS_1_COMPLEX(letter, stem, function, ...)                                     \
  extern "C" void cblas_##letter##stem##_sub(COHERIQ_LIST(COHERIQ_CBLAS_PARAMETER, __VA_ARGS__), \
                                             T* result) {                                        \
    *result = compute("cblas_" #letter #stem "_sub", [&] {                                       \
      return l1::function<T>(COHERIQ_LIST(COHERIQ_FROM_CBLAS, __VA_ARGS__));                     \
    });                                                                                          \
  }
// The Fortran function's return statement by result kind (gfortran's COMPLEX as the struct).
#define COHERIQ_FORTRAN_RETURN_VOID(value) value;
#define COHERIQ_FORTRAN_RETURN_T(value) return value;
#define COHERIQ_FORTRAN_RETURN_REAL(value) return value;
#define COHERIQ_FORTRAN_RETURN_DOUBLE(value) return value;
#define COHERIQ_FORTRAN_RETURN_INDEX(value) return value;
#define COHERIQ_FORTRAN_RETURN_COMPLEX(value) \
  const T result = value;                     \
  return {result.real(), result.imag()};
#define COHERIQ_ENTRIES_1(letter, Type, stem, function, result, ...)               \
  namespace coheriq::blas::entry_##letter##stem {                                  \
    using T = Type;                                                                \
    extern "C" COHERIQ_FORTRAN_RESULT_##result letter##stem##_(                    \
        COHERIQ_LIST(COHERIQ_FORTRAN_PARAMETER, __VA_ARGS__)){                     \
        COHERIQ_FORTRAN_RETURN_##result(compute(#letter #stem "_", [&] {           \
          return l1::function<T>(COHERIQ_LIST(COHERIQ_FROM_FORTRAN, __VA_ARGS__)); \
        }))} COHERIQ_CBLAS_1_##result(letter, stem, function, __VA_ARGS__)         \
  }

#define COHERIQ_ROW_ENTRIES_23(stem, types, row_major, ...) \
  COHERIQ_ROW_23(COHERIQ_ENTRIES_23, stem, types, row_major, __VA_ARGS__)
#define COHERIQ_ROW_ENTRIES_1(stem, function, types, result, ...) \
  COHERIQ_ROW_1(COHERIQ_ENTRIES_1, stem, function, types, result, __VA_ARGS__)

COHERIQ_BLAS_LEVEL1(COHERIQ_ROW_ENTRIES_1)
COHERIQ_BLAS_LEVEL2(COHERIQ_ROW_ENTRIES_23)
COHERIQ_BLAS_LEVEL3(COHERIQ_ROW_ENTRIES_23)

// ------------------------------ cblas_?gemm_batch_strided
// Not a routine of the reference BLAS: the strided batch of MKL and OpenBLAS 0.3.30, in their
// argument order (layout, transa, transb, m, n, k, alpha, a, lda, stridea, b, ldb, strideb, beta,
// c, ldc, stridec, batch_size). Each product is cblas_?gemm's: the same checks (numbered in this
// function's own argument list, the layout 1), then the same results, the reference's cases of
// a zero or non-finite alpha or k == 0 included; the others run as one batch of the kernels
// domain, on its thread pool. A C stride that makes two products write the same element is
// refused there with the kernels' message (cblas_xerbla with info 0) before any product runs;
// the reference's cases loop cblas_?gemm's computation and do not check it.
namespace coheriq::blas {
namespace {

template <class T>
void gemm_batch_strided(const char* routine, int layout, int transa, int transb, int m, int n,
                        int k_, T alpha, const T* a, int lda, int stridea, const T* b, int ldb,
                        int strideb, T beta, T* c, int ldc, int stridec, int batch) {
  if (layout != kRowMajor && layout != kColMajor) return report_layout(routine, layout);
  const bool row_major = layout == kRowMajor;
  const auto trans_valid = [](int t) { return t == kNoTrans || t == kTrans || t == kConjTrans; };
  const bool ta = transa != kNoTrans, tb = transb != kNoTrans;
  // Rows as stored (column-major) or row lengths (row-major) that each leading dimension holds.
  const int a_needs = row_major ? (ta ? m : k_) : (ta ? k_ : m);
  const int b_needs = row_major ? (tb ? k_ : n) : (tb ? n : k_);
  const int c_needs = row_major ? n : m;
  const auto at_least = [](int ld, int rows) { return ld >= (rows > 1 ? rows : 1); };
  const int info =
      first_failure({true, trans_valid(transa), trans_valid(transb), m >= 0, n >= 0, k_ >= 0, true,
                     true, at_least(lda, a_needs), stridea >= 0, true, at_least(ldb, b_needs),
                     strideb >= 0, true, true, at_least(ldc, c_needs), stridec >= 0, batch >= 0});
  const std::string name = std::string("cblas_") + routine;
  if (info != 0) return report_cblas_own_error(routine, info, "");
  if (batch == 0 || m == 0 || n == 0) return;
  const std::size_t sa = size(stridea), sb = size(strideb), sc = size(stridec);
  if (std::isfinite(alpha) && alpha != T{0} && k_ != 0) {
    // Column-major products as the row-major kernels see them: Cᵀ = op(B)ᵀ·op(A)ᵀ. The kernels
    // check the strides before any product runs.
    const k::Trans op_a = ta ? k::Trans::T : k::Trans::N, op_b = tb ? k::Trans::T : k::Trans::N;
    try {
      settle_engine();
      if (row_major) {
        k::gemm_batch_strided(op_a, op_b, size(m), size(n), size(k_), alpha, a, size(lda), sa, b,
                              size(ldb), sb, beta, c, size(ldc), sc, size(batch));
      } else {
        k::gemm_batch_strided(op_b, op_a, size(n), size(m), size(k_), alpha, b, size(ldb), sb, a,
                              size(lda), sa, beta, c, size(ldc), sc, size(batch));
      }
    } catch (const std::invalid_argument& e) {
      report_cblas_own_error(routine, 0, e.what());
    } catch (const std::exception& e) {
      fatal(name.c_str(), e);
    }
    return;
  }
  // The reference's cases of alpha and k, product by product, as cblas_?gemm computes them.
  compute(name.c_str(), [&] {
    for (int i = 0; i < batch; ++i) {
      const std::size_t at = size(i);
      if (row_major) {
        real_gemm(tb, ta, n, m, k_, alpha, b + at * sb, ldb, a + at * sa, lda, beta, c + at * sc,
                  ldc);
      } else {
        real_gemm(ta, tb, m, n, k_, alpha, a + at * sa, lda, b + at * sb, ldb, beta, c + at * sc,
                  ldc);
      }
    }
  });
}

}  // namespace
}  // namespace coheriq::blas

#define COHERIQ_CBLAS_BATCH(letter, T)                                                           \
  extern "C" void cblas_##letter##gemm_batch_strided(                                            \
      int layout, int transa, int transb, int m, int n, int k, T alpha, const T* a, int lda,     \
      int stridea, const T* b, int ldb, int strideb, T beta, T* c, int ldc, int stridec,         \
      int batch_size) {                                                                          \
    ::coheriq::blas::gemm_batch_strided(#letter "gemm_batch_strided", layout, transa, transb, m, \
                                        n, k, alpha, a, lda, stridea, b, ldb, strideb, beta, c,  \
                                        ldc, stridec, batch_size);                               \
  }
COHERIQ_CBLAS_BATCH(s, float)
COHERIQ_CBLAS_BATCH(d, double)
#undef COHERIQ_CBLAS_BATCH
