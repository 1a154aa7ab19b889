// example.text as coheriq sees it: the candidates (name + signature, the contract every engine
// implements) and the domain description. Included by the domain and by its engines, never by
// callers.
#pragma once

#include <coheriq/domain.hpp>

#include <cstddef>
#include <string_view>
#include <vector>

namespace text {

namespace cand {
struct count_byte : coheriq::candidate<std::size_t(const char*, std::size_t, char)> {
  static constexpr std::string_view name = "count_byte";
};
struct to_upper : coheriq::candidate<void(char*, std::size_t)> {
  static constexpr std::string_view name = "to_upper";
};
}  // namespace cand

struct Domain {
  static constexpr std::string_view name = "example.text";
  static constexpr std::string_view env_var = "TEXT_ENGINE";  // users may choose with it
  static constexpr std::string_view abi = "example.text/1";   // bump when a signature changes
  using classes = coheriq::list<>;
  using candidates = coheriq::list<cand::count_byte, cand::to_upper>;
  static const coheriq::OverrideTable& reference();           // text.cpp
  static std::vector<coheriq::EngineSpec> builtin_engines();  // text.cpp
};

// The one built-in engine (swar_engine.cpp).
coheriq::EngineSpec swar_engine();

}  // namespace text
