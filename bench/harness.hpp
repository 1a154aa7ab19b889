// The kernel benchmark harness: sizes, buffers, cache state, and one registration helper per
// kernel family, shared by coheriq and every peer so they are measured by the same loop.
//
// Benchmark names are "<kernel>.<type>/<size>/<impl>", e.g. "dot.f32/1024/coheriq" or
// "gemm.f64/1024/openblas": `coheriq bench` parses them, and --benchmark_filter selects them.
// The helpers take the kernel as a callable so calls inline at the call site: every
// implementation pays the same loop and nothing else.
//
// Cache state is fixed explicitly. Warm sizes reuse the same buffers, so after the first
// iteration they sit in L1 (1K) or L2 (64K). Cold sizes (4M elements and more) evict their
// operands from every cache level before each timed call, with the timer paused, so every call
// streams from memory whatever the size of the last-level cache.
#pragma once

#include <benchmark/benchmark.h>

#include <complex>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <initializer_list>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace coheriq_bench {

// ------------------------------ Sizes

struct Sizes {
  std::vector<std::size_t> blas1;   // BLAS-1 vector lengths
  std::vector<std::size_t> math;    // vector math lengths
  std::vector<std::size_t> gemm;    // square gemm orders (m = n = k)
  std::vector<std::size_t> blas2;   // square gemv and ger orders (m = n)
  std::vector<std::size_t> level3;  // square level-3 orders (the blas group's trsm, syrk, ...)
  std::vector<std::size_t> small;   // square orders of the small group's batched products
  std::size_t stream = 0;           // length of the STREAM-style bandwidth reference
};

// The full set, or the --quick subset (set once, before registration).
void set_quick(bool quick);
const Sizes& sizes();

// Lengths from this many elements up are measured cold.
inline constexpr std::size_t kColdElements = std::size_t{1} << 22;
inline bool is_cold(std::size_t n) { return n >= kColdElements; }

// ------------------------------ Threads

// The threads coheriq and the peers run with: 1 unless kernels_bench was given --threads N. Set
// once, before registration. With more than one, the benchmark thread's cpu time leaves out the
// workers': readers take real_time instead (context coheriq_time), and scale the rates, which
// Google Benchmark divides by cpu time, by cpu_time / real_time. (UseRealTime() would do it but
// appends "/real_time" to every name.)
void set_threads(std::size_t n);
std::size_t threads();

// ------------------------------ Peers' ISA

// The CPU features the engine in effect requires (its required_features; none for the
// reference). Set once, before registration.
void set_engine_features(std::vector<std::string> features);
// Whether a peer built for several ISAs (SLEEF, libmvec, Eigen) may use the one `feature` names
// (a cpu_features name: "avx512f", "avx2"), once it has checked the host has it: so peers run on
// the ISA of the engine whose process they share, and a row compares like with like. Under the
// reference, which requires nothing, peers take the widest the host has.
bool peer_may_use(std::string_view feature);

// ------------------------------ Buffers

// What a buffer holds; each kind is filled once, deterministically, in a range that keeps the
// kernel on its fast path (no overflow, no denormals, positive inputs for log).
enum class Fill {
  kVectorX,  // BLAS-1 x: [0.5, 1.5)
  kVectorY,  // BLAS-1 y: [0.5, 1.5)
  kVectorZ,  // STREAM third operand
  kExp,      // [-10, 10) (pow's y too)
  kLog,      // [0.001, 1000)
  kTanh,     // [-5, 5)
  kUnit,     // [-1, 1) (asin, acos)
  kSigmoid,  // [-10, 10) (softmax too)
  kOutput,   // elementwise outputs: zeros
  kMatrixA,  // gemm operands: [-1, 1)
  kMatrixB,
  kMatrixC,
  kNearIdentity,  // the level-3 routines' A: off the diagonal, [-2^-24, 2^-24)
};

// A buffer of `n` elements, allocated and filled on the first request and shared by every
// benchmark asking for the same (type, n, fill) afterwards: 64-byte aligned on the heap below
// 64 KiB, else on pages of its own, 2 MiB aligned and advised to be transparent huge pages.
template <class T>
T* buffer(std::size_t n, Fill fill);

// Removes [p, p + bytes) from every cache level (clflush on x86, dc civac on AArch64).
void evict(const void* p, std::size_t bytes);

// The operands a benchmark touches, evicted before each timed call when cold.
class Operands {
 public:
  Operands(bool cold, std::initializer_list<std::pair<const void*, std::size_t>> regions)
      : cold_(cold), regions_(regions) {}
  bool cold() const { return cold_; }
  void evict_all() const {
    for (const auto& r : regions_) evict(r.first, r.second);
  }

