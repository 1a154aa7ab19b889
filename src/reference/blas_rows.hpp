// The row-wise building blocks of the reference engine's level-2 and level-3 BLAS kernels
// (blas_level2.cpp, blas_level3.cpp): how a stored matrix's rows are found, whatever its
// storage (dense, band, packed, a triangle of any), and the two loops every kernel is made of,
// a row times a vector and a vector plus a multiple of a row.
//
// Each storage gives row(i) = {p, lo, hi}: A(i, j) is p[j] for lo <= j < hi, and nothing else
// of row i is stored. The kernels are written once against that, so trmv, tbmv and tpmv are one
// loop, and so on.
#pragma once

#include <algorithm>
#include <cstddef>

#include "reference/blas.hpp"

namespace coheriq::kernels::reference::blas {

template <class T>
struct Row {
  T* p;
  size_t lo, hi;
};

// p + forward − back: the row pointers below point at column 0 of their row, which may come
// before the row's first stored element, but always inside the array (each says why).
template <class T>
T* shifted(T* p, size_t forward, size_t back) {
  return p + static_cast<ptrdiff_t>(forward) - static_cast<ptrdiff_t>(back);
}

// A general m x n matrix, rows of lda.
template <class T>
struct Dense {
  T* a;
  size_t lda, n;
  Row<T> row(size_t i) const { return {a + i * lda, 0, n}; }
};

// A general band matrix: row i holds columns i − kl .. i + ku at a[i·lda + kl + j − i]
// (i·lda + kl − i >= 0 since lda >= 1).
template <class T>
struct Band {
  T* a;
  size_t lda, n, kl, ku;
  Row<T> row(size_t i) const {
    return {shifted(a, i * lda + kl, i), i > kl ? i - kl : 0, std::min(n, i + ku + 1)};
  }
};

// The `uplo` triangle of an n x n dense matrix.
template <class T>
struct Triangle {
  T* a;
  size_t lda, n;
  Uplo uplo;
  Row<T> row(size_t i) const {
    return uplo == Uplo::Upper ? Row<T>{a + i * lda, i, n} : Row<T>{a + i * lda, 0, i + 1};
  }
};

// The `uplo` triangle of an n x n band matrix with k diagonals beside the main one: Upper row i
// holds columns i .. i + k at a[i·lda + j − i], Lower columns i − k .. i at a[i·lda + k + j − i]
// (i·lda − i >= 0 since lda >= 1).
template <class T>
struct BandTriangle {
  T* a;
  size_t lda, n, k;
  Uplo uplo;
  Row<T> row(size_t i) const {
    if (uplo == Uplo::Upper) return {shifted(a, i * lda, i), i, std::min(n, i + k + 1)};
    return {shifted(a, i * lda + k, i), i > k ? i - k : 0, i + 1};
  }
};

// The `uplo` triangle of an n x n matrix packed by rows: Upper row i (columns i .. n − 1) starts
// at i·n − i(i − 1)/2, Lower row i (columns 0 .. i) at i(i + 1)/2 (the Upper start minus i is
// i(n − (i + 1)/2) >= 0).
template <class T>
struct Packed {
  T* a;
  size_t n;
  Uplo uplo;
  Row<T> row(size_t i) const {
    if (uplo == Uplo::Upper) return {shifted(a, i * n - i * (i - 1) / 2, i), i, n};  // i = 0: 0
    return {a + i * (i + 1) / 2, 0, i + 1};
  }
};

// Element i of a vector whose element 0 is x.
template <class T>
T& at(T* x, ptrdiff_t inc, size_t i) {
  return x[static_cast<ptrdiff_t>(i) * inc];
}

// The scalar row operations (RowOps, blas.hpp): each sum in order, each product the textbook
// one, as the reference BLAS computes them.
template <class T>
T scalar_dot(bool conj_x, size_t n, const T* x, ptrdiff_t incx, const T* y, ptrdiff_t incy) {
  T total(0);
  if (conj_x) {
    for (size_t j = 0; j < n; ++j) total += mul(conj(at(x, incx, j)), at(y, incy, j));
  } else if (incx == 1 && incy == 1) {
    for (size_t j = 0; j < n; ++j) total += mul(x[j], y[j]);
  } else {
    for (size_t j = 0; j < n; ++j) total += mul(at(x, incx, j), at(y, incy, j));
  }
  return total;
}
// y_j += a·conj?(x_j) over contiguous complex vectors, written on their parts: the textbook
// product with −imag(a) (or −real(a) under conj) taken once, so that each part is one sum of
// two products (ar·xr + (−ai)·xi is ar·xr − ai·xi exactly) and the compiler's vector code needs
// one shuffle per element, where the loop on std::complex computed both sums of each part and
// picked lanes. The same bits (IEEE's x − y is x + (−y); only a NaN's sign may differ); at 32
// complex floats 17-22 ns a row against 26-32 (Sapphire Rapids class, g++ 12 -O3 at baseline
// x86-64).
template <class T>
void scalar_axpy_parts(bool conj_x, size_t n, T a, const T* x, T* y) {
  using R = real_t<T>;
  const R ar = a.real(), ai = a.imag();
  const R c_xi_re = conj_x ? ai : -ai, c_xi_im = conj_x ? -ar : ar;
  const R* xp = reinterpret_cast<const R*>(x);
  R* yp = reinterpret_cast<R*>(y);
  for (size_t j = 0; j < 2 * n; j += 2) {
    const R xr = xp[j], xi = xp[j + 1];
    const R re = ar * xr + c_xi_re * xi, im = c_xi_im * xi + ai * xr;
    yp[j] += re;
    yp[j + 1] += im;
  }
}

template <class T>
void scalar_axpy(bool conj_x, size_t n, T a, const T* x, ptrdiff_t incx, T* y, ptrdiff_t incy) {
  if constexpr (is_complex_v<T>) {
    if (incx == 1 && incy == 1) return scalar_axpy_parts(conj_x, n, a, x, y);
  }
  if (conj_x) {
    for (size_t j = 0; j < n; ++j) at(y, incy, j) += mul(a, conj(at(x, incx, j)));
  } else if (incx == 1 && incy == 1) {
    for (size_t j = 0; j < n; ++j) y[j] += mul(a, x[j]);
  } else {
    for (size_t j = 0; j < n; ++j) at(y, incy, j) += mul(a, at(x, incx, j));
  }
}
template <class T>
T scalar_subtract_dot(T total, bool conj_x, size_t n, const T* x, ptrdiff_t incx, const T* y,
                      ptrdiff_t incy) {
  for (size_t j = 0; j < n; ++j) total -= mul(conj_if(conj_x, at(x, incx, j)), at(y, incy, j));
  return total;
}

template <class T>
T scalar_axpy_dot(bool conj_axpy, bool conj_dot, size_t n, T a, const T* p, T* y, ptrdiff_t incy,
                  const T* x, ptrdiff_t incx) {
  T total(0);
  if (incx == 1 && incy == 1) {
    for (size_t j = 0; j < n; ++j) {
      y[j] += mul(a, conj_if(conj_axpy, p[j]));
      total += mul(conj_if(conj_dot, p[j]), x[j]);
    }
    return total;
  }
  for (size_t j = 0; j < n; ++j) {
    at(y, incy, j) += mul(a, conj_if(conj_axpy, p[j]));
    total += mul(conj_if(conj_dot, p[j]), at(x, incx, j));
  }
  return total;
}

template <class T>
void scalar_axpy2(bool conj, size_t n, T a, const T* u, ptrdiff_t incu, T b, const T* v,
                  ptrdiff_t incv, T* y) {
  if (incu == 1 && incv == 1) {
    for (size_t j = 0; j < n; ++j)
      y[j] += mul(conj_if(conj, u[j]), a) + mul(conj_if(conj, v[j]), b);
    return;
  }
  for (size_t j = 0; j < n; ++j) {
    y[j] += mul(conj_if(conj, at(u, incu, j)), a) + mul(conj_if(conj, at(v, incv, j)), b);
  }
}

// The row operations of `rows` on n elements, through rows' pointers; the reductions (dot,
// subtract_dot) run the scalar loops above inline below rows.scalar_below elements. The
// element-wise rows (axpy, axpy_dot, axpy2) always go through the pointers: an element's bits must
// not depend on the length of the row it is in, so that a routine called on part of a matrix
// gives that part the bits the call on the whole gives it (LAPACK's ?GGEV3 test compares the
// eigenvalues of two calls that update different ranges of the same matrix, bit for bit; the
// inline loop does not fuse where the engine does). A reduction's result depends on its row alone.
template <class T>
T row_op_dot(const RowOps<T>& rows, bool conj_x, size_t n, const T* x, ptrdiff_t incx, const T* y,
             ptrdiff_t incy) {
  if (n < rows.scalar_below) return scalar_dot(conj_x, n, x, incx, y, incy);
  return rows.dot(conj_x, n, x, incx, y, incy);
}
template <class T>
void row_op_axpy(const RowOps<T>& rows, bool conj_x, size_t n, T a, const T* x, ptrdiff_t incx,
                 T* y, ptrdiff_t incy) {
  rows.axpy(conj_x, n, a, x, incx, y, incy);
}
template <class T>
T row_op_subtract_dot(const RowOps<T>& rows, T total, bool conj_x, size_t n, const T* x,
                      ptrdiff_t incx, const T* y, ptrdiff_t incy) {
  if (n < rows.scalar_below) return scalar_subtract_dot(total, conj_x, n, x, incx, y, incy);
  return rows.subtract_dot(total, conj_x, n, x, incx, y, incy);
}
template <class T>
T row_op_axpy_dot(const RowOps<T>& rows, bool conj_axpy, bool conj_dot, size_t n, T a, const T* p,
                  T* y, ptrdiff_t incy, const T* x, ptrdiff_t incx) {
  return rows.axpy_dot(conj_axpy, conj_dot, n, a, p, y, incy, x, incx);
}
template <class T>
void row_op_axpy2(const RowOps<T>& rows, bool conj, size_t n, T a, const T* u, ptrdiff_t incu, T b,
                  const T* v, ptrdiff_t incv, T* y) {
  rows.axpy2(conj, n, a, u, incu, b, v, incv, y);
}

// Σ over j in [lo, hi) of conj?(p[j])·x_j: a stored row (contiguous) times a vector.
template <class T>
T row_dot(const RowOps<T>& rows, bool conj_p, const T* p, size_t lo, size_t hi, const T* x,
          ptrdiff_t incx) {
  return lo < hi ? row_op_dot(rows, conj_p, hi - lo, p + lo, 1, &at(x, incx, lo), incx) : T(0);
}

// y_j += t·conj?(p[j]) for j in [lo, hi).
template <class T>
void row_axpy(const RowOps<T>& rows, bool conj_p, T t, const T* p, size_t lo, size_t hi, T* y,
              ptrdiff_t incy) {
  if (lo < hi) row_op_axpy(rows, conj_p, hi - lo, t, p + lo, 1, &at(y, incy, lo), incy);
}

// y := beta·y over n elements: zeros without reading y when beta == 0, nothing when beta == 1.
template <class T>
void scale_by_beta(size_t n, T beta, T* y, ptrdiff_t incy) {
  if (beta == T(1)) return;
  for (size_t i = 0; i < n; ++i) at(y, incy, i) = beta == T(0) ? T(0) : mul(beta, at(y, incy, i));
}

constexpr bool transposes(Op op) { return op == Op::T || op == Op::C; }
constexpr bool conjugates(Op op) { return op == Op::C || op == Op::Conj; }
// op(A)ᵀ as an Op of A: N <-> T, C <-> Conj.
constexpr Op transposed(Op op) {
  switch (op) {
    case Op::N:
      return Op::T;
    case Op::T:
      return Op::N;
    case Op::C:
      return Op::Conj;
    case Op::Conj:
      break;
  }
  return Op::C;
}

// x := alpha·op(A)·x for a triangular A in storage S (trmv with alpha = 1; a row of trmm).
// op N or Conj: each x_i is a row times x, taken in the order that leaves the x_j it needs
// unchanged; op T or C: each x_i adds its multiple of row i to the later x_j, skipped when x_i is
// 0 (as the reference skips it). alpha multiplies each x_i before it spreads (T, C), or each
// finished sum (N, Conj), as in the reference.
template <class T, class S>
void triangular_multiply(Uplo uplo, Op op, Diag diag, size_t n, const S& a, T alpha, T* x,
                         ptrdiff_t incx, const RowOps<T>& rows) {
  const bool cj = is_complex_v<T> && conjugates(op), unit = diag == Diag::Unit;
  const bool upper = uplo == Uplo::Upper;
  if (!transposes(op)) {
    for (size_t step = 0; step < n; ++step) {
      const size_t i = upper ? step : n - 1 - step;
      const Row<const T> r = a.row(i);
      T total = unit ? at(x, incx, i) : mul(conj_if(cj, r.p[i]), at(x, incx, i));
      total += upper ? row_dot<T>(rows, cj, r.p, i + 1, r.hi, x, incx)
                     : row_dot<T>(rows, cj, r.p, r.lo, i, x, incx);
      at(x, incx, i) = alpha == T(1) ? total : mul(alpha, total);
    }
    return;
  }
  for (size_t step = 0; step < n; ++step) {
    const size_t i = upper ? n - 1 - step : step;
    const T xi = at(x, incx, i);
    if (xi == T(0)) continue;
    const Row<const T> r = a.row(i);
    const T t = alpha == T(1) ? xi : mul(alpha, xi);
    if (upper) {
      row_axpy(rows, cj, t, r.p, i + 1, r.hi, x, incx);
    } else {
      row_axpy(rows, cj, t, r.p, r.lo, i, x, incx);
    }
    at(x, incx, i) = unit ? t : mul(t, conj_if(cj, r.p[i]));
  }
}

// x := op(A)⁻¹·(alpha·x) for a triangular A in storage S (trsv with alpha = 1; a row of trsm).
// op N or Conj: each x_i is solved from the x_j already final (a row times x); op T or C: each
// final x_i is taken out of the later x_j (skipped when 0).
template <class T, class S>
void triangular_solve(Uplo uplo, Op op, Diag diag, size_t n, const S& a, T alpha, T* x,
                      ptrdiff_t incx, const RowOps<T>& rows) {
  const bool cj = is_complex_v<T> && conjugates(op), unit = diag == Diag::Unit;
  const bool upper = uplo == Uplo::Upper;
  if (!transposes(op)) {
    for (size_t step = 0; step < n; ++step) {
      const size_t i = upper ? n - 1 - step : step;
      const Row<const T> r = a.row(i);
      T total = alpha == T(1) ? at(x, incx, i) : mul(alpha, at(x, incx, i));
      const size_t lo = upper ? i + 1 : r.lo, hi = upper ? r.hi : i;
      if (lo < hi)
        total = row_op_subtract_dot(rows, total, cj, hi - lo, r.p + lo, 1, &at(x, incx, lo), incx);
      at(x, incx, i) = unit ? total : div(total, conj_if(cj, r.p[i]));
    }
    return;
  }
  if (alpha != T(1)) {
    for (size_t i = 0; i < n; ++i) at(x, incx, i) = mul(alpha, at(x, incx, i));
  }
  for (size_t step = 0; step < n; ++step) {
    const size_t i = upper ? step : n - 1 - step;
    T& xi = at(x, incx, i);
    if (xi == T(0)) continue;
    const Row<const T> r = a.row(i);
    if (!unit) xi = div(xi, conj_if(cj, r.p[i]));
    const T t = -xi;
    if (upper) {
      row_axpy(rows, cj, t, r.p, i + 1, r.hi, x, incx);
    } else {
      row_axpy(rows, cj, t, r.p, r.lo, i, x, incx);
    }
  }
}

// y := alpha·M·x + beta·y for M symmetric (hermitian = false) or Hermitian, given by the rows
// of its `uplo` triangle in storage S, or conj(M) when conj_m. Each stored element serves its
// row (a row times x) and its mirror (added to y_j); the diagonal of a Hermitian M counts as
// real.
template <class T, class S>
void symmetric_multiply(bool hermitian, bool conj_m, size_t n, const S& a, T alpha, const T* x,
                        ptrdiff_t incx, T beta, T* y, ptrdiff_t incy, const RowOps<T>& rows) {
  if (n == 0 || (alpha == T(0) && beta == T(1))) return;
  scale_by_beta(n, beta, y, incy);
  if (alpha == T(0)) return;
  const bool cj = is_complex_v<T> && conj_m, mirror_conj = is_complex_v<T> && hermitian;
  for (size_t i = 0; i < n; ++i) {
    const Row<const T> r = a.row(i);
    const T t1 = mul(alpha, at(x, incx, i));
    const T diagonal = hermitian ? scale(real_part(r.p[i]), t1) : mul(t1, conj_if(cj, r.p[i]));
    const bool diagonal_first = r.lo == i;
    T& yi = at(y, incy, i);
    if (diagonal_first) yi += diagonal;
    T t2(0);
    // The stored elements off the diagonal, those before it, then those after it: each adds its
    // mirror's term to y (conjugated for a Hermitian M) and its row's to t2.
    const auto off_diagonal = [&](size_t lo, size_t hi) {
      if (lo < hi) {
        t2 += row_op_axpy_dot(rows, cj != mirror_conj, cj, hi - lo, t1, r.p + lo, &at(y, incy, lo),
                              incy, &at(x, incx, lo), incx);
      }
    };
    off_diagonal(r.lo, i);
    off_diagonal(i + 1, r.hi);
    if (!diagonal_first) yi += diagonal;
    yi += mul(alpha, t2);
  }
}

}  // namespace coheriq::kernels::reference::blas
