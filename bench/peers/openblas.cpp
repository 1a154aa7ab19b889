// OpenBLAS through its CBLAS interface, on the harness's threads (1 unless --threads). Baseline
// code: OpenBLAS picks its own kernels for the host at run time.
#include <cblas.h>

#include <complex>
#include <cstddef>
#include <cstdlib>
#include <string>
#include <vector>

#include "../harness.hpp"
#include "peers.hpp"

namespace coheriq_bench {
namespace {

blasint to_blas(std::size_t n) { return static_cast<blasint>(n); }

// One overload per type, so the registration below is written once for f32 and f64.
float dot(std::size_t n, const float* x, const float* y) {
  return cblas_sdot(to_blas(n), x, 1, y, 1);
}
double dot(std::size_t n, const double* x, const double* y) {
  return cblas_ddot(to_blas(n), x, 1, y, 1);
}
void axpy(std::size_t n, float a, const float* x, float* y) {
  cblas_saxpy(to_blas(n), a, x, 1, y, 1);
}
void axpy(std::size_t n, double a, const double* x, double* y) {
  cblas_daxpy(to_blas(n), a, x, 1, y, 1);
}
void scal(std::size_t n, float a, float* x) { cblas_sscal(to_blas(n), a, x, 1); }
void scal(std::size_t n, double a, double* x) { cblas_dscal(to_blas(n), a, x, 1); }
// ?sum is an OpenBLAS extension of CBLAS (plain sum, no absolute values).
float sum(std::size_t n, const float* x) { return cblas_ssum(to_blas(n), x, 1); }
double sum(std::size_t n, const double* x) { return cblas_dsum(to_blas(n), x, 1); }
float asum(std::size_t n, const float* x) { return cblas_sasum(to_blas(n), x, 1); }
double asum(std::size_t n, const double* x) { return cblas_dasum(to_blas(n), x, 1); }
float nrm2(std::size_t n, const float* x) { return cblas_snrm2(to_blas(n), x, 1); }
double nrm2(std::size_t n, const double* x) { return cblas_dnrm2(to_blas(n), x, 1); }
std::size_t iamax(std::size_t n, const float* x) { return cblas_isamax(to_blas(n), x, 1); }
std::size_t iamax(std::size_t n, const double* x) { return cblas_idamax(to_blas(n), x, 1); }
void gemm(std::size_t n, const float* a, const float* b, float* c) {
  const blasint m = to_blas(n);
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, m, m, 1.0f, a, m, b, m, 0.0f, c, m);
}
void gemm(std::size_t n, const double* a, const double* b, double* c) {
  const blasint m = to_blas(n);
  cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, m, m, 1.0, a, m, b, m, 0.0, c, m);
}

// The small group (harness.hpp, SmallProblem): one column-major product per call, C += op(A)·op(B).
// OpenBLAS chooses per call between its small-matrix kernels and its blocked GEMM.
void small_gemm(const SmallProblem& p, const float* a, const float* b, float* c) {
  cblas_sgemm(CblasColMajor, CblasNoTrans, p.trans_b ? CblasTrans : CblasNoTrans, to_blas(p.m),
              to_blas(p.n), to_blas(p.k), 1.0f, a, to_blas(p.lda()), b, to_blas(p.ldb()), 1.0f, c,
              to_blas(p.ldc()));
}
void small_gemm(const SmallProblem& p, const double* a, const double* b, double* c) {
  cblas_dgemm(CblasColMajor, CblasNoTrans, p.trans_b ? CblasTrans : CblasNoTrans, to_blas(p.m),
              to_blas(p.n), to_blas(p.k), 1.0, a, to_blas(p.lda()), b, to_blas(p.ldb()), 1.0, c,
              to_blas(p.ldc()));
}

// gemv (the blas group), row-major: y := A·x or Aᵀ·x, beta = 0.
void gemv(bool t, std::size_t n, const float* a, const float* x, float* y) {
  const blasint m = to_blas(n);
  cblas_sgemv(CblasRowMajor, t ? CblasTrans : CblasNoTrans, m, m, 1.0f, a, m, x, 1, 0.0f, y, 1);
}
void gemv(bool t, std::size_t n, const double* a, const double* x, double* y) {
  const blasint m = to_blas(n);
  cblas_dgemv(CblasRowMajor, t ? CblasTrans : CblasNoTrans, m, m, 1.0, a, m, x, 1, 0.0, y, 1);
}