 private:
  bool cold_;
  std::vector<std::pair<const void*, std::size_t>> regions_;
};

// The timed loop: one call per iteration, eviction outside the timer when cold.
template <class Call>
inline void timed_loop(benchmark::State& state, const Operands& operands, Call&& call) {
  if (operands.cold()) {
    for (auto _ : state) {
      state.PauseTiming();
      operands.evict_all();
      state.ResumeTiming();
      call();
    }
  } else {
    for (auto _ : state) call();
  }
}

// ------------------------------ Names and registration

template <class T>
inline constexpr std::string_view type_name = sizeof(T) == 4 ? "f32" : "f64";
template <class R>
inline constexpr std::string_view type_name<std::complex<R>> = sizeof(R) == 4 ? "c32" : "c64";

std::string bench_name(std::string_view kernel, std::string_view type, std::size_t n,
                       std::string_view impl);

// With --progress, each benchmark announces itself on stdout ("@progress <name>") whenever
// Google Benchmark calls it, so a caller sees what runs even when repetitions are interleaved
// and the console report only comes at the end.
void set_progress(bool enabled);
void announce(const std::string& name);

// Registers `body` under `name`. Bodies allocate lazily, so registering is free.
template <class Body>
void add(const std::string& name, Body body) {
  benchmark::RegisterBenchmark(name.c_str(), [name, body](benchmark::State& state) {
    announce(name);
    body(state);
  });
}

inline std::int64_t as_i64(std::size_t v) { return static_cast<std::int64_t>(v); }

// What a reader of the results needs to know of a kernel, so that `coheriq bench` and
// bench/summarize.py name no kernel themselves: each registration helper below records the
// traits of the kernels it registers, and kernels_bench publishes them (JSON context
// "coheriq_kernel:<kernel>", and "@kernel <kernel> <traits>" lines with --describe).
struct KernelTraits {
  const char* size;     // how a size reads: "length" (elements: 1K, 16M) or "order" (n x n)
  const char* traffic;  // the STREAM-style reference with the same memory traffic ("read1",
                        // "read2", "scale", "triad"), or "" when none compares
  const char* work;     // how the cost grows with the size: "linear", "quadratic", "cubic"
  const char* group;    // the family `coheriq bench --kernels <group>` selects: "blas1", "math",
                        // "gemm", "blas"
};
void describe(std::string_view kernel, std::string_view type, const KernelTraits& traits);
// Every kernel described so far, "dot.f32" -> "size=length traffic=read2 work=linear".
const std::map<std::string, std::string>& described_kernels();

inline constexpr KernelTraits kVectorRead1 = {"length", "read1", "linear", "blas1"};
inline constexpr KernelTraits kVectorRead2 = {"length", "read2", "linear", "blas1"};
inline constexpr KernelTraits kVectorScale = {"length", "scale", "linear", "blas1"};
inline constexpr KernelTraits kVectorTriad = {"length", "triad", "linear", "blas1"};
inline constexpr KernelTraits kMath = {"length", "", "linear", "math"};
inline constexpr KernelTraits kMatrixProduct = {"order", "", "cubic", "gemm"};
inline constexpr KernelTraits kMatrixCopy = {"order", "", "quadratic", "gemm"};
inline constexpr KernelTraits kVectorMove2 = {"length", "", "linear", "blas1"};
inline constexpr KernelTraits kMatrixRead = {"order", "read1", "quadratic", "blas"};
inline constexpr KernelTraits kMatrixUpdate = {"order", "scale", "quadratic", "blas"};
inline constexpr KernelTraits kLevel3 = {"order", "", "cubic", "blas"};
// The small group (below): square shapes read as their order, the other shapes (named in the
// kernel) as the number of products in the batch.
inline constexpr KernelTraits kSmallSquare = {"order", "", "cubic", "small"};
inline constexpr KernelTraits kSmallShape = {"length", "", "cubic", "small"};

// T dot(n, x, y), and kernels of its shape
template <class T, class F>
void add_dot(std::string_view kernel, std::string_view impl, F f) {
  describe(kernel, type_name<T>, kVectorRead2);
  for (std::size_t n : sizes().blas1) {
    add(bench_name(kernel, type_name<T>, n, impl), [n, f](benchmark::State& state) {
      const T* x = buffer<T>(n, Fill::kVectorX);
      const T* y = buffer<T>(n, Fill::kVectorY);
      const Operands ops(is_cold(n), {{x, n * sizeof(T)}, {y, n * sizeof(T)}});
      timed_loop(state, ops, [&] { benchmark::DoNotOptimize(f(n, x, y)); });
      state.SetBytesProcessed(state.iterations() * as_i64(2 * n * sizeof(T)));
    });
  }
}

