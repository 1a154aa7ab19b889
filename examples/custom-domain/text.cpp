// example.text: the reference implementation, the engine list and the public functions.
#include <coheriq/engine.hpp>

#include "text.hpp"
#include "text_domain.hpp"

namespace text {
namespace {

// ------------------------------ Reference: plain, obviously correct code

std::size_t count_byte_reference(const char* s, std::size_t n, char c) {
  std::size_t count = 0;
  for (std::size_t i = 0; i < n; ++i) count += s[i] == c;
  return count;
}

void to_upper_reference(char* s, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) {
    if (s[i] >= 'a' && s[i] <= 'z') s[i] = static_cast<char>(s[i] - 'a' + 'A');
  }
}

constexpr coheriq::Override reference_overrides[] = {
    coheriq::implement<cand::count_byte, &count_byte_reference>(),
    coheriq::implement<cand::to_upper, &to_upper_reference>(),
};
constexpr coheriq::OverrideTable reference_table = coheriq::table_of(reference_overrides);

// Registers the domain when the program links this file, so coheriq::domains() lists it before
// the first call. Materializing reads constant tables only: no engine code runs.
[[maybe_unused]] const bool materialized = (coheriq::materialize<Domain>(), true);

}  // namespace

const coheriq::OverrideTable& Domain::reference() { return reference_table; }
std::vector<coheriq::EngineSpec> Domain::builtin_engines() { return {swar_engine()}; }

// ------------------------------ What callers call

std::size_t count_byte(std::string_view s, char c) {
  return coheriq::call<Domain, cand::count_byte>(s.data(), s.size(), c);
}

void to_upper(std::string& s) { coheriq::call<Domain, cand::to_upper>(s.data(), s.size()); }

void enable_engine(std::string_view engine) { coheriq::enable_engine<Domain>(engine); }

std::string active_engine() { return coheriq::active_engine<Domain>(); }

}  // namespace text
