// The registry of domains: one DomainCore per domain name, never destroyed, and the engines each
// domain holds (reference first, built-ins and plugins added on first need).
#include <pthread.h>

#include <algorithm>
#include <map>

#include "core/core.hpp"

namespace coheriq::detail {
namespace {

struct Registry {
  std::mutex mu;
  std::map<std::string, DomainCore*, std::less<>> domains;  // never destroyed
};

Registry* make_registry();

Registry& registry() {
  static Registry* r = make_registry();  // outlives every static destructor that may dispatch
  return *r;
}

// fork() copies only the calling thread: a registry or domain mutex held by another thread would
// stay locked in the child forever. Before forking, take every lock (registry first, then each
// domain, the order every other path takes them in), so the child starts with all of them free
// and every domain in a consistent state; release them again on both sides.
void before_fork() {
  Registry& r = registry();
  r.mu.lock();
  for (auto& [name, d] : r.domains) d->mu.lock();
}
void after_fork() {
  Registry& r = registry();
  for (auto& [name, d] : r.domains) d->mu.unlock();
  r.mu.unlock();
}

Registry* make_registry() {
  auto* r = new Registry;
  pthread_atfork(&before_fork, &after_fork, &after_fork);
  return r;
}

}  // namespace

DomainCore::DomainCore(const DomainDesc& dd) : desc(dd), name(dd.name) {
  for (std::size_t c = 0; c < dd.classes_size; ++c) classes.emplace_back(dd.classes[c]);
  for (std::size_t k = 0; k < dd.functions_size; ++k) {
    const FunctionDesc& f = dd.functions[k];
    candidates.emplace_back(f.name);
    std::vector<std::size_t> t;
    for (std::size_t i = 0; i < f.touches_size; ++i) {
      const std::size_t c = class_index(f.touches[i]);
      if (c == npos) {
        throw CompositionError("coheriq: candidate '" + candidates.back() + "' of domain '" + name +
                               "' touches '" + std::string(f.touches[i]) +
                               "', which is not in the domain's classes; add it to `classes`");
      }
      t.push_back(c);
    }
    touches.push_back(std::move(t));
  }
  std::vector<std::string> sorted = candidates;
  std::sort(sorted.begin(), sorted.end());
  if (auto dup = std::adjacent_find(sorted.begin(), sorted.end()); dup != sorted.end()) {
    throw CompositionError("coheriq: domain '" + name + "' declares candidate '" + *dup +
                           "' twice; candidate names must be unique");
  }
  EngineSpec ref;
  ref.domain = name;
  ref.name = std::string(REFERENCE);
  ref.description = "the domain's reference implementation";
  ref.overrides = &dd.reference();
  if (dd.reference_reproducible != nullptr) ref.reproducible = &dd.reference_reproducible();
  auto e = make_engine(*this, ref, "builtin");
  std::vector<std::string> missing;
  for (std::size_t k = 0; k < candidates.size(); ++k) {
    if (e->function[k] == nullptr) missing.push_back(candidates[k]);
    if (e->honours_reproducible && e->reproducible_function[k] == nullptr) {
      missing.push_back(candidates[k] + " (in the reproducible mode)");
    }
  }
  if (!missing.empty()) {
    throw CompositionError("coheriq: domain '" + name + "' has no reference implementation of: " +
                           join(missing) + "; every candidate needs one in the reference table");
  }
  engines.push_back(std::move(e));
  copies.push_back(&dd);
}

void DomainCore::adopt(const DomainDesc& copy) {
  if (std::find(copies.begin(), copies.end(), &copy) != copies.end()) return;
  bool same = copy.functions_size == candidates.size() && copy.classes_size == classes.size();
  for (std::size_t k = 0; same && k < candidates.size(); ++k) {
    same = copy.functions[k].name == candidates[k];
  }
  for (std::size_t c = 0; same && c < classes.size(); ++c) same = copy.classes[c] == classes[c];
  if (!same) {
    throw CompositionError("coheriq: two binaries of this process define domain '" + name +
                           "' (ABI " + std::string(desc.abi) +
                           ") with different candidates; rebuild them against the same version of "
                           "the domain, or bump its `abi`");
  }
  copies.push_back(&copy);
  if (!installed.empty()) {
    for (std::size_t k = 0; k < candidates.size(); ++k) copy.functions[k].install(installed[k]);
  }
}

void DomainCore::install(std::vector<const void*> functions) {
  for (const DomainDesc* copy : copies) {
    for (std::size_t k = 0; k < candidates.size(); ++k) copy->functions[k].install(functions[k]);
  }
  installed = std::move(functions);
}

std::size_t DomainCore::candidate_index(std::string_view c) const {
  auto it = std::find(candidates.begin(), candidates.end(), c);
  return it == candidates.end() ? npos : static_cast<std::size_t>(it - candidates.begin());
}

std::size_t DomainCore::class_index(std::string_view c) const {
  auto it = std::find(classes.begin(), classes.end(), c);
  return it == classes.end() ? npos : static_cast<std::size_t>(it - classes.begin());
}

const std::vector<std::unique_ptr<Engine>>& DomainCore::all_engines() {
  if (!builtins_added) {
    std::vector<std::unique_ptr<Engine>> added;
    for (const EngineSpec& spec : desc.builtin_engines()) {
      added.push_back(make_engine(*this, spec, "builtin"));
    }
    builtins_added = true;
    // Built-ins go right after the reference, before engines registered by the application.
    engines.insert(engines.begin() + 1, std::make_move_iterator(added.begin()),
                   std::make_move_iterator(added.end()));
  }
  if (!plugins_added) {
    add_plugins(*this);
    plugins_added = true;
  }
  return engines;
}

const Engine* DomainCore::find(std::string_view engine_name) {
  for (const auto& e : all_engines()) {
    if (e->spec.name == engine_name) return e.get();
  }
  return nullptr;
}

std::vector<std::string> DomainCore::engine_names() {
  std::vector<std::string> names;
  for (const Engine* e : by_priority(*this)) names.push_back(e->spec.name);
  return names;
}

void DomainCore::add(std::unique_ptr<Engine> added) {
  if (find(added->spec.name) != nullptr) {
    throw CompositionError("coheriq: domain '" + name + "' already has an engine named '" +
                           added->spec.name + "'; give the new engine another name");
  }
  engines.push_back(std::move(added));
}

void DomainCore::load(const Engine& plugin) {
  if (!plugin.loader) return;
  Engine& e = const_cast<Engine&>(plugin);
  auto loader = std::move(e.loader);
  e.loader = nullptr;
  try {
    loader(e);
  } catch (const PluginError& err) {
    e.refusal = err.what();  // the file will not load in this process: probed once, remembered
    throw;
  } catch (...) {
    e.loader = std::move(loader);  // out of memory, say: unchanged, may be retried
    throw;
  }
}

DomainCore& find_domain(std::string_view domain) {
  Registry& r = registry();
  std::lock_guard<std::mutex> guard(r.mu);
  auto it = r.domains.find(domain);
  if (it == r.domains.end()) {
    std::vector<std::string> known;
    for (const auto& [n, _] : r.domains) known.push_back(n);
    throw UnknownDomainError(
        "coheriq: no domain named '" + printable(domain) +
        "' in this process; domains: " + (known.empty() ? std::string("none") : join(known)) +
        ". A domain exists once the library that owns it is linked and has registered it (check "
        "the name); before main, in a global constructor, use the domain's own enable_engine or "
        "coheriq::enable_engine<Domain>, which register the domain first");
  }
  return *it->second;
}

std::vector<std::string> domain_names() {
  Registry& r = registry();
  std::lock_guard<std::mutex> guard(r.mu);
  std::vector<std::string> names;
  for (const auto& [n, _] : r.domains) names.push_back(n);
  return names;
}

DomainCore& materialize(const DomainDesc& desc) {
  Registry& r = registry();
  std::lock_guard<std::mutex> guard(r.mu);
  auto it = r.domains.find(desc.name);
  if (it != r.domains.end()) {
    DomainCore& d = *it->second;
    if (d.desc.abi != desc.abi) {
      throw CompositionError("coheriq: two different domains are named '" + std::string(desc.name) +
                             "' (ABI " + std::string(d.desc.abi) + " and " + std::string(desc.abi) +
                             "); domain names must be unique per process");
    }
    std::lock_guard<std::mutex> domain_guard(d.mu);  // the registry's lock first, as before_fork
    d.adopt(desc);
    return d;
  }
  auto* core = new DomainCore(desc);  // lives as long as the process
  r.domains.emplace(std::string(desc.name), core);
  return *core;
}

}  // namespace coheriq::detail
