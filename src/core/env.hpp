// Parsers of outside input: environment variables, and the lists and host requirements of engine
// lines and plugin manifests. Pure functions: fuzzed in tests/fuzz.
#pragma once

#include <coheriq/engine.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace coheriq::detail {

// Whether `value` is empty or only blanks (spaces and tabs): for every variable the same as unset.
bool blank(std::string_view value);

// The value of a switch (COHERIQ_REPRODUCIBLE): "1" true, "0", empty or blank false, blanks
// around the digit ignored; nullopt for anything else.
std::optional<bool> parse_switch(std::string_view value);

// The value of an engine variable (COHERIQ_ENGINE): comma-separated tokens, blanks (spaces and
// tabs) around them ignored. A token is an engine name ([A-Za-z0-9_.-]+) or "auto". An empty or
// blank value gives no tokens (the reference). Throws coheriq::Error naming `variable` on an
// empty token, UnknownEngineError on a character outside the name alphabet (no engine has it).
std::vector<std::string> parse_engine_list(std::string_view value, std::string_view variable);
// The same grammar for the argument of `function` (enable_engine), which messages name instead.
std::vector<std::string> parse_engine_argument(std::string_view value, std::string_view function);

// The value of COHERIQ_DISABLE_CPU_FEATURES: comma-separated cpu_features names, same grammar.
std::vector<std::string> parse_feature_list(std::string_view value, std::string_view variable);

// A count (COHERIQ_NUM_THREADS, a tool's --threads): decimal digits only, no sign, blanks or
// exponent, at least 1 and at most `max`. Sets `out` when it is one; says which rule failed
// otherwise (a value of any length above `max` is too_large, not malformed).
enum class CountStatus { ok, not_positive_integer, too_large };
CountStatus parse_count(std::string_view text, std::size_t max, std::size_t& out);

// A size in bytes: decimal digits, optionally followed by K or M (binary multiples: 48K, 1M), at
// most 2^40; nullopt for anything else. The sizes of host requirements and COHERIQ_HOST_OVERRIDE,
// and of the kernel's description of the caches (sysfs: "48K").
std::optional<std::size_t> parse_size(std::string_view text);

// Host requirements beyond feature bits, as an engine states them: an engine line's HOST
// (cmake/CoheriqEngines.cmake) and a plugin manifest's `host` key. Comma-separated key=value
// items, blanks around them ignored, each key at most once, every one optional; the keys are the
// fields of coheriq::HostRequirements: vendor (a vendor string), families (decimal CPU family
// numbers separated by '|'), min_vector_bits, min_l1d_bytes and min_l2_bytes (digits, optionally
// followed by K or M). Fills `out` and returns empty, or returns what is wrong (`out` untouched).
std::string parse_host_requirements(std::string_view value, HostRequirements& out);

// The value of COHERIQ_HOST_OVERRIDE, the test hook that makes the host look different: items
// in the grammar of parse_host_requirements, whose keys are the fields of coheriq::HostInfo it
// replaces (a requirement's key is min_ and the same name): vendor (a vendor string such as
// AuthenticAMD), family and model (decimal), vector_bits (0 or a multiple of 128), l1d_bytes and
// l2_bytes (digits, optionally with a K or M suffix: 48K, 1M). An empty or blank value overrides
// nothing. Throws coheriq::Error naming `variable` on anything else.
struct HostOverride {
  std::optional<std::string> vendor;
  std::optional<int> family;
  std::optional<int> model;
  std::optional<std::size_t> vector_bits;
  std::optional<std::size_t> l1d_bytes;
  std::optional<std::size_t> l2_bytes;
};
HostOverride parse_host_override(std::string_view value, std::string_view variable);

}  // namespace coheriq::detail
