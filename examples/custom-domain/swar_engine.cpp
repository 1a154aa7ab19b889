// The swar engine of example.text: "SIMD within a register", eight bytes per 64-bit word.
// Portable code that needs no CPU feature, so required_features stays empty and no ISA flag is
// needed; an engine using AVX2 would list "avx2" and build this file with -mavx2.
#include <coheriq/engine.hpp>

#include <cstdint>
#include <cstring>

#include "text_domain.hpp"

namespace text {
namespace {

constexpr std::uint64_t kOnes = 0x0101010101010101u;
constexpr std::uint64_t kHigh = 0x8080808080808080u;  // bit 7 of every byte
constexpr std::uint64_t kLow7 = 0x7f7f7f7f7f7f7f7fu;

std::uint64_t load(const char* p) {
  std::uint64_t word;
  std::memcpy(&word, p, sizeof word);
  return word;
}

// Bit 7 set in each byte of `word` that is zero. (b & 0x7f) + 0x7f carries into bit 7 unless the
// low seven bits are zero; OR-ing b adds bit 7 itself. No carry crosses a byte.
std::uint64_t zero_bytes(std::uint64_t word) { return ~(((word & kLow7) + kLow7) | word) & kHigh; }

std::size_t count_byte_swar(const char* s, std::size_t n, char c) {
  const std::uint64_t pattern = kOnes * static_cast<unsigned char>(c);
  std::size_t count = 0;
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    count += static_cast<std::size_t>(__builtin_popcountll(zero_bytes(load(s + i) ^ pattern)));
  }
  for (; i < n; ++i) count += s[i] == c;
  return count;
}

// Bit 7 set in each byte that is an ASCII lower-case letter: the low seven bits are >= 'a' and
// not > 'z', and bit 7 itself is clear. The additions stay below 0x100 per byte.
std::uint64_t lower_case_bytes(std::uint64_t word) {
  const std::uint64_t low7 = word & kLow7;
  const std::uint64_t at_least_a = low7 + kOnes * (0x80 - 'a');
  const std::uint64_t above_z = low7 + kOnes * (0x80 - 'z' - 1);
  return at_least_a & ~above_z & ~word & kHigh;
}

void to_upper_swar(char* s, std::size_t n) {
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const std::uint64_t word = load(s + i);
    const std::uint64_t upper = word ^ (lower_case_bytes(word) >> 2);  // bit 7 >> 2 = 0x20
    std::memcpy(s + i, &upper, sizeof upper);
  }
  for (; i < n; ++i) {
    if (s[i] >= 'a' && s[i] <= 'z') s[i] = static_cast<char>(s[i] - 'a' + 'A');
  }
}

constexpr coheriq::Override overrides[] = {
    coheriq::implement<cand::count_byte, &count_byte_swar>(),
    coheriq::implement<cand::to_upper, &to_upper_swar>(),
};
constexpr coheriq::OverrideTable table = coheriq::table_of(overrides);

}  // namespace

coheriq::EngineSpec swar_engine() {
  coheriq::EngineSpec e;
  e.domain = std::string(Domain::name);
  e.name = "swar";
  e.description = "eight bytes per 64-bit word, portable";
  e.priority = 10;
  e.overrides = &table;
  return e;
}

}  // namespace text
