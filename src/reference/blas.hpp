// The reference engine's kernels for the BLAS beyond the kernels domain's candidates: level 1
// (copy, swap, the rotations, complex arithmetic), level 2 and level 3, over float, double,
// std::complex<float> and std::complex<double>. libcoheriq_blas maps the Fortran and CBLAS
// calls onto these (src/blas/layer.hpp) where no kernels-domain candidate serves them (the real
// copy, swap, rot, gemv and ger are candidates whose reference versions call these: blas1.cpp,
// blas2.cpp), passing its own row operations to the level-2 loops (RowOps, below). They follow
// the conventions of the candidates:
//
// - Matrices are row-major as stored, with leading dimensions; sizes are std::size_t.
// - A vector is (x, inc): element i is x[i * inc] for any increment, 0 and negative included;
//   x points at element 0 (the highest address when inc < 0).
// - Op says how a matrix enters: as stored (N), transposed (T), conjugate-transposed (C) or
//   conjugated (Conj). For real data C is T and Conj is N. A column-major matrix read row-major
//   is its transpose, which is how the BLAS layer maps column-major calls onto these.
// - A triangular, symmetric or Hermitian matrix is given by the `uplo` triangle of its rows;
//   band and packed storage are the row-major ones (CBLAS's), described at each kernel.
// - The reference BLAS's rules hold: alpha == 0 reads neither A nor x (nor B), beta == 0 does
//   not read y (or C), the diagonal of a Hermitian matrix is taken as real (its imaginary part
//   is neither read nor, by the rank updates, kept), Unit diagonals are not read.
//
// Portable scalar code in the reference BLAS's own loop orders (no compensated sums: these are
// not the test oracle, tests/kernels/oracle.hpp is), baseline flags.
#pragma once

#include <coheriq/kernels.hpp>

#include <complex>
#include <cstddef>

#include "reference/scalar.hpp"

