// The domain registry and the activation contract (DESIGN.md section 3):
// OPEN -> CHOSEN(e) -> LOCKED(e), or OPEN -> LOCKED(e) at the first use; one-way, process-wide,
// one engine per domain; a failed call changes nothing.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>

#include "core/core.hpp"
#include "core/env.hpp"

namespace coheriq::detail {
namespace {

// ------------------------------ Registry of domains

struct Registry {
  std::mutex mu;
  std::map<std::string, DomainCore*, std::less<>> domains;  // never destroyed
};

Registry& registry() {
  static Registry* r = new Registry;  // outlives every static destructor that may still dispatch
  return *r;
}

bool valid_engine_name(std::string_view name) {
  if (name.empty() || name == "auto") return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '.' || c == '-';
  });
}

std::string describe_lock(const DomainCore& d) {
  std::string s = "engine '" + d.engine + "' is in effect (" + d.reason;
  if (d.state == DomainCore::State::locked) {
    s += "; locked by the first use of " + d.locked_by;
  } else {
    s += "; enabled, not used yet";
  }
  return s + ")";
}

// ------------------------------ Selection

struct Selection {
  std::string engine;
  std::string reason;
};

std::vector<const Engine*> by_priority(DomainCore& d) {
  std::vector<const Engine*> order;
  for (const auto& e : d.all_engines()) order.push_back(e.get());
  std::stable_sort(order.begin(), order.end(), [](const Engine* a, const Engine* b) {
    if (a->spec.priority != b->spec.priority) return a->spec.priority > b->spec.priority;
    return a->spec.name < b->spec.name;
  });
  return order;
}

// The engines this host can run, highest priority first: for the remedy of an error message.
std::vector<std::string> supported_engines(DomainCore& d) {
  std::vector<std::string> supported;
  for (const Engine* e : by_priority(d)) {
    try {
      if (compose_coherent(d, e->spec.name).missing.empty()) supported.push_back(e->spec.name);
    } catch (const Error&) {  // an engine that does not compose is not supported
    }
  }
  return supported;
}

// Throws UnsupportedEngineError naming what is missing and what this host supports.
void check_supported(DomainCore& d, const Composition& c, std::string_view engine) {
  if (c.missing.empty()) return;
  throw UnsupportedEngineError("coheriq: engine '" + std::string(engine) + "' of domain '" +
                               d.name + "' is not supported on this host: missing " +
                               join(c.missing) + ". Engines this host supports: " +
                               join(supported_engines(d)) + "; enable one of those, or 'auto'");
}

// What is in effect or would be at first use: the explicit choice, else the env var, else
// the reference. Throws the env var's errors. Needs mu.
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
                               "', which is not an engine of domain '" + d.name +
                               "'; known engines: " + join(d.engine_names()) +
                               " (or 'auto'). Fix " + var + " and rerun");
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
        if (c.missing.empty()) return {e->spec.name, setting};
        why = "missing " + join(c.missing);
      } catch (const Error& err) {  // CompositionError, or PluginError (a plugin's ABI)
        why = err.what();
      }
      if (t != "auto") passed_over.push_back("'" + t + "': " + why);
    }
    if (t == "auto") passed_over.push_back("'auto': no engine supported");
  }
  throw UnsupportedEngineError(
      "coheriq: " + setting + ": no engine in the list is supported on this host (" +
      join(passed_over, "; ") + "). Engines this host supports: " + join(supported_engines(d)) +
      "; add one of them to " + var);
}

void log_lock(const DomainCore& d) {
  const char* level = std::getenv("COHERIQ_LOG");
  if (level == nullptr || std::string_view(level) != "info") return;
  std::fprintf(stderr, "coheriq: %s locked to %s (%s; first use: %s)\n", d.name.c_str(),
               d.engine.c_str(), d.reason.c_str(), d.locked_by.c_str());
}

// Installs the composed table into every slot, then marks the domain locked. Needs mu.
// Composes `engine`, checks the host, then loads its plugins (never before the host check).
Composition prepare(DomainCore& d, std::string_view engine) {
  Composition c = compose_coherent(d, engine);
  check_supported(d, c, engine);
  bool loaded = false;
  for (const Engine* e : c.mro) {
    if (e->loader) {
      d.load(*e);
      loaded = true;
    }
  }
  return loaded ? compose_coherent(d, engine) : c;
}

