// The framework's internals: the domain registry, composition and activation state.
#pragma once

#include <coheriq/coheriq.hpp>
#include <coheriq/domain.hpp>
#include <coheriq/engine.hpp>

#include "core/host.hpp"
#include "core/text.hpp"

#include <atomic>
#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace coheriq::detail {

// An engine registered in a domain, its spec normalized (bases filled in) and its overrides
// indexed by candidate.
struct Engine {
  EngineSpec spec;
  std::string origin;                 // "builtin", "static", "plugin:<manifest>"
  std::vector<const void*> function;  // per candidate: the override, or nullptr
  // The same in the reproducible mode, when the engine honours it (spec.reproducible, or a
  // plugin manifest's `reproducible = yes`: then its `function`).
  std::vector<const void*> reproducible_function;
  bool honours_reproducible = false;
  std::vector<bool> defines_layout;     // per candidate class
  std::function<void(Engine&)> loader;  // plugins: fills `function` when first needed
  std::string refusal;                  // why it can never be enabled (plugin ABI, a manifest that
                                        // does not parse), or empty
};

// An engine composed with its bases.
struct Composition {
  std::vector<const Engine*> mro;         // the engine first, reference last
  std::vector<const Engine*> provider;    // per candidate
  std::vector<const Engine*> layout;      // per candidate class: first MRO engine defining one
  std::vector<std::string> required;      // sorted union over the MRO
  std::vector<std::string> missing;       // required features this host lacks
  std::vector<std::string> missing_host;  // host requirements (vendor, sizes, ...) it does not meet
  std::string incoherent;                 // why it cannot be enabled (coherence, plugin ABI,
                                          // the reproducible mode)
  bool reproducible = false;              // composed with the mode's tables

  // The host runs it: nothing required is missing (coherence is checked separately).
  bool host_ok() const { return missing.empty() && missing_host.empty(); }
};

class DomainCore {
 public:
  explicit DomainCore(const DomainDesc& desc);

  // ------------------------------ Description (immutable after construction)
  const DomainDesc& desc;  // the first copy registered: names, env var, reference, built-ins
  std::string name;
  std::vector<std::string> candidates;
  std::vector<std::string> classes;
  std::vector<std::vector<std::size_t>> touches;  // per candidate: class indices

  std::size_t candidate_index(std::string_view candidate) const;  // npos when unknown
  std::size_t class_index(std::string_view candidate_class) const;

  // ------------------------------ State (guarded by mu)
  enum class State { open, chosen, locked };
  std::mutex mu;
  State state = State::open;
  std::string engine;                    // chosen or locked engine
  std::string reason;                    // why that engine
  std::string locked_by;                 // the first use that locked
  std::vector<std::string> passed_over;  // what enable_engine's list passed over, for the log
  bool reproducible_enabled = false;     // enable_reproducible was called
  bool reproducible_locked = false;      // the mode the lock settled
  std::atomic<bool> locked{false};
  std::vector<std::unique_ptr<Engine>> engines;  // reference first; builtins added lazily
  bool builtins_added = false;
  bool plugins_added = false;
  std::vector<std::string> broken_manifests;  // plugins: why each unreadable manifest was refused
  // Every binary's copy of the slots (domain.hpp keeps them local to the binary that calls the
  // domain: the library, and an application that calls coheriq::enable_engine<Domain>), and, once
  // locked, the function installed in each slot, for a copy registered later.
  std::vector<const DomainDesc*> copies;
  std::vector<const void*> installed;

  // Every registered engine, built-ins included (adds them on first call). Needs mu.
  const std::vector<std::unique_ptr<Engine>>& all_engines();
  const Engine* find(std::string_view engine_name);  // needs mu; nullptr when unknown
  std::vector<std::string> engine_names();           // needs mu; priority order
  void add(std::unique_ptr<Engine> engine);          // needs mu; validates
  // Needs mu. Loads a plugin once; a library that does not load (PluginError) is remembered as
  // the engine's refusal, so that every later selection and listing passes it over alike.
  void load(const Engine& engine);
  // Needs mu. Adds a binary's copy of the description (throws CompositionError when its
  // candidates differ); installs `installed` into it when locked.
  void adopt(const DomainDesc& copy);
  void install(std::vector<const void*> functions);  // needs mu; into every copy
};

inline constexpr std::size_t npos = static_cast<std::size_t>(-1);

// ------------------------------ Domain registry (domains.cpp)
DomainCore& find_domain(std::string_view domain);  // throws UnknownDomainError
std::vector<std::string> domain_names();           // sorted

