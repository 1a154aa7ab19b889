// GEMM from destructors that run at exit: a thread_local destructor at thread exit and a static
// destructor at process exit, under the best engine this host runs, after gemm's per-thread
// workspace was released. Every product must be right and touch no freed memory (ASan and
// valgrind see it; before the fix the workspace was written after it was freed).
#include <coheriq/coheriq.hpp>
#include <coheriq/kernels.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

namespace ck = coheriq::kernels;

namespace {

// C = A·B with A, B of ones: every element of C is k. Prints and exits 1 when it is not.
void product_of_ones(const char* where) {
  const std::size_t m = 37, n = 45, k = 53;
  std::vector<float> a(m * k, 1.0f), b(k * n, 1.0f), c(m * n, -1.0f);
  ck::gemm(ck::Trans::N, ck::Trans::N, m, n, k, 1.0f, a.data(), k, b.data(), n, 0.0f, c.data(), n);
  for (float v : c) {
    if (std::fabs(v - static_cast<float>(k)) > 0.0f) {
      std::fprintf(stderr, "FAIL: gemm %s gave %g, expected %zu\n", where, static_cast<double>(v),
                   k);
      std::_Exit(1);
    }
  }
  std::printf("ok: gemm %s\n", where);
}

struct AtThreadExit {
  ~AtThreadExit() { product_of_ones("from a thread_local destructor"); }
};

struct AtProcessExit {
  ~AtProcessExit() { product_of_ones("from a static destructor"); }
} at_process_exit;

}  // namespace

int main() {
  // The best engine this host runs (GEMM's workspace belongs to the vector engines).
  for (const coheriq::EngineInfo& e : coheriq::engines(ck::domain_name)) {
    if (e.supported) {
      ck::enable_engine(e.name);
      std::printf("engine: %s\n", e.name.c_str());
      break;
    }
  }
  std::thread worker([] {
    thread_local AtThreadExit at_thread_exit;  // destroyed after the workspace's guard
    product_of_ones("on a thread");
    (void)&at_thread_exit;
  });
  worker.join();
  product_of_ones("on the main thread");
  static thread_local AtThreadExit main_at_thread_exit;
  (void)&main_at_thread_exit;
  return 0;
}