void lock(DomainCore& d, const std::string& engine, std::string reason, std::string first_use) {
  const Composition c = prepare(d, engine);
  for (std::size_t k = 0; k < d.candidates.size(); ++k) {
    d.desc.functions[k].install(c.provider[k]->function[k]);
  }
  d.state = DomainCore::State::locked;
  d.engine = engine;
  d.reason = std::move(reason);
  d.locked_by = std::move(first_use);
  d.locked.store(true, std::memory_order_release);
  log_lock(d);
}

void settle(DomainCore& d, const std::string& first_use) {
  if (d.locked.load(std::memory_order_acquire)) return;
  std::lock_guard<std::mutex> guard(d.mu);
  if (d.state == DomainCore::State::locked) return;
  Selection s = selection(d);
  lock(d, s.engine, std::move(s.reason), first_use);
}

}  // namespace

// ------------------------------ DomainCore

std::unique_ptr<Engine> make_engine(DomainCore& d, const EngineSpec& spec, std::string origin) {
  auto e = std::make_unique<Engine>();
  e->spec = spec;
  e->origin = std::move(origin);
  if (e->spec.bases.empty() && e->spec.name != REFERENCE) e->spec.bases = {std::string(REFERENCE)};
  e->function.assign(d.candidates.size(), nullptr);
  e->defines_layout.assign(d.classes.size(), false);
  const std::string where = "engine '" + spec.name + "' of domain '" + d.name + "'";
  if (!valid_engine_name(spec.name)) {
    throw CompositionError("coheriq: " + where +
                           ": engine names use letters, digits, '_', '.' and '-' and cannot be "
                           "'auto' or empty; rename the engine");
  }
  if (spec.domain != d.name) {
    throw CompositionError("coheriq: " + where + " says its domain is '" + spec.domain +
                           "'; register it with the domain it was written for");
  }
  if (spec.overrides != nullptr) {
    for (std::size_t i = 0; i < spec.overrides->size; ++i) {
      const Override& o = spec.overrides->entries[i];
      const std::size_t k = d.candidate_index(o.candidate);
      if (k == npos || o.function == nullptr) {
        throw CompositionError(
            "coheriq: " + where + " overrides '" + std::string(o.candidate) +
            "', which is not a candidate of the domain; candidates: " + join(d.candidates));
      }
      e->function[k] = o.function;
    }
  }
  for (const LayoutSpec& l : spec.layouts) {
    const std::size_t c = d.class_index(l.candidate_class);
    if (c == npos) {
      throw CompositionError(
          "coheriq: " + where + " defines a layout of '" + l.candidate_class +
          "', which is not a candidate class of the domain; classes: " + join(d.classes));
    }
    e->defines_layout[c] = true;
  }
  return e;
}

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
  auto e = make_engine(*this, ref, "builtin");
  std::vector<std::string> missing;
  for (std::size_t k = 0; k < candidates.size(); ++k) {
    if (e->function[k] == nullptr) missing.push_back(candidates[k]);
  }
  if (!missing.empty()) {
    throw CompositionError("coheriq: domain '" + name + "' has no reference implementation of: " +
                           join(missing) + "; every candidate needs one in the reference table");
  }
  engines.push_back(std::move(e));
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
    add_plugins(*this);  // all or nothing: a bad manifest throws and is reported again next time
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
  } catch (...) {
    e.loader = std::move(loader);  // failed: unchanged, may be retried
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
        "coheriq: no domain named '" + std::string(domain) +
        "' in this process; domains: " + (known.empty() ? std::string("none") : join(known)) +
        ". A domain exists once the library that owns it is linked and used (check the name)");
  }
  return *it->second;
}

DomainCore& materialize(const DomainDesc& desc) {
  Registry& r = registry();
  std::lock_guard<std::mutex> guard(r.mu);
  auto it = r.domains.find(desc.name);
  if (it != r.domains.end()) {
    if (it->second->desc.abi != desc.abi) {
      throw CompositionError("coheriq: two different domains are named '" + std::string(desc.name) +
                             "' (ABI " + std::string(it->second->desc.abi) + " and " +
                             std::string(desc.abi) + "); domain names must be unique per process");
    }
    return *it->second;
  }
  auto* core = new DomainCore(desc);  // lives as long as the process
  r.domains.emplace(std::string(desc.name), core);
  return *core;
}

