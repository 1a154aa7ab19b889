// The kernels' thread count: set_num_threads, COHERIQ_NUM_THREADS, or the process's affinity mask.
#include <coheriq/coheriq.hpp>
#include <coheriq/kernels.hpp>

#include <sched.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <string>

namespace coheriq::kernels {
namespace {

std::atomic<std::size_t> explicit_threads{0};  // 0: not set

std::size_t affinity_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) != 0) return 1;
  const int count = CPU_COUNT(&set);
  return count > 0 ? static_cast<std::size_t>(count) : 1;
}

// COHERIQ_NUM_THREADS, or 0 when unset. Throws on anything but a positive decimal integer.
std::size_t env_threads() {
  const char* raw = std::getenv("COHERIQ_NUM_THREADS");
  if (raw == nullptr) return 0;
  const std::string value(raw);
  const auto refuse = [&]() -> std::size_t {
    std::string shown;
    for (char c : value.substr(0, 40)) shown += (c >= 0x20 && c < 0x7f) ? c : '?';
    throw Error("coheriq: COHERIQ_NUM_THREADS='" + shown +
                "' is not a positive integer; set it to the number of threads (e.g. 4), or unset "
                "it for the CPUs of the process's affinity mask");
  };
  if (value.empty() || value.find_first_not_of("0123456789") != std::string::npos) return refuse();
  errno = 0;
  char* end = nullptr;
  const unsigned long long n = std::strtoull(value.c_str(), &end, 10);
  if (errno != 0 || n == 0 || n > 4096) return refuse();
  return static_cast<std::size_t>(n);
}

}  // namespace

void set_num_threads(std::size_t n) { explicit_threads.store(n, std::memory_order_relaxed); }

std::size_t num_threads() {
  if (const std::size_t n = explicit_threads.load(std::memory_order_relaxed); n != 0) return n;
  if (const std::size_t n = env_threads(); n != 0) return n;
  return affinity_cpus();
}

}  // namespace coheriq::kernels
