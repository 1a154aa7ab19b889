#include "core/text.hpp"

namespace coheriq::detail {

std::string join(const std::vector<std::string>& items, std::string_view sep) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i) out += sep;
    out += items[i];
  }
  return out;
}

std::string quoted(std::string_view text) {
  std::string out(1, '\'');
  out += printable(text);
  out += '\'';
  return out;
}

namespace {

// The length of the well-formed UTF-8 sequence of a non-ASCII code point at text[i] (2 to 4
// bytes), its code point in `cp`; 0 for overlong forms, surrogates, values past U+10FFFF and
// truncated or malformed sequences.
std::size_t utf8_sequence(std::string_view text, std::size_t i, char32_t& cp) {
  const auto byte = [&](std::size_t j) { return static_cast<unsigned char>(text[j]); };
  const unsigned char c = byte(i);
  std::size_t len = 0;
  if (c >= 0xc2 && c <= 0xdf) {
    len = 2, cp = c & 0x1f;
  } else if (c >= 0xe0 && c <= 0xef) {
    len = 3, cp = c & 0x0f;
  } else if (c >= 0xf0 && c <= 0xf4) {
    len = 4, cp = c & 0x07;
  } else {
    return 0;
  }
  if (i + len > text.size()) return 0;
  for (std::size_t j = 1; j < len; ++j) {
    if ((byte(i + j) & 0xc0) != 0x80) return 0;
    cp = (cp << 6) | (byte(i + j) & 0x3f);
  }
  const bool overlong = (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000);
  const bool surrogate = cp >= 0xd800 && cp <= 0xdfff;
  if (overlong || surrogate || cp > 0x10ffff) return 0;
  return len;
}

// As utf8_sequence, and 0 for the C1 controls (U+0080 to U+009F) a terminal may obey.
std::size_t utf8_printable(std::string_view text, std::size_t i) {
  char32_t cp = 0;
  const std::size_t len = utf8_sequence(text, i, cp);
  return cp >= 0x80 && cp <= 0x9f ? 0 : len;
}

}  // namespace

bool valid_utf8(std::string_view text) {
  std::size_t i = 0;
  while (i < text.size()) {
    char32_t cp = 0;
    if (static_cast<unsigned char>(text[i]) < 0x80) {
      ++i;
    } else if (const std::size_t len = utf8_sequence(text, i, cp); len != 0) {
      i += len;
    } else {
      return false;
    }
  }
  return true;
}

std::string printable(std::string_view text, std::size_t max_bytes) {
  static constexpr char hex[] = "0123456789abcdef";
  std::string out;
  std::size_t i = 0;
  while (i < text.size() && i < max_bytes) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c < 0x7f) {
      if (c == '\\') out += '\\';
      out += static_cast<char>(c);
      ++i;
    } else if (const std::size_t len = utf8_printable(text, i); len != 0) {
      out.append(text.substr(i, len));
      i += len;
    } else {
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 0xf];
      ++i;
    }
  }
  if (i < text.size()) out += "...(" + std::to_string(text.size() - i) + " more bytes)";
  return out;
}

}  // namespace coheriq::detail
