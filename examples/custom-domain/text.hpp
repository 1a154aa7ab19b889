// example.text: a tiny domain, as its callers see it. Nothing here mentions engines: the
// functions below run the reference or the engine the user enabled, and callers never change.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace text {

inline constexpr std::string_view domain_name = "example.text";

// How many bytes of `s` equal `c`.
std::size_t count_byte(std::string_view s, char c);
// ASCII letters a-z to A-Z, in place; every other byte unchanged.
void to_upper(std::string& s);

// The user's switch, once, before the first call: same as coheriq::enable_engine(domain_name, e).
void enable_engine(std::string_view engine);
std::string active_engine();

}  // namespace text