// y += a * x, and kernels of its shape. `a` is small, so y stays in range however long the
// benchmark runs.
template <class T, class F>
void add_axpy(std::string_view kernel, std::string_view impl, F f) {
  describe(kernel, type_name<T>, kVectorTriad);
  for (std::size_t n : sizes().blas1) {
    add(bench_name(kernel, type_name<T>, n, impl), [n, f](benchmark::State& state) {
      const T* x = buffer<T>(n, Fill::kVectorX);
      T* y = buffer<T>(n, Fill::kVectorY);
      const T a = T(1e-6);
      const Operands ops(is_cold(n), {{x, n * sizeof(T)}, {y, n * sizeof(T)}});
      timed_loop(state, ops, [&] {
        f(n, a, x, y);
        benchmark::ClobberMemory();
      });
      state.SetBytesProcessed(state.iterations() * as_i64(3 * n * sizeof(T)));
    });
  }
}

// x *= a with a = -1 (exact, and the values never drift), and kernels of its shape.
template <class T, class F>
void add_scal(std::string_view kernel, std::string_view impl, F f) {
  describe(kernel, type_name<T>, kVectorScale);
  for (std::size_t n : sizes().blas1) {
    add(bench_name(kernel, type_name<T>, n, impl), [n, f](benchmark::State& state) {
      T* x = buffer<T>(n, Fill::kVectorX);
      const Operands ops(is_cold(n), {{x, n * sizeof(T)}});
      timed_loop(state, ops, [&] {
        f(n, T(-1), x);
        benchmark::ClobberMemory();
      });
      state.SetBytesProcessed(state.iterations() * as_i64(2 * n * sizeof(T)));
    });
  }
}

// y := x (copy), and kernels of its shape: f(n, x, y).
template <class T, class F>
void add_copy(std::string_view kernel, std::string_view impl, F f) {
  describe(kernel, type_name<T>, kVectorScale);
  for (std::size_t n : sizes().blas1) {
    add(bench_name(kernel, type_name<T>, n, impl), [n, f](benchmark::State& state) {
      const T* x = buffer<T>(n, Fill::kVectorX);
      T* y = buffer<T>(n, Fill::kVectorY);
      const Operands ops(is_cold(n), {{x, n * sizeof(T)}, {y, n * sizeof(T)}});
      timed_loop(state, ops, [&] {
        f(n, x, y);
        benchmark::ClobberMemory();
      });
      state.SetBytesProcessed(state.iterations() * as_i64(2 * n * sizeof(T)));
    });
  }
}

// Both vectors read and written (swap, rot): f(n, x, y). Values stay in range: a swap twice is
// the identity, and rot is given an orthogonal rotation.
template <class T, class F>
void add_move2(std::string_view kernel, std::string_view impl, F f) {
  describe(kernel, type_name<T>, kVectorMove2);
  for (std::size_t n : sizes().blas1) {
    add(bench_name(kernel, type_name<T>, n, impl), [n, f](benchmark::State& state) {
      T* x = buffer<T>(n, Fill::kVectorX);
      T* y = buffer<T>(n, Fill::kVectorY);
      const Operands ops(is_cold(n), {{x, n * sizeof(T)}, {y, n * sizeof(T)}});
      timed_loop(state, ops, [&] {
        f(n, x, y);
        benchmark::ClobberMemory();
      });
      state.SetBytesProcessed(state.iterations() * as_i64(4 * n * sizeof(T)));
    });
  }
}

// y := A·x (or Aᵀ·x) of a square row-major A: f(n, A, x, y); bytes count A once.
template <class T, class F>
void add_gemv(std::string_view kernel, std::string_view impl, F f) {
  describe(kernel, type_name<T>, kMatrixRead);
  for (std::size_t n : sizes().blas2) {
    add(bench_name(kernel, type_name<T>, n, impl), [n, f](benchmark::State& state) {
      const T* a = buffer<T>(n * n, Fill::kMatrixA);
      const T* x = buffer<T>(n, Fill::kVectorX);
      T* y = buffer<T>(n, Fill::kVectorY);
      timed_loop(state, Operands(false, {}), [&] {
        f(n, a, x, y);
        benchmark::ClobberMemory();
      });
      state.SetBytesProcessed(state.iterations() * as_i64(n * n * sizeof(T)));
      state.counters["flops"] = benchmark::Counter(
          2.0 * double(n) * double(n) * double(state.iterations()), benchmark::Counter::kIsRate);
    });
  }
}