namespace coheriq::kernels::reference::blas {

using std::ptrdiff_t;
using std::size_t;

// ------------------------------ Level 1 (all four types unless said)

// y := x.
template <class T>
void copy(size_t n, const T* x, ptrdiff_t incx, T* y, ptrdiff_t incy);
// x <-> y.
template <class T>
void swap(size_t n, T* x, ptrdiff_t incx, T* y, ptrdiff_t incy);
// (x_i, y_i) := (c·x_i + s·y_i, c·y_i − s·x_i), c and s real (complex x and y: csrot, zdrot).
template <class T>
void rot(size_t n, T* x, ptrdiff_t incx, T* y, ptrdiff_t incy, real_t<T> c, real_t<T> s);
// The modified Givens rotation given by param (flag, h11, h21, h12, h22), real T.
template <class T>
void rotm(size_t n, T* x, ptrdiff_t incx, T* y, ptrdiff_t incy, const T* param);
// The Givens rotation zeroing b: r (in a), z (in b; complex: b unchanged), c and s.
template <class T>
void rotg(T* a, T* b, real_t<T>* c, T* s);
// The modified Givens rotation zeroing the second component of (√d1·x1, √d2·y1), real T.
template <class T>
void rotmg(T* d1, T* d2, T* x1, T y1, T* param);

// Complex only (the real ones are the kernels domain's dot, axpy, ... candidates):
// Σ conj?(x_i)·y_i (conj_x: dotc, else dotu).
template <class T>
T dot(bool conj_x, size_t n, const T* x, ptrdiff_t incx, const T* y, ptrdiff_t incy);
template <class T>
void axpy(size_t n, T alpha, const T* x, ptrdiff_t incx, T* y, ptrdiff_t incy);
template <class T>
void scal(size_t n, T alpha, T* x, ptrdiff_t incx);
// x := alpha·x with a real alpha (csscal, zdscal).
template <class T>
void scal_real(size_t n, real_t<T> alpha, T* x, ptrdiff_t incx);
// Σ |re x_i| + |im x_i|.
template <class T>
real_t<T> asum(size_t n, const T* x, ptrdiff_t incx);
// √Σ|x_i|² without overflow or underflow for any finite input; NaN if any part is NaN, else
// +Inf if any is infinite.
template <class T>
real_t<T> nrm2(size_t n, const T* x, ptrdiff_t incx);
// The first i of the largest |re x_i| + |im x_i| (|x_i| for real T; a NaN only as element 0, as
// the reference's `>` comparison gives); 0 when n == 0. All four types.
template <class T>
size_t iamax(size_t n, const T* x, ptrdiff_t incx);

// Mixed precision, real: sb + Σ x_i·y_i and Σ x_i·y_i accumulated in double.
float sdsdot(size_t n, float sb, const float* x, ptrdiff_t incx, const float* y, ptrdiff_t incy);
double dsdot(size_t n, const float* x, ptrdiff_t incx, const float* y, ptrdiff_t incy);

// ------------------------------ Row operations

// Every level-2 kernel below is made of operations on a stored row of its matrix and a vector:
// a dot and an axpy (the solves subtract a dot, the symmetric products take both at once, the
// rank-2 updates two axpys at once). The
// caller passes them: by default the scalar loops of blas_rows.hpp, in the reference BLAS's
// order; libcoheriq_blas passes the kernels domain's strided and complex BLAS-1 kernels of the
// engine in effect (src/blas/level2.hpp), so the same loops run at the engine's speed.
template <class T>
struct RowOps {
  // Σ conj?(x_i)·y_i over n elements.
  using Dot = T (*)(bool conj_x, size_t n, const T* x, ptrdiff_t incx, const T* y, ptrdiff_t incy);
  // y_i += a·conj?(x_i) over n elements.
  using Axpy = void (*)(bool conj_x, size_t n, T a, const T* x, ptrdiff_t incx, T* y,
                        ptrdiff_t incy);
  // total − Σ conj?(x_i)·y_i (the scalar loop takes each product out in turn, as the
  // reference's trsv does).
  using SubtractDot = T (*)(T total, bool conj_x, size_t n, const T* x, ptrdiff_t incx, const T* y,
                            ptrdiff_t incy);
  // Both at once, for a symmetric or Hermitian product's stored row p (contiguous): y_i +=
  // a·conj?(p_i) (conj_axpy), and the result Σ conj?(p_i)·x_i (conj_dot); the scalar loop reads
  // p once.
  using AxpyDot = T (*)(bool conj_axpy, bool conj_dot, size_t n, T a, const T* p, T* y,
                        ptrdiff_t incy, const T* x, ptrdiff_t incx);
  // y_i += a·conj?(u_i) + b·conj?(v_i), the two terms summed first by the scalar loop (a
  // rank-2 update's row).
  using Axpy2 = void (*)(bool conj, size_t n, T a, const T* u, ptrdiff_t incu, T b, const T* v,
                         ptrdiff_t incv, T* y);
  Dot dot;
  Axpy axpy;
  SubtractDot subtract_dot;
  AxpyDot axpy_dot;
  Axpy2 axpy2;
  // Reductions (dot, subtract_dot) of fewer elements run the scalar loops inline, without a
  // call through the pointers (SIZE_MAX: always); element-wise rows always call (blas_rows.hpp).
  size_t scalar_below;
};
// The scalar loops (all four types).
template <class T>
const RowOps<T>& scalar_rows();

// ------------------------------ Level 2

// y := alpha·op(A)·x + beta·y, A m x n; x has n elements for op N or Conj, m for T or C.
template <class T>
void gemv(Op op, size_t m, size_t n, T alpha, const T* a, size_t lda, const T* x, ptrdiff_t incx,
          T beta, T* y, ptrdiff_t incy, const RowOps<T>& rows = scalar_rows<T>());
// The same for a band matrix with kl sub- and ku super-diagonals: row i holds A(i, j) for
// i − kl <= j <= i + ku at a[i·lda + kl + j − i].
template <class T>
void gbmv(Op op, size_t m, size_t n, size_t kl, size_t ku, T alpha, const T* a, size_t lda,
          const T* x, ptrdiff_t incx, T beta, T* y, ptrdiff_t incy,
          const RowOps<T>& rows = scalar_rows<T>());

// y := alpha·A·x + beta·y, A n x n symmetric (real T) or Hermitian (complex T, hemv) given by
// its `uplo` triangle; conj_a: conj(A) instead (which is Aᵀ for a Hermitian A). Band (sbmv,
// hbmv): the k diagonals beside the main one; row i holds A(i, j) at a[i·lda + j − i] (Upper,
// i <= j <= i + k) or a[i·lda + k + j − i] (Lower, i − k <= j <= i). Packed (spmv, hpmv): the
// triangle's rows one after another.
template <class T>
void symv(Uplo uplo, size_t n, T alpha, const T* a, size_t lda, const T* x, ptrdiff_t incx, T beta,
          T* y, ptrdiff_t incy, const RowOps<T>& rows = scalar_rows<T>());
template <class T>
void hemv(Uplo uplo, bool conj_a, size_t n, T alpha, const T* a, size_t lda, const T* x,
          ptrdiff_t incx, T beta, T* y, ptrdiff_t incy, const RowOps<T>& rows = scalar_rows<T>());
template <class T>
void sbmv(Uplo uplo, size_t n, size_t k, T alpha, const T* a, size_t lda, const T* x,
          ptrdiff_t incx, T beta, T* y, ptrdiff_t incy, const RowOps<T>& rows = scalar_rows<T>());
template <class T>
void hbmv(Uplo uplo, bool conj_a, size_t n, size_t k, T alpha, const T* a, size_t lda, const T* x,
          ptrdiff_t incx, T beta, T* y, ptrdiff_t incy, const RowOps<T>& rows = scalar_rows<T>());
template <class T>
void spmv(Uplo uplo, size_t n, T alpha, const T* ap, const T* x, ptrdiff_t incx, T beta, T* y,
          ptrdiff_t incy, const RowOps<T>& rows = scalar_rows<T>());
template <class T>
void hpmv(Uplo uplo, bool conj_a, size_t n, T alpha, const T* ap, const T* x, ptrdiff_t incx,
          T beta, T* y, ptrdiff_t incy, const RowOps<T>& rows = scalar_rows<T>());

// x := op(A)·x (trmv) and x := op(A)⁻¹·x (trsv), A n x n triangular (`uplo`), Unit: its diagonal
// is taken as 1 and not read. Band and packed storage as for sbmv and spmv.
template <class T>
void trmv(Uplo uplo, Op op, Diag diag, size_t n, const T* a, size_t lda, T* x, ptrdiff_t incx,
          const RowOps<T>& rows = scalar_rows<T>());
template <class T>
void tbmv(Uplo uplo, Op op, Diag diag, size_t n, size_t k, const T* a, size_t lda, T* x,
          ptrdiff_t incx, const RowOps<T>& rows = scalar_rows<T>());
template <class T>
void tpmv(Uplo uplo, Op op, Diag diag, size_t n, const T* ap, T* x, ptrdiff_t incx,
          const RowOps<T>& rows = scalar_rows<T>());
template <class T>
void trsv(Uplo uplo, Op op, Diag diag, size_t n, const T* a, size_t lda, T* x, ptrdiff_t incx,
          const RowOps<T>& rows = scalar_rows<T>());
template <class T>
void tbsv(Uplo uplo, Op op, Diag diag, size_t n, size_t k, const T* a, size_t lda, T* x,
          ptrdiff_t incx, const RowOps<T>& rows = scalar_rows<T>());
template <class T>
void tpsv(Uplo uplo, Op op, Diag diag, size_t n, const T* ap, T* x, ptrdiff_t incx,
          const RowOps<T>& rows = scalar_rows<T>());

// A := alpha·x'·y'ᵀ + A, A m x n, x' = conj(x) if conj_x else x, y' likewise (ger, geru, gerc).
template <class T>
void ger(bool conj_x, bool conj_y, size_t m, size_t n, T alpha, const T* x, ptrdiff_t incx,
         const T* y, ptrdiff_t incy, T* a, size_t lda, const RowOps<T>& rows = scalar_rows<T>());
// The `uplo` triangle of A := alpha·x·xᵀ + A (syr, spr; real) or alpha·x'·x'ᴴ + A with x' =
// conj?(x) and a real alpha (her, hpr; the diagonal's imaginary parts become 0).
template <class T>
void syr(Uplo uplo, size_t n, T alpha, const T* x, ptrdiff_t incx, T* a, size_t lda,
         const RowOps<T>& rows = scalar_rows<T>());
template <class T>
void her(Uplo uplo, bool conj_x, size_t n, real_t<T> alpha, const T* x, ptrdiff_t incx, T* a,
         size_t lda, const RowOps<T>& rows = scalar_rows<T>());
template <class T>
void spr(Uplo uplo, size_t n, T alpha, const T* x, ptrdiff_t incx, T* ap,
         const RowOps<T>& rows = scalar_rows<T>());
template <class T>
void hpr(Uplo uplo, bool conj_x, size_t n, real_t<T> alpha, const T* x, ptrdiff_t incx, T* ap,
         const RowOps<T>& rows = scalar_rows<T>());
// The `uplo` triangle of A := alpha·x·yᵀ + alpha·y·xᵀ + A (syr2, spr2; real) or
// alpha·x'·y'ᴴ + conj(alpha)·y'·x'ᴴ + A with x', y' conjugated when conj_xy (her2, hpr2).
template <class T>
void syr2(Uplo uplo, size_t n, T alpha, const T* x, ptrdiff_t incx, const T* y, ptrdiff_t incy,
          T* a, size_t lda, const RowOps<T>& rows = scalar_rows<T>());
template <class T>
void her2(Uplo uplo, bool conj_xy, size_t n, T alpha, const T* x, ptrdiff_t incx, const T* y,
          ptrdiff_t incy, T* a, size_t lda, const RowOps<T>& rows = scalar_rows<T>());
template <class T>
void spr2(Uplo uplo, size_t n, T alpha, const T* x, ptrdiff_t incx, const T* y, ptrdiff_t incy,
          T* ap, const RowOps<T>& rows = scalar_rows<T>());
template <class T>
void hpr2(Uplo uplo, bool conj_xy, size_t n, T alpha, const T* x, ptrdiff_t incx, const T* y,
          ptrdiff_t incy, T* ap, const RowOps<T>& rows = scalar_rows<T>());

// ------------------------------ Level 3

// C := alpha·op(A)·op(B) + beta·C, op(A) m x k, op(B) k x n (complex GEMM; any T).
template <class T>
void gemm(Op opa, Op opb, size_t m, size_t n, size_t k, T alpha, const T* a, size_t lda, const T* b,
          size_t ldb, T beta, T* c, size_t ldc);
// C := alpha·A·B + beta·C (Left) or alpha·B·A + beta·C (Right), C m x n, A symmetric (symm) or
// Hermitian (hemm) given by its `uplo` triangle.
template <class T>
void symm(Side side, Uplo uplo, size_t m, size_t n, T alpha, const T* a, size_t lda, const T* b,
          size_t ldb, T beta, T* c, size_t ldc);
template <class T>
void hemm(Side side, Uplo uplo, size_t m, size_t n, T alpha, const T* a, size_t lda, const T* b,
          size_t ldb, T beta, T* c, size_t ldc);
// The `uplo` triangle of C (n x n) := alpha·op(A)·op(A)ᵀ + beta·C, op N or T (syrk), or
// alpha·op(A)·op(A)ᴴ + beta·C with real alpha and beta, op N or C (herk; C's diagonal real).
template <class T>
void syrk(Uplo uplo, Op op, size_t n, size_t k, T alpha, const T* a, size_t lda, T beta, T* c,
          size_t ldc);
template <class T>
void herk(Uplo uplo, Op op, size_t n, size_t k, real_t<T> alpha, const T* a, size_t lda,
          real_t<T> beta, T* c, size_t ldc);
// The `uplo` triangle of C := alpha·op(A)·op(B)ᵀ + alpha·op(B)·op(A)ᵀ + beta·C (syr2k), or
// alpha·op(A)·op(B)ᴴ + conj(alpha)·op(B)·op(A)ᴴ + beta·C with a real beta (her2k).
template <class T>
void syr2k(Uplo uplo, Op op, size_t n, size_t k, T alpha, const T* a, size_t lda, const T* b,
           size_t ldb, T beta, T* c, size_t ldc);
template <class T>
void her2k(Uplo uplo, Op op, size_t n, size_t k, T alpha, const T* a, size_t lda, const T* b,
           size_t ldb, real_t<T> beta, T* c, size_t ldc);
// B (m x n) := alpha·op(A)·B (Left) or alpha·B·op(A) (Right), A triangular (trmm); trsm solves
// op(A)·X = alpha·B (Left) or X·op(A) = alpha·B (Right) for X, in B.
template <class T>
void trmm(Side side, Uplo uplo, Op op, Diag diag, size_t m, size_t n, T alpha, const T* a,
          size_t lda, T* b, size_t ldb);
template <class T>
void trsm(Side side, Uplo uplo, Op op, Diag diag, size_t m, size_t n, T alpha, const T* a,
          size_t lda, T* b, size_t ldb);

}  // namespace coheriq::kernels::reference::blas
