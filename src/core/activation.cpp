// The activation contract: OPEN -> CHOSEN(e) -> LOCKED(e), or OPEN -> LOCKED(e) at the first use;
// one-way, process-wide, one engine per domain; a failed call changes nothing (docs/design.md).
#include <cstdio>
#include <cstdlib>

#include "core/core.hpp"
#include "core/messages.hpp"

namespace coheriq::detail {
namespace {

std::string describe_lock(const DomainCore& d) {
  std::string s = "engine '" + d.engine + "' is in effect (" + d.reason;
  if (d.state == DomainCore::State::locked) {
    s += "; locked by the first use of " + d.locked_by;
  } else {
    s += "; enabled, not used yet";
  }
  return s + ")";
}

// Throws UnsupportedEngineError naming what is missing and what this host supports.
void check_supported(DomainCore& d, const Composition& c, std::string_view engine) {
  if (c.host_ok()) return;
  throw UnsupportedEngineError("coheriq: " + engine_of(d, engine) +
                               " is not supported on this host: missing " + missing_of(c) + ". " +
                               host_supports(d) + "; enable one of those, or 'auto'");
}

// Composes `engine`, checks the host, then loads its plugins (never before the host check).
Composition prepare(DomainCore& d, std::string_view engine) {
  Composition c = compose_coherent(d, engine);
  check_supported(d, c, engine);
  return load_plugins(d, c) ? compose_coherent(d, engine) : c;
}

// With COHERIQ_LOG=info: the engines the variable's list passed over and why, then the lock.
void log_lock(const DomainCore& d, const std::vector<std::string>& passed_over) {
  const char* level = std::getenv("COHERIQ_LOG");
  if (level == nullptr || std::string_view(level) != "info") return;
  for (const std::string& p : passed_over) {
    std::fprintf(stderr, "coheriq: %s: %s passed over %s\n", d.name.c_str(), d.reason.c_str(),
                 p.c_str());
  }
  // An explicit choice beats the variable: say so, or the log reads as if it had been honoured.
  std::string ignored;
  if (d.reason == "enable_engine" && !d.desc.env_var.empty()) {
    const char* value = std::getenv(std::string(d.desc.env_var).c_str());
    if (value != nullptr && *value != '\0') {
      ignored = "; " + std::string(d.desc.env_var) + "=" + printable(value) + " ignored";
    }
  }
  std::fprintf(stderr, "coheriq: %s locked to %s (%s%s; first use: %s)\n", d.name.c_str(),
               d.engine.c_str(), d.reason.c_str(), ignored.c_str(), d.locked_by.c_str());
}

// Installs the composed table into every slot, then marks the domain locked.
void lock(DomainCore& d, const std::string& engine, std::string reason, std::string first_use,
          const std::vector<std::string>& passed_over) {
  const Composition c = prepare(d, engine);
  std::vector<const void*> functions;
  for (std::size_t k = 0; k < d.candidates.size(); ++k) {
    functions.push_back(c.provider[k]->function[k]);
  }
  d.install(std::move(functions));
  d.state = DomainCore::State::locked;
  d.engine = engine;
  d.reason = std::move(reason);
  d.locked_by = std::move(first_use);
  d.locked.store(true, std::memory_order_release);
  log_lock(d, passed_over);
}

void settle(DomainCore& d, const std::string& first_use) {
  if (d.locked.load(std::memory_order_acquire)) return;
  std::lock_guard<std::mutex> guard(d.mu);
  if (d.state == DomainCore::State::locked) return;
  Selection s = selection(d, true);
  lock(d, s.engine, std::move(s.reason), first_use, s.passed_over);
}

}  // namespace

bool load_plugins(DomainCore& d, const Composition& c) {
  bool loaded = false;
  for (const Engine* e : c.mro) {
    if (e->loader) {
      d.load(*e);
      loaded = true;
    }
  }
  return loaded;
}

void enable(DomainCore& d, std::string_view engine) {
  if (d.state != DomainCore::State::open) {
    if (d.engine == engine) return;  // re-enabling the engine in effect is harmless
    throw EngineLockedError(
        "coheriq: cannot enable engine '" + printable(engine) + "' in domain '" + d.name +
        "': " + describe_lock(d) +
        ". The choice is one-way: enable the engine once, before the first use, or choose it "
        "with " +
        (d.desc.env_var.empty() ? std::string("enable_engine") : std::string(d.desc.env_var)) +
        " at start-up");
  }
  (void)prepare(d, engine);
  d.state = DomainCore::State::chosen;
  d.engine = std::string(engine);
  d.reason = "enable_engine";
}

void settle_function(DomainCore& d, std::size_t candidate) { settle(d, d.candidates[candidate]); }

void settle_class(DomainCore& d, std::size_t candidate_class) {
  if (d.locked.load(std::memory_order_acquire)) return;
  settle(d, d.classes[candidate_class] + " construction");
}

}  // namespace coheriq::detail