// A += alpha·x·yᵀ of a square row-major A (ger): f(n, x, y, A), alpha small so that A stays in
// range; bytes count A read and written.
template <class T, class F>
void add_ger(std::string_view kernel, std::string_view impl, F f) {
  describe(kernel, type_name<T>, kMatrixUpdate);
  for (std::size_t n : sizes().blas2) {
    add(bench_name(kernel, type_name<T>, n, impl), [n, f](benchmark::State& state) {
      T* a = buffer<T>(n * n, Fill::kMatrixC);
      const T* x = buffer<T>(n, Fill::kVectorX);
      const T* y = buffer<T>(n, Fill::kVectorY);
      timed_loop(state, Operands(false, {}), [&] {
        f(n, x, y, a);
        benchmark::ClobberMemory();
      });
      state.SetBytesProcessed(state.iterations() * as_i64(2 * n * n * sizeof(T)));
    });
  }
}

// The BLAS-1 kernels of those names, as the peers register them.
template <class T, class F>
void add_dot(std::string_view impl, F f) {
  add_dot<T>("dot", impl, f);
}
template <class T, class F>
void add_axpy(std::string_view impl, F f) {
  add_axpy<T>("axpy", impl, f);
}
template <class T, class F>
void add_scal(std::string_view impl, F f) {
  add_scal<T>("scal", impl, f);
}

// Reductions over one vector: sum, asum, nrm2, iamax (f(n, x) returns anything).
template <class T, class F>
void add_reduction(std::string_view kernel, std::string_view impl, F f) {
  describe(kernel, type_name<T>, kVectorRead1);
  for (std::size_t n : sizes().blas1) {
    add(bench_name(kernel, type_name<T>, n, impl), [n, f](benchmark::State& state) {
      const T* x = buffer<T>(n, Fill::kVectorX);
      const Operands ops(is_cold(n), {{x, n * sizeof(T)}});
      timed_loop(state, ops, [&] { benchmark::DoNotOptimize(f(n, x)); });
      state.SetBytesProcessed(state.iterations() * as_i64(n * sizeof(T)));
    });
  }
}

// ------------------------------ Vector math

// The inputs of a vector math function's benchmarks, one row per function in harness.cpp (a
// binary function draws y from its second fill): every implementation of the function is
// measured on the same values, in a range where none takes a slow path.
struct MathInputs {
  std::string_view function;
  Fill x;
  Fill y;
};
// The row of `function`; a function without one is a programming error, reported and fatal.
const MathInputs& math_inputs(std::string_view function);
// Peers are measured on the functions and types coheriq has (registered first): a peer's row of a
// function coheriq lacks would compare with nothing.
bool math_row_wanted(std::string_view kernel, std::string_view type, std::string_view impl);

// Vector math y = f(x) (softmax: of all of x); counts elements per second.
template <class T, class F>
void add_math(std::string_view kernel, std::string_view impl, F f) {
  if (!math_row_wanted(kernel, type_name<T>, impl)) return;
  describe(kernel, type_name<T>, kMath);
  const Fill input = math_inputs(kernel).x;
  for (std::size_t n : sizes().math) {
    add(bench_name(kernel, type_name<T>, n, impl), [n, input, f](benchmark::State& state) {
      const T* x = buffer<T>(n, input);
      T* y = buffer<T>(n, Fill::kOutput);
      const Operands ops(is_cold(n), {{x, n * sizeof(T)}, {y, n * sizeof(T)}});
      timed_loop(state, ops, [&] {
        f(n, x, y);
        benchmark::ClobberMemory();
      });
      state.SetItemsProcessed(state.iterations() * as_i64(n));
    });
  }
}

// Binary vector math z = f(x, y).
template <class T, class F>
void add_math2(std::string_view kernel, std::string_view impl, F f) {
  if (!math_row_wanted(kernel, type_name<T>, impl)) return;
  describe(kernel, type_name<T>, kMath);
  const Fill input_x = math_inputs(kernel).x, input_y = math_inputs(kernel).y;
  for (std::size_t n : sizes().math) {
    add(bench_name(kernel, type_name<T>, n, impl), [n, input_x, input_y,
                                                    f](benchmark::State& state) {
      const T* x = buffer<T>(n, input_x);
      const T* y = buffer<T>(n, input_y);
      T* z = buffer<T>(n, Fill::kOutput);
      const Operands ops(is_cold(n), {{x, n * sizeof(T)}, {y, n * sizeof(T)}, {z, n * sizeof(T)}});
      timed_loop(state, ops, [&] {
        f(n, x, y, z);
        benchmark::ClobberMemory();
      });
      state.SetItemsProcessed(state.iterations() * as_i64(n));
    });
  }
}

