// kernels_bench: every kernel of <coheriq/kernels.hpp> under the engine in effect, next to the
// peer libraries found at build time, in one process (so ratios come from one run).
//
// The engine is the one COHERIQ_ENGINE selects (activation is one-way: one engine per process;
// `coheriq bench` runs this binary once per engine). Options besides Google Benchmark's:
//   --quick      warm sizes, the smallest gemm, and the small group's orders 8, 32, 128 in nn only
//                (the `coheriq bench --quick` subset)
//   --progress   "@progress <name>" on stdout each time a benchmark runs (for `coheriq bench`)
//   --describe   "@kernel <kernel> <traits>" on stdout for each kernel before the benchmarks run
//                or are listed (how its size reads, its memory traffic: see KernelTraits)
//   --threads=N  coheriq (set_num_threads) and the peers that can (OpenBLAS) use N threads, and
//                times are wall-clock; without it everything runs on one thread, so the tables
//                compare like with like
// Benchmark names: "<kernel>.<type>/<size>/<impl>", impl = coheriq, a peer, or stream.
#include <coheriq/coheriq.hpp>
#include <coheriq/kernels.hpp>
#include <coheriq/kernels_domain.hpp>

#include <benchmark/benchmark.h>

#include <complex>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "bench_config.hpp"
#include "core/env.hpp"
#include "core/text.hpp"
#include "harness.hpp"
#include "peers/peers.hpp"

