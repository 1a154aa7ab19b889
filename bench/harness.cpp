// The harness's buffers, cache control and STREAM-style references. Baseline code.
#include "harness.hpp"

#include <unistd.h>

#if defined(__linux__)
#include <sys/mman.h>
#endif

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <new>
#include <tuple>
#include <utility>

#if defined(__x86_64__) || defined(__i386__)
#include <emmintrin.h>  // _mm_clflush, _mm_mfence: SSE2, part of the x86-64 baseline
#include <immintrin.h>  // the FMA peak loops (functions with target attributes only)
#endif

namespace coheriq_bench {

// ------------------------------ Sizes

namespace {

// BLAS-1: L1-resident (1K), L2-resident (64K), cold (16M). Math: L1 (4K) and L2 (64K). gemv:
// L2 (256), the last level (1024) and memory (4096, 8192). The level 3: 1024 and 2048. The small
// group: orders 4 to 128.
const Sizes kFull = {{1024, 65536, 16777216},
                     {4096, 65536},
                     {256, 512, 1024, 2048, 4096},
                     {256, 1024, 4096, 8192},
                     {1024, 2048},
                     {4, 8, 12, 16, 24, 32, 48, 64, 96, 128},
                     16777216};
// Warm sizes only, and the smallest products: under a minute for every engine on 2 cores.
const Sizes kQuick = {{1024, 65536}, {4096}, {256}, {1024}, {256}, {8, 32, 128}, 0};

bool quick_mode = false;

}  // namespace

void set_quick(bool quick) { quick_mode = quick; }
const Sizes& sizes() { return quick_mode ? kQuick : kFull; }

namespace {
bool progress_enabled = false;
std::size_t thread_count = 1;
}  // namespace

void set_threads(std::size_t n) { thread_count = n == 0 ? 1 : n; }
std::size_t threads() { return thread_count; }

namespace {
std::vector<std::string> engine_features;
}  // namespace

void set_engine_features(std::vector<std::string> features) {
  engine_features = std::move(features);
}

bool peer_may_use(std::string_view feature) {
  return engine_features.empty() || std::find(engine_features.begin(), engine_features.end(),
                                              feature) != engine_features.end();
}

void set_progress(bool enabled) { progress_enabled = enabled; }

void announce(const std::string& name) {
  if (progress_enabled) std::printf("@progress %s\n", name.c_str());  // stdout is line-buffered
}

std::string bench_name(std::string_view kernel, std::string_view type, std::size_t n,
                       std::string_view impl) {
  std::string name(kernel);
  name += '.';
  name += type;
  name += '/';
  name += std::to_string(n);
  name += '/';
  name += impl;
  return name;
}

namespace {
std::map<std::string, std::string>& kernel_traits() {
  static std::map<std::string, std::string> traits;
  return traits;
}
}  // namespace

void describe(std::string_view kernel, std::string_view type, const KernelTraits& traits) {
  std::string text = std::string("size=") + traits.size + " work=" + traits.work;
  if (*traits.traffic != '\0') text += std::string(" traffic=") + traits.traffic;
  text += std::string(" group=") + traits.group;
  kernel_traits().emplace(std::string(kernel) + "." + std::string(type), std::move(text));
}

const std::map<std::string, std::string>& described_kernels() { return kernel_traits(); }

// ------------------------------ Level 3

const std::vector<Level3Case>& level3_cases() {
  using R = Routine;
  // kernel, routine, left, lower, trans, real, complex, flops per n^3
  static const std::vector<Level3Case> cases = {
      {"trsm_lln", R::kTrsm, true, true, false, true, true, 1},
      {"trsm_llt", R::kTrsm, true, true, true, true, false, 1},
      {"trsm_lun", R::kTrsm, true, false, false, true, false, 1},
      {"trsm_lut", R::kTrsm, true, false, true, true, false, 1},
      {"trsm_rln", R::kTrsm, false, true, false, true, false, 1},
      {"trsm_rlt", R::kTrsm, false, true, true, true, false, 1},
      {"trsm_run", R::kTrsm, false, false, false, true, false, 1},
      {"trsm_rut", R::kTrsm, false, false, true, true, false, 1},
      {"trmm_lln", R::kTrmm, true, true, false, true, false, 1},
      {"trmm_run", R::kTrmm, false, false, false, true, false, 1},
      {"syrk", R::kSyrk, true, true, false, true, false, 1},
      {"herk", R::kHerk, true, true, false, false, true, 1},
      {"syr2k", R::kSyr2k, true, true, false, true, false, 2},
      {"symm", R::kSymm, true, true, false, true, false, 2},
      {"gemm", R::kGemm, true, true, false, false, true, 2},
  };
  return cases;
}

// ------------------------------ Small and batched GEMM

namespace {
constexpr std::size_t kSmallBatch = 10000;
constexpr std::size_t kSmallBytes = std::size_t{64} << 20;
// --quick: at order 128 the reference engine's batch takes 0.1 s rather than 0.8 s.
constexpr std::size_t kSmallQuickBytes = std::size_t{8} << 20;

struct Shape {
  std::size_t m, n, k;
};
// The shapes solvers use: a panel update (8 x 8 over k = 256), its transpose's (256 x 8 x 8), an
// irregular block (23 x 29 x 31) and a row times a matrix (1 x 64 x 64).
constexpr Shape kSmallShapes[] = {{8, 8, 256}, {256, 8, 8}, {23, 29, 31}, {1, 64, 64}};
}  // namespace

std::vector<SmallProblem> small_problems(std::size_t element_bytes) {
  const std::size_t bytes = quick_mode ? kSmallQuickBytes : kSmallBytes;
  const auto problem = [&](std::size_t m, std::size_t n, std::size_t k, bool trans_b) {
    SmallProblem p;
    p.m = m, p.n = n, p.k = k, p.trans_b = trans_b, p.square = m == n && n == k;
    const std::size_t per_product = (p.stride_a() + p.stride_b() + p.stride_c()) * element_bytes;
    p.batch = std::max<std::size_t>(1, std::min(kSmallBatch, bytes / per_product));
    return p;
  };
  std::vector<SmallProblem> problems;
  for (bool trans_b : {false, true}) {
    if (quick_mode && trans_b) break;
    for (std::size_t n : sizes().small) problems.push_back(problem(n, n, n, trans_b));
  }
  if (!quick_mode) {
    for (bool trans_b : {false, true}) {
      for (const Shape& s : kSmallShapes) problems.push_back(problem(s.m, s.n, s.k, trans_b));
    }
  }
  return problems;
}

std::string small_kernel(const SmallProblem& p, std::string_view variant) {
  std::string name = p.trans_b ? "small_nt" : "small_nn";
  if (!p.square) {
    char shape[80];
    std::snprintf(shape, sizeof shape, "_%zux%zux%zu", p.m, p.n, p.k);
    name += shape;
  }
  if (!variant.empty()) name.append("_").append(variant);
  return name;
}

template <class T>
std::string small_mismatch(const SmallProblem& p,
                           const std::function<void(const T*, const T*, T*)>& run) {
  constexpr std::size_t products = 2;
  // Multiples of 1/32 in [-1, 1): every product and partial sum is exact in float for k up to
  // 2^13, so whatever order an implementation sums in, the result is the loops' to rounding.
  const auto values = [](std::size_t count, std::size_t seed) {
    std::vector<T> v(count);
    for (std::size_t i = 0; i < count; ++i) v[i] = T(double((i * 37 + seed * 11) % 64) / 32 - 1);
    return v;
  };
  const std::vector<T> a = values(products * p.stride_a(), 1);
  const std::vector<T> b = values(products * p.stride_b(), 2);
  std::vector<T> c = values(products * p.stride_c(), 3);
  const std::vector<T> c0 = c;
  run(a.data(), b.data(), c.data());
  for (std::size_t q = 0; q < products; ++q) {
    const T* aq = a.data() + q * p.stride_a();
    const T* bq = b.data() + q * p.stride_b();
    for (std::size_t j = 0; j < p.n; ++j) {
      for (std::size_t i = 0; i < p.m; ++i) {
        double want = c0[q * p.stride_c() + i + j * p.ldc()];
        for (std::size_t l = 0; l < p.k; ++l) {
          const double bl = p.trans_b ? bq[j + l * p.ldb()] : bq[l + j * p.ldb()];
          want += double(aq[i + l * p.lda()]) * bl;
        }
        const double got = c[q * p.stride_c() + i + j * p.ldc()];
        if (!(std::abs(got - want) <= 1e-6 * (1 + std::abs(want)))) {
          char text[200];
          std::snprintf(text, sizeof text,
                        "wrong result: product %zu of %s, C(%zu, %zu) = %g where the loops give "
                        "%g (the call does not match the problem's layout)",
                        q, small_kernel(p, "").c_str(), i, j, got, want);
          return text;
        }
      }
    }
  }
  return "";
}

template std::string small_mismatch<float>(
    const SmallProblem&, const std::function<void(const float*, const float*, float*)>&);
template std::string small_mismatch<double>(
    const SmallProblem&, const std::function<void(const double*, const double*, double*)>&);

// ------------------------------ Buffers

namespace {

constexpr std::size_t kLine = 64;

// Buffers of at least this many bytes (more than any L1) get pages of their own, 2 MiB aligned
// and backed by transparent huge pages where the OS grants them. Physically contiguous, such a
// buffer covers every L2 set evenly, whatever pages the process happened to be given: with 4 KiB
// pages an L2-sized operand (the 64K rows: 256 KiB to 1 MiB) ran at speeds up to 27% apart from
// one process to the next, for every implementation alike, plausibly by how its pages fell on
// the L2's sets (6% apart on huge pages). Smaller buffers stay on the heap (L1 is indexed by the
// page offset alone).
constexpr std::size_t kHugeAlignment = std::size_t{2} << 20;
constexpr std::size_t kOwnPagesFrom = std::size_t{64} << 10;

struct BufferDeleter {
  std::size_t length = 0;
  void* base = nullptr;
  void operator()(void* p) const {
#if defined(__linux__)
    if (length != 0) {
      munmap(base, length);
      return;
    }
#endif
    std::free(p);
  }
};

using BufferPtr = std::unique_ptr<void, BufferDeleter>;

BufferPtr allocate(std::size_t bytes) {
#if defined(__linux__)
  if (bytes >= kOwnPagesFrom) {
    const std::size_t rounded = (bytes + kHugeAlignment - 1) / kHugeAlignment * kHugeAlignment;
    const std::size_t length = rounded + kHugeAlignment;  // room to align the start
    void* base = mmap(nullptr, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (base == MAP_FAILED) throw std::bad_alloc();
    const auto start = (reinterpret_cast<std::uintptr_t>(base) + kHugeAlignment - 1) &
                       ~(std::uintptr_t{kHugeAlignment} - 1);
    void* p = reinterpret_cast<void*>(start);
    madvise(p, rounded, MADV_HUGEPAGE);  // advice: without THP the pages stay 4 KiB
    return BufferPtr(p, BufferDeleter{length, base});
  }
#endif
  void* p = std::aligned_alloc(kLine, bytes);
  if (p == nullptr) throw std::bad_alloc();
  return BufferPtr(p, BufferDeleter{});
}

// splitmix64: a fixed, cheap stream of well-mixed bits, so every run sees the same data.
std::uint64_t next_random(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

struct Range {
  double lo, hi;
};

Range range_of(Fill fill) {
  switch (fill) {
    case Fill::kVectorX:
    case Fill::kVectorY:
    case Fill::kVectorZ:
      return {0.5, 1.5};
    case Fill::kExp:
    case Fill::kSigmoid:
      return {-10.0, 10.0};
    case Fill::kLog:
      return {0.001, 1000.0};
    case Fill::kTanh:
      return {-5.0, 5.0};
    case Fill::kOutput:
    case Fill::kMatrixC:
      return {0.0, 0.0};
    case Fill::kUnit:
    case Fill::kMatrixA:
    case Fill::kMatrixB:
      return {-1.0, 1.0};
    case Fill::kNearIdentity:
      return {-0x1p-24, 0x1p-24};
  }
  return {0.0, 0.0};
}

template <class T>
void fill_buffer(T* p, std::size_t n, Fill fill) {
  const Range r = range_of(fill);
  std::uint64_t state = 0x5eed0000u + static_cast<std::uint64_t>(fill);
  for (std::size_t i = 0; i < n; ++i) {
    const double unit = double(next_random(state) >> 11) * 0x1.0p-53;  // [0, 1)
    p[i] = static_cast<T>(r.lo + (r.hi - r.lo) * unit);
  }
}

using PoolKey = std::tuple<std::size_t, std::size_t, Fill>;  // element size, n, fill

std::map<PoolKey, BufferPtr>& pool() {
  static std::map<PoolKey, BufferPtr> buffers;
  return buffers;
}

}  // namespace

template <class T>
T* buffer(std::size_t n, Fill fill) {
  auto& slot = pool()[PoolKey{sizeof(T), n, fill}];
  if (!slot) {
    // At least one line, so n == 0 still gets a valid pointer.
    const std::size_t bytes = ((n * sizeof(T) + kLine - 1) / kLine + 1) * kLine;
    slot = allocate(bytes);
    fill_buffer(static_cast<T*>(slot.get()), n, fill);
  }
  return static_cast<T*>(slot.get());
}

template float* buffer<float>(std::size_t, Fill);
template double* buffer<double>(std::size_t, Fill);

// ------------------------------ Vector math inputs

namespace {
constexpr MathInputs kMathInputs[] = {
    {"exp", Fill::kExp, Fill::kOutput},         {"exp2", Fill::kExp, Fill::kOutput},
    {"expm1", Fill::kExp, Fill::kOutput},       {"log", Fill::kLog, Fill::kOutput},
    {"log2", Fill::kLog, Fill::kOutput},        {"log10", Fill::kLog, Fill::kOutput},
    {"log1p", Fill::kLog, Fill::kOutput},       {"pow", Fill::kLog, Fill::kExp},
    {"cbrt", Fill::kExp, Fill::kOutput},        {"sqrt", Fill::kLog, Fill::kOutput},
    {"sinh", Fill::kExp, Fill::kOutput},        {"cosh", Fill::kExp, Fill::kOutput},
    {"sin", Fill::kExp, Fill::kOutput},         {"cos", Fill::kExp, Fill::kOutput},
    {"tan", Fill::kExp, Fill::kOutput},         {"asin", Fill::kUnit, Fill::kOutput},
    {"acos", Fill::kUnit, Fill::kOutput},       {"atan", Fill::kExp, Fill::kOutput},
    {"atan2", Fill::kExp, Fill::kSigmoid},      {"erf", Fill::kTanh, Fill::kOutput},
    {"erfc", Fill::kTanh, Fill::kOutput},       {"tanh", Fill::kTanh, Fill::kOutput},
    {"sigmoid", Fill::kSigmoid, Fill::kOutput}, {"silu", Fill::kSigmoid, Fill::kOutput},
    {"softmax", Fill::kSigmoid, Fill::kOutput}, {"log_softmax", Fill::kSigmoid, Fill::kOutput},
    {"gelu", Fill::kSigmoid, Fill::kOutput},    {"gelu_tanh", Fill::kSigmoid, Fill::kOutput},
};
}  // namespace

bool math_row_wanted(std::string_view kernel, std::string_view type, std::string_view impl) {
  return impl == "coheriq" ||
         described_kernels().count(std::string(kernel) + "." + std::string(type)) != 0;
}

const MathInputs& math_inputs(std::string_view function) {
  for (const MathInputs& m : kMathInputs) {
    if (m.function == function) return m;
  }
  std::fprintf(stderr,
               "kernels_bench: no inputs for the vector math function '%.*s': add its row "
               "to kMathInputs in bench/harness.cpp\n",
               int(function.size()), function.data());
  std::abort();
}

// ------------------------------ Cache control

void evict(const void* p, std::size_t bytes) {
  if (bytes == 0) return;
  const auto* first = static_cast<const char*>(p);
#if defined(__x86_64__) || defined(__i386__)
  for (std::size_t off = 0; off < bytes; off += kLine) _mm_clflush(first + off);
  _mm_clflush(first + bytes - 1);
  _mm_mfence();
#elif defined(__aarch64__)
  for (std::size_t off = 0; off < bytes; off += kLine) {
    asm volatile("dc civac, %0" : : "r"(first + off) : "memory");
  }
  asm volatile("dsb ish" : : : "memory");
#else
  // No user-level flush: sweep a scratch area far larger than any last-level cache instead.
  static std::unique_ptr<char[]> scratch(new char[std::size_t{1} << 30]);
  for (std::size_t i = 0; i < (std::size_t{1} << 30); i += kLine) scratch[i] += 1;
  benchmark::DoNotOptimize(scratch.get());
  (void)first;
  (void)bytes;
#endif
}

namespace {
// The system's transparent huge page mode (the bracketed word of the sysfs file), as "; THP
// madvise", or "" where there is no such file.
std::string transparent_huge_pages() {
  std::FILE* f = std::fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
  if (f == nullptr) return "";
  char line[128] = {};
  const bool read = std::fgets(line, sizeof line, f) != nullptr;
  std::fclose(f);
  const char* open = read ? std::strchr(line, '[') : nullptr;
  const char* close = open != nullptr ? std::strchr(open, ']') : nullptr;
  if (close == nullptr) return "";
  return "; THP " + std::string(open + 1, close);
}
}  // namespace

std::string cache_policy() {
  const long llc = sysconf(_SC_LEVEL3_CACHE_SIZE);
  std::string s =
      "warm sizes reuse their buffers; lengths >= " + std::to_string(kColdElements >> 20) +
      "M elements are evicted from every cache level before each timed call; buffers from 64 "
      "KiB on 2 MiB-aligned pages advised huge (MADV_HUGEPAGE";
  s += transparent_huge_pages() + ")";
  s += llc > 0 ? "; LLC reported by the OS: " + std::to_string(llc >> 20) + " MiB"
               : "; LLC size not reported by the OS";
  return s;
}

// ------------------------------ STREAM-style references

namespace {

// The references are compiled for the widest vector ISA the host has (GCC function clones,
// chosen at load time), so they measure the memory, not the baseline ISA's load width.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define COHERIQ_STREAM_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define COHERIQ_STREAM_CLONES
#endif

// Many independent accumulators: the reduction is limited by memory, not by dependent chains
// of additions (the compiler may not reassociate floating point). 32 doubles are 4 zmm, 8 ymm or
// 16 xmm chains, so no clone spills; with 16 the loop read up to 25% less than the kernels.
constexpr std::size_t kAccumulators = 32;

COHERIQ_STREAM_CLONES double stream_read1(std::size_t n, const double* x) {
  double acc[kAccumulators] = {};
  std::size_t i = 0;
  for (; i + kAccumulators <= n; i += kAccumulators) {
    for (std::size_t j = 0; j < kAccumulators; ++j) acc[j] += x[i + j];
  }
  for (; i < n; ++i) acc[0] += x[i];
  double total = 0;
  for (double a : acc) total += a;
  return total;
}

// A plain dot loop: x and y loads interleave element by element, as in any dot kernel. (Summing
// x and y into separate accumulators lets the compiler load each in bursts, which read up to
// 30% less here.)
COHERIQ_STREAM_CLONES double stream_read2(std::size_t n, const double* x, const double* y) {
  double acc[kAccumulators] = {};
  std::size_t i = 0;
  for (; i + kAccumulators <= n; i += kAccumulators) {
    for (std::size_t j = 0; j < kAccumulators; ++j) acc[j] += x[i + j] * y[i + j];
  }
  for (; i < n; ++i) acc[0] += x[i] * y[i];
  double total = 0;
  for (double a : acc) total += a;
  return total;
}

COHERIQ_STREAM_CLONES void stream_scale(std::size_t n, double s, double* x) {
  for (std::size_t i = 0; i < n; ++i) x[i] *= s;
}

COHERIQ_STREAM_CLONES void stream_triad(std::size_t n, double s, const double* x, double* y) {
  for (std::size_t i = 0; i < n; ++i) y[i] += s * x[i];
}

}  // namespace

void add_stream_references() {
  const std::size_t n = sizes().stream;
  if (n == 0) return;
  const std::size_t bytes = n * sizeof(double);
  add(bench_name("stream_read1", "f64", n, "stream"), [n, bytes](benchmark::State& state) {
    const double* x = buffer<double>(n, Fill::kVectorX);
    const Operands ops(true, {{x, bytes}});
    timed_loop(state, ops, [&] { benchmark::DoNotOptimize(stream_read1(n, x)); });
    state.SetBytesProcessed(state.iterations() * as_i64(bytes));
  });
  add(bench_name("stream_read2", "f64", n, "stream"), [n, bytes](benchmark::State& state) {
    const double* x = buffer<double>(n, Fill::kVectorX);
    const double* y = buffer<double>(n, Fill::kVectorY);
    const Operands ops(true, {{x, bytes}, {y, bytes}});
    timed_loop(state, ops, [&] { benchmark::DoNotOptimize(stream_read2(n, x, y)); });
    state.SetBytesProcessed(state.iterations() * as_i64(2 * bytes));
  });
  add(bench_name("stream_scale", "f64", n, "stream"), [n, bytes](benchmark::State& state) {
    double* x = buffer<double>(n, Fill::kVectorX);
    const Operands ops(true, {{x, bytes}});
    timed_loop(state, ops, [&] {
      stream_scale(n, -1.0, x);
      benchmark::ClobberMemory();
    });
    state.SetBytesProcessed(state.iterations() * as_i64(2 * bytes));
  });
  add(bench_name("stream_triad", "f64", n, "stream"), [n, bytes](benchmark::State& state) {
    const double* x = buffer<double>(n, Fill::kVectorX);
    double* y = buffer<double>(n, Fill::kVectorY);
    const Operands ops(true, {{x, bytes}, {y, bytes}});
    timed_loop(state, ops, [&] {
      stream_triad(n, 1e-6, x, y);
      benchmark::ClobberMemory();
    });
    state.SetBytesProcessed(state.iterations() * as_i64(3 * bytes));
  });
}

// ------------------------------ FMA peak

namespace {

// Twelve independent accumulators: FMA latency (4 cycles) times the FMA pipes (2) is 8 in
// flight; 12 leaves a margin and, with the two operands, fits even the 16 ymm registers.
constexpr std::size_t kPeakChains = 12;
constexpr std::size_t kPeakSteps = 1 << 14;  // FMAs per chain per call

#if defined(__x86_64__) && defined(__GNUC__)
#define COHERIQ_PEAK_X86 1

// acc = acc * a + b: a just below 1 and b tiny keep every value normal and finite for ever.
// The lanes of the total are summed as scalars: only keeps the result observable.
#define COHERIQ_PEAK_LOOP(V, set1, fmadd, add, T)                               \
  V acc[kPeakChains];                                                           \
  for (std::size_t c = 0; c < kPeakChains; ++c) acc[c] = set1(T(c));            \
  const V a = set1(T(0.999999)), b = set1(T(1e-7));                             \
  for (std::size_t s = 0; s < kPeakSteps; ++s) {                                \
    for (std::size_t c = 0; c < kPeakChains; ++c) acc[c] = fmadd(acc[c], a, b); \
  }                                                                             \
  V total = acc[0];                                                             \
  for (std::size_t c = 1; c < kPeakChains; ++c) total = add(total, acc[c]);     \
  T lanes[sizeof(V) / sizeof(T)];                                               \
  std::memcpy(lanes, &total, sizeof lanes);                                     \
  T sum = 0;                                                                    \
  for (T x : lanes) sum += x;                                                   \
  return sum

__attribute__((target("avx2,fma"))) float peak_f32_256() {
  COHERIQ_PEAK_LOOP(__m256, _mm256_set1_ps, _mm256_fmadd_ps, _mm256_add_ps, float);
}
__attribute__((target("avx2,fma"))) double peak_f64_256() {
  COHERIQ_PEAK_LOOP(__m256d, _mm256_set1_pd, _mm256_fmadd_pd, _mm256_add_pd, double);
}
__attribute__((target("avx512f"))) float peak_f32_512() {
  COHERIQ_PEAK_LOOP(__m512, _mm512_set1_ps, _mm512_fmadd_ps, _mm512_add_ps, float);
}
__attribute__((target("avx512f"))) double peak_f64_512() {
  COHERIQ_PEAK_LOOP(__m512d, _mm512_set1_pd, _mm512_fmadd_pd, _mm512_add_pd, double);
}
#undef COHERIQ_PEAK_LOOP
#endif

template <class F>
void add_peak(const char* type, std::size_t bits, std::size_t lanes, F f) {
  // Always one thread and cpu time: the peak is one core's, whatever --threads says.
  const std::string name = bench_name("fma_peak", type, bits, "peak");
  benchmark::RegisterBenchmark(name.c_str(), [name, lanes, f](benchmark::State& state) {
    announce(name);
    for (auto _ : state) benchmark::DoNotOptimize(f());
    const double flops = 2.0 * double(lanes) * double(kPeakChains) * double(kPeakSteps);
    state.counters["flops"] =
        benchmark::Counter(flops * double(state.iterations()), benchmark::Counter::kIsRate);
  });
}

}  // namespace

void add_peak_references() {
#ifdef COHERIQ_PEAK_X86
  __builtin_cpu_init();
  // __builtin_cpu_supports also checks that the OS saves the registers (XCR0).
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
    add_peak("f32", 256, 8, peak_f32_256);
    add_peak("f64", 256, 4, peak_f64_256);
  }
  if (__builtin_cpu_supports("avx512f")) {
    add_peak("f32", 512, 16, peak_f32_512);
    add_peak("f64", 512, 8, peak_f64_512);
  }
#endif
}

}  // namespace coheriq_bench
