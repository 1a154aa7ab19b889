// The kernels domain's BLAS-1 as the row operations of the reference engine's level-2 loops:
// what the generic engines' trmv, trsv and hemv (level2.cpp) and libcoheriq_blas's other level-2
// routines (src/blas/layer.hpp) pass those loops. Baseline code over the public API, so the
// engine in effect runs each row.
#pragma once

#include <coheriq/kernels.hpp>

#include <complex>
#include <cstddef>
#include <type_traits>

#include "reference/blas.hpp"
#include "reference/blas_rows.hpp"

namespace coheriq::kernels::level2 {

namespace k = coheriq::kernels;
namespace kr = coheriq::kernels::reference::blas;
using reference::is_complex_v;
using std::ptrdiff_t;
using std::size_t;

// The row operations (kr::RowOps): the strided dot and axpy for real T, dotu/dotc and
// axpy/axpyc for complex T, of the engine in effect. Each row is one call, so the loops keep the
// reference's order of rows and its zero skips, and each row runs at the engine's speed. A
// reduction row (dot) of fewer than short_row<T>() elements runs the scalar loop inline instead
// (element-wise rows always call: blas_rows.hpp says why): a call costs about 7 ns
// before its first element. Measured (Zen 5, avx512 family): a band row's axpy and dot took 19.3 ns
// as calls against 14.9 ns as the scalar loop at 32 floats, 20.1 against 22.1 at 48; at band width
// 32 (blas_routines_bench, ref/ours) ctbsv_, ctbmv_ and chbmv_ gave 0.68, 0.93 and 0.97 as calls
// and 0.80, 1.08 and 1.02 as scalar loops, ztbsv_ 1.1-1.4 as calls and 0.67-0.99 as loops. Doubles
// take the complex doubles' 20 (Sapphire Rapids class, avx512, band width 32, two runs each,
// machine shared with a build): dtbmv_ 0.89-0.96 and dtbsv_ 0.64-1.03 with 40, 1.14-1.19 and
// 1.14-1.41 with 20.
template <class T>
constexpr size_t short_row() {
  return std::is_same_v<T, std::complex<double>> || std::is_same_v<T, double> ? 20 : 40;
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
// Real rows in one call (axpy_dot_strided, the same bits as the two); complex rows as two.
template <class T>
T engine_axpy_dot(bool conj_axpy, bool conj_dot, size_t n, T a, const T* p, T* y, ptrdiff_t incy,
                  const T* x, ptrdiff_t incx) {
  if constexpr (is_complex_v<T>) {
    engine_axpy(conj_axpy, n, a, p, 1, y, incy);
    return engine_dot(conj_dot, n, p, 1, x, incx);
  } else {
    return k::axpy_dot_strided(n, a, p, 1, y, incy, x, incx);
  }
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

}  // namespace coheriq::kernels::level2
