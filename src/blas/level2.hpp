// The real symmetric matrix-vector product (?symv) on the kernels domain's gemv: the stored
// triangle is taken a band of kRows rows at a time; the band's diagonal block runs the reference
// engine's loop (kr::symv) and the rest of the band, in panels P of kRows x kColumns of the stored
// triangle, is two gemv calls per panel, y_band += alpha·P·x_rest and y_rest += alpha·Pᵀ·x_band,
// the second reading P while it is still in cache. So each stored element is read from memory once,
// as in the reference's loop, and the work is the engine's (and its pool's when gemv splits).
//
// The reference's semantics hold: ?symv has no zero skips, and neither has gemv, so an Inf or NaN
// anywhere spreads to the same elements; beta == 0 sets y without reading it; alpha == 0 reads
// neither A nor x. The row-major signature of kr::symv, so layer.hpp's column- and row-major
// mappings call it unchanged. Measured: docs/decisions.md, "?symv on gemv".
#pragma once

#include <coheriq/kernels.hpp>

#include <algorithm>
#include <complex>
#include <cstddef>
#include <type_traits>

#include "blas/kinds.hpp"
#include "reference/blas.hpp"
#include "reference/blas_rows.hpp"

namespace coheriq::blas::l2 {

namespace k = coheriq::kernels;
namespace kr = coheriq::kernels::reference::blas;
using std::ptrdiff_t;
using std::size_t;

// Rows per band (an order up to kRows is one diagonal block: the reference's loop) and columns
// per panel (a panel of doubles is 256 KiB, in L2 for its second read).
inline constexpr size_t kRows = 32;
inline constexpr size_t kColumns = 1024;

template <class T>
void symv(Uplo uplo, size_t n, T alpha, const T* a, size_t lda, const T* x, ptrdiff_t incx, T beta,
          T* y, ptrdiff_t incy) {
  if (n <= kRows) return kr::symv(uplo, n, alpha, a, lda, x, incx, beta, y, incy);
  if (alpha == T(0) && beta == T(1)) return;
  kr::scale_by_beta(n, beta, y, incy);
  if (alpha == T(0)) return;
  for (size_t i0 = 0; i0 < n; i0 += kRows) {
    const size_t rows = std::min(kRows, n - i0);
    const T* x_band = &kr::at(x, incx, i0);
    T* y_band = &kr::at(y, incy, i0);
    kr::symv(uplo, rows, alpha, a + i0 * lda + i0, lda, x_band, incx, T(1), y_band, incy);
    // The panel beside the diagonal block: columns after it (Upper) or before it (Lower).
    const size_t c0 = uplo == Uplo::Upper ? i0 + rows : 0;
    const size_t cols = uplo == Uplo::Upper ? n - c0 : i0;
    for (size_t j0 = c0; j0 < c0 + cols; j0 += kColumns) {
      const size_t width = std::min(kColumns, c0 + cols - j0);
      const T* panel = a + i0 * lda + j0;
      k::gemv(k::Trans::N, rows, width, alpha, panel, lda, &kr::at(x, incx, j0), incx, T(1), y_band,
              incy);
      k::gemv(k::Trans::T, rows, width, alpha, panel, lda, x_band, incx, T(1), &kr::at(y, incy, j0),
              incy);
    }
  }
}

// The kernels domain's BLAS-1 as the row operations of the reference engine's level-2 loops
// (kr::RowOps): the strided dot and axpy for real T, dotu/dotc and axpy/axpyc for complex T, of
// the engine in effect. Each row is one call, so the loops keep the reference's order of rows
// and its zero skips, and each row runs at the engine's speed. A row of fewer than
// short_row<T>() elements runs the scalar loop inline instead: a call costs about 7 ns before its
// first element. Measured (Zen 5, avx512 family): a band row's axpy and dot took 19.3 ns as calls
// against 14.9 ns as the scalar loop at 32 floats, 20.1 against 22.1 at 48; at band width 32
// (blas_routines_bench, ref/ours) ctbsv_, ctbmv_ and chbmv_ gave 0.68, 0.93 and 0.97 as calls and
// 0.80, 1.08 and 1.02 as scalar loops, ztbsv_ 1.1-1.4 as calls and 0.67-0.99 as loops.
template <class T>
constexpr size_t short_row() {
  return std::is_same_v<T, std::complex<double>> ? 20 : 40;
}

template <class T>
T engine_dot(bool conj_x, size_t n, const T* x, ptrdiff_t incx, const T* y, ptrdiff_t incy) {
  if constexpr (is_complex_v<T>) {
    T result;
    if (conj_x) {
      k::dotc_strided(n, x, incx, y, incy, &result);
    } else {
      k::dotu_strided(n, x, incx, y, incy, &result);
    }
    return result;
  } else {
    return k::dot_strided(n, x, incx, y, incy);
  }
}
template <class T>
void engine_axpy(bool conj_x, size_t n, T a, const T* x, ptrdiff_t incx, T* y, ptrdiff_t incy) {
  if constexpr (is_complex_v<T>) {
    if (conj_x) return k::axpyc_strided(n, a, x, incx, y, incy);
  }
  k::axpy_strided(n, a, x, incx, y, incy);
}
template <class T>
T engine_subtract_dot(T total, bool conj_x, size_t n, const T* x, ptrdiff_t incx, const T* y,
                      ptrdiff_t incy) {
  return total - engine_dot(conj_x, n, x, incx, y, incy);
}
template <class T>
T engine_axpy_dot(bool conj_axpy, bool conj_dot, size_t n, T a, const T* p, T* y, ptrdiff_t incy,
                  const T* x, ptrdiff_t incx) {
  engine_axpy(conj_axpy, n, a, p, 1, y, incy);
  return engine_dot(conj_dot, n, p, 1, x, incx);
}
template <class T>
void engine_axpy2(bool conj, size_t n, T a, const T* u, ptrdiff_t incu, T b, const T* v,
                  ptrdiff_t incv, T* y) {
  engine_axpy(conj, n, a, u, incu, y, 1);
  engine_axpy(conj, n, b, v, incv, y, 1);
}
template <class T>
const kr::RowOps<T>& engine_rows() {
  static constexpr kr::RowOps<T> ops{&engine_dot<T>,      &engine_axpy<T>,  &engine_subtract_dot<T>,
                                     &engine_axpy_dot<T>, &engine_axpy2<T>, short_row<T>()};
  return ops;
}

}  // namespace coheriq::blas::l2
