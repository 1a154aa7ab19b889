// The user's side of example.text: call the domain's functions, and choose an engine once,
// before the first call, with enable_engine or the domain's variable TEXT_ENGINE.
//
//   custom_domain                  the reference, or the engine TEXT_ENGINE names
//   custom_domain --enable swar    enables swar first
//
// Checks every result against a plain computation; exits 1 on a mismatch.
#include <coheriq/coheriq.hpp>

#include <cstdio>
#include <cstring>
#include <string>

#include "text.hpp"

namespace {

std::size_t expected_count(const std::string& s, char c) {
  std::size_t n = 0;
  for (char x : s) n += x == c;
  return n;
}

std::string expected_upper(std::string s) {
  for (char& x : s) {
    if (x >= 'a' && x <= 'z') x = static_cast<char>(x - 32);
  }
  return s;
}

// Whichever engine runs must agree with plain code on every byte value in every position of a
// 64-bit word (the period 257 is odd, so each value visits all eight), and on every short length.
bool engine_agrees_with_plain_code() {
  std::string all(257 * 8, '\0');
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = static_cast<char>(i % 257);
  for (std::size_t n : {0u, 1u, 7u, 8u, 9u, 15u, 16u, 17u, 257u * 8u}) {
    const std::string s = all.substr(0, n);
    for (char c : {'\0', 'a', 'z', 'A', '`', '{', '\x80', '\xe1', '\xff'}) {
      if (text::count_byte(s, c) != expected_count(s, c)) return false;
    }
    std::string upper = s;
    text::to_upper(upper);
    if (upper != expected_upper(s)) return false;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    if (argc == 3 && std::strcmp(argv[1], "--enable") == 0) {
      text::enable_engine(argv[2]);
    } else if (argc != 1) {
      std::fprintf(stderr, "usage: %s [--enable ENGINE]\n", argv[0]);
      return 2;
    }
    coheriq::DomainStatus s = coheriq::status(text::domain_name);
    std::printf("before the first call: %s, %s (%s)\n", s.state.c_str(), s.engine.c_str(),
                s.reason.c_str());

    const std::string sentence = "six slick slim sycamore saplings";
    const std::size_t count = text::count_byte(sentence, 's');  // the first use: locks
    std::string upper = sentence;
    text::to_upper(upper);
    std::printf("count_byte(\"%s\", 's') = %zu\n", sentence.c_str(), count);
    std::printf("to_upper: %s\n", upper.c_str());

    s = coheriq::status(text::domain_name);
    std::printf("after: %s, %s (%s; first use: %s)\n", s.state.c_str(), s.engine.c_str(),
                s.reason.c_str(), s.locked_by.c_str());

    // One-way: once used, the domain refuses any other engine.
    const std::string other = s.engine == "swar" ? "reference" : "swar";
    try {
      text::enable_engine(other);
      std::printf("enable_engine(\"%s\") after the first call was accepted\n", other.c_str());
      return 1;
    } catch (const coheriq::EngineLockedError& e) {
      std::printf("enable_engine(\"%s\") now: %s\n", other.c_str(), e.what());
    }

    const bool ok = count == expected_count(sentence, 's') && upper == expected_upper(sentence) &&
                    engine_agrees_with_plain_code();
    std::printf(ok ? "ok: %s agrees with plain code\n" : "MISMATCH: %s disagrees with plain code\n",
                s.engine.c_str());
    return ok ? 0 : 1;
  } catch (const coheriq::Error& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
}