inline benchmark::Counter gemm_flops(const benchmark::State& state, std::size_t n) {
  const double flops = 2.0 * double(n) * double(n) * double(n);
  return benchmark::Counter(flops * double(state.iterations()), benchmark::Counter::kIsRate);
}

// Square row-major C = A * B (alpha 1, beta 0, no transposes): f(n, A, B, C).
template <class T, class F>
void add_gemm(std::string_view impl, F f) {
  describe("gemm", type_name<T>, kMatrixProduct);
  for (std::size_t n : sizes().gemm) {
    add(bench_name("gemm", type_name<T>, n, impl), [n, f](benchmark::State& state) {
      const T* a = buffer<T>(n * n, Fill::kMatrixA);
      const T* b = buffer<T>(n * n, Fill::kMatrixB);
      T* c = buffer<T>(n * n, Fill::kMatrixC);
      timed_loop(state, Operands(false, {}), [&] {
        f(n, a, b, c);
        benchmark::ClobberMemory();
      });
      state.counters["flops"] = gemm_flops(state, n);
    });
  }
}

// ------------------------------ Reduced-precision GEMM

// A bf16 operand element, as its 16 bits (the upper half of a float): the harness needs no bf16
// type of its own; coheriq's bfloat16 and oneDNN's bf16 data type both store exactly this.
using Bf16Bits = std::uint16_t;

inline float bf16_value(Bf16Bits bits) {
  const std::uint32_t wide = std::uint32_t{bits} << 16;
  float out;
  __builtin_memcpy(&out, &wide, sizeof out);
  return out;
}

// The operands of the reduced-precision products are not the f32/f64 buffers: each (element
// type, count, seed) gets its own, 64-byte aligned, filled once with deterministic values: bytes
// over their full ranges (u8 and s8), bf16 in [-1, 1) (a float of 16 significant bits, cut).
template <class T>
const T* reduced_buffer(std::size_t n, std::uint32_t seed) {
  static std::map<std::pair<std::size_t, std::uint32_t>, std::vector<T>> pool;
  std::vector<T>& v = pool[{n, seed}];
  if (v.empty()) {
    v.resize(n + 64 / sizeof(T));
    std::uint32_t state = seed * 2654435761u + 1u;
    for (T& e : v) {
      state = state * 1664525u + 1013904223u;
      if constexpr (std::is_same_v<T, Bf16Bits>) {
        const float value = static_cast<float>(state >> 8) / 8388608.0f - 1.0f;
        std::uint32_t bits;
        __builtin_memcpy(&bits, &value, sizeof bits);
        e = static_cast<Bf16Bits>(bits >> 16);
      } else {
        e = static_cast<T>(state >> 24);
      }
    }
  }
  const auto address = reinterpret_cast<std::uintptr_t>(v.data());
  return v.data() + (64 - address % 64) % 64 / sizeof(T);
}

// The first difference of C (n x n, from a reduced product of A and B) from the product computed
// here, over a sample of 61 elements spread over C (every row and column class of the tiles is
// hit for n >= 61): "" when there is none. Integer products must match exactly; bf16 ones to the
// f32 accumulation's bound, n·2^-23 relative to the sum of the products' magnitudes (2^-22 for
// the two roundings of a sum of products).
template <class AT, class BT, class CT>
std::string reduced_mismatch(std::size_t n, const AT* a, const BT* b, const CT* c) {
  const std::size_t samples = n * n < 61 ? n * n : 61;
  for (std::size_t s = 0; s < samples; ++s) {
    const std::size_t at = s * (n * n) / samples + s % n;
    const std::size_t i = at / n % n, j = at % n;
    double exact = 0, magnitude = 0;
    for (std::size_t p = 0; p < n; ++p) {
      double term;
      if constexpr (std::is_same_v<AT, Bf16Bits>) {
        term = double(bf16_value(a[i * n + p])) * double(bf16_value(b[p * n + j]));
      } else {
        term = double(a[i * n + p]) * double(b[p * n + j]);
      }
      exact += term;
      magnitude += term < 0 ? -term : term;
    }
    const double got = double(c[i * n + j]);
    const double bound =
        std::is_same_v<CT, float> ? double(n + 2) * 0x1p-23 * magnitude + 0x1p-126 : 0.0;
    const double error = got > exact ? got - exact : exact - got;
    if (!(error <= bound)) {
      return "C(" + std::to_string(i) + ", " + std::to_string(j) + ") = " + std::to_string(got) +
             " where the product is " + std::to_string(exact) + ": wrong, so not timed";
    }
  }
  return "";
}

