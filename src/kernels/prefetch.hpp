// Asking for memory ahead of its reading, or reading it first: plain C++ (compiler builtins and an
// empty asm statement, no ISA code), for baseline and engine translation units alike (the level-3
// finiteness scan, the generic GEMM's packing and its batches of small products).
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace coheriq::kernels {

// In an unnamed namespace: engine translation units (compiled for their ISA) and baseline ones
// both include this, and an inline function with external linkage would be one copy for all of
// them, possibly an engine's (docs/toolchain.md, "The ODR trap"; tests/symbols).
namespace {

// Calls f(p) for one element p of each 64-byte line of rows x cols elements, ld apart: the whole
// span when the rows are nearly contiguous (a small matrix is then a line or a few), else row by
// row; the last element of each run too, so that a run ending past a line boundary is covered.
template <class T, class F>
void for_each_line(const T* x, std::size_t rows, std::size_t cols, std::size_t ld, F f) {
  constexpr std::size_t kLine = 64 / sizeof(T);
  if (rows == 0 || cols == 0) return;
  const std::size_t span = (rows - 1) * ld + cols;
  if (span <= 2 * rows * cols) {
    for (std::size_t j = 0; j < span; j += kLine) f(x + j);
    f(x + span - 1);
    return;
  }
  for (std::size_t r = 0; r < rows; ++r) {
    for (std::size_t j = 0; j < cols; j += kLine) f(x + r * ld + j);
    f(x + r * ld + cols - 1);
  }
}

// Asks for the line holding x in L2.
template <class T>
void prefetch_line(const T* x) {
  __builtin_prefetch(x, 0, 2);
}

// Asks for rows x cols elements, ld apart, in L2.
template <class T>
void prefetch_rows(const T* x, std::size_t rows, std::size_t cols, std::size_t ld) {
  for_each_line(x, rows, cols, ld, [](const T* p) { prefetch_line(p); });
}

// Reads the lines prefetch_rows asks for: demand loads, independent of each other and of any
// arithmetic, so that the core keeps as many of them in flight as it can hold. The values go
// nowhere.
template <class T>
void touch_rows(const T* x, std::size_t rows, std::size_t cols, std::size_t ld) {
  using Bits = std::conditional_t<sizeof(T) == 8, std::uint64_t, std::uint32_t>;
  static_assert(sizeof(Bits) == sizeof(T));
  for_each_line(x, rows, cols, ld, [](const T* p) {
    Bits bits;
    __builtin_memcpy(&bits, p, sizeof bits);
    asm volatile("" : : "r"(bits));
  });
}

// Rows a page or more apart (a block of a larger matrix: numpy's lower Cholesky has dsyrk read
// 64 doubles every 16 KiB) are a stride the hardware prefetchers do not follow, so each row would
// wait for L3 or memory in turn: code that reads such rows one after the other asks for them
// kRowsAhead rows ahead.
template <class T>
constexpr bool rows_far_apart(std::size_t ld) {
  return ld * sizeof(T) >= 4096;
}
constexpr std::size_t kRowsAhead = 8;

}  // namespace

}  // namespace coheriq::kernels
