// Which engine a domain runs when nothing was enabled explicitly: the domain's environment
// variable (a list of engine names and "auto"), else the reference.
#include <algorithm>
#include <cstdlib>

#include "core/core.hpp"
#include "core/env.hpp"
#include "core/messages.hpp"

namespace coheriq::detail {

std::vector<const Engine*> by_priority(DomainCore& d) {
  std::vector<const Engine*> order;
  for (const auto& e : d.all_engines()) order.push_back(e.get());
  std::stable_sort(order.begin(), order.end(), [](const Engine* a, const Engine* b) {
    if (a->spec.priority != b->spec.priority) return a->spec.priority > b->spec.priority;
    return a->spec.name < b->spec.name;
  });
  return order;
}

std::vector<std::string> supported_engines(DomainCore& d) {
  std::vector<std::string> supported;
  for (const Engine* e : by_priority(d)) {
    try {
      if (compose_coherent(d, e->spec.name).host_ok()) supported.push_back(e->spec.name);
    } catch (const CompositionError&) {  // an engine that does not compose is not supported
    } catch (const PluginError&) {       // nor one refused as a plugin
    }
  }
  return supported;
}

Selection choose(DomainCore& d, const std::vector<std::string>& tokens, const Request& request,
                 bool probe) {
  for (const std::string& t : tokens) {  // typos fail loudly, wherever they are in the list
    if (t != "auto" && d.find(t) == nullptr) {
      throw UnknownEngineError("coheriq: " + request.setting + " names " + quoted(t) +
                               ", which is not an engine of domain '" + d.name + "'; " +
                               known_engines(d, true) + ". Fix " + request.target + " and rerun");
    }
  }
  (void)host_info();  // a malformed host variable fails here, never as one engine's reason

  Selection s;
  std::vector<std::string> reasons;  // for the error: each named token, then 'auto'
  bool only_host = true;             // every reason is something this host lacks
  for (const std::string& t : tokens) {
    std::vector<const Engine*> candidates;
    if (t == "auto") {
      candidates = by_priority(d);
    } else {
      candidates.push_back(d.find(t));
    }
    for (const Engine* e : candidates) {
      std::string why;
      try {
        const Composition c = compose_coherent(d, e->spec.name);
        if (c.host_ok()) {
          // A plugin is taken once its library loads; what it really overrides must compose.
          if (probe && load_plugins(d, c)) (void)compose_coherent(d, e->spec.name);
          s.engine = e->spec.name;
          s.reason = request.setting;
          return s;
        }
        why = "missing " + missing_of(c);
      } catch (const CompositionError& err) {  // bases, C3 order, coherence
        why = err.what();
        only_host = false;
      } catch (const PluginError& err) {  // a broken manifest, an ABI, a library that won't load
        why = err.what();
        only_host = false;
      }
      s.passed_over.push_back(quoted(e->spec.name) + ": " + why);
      if (t != "auto") reasons.push_back(s.passed_over.back());
    }
    if (t == "auto") reasons.push_back("'auto': no engine supported");
  }
  // "Supported on this host" only when the host is what stands in the way; a broken engine is
  // not a CPU problem.
  throw UnsupportedEngineError("coheriq: " + request.setting +
                               (only_host ? ": no engine in the list is supported on this host ("
                                          : ": no engine in the list can be used (") +
                               join(reasons, "; ") + "). " + host_supports(d) +
                               "; add one of them to " + request.target);
}

Selection selection(DomainCore& d) {
  if (d.state != DomainCore::State::open) return {d.engine, d.reason, {}};
  const std::string var(d.desc.env_var);
  const char* raw = var.empty() ? nullptr : std::getenv(var.c_str());
  const std::vector<std::string> tokens =
      raw == nullptr ? std::vector<std::string>{} : parse_engine_list(raw, var);
  if (tokens.empty()) return {std::string(REFERENCE), "default", {}};
  // Tokens are names (the parser checked their alphabet) but may be long: bound the echo.
  return choose(d, tokens, {var + "=" + printable(join(tokens, ",")), var}, true);
}

}  // namespace coheriq::detail