// Square row-major C = A·B (alpha 1, beta 0, no transposes) of a reduced-precision type: "u8s8s32"
// (u8 A, s8 B, s32 C, exact and wrapping) or "bf16" (bf16 A and B, f32 C). prepare(n), outside the
// timer, returns the product f(A, B, C), or throws when it cannot (the row fails with the
// message); the first product is checked (reduced_mismatch) before any is timed. "flops" counts
// 2·n³ operations, the integer multiply-adds included (int-ops per second).
template <class AT, class BT, class CT, class Prepare>
void add_reduced_gemm(std::string_view type, std::string_view impl, Prepare prepare) {
  describe("gemm", type, kMatrixProduct);
  for (std::size_t n : sizes().gemm) {
    add(bench_name("gemm", type, n, impl), [n, prepare](benchmark::State& state) {
      const AT* a = reduced_buffer<AT>(n * n, 3);
      const BT* b = reduced_buffer<BT>(n * n, 4);
      static_assert(sizeof(CT) == sizeof(float));
      auto* c = reinterpret_cast<CT*>(buffer<float>(n * n, Fill::kMatrixC));  // C's room
      try {
        const auto product = prepare(n);
        product(a, b, c);
        const std::string wrong = reduced_mismatch(n, a, b, c);
        if (!wrong.empty()) return state.SkipWithError(wrong.c_str());
        timed_loop(state, Operands(false, {}), [&] {
          product(a, b, c);
          benchmark::ClobberMemory();
        });
      } catch (const std::exception& e) {
        return state.SkipWithError(e.what());
      }
      state.counters["flops"] = gemm_flops(state, n);
    });
  }
}

// The same product with B packed once outside the timer: pack(n, B) returns the packed matrix,
// f(n, A, packed, C) multiplies.
template <class T, class Pack, class F>
void add_gemm_packed(std::string_view impl, Pack pack, F f) {
  describe("gemm_packed", type_name<T>, kMatrixProduct);
  for (std::size_t n : sizes().gemm) {
    add(bench_name("gemm_packed", type_name<T>, n, impl), [n, pack, f](benchmark::State& state) {
      const T* a = buffer<T>(n * n, Fill::kMatrixA);
      const T* b = buffer<T>(n * n, Fill::kMatrixB);
      T* c = buffer<T>(n * n, Fill::kMatrixC);
      const auto packed = pack(n, b);
      timed_loop(state, Operands(false, {}), [&] {
        f(n, a, packed, c);
        benchmark::ClobberMemory();
      });
      state.counters["flops"] = gemm_flops(state, n);
    });
  }
}

// Packing alone (allocation included, as a caller of pack_b pays it): bytes of B per second.
template <class T, class Pack>
void add_pack_b(std::string_view impl, Pack pack) {
  describe("pack_b", type_name<T>, kMatrixCopy);
  for (std::size_t n : sizes().gemm) {
    add(bench_name("pack_b", type_name<T>, n, impl), [n, pack](benchmark::State& state) {
      const T* b = buffer<T>(n * n, Fill::kMatrixB);
      timed_loop(state, Operands(false, {}), [&] {
        auto packed = pack(n, b);
        benchmark::ClobberMemory();
      });
      state.SetBytesProcessed(state.iterations() * as_i64(n * n * sizeof(T)));
    });
  }
}

// ------------------------------ Level 3 (the blas group)

// The level-3 routines the blas group measures beyond GEMM, each case once for every
// implementation: square row-major operands of order n (m = n = k), a non-unit diagonal, alpha =
// beta = 1, and the side, triangle and transpose of the case. The routine's matrix A is the
// identity plus off-diagonal values of at most 2^-24 in magnitude, so a solve or product repeated
// in place changes B by a few ulp per call and every operand stays finite and normal however long
// the benchmarks run (speed does not depend on the values; an Inf would send coheriq to its
// reference loops). B and C are the gemm operands' values ([-1, 1), C accumulating).
enum class Routine { kTrsm, kTrmm, kSyrk, kHerk, kSyr2k, kSymm, kGemm };
struct Level3Case {
  const char* kernel;  // the routine, then side, triangle and transpose where it has them
  Routine routine;
  bool left, lower, trans;
  bool real, complex;  // the types it is measured in
  // Real flops per n^3 of a real call, netlib's count: trsm and trmm 1, syrk 1, syr2k and symm 2,
  // gemm 2; a complex call counts 4 times as many (8 real flops per complex multiply-add).
  double flops;
};
const std::vector<Level3Case>& level3_cases();

