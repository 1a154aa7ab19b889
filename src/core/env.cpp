#include "core/env.hpp"

#include <coheriq/coheriq.hpp>

#include <algorithm>
#include <type_traits>

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

// `source` echoes the value in messages: VARIABLE='value', or function('value'). A token with a
// character outside the name alphabet throws `BadName` (an engine list: it names no engine).
template <class BadName>
std::vector<std::string> parse_list(std::string_view value, const std::string& source,
                                    std::string_view what) {
  std::vector<std::string> tokens;
  if (blank(value)) return tokens;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = value.find(',', start);
    const std::string_view raw = value.substr(
        start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
    const std::string_view token = trim(raw);
    if (token.empty()) {
      throw Error("coheriq: " + source + " has an empty " + std::string(what) + " at position " +
                  std::to_string(start) +
                  "; write a comma-separated list such as 'avx512,avx2,reference'");
    }
    for (std::size_t i = 0; i < token.size(); ++i) {
      if (!is_name_char(token[i])) {
        throw BadName("coheriq: " + source + ": " + std::string(what) + " '" + printable(token) +
                      "' contains '" + printable(token.substr(i, 1)) +
                      "'; names use only letters, digits, '_', '.' and '-', separated by commas");
      }
    }
    tokens.emplace_back(token);
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return tokens;
}

// A decimal number below `limit`, with an optional K or M suffix (binary multiples) when
// `suffixes`; nullopt for anything else.
std::optional<std::size_t> parse_number(std::string_view s, bool suffixes, std::size_t limit) {
  std::size_t multiplier = 1;
  if (suffixes && !s.empty() && (s.back() == 'K' || s.back() == 'M')) {
    multiplier = s.back() == 'K' ? 1024 : 1024 * 1024;
    s.remove_suffix(1);
  }
  if (s.empty() || s.size() > 12) return std::nullopt;
  std::size_t n = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
    n = n * 10 + static_cast<std::size_t>(c - '0');
  }
  if (n > limit / multiplier) return std::nullopt;
  return n * multiplier;
}

// Splits `value` into comma-separated key=value items, blanks around keys and values ignored,
// each key at most once, and calls item(key, value) on each; returns the first error (from the
// splitter or from `item`), or empty. `keys` lists the valid keys (items), for the messages.
template <class Item>
std::string for_each_item(std::string_view value, std::string_view keys, Item item) {
  std::vector<std::string> seen;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = value.find(',', start);
    const std::string_view text = trim(value.substr(
        start, comma == std::string_view::npos ? std::string_view::npos : comma - start));
    const std::size_t eq = text.find('=');
    if (eq == std::string_view::npos || trim(text.substr(0, eq)).empty() ||
        trim(text.substr(eq + 1)).empty()) {
      return "item " + quoted(text) + " is not 'name=value'; items are " + std::string(keys) +
             ", separated by ','";
    }
    const std::string key(trim(text.substr(0, eq)));
    if (std::find(seen.begin(), seen.end(), key) != seen.end()) {
      return "item " + quoted(key) + " appears twice";
    }
    seen.push_back(key);
    if (std::string error = item(key, trim(text.substr(eq + 1))); !error.empty()) return error;
    if (comma == std::string_view::npos) return "";
    start = comma + 1;
  }
}

}  // namespace

bool blank(std::string_view value) { return trim(value).empty(); }

std::optional<bool> parse_switch(std::string_view value) {
  const std::string_view v = trim(value);
  if (v.empty() || v == "0") return false;
  if (v == "1") return true;
  return std::nullopt;
}

CountStatus parse_count(std::string_view text, std::size_t max, std::size_t& out) {
  if (text.empty() || text.find_first_not_of("0123456789") != std::string_view::npos ||
      text.find_first_not_of('0') == std::string_view::npos) {
    return CountStatus::not_positive_integer;
  }
  std::size_t n = 0;
  for (const char c : text) {
    const auto digit = static_cast<std::size_t>(c - '0');
    if (n > max / 10 || digit > max - n * 10) return CountStatus::too_large;  // never overflows
    n = n * 10 + digit;
  }
  out = n;
  return CountStatus::ok;
}

std::optional<std::size_t> parse_size(std::string_view s) {
  return parse_number(s, true, std::size_t{1} << 40);
}

