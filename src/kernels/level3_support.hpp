// What the blocked level-3 BLAS (level3.cpp) and complex GEMM (complex_gemm.hpp) share: their
// scratch memory and the finiteness checks that decide between the blocked forms and the
// reference engine's loops. Every check takes the four types: a complex is read as its two
// reals, so a row of n complex values is a row of 2n reals.
#pragma once

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <new>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "kernels/prefetch.hpp"  // prefetch_rows: the finiteness scan of rows far apart
#include "reference/blas_rows.hpp"
#include "reference/scalar.hpp"

namespace coheriq::kernels::level3 {

using reference::is_complex_v;
using reference::real_t;
using reference::blas::transposes;
using std::size_t;

inline Trans trans(bool t) { return t ? Trans::T : Trans::N; }
// An Op as the real GEMM takes it (C and Conj are T and N: a real operand's, or a complex one's
// storage, its conjugation applied elsewhere).
inline Trans trans(Op op) { return trans(transposes(op)); }

// Scratch memory of the blocked forms; failing to get it is an error that is not an argument
// error (std::runtime_error; the BLAS library's entry points report it and abort, docs/blas.md).
[[noreturn]] inline void no_workspace(size_t bytes) {
  throw std::runtime_error("coheriq: no memory for a level-3 workspace of " +
                           std::to_string(bytes) + " bytes; free memory or make the call smaller");
}
template <class T>
class Workspace {
 public:
  Workspace() = default;  // none
  explicit Workspace(size_t count) {
    try {
      data_.reset(new T[count]);
    } catch (const std::bad_alloc&) {
      no_workspace(count * sizeof(T));
    }
  }
  T* get() const { return data_.get(); }

 private:
  std::unique_ptr<T[]> data_;
};

// Whether n elements are all finite: no exponent field all ones (Inf and NaN), in integer
// operations the compiler vectorizes at the baseline ISA: the field plus its lowest bit carries
// into the sign bit exactly when the field is all ones, so an AND, an ADD and an OR per element,
// which SSE2 has for 64-bit lanes too (a compare, which it has not for them, left the f64 loop
// scalar: 19% of a dsyrk at n = 64, k = 1024; an unsigned maximum took 12% of an strmm at n =
// 1024). A complex element is finite when both of its parts are.
template <class T>
bool finite_row(const T* p, size_t n) {
  if constexpr (is_complex_v<T>) {
    return finite_row(reinterpret_cast<const real_t<T>*>(p), 2 * n);
  } else {
    using Bits = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
    // +Inf is the exponent field all ones and nothing else.
    constexpr Bits exponent = std::bit_cast<Bits>(std::numeric_limits<T>::infinity());
    constexpr Bits lowest = exponent & (~exponent + 1);
    constexpr Bits sign = ~(~Bits{0} >> 1);
    const auto flag = [&](size_t j) {
      Bits bits;
      std::memcpy(&bits, p + j, sizeof bits);
      return (bits & exponent) + lowest;
    };
    // Eight elements a step into eight flags (four SSE2 vectors of f64): one a step made a loop
    // whose timing followed its alignment (12 or 20 us of a dsyrk of 190 at n = 64, k = 1024).
    Bits special[8] = {};
    size_t j = 0;
    for (; j + 8 <= n; j += 8) {
      for (size_t e = 0; e < 8; ++e) special[e] |= flag(j + e);
    }
    for (; j < n; ++j) special[0] |= flag(j);
    Bits all = 0;
    for (const Bits s : special) all |= s;
    return (all & sign) == 0;
  }
}
template <class T>
bool finite_matrix(size_t rows, size_t cols, const T* p, size_t ld) {
  // Rows far apart are asked for ahead (kernels/prefetch.hpp).
  const bool far = rows_far_apart<T>(ld);
  for (size_t i = 0; i < rows; ++i) {
    if (far && i + kRowsAhead < rows) prefetch_rows(p + (i + kRowsAhead) * ld, 1, cols, ld);
    if (!finite_row(p + i * ld, cols)) return false;
  }
  return true;
}
// The stored `uplo` triangle of an n x n matrix, without its diagonal when it is Unit.
template <class T>
bool finite_triangle(Uplo uplo, Diag diag, size_t n, const T* a, size_t lda) {
  const size_t unit = diag == Diag::Unit ? 1 : 0;
  for (size_t i = 0; i < n; ++i) {
    const size_t lo = uplo == Uplo::Upper ? i + unit : 0;
    const size_t hi = uplo == Uplo::Upper ? n : i + 1 - unit;
    if (lo < hi && !finite_row(a + i * lda + lo, hi - lo)) return false;
  }
  return true;
}
template <class T>
bool finite_scalar(T x) {
  return finite_row(&x, 1);
}

}  // namespace coheriq::kernels::level3
