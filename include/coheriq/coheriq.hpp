// Coheriq: the user API of the runtime dispatch framework.
//
// A domain (a library) marks functions and data-container classes as acceleration candidates;
// engines override some of them; the user enables one engine per domain, once, before first use.
// This header is what a user needs: enabling, introspection and the error types.
// Authoring lives in <coheriq/domain.hpp> (domains) and <coheriq/engine.hpp> (engines).
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace coheriq {

// The engine every domain has: its own reference implementation. (Not `inline`: a constant of
// each translation unit, so that no binary exports it to another; docs/decisions.md.)
constexpr std::string_view REFERENCE = "reference";

// ------------------------------ Errors
// Every message starts with "coheriq:", names what was wrong and says what to do.
// A call that throws leaves the domain exactly as it was.

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};
// No domain of that name is materialized in this process.
class UnknownDomainError : public Error {
 public:
  using Error::Error;
};
// No engine of that name in the domain; the message lists the known ones, the plugin manifests
// that could not be read, and where plugin engines are looked for (COHERIQ_ENGINE_PATH).
class UnknownEngineError : public Error {
 public:
  using Error::Error;
};
// The host lacks CPU features or other properties the engine needs (vendor, family, vector
// length, cache sizes), or no entry of the env var's list can be used; the message names what is
// missing and the engines this host supports.
class UnsupportedEngineError : public Error {
 public:
  using Error::Error;
};
// A different engine was enabled, or the domain was used already; the message names the
// engine in effect and the candidate whose first use locked it.
class EngineLockedError : public Error {
 public:
  using Error::Error;
};
// Missing, cyclic or non-linearizable bases, or an incoherent layout.
class CompositionError : public Error {
 public:
  using Error::Error;
};
// A plugin manifest that does not parse, a library that does not load, an ABI mismatch.
class PluginError : public Error {
 public:
  using Error::Error;
};

// ------------------------------ Introspection

struct EngineInfo {
  struct Provider {
    std::string candidate;  // candidate function name, e.g. "dot.f32"
    std::string engine;     // first engine of the MRO that overrides it
  };
  struct Layout {
    std::string candidate_class;  // e.g. "PackedMatrix<float>"
    std::string engine;           // first engine of the MRO that defines a layout for it
    std::string name;             // that engine's name for the layout
  };

  std::string name;
  std::string description;
  std::vector<std::string> bases;              // as declared
  std::vector<std::string> mro;                // C3 order: the engine first, "reference" last
  std::vector<std::string> required_features;  // cpu_features names, union over the MRO
  std::vector<std::string> missing_features;   // those this host lacks
  std::vector<std::string> missing_host;       // host properties required and absent, e.g.
                                               // "vendor AuthenticAMD (this host: GenuineIntel)"
  bool supported = false;                      // composes, and nothing is missing
  int priority = 0;                            // higher wins under "auto"
  std::string origin;                          // "builtin", "static" or "plugin:<manifest path>"
  std::vector<Provider> providers;             // one per candidate function, in domain order
  std::vector<Layout> layouts;                 // one per candidate class, in domain order
  bool reproducible = false;  // every engine of its MRO honours the reproducible mode
  std::string error;  // why the engine does not compose (a CompositionError message), or empty
};

// What a domain would run and why. Never locks.
struct DomainStatus {
  std::string domain;
  std::string env_var;                  // the variable the domain opted into, or empty
  std::string abi;                      // what a plugin's manifest must say (`abi = ...`)
  std::string state;                    // "open", "chosen" (enabled, not used yet) or "locked"
  std::string engine;                   // in effect now, or at first use
  std::string reason;                   // "enable_engine", "COHERIQ_ENGINE=auto", "default", ...
  std::string locked_by;                // the candidate whose first use locked the domain, or empty
  std::vector<std::string> candidates;  // candidate functions, in domain order
  std::vector<std::string> classes;     // candidate classes, in domain order
  // The reproducible mode: the variable the domain opted into (empty when it has no mode), and
  // whether the mode is on now or will be at first use.
  std::string reproducible_env_var;
  bool reproducible = false;
};

// The host as the framework sees it (after COHERIQ_DISABLE_CPU_FEATURES and the test hook
// COHERIQ_HOST_OVERRIDE, docs/user-guide.md).
struct HostInfo {
  std::string arch;                   // "x86_64", "aarch64", ...
  std::string brand;                  // CPU brand string where the CPU reports one
  std::vector<std::string> features;  // cpu_features names present, sorted
  std::vector<std::string> disabled;  // names removed by COHERIQ_DISABLE_CPU_FEATURES
  std::string vendor;                 // cpu_features vendor string ("AuthenticAMD", ...)
  int family = 0;                     // x86: CPU family; aarch64: implementer
  int model = 0;                      // x86: CPU model; aarch64: part number
  std::size_t vector_bits = 0;        // scalable vector length (SVE), 0 when fixed-width
  std::size_t l1d_bytes = 0;          // per core, 0 when unknown
  std::size_t l2_bytes = 0;           // per core, 0 when unknown
};

// ------------------------------ User API

// Enables `engine` for `domain`, process-wide and one-way. Must happen before the first use of
// any candidate of the domain. `engine` takes what the domain's variable takes: a name, "auto" or
// a comma-separated list ("avx512,avx2"), with the variable's errors; a list is chosen now, as
// the variable's is at first use, and the engine it chose is then fixed. Asking again for the
// engine in effect (its name, or a list that chooses it) is a no-op.
void enable_engine(std::string_view domain, std::string_view engine);

// The engine in effect now, or the one the first use will lock to (a plugin engine the variable
// would pick is probed: its library loaded, as the first use would). Never locks. May throw the
// errors of the domain's environment variable when that decides.
std::string active_engine(std::string_view domain);

// Turns on the domain's reproducible mode, process-wide and one-way, like enable_engine: every
// candidate then gives bitwise the same results on every engine that honours the mode (and every
// thread count), and engines that do not are refused. Must happen before the first use; the
// domain's variable (COHERIQ_REPRODUCIBLE=1 for the kernels) does the same at start-up. Throws
// Error when the domain has no such mode, EngineLockedError once the domain is locked with the
// mode off, and the engine's errors when the engine enabled already does not honour the mode
// (nothing changes then). Calling it again is a no-op.
void enable_reproducible(std::string_view domain);
// Whether the mode is on, or will be at the first use (enable_reproducible, else the variable).
// Never locks. Throws Error when the variable's value is neither 0 nor 1.
bool reproducible(std::string_view domain);
// Whether the first use happened. Never locks.
bool is_locked(std::string_view domain);

// Names of the domains materialized in this process, sorted. Before main (in a global
// constructor) a domain may not have registered itself yet: use its typed API there
// (coheriq::enable_engine<Domain>, or the domain's own enable_engine), which registers it first.
std::vector<std::string> domains();

// Every engine of the domain, highest priority first. Never locks, never loads a plugin.
std::vector<EngineInfo> engines(std::string_view domain);

// The domain's state, engine and the reason for it (as active_engine decides it). Never locks.
DomainStatus status(std::string_view domain);

// The host CPU and its features. Throws Error when COHERIQ_DISABLE_CPU_FEATURES or
// COHERIQ_HOST_OVERRIDE is malformed.
HostInfo host();

}  // namespace coheriq