// The level 3 of the blas group (harness.hpp, level3_cases), row-major, one function per type:
// real scalars are passed by value, complex ones by address, as CBLAS declares them.
// clang-format off
#define COHERIQ_OPENBLAS_LEVEL3(T, p, scalar, one_real)                                          \
  void level3(const Level3Case& c, std::size_t size, const T* a, T* b, T* cm) {                 \
    const blasint n = to_blas(size);                                                             \
    const CBLAS_SIDE side = c.left ? CblasLeft : CblasRight;                                     \
    const CBLAS_UPLO uplo = c.lower ? CblasLower : CblasUpper;                                   \
    const CBLAS_TRANSPOSE op = c.trans ? CblasTrans : CblasNoTrans;                              \
    const T one(1);                                                                              \
    switch (c.routine) {                                                                         \
      case Routine::kTrsm:                                                                       \
        return cblas_##p##trsm(CblasRowMajor, side, uplo, op, CblasNonUnit, n, n, scalar(one),   \
                               a, n, b, n);                                                      \
      case Routine::kTrmm:                                                                       \
        return cblas_##p##trmm(CblasRowMajor, side, uplo, op, CblasNonUnit, n, n, scalar(one),   \
                               a, n, b, n);                                                      \
      case Routine::kSyrk:                                                                       \
        return cblas_##p##syrk(CblasRowMajor, uplo, op, n, n, scalar(one), a, n, scalar(one),    \
                               cm, n);                                                           \
      case Routine::kSyr2k:                                                                      \
        return cblas_##p##syr2k(CblasRowMajor, uplo, op, n, n, scalar(one), a, n, b, n,          \
                                scalar(one), cm, n);                                             \
      case Routine::kSymm:                                                                       \
        return cblas_##p##symm(CblasRowMajor, side, uplo, n, n, scalar(one), a, n, b, n,         \
                               scalar(one), cm, n);                                              \
      case Routine::kGemm:                                                                       \
        return cblas_##p##gemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, scalar(one),  \
                               a, n, b, n, scalar(one), cm, n);                                  \
      case Routine::kHerk:                                                                       \
        one_real;                                                                                \
    }                                                                                            \
  }
#define COHERIQ_BY_VALUE(x) x
#define COHERIQ_BY_ADDRESS(x) &x
COHERIQ_OPENBLAS_LEVEL3(float, s, COHERIQ_BY_VALUE, return)
COHERIQ_OPENBLAS_LEVEL3(double, d, COHERIQ_BY_VALUE, return)
COHERIQ_OPENBLAS_LEVEL3(std::complex<float>, c, COHERIQ_BY_ADDRESS,
                        return cblas_cherk(CblasRowMajor, uplo, op, n, n, 1.0f, a, n, 1.0f, cm, n))
COHERIQ_OPENBLAS_LEVEL3(std::complex<double>, z, COHERIQ_BY_ADDRESS,
                        return cblas_zherk(CblasRowMajor, uplo, op, n, n, 1.0, a, n, 1.0, cm, n))
#undef COHERIQ_BY_ADDRESS
#undef COHERIQ_BY_VALUE
#undef COHERIQ_OPENBLAS_LEVEL3
// clang-format on

template <class T>
void register_level3() {
  add_level3<T>("openblas", [](const Level3Case& c, std::size_t n, const T* a, T* b, T* cm) {
    level3(c, n, a, b, cm);
  });
}

template <class T>
void register_type() {
  add_dot<T>("openblas", [](std::size_t n, const T* x, const T* y) { return dot(n, x, y); });
  add_axpy<T>("openblas", [](std::size_t n, T a, const T* x, T* y) { axpy(n, a, x, y); });
  add_scal<T>("openblas", [](std::size_t n, T a, T* x) { scal(n, a, x); });
  add_reduction<T>("sum", "openblas", [](std::size_t n, const T* x) { return sum(n, x); });
  add_reduction<T>("asum", "openblas", [](std::size_t n, const T* x) { return asum(n, x); });
  add_reduction<T>("nrm2", "openblas", [](std::size_t n, const T* x) { return nrm2(n, x); });
  add_reduction<T>("iamax", "openblas", [](std::size_t n, const T* x) { return iamax(n, x); });
  add_gemm<T>("openblas", [](std::size_t n, const T* a, const T* b, T* c) { gemm(n, a, b, c); });
  add_gemv<T>("gemv_n", "openblas",
              [](std::size_t n, const T* a, const T* x, T* y) { gemv(false, n, a, x, y); });
  add_gemv<T>("gemv_t", "openblas",
              [](std::size_t n, const T* a, const T* x, T* y) { gemv(true, n, a, x, y); });
  register_level3<T>();
  add_small_peer<T>("openblas", [](const SmallProblem& p) {
    return [p](const T* a, const T* b, T* c) { small_gemm(p, a, b, c); };
  });
}

