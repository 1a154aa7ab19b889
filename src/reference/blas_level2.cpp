// The reference engine's level-2 BLAS kernels (src/reference/blas.hpp), each written once over
// the storages of blas_rows.hpp: gemv and gbmv are one loop, symv, sbmv and spmv (and their
// Hermitian siblings) another, and so on.
#include <complex>
#include <cstddef>
#include <limits>

#include "reference/blas.hpp"
#include "reference/blas_rows.hpp"

namespace coheriq::kernels::reference::blas {
namespace {

// y := alpha·op(A)·x + beta·y: op N or Conj takes a row times x per y_i; op T or C adds alpha·x_i
// times row i to y (the reference's two loop forms, which a column-major call swaps).
template <class T, class S>
void general_multiply(Op op, size_t m, size_t n, const S& a, T alpha, const T* x, ptrdiff_t incx,
                      T beta, T* y, ptrdiff_t incy, const RowOps<T>& rows) {
  if (m == 0 || n == 0 || (alpha == T(0) && beta == T(1))) return;
  const bool trans = transposes(op), cj = is_complex_v<T> && conjugates(op);
  scale_by_beta(trans ? n : m, beta, y, incy);
  if (alpha == T(0)) return;
  for (size_t i = 0; i < m; ++i) {
    const Row<const T> r = a.row(i);
    if (trans) {
      row_axpy(rows, cj, mul(alpha, at(x, incx, i)), r.p, r.lo, r.hi, y, incy);
    } else {
      at(y, incy, i) += mul(alpha, row_dot(rows, cj, r.p, r.lo, r.hi, x, incx));
    }
  }
}

// The stored triangle of M := alpha·x'·x'ᴴ + M (Hermitian) or alpha·x'·x'ᵀ + M, x' = conj?(x):
// row i adds alpha·x'_i times the (conjugated) x'; rows with x'_i = 0 are skipped, as the
// reference skips them (a Hermitian diagonal still loses its imaginary part).
template <class T, class S>
void symmetric_rank1(bool hermitian, bool conj_x, size_t n, T alpha, const T* x, ptrdiff_t incx,
                     const S& a, const RowOps<T>& rows) {
  if (n == 0 || alpha == T(0)) return;
  const bool cx = is_complex_v<T> && conj_x, mirror = is_complex_v<T> && hermitian;
  for (size_t i = 0; i < n; ++i) {
    const T xi = conj_if(cx, at(x, incx, i));
    const Row<T> r = a.row(i);
    if (xi == T(0)) {
      if (mirror) r.p[i] = T(real_part(r.p[i]));
      continue;
    }
    const T t = mul(alpha, xi);
    // x' conjugated again for the mirror: conj(x') is x when conj_x, conj(x) when not.
    const bool cj = cx != mirror;
    const auto update = [&](size_t lo, size_t hi) {
      if (lo < hi) row_op_axpy(rows, cj, hi - lo, t, &at(x, incx, lo), incx, r.p + lo, 1);
    };
    update(r.lo, i);
    const T v = mul(conj_if(cj, at(x, incx, i)), t);
    r.p[i] = mirror ? T(real_part(r.p[i]) + real_part(v)) : r.p[i] + v;
    update(i + 1, r.hi);
  }
}

// M := alpha·x'·y'ᴴ + conj(alpha)·y'·x'ᴴ + M (Hermitian) or alpha·(x·yᵀ + y·xᵀ) + M.
template <class T, class S>
void symmetric_rank2(bool hermitian, bool conj_xy, size_t n, T alpha, const T* x, ptrdiff_t incx,
                     const T* y, ptrdiff_t incy, const S& a, const RowOps<T>& rows) {
  if (n == 0 || alpha == T(0)) return;
  const bool c = is_complex_v<T> && conj_xy, mirror = is_complex_v<T> && hermitian;
  for (size_t i = 0; i < n; ++i) {
    const T xi = conj_if(c, at(x, incx, i)), yi = conj_if(c, at(y, incy, i));
    const Row<T> r = a.row(i);
    if (xi == T(0) && yi == T(0)) {
      if (mirror) r.p[i] = T(real_part(r.p[i]));
      continue;
    }
    const T t1 = mul(alpha, xi), t2 = mul(conj_if(mirror, alpha), yi);
    const bool cj = c != mirror;  // as in symmetric_rank1
    const auto term = [&](size_t j) {
      return mul(conj_if(cj, at(y, incy, j)), t1) + mul(conj_if(cj, at(x, incx, j)), t2);
    };
    const auto update = [&](size_t lo, size_t hi) {
      if (lo < hi) {
        row_op_axpy2(rows, cj, hi - lo, t1, &at(y, incy, lo), incy, t2, &at(x, incx, lo), incx,
                     r.p + lo);
      }
    };
    update(r.lo, i);
    const T v = term(i);
    r.p[i] = mirror ? T(real_part(r.p[i]) + real_part(v)) : r.p[i] + v;
    update(i + 1, r.hi);
  }
}

}  // namespace

template <class T>
void gemv(Op op, size_t m, size_t n, T alpha, const T* a, size_t lda, const T* x, ptrdiff_t incx,
          T beta, T* y, ptrdiff_t incy, const RowOps<T>& rows) {
  general_multiply(op, m, n, Dense<const T>{a, lda, n}, alpha, x, incx, beta, y, incy, rows);
}

template <class T>
void gbmv(Op op, size_t m, size_t n, size_t kl, size_t ku, T alpha, const T* a, size_t lda,
          const T* x, ptrdiff_t incx, T beta, T* y, ptrdiff_t incy, const RowOps<T>& rows) {
  general_multiply(op, m, n, Band<const T>{a, lda, n, kl, ku}, alpha, x, incx, beta, y, incy, rows);
}

template <class T>
void symv(Uplo uplo, size_t n, T alpha, const T* a, size_t lda, const T* x, ptrdiff_t incx, T beta,
          T* y, ptrdiff_t incy, const RowOps<T>& rows) {
  symmetric_multiply(false, false, n, Triangle<const T>{a, lda, n, uplo}, alpha, x, incx, beta, y,
                     incy, rows);
}
template <class T>
void hemv(Uplo uplo, bool conj_a, size_t n, T alpha, const T* a, size_t lda, const T* x,
          ptrdiff_t incx, T beta, T* y, ptrdiff_t incy, const RowOps<T>& rows) {
  symmetric_multiply(true, conj_a, n, Triangle<const T>{a, lda, n, uplo}, alpha, x, incx, beta, y,
                     incy, rows);
}
template <class T>
void sbmv(Uplo uplo, size_t n, size_t k, T alpha, const T* a, size_t lda, const T* x,
          ptrdiff_t incx, T beta, T* y, ptrdiff_t incy, const RowOps<T>& rows) {
  symmetric_multiply(false, false, n, BandTriangle<const T>{a, lda, n, k, uplo}, alpha, x, incx,
                     beta, y, incy, rows);
}
template <class T>
void hbmv(Uplo uplo, bool conj_a, size_t n, size_t k, T alpha, const T* a, size_t lda, const T* x,
          ptrdiff_t incx, T beta, T* y, ptrdiff_t incy, const RowOps<T>& rows) {
  symmetric_multiply(true, conj_a, n, BandTriangle<const T>{a, lda, n, k, uplo}, alpha, x, incx,
                     beta, y, incy, rows);
}
template <class T>
void spmv(Uplo uplo, size_t n, T alpha, const T* ap, const T* x, ptrdiff_t incx, T beta, T* y,
          ptrdiff_t incy, const RowOps<T>& rows) {
  symmetric_multiply(false, false, n, Packed<const T>{ap, n, uplo}, alpha, x, incx, beta, y, incy,
                     rows);
}
template <class T>
void hpmv(Uplo uplo, bool conj_a, size_t n, T alpha, const T* ap, const T* x, ptrdiff_t incx,
          T beta, T* y, ptrdiff_t incy, const RowOps<T>& rows) {
  symmetric_multiply(true, conj_a, n, Packed<const T>{ap, n, uplo}, alpha, x, incx, beta, y, incy,
                     rows);
}

template <class T>
void trmv(Uplo uplo, Op op, Diag diag, size_t n, const T* a, size_t lda, T* x, ptrdiff_t incx,
          const RowOps<T>& rows) {
  triangular_multiply(uplo, op, diag, n, Triangle<const T>{a, lda, n, uplo}, T(1), x, incx, rows);
}
template <class T>
void tbmv(Uplo uplo, Op op, Diag diag, size_t n, size_t k, const T* a, size_t lda, T* x,
          ptrdiff_t incx, const RowOps<T>& rows) {
  triangular_multiply(uplo, op, diag, n, BandTriangle<const T>{a, lda, n, k, uplo}, T(1), x, incx,
                      rows);
}
template <class T>
void tpmv(Uplo uplo, Op op, Diag diag, size_t n, const T* ap, T* x, ptrdiff_t incx,
          const RowOps<T>& rows) {
  triangular_multiply(uplo, op, diag, n, Packed<const T>{ap, n, uplo}, T(1), x, incx, rows);
}
template <class T>
void trsv(Uplo uplo, Op op, Diag diag, size_t n, const T* a, size_t lda, T* x, ptrdiff_t incx,
          const RowOps<T>& rows) {
  triangular_solve(uplo, op, diag, n, Triangle<const T>{a, lda, n, uplo}, T(1), x, incx, rows);
}
template <class T>
void tbsv(Uplo uplo, Op op, Diag diag, size_t n, size_t k, const T* a, size_t lda, T* x,
          ptrdiff_t incx, const RowOps<T>& rows) {
  triangular_solve(uplo, op, diag, n, BandTriangle<const T>{a, lda, n, k, uplo}, T(1), x, incx,
                   rows);
}
template <class T>
void tpsv(Uplo uplo, Op op, Diag diag, size_t n, const T* ap, T* x, ptrdiff_t incx,
          const RowOps<T>& rows) {
  triangular_solve(uplo, op, diag, n, Packed<const T>{ap, n, uplo}, T(1), x, incx, rows);
}

// Row i adds alpha·x'_i times y' (skipped when x'_i is 0, as the reference skips it).
template <class T>
void ger(bool conj_x, bool conj_y, size_t m, size_t n, T alpha, const T* x, ptrdiff_t incx,
         const T* y, ptrdiff_t incy, T* a, size_t lda, const RowOps<T>& rows) {
  if (m == 0 || n == 0 || alpha == T(0)) return;
  const bool cx = is_complex_v<T> && conj_x, cy = is_complex_v<T> && conj_y;
  for (size_t i = 0; i < m; ++i) {
    const T xi = conj_if(cx, at(x, incx, i));
    if (xi == T(0)) continue;
    const T t = mul(alpha, xi);
    row_op_axpy(rows, cy, n, t, y, incy, a + i * lda, 1);
  }
}

template <class T>
void syr(Uplo uplo, size_t n, T alpha, const T* x, ptrdiff_t incx, T* a, size_t lda,
         const RowOps<T>& rows) {
  symmetric_rank1(false, false, n, alpha, x, incx, Triangle<T>{a, lda, n, uplo}, rows);
}
template <class T>
void her(Uplo uplo, bool conj_x, size_t n, real_t<T> alpha, const T* x, ptrdiff_t incx, T* a,
         size_t lda, const RowOps<T>& rows) {
  symmetric_rank1(true, conj_x, n, T(alpha), x, incx, Triangle<T>{a, lda, n, uplo}, rows);
}
template <class T>
void spr(Uplo uplo, size_t n, T alpha, const T* x, ptrdiff_t incx, T* ap, const RowOps<T>& rows) {
  symmetric_rank1(false, false, n, alpha, x, incx, Packed<T>{ap, n, uplo}, rows);
}
template <class T>
void hpr(Uplo uplo, bool conj_x, size_t n, real_t<T> alpha, const T* x, ptrdiff_t incx, T* ap,
         const RowOps<T>& rows) {
  symmetric_rank1(true, conj_x, n, T(alpha), x, incx, Packed<T>{ap, n, uplo}, rows);
}
template <class T>
void syr2(Uplo uplo, size_t n, T alpha, const T* x, ptrdiff_t incx, const T* y, ptrdiff_t incy,
          T* a, size_t lda, const RowOps<T>& rows) {
  symmetric_rank2(false, false, n, alpha, x, incx, y, incy, Triangle<T>{a, lda, n, uplo}, rows);
}
template <class T>
void her2(Uplo uplo, bool conj_xy, size_t n, T alpha, const T* x, ptrdiff_t incx, const T* y,
          ptrdiff_t incy, T* a, size_t lda, const RowOps<T>& rows) {
  symmetric_rank2(true, conj_xy, n, alpha, x, incx, y, incy, Triangle<T>{a, lda, n, uplo}, rows);
}
template <class T>
void spr2(Uplo uplo, size_t n, T alpha, const T* x, ptrdiff_t incx, const T* y, ptrdiff_t incy,
          T* ap, const RowOps<T>& rows) {
  symmetric_rank2(false, false, n, alpha, x, incx, y, incy, Packed<T>{ap, n, uplo}, rows);
}
template <class T>
void hpr2(Uplo uplo, bool conj_xy, size_t n, T alpha, const T* x, ptrdiff_t incx, const T* y,
          ptrdiff_t incy, T* ap, const RowOps<T>& rows) {
  symmetric_rank2(true, conj_xy, n, alpha, x, incx, y, incy, Packed<T>{ap, n, uplo}, rows);
}

template <class T>
const RowOps<T>& scalar_rows() {
  static constexpr RowOps<T> ops{&scalar_dot<T>,          &scalar_axpy<T>,
                                 &scalar_subtract_dot<T>, &scalar_axpy_dot<T>,
                                 &scalar_axpy2<T>,        std::numeric_limits<size_t>::max()};
  return ops;
}

// ------------------------------ Instantiations

#define COHERIQ_BLAS2_ALL(T)                                                                    \
  template void gemv<T>(Op, size_t, size_t, T, const T*, size_t, const T*, ptrdiff_t, T, T*,    \
                        ptrdiff_t, const RowOps<T>&);                                           \
  template void gbmv<T>(Op, size_t, size_t, size_t, size_t, T, const T*, size_t, const T*,      \
                        ptrdiff_t, T, T*, ptrdiff_t, const RowOps<T>&);                         \
  template void trmv<T>(Uplo, Op, Diag, size_t, const T*, size_t, T*, ptrdiff_t,                \
                        const RowOps<T>&);                                                      \
  template void tbmv<T>(Uplo, Op, Diag, size_t, size_t, const T*, size_t, T*, ptrdiff_t,        \
                        const RowOps<T>&);                                                      \
  template void tpmv<T>(Uplo, Op, Diag, size_t, const T*, T*, ptrdiff_t, const RowOps<T>&);     \
  template void trsv<T>(Uplo, Op, Diag, size_t, const T*, size_t, T*, ptrdiff_t,                \
                        const RowOps<T>&);                                                      \
  template void tbsv<T>(Uplo, Op, Diag, size_t, size_t, const T*, size_t, T*, ptrdiff_t,        \
                        const RowOps<T>&);                                                      \
  template void tpsv<T>(Uplo, Op, Diag, size_t, const T*, T*, ptrdiff_t, const RowOps<T>&);     \
  template void ger<T>(bool, bool, size_t, size_t, T, const T*, ptrdiff_t, const T*, ptrdiff_t, \
                       T*, size_t, const RowOps<T>&);
#define COHERIQ_BLAS2_REAL(T)                                                                     \
  template void symv<T>(Uplo, size_t, T, const T*, size_t, const T*, ptrdiff_t, T, T*, ptrdiff_t, \
                        const RowOps<T>&);                                                        \
  template void sbmv<T>(Uplo, size_t, size_t, T, const T*, size_t, const T*, ptrdiff_t, T, T*,    \
                        ptrdiff_t, const RowOps<T>&);                                             \
  template void spmv<T>(Uplo, size_t, T, const T*, const T*, ptrdiff_t, T, T*, ptrdiff_t,         \
                        const RowOps<T>&);                                                        \
  template void syr<T>(Uplo, size_t, T, const T*, ptrdiff_t, T*, size_t, const RowOps<T>&);       \
  template void spr<T>(Uplo, size_t, T, const T*, ptrdiff_t, T*, const RowOps<T>&);               \
  template void syr2<T>(Uplo, size_t, T, const T*, ptrdiff_t, const T*, ptrdiff_t, T*, size_t,    \
                        const RowOps<T>&);                                                        \
  template void spr2<T>(Uplo, size_t, T, const T*, ptrdiff_t, const T*, ptrdiff_t, T*,            \
                        const RowOps<T>&);
#define COHERIQ_BLAS2_COMPLEX(T)                                                                  \
  template void hemv<T>(Uplo, bool, size_t, T, const T*, size_t, const T*, ptrdiff_t, T, T*,      \
                        ptrdiff_t, const RowOps<T>&);                                             \
  template void hbmv<T>(Uplo, bool, size_t, size_t, T, const T*, size_t, const T*, ptrdiff_t, T,  \
                        T*, ptrdiff_t, const RowOps<T>&);                                         \
  template void hpmv<T>(Uplo, bool, size_t, T, const T*, const T*, ptrdiff_t, T, T*, ptrdiff_t,   \
                        const RowOps<T>&);                                                        \
  template void her<T>(Uplo, bool, size_t, real_t<T>, const T*, ptrdiff_t, T*, size_t,            \
                       const RowOps<T>&);                                                         \
  template void hpr<T>(Uplo, bool, size_t, real_t<T>, const T*, ptrdiff_t, T*, const RowOps<T>&); \
  template void her2<T>(Uplo, bool, size_t, T, const T*, ptrdiff_t, const T*, ptrdiff_t, T*,      \
                        size_t, const RowOps<T>&);                                                \
  template void hpr2<T>(Uplo, bool, size_t, T, const T*, ptrdiff_t, const T*, ptrdiff_t, T*,      \
                        const RowOps<T>&);
template const RowOps<float>& scalar_rows<float>();
template const RowOps<double>& scalar_rows<double>();
template const RowOps<std::complex<float>>& scalar_rows<std::complex<float>>();
template const RowOps<std::complex<double>>& scalar_rows<std::complex<double>>();
COHERIQ_BLAS2_ALL(float)
COHERIQ_BLAS2_ALL(double)
COHERIQ_BLAS2_ALL(std::complex<float>)
COHERIQ_BLAS2_ALL(std::complex<double>)
COHERIQ_BLAS2_REAL(float)
COHERIQ_BLAS2_REAL(double)
COHERIQ_BLAS2_COMPLEX(std::complex<float>)
COHERIQ_BLAS2_COMPLEX(std::complex<double>)
#undef COHERIQ_BLAS2_ALL
#undef COHERIQ_BLAS2_REAL
#undef COHERIQ_BLAS2_COMPLEX

}  // namespace coheriq::kernels::reference::blas