// ------------------------------ Spec validation (spec.cpp)
// An engine of `d` from its spec; throws CompositionError when the spec names unknown candidates.
std::unique_ptr<Engine> make_engine(DomainCore& d, const EngineSpec& spec, std::string origin);

// ------------------------------ Selection (selection.cpp); needs the domain's mu
struct Selection {
  std::string engine;
  std::string reason;
  std::vector<std::string> passed_over;  // "'x': why" for every engine the choice passed over
};
std::vector<const Engine*> by_priority(DomainCore& d);  // highest priority first
// The engines this host can run, highest priority first: for the remedy of an error message.
std::vector<std::string> supported_engines(DomainCore& d);
// A list of engine names and "auto" (the grammar of an engine variable), as one source gave it:
// `setting` names it in messages and reasons ("COHERIQ_ENGINE=auto", "enable_engine('auto')"),
// `target` is what the user fixes ("COHERIQ_ENGINE", "the list passed to enable_engine").
struct Request {
  std::string setting;
  std::string target;
};
// The first entry of the list this host can use, "auto" standing for every engine in priority
// order; each engine passed over is in `passed_over` with the reason. Throws UnknownEngineError
// for a token that names no engine (wherever it is), the host's errors (a malformed
// COHERIQ_DISABLE_CPU_FEATURES is never a reason to pass an engine over), and
// UnsupportedEngineError listing every reason when nothing can be used. With `probe`, a plugin
// engine is taken only once its library loads (as the first use would load it); one that does not
// load is passed over, and remembered as refused (DomainCore::load). Without, nothing is loaded.
Selection choose(DomainCore& d, const std::vector<std::string>& tokens, const Request& request,
                 bool probe);
// What is in effect or would be at first use: the explicit choice, else the env var's list (chosen
// with probing, so that introspection and the first use agree), else the reference.
Selection selection(DomainCore& d);

// ------------------------------ Activation (activation.cpp); needs the domain's mu
// enable_engine for `d`: `engine` is a name, or a list in the grammar of the domain's variable
// ("auto", "avx512,avx2"), which is chosen now as the variable's would be at first use. Checks,
// loads plugins, then marks the engine chosen. Changes nothing on failure (beyond remembering a
// plugin library that did not load).
void enable(DomainCore& d, std::string_view engine);
// Loads the plugins of `c`'s MRO not loaded yet; returns whether it loaded any. Throws
// PluginError (the library is missing, does not load, or is not what its manifest says).
bool load_plugins(DomainCore& d, const Composition& c);

// ------------------------------ Introspection (introspection.cpp); needs the domain's mu
std::vector<EngineInfo> engine_infos(DomainCore& d);
DomainStatus domain_status(DomainCore& d);

// ------------------------------ The reproducible mode (activation.cpp); needs the domain's mu
// Whether the mode is on, or will be at the first use: what the lock settled, else
// enable_reproducible, else the domain's variable ("1" on; "0", empty or unset off; anything else
// throws Error).
bool reproducible_mode(DomainCore& d);
// What turned the mode on, for messages: "enable_reproducible" or "COHERIQ_REPRODUCIBLE=1".
std::string reproducible_setting(const DomainCore& d);
// coheriq::enable_reproducible for `d` (coheriq.hpp); changes nothing on failure.
void enable_reproducible(DomainCore& d);

// ------------------------------ Composition (composition.cpp); needs the domain's mu
// Throws UnknownEngineError or CompositionError.
// Plugins not loaded yet compose with what their manifests declare. In the reproducible mode
// (reproducible_mode) the engines' tables for it, and an engine of the MRO that does not honour
// the mode makes the composition incoherent. An incoherent composition is
// returned with `incoherent` set; compose_coherent throws it (CompositionError or PluginError).
Composition compose(DomainCore& d, std::string_view engine);
Composition compose_coherent(DomainCore& d, std::string_view engine);
// The name engine `e` gives the layout of candidate class `cls` ("reference" for the reference).
std::string layout_name(const DomainCore& d, const Engine& e, std::size_t cls, bool reproducible);

// ------------------------------ Plugins (plugin.cpp)
struct Manifest;
// Adds an engine for each manifest of domain `d` found on the plugin path. Needs mu.
void add_plugins(DomainCore& d);
// Loads the plugin's library and fills e.function. Throws PluginError.
void load_plugin(Engine& e, const Manifest& m, const DomainCore& d);

}  // namespace coheriq::detail
