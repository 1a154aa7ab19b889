// Output of the `coheriq` command: untrusted text (manifest descriptions, plugin paths, CPU brand
// strings, error messages echoing them) made safe for a terminal and for JSON, and write errors
// on stdout reported rather than lost.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace coheriq::tool {

// `text` for a terminal: control bytes (ANSI escapes), DEL and invalid UTF-8 as \xHH, a
// backslash doubled, at most `max_bytes` of it (the library's printable()).
std::string shown(std::string_view text, std::size_t max_bytes = 4096);

// A child's stderr for an error message: its last `max_bytes` (the error is at the end), each
// line shown().
std::string shown_tail(std::string_view text, std::size_t max_bytes = 8192);

// `j` with every string (values and object keys) that is not valid UTF-8 replaced by its
// shown() form, unbounded: valid text stays as it is (JSON escapes control characters itself),
// and a stray Latin-1 byte becomes "\xe9" instead of making the document invalid.
nlohmann::json utf8_safe(const nlohmann::json& j);

// Serializes `j` (indented by 2) after utf8_safe(): never throws on text content.
std::string dump_json(const nlohmann::json& j);

// Flushes stdout and returns `code`, or 1 with a `coheriq:` message on stderr when anything
// written to stdout was lost (a full disk: `coheriq info > /dev/full`).
int finish_stdout(int code);

// Width on a terminal of valid UTF-8: continuation bytes take no column.
std::size_t display_width(std::string_view text);

}  // namespace coheriq::tool
