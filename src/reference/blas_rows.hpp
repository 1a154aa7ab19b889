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

// Σ over j in [lo, hi) of conj?(p[j])·x_j, in order.
template <class T>
T row_dot(bool conj_p, const T* p, size_t lo, size_t hi, const T* x, ptrdiff_t incx) {
  T total(0);
  if (conj_p) {
    for (size_t j = lo; j < hi; ++j) total += mul(conj(p[j]), at(x, incx, j));
  } else if (incx == 1) {
    for (size_t j = lo; j < hi; ++j) total += mul(p[j], x[j]);
  } else {
    for (size_t j = lo; j < hi; ++j) total += mul(p[j], at(x, incx, j));
  }
  return total;
}

// y_j += t·conj?(p[j]) for j in [lo, hi).
template <class T>
void row_axpy(bool conj_p, T t, const T* p, size_t lo, size_t hi, T* y, ptrdiff_t incy) {
  if (conj_p) {
    for (size_t j = lo; j < hi; ++j) at(y, incy, j) += mul(t, conj(p[j]));
  } else if (incy == 1) {
    for (size_t j = lo; j < hi; ++j) y[j] += mul(t, p[j]);
  } else {
    for (size_t j = lo; j < hi; ++j) at(y, incy, j) += mul(t, p[j]);
  }
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
                         ptrdiff_t incx) {
  const bool cj = is_complex_v<T> && conjugates(op), unit = diag == Diag::Unit;
  const bool upper = uplo == Uplo::Upper;
  if (!transposes(op)) {
    for (size_t step = 0; step < n; ++step) {
      const size_t i = upper ? step : n - 1 - step;
      const Row<const T> r = a.row(i);
      T total = unit ? at(x, incx, i) : mul(conj_if(cj, r.p[i]), at(x, incx, i));
      total += upper ? row_dot(cj, r.p, i + 1, r.hi, x, incx) : row_dot(cj, r.p, r.lo, i, x, incx);
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
      row_axpy(cj, t, r.p, i + 1, r.hi, x, incx);
    } else {
      row_axpy(cj, t, r.p, r.lo, i, x, incx);
    }
    at(x, incx, i) = unit ? t : mul(t, conj_if(cj, r.p[i]));
  }
}

// x := op(A)⁻¹·(alpha·x) for a triangular A in storage S (trsv with alpha = 1; a row of trsm).
// op N or Conj: each x_i is solved from the x_j already final (a row times x); op T or C: each
// final x_i is taken out of the later x_j (skipped when 0).
template <class T, class S>
void triangular_solve(Uplo uplo, Op op, Diag diag, size_t n, const S& a, T alpha, T* x,
                      ptrdiff_t incx) {
  const bool cj = is_complex_v<T> && conjugates(op), unit = diag == Diag::Unit;
  const bool upper = uplo == Uplo::Upper;
  if (!transposes(op)) {
    for (size_t step = 0; step < n; ++step) {
      const size_t i = upper ? n - 1 - step : step;
      const Row<const T> r = a.row(i);
      // Each product taken out of the running value in turn, as the reference does.
      T total = alpha == T(1) ? at(x, incx, i) : mul(alpha, at(x, incx, i));
      const size_t lo = upper ? i + 1 : r.lo, hi = upper ? r.hi : i;
      for (size_t j = lo; j < hi; ++j) total -= mul(conj_if(cj, r.p[j]), at(x, incx, j));
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
      row_axpy(cj, t, r.p, i + 1, r.hi, x, incx);
    } else {
      row_axpy(cj, t, r.p, r.lo, i, x, incx);
    }
  }
}

// y := alpha·M·x + beta·y for M symmetric (hermitian = false) or Hermitian, given by the rows
// of its `uplo` triangle in storage S, or conj(M) when conj_m. Each stored element serves its
// row (a row times x) and its mirror (added to y_j); the diagonal of a Hermitian M counts as
// real.
template <class T, class S>
void symmetric_multiply(bool hermitian, bool conj_m, size_t n, const S& a, T alpha, const T* x,
                        ptrdiff_t incx, T beta, T* y, ptrdiff_t incy) {
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
    // The stored elements off the diagonal: those before it, then those after it.
    const auto off_diagonal = [&](size_t lo, size_t hi) {
      if (incx == 1 && incy == 1) {
        for (size_t j = lo; j < hi; ++j) {
          const T w = conj_if(cj, r.p[j]);
          y[j] += mul(t1, conj_if(mirror_conj, w));
          t2 += mul(w, x[j]);
        }
        return;
      }
      for (size_t j = lo; j < hi; ++j) {
        const T w = conj_if(cj, r.p[j]);
        at(y, incy, j) += mul(t1, conj_if(mirror_conj, w));
        t2 += mul(w, at(x, incx, j));
      }
    };
    off_diagonal(r.lo, i);
    off_diagonal(i + 1, r.hi);
    if (!diagonal_first) yi += diagonal;
    yi += mul(alpha, t2);
  }
}

}  // namespace coheriq::kernels::reference::blas
