// libFuzzer target for the parsers of coheriq's environment variables (src/core/env.hpp).
//
// Each input is parsed as an engine list and as a feature list and checked against an
// independent model of the grammar (docs/api.md): comma-separated tokens, spaces and tabs
// around them ignored, every token non-empty and made of [A-Za-z0-9_.-]; a blank value is the
// empty list. The parser must accept exactly what the model accepts, return exactly the model's
// tokens, and reject everything else with a coheriq::Error whose message starts with "coheriq:"
// and names the variable. Each input is also read as a switch (COHERIQ_REPRODUCIBLE), which must
// give exactly what the switch's model gives: "1" on; "0", empty or blank off, blanks around the
// digit ignored; nothing for any other value. Any other outcome aborts, which libFuzzer reports as
// a crash.
#include <coheriq/coheriq.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/env.hpp"

namespace {

bool is_blank(char c) { return c == ' ' || c == '\t'; }

bool is_name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '.' || c == '-';
}

// The grammar, written independently of the parser: the tokens, or nothing when invalid.
std::optional<std::vector<std::string>> model(std::string_view value) {
  std::vector<std::string> fields(1);
  for (char c : value) {
    if (c == ',') {
      fields.emplace_back();
    } else {
      fields.back() += c;
    }
  }
  std::vector<std::string> tokens;
  for (std::string& field : fields) {
    std::size_t first = 0;
    std::size_t last = field.size();
    while (first < last && is_blank(field[first])) ++first;
    while (last > first && is_blank(field[last - 1])) --last;
    tokens.push_back(field.substr(first, last - first));
  }
  if (tokens.size() == 1 && tokens[0].empty()) return std::vector<std::string>{};  // blank
  for (const std::string& token : tokens) {
    if (token.empty()) return std::nullopt;
    for (char c : token) {
      if (!is_name_char(c)) return std::nullopt;
    }
  }
  return tokens;
}

[[noreturn]] void fail(const char* what, std::string_view input, const std::string& detail) {
  std::fprintf(stderr, "%s\ninput (%zu bytes): '", what, input.size());
  for (unsigned char c : input) {
    if (c >= 0x20 && c < 0x7f) {
      std::fputc(c, stderr);
    } else {
      std::fprintf(stderr, "\\x%02x", c);
    }
  }
  std::fprintf(stderr, "'\n%s\n", detail.c_str());
  std::abort();
}

// The switch, written independently of parse_switch.
std::optional<bool> switch_model(std::string_view value) {
  std::size_t first = 0;
  std::size_t last = value.size();
  while (first < last && is_blank(value[first])) ++first;
  while (last > first && is_blank(value[last - 1])) --last;
  const std::string_view digit = value.substr(first, last - first);
  if (digit.empty() || digit == "0") return false;
  if (digit == "1") return true;
  return std::nullopt;
}

void check_switch(std::string_view input) {
  const std::optional<bool> expected = switch_model(input);
  const std::optional<bool> got = coheriq::detail::parse_switch(input);
  if (got != expected) {
    const auto text = [](const std::optional<bool>& v) {
      return std::string(!v ? "nothing" : *v ? "on" : "off");
    };
    fail("wrong switch value", input, "got " + text(got) + ", expected " + text(expected));
  }
}

using Parser = std::vector<std::string> (*)(std::string_view, std::string_view);

void check(Parser parse, std::string_view variable, std::string_view input) {
  const std::optional<std::vector<std::string>> expected = model(input);
  try {
    const std::vector<std::string> tokens = parse(input, variable);
    if (!expected) fail("accepted an invalid value", input, "");
    if (tokens != *expected) {
      std::string detail = "tokens:";
      for (const std::string& t : tokens) detail += " '" + t + "'";
      detail += "; expected:";
      for (const std::string& t : *expected) detail += " '" + t + "'";
      fail("wrong tokens", input, detail);
    }
  } catch (const coheriq::Error& e) {
    const std::string_view message = e.what();
    if (expected) fail("rejected a valid value", input, e.what());
    if (message.rfind("coheriq:", 0) != 0)
      fail("message does not start with coheriq:", input, e.what());
    if (message.find(variable) == std::string_view::npos) {
      fail("message does not name the variable", input, e.what());
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  check(&coheriq::detail::parse_engine_list, "COHERIQ_ENGINE", input);
  check(&coheriq::detail::parse_feature_list, "COHERIQ_DISABLE_CPU_FEATURES", input);
  check_switch(input);
  return 0;
}
