// The host as selection sees it (host.cpp, caches.cpp): detected once per process in baseline
// code, what COHERIQ_DISABLE_CPU_FEATURES and COHERIQ_HOST_OVERRIDE make of it, and the vector
// length the process's code runs at.
#pragma once

#include <coheriq/coheriq.hpp>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace coheriq::detail {

// Per-core cache sizes in bytes, 0 when unknown.
struct CacheSizes {
  std::size_t l1d_bytes = 0;
  std::size_t l2_bytes = 0;
};
// From the sysfs directory describing cpu0's caches (/sys/devices/system/cpu/cpu0/cache on Linux;
// tests pass another), then CPUID (x86), then sysconf, each filling what the previous left at 0.
CacheSizes detect_cache_sizes(const std::string& sysfs_cache_dir);
// The two fallbacks alone, for tests that compare them.
CacheSizes cpuid_cache_sizes();
CacheSizes sysconf_cache_sizes();
const HostInfo& host_info();  // detected once; throws Error on a bad COHERIQ_DISABLE_CPU_FEATURES
bool host_has(std::string_view feature);
// Every cpu_features name of this architecture, sorted; and those of `names` not among them.
const std::vector<std::string>& known_feature_names();
std::vector<std::string> unknown_feature_names(const std::vector<std::string>& names);

// The SVE vector length this process runs with, in bits, as the kernel reports it (prctl), 0
// without SVE. Not subject to COHERIQ_HOST_OVERRIDE: it is what SVE code actually gets. Baseline
// code: asking executes no SVE instruction.
std::size_t sve_vector_bits();

}  // namespace coheriq::detail
