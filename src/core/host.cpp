// Host CPU features, detected once per process with cpu_features, minus the names listed in
// COHERIQ_DISABLE_CPU_FEATURES (which can only remove). Selection tests feature bits only, never
// family or model numbers.
#include <algorithm>
#include <cstdlib>
#include <optional>

#include "core/core.hpp"
#include "core/env.hpp"
#include "cpu_features_macros.h"

#if defined(CPU_FEATURES_ARCH_X86)
#include "cpuinfo_x86.h"
#elif defined(CPU_FEATURES_ARCH_AARCH64)
#include "cpuinfo_aarch64.h"
#endif

namespace coheriq::detail {
namespace {

struct Detected {
  std::string arch;
  std::string brand;
  std::vector<std::string> present;  // sorted
  std::vector<std::string> known;    // sorted: every name cpu_features has for this arch
};

Detected detect() {
  using namespace cpu_features;
  Detected d;
#if defined(CPU_FEATURES_ARCH_X86)
  d.arch = "x86_64";
  const X86Info info = GetX86Info();
  d.brand = info.brand_string;
  for (int f = 0; f < X86_LAST_; ++f) {
    const auto e = static_cast<X86FeaturesEnum>(f);
    d.known.emplace_back(GetX86FeaturesEnumName(e));
    if (GetX86FeaturesEnumValue(&info.features, e))
      d.present.emplace_back(GetX86FeaturesEnumName(e));
  }
#elif defined(CPU_FEATURES_ARCH_AARCH64)
  d.arch = "aarch64";
  const Aarch64Info info = GetAarch64Info();
  for (int f = 0; f < AARCH64_LAST_; ++f) {
    const auto e = static_cast<Aarch64FeaturesEnum>(f);
    d.known.emplace_back(GetAarch64FeaturesEnumName(e));
    if (GetAarch64FeaturesEnumValue(&info.features, e)) {
      d.present.emplace_back(GetAarch64FeaturesEnumName(e));
    }
  }
#else
  d.arch = "unknown";
#endif
  // Trim the brand string's padding.
  while (!d.brand.empty() && d.brand.back() == ' ') d.brand.pop_back();
  while (!d.brand.empty() && d.brand.front() == ' ') d.brand.erase(d.brand.begin());
  std::sort(d.present.begin(), d.present.end());
  std::sort(d.known.begin(), d.known.end());
  return d;
}

const Detected& detected() {
  static const Detected d = detect();
  return d;
}

struct Host {
  HostInfo info;
  std::string error;  // a malformed COHERIQ_DISABLE_CPU_FEATURES, reported by every use
};

Host make_host() {
  Host h;
  const Detected& d = detected();
  h.info.arch = d.arch;
  h.info.brand = d.brand;
  h.info.features = d.present;
  const char* raw = std::getenv("COHERIQ_DISABLE_CPU_FEATURES");
  if (raw == nullptr) return h;
  try {
    for (const std::string& name : parse_feature_list(raw, "COHERIQ_DISABLE_CPU_FEATURES")) {
      if (!std::binary_search(d.known.begin(), d.known.end(), name)) {
        throw Error("coheriq: COHERIQ_DISABLE_CPU_FEATURES names '" + name +
                    "', which is not a cpu_features name on " + d.arch +
                    "; use names such as those `coheriq info` lists (e.g. avx2, avx512f)");
      }
      h.info.disabled.push_back(name);
    }
  } catch (const Error& e) {
    h.error = e.what();
    return h;
  }
  std::sort(h.info.disabled.begin(), h.info.disabled.end());
  h.info.disabled.erase(std::unique(h.info.disabled.begin(), h.info.disabled.end()),
                        h.info.disabled.end());
  std::vector<std::string> kept;
  std::set_difference(h.info.features.begin(), h.info.features.end(), h.info.disabled.begin(),
                      h.info.disabled.end(), std::back_inserter(kept));
  h.info.features = std::move(kept);
  return h;
}

}  // namespace

const HostInfo& host_info() {
  static const Host h = make_host();
  if (!h.error.empty()) throw Error(h.error);
  return h.info;
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
