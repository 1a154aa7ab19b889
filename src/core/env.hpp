// Parsers of outside input held in environment variables. Pure functions: fuzzed in tests/fuzz.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace coheriq::detail {

// The value of an engine variable (COHERIQ_ENGINE): comma-separated tokens, blanks (spaces and
// tabs) around them ignored. A token is an engine name ([A-Za-z0-9_.-]+) or "auto". An empty or
// blank value gives no tokens (the reference). Throws coheriq::Error naming `variable` on an
// empty token or a character outside the name alphabet.
std::vector<std::string> parse_engine_list(std::string_view value, std::string_view variable);

// The value of COHERIQ_DISABLE_CPU_FEATURES: comma-separated cpu_features names, same grammar.
std::vector<std::string> parse_feature_list(std::string_view value, std::string_view variable);

}  // namespace coheriq::detail
