// What a domain reports about itself: every engine's composition and support on this host, and
// the domain's state. Never locks, never loads a plugin.
#include <algorithm>

#include "core/core.hpp"

namespace coheriq::detail {

DomainStatus domain_status(DomainCore& d) {
  DomainStatus s;
  s.domain = d.name;
  s.env_var = std::string(d.desc.env_var);
  s.abi = std::string(d.desc.abi);
  s.state = d.state == DomainCore::State::open     ? "open"
            : d.state == DomainCore::State::chosen ? "chosen"
                                                   : "locked";
  const Selection sel = selection(d);
  s.engine = sel.engine;
  s.reason = sel.reason;
  s.locked_by = d.locked_by;
  s.candidates = d.candidates;
  s.classes = d.classes;
  s.reproducible_env_var = std::string(d.desc.reproducible_env_var);
  s.reproducible = reproducible_mode(d);
  return s;
}

std::vector<EngineInfo> engine_infos(DomainCore& d) {
  std::vector<EngineInfo> out;
  for (const Engine* e : by_priority(d)) {
    EngineInfo info;
    info.name = e->spec.name;
    info.description = e->spec.description;
    info.bases = e->spec.bases;
    info.priority = e->spec.priority;
    info.origin = e->origin;
    try {
      const Composition c = compose(d, e->spec.name);
      for (const Engine* m : c.mro) info.mro.push_back(m->spec.name);
      info.required_features = c.required;
      info.missing_features = c.missing;
      info.missing_host = c.missing_host;
      info.supported = c.host_ok() && c.incoherent.empty();
      info.reproducible = std::all_of(c.mro.begin(), c.mro.end(),
                                      [](const Engine* m) { return m->honours_reproducible; });
      info.error = c.incoherent;
      for (std::size_t k = 0; k < d.candidates.size(); ++k) {
        info.providers.push_back({d.candidates[k], c.provider[k]->spec.name});
      }
      for (std::size_t cls = 0; cls < d.classes.size(); ++cls) {
        const Engine* l = c.layout[cls];
        info.layouts.push_back(
            {d.classes[cls], l->spec.name, layout_name(d, *l, cls, c.reproducible)});
      }
    } catch (const CompositionError& err) {
      info.error = err.what();
      info.supported = false;
    }
    out.push_back(std::move(info));
  }
  return out;
}

}  // namespace coheriq::detail
