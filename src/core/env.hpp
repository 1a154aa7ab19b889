// Parsers of outside input held in environment variables. Pure functions: fuzzed in tests/fuzz.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace coheriq::detail {

// Whether `value` is empty or only blanks (spaces and tabs): for every variable the same as unset.
bool blank(std::string_view value);

// The value of an engine variable (COHERIQ_ENGINE): comma-separated tokens, blanks (spaces and
// tabs) around them ignored. A token is an engine name ([A-Za-z0-9_.-]+) or "auto". An empty or
// blank value gives no tokens (the reference). Throws coheriq::Error naming `variable` on an
// empty token, UnknownEngineError on a character outside the name alphabet (no engine has it).
std::vector<std::string> parse_engine_list(std::string_view value, std::string_view variable);
// The same grammar for the argument of `function` (enable_engine), which messages name instead.
std::vector<std::string> parse_engine_argument(std::string_view value, std::string_view function);

// The value of COHERIQ_DISABLE_CPU_FEATURES: comma-separated cpu_features names, same grammar.
std::vector<std::string> parse_feature_list(std::string_view value, std::string_view variable);

// The value of COHERIQ_HOST_OVERRIDE, the test hook that makes the host look different:
// comma-separated key=value pairs, blanks around them ignored, each key at most once. Keys:
// vendor (a vendor string such as AuthenticAMD), family and model (decimal), vector_bits (0 or a
// multiple of 128), l1d and l2 (bytes, optionally with a K or M suffix: 48K, 1M). An empty or
// blank value overrides nothing. Throws coheriq::Error naming `variable` on anything else.
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
