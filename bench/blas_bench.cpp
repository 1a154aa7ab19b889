// The drop-in's speed in one run (bench/blas_bench.py runs it; docs/performance.md has figures):
//   - cblas_sdot with incx = incy = 2, libcoheriq_blas against OpenBLAS (the strided kernels);
//   - the contiguous CBLAS path against the C++ API it forwards to (sdot, sgemm): the BLAS layer
//     should cost nothing measurable (target: within 3%).
// usage: blas_bench <libcoheriq_blas.so> <libopenblas.so>. Both are dlopen'ed (RTLD_LOCAL), so
// their cblas_* symbols do not clash; the C++ API is this program's own copy of the kernels,
// enabled to the engine the drop-in picks ('auto'). Single thread: run with
// OPENBLAS_NUM_THREADS=1 and COHERIQ_NUM_THREADS=1 (the script does).
#include <dlfcn.h>
#include <time.h>
#include <coheriq/coheriq.hpp>
#include <coheriq/kernels.hpp>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

namespace {

using Dot = float (*)(int, const float*, int, const float*, int);
using Gemm = void (*)(int, int, int, int, int, int, float, const float*, int, const float*, int,
                      float, float*, int);

template <class F>
F load(const char* path, const char* name) {
  void* handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    std::fprintf(stderr, "coheriq: blas_bench: cannot load %s: %s\n", path, dlerror());
    std::exit(2);
  }
  void* f = dlsym(handle, name);
  if (f == nullptr) {
    std::fprintf(stderr, "coheriq: blas_bench: %s has no %s\n", path, name);
    std::exit(2);
  }
  return reinterpret_cast<F>(f);
}

volatile float sink;

// This thread's CPU time: on a shared machine, time slices given to other processes do not count
// (the harness of `coheriq bench` measures CPU time too). Every measured call runs on this thread
// (single-threaded BLAS on both sides).
struct thread_clock {
  using duration = std::chrono::nanoseconds;
  using time_point = std::chrono::time_point<thread_clock>;
  static time_point now() {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return time_point(duration(std::int64_t(t.tv_sec) * 1000000000 + t.tv_nsec));
  }
};

// CPU seconds per call of f and of g: batches of about 20 ms, alternating f and g for 11 rounds
// (so drifts in clock speed and load hit both alike), the best batch of each.
template <class F, class G>
std::pair<double, double> seconds_per_call(F f, G g) {
  using clock = thread_clock;
  std::size_t reps = 1;
  for (;;) {
    const auto t0 = clock::now();
    for (std::size_t r = 0; r < reps; ++r) f();
    if (std::chrono::duration<double>(clock::now() - t0).count() > 0.02) break;
    reps *= 2;
  }
  const auto batch = [&](auto h) {
    const auto t0 = clock::now();
    for (std::size_t r = 0; r < reps; ++r) h();
    return std::chrono::duration<double>(clock::now() - t0).count() / double(reps);
  };
  double best_f = 1e30, best_g = 1e30;
  for (int round = 0; round < 11; ++round) {
    best_f = std::min(best_f, batch(f));
    best_g = std::min(best_g, batch(g));
  }
  return {best_f, best_g};
}

void row(const std::string& what, const char* ours_name, double ours, const char* peer_name,
         double peer) {
  std::printf("%-34s %-14s %10.2f us  %-12s %10.2f us  ratio %.3f\n", what.c_str(), ours_name,
              ours * 1e6, peer_name, peer * 1e6, peer / ours);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "coheriq: usage: blas_bench <libcoheriq_blas.so> <libopenblas.so>\n");
    return 2;
  }
  const Dot our_dot = load<Dot>(argv[1], "cblas_sdot");
  const Dot openblas_dot = load<Dot>(argv[2], "cblas_sdot");
  const Gemm our_gemm = load<Gemm>(argv[1], "cblas_sgemm");
  // The C++ API on the engine the drop-in picks without COHERIQ_ENGINE.
  for (const coheriq::EngineInfo& e : coheriq::engines(coheriq::kernels::domain_name)) {
    if (e.supported) {
      coheriq::kernels::enable_engine(e.name);
      break;
    }
  }
  std::printf("engine %s (C++ API; the drop-in picks the same without COHERIQ_ENGINE)\n",
              coheriq::kernels::active_engine().c_str());
  std::printf("ratio = other / libcoheriq_blas time (> 1: libcoheriq_blas is faster)\n");

  for (int n : {4096, 262144, 4194304}) {
    std::vector<float> x(2 * std::size_t(n), 0.5f), y(2 * std::size_t(n), 0.25f);
    const auto [ours, peer] =
        seconds_per_call([&] { sink = our_dot(n, x.data(), 2, y.data(), 2); },
                         [&] { sink = openblas_dot(n, x.data(), 2, y.data(), 2); });
    row("cblas_sdot incx=incy=2 n=" + std::to_string(n), "coheriq_blas", ours, "OpenBLAS", peer);
  }
  for (int n : {4096, 262144, 4194304}) {
    std::vector<float> x(std::size_t(n), 0.5f), y(std::size_t(n), 0.25f);
    const auto our_call = [&] { sink = our_dot(n, x.data(), 1, y.data(), 1); };
    const auto [ours, cpp] = seconds_per_call(
        our_call, [&] { sink = coheriq::kernels::dot(std::size_t(n), x.data(), y.data()); });
    row("cblas_sdot contiguous n=" + std::to_string(n), "coheriq_blas", ours, "C++ API", cpp);
    const auto [ours2, peer] =
        seconds_per_call(our_call, [&] { sink = openblas_dot(n, x.data(), 1, y.data(), 1); });
    row("cblas_sdot contiguous n=" + std::to_string(n), "coheriq_blas", ours2, "OpenBLAS", peer);
  }
  for (int n : {256, 1024}) {
    const std::size_t size = std::size_t(n) * std::size_t(n);
    const std::size_t un = std::size_t(n);
    std::vector<float> a(size, 0.5f), b(size, 0.25f), c(size, 0.0f);
    const auto [ours, cpp] = seconds_per_call(
        [&] {
          our_gemm(101, 111, 111, n, n, n, 1.0f, a.data(), n, b.data(), n, 0.0f, c.data(), n);
        },
        [&] {
          coheriq::kernels::gemm(coheriq::kernels::Trans::N, coheriq::kernels::Trans::N, un, un, un,
                                 1.0f, a.data(), un, b.data(), un, 0.0f, c.data(), un);
        });
    row("cblas_sgemm row-major n=" + std::to_string(n), "coheriq_blas", ours, "C++ API", cpp);
  }
  return 0;
}
