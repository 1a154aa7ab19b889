// The tuning record a candidate runs with: its provider's in the engine in effect, found through
// the framework's introspection (providers and MRO), which loads nothing and locks nothing.
#include "kernels/tuning_in_effect.hpp"

#include <coheriq/coheriq.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "kernels/candidates.hpp"

namespace coheriq::kernels {

const Tuning& tuning_in_effect(std::string_view candidate) {
  const std::string engine = coheriq::active_engine<Domain>();
  for (const coheriq::EngineInfo& info : coheriq::engines(domain_name)) {
    if (info.name != engine) continue;
    const auto provider = std::find_if(
        info.providers.begin(), info.providers.end(),
        [&](const coheriq::EngineInfo::Provider& p) { return p.candidate == candidate; });
    if (provider == info.providers.end()) break;
    for (auto e = std::find(info.mro.begin(), info.mro.end(), provider->engine);
         e != info.mro.end(); ++e) {
      if (const Tuning* t = builtin_tuning(*e)) return *t;
    }
    break;
  }
  return kDefaultTuning;
}

}  // namespace coheriq::kernels
