// Per-core L1d and L2 sizes, from the first source that knows them: the kernel's sysfs description,
// then the CPU itself (CPUID on x86), then the C library (sysconf). Guests do not always have the
// sysfs directory (seen on an AMD family 26 guest), and cpu_features' cache query reads only
// Intel's leaves, so each source fills only what the ones before it left unknown.
#include <unistd.h>

#include <cstring>
#include <fstream>
#include <string>
#include <string_view>

#include "core/core.hpp"
#include "core/env.hpp"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

namespace coheriq::detail {
namespace {

// Fills what `c` does not know yet from `more`.
void complete(CacheSizes& c, const CacheSizes& more) {
  if (c.l1d_bytes == 0) c.l1d_bytes = more.l1d_bytes;
  if (c.l2_bytes == 0) c.l2_bytes = more.l2_bytes;
}

// <dir>/index<i>/{level,type,size}, as Linux describes the caches of one CPU.
CacheSizes from_sysfs(const std::string& dir) {
  CacheSizes c;
  for (int index = 0; index < 16; ++index) {
    const std::string entry = dir + "/index" + std::to_string(index);
    std::ifstream level_file(entry + "/level");
    if (!level_file) break;
    std::ifstream type_file(entry + "/type");
    std::ifstream size_file(entry + "/size");
    int level = 0;
    std::string type;
    std::string size;
    level_file >> level;
    type_file >> type;
    size_file >> size;
    if (type != "Data" && type != "Unified") continue;
    if (level == 1 && c.l1d_bytes == 0) c.l1d_bytes = parse_size(size).value_or(0);
    if (level == 2 && c.l2_bytes == 0) c.l2_bytes = parse_size(size).value_or(0);
  }
  return c;
}

#if defined(__x86_64__) || defined(__i386__)
// The deterministic cache parameters: leaf 4 (Intel) and leaf 0x8000001D (AMD, with TOPOEXT)
// share one format, one subleaf per cache until a type of 0.
CacheSizes from_cache_leaf(unsigned leaf) {
  CacheSizes c;
  for (unsigned sub = 0; sub < 16; ++sub) {
    unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
    __cpuid_count(leaf, sub, eax, ebx, ecx, edx);
    const unsigned type = eax & 0x1f;  // 1 data, 2 instruction, 3 unified
    if (type == 0) break;
    if (type == 2) continue;
    const unsigned level = (eax >> 5) & 0x7;
    const std::size_t ways = ((ebx >> 22) & 0x3ff) + 1;
    const std::size_t partitions = ((ebx >> 12) & 0x3ff) + 1;
    const std::size_t line = (ebx & 0xfff) + 1;
    const std::size_t sets = std::size_t{ecx} + 1;
    const std::size_t bytes = ways * partitions * line * sets;
    if (level == 1 && c.l1d_bytes == 0) c.l1d_bytes = bytes;
    if (level == 2 && c.l2_bytes == 0) c.l2_bytes = bytes;
  }
  return c;
}

CacheSizes from_cpuid() {
  unsigned max_basic = 0, ebx = 0, ecx = 0, edx = 0;
  if (__get_cpuid(0, &max_basic, &ebx, &ecx, &edx) == 0) return {};
  char vendor[12];
  std::memcpy(vendor, &ebx, 4);
  std::memcpy(vendor + 4, &edx, 4);
  std::memcpy(vendor + 8, &ecx, 4);
  const std::string_view v(vendor, sizeof vendor);
  const bool amd = v == "AuthenticAMD" || v == "HygonGenuine";
  if (!amd) return max_basic >= 4 ? from_cache_leaf(4) : CacheSizes{};

  const unsigned max_extended = __get_cpuid_max(0x80000000u, nullptr);
  CacheSizes c;
  unsigned eax = 0;
  if (max_extended >= 0x8000001Du && __get_cpuid(0x80000001u, &eax, &ebx, &ecx, &edx) != 0 &&
      (ecx & (1u << 22)) != 0) {  // TOPOEXT
    c = from_cache_leaf(0x8000001Du);
  }
  // The older AMD leaves: L1d in KiB in ECX[31:24] of 0x80000005, L2 in ECX[31:16] of 0x80000006.
  if (c.l1d_bytes == 0 && max_extended >= 0x80000005u) {
    __cpuid(0x80000005u, eax, ebx, ecx, edx);
    c.l1d_bytes = std::size_t{ecx >> 24} * 1024;
  }
  if (c.l2_bytes == 0 && max_extended >= 0x80000006u) {
    __cpuid(0x80000006u, eax, ebx, ecx, edx);
    c.l2_bytes = std::size_t{ecx >> 16} * 1024;
  }
  return c;
}
#else
CacheSizes from_cpuid() { return {}; }
#endif

// glibc's answer (it reads CPUID on x86 itself; elsewhere it may know nothing): 0 when unknown.
CacheSizes from_sysconf() {
  CacheSizes c;
#if defined(_SC_LEVEL1_DCACHE_SIZE) && defined(_SC_LEVEL2_CACHE_SIZE)
  const long l1d = sysconf(_SC_LEVEL1_DCACHE_SIZE);
  const long l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);
  if (l1d > 0) c.l1d_bytes = static_cast<std::size_t>(l1d);
  if (l2 > 0) c.l2_bytes = static_cast<std::size_t>(l2);
#endif
  return c;
}

}  // namespace

CacheSizes detect_cache_sizes(const std::string& sysfs_cache_dir) {
  CacheSizes c = from_sysfs(sysfs_cache_dir);
  if (c.l1d_bytes == 0 || c.l2_bytes == 0) complete(c, from_cpuid());
  if (c.l1d_bytes == 0 || c.l2_bytes == 0) complete(c, from_sysconf());
  return c;
}

CacheSizes cpuid_cache_sizes() { return from_cpuid(); }
CacheSizes sysconf_cache_sizes() { return from_sysconf(); }

}  // namespace coheriq::detail
