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
    } catch (const Error&) {  // an engine that does not compose is not supported
    }
  }
  return supported;
}

Selection selection(DomainCore& d) {
  if (d.state != DomainCore::State::open) return {d.engine, d.reason};
  const std::string var(d.desc.env_var);
  const char* raw = var.empty() ? nullptr : std::getenv(var.c_str());
  const std::vector<std::string> tokens =
      raw == nullptr ? std::vector<std::string>{} : parse_engine_list(raw, var);
  if (tokens.empty()) return {std::string(REFERENCE), "default"};
  const std::string setting = var + "=" + join(tokens, ",");

  for (const std::string& t : tokens) {  // typos fail loudly, wherever they are in the list
    if (t != "auto" && d.find(t) == nullptr) {
      throw UnknownEngineError("coheriq: " + setting + " names '" + t +
                               "', which is not an engine of domain '" + d.name + "'; " +
                               known_engines(d) + " (or 'auto'). Fix " + var + " and rerun");
    }
  }
  std::vector<std::string> passed_over;
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
        if (c.host_ok()) return {e->spec.name, setting};
        why = "missing " + missing_of(c);
      } catch (const Error& err) {  // CompositionError, or PluginError (a plugin's ABI)
        why = err.what();
      }
      if (t != "auto") passed_over.push_back("'" + t + "': " + why);
    }
    if (t == "auto") passed_over.push_back("'auto': no engine supported");
  }
  throw UnsupportedEngineError(
      "coheriq: " + setting + ": no engine in the list is supported on this host (" +
      join(passed_over, "; ") + "). " + host_supports(d) + "; add one of them to " + var);
}

}  // namespace coheriq::detail
