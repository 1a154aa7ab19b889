// Validation of an engine's spec against its domain, when the engine is registered (built-in,
// static or plugin): names, candidates, candidate classes.
#include <algorithm>

#include "core/core.hpp"
#include "core/messages.hpp"

namespace coheriq::detail {
namespace {

bool valid_engine_name(std::string_view name) {
  if (name.empty() || name == "auto") return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '.' || c == '-';
  });
}

// Each entry of `table` into `function`, by candidate; throws for an unknown candidate.
void index_table(const DomainCore& d, const OverrideTable& table, const std::string& where,
                 std::vector<const void*>& function) {
  for (std::size_t i = 0; i < table.size; ++i) {
    const Override& o = table.entries[i];
    const std::size_t k = d.candidate_index(o.candidate);
    if (k == npos || o.function == nullptr) {
      throw CompositionError(
          "coheriq: " + where + " overrides '" + printable(o.candidate) +
          "', which is not a candidate of the domain; candidates: " + join(d.candidates));
    }
    function[k] = o.function;
  }
}

}  // namespace

std::unique_ptr<Engine> make_engine(DomainCore& d, const EngineSpec& spec, std::string origin) {
  auto e = std::make_unique<Engine>();
  e->spec = spec;
  e->origin = std::move(origin);
  if (e->spec.bases.empty() && e->spec.name != REFERENCE) e->spec.bases = {std::string(REFERENCE)};
  e->function.assign(d.candidates.size(), nullptr);
  e->reproducible_function.assign(d.candidates.size(), nullptr);
  e->defines_layout.assign(d.classes.size(), false);
  const std::string where = engine_of(d, spec.name);
  if (!valid_engine_name(spec.name)) {
    throw CompositionError("coheriq: " + where +
                           ": engine names use letters, digits, '_', '.' and '-' and cannot be "
                           "'auto' or empty; rename the engine");
  }
  if (spec.domain != d.name) {
    throw CompositionError("coheriq: " + where + " says its domain is '" + printable(spec.domain) +
                           "'; register it with the domain it was written for");
  }
  if (const std::vector<std::string> unknown = unknown_feature_names(spec.required_features);
      !unknown.empty()) {
    std::vector<std::string> shown;
    for (const std::string& f : unknown) shown.push_back(quoted(f));
    throw CompositionError("coheriq: " + where + " requires " + join(shown) +
                           ", which cpu_features does not know on this architecture; valid "
                           "names: " +
                           join(known_feature_names()) + ". Fix required_features");
  }
  if (spec.overrides != nullptr) index_table(d, *spec.overrides, where, e->function);
  if (spec.reproducible != nullptr) {
    index_table(d, *spec.reproducible, where + " (in the reproducible mode)",
                e->reproducible_function);
    e->honours_reproducible = true;
  }
  for (const LayoutSpec& l : spec.layouts) {
    const std::size_t c = d.class_index(l.candidate_class);
    if (c == npos) {
      throw CompositionError(
          "coheriq: " + where + " defines a layout of '" + printable(l.candidate_class) +
          "', which is not a candidate class of the domain; classes: " + join(d.classes));
    }
    e->defines_layout[c] = true;
  }
  return e;
}

}  // namespace coheriq::detail
