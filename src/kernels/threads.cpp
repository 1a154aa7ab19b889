// The kernels' thread count: set_num_threads, COHERIQ_NUM_THREADS, or the process's affinity mask.
#include <coheriq/coheriq.hpp>
#include <coheriq/kernels.hpp>

#include <sched.h>

#include <atomic>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <string_view>

#include "core/env.hpp"
#include "core/text.hpp"
#include "kernels/candidates.hpp"

namespace coheriq::kernels {
namespace {

// The most threads the kernels use: far above any CPU count a job gets, and a bound on what a
// typo (or SIZE_MAX) could make the pool start.
constexpr std::size_t kMaxThreads = 4096;

std::atomic<std::size_t> explicit_threads{0};  // 0: not set

std::size_t affinity_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) != 0) return 1;
  const int count = CPU_COUNT(&set);
  return count > 0 ? static_cast<std::size_t>(count) : 1;
}

// COHERIQ_NUM_THREADS, or 0 when unset. Throws on anything but a decimal integer from 1 to
// kMaxThreads (no sign, no blanks, no exponent).
std::size_t env_threads() {
  const char* raw = std::getenv("COHERIQ_NUM_THREADS");
  if (raw == nullptr) return 0;
  const std::string_view value(raw);
  const std::string what = "coheriq: COHERIQ_NUM_THREADS=" + coheriq::detail::quoted(value);
  const std::string remedy = "set it to the number of threads, from 1 to " +
                             std::to_string(kMaxThreads) +
                             " (e.g. 4), or unset it for the CPUs of the process's affinity mask";
  std::size_t n = 0;
  switch (detail::parse_count(value, kMaxThreads, n)) {
    case detail::CountStatus::ok:
      return n;
    case detail::CountStatus::not_positive_integer:
      throw Error(what + " is not a positive integer; " + remedy);
    case detail::CountStatus::too_large:
      break;
  }
  throw Error(what + " is more than " + std::to_string(kMaxThreads) +
              ", the most threads the kernels use; " + remedy);
}

}  // namespace

// At the first use: the variable is read as num_threads() reads it, when no count was set.
void Domain::check_settings() {
  if (explicit_threads.load(std::memory_order_relaxed) == 0) (void)env_threads();
}

void set_num_threads(std::size_t n) {
  if (n > kMaxThreads) {
    throw std::invalid_argument("coheriq: set_num_threads: n = " + std::to_string(n) +
                                " is more than " + std::to_string(kMaxThreads) +
                                ", the most threads the kernels use; pass 1 to " +
                                std::to_string(kMaxThreads) + ", or 0 for the default");
  }
  explicit_threads.store(n, std::memory_order_relaxed);
}

std::size_t num_threads() {
  if (const std::size_t n = explicit_threads.load(std::memory_order_relaxed); n != 0) return n;
  if (const std::size_t n = env_threads(); n != 0) return n;
  return affinity_cpus();
}

}  // namespace coheriq::kernels