namespace coheriq_bench {
namespace {

namespace ck = coheriq::kernels;
using coheriq::detail::join;

// ------------------------------ One benchmark per row of the candidate list
// Every public row of coheriq/kernels_table.hpp is registered by the shape of its signature, so a
// new kernel is benchmarked with nothing written here. A row of a new shape does not compile
// (Row's primary template): add the shape below.
template <auto F, class Signature = decltype(F)>
struct Row {
  static_assert(sizeof(Signature) == 0,
                "a public kernel of a shape kernels_bench does not know: add a Row for it in "
                "bench/kernels_bench.cpp");
};

// T f(n, x, y): two vectors read (dot).
template <auto F, class T>
struct Row<F, T (*)(std::size_t, const T*, const T*)> {
  static void add(std::string_view kernel) {
    add_dot<T>(kernel, "coheriq", [](std::size_t n, const T* x, const T* y) { return F(n, x, y); });
  }
};
// y = f(n, a, x, y): read two, write one (axpy).
template <auto F, class T>
struct Row<F, void (*)(std::size_t, T, const T*, T*)> {
  static void add(std::string_view kernel) {
    add_axpy<T>(kernel, "coheriq", [](std::size_t n, T a, const T* x, T* y) { F(n, a, x, y); });
  }
};
// x = f(n, a, x): in place (scal).
template <auto F, class T>
struct Row<F, void (*)(std::size_t, T, T*)> {
  static void add(std::string_view kernel) {
    add_scal<T>(kernel, "coheriq", [](std::size_t n, T a, T* x) { F(n, a, x); });
  }
};
// R f(n, x): one vector read (sum, asum, nrm2, iamax).
template <auto F, class R, class T>
struct Row<F, R (*)(std::size_t, const T*)> {
  static void add(std::string_view kernel) {
    add_reduction<T>(kernel, "coheriq", [](std::size_t n, const T* x) { return F(n, x); });
  }
};

// y = f(n, x): elementwise.
template <auto F, class T>
struct Row<F, void (*)(std::size_t, const T*, T*)> {
  static void add(std::string_view kernel) {
    add_math<T>(kernel, "coheriq", [](std::size_t n, const T* x, T* y) { F(n, x, y); });
  }
};
// z = f(n, x, y): elementwise of two inputs (pow; atan2 names them y and x).
template <auto F, class T>
struct Row<F, void (*)(std::size_t, const T*, const T*, T*)> {
  static void add(std::string_view kernel) {
    add_math2<T>(kernel, "coheriq",
                 [](std::size_t n, const T* x, const T* y, T* z) { F(n, x, y, z); });
  }
};

// The strided siblings are benchmarked through the BLAS interface (bench/blas_bench.cpp).
template <auto F, class R, class T>
struct Row<F, R (*)(std::size_t, const T*, std::ptrdiff_t)> {
  static void add(std::string_view) {}
};
template <auto F, class T>
struct Row<F, T (*)(std::size_t, const T*, std::ptrdiff_t, const T*, std::ptrdiff_t)> {
  static void add(std::string_view) {}
};
template <auto F, class T>
struct Row<F, void (*)(std::size_t, T, const T*, std::ptrdiff_t, T*, std::ptrdiff_t)> {
  static void add(std::string_view) {}
};
template <auto F, class T>
struct Row<F, void (*)(std::size_t, T, T*, std::ptrdiff_t)> {
  static void add(std::string_view) {}
};
// axpy_dot_strided: through the BLAS's symmetric band products (bench/blas_routines_bench).
template <auto F, class T>
struct Row<F, T (*)(std::size_t, T, const T*, std::ptrdiff_t, T*, std::ptrdiff_t, const T*,
                    std::ptrdiff_t)> {
  static void add(std::string_view) {}
};
// The complex dots (their result through a pointer); the complex axpys match the row above.
template <auto F, class T>
struct Row<F, void (*)(std::size_t, const T*, std::ptrdiff_t, const T*, std::ptrdiff_t, T*)> {
  static void add(std::string_view) {}
};

// copy, swap and rot at unit increments (their strided paths: bench/blas_routines_bench).
template <auto F, class T>
struct Row<F, void (*)(std::size_t, const T*, std::ptrdiff_t, T*, std::ptrdiff_t)> {
  static void add(std::string_view kernel) {
    add_copy<T>(kernel, "coheriq", [](std::size_t n, const T* x, T* y) { F(n, x, 1, y, 1); });
  }
};
template <auto F, class T>
struct Row<F, void (*)(std::size_t, T*, std::ptrdiff_t, T*, std::ptrdiff_t)> {
  static void add(std::string_view kernel) {
    add_move2<T>(kernel, "coheriq", [](std::size_t n, T* x, T* y) { F(n, x, 1, y, 1); });
  }
};
template <auto F, class T>
struct Row<F, void (*)(std::size_t, T*, std::ptrdiff_t, T*, std::ptrdiff_t, T, T)> {
  static void add(std::string_view kernel) {
    add_move2<T>(kernel, "coheriq",
                 [](std::size_t n, T* x, T* y) { F(n, x, 1, y, 1, T(0.6), T(0.8)); });
  }
};

// In the candidate list's order: the f32 BLAS-1 block, the f64 block, then the math.
void register_coheriq_rows() {
#define COHERIQ_BENCH_ROW(op, S, impl, touched, R, params, args) \
  Row<static_cast<R(*) params>(&ck::op)>::add(#op);
  COHERIQ_KERNELS_PUBLIC(COHERIQ_BENCH_ROW)
#undef COHERIQ_BENCH_ROW
}

// gemv in both forms (x and y contiguous, beta = 0) and ger, square.
template <class T>
void register_coheriq_blas2() {
  add_gemv<T>("gemv_n", "coheriq", [](std::size_t n, const T* a, const T* x, T* y) {
    ck::gemv(ck::Trans::N, n, n, T(1), a, n, x, 1, T(0), y, 1);
  });
  add_gemv<T>("gemv_t", "coheriq", [](std::size_t n, const T* a, const T* x, T* y) {
    ck::gemv(ck::Trans::T, n, n, T(1), a, n, x, 1, T(0), y, 1);
  });
  add_ger<T>("ger", "coheriq", [](std::size_t n, const T* x, const T* y, T* a) {
    ck::ger(n, n, T(1e-9), x, 1, y, 1, a, n);
  });
}

// The blas group's level 3 (harness.hpp, level3_cases) through the public functions.
template <class T>
void run_level3(const Level3Case& c, std::size_t n, const T* a, T* b, T* cm) {
  const ck::Side side = c.left ? ck::Side::Left : ck::Side::Right;
  const ck::Uplo uplo = c.lower ? ck::Uplo::Lower : ck::Uplo::Upper;
  const ck::Op op = c.trans ? ck::Op::T : ck::Op::N;
  const T one(1);
  switch (c.routine) {
    case Routine::kTrsm:
      return ck::trsm(side, uplo, op, ck::Diag::NonUnit, n, n, one, a, n, b, n);
    case Routine::kTrmm:
      return ck::trmm(side, uplo, op, ck::Diag::NonUnit, n, n, one, a, n, b, n);
    case Routine::kSyrk:
      return ck::syrk(uplo, op, n, n, one, a, n, one, cm, n);
    case Routine::kSyr2k:
      return ck::syr2k(uplo, op, n, n, one, a, n, b, n, one, cm, n);
    case Routine::kSymm:
      return ck::symm(side, uplo, n, n, one, a, n, b, n, one, cm, n);
    case Routine::kHerk:
    case Routine::kGemm:
      if constexpr (is_complex_v<T>) {
        using R = typename T::value_type;
        if (c.routine == Routine::kHerk) return ck::herk(uplo, op, n, n, R(1), a, n, R(1), cm, n);
        return ck::gemm(ck::Op::N, ck::Op::N, n, n, n, one, a, n, b, n, one, cm, n);
      }
      return;
  }
}

template <class T>
void register_coheriq_level3() {
  add_level3<T>("coheriq", [](const Level3Case& c, std::size_t n, const T* a, T* b, T* cm) {
    run_level3(c, n, a, b, cm);
  });
}

template <class T>
void register_coheriq_gemm() {
  using ck::Trans;
  add_gemm<T>("coheriq", [](std::size_t n, const T* a, const T* b, T* c) {
    ck::gemm(Trans::N, Trans::N, n, n, n, T(1), a, n, b, n, T(0), c, n);
  });
  const auto pack = [](std::size_t n, const T* b) { return ck::pack_b(Trans::N, n, n, b, n); };
  add_gemm_packed<T>("coheriq", pack,
                     [](std::size_t n, const T* a, const ck::PackedMatrix<T>& b, T* c) {
                       ck::gemm(Trans::N, n, n, n, T(1), a, n, b, T(0), c, n);
                     });
  add_pack_b<T>("coheriq", pack);
}

// ------------------------------ Small and batched GEMM (the small group)
// The problems are column-major (harness.hpp, SmallProblem); coheriq is row-major. A column-major
// C = op(A)·op(B) is the row-major Cᵀ = op(B)ᵀ·op(A)ᵀ, with the same storage: gemm(tb, ta, n, m,
// k, ..., B, ldb, A, lda, ..., C, ldc), each Trans flag with its operand, the operands swapped.
template <class T>
void register_coheriq_small() {
  for (const SmallProblem& p : small_problems(sizeof(T))) {
    const ck::Trans tb = p.trans_b ? ck::Trans::T : ck::Trans::N;
    // The whole batch in one call (the row the peers are on).
    add_small_batch<T>(p, "coheriq", [tb](const SmallProblem& q, const T* a, const T* b, T* c) {
      ck::gemm_batch_strided(tb, ck::Trans::N, q.n, q.m, q.k, T(1), b, q.ldb(), q.stride_b(), a,
                             q.lda(), q.stride_a(), T(1), c, q.ldc(), q.stride_c(), q.batch);
    });
    // One product per call through gemm: its argument checks and dispatch every time.
    add_small_products<T>(p, "call", "coheriq", [tb](const SmallProblem& q) {
      return [tb, m = q.m, n = q.n, k = q.k, lda = q.lda(), ldb = q.ldb(), ldc = q.ldc()](
                 const T* a, const T* b, T* c) {
        ck::gemm(tb, ck::Trans::N, n, m, k, T(1), b, ldb, a, lda, T(1), c, ldc);
      };
    });
    // One product per call through a plan made once for the shape (as LIBXSMM's dispatch).
    add_small_products<T>(p, "plan", "coheriq", [tb](const SmallProblem& q) {
      const ck::GemmPlan<T> plan(tb, ck::Trans::N, q.n, q.m, q.k, T(1), q.ldb(), q.lda(), T(1),
                                 q.ldc());
      return [plan](const T* a, const T* b, T* c) { plan(b, a, c); };
    });
  }
}

// ------------------------------ Reduced precision (machine-specific kernels)
// Their operands are the harness's reduced_buffer ones (bf16 as its bits: ck::bfloat16 stores
// exactly those).
static_assert(sizeof(ck::bfloat16) == sizeof(Bf16Bits));
const ck::bfloat16* as_bf16(const Bf16Bits* bits) {
  return reinterpret_cast<const ck::bfloat16*>(bits);
}

void register_coheriq_reduced() {
  describe("dot", "u8s8", kVectorRead2);
  for (std::size_t n : sizes().blas1) {
    add(bench_name("dot", "u8s8", n, "coheriq"), [n](benchmark::State& state) {
      const auto* x = reduced_buffer<std::uint8_t>(n, 1);
      const auto* y = reduced_buffer<std::int8_t>(n, 2);
      const Operands ops(is_cold(n), {{x, n}, {y, n}});
      timed_loop(state, ops, [&] { benchmark::DoNotOptimize(ck::dot_u8s8(n, x, y)); });
      state.SetBytesProcessed(state.iterations() * as_i64(2 * n));
    });
  }
  describe("dot", "bf16", kVectorRead2);
  for (std::size_t n : sizes().blas1) {
    add(bench_name("dot", "bf16", n, "coheriq"), [n](benchmark::State& state) {
      const auto* x = as_bf16(reduced_buffer<Bf16Bits>(n, 1));
      const auto* y = as_bf16(reduced_buffer<Bf16Bits>(n, 2));
      const Operands ops(is_cold(n), {{x, 2 * n}, {y, 2 * n}});
      timed_loop(state, ops, [&] { benchmark::DoNotOptimize(ck::dot_bf16(n, x, y)); });
      state.SetBytesProcessed(state.iterations() * as_i64(4 * n));
    });
  }
  add_reduced_gemm<std::uint8_t, std::int8_t, std::int32_t>(
      "u8s8s32", "coheriq", [](std::size_t n) {
        return [n](const std::uint8_t* a, const std::int8_t* b, std::int32_t* c) {
          ck::gemm_u8s8s32(n, n, n, a, n, b, n, c, n);
        };
      });
  add_reduced_gemm<Bf16Bits, Bf16Bits, float>("bf16", "coheriq", [](std::size_t n) {
    return [n](const Bf16Bits* a, const Bf16Bits* b, float* c) {
      ck::gemm_bf16(n, n, n, 1.0f, as_bf16(a), n, as_bf16(b), n, 0.0f, c, n);
    };
  });
}

// Registration order is the order of the tables: BLAS-1, math, gemm, BLAS-2, level 3, the small
// group; coheriq first, then peers.
void register_coheriq() {
  register_coheriq_rows();
  register_coheriq_gemm<float>();
  register_coheriq_gemm<double>();
  register_coheriq_blas2<float>();
  register_coheriq_blas2<double>();
  register_coheriq_level3<float>();
  register_coheriq_level3<double>();
  register_coheriq_level3<std::complex<float>>();
  register_coheriq_level3<std::complex<double>>();
  register_coheriq_small<float>();
  register_coheriq_small<double>();
  register_coheriq_reduced();
}

std::vector<PeerStatus> register_peers() {
  std::vector<PeerStatus> peers;
#ifdef COHERIQ_BENCH_WITH_OPENBLAS
  peers.push_back(register_openblas());
#endif
#ifdef COHERIQ_BENCH_WITH_BLIS
  peers.push_back(register_blis());
#endif
#ifdef COHERIQ_BENCH_WITH_EIGEN
  peers.push_back(register_eigen());
#endif
#ifdef COHERIQ_BENCH_WITH_LIBXSMM
  peers.push_back(register_libxsmm());
#endif
#ifdef COHERIQ_BENCH_WITH_SLEEF
  peers.push_back(register_sleef());
#endif
#ifdef COHERIQ_BENCH_WITH_LIBMVEC
  peers.push_back(register_libmvec());
#endif
#ifdef COHERIQ_BENCH_WITH_MKL
  peers.push_back(register_mkl());
#endif
#ifdef COHERIQ_BENCH_WITH_ONEDNN
  peers.push_back(register_onednn());
#endif
  return peers;
}

// Removes `flag` from argv; returns whether it was there.
bool take_flag(int& argc, char** argv, std::string_view flag) {
  bool found = false;
  int out = 1;
  for (int i = 1; i < argc; ++i) {
    if (flag == argv[i]) {
      found = true;
    } else {
      argv[out++] = argv[i];
    }
  }
  argc = out;
  return found;
}

// Removes "--threads=N" or "--threads N" from argv: N, 1 when absent, 0 when malformed.
std::size_t take_threads(int& argc, char** argv) {
  std::size_t threads = 1;
  int out = 1;
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    std::string_view value;
    if (arg == "--threads" && i + 1 < argc) {
      value = argv[++i];
    } else if (arg.substr(0, 10) == "--threads=") {
      value = arg.substr(10);
    } else {
      argv[out++] = argv[i];
      continue;
    }
    if (coheriq::detail::parse_count(value, 1024, threads) != coheriq::detail::CountStatus::ok) {
      threads = 0;
    }
  }
  argc = out;
  return threads;
}

void print_help() {
  std::printf(
      "kernels_bench: coheriq kernels under the engine COHERIQ_ENGINE selects, and peers.\n"
      "  --quick      warm sizes, gemm n = 256, small products of orders 8, 32, 128 (nn)\n"
      "  --progress   print \"@progress <name>\" on stdout each time a benchmark runs\n"
      "  --describe   print \"@kernel <kernel> <traits>\" on stdout for each kernel first\n"
      "  --threads=N  coheriq and OpenBLAS on N threads, wall-clock times (default: 1 thread)\n"
      "Benchmark names: <kernel>.<type>/<size>/<impl>, e.g. dot.f32/1024/coheriq.\n\n");
  benchmark::PrintDefaultHelp();
}

// Settles and locks the kernels domain now, so its errors (an unknown or unsupported engine
// in COHERIQ_ENGINE) surface before any benchmark, and reports the engine in effect.
std::string lock_engine() {
  ck::dot(0, static_cast<const float*>(nullptr), static_cast<const float*>(nullptr));
  return coheriq::status(ck::domain_name).engine;
}

int run(int argc, char** argv) {
  // Line-buffered, so a caller reading the console report through a pipe sees progress live.
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  const bool quick = take_flag(argc, argv, "--quick");
  set_progress(take_flag(argc, argv, "--progress"));
  const bool describe_kernels = take_flag(argc, argv, "--describe");
  const std::size_t threads = take_threads(argc, argv);
  if (threads == 0) {
    std::fprintf(stderr,
                 "kernels_bench: --threads needs a thread count from 1 to 1024 (e.g. "
                 "--threads=2)\n");
    return 2;
  }
  benchmark::Initialize(&argc, argv, print_help);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;

  std::string engine;
  try {
    engine = lock_engine();
  } catch (const coheriq::Error& e) {
    std::fprintf(stderr, "kernels_bench: %s\n", e.what());
    return 1;
  }
  const char* env = std::getenv("COHERIQ_ENGINE");

  set_quick(quick);
  for (const coheriq::EngineInfo& e : coheriq::engines(ck::domain_name)) {
    if (e.name == engine) set_engine_features(e.required_features);
  }
  // Explicitly, also for 1: the library's default is every CPU of the affinity mask.
  set_threads(threads);
  ck::set_num_threads(threads);
  register_coheriq();
  const std::vector<PeerStatus> peers = register_peers();
  add_stream_references();
  add_peak_references();

  std::vector<std::string> used, skipped;
  for (const PeerStatus& p : peers) {
    (p.available ? used : skipped).push_back(p.name + " (" + p.detail + ")");
  }
  for (const char* const* s = kSkippedPeers; *s != nullptr; ++s) skipped.emplace_back(*s);

  // The context goes into the JSON output, where `coheriq bench` reads it.
  benchmark::AddCustomContext("coheriq_engine", engine);
  benchmark::AddCustomContext("coheriq_engine_variable", env != nullptr ? env : "");
  benchmark::AddCustomContext("coheriq_sizes", quick ? "quick" : "full");
  benchmark::AddCustomContext("coheriq_cache", cache_policy());
  benchmark::AddCustomContext("coheriq_threads", std::to_string(threads));
  benchmark::AddCustomContext("coheriq_time", threads > 1 ? "real_time" : "cpu_time");
  for (const PeerStatus& p : peers) {
    benchmark::AddCustomContext("peer_" + p.name, (p.available ? "" : "unavailable: ") + p.detail);
  }
  benchmark::AddCustomContext("peers_skipped", join(skipped, "; "));
  for (const auto& [kernel, traits] : described_kernels()) {
    benchmark::AddCustomContext("coheriq_kernel:" + kernel, traits);
    if (describe_kernels) std::printf("@kernel %s %s\n", kernel.c_str(), traits.c_str());
  }

  std::fprintf(stderr, "kernels_bench: engine %s (COHERIQ_ENGINE=%s)\n", engine.c_str(),
               env != nullptr ? env : "");
  std::fprintf(stderr, "kernels_bench: peers: %s\n",
               used.empty() ? "none" : join(used, "; ").c_str());
  if (!skipped.empty()) {
    std::fprintf(stderr, "kernels_bench: skipped peers: %s\n", join(skipped, "; ").c_str());
  }
  std::fprintf(stderr, "kernels_bench: cache: %s\n", cache_policy().c_str());
  std::fprintf(stderr, "kernels_bench: threads: %zu%s\n", threads,
               threads > 1 ? " (wall-clock times)" : " (--threads=N for more)");

  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

}  // namespace
}  // namespace coheriq_bench

int main(int argc, char** argv) { return coheriq_bench::run(argc, argv); }
