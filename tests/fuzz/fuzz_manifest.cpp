// libFuzzer target for the plugin manifest parser (src/core/manifest.cpp): files found on
// COHERIQ_ENGINE_PATH are outside input.
//
// Properties: a parse either returns a manifest whose required keys are present, whose lists hold
// valid names (`requires`: names cpu_features knows), whose values carry no surrounding blanks and
// no control bytes or bytes that are not UTF-8, and whose library path is anchored at the
// manifest's directory (or absolute); or throws a coheriq::PluginError whose message names the file
// and a line that exists, holds no raw control byte and stays bounded whatever the input's length.
// Any other outcome aborts, which libFuzzer reports as a crash.
#include <coheriq/coheriq.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "core/core.hpp"
#include "core/plugin.hpp"

namespace {

constexpr std::string_view kPath = "/fuzz/engines/test.coheriq-engine";

[[noreturn]] void fail(const char* what, std::string_view detail) {
  std::fprintf(stderr, "%s: %.*s\n", what, static_cast<int>(detail.size()), detail.data());
  std::abort();
}

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

bool is_name(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '_' || c == '.' || c == '-';
    if (!ok) return false;
  }
  return true;
}

// Text printable() leaves as it is (but for doubled backslashes): no control byte but tab, no
// DEL, valid UTF-8.
bool is_clean(std::string_view text) {
  std::string untabbed(text);
  std::string expected;
  for (char& c : untabbed) {
    if (c == '\t') c = ' ';
    if (c == '\\') expected += '\\';
    expected += c;
  }
  return coheriq::detail::printable(untabbed, untabbed.size()) == expected;
}

void check_value(std::string_view what, std::string_view value) {
  if (value.empty()) fail("empty value", what);
  if (is_blank(value.front()) || is_blank(value.back())) fail("value keeps its blanks", what);
  if (!is_clean(value)) fail("value holds control bytes or is not UTF-8", what);
}

void check_names(std::string_view what, const std::vector<std::string>& names) {
  for (const std::string& name : names) {
    if (!is_name(name)) fail("invalid name in list", what);
  }
}

void check_manifest(const coheriq::detail::Manifest& m) {
  if (m.path != kPath) fail("path not kept", m.path);
  check_value("domain", m.domain);
  check_value("name", m.name);
  check_value("abi", m.abi);
  check_value("library", m.library);
  if (!is_name(m.name) || m.name == "auto" || m.name == "reference") fail("bad name", m.name);
  // Absolute as written, or resolved against the manifest's directory.
  if (m.library.front() != '/') fail("library not anchored", m.library);
  check_names("bases", m.bases);
  check_names("requires", m.requires_features);
  if (!coheriq::detail::unknown_feature_names(m.requires_features).empty()) {
    fail("unknown feature accepted", "requires");
  }
  if (!m.host.vendor.empty()) check_value("host vendor", m.host.vendor);
  for (int family : m.host.families) {
    if (family < 0 || family > 65535) fail("family out of range", std::to_string(family));
  }
  check_names("overrides", m.overrides);
  if (!m.description.empty()) check_value("description", m.description);
  for (const auto& [candidate_class, layout] : m.layouts) {
    check_value("layout class", candidate_class);
    check_value("layout name", layout);
  }
}

// "coheriq: plugin manifest <path>:<line>: ..." with 1 <= line <= lines of the text.
void check_error(std::string_view message, std::string_view text) {
  const std::string prefix = "coheriq: plugin manifest " + std::string(kPath) + ":";
  if (message.rfind(prefix, 0) != 0) fail("message does not name the file", message);
  std::size_t i = prefix.size();
  std::size_t line = 0;
  while (i < message.size() && message[i] >= '0' && message[i] <= '9') {
    line = line * 10 + static_cast<std::size_t>(message[i] - '0');
    ++i;
  }
  if (i == prefix.size() || i >= message.size() || message[i] != ':') {
    fail("message does not name the line", message);
  }
  std::size_t lines = 1;
  for (char c : text) lines += c == '\n';
  if (line < 1 || line > lines) fail("line number out of range", message);
  for (char c : message) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte == 0x7f) fail("raw control byte in the message", message);
  }
  if (!is_clean(message)) fail("message is not UTF-8", message);
  // Echoed input is bounded: besides the list of valid feature names, a message stays short.
  const std::size_t known = coheriq::detail::join(coheriq::detail::known_feature_names()).size();
  if (message.size() > 1500 + known) fail("message not bounded", message.substr(0, 200));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    check_manifest(coheriq::detail::parse_manifest(text, kPath));
  } catch (const coheriq::PluginError& e) {
    check_error(e.what(), text);
  } catch (const std::exception& e) {
    fail("not a PluginError", e.what());
  }
  return 0;
}
