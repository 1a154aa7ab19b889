// The host as selection sees it, detected once per process in baseline code: cpu_features bits
// minus the names listed in COHERIQ_DISABLE_CPU_FEATURES (which can only remove), and the
// properties engines may require beyond feature bits (vendor, family, model, the SVE vector
// length, per-core L1d and L2 sizes), which COHERIQ_HOST_OVERRIDE may change for tests. Nothing
// here executes an instruction the baseline ISA lacks: the SVE length comes from the kernel.
#include <algorithm>
#include <cstdlib>
#include <optional>

#include "core/core.hpp"
#include "core/env.hpp"
#include "cpu_features_macros.h"

#if defined(CPU_FEATURES_ARCH_X86)
#include "cpuinfo_x86.h"
#elif defined(CPU_FEATURES_ARCH_AARCH64)
#include <fcntl.h>
#include <unistd.h>
#include "cpuinfo_aarch64.h"

#include <cstdio>
#if defined(__linux__)
#include <sys/auxv.h>
#include <sys/prctl.h>
#ifndef PR_SVE_GET_VL
#define PR_SVE_GET_VL 51
#endif
#ifndef PR_SVE_VL_LEN_MASK
#define PR_SVE_VL_LEN_MASK 0xffff
#endif
#ifndef HWCAP_SVE
#define HWCAP_SVE (1 << 22)
#endif
#endif
#endif