std::string trimmed(std::string s) {
  const auto first = s.find_first_not_of(' ');
  const auto last = s.find_last_not_of(' ');
  return first == std::string::npos ? std::string() : s.substr(first, last - first + 1);
}

// The x86 features the kernels of an OpenBLAS core type execute, for the core types that need
// more than SSE; "" for the others. OpenBLAS picks its kernels for the CPU itself, but
// OPENBLAS_CORETYPE overrides that choice, and a core type the CPU cannot run dies of SIGILL.
std::string lacking_features(const std::string& core) {
#if defined(__x86_64__) || defined(__i386__)
  std::string lower;
  for (char c : core) lower += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  std::vector<const char*> needed;
  if (lower == "sandybridge" || lower == "bulldozer" || lower == "piledriver" ||
      lower == "steamroller") {
    needed = {"avx"};
  } else if (lower == "haswell" || lower == "zen" || lower == "excavator") {
    needed = {"avx2", "fma"};
  } else if (lower == "skylakex" || lower == "cooperlake" || lower == "sapphirerapids") {
    needed = {"avx2", "fma", "avx512f", "avx512bw", "avx512dq", "avx512vl"};
  }
  __builtin_cpu_init();
  std::string lacking;
  for (const char* f : needed) {
    // __builtin_cpu_supports wants a literal: test the few names above one by one.
    const std::string name = f;
    const bool has = name == "avx"        ? __builtin_cpu_supports("avx")
                     : name == "avx2"     ? __builtin_cpu_supports("avx2")
                     : name == "fma"      ? __builtin_cpu_supports("fma")
                     : name == "avx512f"  ? __builtin_cpu_supports("avx512f")
                     : name == "avx512bw" ? __builtin_cpu_supports("avx512bw")
                     : name == "avx512dq" ? __builtin_cpu_supports("avx512dq")
                                          : __builtin_cpu_supports("avx512vl");
    if (!has) lacking += (lacking.empty() ? "" : ", ") + name;
  }
  return lacking;
#else
  (void)core;
  return "";
#endif
}

}  // namespace

PeerStatus register_openblas() {
  const std::string version = trimmed(OPENBLAS_VERSION);
  const std::string core = openblas_get_corename();
  if (const std::string lacking = lacking_features(core); !lacking.empty()) {
    const char* forced = std::getenv("OPENBLAS_CORETYPE");
    return {"openblas", false,
            version + " would run its " + core + " kernels" +
                (forced != nullptr ? std::string(" (OPENBLAS_CORETYPE=") + forced + ")" : "") +
                ", but this CPU lacks " + lacking};
  }
  openblas_set_num_threads(static_cast<int>(threads()));
  register_type<float>();
  register_type<double>();
  register_level3<std::complex<float>>();
  register_level3<std::complex<double>>();
  const int used = openblas_get_num_threads();
  std::string detail = version + ", " + core + " kernels, " + std::to_string(used) +
                       (used == 1 ? " thread" : " threads");
  if (used > 1) {
    // How long its workers spin after a call: 2^N cycles; coheriq bench sets N = 4 for --threads
    // (tools/bench_command.cpp).
    const char* timeout = std::getenv("OPENBLAS_THREAD_TIMEOUT");
    detail += timeout != nullptr ? std::string(", OPENBLAS_THREAD_TIMEOUT=") + timeout
                                 : std::string(
                                       ", OPENBLAS_THREAD_TIMEOUT unset (its workers spin "
                                       "after each call, taking cores from the "
                                       "benchmarks after it)");
  }
  return {"openblas", true, detail};
}

}  // namespace coheriq_bench