template <class T>
inline constexpr bool is_complex_v = false;
template <class R>
inline constexpr bool is_complex_v<std::complex<R>> = true;

// A square matrix of order n of T (complex: of its real type, twice as many values).
template <class T>
T* matrix(std::size_t n, Fill fill) {
  if constexpr (is_complex_v<T>) {
    return reinterpret_cast<T*>(buffer<typename T::value_type>(2 * n * n, fill));
  } else {
    return buffer<T>(n * n, fill);
  }
}

// Every case of T's kind: f(case, n, A, B, C); B and C are written as the routine writes them.
template <class T, class F>
void add_level3(std::string_view impl, F f) {
  for (const Level3Case& c : level3_cases()) {
    if (!(is_complex_v<T> ? c.complex : c.real)) continue;
    describe(c.kernel, type_name<T>, kLevel3);
    const double flops = c.flops * (is_complex_v<T> ? 4 : 1);
    for (std::size_t n : sizes().level3) {
      add(bench_name(c.kernel, type_name<T>, n, impl), [n, c, flops, f](benchmark::State& state) {
        T* a = matrix<T>(n, Fill::kNearIdentity);
        for (std::size_t i = 0; i < n; ++i) a[i * n + i] = T(1);
        T* b = matrix<T>(n, Fill::kMatrixB);
        T* cm = matrix<T>(n, Fill::kMatrixC);
        timed_loop(state, Operands(false, {}), [&] {
          f(c, n, static_cast<const T*>(a), b, cm);
          benchmark::ClobberMemory();
        });
        const double n3 = double(n) * double(n) * double(n);
        state.counters["flops"] = benchmark::Counter(flops * n3 * double(state.iterations()),
                                                     benchmark::Counter::kIsRate);
      });
    }
  }
}

// ------------------------------ Small and batched GEMM (the small group)

// A batch of small products of one shape, as solvers and tensor contractions issue them:
// C_i += op(A_i)·op(B_i) (alpha = beta = 1) for i < batch, column-major (LIBXSMM's and the
// BLAS's layout), op(A) = A (m x k), op(B) = B (k x n, "nn") or Bᵀ (B stored n x k, "nt"). The
// operands of the batch lie back to back (strides m·k, k·n and m·n, no padding), each leading
// dimension its matrix's rows. The batch holds 10,000 products, fewer where they would take
// more than 64 MiB of operands (A, B and C together; --quick: 8 MiB), so every implementation
// streams the same operands through the caches product after product.
struct SmallProblem {
  std::size_t m = 0, n = 0, k = 0;
  bool trans_b = false;
  bool square = false;  // m = n = k: the benchmark's size is the order, else the batch
  std::size_t batch = 0;
  std::size_t lda() const { return m; }
  std::size_t ldb() const { return trans_b ? n : k; }
  std::size_t ldc() const { return m; }
  std::size_t stride_a() const { return m * k; }
  std::size_t stride_b() const { return k * n; }
  std::size_t stride_c() const { return m * n; }
  double flops() const { return 2.0 * double(m) * double(n) * double(k) * double(batch); }
};

// Every problem of the group for elements of `element_bytes` (the batch depends on it): the
// square orders of sizes().small in nn, then nt, then the shapes solvers use, (m, n, k) = (8, 8,
// 256), (256, 8, 8), (23, 29, 31), (1, 64, 64), in nn and nt. --quick: the square orders in nn.
std::vector<SmallProblem> small_problems(std::size_t element_bytes);

// The kernel name of a problem's row: "small_nn" (square), "small_nt_23x29x31" (another shape),
// then "_<variant>" when given (how coheriq is called: "call", "plan").
std::string small_kernel(const SmallProblem& p, std::string_view variant);

// Checks `run`, which computes the first two products of a batch laid out as `p` says
// (run(A, B, C) on the two products' operands), against plain loops in double, before any
// timing (once per row): a mistake in how an implementation is called (a transposition, a
// leading dimension, a stride) makes its row fail instead of timing another product. "" when
// right, else why.
template <class T>
std::string small_mismatch(const SmallProblem& p,
                           const std::function<void(const T*, const T*, T*)>& run);

// The operands of a problem's batch (shared by every implementation of the row).
template <class T>
struct SmallOperands {
  explicit SmallOperands(const SmallProblem& p)
      : a(buffer<T>(p.batch * p.stride_a(), Fill::kMatrixA)),
        b(buffer<T>(p.batch * p.stride_b(), Fill::kMatrixB)),
        c(buffer<T>(p.batch * p.stride_c(), Fill::kMatrixC)) {}
  const T* a;
  const T* b;
  T* c;
};