namespace coheriq::detail {
namespace {

struct Detected {
  HostInfo info;                   // as detected, before the variables
  std::vector<std::string> known;  // sorted: every name cpu_features has for this arch
};

#if defined(CPU_FEATURES_ARCH_AARCH64)
// cpu_features 0.7 prints "Parsing /proc/self/auxv to extract ELF hwcaps!" to stdout when
// AT_HWCAP2 is 0 (older kernels, qemu-user), which would corrupt the stdout of programs such as
// `coheriq info --json`. Detection runs once per process: stdout (stdio buffer and descriptor)
// points at /dev/null for that call only, what was written before is flushed first.
cpu_features::Aarch64Info quiet_aarch64_info() {
  std::fflush(stdout);
  const int saved = dup(STDOUT_FILENO);
  const int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
  const bool redirected = saved >= 0 && null >= 0 && dup2(null, STDOUT_FILENO) >= 0;
  const cpu_features::Aarch64Info info = cpu_features::GetAarch64Info();
  if (redirected) {
    std::fflush(stdout);
    dup2(saved, STDOUT_FILENO);
  }
  if (null >= 0) close(null);
  if (saved >= 0) close(saved);
  return info;
}
#endif

Detected detect() {
  using namespace cpu_features;
  Detected d;
  HostInfo& h = d.info;
#if defined(CPU_FEATURES_ARCH_X86)
  h.arch = "x86_64";
  const X86Info info = GetX86Info();
  h.brand = info.brand_string;
  h.vendor = info.vendor;
  h.family = info.family;
  h.model = info.model;
  for (int f = 0; f < X86_LAST_; ++f) {
    const auto e = static_cast<X86FeaturesEnum>(f);
    d.known.emplace_back(GetX86FeaturesEnumName(e));
    if (GetX86FeaturesEnumValue(&info.features, e))
      h.features.emplace_back(GetX86FeaturesEnumName(e));
  }
#elif defined(CPU_FEATURES_ARCH_AARCH64)
  h.arch = "aarch64";
  const Aarch64Info info = quiet_aarch64_info();
  h.family = info.implementer;
  h.model = info.part;
  for (int f = 0; f < AARCH64_LAST_; ++f) {
    const auto e = static_cast<Aarch64FeaturesEnum>(f);
    d.known.emplace_back(GetAarch64FeaturesEnumName(e));
    if (GetAarch64FeaturesEnumValue(&info.features, e)) {
      h.features.emplace_back(GetAarch64FeaturesEnumName(e));
    }
  }
  h.vector_bits = sve_vector_bits();
#else
  h.arch = "unknown";
#endif
  const CacheSizes caches = detect_cache_sizes("/sys/devices/system/cpu/cpu0/cache");
  h.l1d_bytes = caches.l1d_bytes;
  h.l2_bytes = caches.l2_bytes;
  // Trim the brand string's padding.
  while (!h.brand.empty() && h.brand.back() == ' ') h.brand.pop_back();
  while (!h.brand.empty() && h.brand.front() == ' ') h.brand.erase(h.brand.begin());
  std::sort(h.features.begin(), h.features.end());
  std::sort(d.known.begin(), d.known.end());
  return d;
}

// Never destroyed, like everything the dispatch path reads: a domain's first use may happen in a
// static destructor of the application, after the function-local statics of this library that
// were constructed later (in main, say) are gone.
const Detected& detected() {
  static const Detected* d = new Detected(detect());
  return *d;
}

struct Host {
  HostInfo info;
  std::string error;  // a malformed COHERIQ_DISABLE_CPU_FEATURES or COHERIQ_HOST_OVERRIDE
};

// Two feature names of `arch`, for hints: each architecture has its own (cpu_features' names).
std::string example_feature_names(const std::string& arch) {
  if (arch == "aarch64") return "asimd, sve";
  return "avx2, avx512f";
}

void apply_disabled(Host& h, const Detected& d, const char* raw) {
  for (const std::string& name : parse_feature_list(raw, "COHERIQ_DISABLE_CPU_FEATURES")) {
    if (!std::binary_search(d.known.begin(), d.known.end(), name)) {
      throw Error("coheriq: COHERIQ_DISABLE_CPU_FEATURES names '" + name +
                  "', which is not a cpu_features name on " + d.info.arch +
                  "; use names such as those `coheriq info` lists (e.g. " +
                  example_feature_names(d.info.arch) + ")");
    }
    h.info.disabled.push_back(name);
  }
  std::sort(h.info.disabled.begin(), h.info.disabled.end());
  h.info.disabled.erase(std::unique(h.info.disabled.begin(), h.info.disabled.end()),
                        h.info.disabled.end());
  std::vector<std::string> kept;
  std::set_difference(h.info.features.begin(), h.info.features.end(), h.info.disabled.begin(),
                      h.info.disabled.end(), std::back_inserter(kept));
  h.info.features = std::move(kept);
}

void apply_override(Host& h, const char* raw) {
  constexpr std::string_view var = "COHERIQ_HOST_OVERRIDE";
  const HostOverride o = parse_host_override(raw, var);
  if (o.vector_bits && *o.vector_bits > h.info.vector_bits) {
    throw Error("coheriq: " + std::string(var) +
                " sets vector_bits=" + std::to_string(*o.vector_bits) +
                ", more than this host has (" + std::to_string(h.info.vector_bits) +
                "); it may only lower the vector length, so that no engine runs instructions "
                "the hardware lacks");
  }
  if (o.vendor) h.info.vendor = *o.vendor;
  if (o.family) h.info.family = *o.family;
  if (o.model) h.info.model = *o.model;
  if (o.vector_bits) h.info.vector_bits = *o.vector_bits;
  if (o.l1d_bytes) h.info.l1d_bytes = *o.l1d_bytes;
  if (o.l2_bytes) h.info.l2_bytes = *o.l2_bytes;
}

Host make_host() {
  Host h;
  const Detected& d = detected();
  h.info = d.info;
  try {
    if (const char* raw = std::getenv("COHERIQ_DISABLE_CPU_FEATURES")) apply_disabled(h, d, raw);
    if (const char* raw = std::getenv("COHERIQ_HOST_OVERRIDE")) apply_override(h, raw);
  } catch (const Error& e) {
    h.error = e.what();
  }
  return h;
}

}  // namespace

std::size_t sve_vector_bits() {
#if defined(CPU_FEATURES_ARCH_AARCH64) && defined(__linux__)
  // The kernel knows the length the process runs with; asking it executes no SVE instruction.
  if ((getauxval(AT_HWCAP) & HWCAP_SVE) == 0) return 0;
  const int vl = prctl(PR_SVE_GET_VL);
  return vl > 0 ? static_cast<std::size_t>(vl & PR_SVE_VL_LEN_MASK) * 8 : 0;
#else
  return 0;
#endif
}

const HostInfo& host_info() {
  static const Host* h = new Host(make_host());  // never destroyed, as detected()
  if (!h->error.empty()) throw Error(h->error);
  return h->info;
}

const std::vector<std::string>& known_feature_names() { return detected().known; }

std::vector<std::string> unknown_feature_names(const std::vector<std::string>& names) {
  const std::vector<std::string>& known = detected().known;
  std::vector<std::string> unknown;
  for (const std::string& n : names) {
    if (!std::binary_search(known.begin(), known.end(), n)) unknown.push_back(n);
  }
  return unknown;
}

bool host_has(std::string_view feature) {
  const auto& f = host_info().features;
  return std::binary_search(f.begin(), f.end(), feature);
}

}  // namespace coheriq::detail

namespace coheriq {
HostInfo host() { return detail::host_info(); }
}  // namespace coheriq