void settle_function(DomainCore& d, std::size_t candidate) { settle(d, d.candidates[candidate]); }

void settle_class(DomainCore& d, std::size_t candidate_class) {
  if (d.locked.load(std::memory_order_acquire)) return;
  settle(d, d.classes[candidate_class] + " construction");
}

}  // namespace coheriq::detail

// ------------------------------ Public API

namespace coheriq {

using detail::DomainCore;

void enable_engine(std::string_view domain, std::string_view engine) {
  DomainCore& d = detail::find_domain(domain);
  std::lock_guard<std::mutex> guard(d.mu);
  if (d.state != DomainCore::State::open) {
    if (d.engine == engine) return;  // re-enabling the engine in effect is harmless
    throw EngineLockedError(
        "coheriq: cannot enable engine '" + std::string(engine) + "' in domain '" + d.name +
        "': " + detail::describe_lock(d) +
        ". The choice is one-way: enable the engine once, before the first "
        "use, or choose it with " +
        (d.desc.env_var.empty() ? std::string("enable_engine") : std::string(d.desc.env_var)) +
        " at start-up");
  }
  (void)detail::prepare(d, engine);
  d.state = DomainCore::State::chosen;
  d.engine = std::string(engine);
  d.reason = "enable_engine";
}

std::string active_engine(std::string_view domain) {
  DomainCore& d = detail::find_domain(domain);
  std::lock_guard<std::mutex> guard(d.mu);
  return detail::selection(d).engine;
}

bool is_locked(std::string_view domain) {
  return detail::find_domain(domain).locked.load(std::memory_order_acquire);
}

std::vector<std::string> domains() {
  detail::Registry& r = detail::registry();
  std::lock_guard<std::mutex> guard(r.mu);
  std::vector<std::string> names;
  for (const auto& [n, _] : r.domains) names.push_back(n);
  return names;
}

DomainStatus status(std::string_view domain) {
  DomainCore& d = detail::find_domain(domain);
  std::lock_guard<std::mutex> guard(d.mu);
  DomainStatus s;
  s.domain = d.name;
  s.env_var = std::string(d.desc.env_var);
  s.state = d.state == DomainCore::State::open     ? "open"
            : d.state == DomainCore::State::chosen ? "chosen"
                                                   : "locked";
  const detail::Selection sel = detail::selection(d);
  s.engine = sel.engine;
  s.reason = sel.reason;
  s.locked_by = d.locked_by;
  s.candidates = d.candidates;
  s.classes = d.classes;
  return s;
}

std::vector<EngineInfo> engines(std::string_view domain) {
  DomainCore& d = detail::find_domain(domain);
  std::lock_guard<std::mutex> guard(d.mu);
  std::vector<EngineInfo> out;
  for (const detail::Engine* e : detail::by_priority(d)) {
    EngineInfo info;
    info.name = e->spec.name;
    info.description = e->spec.description;
    info.bases = e->spec.bases;
    info.priority = e->spec.priority;
    info.origin = e->origin;
    try {
      const detail::Composition c = detail::compose(d, e->spec.name);
      for (const detail::Engine* m : c.mro) info.mro.push_back(m->spec.name);
      info.required_features = c.required;
      info.missing_features = c.missing;
      info.supported = c.missing.empty() && c.incoherent.empty();
      info.error = c.incoherent;
      for (std::size_t k = 0; k < d.candidates.size(); ++k) {
        const detail::Engine* p = c.provider[k];
        info.providers.push_back({d.candidates[k], p->spec.name});
      }
      for (std::size_t cls = 0; cls < d.classes.size(); ++cls) {
        const detail::Engine* l = c.layout[cls];
        std::string layout_name = std::string(REFERENCE);
        for (const LayoutSpec& ls : l->spec.layouts) {
          if (ls.candidate_class == d.classes[cls]) layout_name = ls.name;
        }
        info.layouts.push_back({d.classes[cls], l->spec.name, layout_name});
      }
    } catch (const CompositionError& err) {
      info.error = err.what();
      info.supported = false;
    }
    out.push_back(std::move(info));
  }
  return out;
}

void register_engine(const EngineSpec& spec) {
  DomainCore& d = detail::find_domain(spec.domain);
  std::lock_guard<std::mutex> guard(d.mu);
  d.add(detail::make_engine(d, spec, "static"));
}

}  // namespace coheriq
