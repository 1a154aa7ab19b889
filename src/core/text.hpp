// Text helpers for messages: joining lists, and echoing untrusted input (names, env-var values,
// manifest text) safely into an error or a report. The one copy: the library, the MPI component,
// the `coheriq` tool, kernels_bench and the tests all use these (they link the library).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace coheriq::detail {

std::string join(const std::vector<std::string>& items, std::string_view sep = ", ");

// Whether `text` is well-formed UTF-8 (what a JSON document must hold).
bool valid_utf8(std::string_view text);

// `text` made safe to print, and valid UTF-8: control bytes, DEL and bytes that are not
// well-formed UTF-8 become \xHH (so ANSI escapes and binary never reach a terminal or a JSON
// document), a backslash is doubled, and anything past `max_bytes` becomes "...(N more bytes)".
std::string printable(std::string_view text, std::size_t max_bytes = 200);

// printable(text) between single quotes: how messages echo a name or a value.
std::string quoted(std::string_view text);

}  // namespace coheriq::detail
