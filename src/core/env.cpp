#include "core/env.hpp"

#include <coheriq/coheriq.hpp>

#include "core/text.hpp"

namespace coheriq::detail {
namespace {

bool is_blank(char c) { return c == ' ' || c == '\t'; }

bool is_name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '.' || c == '-';
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_blank(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_blank(s.back())) s.remove_suffix(1);
  return s;
}

std::vector<std::string> parse_list(std::string_view value, std::string_view variable,
                                    std::string_view what) {
  std::vector<std::string> tokens;
  if (trim(value).empty()) return tokens;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = value.find(',', start);
    const std::string_view raw = value.substr(
        start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
    const std::string_view token = trim(raw);
    if (token.empty()) {
      throw Error("coheriq: " + std::string(variable) + "='" + printable(value) +
                  "' has an empty " + std::string(what) + " at position " + std::to_string(start) +
                  "; write a comma-separated list such as 'avx512,avx2,reference'");
    }
    for (std::size_t i = 0; i < token.size(); ++i) {
      if (!is_name_char(token[i])) {
        throw Error("coheriq: " + std::string(variable) + "='" + printable(value) +
                    "': " + std::string(what) + " '" + printable(token) + "' contains '" +
                    printable(token.substr(i, 1)) +
                    "'; names use only letters, digits, '_', '.' and '-', separated by commas");
      }
    }
    tokens.emplace_back(token);
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return tokens;
}

}  // namespace

std::vector<std::string> parse_engine_list(std::string_view value, std::string_view variable) {
  return parse_list(value, variable, "engine name");
}

std::vector<std::string> parse_feature_list(std::string_view value, std::string_view variable) {
  return parse_list(value, variable, "feature name");
}

}  // namespace coheriq::detail