// Times a whole batch, one call per iteration: f(p, A, B, C) computes every product of it.
// The counter "flops" counts 2·m·n·k per product, "batch" the products.
template <class T, class F>
void add_small_batch(const SmallProblem& p, std::string_view impl, F f) {
  const std::string kernel = small_kernel(p, "");
  describe(kernel, type_name<T>, p.square ? kSmallSquare : kSmallShape);
  add(bench_name(kernel, type_name<T>, p.square ? p.m : p.batch, impl),
      [p, f, checked = std::make_shared<std::optional<std::string>>()](benchmark::State& state) {
        if (!*checked) {
          SmallProblem two = p;
          two.batch = 2;
          *checked = small_mismatch<T>(p, [&](const T* a, const T* b, T* c) { f(two, a, b, c); });
        }
        if (!(*checked)->empty()) return state.SkipWithError((*checked)->c_str());
        const SmallOperands<T> ops(p);
        timed_loop(state, Operands(false, {}), [&] {
          f(p, ops.a, ops.b, ops.c);
          benchmark::ClobberMemory();
        });
        state.counters["flops"] =
            benchmark::Counter(p.flops() * double(state.iterations()), benchmark::Counter::kIsRate);
        state.counters["batch"] = double(p.batch);
      });
}

// Times the batch one product per call: prepare(p), outside the timer, returns what multiplies
// one product, product(A_i, B_i, C_i) (a kernel dispatched for the shape, a plan, or a plain
// call); it throws when it cannot (the row fails with its message). Every implementation runs
// this same loop over the batch. `variant` goes into the kernel name (small_kernel).
template <class T, class Prepare>
void add_small_products(const SmallProblem& p, std::string_view variant, std::string_view impl,
                        Prepare prepare) {
  const std::string kernel = small_kernel(p, variant);
  describe(kernel, type_name<T>, p.square ? kSmallSquare : kSmallShape);
  add(bench_name(kernel, type_name<T>, p.square ? p.m : p.batch, impl),
      [p, prepare,
       checked = std::make_shared<std::optional<std::string>>()](benchmark::State& state) {
        try {
          const auto product = prepare(p);
          const std::size_t sa = p.stride_a(), sb = p.stride_b(), sc = p.stride_c();
          if (!*checked) {
            *checked = small_mismatch<T>(p, [&](const T* a, const T* b, T* c) {
              for (std::size_t i = 0; i < 2; ++i) product(a + i * sa, b + i * sb, c + i * sc);
            });
          }
          if (!(*checked)->empty()) return state.SkipWithError((*checked)->c_str());
          const SmallOperands<T> ops(p);
          timed_loop(state, Operands(false, {}), [&] {
            for (std::size_t i = 0; i < p.batch; ++i) {
              product(ops.a + i * sa, ops.b + i * sb, ops.c + i * sc);
            }
            benchmark::ClobberMemory();
          });
        } catch (const std::exception& e) {
          return state.SkipWithError(e.what());
        }
        state.counters["flops"] =
            benchmark::Counter(p.flops() * double(state.iterations()), benchmark::Counter::kIsRate);
        state.counters["batch"] = double(p.batch);
      });
}

// A peer's rows: every problem of the group, one product per call, on the kernel names coheriq's
// batched rows have (small_nn, ...): a peer without a batched interface is compared as its users
// call it.
template <class T, class Prepare>
void add_small_peer(std::string_view impl, Prepare prepare) {
  for (const SmallProblem& p : small_problems(sizeof(T)))
    add_small_products<T>(p, "", impl, prepare);
}

// The STREAM-style references at sizes().stream (f64, cold, like the cold kernels), one per
// traffic pattern of the BLAS-1 kernels: "read1" (one stream read: sum, asum, nrm2, iamax),
// "read2" (two streams read, a plain dot loop: dot), "scale" (x = s·x in place: scal) and "triad"
// (y += s·x: axpy). Plain loops, cloned for the widest vector ISA of the host.
void add_stream_references();

// The FMA peak of one core, "fma_peak.<f32|f64>/<256|512>/peak" (vector bits; 512 only where
// the CPU and OS run AVX-512F, 256 where they run AVX2 and FMA; none elsewhere): independent
// chains of vector FMAs from registers, as many as hide the FMA latency, so the rate is what
// the FMA units deliver, the roof a GEMM is compared with. Counter "flops" (2 per lane).
void add_peak_references();

// One line for the harness's report: how cold sizes are measured, and the LLC it sees.
std::string cache_policy();

}  // namespace coheriq_bench
