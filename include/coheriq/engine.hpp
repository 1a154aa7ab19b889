// Coheriq engine authoring.
//
// An engine is described by baseline code (an EngineSpec: name, bases, CPU requirements, layouts)
// and implemented by constant data (an OverrideTable) that points at its kernels. The table is
// constant-initialized, so reading it runs no code of the engine: listing an engine is safe on any
// host, and the engine's kernels are first called after the host check passed.
#pragma once

#include <coheriq/coheriq.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace coheriq {

// One overridden candidate: its name and the address of a typed function pointer.
struct Override {
  std::string_view candidate;
  const void* function;  // points to a `typename Candidate::pointer`
};

struct OverrideTable {
  const Override* entries;
  std::size_t size;
};

// The framework's templates that hold state (a domain's slots, its registration) or addresses
// are local to the binary that instantiates them: hidden visibility, so that two binaries that
// each link a static copy of a domain (two Python extensions, say) never bind to each other's
// copy. GCC would otherwise make them STB_GNU_UNIQUE symbols, which the dynamic linker binds
// process-wide even across dlopen(RTLD_LOCAL) (docs/decisions.md, "Static copies").
#if defined(__GNUC__) || defined(__clang__)
#define COHERIQ_LOCAL_TO_BINARY __attribute__((visibility("hidden")))
#else
#define COHERIQ_LOCAL_TO_BINARY
#endif

namespace detail {
template <class Candidate, typename Candidate::pointer F>
inline constexpr typename Candidate::pointer function_holder COHERIQ_LOCAL_TO_BINARY = F;
}  // namespace detail

// The override entry for `Candidate` implemented by `F`. A function whose signature differs from
// the candidate's does not compile. Use it in a constexpr array:
//   constexpr coheriq::Override overrides[] = {coheriq::implement<cand::dot_f32, &dot>()};
template <class Candidate, typename Candidate::pointer F>
constexpr Override implement() noexcept {
  return Override{Candidate::name, &detail::function_holder<Candidate, F>};
}

template <std::size_t N>
constexpr OverrideTable table_of(const Override (&entries)[N]) noexcept {
  return OverrideTable{entries, N};
}

// A candidate class's layout as an engine defines it.
struct LayoutSpec {
  std::string candidate_class;  // the class's candidate name, e.g. "PackedMatrix<float>"
  std::string name;             // the engine's name for its layout
  // Its name in the reproducible mode, where that differs ("": the same name). Initialized, so
  // that {class, name} stays a complete initializer under -Wmissing-field-initializers.
  std::string reproducible_name = {};
};

// What an engine needs of the host beyond feature bits (only this engine's own; the framework
// takes the union over the MRO). Every field left at its default accepts any host.
struct HostRequirements {
  std::string vendor;               // cpu_features vendor string, e.g. "AuthenticAMD"
  std::vector<int> families;        // CPU family numbers accepted (x86 family, aarch64 implementer)
  std::size_t min_vector_bits = 0;  // scalable vectors (SVE): at least this run-time length
  std::size_t min_l1d_bytes = 0;    // per core
  std::size_t min_l2_bytes = 0;     // per core
};

struct EngineSpec {
  std::string domain;
  std::string name;
  std::string description;
  std::vector<std::string> bases;              // empty means {"reference"}
  std::vector<std::string> required_features;  // cpu_features names (only this engine's own)
  HostRequirements host;                       // beyond feature bits (vendor, vector length, ...)
  int priority = 0;                            // higher wins under "auto"
  std::vector<LayoutSpec> layouts;             // the candidate classes whose layout it changes
  const OverrideTable* overrides = nullptr;    // its kernels; may be empty
  // Its kernels in the domain's reproducible mode (docs/api.md), which follow the domain's
  // canonical order of operations, or nullptr: the engine does not honour the mode, and is
  // refused while the mode is on. Engines whose `overrides` already follow it pass the same
  // table; an engine that honours the mode with its bases' kernels passes an empty one.
  const OverrideTable* reproducible = nullptr;
};

// Registers a third-party engine linked into the application. Call it before the domain's first
// use if the engine is to be enabled. Throws UnknownDomainError, or CompositionError when the
// spec names a candidate or class the domain does not have, a required feature cpu_features does
// not know on this architecture (the message lists the valid names), or an engine name already
// taken.
void register_engine(const EngineSpec& spec);

// ------------------------------ Plugin engines
// A plugin is a shared object exporting one constant PluginEngine (use COHERIQ_PLUGIN_ENGINE),
// described by a manifest (docs/engine-guide.md). It is loaded only when its engine, or one that
// inherits it, is enabled on a host that has its required features.

constexpr std::uint32_t plugin_abi_version = 1;  // not `inline`: no binary exports it

struct PluginEngine {
  std::uint32_t abi_version;       // plugin_abi_version when the plugin was built
  const char* domain_abi;          // the domain's `abi` when the plugin was built
  const char* name;                // the engine's name; must match the manifest
  const OverrideTable* overrides;  // its kernels
};

}  // namespace coheriq

// Defines the plugin's exported engine: COHERIQ_PLUGIN_ENGINE(coheriq::kernels::Domain, "mine",
// overrides), `overrides` the plugin's OverrideTable
#define COHERIQ_PLUGIN_ENGINE(Domain, engine_name, override_table) \
  extern "C" __attribute__((visibility("default")))                \
  const ::coheriq::PluginEngine coheriq_plugin_engine = {          \
      ::coheriq::plugin_abi_version, (Domain::abi).data(), engine_name, &(override_table)}
