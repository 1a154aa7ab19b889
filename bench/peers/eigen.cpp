// Eigen's benchmarks: the harness loops (baseline code) calling one of the builds of
// eigen_kernels.cpp (one per ISA; bench/CMakeLists.txt says which exist), the widest this CPU
// runs and the engine in effect uses (peer_may_use), checked here before anything of it runs.
#include <cstddef>
#include <string>

#include "../harness.hpp"
#include "bench_config.hpp"
#include "peers.hpp"

#ifdef COHERIQ_BENCH_EIGEN_BASELINE
#define COHERIQ_EIGEN_VARIANT eigen_baseline
#include "eigen_kernels.hpp"
#undef COHERIQ_EIGEN_VARIANT
#endif
#ifdef COHERIQ_BENCH_EIGEN_AVX2
#define COHERIQ_EIGEN_VARIANT eigen_avx2
#include "eigen_kernels.hpp"
#undef COHERIQ_EIGEN_VARIANT
#endif
#ifdef COHERIQ_BENCH_EIGEN_AVX512
#define COHERIQ_EIGEN_VARIANT eigen_avx512
#include "eigen_kernels.hpp"
#undef COHERIQ_EIGEN_VARIANT
#endif

namespace coheriq_bench {
namespace {

template <class K, class T>
void register_type() {
  add_dot<T>("eigen", [](std::size_t n, const T* x, const T* y) { return K::dot(n, x, y); });
  add_axpy<T>("eigen", [](std::size_t n, T a, const T* x, T* y) { K::axpy(n, a, x, y); });
  add_scal<T>("eigen", [](std::size_t n, T a, T* x) { K::scal(n, a, x); });
  add_reduction<T>("sum", "eigen", [](std::size_t n, const T* x) { return K::sum(n, x); });
  add_reduction<T>("asum", "eigen", [](std::size_t n, const T* x) { return K::asum(n, x); });
  add_reduction<T>("nrm2", "eigen", [](std::size_t n, const T* x) { return K::nrm2(n, x); });
  add_reduction<T>("iamax", "eigen", [](std::size_t n, const T* x) { return K::iamax(n, x); });
}

// The small group: one product per call of the build's small_gemm (dynamic-size maps).
template <class K, class T>
void register_small() {
  add_small_peer<T>("eigen", [](const SmallProblem& p) {
    return [trans_b = p.trans_b, m = p.m, n = p.n, k = p.k](const T* a, const T* b, T* c) {
      K::small_gemm(trans_b, m, n, k, a, b, c);
    };
  });
}

template <class K>
PeerStatus register_build(const char* isa) {
  register_type<K, float>();
  register_type<K, double>();
#define COHERIQ_EIGEN_REGISTER_MATH(name)                                             \
  add_math<float>(#name, "eigen",                                                     \
                  [](std::size_t n, const float* x, float* y) { K::name(n, x, y); }); \
  add_math<double>(#name, "eigen",                                                    \
                   [](std::size_t n, const double* x, double* y) { K::name(n, x, y); });
  COHERIQ_EIGEN_MATH(COHERIQ_EIGEN_REGISTER_MATH)
#undef COHERIQ_EIGEN_REGISTER_MATH
  add_gemm<float>("eigen", [](std::size_t n, const float* a, const float* b, float* c) {
    K::gemm(n, a, b, c);
  });
  add_gemm<double>("eigen", [](std::size_t n, const double* a, const double* b, double* c) {
    K::gemm(n, a, b, c);
  });
  register_small<K, float>();
  register_small<K, double>();
  // Built without OpenMP (EIGEN_DONT_PARALLELIZE): Eigen's GEMM has no threads to set, so
  // with --threads it stays on one and says so.
  return {"eigen", true,
          std::string(K::version()) + ", " + isa + " build: " + K::simd() +
              ", EIGEN_DONT_PARALLELIZE" +
              (threads() > 1 ? " (1 thread whatever --threads: built without OpenMP)" : "")};
}

#if defined(__x86_64__) || defined(__i386__)
// What each build was compiled for (bench/CMakeLists.txt), as the CPU and OS report it.
bool cpu_runs_avx2() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
}
bool cpu_runs_avx512() {
  return cpu_runs_avx2() && __builtin_cpu_supports("avx512f") &&
         __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512bw") &&
         __builtin_cpu_supports("avx512vl");
}
#endif

}  // namespace

PeerStatus register_eigen() {
#ifdef COHERIQ_BENCH_EIGEN_AVX512
  if (cpu_runs_avx512() && peer_may_use("avx512f")) {
    return register_build<eigen_avx512::Kernels>("avx512");
  }
#endif
#ifdef COHERIQ_BENCH_EIGEN_AVX2
  if (cpu_runs_avx2() && peer_may_use("avx2")) return register_build<eigen_avx2::Kernels>("avx2");
#endif
#ifdef COHERIQ_BENCH_EIGEN_BASELINE
  return register_build<eigen_baseline::Kernels>("baseline");
#else
  return {"eigen", false,
          "this CPU runs none of the Eigen builds here (COHERIQ_BENCH_EIGEN_ISAS: " +
              std::string(kEigenIsas) + ")"};
#endif
}

}  // namespace coheriq_bench