std::string parse_host_requirements(std::string_view value, HostRequirements& out) {
  constexpr std::string_view keys =
      "vendor, families, min_vector_bits, min_l1d_bytes, min_l2_bytes";
  HostRequirements host;
  std::string error = for_each_item(value, keys, [&](const std::string& key, std::string_view v) {
    const auto size = [&](std::size_t& field) {
      const std::optional<std::size_t> n = parse_size(v);
      if (!n) {
        return key +
               " must be a decimal number of bits or bytes, optionally followed by K or M, "
               "got " +
               quoted(v);
      }
      field = *n;
      return std::string();
    };
    if (key == "vendor") {
      host.vendor = v;
    } else if (key == "families") {
      std::string_view rest = v;
      while (true) {
        const std::size_t bar = rest.find('|');
        const std::optional<std::size_t> f = parse_number(trim(rest.substr(0, bar)), false, 65535);
        if (!f) {
          return "families must be numbers separated by '|' (e.g. 25|26), got " + quoted(v);
        }
        host.families.push_back(static_cast<int>(*f));
        if (bar == std::string_view::npos) break;
        rest = rest.substr(bar + 1);
      }
    } else if (key == "min_vector_bits") {
      return size(host.min_vector_bits);
    } else if (key == "min_l1d_bytes") {
      return size(host.min_l1d_bytes);
    } else if (key == "min_l2_bytes") {
      return size(host.min_l2_bytes);
    } else {
      return "unknown item " + quoted(key) + "; items are " + std::string(keys);
    }
    return std::string();
  });
  if (error.empty()) out = std::move(host);
  return error;
}

HostOverride parse_host_override(std::string_view value, std::string_view variable) {
  constexpr std::string_view keys = "vendor, family, model, vector_bits, l1d_bytes, l2_bytes";
  HostOverride o;
  if (blank(value)) return o;
  std::string error = for_each_item(value, keys, [&](const std::string& key, std::string_view v) {
    const auto number = [&](auto& field, bool suffixes, std::size_t limit) {
      const std::optional<std::size_t> n = parse_number(v, suffixes, limit);
      if (!n) {
        return key + " must be " +
               (suffixes ? "a size in bytes (digits, optionally followed by K or M)"
                         : "a decimal number") +
               ", got " + quoted(v);
      }
      field = static_cast<std::remove_reference_t<decltype(*field)>>(*n);
      return std::string();
    };
    if (key == "vendor") {
      if (!std::all_of(v.begin(), v.end(), [](char c) { return c > 0x20 && c < 0x7f; })) {
        return "the vendor " + quoted(v) + " has blanks or control bytes";
      }
      o.vendor = std::string(v);
    } else if (key == "family") {
      return number(o.family, false, 1u << 20);
    } else if (key == "model") {
      return number(o.model, false, 1u << 20);
    } else if (key == "vector_bits") {
      if (std::string e = number(o.vector_bits, false, 1u << 16); !e.empty()) return e;
      if (*o.vector_bits % 128 != 0) {
        return "vector_bits=" + std::to_string(*o.vector_bits) + " is not 0 or a multiple of 128";
      }
    } else if (key == "l1d_bytes") {
      return number(o.l1d_bytes, true, std::size_t{1} << 40);
    } else if (key == "l2_bytes") {
      return number(o.l2_bytes, true, std::size_t{1} << 40);
    } else {
      return "unknown item " + quoted(key) + "; items are " + std::string(keys);
    }
    return std::string();
  });
  if (!error.empty()) {
    throw Error("coheriq: " + std::string(variable) + "='" + printable(value) + "': " + error +
                "; write comma-separated key=value items, e.g. "
                "'vendor=AuthenticAMD,family=25,l2_bytes=512K'");
  }
  return o;
}

std::vector<std::string> parse_engine_list(std::string_view value, std::string_view variable) {
  return parse_list<UnknownEngineError>(
      value, std::string(variable) + "='" + printable(value) + "'", "engine name");
}

std::vector<std::string> parse_engine_argument(std::string_view value, std::string_view function) {
  return parse_list<UnknownEngineError>(
      value, std::string(function) + "('" + printable(value) + "')", "engine name");
}

std::vector<std::string> parse_feature_list(std::string_view value, std::string_view variable) {
  return parse_list<Error>(value, std::string(variable) + "='" + printable(value) + "'",
                           "feature name");
}

}  // namespace coheriq::detail
