// A plugin manifest's text, parsed (the part of plugin support that reads outside input, and the
// fuzzer's target: tests/fuzz/fuzz_manifest.cpp).
#include <algorithm>
#include <cstdlib>

#include "core/core.hpp"
#include "core/env.hpp"
#include "core/plugin.hpp"

namespace coheriq::detail {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) {
    s.remove_prefix(1);
  }
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

[[noreturn]] void fail(std::string_view path, std::size_t line, const std::string& what) {
  throw PluginError("coheriq: plugin manifest " + shown_path(path) + ":" + std::to_string(line) +
                    ": " + what);
}

// Manifests are UTF-8 text: a line holding a control byte (other than a tab), DEL, or bytes that
// are not UTF-8 is refused rather than kept, so that no such value reaches a listing or a message.
bool is_text(std::string_view line) {
  std::string untabbed(line);
  std::replace(untabbed.begin(), untabbed.end(), '\t', ' ');
  std::string expected;  // what printable() makes of clean text: backslashes doubled
  for (char c : untabbed) {
    if (c == '\\') expected += '\\';
    expected += c;
  }
  return printable(untabbed, untabbed.size()) == expected;
}

// The value of `key` in a manifest that may not parse: the trimmed value of its one line, or
// empty when it has none, or more than one.
std::string peek(std::string_view text, std::string_view key) {
  std::string found;
  int count = 0;
  std::size_t pos = 0;
  while (pos <= text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = trim(text.substr(pos, end - pos));
    pos = end + 1;
    const std::size_t eq = line.find('=');
    if (!line.empty() && line.front() != '#' && eq != std::string_view::npos &&
        trim(line.substr(0, eq)) == key) {
      found = trim(line.substr(eq + 1));
      ++count;
    }
    if (end == text.size()) break;
  }
  return count == 1 ? found : std::string();
}

bool engine_name_like(std::string_view name) {
  if (name.empty() || name == "auto" || name == "reference") return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '.' || c == '-';
  });
}

}  // namespace

std::string shown_path(std::string_view path) { return printable(path, 4200); }

std::string directory_of(std::string_view path) {
  const std::size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? std::string(".") : std::string(path.substr(0, slash));
}

Manifest parse_manifest(std::string_view text, std::string_view path) {
  Manifest m;
  m.path = std::string(path);
  std::vector<std::string> seen;
  std::size_t line_no = 0;
  std::size_t pos = 0;
  while (pos <= text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = trim(text.substr(pos, end - pos));
    ++line_no;
    pos = end + 1;
    if (!is_text(line)) {
      fail(path, line_no,
           "the line holds a control byte or bytes that are not UTF-8 ('" + printable(line) +
               "'); a manifest is UTF-8 text, fix the line");
    }
    if (line.empty() || line.front() == '#') {
      if (end == text.size()) break;
      continue;
    }
    const std::size_t eq = line.find('=');
    if (eq == std::string_view::npos) {
      fail(path, line_no, "expected 'key = value', got '" + printable(line) + "'");
    }
    const std::string key(trim(line.substr(0, eq)));
    const std::string_view value = trim(line.substr(eq + 1));
    if (std::find(seen.begin(), seen.end(), key) != seen.end()) {
      fail(path, line_no, "key '" + printable(key) + "' appears twice");
    }
    seen.push_back(key);
    if (value.empty()) fail(path, line_no, "key '" + printable(key) + "' has no value");
    const auto list = [&](std::string_view what) {
      try {
        return parse_engine_list(value, key);
      } catch (const Error& e) {
        fail(path, line_no, std::string(what) + ": " + std::string(e.what()).substr(9));
      }
    };
    if (key == "domain") {
      m.domain = value;
    } else if (key == "name") {
      if (list("name").size() != 1 || value == "auto" || value == "reference") {
        fail(path, line_no, "name must be one engine name (not 'auto' or 'reference')");
      }
      m.name = value;
    } else if (key == "bases") {
      m.bases = list("bases");
    } else if (key == "requires") {
      m.requires_features = list("requires");
      // A misspelt name would read as a feature every host lacks (`fma` for `fma3`).
      if (const auto unknown = unknown_feature_names(m.requires_features); !unknown.empty()) {
        fail(path, line_no,
             "requires " + printable(join(unknown)) +
                 ", which cpu_features does not know on this architecture; valid names: " +
                 join(known_feature_names()));
      }
    } else if (key == "host") {
      if (const std::string error = parse_host_requirements(value, m.host); !error.empty()) {
        fail(path, line_no, "host: " + error);
      }
    } else if (key == "priority") {
      const std::string v(value);
      char* endp = nullptr;
      const long p = std::strtol(v.c_str(), &endp, 10);
      if (endp == v.c_str() || *endp != '\0' || p < -1000000 || p > 1000000) {
        fail(path, line_no, "priority must be an integer, got '" + printable(v) + "'");
      }
      m.priority = static_cast<int>(p);
    } else if (key == "description") {
      m.description = value;
    } else if (key == "library") {
      m.library =
          value.front() == '/' ? std::string(value) : directory_of(path) + "/" + std::string(value);
    } else if (key == "abi") {
      m.abi = value;
    } else if (key == "reproducible") {
      if (value != "yes" && value != "no") {
        fail(path, line_no, "reproducible is 'yes' or 'no', got '" + printable(value) + "'");
      }
      m.reproducible = value == "yes";
    } else if (key == "overrides") {
      m.overrides = list("overrides");
    } else if (key == "layouts") {
      // Class=layout pairs separated by ';' (class names may contain commas in templates).
      std::string_view rest = value;
      while (!rest.empty()) {
        const std::size_t semi = rest.find(';');
        const std::string_view item = trim(rest.substr(0, semi));
        const std::size_t colon = item.find(':');
        if (colon == std::string_view::npos || trim(item.substr(0, colon)).empty() ||
            trim(item.substr(colon + 1)).empty()) {
          fail(path, line_no, "layouts are 'Class: layout-name' pairs separated by ';'");
        }
        m.layouts.emplace_back(trim(item.substr(0, colon)), trim(item.substr(colon + 1)));
        if (semi == std::string_view::npos) break;
        rest = rest.substr(semi + 1);
      }
    } else {
      fail(path, line_no,
           "unknown key '" + printable(key) +
               "'; keys are domain, name, bases, requires, host, priority, description, library, "
               "abi, overrides, layouts, reproducible");
    }
    if (end == text.size()) break;
  }
  for (const char* required : {"domain", "name", "library", "abi"}) {
    if (std::find(seen.begin(), seen.end(), required) == seen.end()) {
      fail(path, line_no, std::string("missing required key '") + required + "'");
    }
  }
  return m;
}

ManifestFile examine_manifest(const std::string& path, const std::string& text) {
  ManifestFile f;
  f.path = path;
  try {
    f.manifest = parse_manifest(text, path);
    f.domain = f.manifest.domain;
    f.name = f.manifest.name;
  } catch (const Error& e) {
    f.error = e.what();
    f.domain = peek(text, "domain");
    f.name = peek(text, "name");
    if (!engine_name_like(f.name)) f.name.clear();
  }
  return f;
}

}  // namespace coheriq::detail
