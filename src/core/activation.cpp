// The activation contract: OPEN -> CHOSEN(e) -> LOCKED(e), or OPEN -> LOCKED(e) at the first use;
// one-way, process-wide, one engine per domain; a failed call changes nothing (docs/design.md).
#include <cstdio>
#include <cstdlib>

#include "core/core.hpp"
#include "core/env.hpp"
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

// With COHERIQ_LOG=info: the engines the list (the variable's or enable_engine's) passed over and
// why, then the lock.
void log_lock(const DomainCore& d, const std::vector<std::string>& passed_over) {
  const char* level = std::getenv("COHERIQ_LOG");
  if (level == nullptr || std::string_view(level) != "info") return;
  for (const std::string& p : passed_over) {
    std::fprintf(stderr, "coheriq: %s: %s passed over %s\n", d.name.c_str(), d.reason.c_str(),
                 p.c_str());
  }
  // An explicit choice beats the variable: say so, or the log reads as if it had been honoured.
  std::string ignored;
  if (d.reason.rfind("enable_engine", 0) == 0 && !d.desc.env_var.empty()) {
    const char* value = std::getenv(std::string(d.desc.env_var).c_str());
    if (value != nullptr && !blank(value)) {
      ignored = "; " + std::string(d.desc.env_var) + "=" + printable(value) + " ignored";
    }
  }
  const std::string mode =
      d.reproducible_locked ? "; reproducible mode (" + reproducible_setting(d) + ")" : "";
  std::fprintf(stderr, "coheriq: %s locked to %s (%s%s%s; first use: %s)\n", d.name.c_str(),
               d.engine.c_str(), d.reason.c_str(), ignored.c_str(), mode.c_str(),
               d.locked_by.c_str());
}

// Installs the composed table into every slot, then marks the domain locked.
void lock(DomainCore& d, const std::string& engine, std::string reason, std::string first_use,
          const std::vector<std::string>& passed_over) {
  const Composition c = prepare(d, engine);
  std::vector<const void*> functions;
  for (std::size_t k = 0; k < d.candidates.size(); ++k) {
    const Engine& p = *c.provider[k];
    functions.push_back(c.reproducible ? p.reproducible_function[k] : p.function[k]);
  }
  d.install(std::move(functions));
  d.reproducible_locked = c.reproducible;
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
  if (d.desc.check_settings != nullptr) d.desc.check_settings();  // throws: nothing locked
  (void)reproducible_mode(d);                                     // the same for its variable
  Selection s = selection(d);
  if (d.state == DomainCore::State::chosen) s.passed_over = d.passed_over;  // by enable_engine
  lock(d, s.engine, std::move(s.reason), first_use, s.passed_over);
}

// enable_engine's argument in the variable's grammar: a name, or a list with "auto".
std::vector<std::string> requested(DomainCore& d, std::string_view engine) {
  std::vector<std::string> tokens = parse_engine_argument(engine, "enable_engine");
  if (tokens.empty()) {
    throw UnknownEngineError("coheriq: enable_engine('" + printable(engine) +
                             "') names no engine in domain '" + d.name + "'; " +
                             known_engines(d, true) + ". Pass one of them, a comma-separated " +
                             "list of them, or 'auto'");
  }
  return tokens;
}

Request request_of(const std::vector<std::string>& tokens) {
  return {"enable_engine(" + quoted(join(tokens, ",")) + ")", "the list passed to enable_engine"};
}

// Whether `engine` asks for the engine in effect: the same name, or a list that would choose it.
bool asks_for_engine_in_effect(DomainCore& d, std::string_view engine) {
  if (engine == d.engine) return true;
  try {
    const std::vector<std::string> tokens = requested(d, engine);
    if (tokens.size() == 1 && tokens[0] != "auto") return tokens[0] == d.engine;
    return choose(d, tokens, request_of(tokens), false).engine == d.engine;
  } catch (const Error&) {  // a list that cannot be used asks for something else
    return false;
  }
}

// The value of the domain's mode variable: true for "1", false for "0", blank or unset.
bool reproducible_variable(const DomainCore& d) {
  if (d.desc.reproducible_env_var.empty()) return false;
  const std::string var(d.desc.reproducible_env_var);
  const char* value = std::getenv(var.c_str());
  if (value == nullptr) return false;
  if (const std::optional<bool> on = parse_switch(value)) return *on;
  throw Error("coheriq: " + var + "=" + printable(value) +
              " is neither 0 nor 1; set it to 1 for the reproducible mode of domain '" + d.name +
              "', or to 0 (or unset it) for the fastest order of each engine");
}

}  // namespace

bool reproducible_mode(DomainCore& d) {
  if (d.state == DomainCore::State::locked) return d.reproducible_locked;
  if (d.reproducible_enabled) return true;
  return reproducible_variable(d);
}

std::string reproducible_setting(const DomainCore& d) {
  if (d.reproducible_enabled) return "enable_reproducible";
  return std::string(d.desc.reproducible_env_var) + "=1";
}

void enable_reproducible(DomainCore& d) {
  if (d.desc.reproducible_env_var.empty()) {
    throw Error("coheriq: domain '" + d.name +
                "' has no reproducible mode; its results follow the engine in effect");
  }
  if (d.state == DomainCore::State::locked) {
    if (d.reproducible_locked) return;
    throw EngineLockedError(
        "coheriq: cannot turn on the reproducible mode of domain '" + d.name +
        "': " + describe_lock(d) +
        " with the mode off. The mode is settled with the engine: call enable_reproducible "
        "before the first use, or set " +
        std::string(d.desc.reproducible_env_var) + "=1 at start-up");
  }
  if (d.reproducible_enabled) return;
  d.reproducible_enabled = true;
  if (d.state == DomainCore::State::chosen) {
    // The engine enabled already must honour the mode; if not, nothing changes.
    try {
      (void)prepare(d, d.engine);
    } catch (...) {
      d.reproducible_enabled = false;
      throw;
    }
  }
}

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
    if (asks_for_engine_in_effect(d, engine)) return;  // re-enabling it is harmless
    throw EngineLockedError(
        "coheriq: cannot enable engine '" + printable(engine) + "' in domain '" + d.name +
        "': " + describe_lock(d) +
        ". The choice is one-way: enable the engine once, before the first use, or choose it "
        "with " +
        (d.desc.env_var.empty() ? std::string("enable_engine") : std::string(d.desc.env_var)) +
        " at start-up");
  }
  const std::vector<std::string> tokens = requested(d, engine);
  if (tokens.size() == 1 && tokens[0] != "auto") {  // one name: its own errors, as named
    (void)prepare(d, tokens[0]);
    d.state = DomainCore::State::chosen;
    d.engine = tokens[0];
    d.reason = "enable_engine";
    d.passed_over.clear();
    return;
  }
  // A list: chosen now as the variable's list is at first use (plugins probed), then fixed.
  Selection s = choose(d, tokens, request_of(tokens), true);
  (void)prepare(d, s.engine);
  d.state = DomainCore::State::chosen;
  d.engine = std::move(s.engine);
  d.reason = std::move(s.reason);
  d.passed_over = std::move(s.passed_over);
}

void settle_function(DomainCore& d, std::size_t candidate) { settle(d, d.candidates[candidate]); }

void settle_class(DomainCore& d, std::size_t candidate_class) {
  if (d.locked.load(std::memory_order_acquire)) return;
  settle(d, d.classes[candidate_class] + " construction");
}

}  // namespace coheriq::detail
