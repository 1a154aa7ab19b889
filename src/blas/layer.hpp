// What every BLAS routine computes once its arguments are valid: the Fortran and CBLAS calls
// mapped onto the row-major kernels (the kernels domain's for the BLAS-1 routines, real and
// complex dot and axpy, copy, swap, rot, gemv, ger and GEMM; the real symv on gemv, l2:: of
// level2.hpp; the rest of level 2 in the reference engine's loops with the kernels domain's dot
// and axpy as their row operations, l2::engine_rows; the level 3 of every type on GEMM, k:: of
// level3.hpp and complex_gemm.hpp, which keep the kr:: loops for small and non-finite calls; the
// reference engine's BLAS kernels of src/reference/blas.hpp for the rest).
//
//   l1::name<T>   level 1, the Fortran routine's semantics (1-based i?amax, its quick returns)
//   col::name<T>  level 2 and 3, a column-major call (Fortran, CBLAS column-major)
//   row::name<T>  level 2 and 3, a row-major CBLAS call
// with the Fortran routine's arguments in its order; characters arrive as the kernels' enums.
//
// A column-major matrix read row-major is its transpose, so a column-major call becomes the
// row-major kernel call on the transposed operands: triangles and sides swap, an op(A) of a
// matrix-vector product becomes its transpose (N <-> T, C <-> Conj), a product of matrices
// C = op(A)·op(B) becomes Cᵀ = op(B)ᵀ·op(A)ᵀ with the ops kept. For a Hermitian matrix the
// transpose is the conjugate (hemv's conj flag); a Hermitian rank update of the transpose is
// one of the conjugated vectors.
#pragma once

#include <coheriq/kernels.hpp>

#include <cmath>
#include <cstddef>
#include <type_traits>
#include <utility>

#include "blas/kinds.hpp"
#include "kernels/engine_rows.hpp"
#include "reference/blas.hpp"

namespace coheriq::blas {

namespace k = coheriq::kernels;
namespace kr = coheriq::kernels::reference::blas;
namespace l2 = coheriq::kernels::level2;

// Element 1 of a Fortran vector of n elements: x itself, or its far end for a negative increment
// (where the kernels expect element 0).
template <class P>
P first(P x, int n, int inc) {
  return inc < 0 && n > 0 ? x + static_cast<std::ptrdiff_t>(n - 1) * -inc : x;
}
inline std::size_t size(int v) { return static_cast<std::size_t>(v); }

inline Uplo flipped(Uplo u) { return u == Uplo::Upper ? Uplo::Lower : Uplo::Upper; }
inline Side flipped(Side s) { return s == Side::Left ? Side::Right : Side::Left; }
// op(A) of a matrix-vector product in terms of Aᵀ: N <-> T, C <-> Conj.
inline Op transposed(Op op) {
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

// ------------------------------ Level 1

namespace l1 {

// The kernels domain's BLAS-1 (real types).
template <class T>
T dot(int n, const T* x, int incx, const T* y, int incy) {
  if (n <= 0) return T{0};
  const auto count = size(n);
  if (incx == 1 && incy == 1) return k::dot(count, x, y);
  return k::dot_strided(count, first(x, n, incx), incx, first(y, n, incy), incy);
}
// The complex dots: the kernels domain's dotu_strided / dotc_strided (short ones in the
// reference engine's loop, as a short row of level 2).
template <class T>
T dotu(int n, const T* x, int incx, const T* y, int incy) {
  if (n <= 0) return T{0};
  return kr::row_op_dot(l2::engine_rows<T>(), false, size(n), first(x, n, incx), incx,
                        first(y, n, incy), incy);
}
template <class T>
T dotc(int n, const T* x, int incx, const T* y, int incy) {
  if (n <= 0) return T{0};
  return kr::row_op_dot(l2::engine_rows<T>(), true, size(n), first(x, n, incx), incx,
                        first(y, n, incy), incy);
}
// sb + Σ x·y in double; n <= 0 gives sb (T is float: the table calls every level-1 function
// with its type).
template <class T>
float sdsdot(int n, float sb, const float* x, int incx, const float* y, int incy) {
  if (n <= 0) return sb;
  return kr::sdsdot(size(n), sb, first(x, n, incx), incx, first(y, n, incy), incy);
}
template <class T>
double dsdot(int n, const float* x, int incx, const float* y, int incy) {
  if (n <= 0) return 0.0;
  return kr::dsdot(size(n), first(x, n, incx), incx, first(y, n, incy), incy);
}

// alpha == 0 (|re| + |im| == 0 for complex) leaves y untouched.
template <class T>
void axpy(int n, T a, const T* x, int incx, T* y, int incy) {
  if (n <= 0 || a == T{0}) return;
  if constexpr (!is_complex_v<T>) {
    if (incx == 1 && incy == 1) return k::axpy(size(n), a, x, y);
  }
  kr::row_op_axpy(l2::engine_rows<T>(), false, size(n), a, first(x, n, incx), incx,
                  first(y, n, incy), incy);
}

// incx <= 0 and alpha == 1 return at once, as the reference (3.10 and later) does.
template <class T>
void scal(int n, T a, T* x, int incx) {
  if (n <= 0 || incx <= 0 || a == T{1}) return;
  if constexpr (is_complex_v<T>) {
    kr::scal(size(n), a, x, incx);
  } else {
    if (incx == 1) return k::scal(size(n), a, x);
    k::scal_strided(size(n), a, x, incx);
  }
}
// A real alpha times a complex vector: each part scaled, so a contiguous one is the kernels
// domain's scal over 2n reals.
template <class T>
void scal_real(int n, real_t<T> a, T* x, int incx) {
  if (n <= 0 || incx <= 0 || a == real_t<T>{1}) return;
  if (incx == 1) return k::scal(2 * size(n), a, reinterpret_cast<real_t<T>*>(x));
  kr::scal_real(size(n), a, x, incx);
}

// An element-wise routine of two vectors on a real kernel `kernel(count, x, incx, y, incy)`: a
// real vector as it is; a complex one as two real ones, its real parts and its imaginary parts,
// each at twice the increment (a contiguous one as 2n contiguous reals).
template <class X, class Y, class Kernel>
void elementwise(int n, X* x, int incx, Y* y, int incy, Kernel kernel) {
  x = first(x, n, incx);
  y = first(y, n, incy);
  if constexpr (!is_complex_v<std::remove_const_t<X>>) {
    kernel(size(n), x, incx, y, incy);
  } else {
    using R = real_t<std::remove_const_t<X>>;
    using XR = std::conditional_t<std::is_const_v<X>, const R, R>;
    auto* xr = reinterpret_cast<XR*>(x);
    auto* yr = reinterpret_cast<R*>(y);
    if (incx == 1 && incy == 1) return kernel(2 * size(n), xr, 1, yr, 1);
    kernel(size(n), xr, 2 * std::ptrdiff_t{incx}, yr, 2 * std::ptrdiff_t{incy});
    kernel(size(n), xr + 1, 2 * std::ptrdiff_t{incx}, yr + 1, 2 * std::ptrdiff_t{incy});
  }
}

// copy, swap and rot are the kernels domain's, complex ones on their parts.
template <class T>
void copy(int n, const T* x, int incx, T* y, int incy) {
  if (n <= 0) return;
  elementwise(n, x, incx, y, incy,
              [](std::size_t count, const auto* a, std::ptrdiff_t ia, auto* b, std::ptrdiff_t ib) {
                k::copy_strided(count, a, ia, b, ib);
              });
}
template <class T>
void swap(int n, T* x, int incx, T* y, int incy) {
  if (n <= 0) return;
  elementwise(n, x, incx, y, incy,
              [](std::size_t count, auto* a, std::ptrdiff_t ia, auto* b, std::ptrdiff_t ib) {
                k::swap_strided(count, a, ia, b, ib);
              });
}

// Σ|x| (Σ |re| + |im| for complex; a contiguous complex vector is 2n reals); incx <= 0 gives 0.
template <class T>
real_t<T> asum(int n, const T* x, int incx) {
  if (n <= 0 || incx <= 0) return real_t<T>{0};
  const auto count = size(n);
  if constexpr (is_complex_v<T>) {
    if (incx == 1) return k::asum(2 * count, reinterpret_cast<const real_t<T>*>(x));
    return kr::asum(count, x, incx);
  } else {
    return incx == 1 ? k::asum(count, x) : k::asum_strided(count, x, incx);
  }
}

// The reference's nrm2 (LAPACK 3.10 and later) takes any increment, 0 and negative included.
// complex<double>: a contiguous vector is 2n reals, a strided one the hypotenuse of its parts'
// norms (a NaN part gives NaN, as the reference's scan does, where hypot gives Inf beside an
// Inf). complex<float> stays on the reference engine's sum in double: the float kernel's
// rounding tipped one of LAPACK's eigensolver tests over its threshold (docs/blas.md).
template <class T>
real_t<T> nrm2(int n, const T* x, int incx) {
  if (n <= 0) return real_t<T>{0};
  const auto count = size(n);
  if constexpr (is_complex_v<T> && std::is_same_v<real_t<T>, float>) {
    return kr::nrm2(count, first(x, n, incx), incx);
  } else if constexpr (is_complex_v<T>) {
    const auto* xr = reinterpret_cast<const real_t<T>*>(first(x, n, incx));
    if (incx == 1) return k::nrm2(2 * count, xr);
    const auto re = k::nrm2_strided(count, xr, 2 * std::ptrdiff_t{incx});
    const auto im = k::nrm2_strided(count, xr + 1, 2 * std::ptrdiff_t{incx});
    return std::isnan(re) || std::isnan(im) ? re + im : std::hypot(re, im);
  } else {
    return incx == 1 ? k::nrm2(count, x) : k::nrm2_strided(count, first(x, n, incx), incx);
  }
}

// 1-based, 0 for n < 1 or incx <= 0. The reference compares |x_i| > max, so a NaN wins only as
// element 1; the kernels return the first NaN, so a later one means the reference's scan.
template <class T>
int iamax(int n, const T* x, int incx) {
  if (n < 1 || incx <= 0) return 0;
  const auto count = size(n);
  if constexpr (is_complex_v<T>) {
    return static_cast<int>(kr::iamax(count, x, incx)) + 1;
  } else {
    const std::size_t i = incx == 1 ? k::iamax(count, x) : k::iamax_strided(count, x, incx);
    const T v = x[static_cast<std::ptrdiff_t>(i) * incx];
    if (i == 0 || !std::isnan(v)) return static_cast<int>(i) + 1;
    return static_cast<int>(kr::iamax(count, x, incx)) + 1;
  }
}

// A real rotation of complex vectors (csrot, zdrot) rotates the real and imaginary parts apart.
template <class T>
void rot(int n, T* x, int incx, T* y, int incy, real_t<T> c, real_t<T> s) {
  if (n <= 0) return;
  elementwise(n, x, incx, y, incy,
              [c, s](std::size_t count, auto* a, std::ptrdiff_t ia, auto* b, std::ptrdiff_t ib) {
                k::rot_strided(count, a, ia, b, ib, c, s);
              });
}
template <class T>
void rotm(int n, T* x, int incx, T* y, int incy, const T* param) {
  if (n <= 0) return;
  kr::rotm(size(n), first(x, n, incx), incx, first(y, n, incy), incy, param);
}
template <class T>
void rotg(T* a, T* b, real_t<T>* c, T* s) {
  kr::rotg(a, b, c, s);
}
template <class T>
void rotmg(T* d1, T* d2, T* x1, T y1, T* param) {
  kr::rotmg(d1, d2, x1, y1, param);
}
template <class T>
real_t<T> cabs1(const T* z) {
  return std::fabs(z->real()) + std::fabs(z->imag());
}

}  // namespace l1

// ------------------------------ GEMM

// A product with a non-finite alpha, in the reference's own order: which of alpha's products
// with a zero become NaN depends on where the reference multiplies by alpha (into each element
// of op(B) when op(A) = A, into each finished sum when op(A) = A^T, where k == 0 gives alpha·0),
// so only its order gives its NaNs and infinities. Column-major; beta == 0 does not read C.
template <class T>
void gemm_in_reference_order(bool ta, bool tb, int m, int n, int k_, T alpha, const T* A, int lda,
                             const T* B, int ldb, T beta, T* C, int ldc) {
  const auto a = [&](int i, int l) {
    return ta ? A[l + static_cast<std::ptrdiff_t>(i) * lda]
              : A[i + static_cast<std::ptrdiff_t>(l) * lda];
  };
  const auto b = [&](int l, int j) {
    return tb ? B[j + static_cast<std::ptrdiff_t>(l) * ldb]
              : B[l + static_cast<std::ptrdiff_t>(j) * ldb];
  };
  for (int j = 0; j < n; ++j) {
    T* c = C + static_cast<std::ptrdiff_t>(j) * ldc;
    if (!ta) {
      for (int i = 0; i < m; ++i) c[i] = beta == T{0} ? T{0} : beta * c[i];
      for (int l = 0; l < k_; ++l) {
        const T scaled = alpha * b(l, j);
        for (int i = 0; i < m; ++i) c[i] += scaled * a(i, l);
      }
      continue;
    }
    for (int i = 0; i < m; ++i) {
      T sum{0};
      for (int l = 0; l < k_; ++l) sum += a(i, l) * b(l, j);
      c[i] = beta == T{0} ? alpha * sum : alpha * sum + beta * c[i];
    }
  }
}

// Real column-major GEMM on the kernels domain: the reference's quick return and alpha == 0 /
// k == 0 cases here (C = beta·C, zero when beta == 0, A and B never read), a non-finite alpha in
// the reference's order, the rest as Cᵀ = alpha·op(B)ᵀ·op(A)ᵀ + beta·Cᵀ on the row-major kernels.
template <class T>
void real_gemm(bool ta, bool tb, int m, int n, int k_, T alpha, const T* A, int lda, const T* B,
               int ldb, T beta, T* C, int ldc) {
  if (m == 0 || n == 0 || ((alpha == T{0} || k_ == 0) && beta == T{1})) return;
  if (!std::isfinite(alpha)) {
    return gemm_in_reference_order(ta, tb, m, n, k_, alpha, A, lda, B, ldb, beta, C, ldc);
  }
  if (alpha == T{0} || k_ == 0) {
    for (int j = 0; j < n; ++j) {
      T* column = C + static_cast<std::ptrdiff_t>(j) * ldc;
      for (int i = 0; i < m; ++i) column[i] = beta == T{0} ? T{0} : beta * column[i];
    }
    return;
  }
  k::gemm(tb ? k::Trans::T : k::Trans::N, ta ? k::Trans::T : k::Trans::N, size(n), size(m),
          size(k_), alpha, B, size(ldb), A, size(lda), beta, C, size(ldc));
}

// ------------------------------ Level 2 and 3, column-major

namespace col {

// Real: the kernels domain's gemv (Trans::T for op N: an axpy per column of the Fortran matrix).
template <class T>
void gemv(Op trans, int m, int n, T alpha, const T* a, int lda, const T* x, int incx, T beta, T* y,
          int incy) {
  const int lx = trans == Op::N ? n : m, ly = trans == Op::N ? m : n;
  if constexpr (is_complex_v<T>) {
    kr::gemv(transposed(trans), size(n), size(m), alpha, a, size(lda), first(x, lx, incx), incx,
             beta, first(y, ly, incy), incy, l2::engine_rows<T>());
  } else {
    k::gemv(trans == Op::N ? k::Trans::T : k::Trans::N, size(n), size(m), alpha, a, size(lda),
            first(x, lx, incx), incx, beta, first(y, ly, incy), incy);
  }
}
template <class T>
void gbmv(Op trans, int m, int n, int kl, int ku, T alpha, const T* a, int lda, const T* x,
          int incx, T beta, T* y, int incy) {
  const int lx = trans == Op::N ? n : m, ly = trans == Op::N ? m : n;
  kr::gbmv(transposed(trans), size(n), size(m), size(ku), size(kl), alpha, a, size(lda),
           first(x, lx, incx), incx, beta, first(y, ly, incy), incy, l2::engine_rows<T>());
}
template <class T>
void symv(Uplo uplo, int n, T alpha, const T* a, int lda, const T* x, int incx, T beta, T* y,
          int incy) {
  k::symv(flipped(uplo), size(n), alpha, a, size(lda), first(x, n, incx), incx, beta,
          first(y, n, incy), incy);
}
template <class T>
void hemv(Uplo uplo, int n, T alpha, const T* a, int lda, const T* x, int incx, T beta, T* y,
          int incy) {
  k::hemv(flipped(uplo), Op::Conj, size(n), alpha, a, size(lda), first(x, n, incx), incx, beta,
          first(y, n, incy), incy);
}
template <class T>
void sbmv(Uplo uplo, int n, int k, T alpha, const T* a, int lda, const T* x, int incx, T beta, T* y,
          int incy) {
  kr::sbmv(flipped(uplo), size(n), size(k), alpha, a, size(lda), first(x, n, incx), incx, beta,
           first(y, n, incy), incy, l2::engine_rows<T>());
}
template <class T>
void hbmv(Uplo uplo, int n, int k, T alpha, const T* a, int lda, const T* x, int incx, T beta, T* y,
          int incy) {
  kr::hbmv(flipped(uplo), true, size(n), size(k), alpha, a, size(lda), first(x, n, incx), incx,
           beta, first(y, n, incy), incy, l2::engine_rows<T>());
}
template <class T>
void spmv(Uplo uplo, int n, T alpha, const T* ap, const T* x, int incx, T beta, T* y, int incy) {
  kr::spmv(flipped(uplo), size(n), alpha, ap, first(x, n, incx), incx, beta, first(y, n, incy),
           incy, l2::engine_rows<T>());
}
template <class T>
void hpmv(Uplo uplo, int n, T alpha, const T* ap, const T* x, int incx, T beta, T* y, int incy) {
  kr::hpmv(flipped(uplo), true, size(n), alpha, ap, first(x, n, incx), incx, beta,
           first(y, n, incy), incy, l2::engine_rows<T>());
}

template <class T>
void trmv(Uplo uplo, Op trans, Diag diag, int n, const T* a, int lda, T* x, int incx) {
  k::trmv(flipped(uplo), transposed(trans), diag, size(n), a, size(lda), first(x, n, incx), incx);
}
template <class T>
void tbmv(Uplo uplo, Op trans, Diag diag, int n, int k, const T* a, int lda, T* x, int incx) {
  kr::tbmv(flipped(uplo), transposed(trans), diag, size(n), size(k), a, size(lda),
           first(x, n, incx), incx, l2::engine_rows<T>());
}
template <class T>
void tpmv(Uplo uplo, Op trans, Diag diag, int n, const T* ap, T* x, int incx) {
  kr::tpmv(flipped(uplo), transposed(trans), diag, size(n), ap, first(x, n, incx), incx,
           l2::engine_rows<T>());
}
template <class T>
void trsv(Uplo uplo, Op trans, Diag diag, int n, const T* a, int lda, T* x, int incx) {
  k::trsv(flipped(uplo), transposed(trans), diag, size(n), a, size(lda), first(x, n, incx), incx);
}
template <class T>
void tbsv(Uplo uplo, Op trans, Diag diag, int n, int k, const T* a, int lda, T* x, int incx) {
  kr::tbsv(flipped(uplo), transposed(trans), diag, size(n), size(k), a, size(lda),
           first(x, n, incx), incx, l2::engine_rows<T>());
}
template <class T>
void tpsv(Uplo uplo, Op trans, Diag diag, int n, const T* ap, T* x, int incx) {
  kr::tpsv(flipped(uplo), transposed(trans), diag, size(n), ap, first(x, n, incx), incx,
           l2::engine_rows<T>());
}

// A (m x n) += alpha·x·y' reads row-major as Aᵀ += alpha·y'·xᵀ: the vectors swap.
template <class T>
void ger_(bool conj_y, int m, int n, T alpha, const T* x, int incx, const T* y, int incy, T* a,
          int lda) {
  if constexpr (is_complex_v<T>) {
    kr::ger(conj_y, false, size(n), size(m), alpha, first(y, n, incy), incy, first(x, m, incx),
            incx, a, size(lda), l2::engine_rows<T>());
  } else {
    k::ger(size(n), size(m), alpha, first(y, n, incy), incy, first(x, m, incx), incx, a, size(lda));
  }
}
template <class T>
void ger(int m, int n, T alpha, const T* x, int incx, const T* y, int incy, T* a, int lda) {
  ger_(false, m, n, alpha, x, incx, y, incy, a, lda);
}
template <class T>
void geru(int m, int n, T alpha, const T* x, int incx, const T* y, int incy, T* a, int lda) {
  ger_(false, m, n, alpha, x, incx, y, incy, a, lda);
}
template <class T>
void gerc(int m, int n, T alpha, const T* x, int incx, const T* y, int incy, T* a, int lda) {
  ger_(true, m, n, alpha, x, incx, y, incy, a, lda);
}
template <class T>
void syr(Uplo uplo, int n, T alpha, const T* x, int incx, T* a, int lda) {
  kr::syr(flipped(uplo), size(n), alpha, first(x, n, incx), incx, a, size(lda),
          l2::engine_rows<T>());
}
template <class T>
void her(Uplo uplo, int n, real_t<T> alpha, const T* x, int incx, T* a, int lda) {
  kr::her(flipped(uplo), true, size(n), alpha, first(x, n, incx), incx, a, size(lda),
          l2::engine_rows<T>());
}
template <class T>
void spr(Uplo uplo, int n, T alpha, const T* x, int incx, T* ap) {
  kr::spr(flipped(uplo), size(n), alpha, first(x, n, incx), incx, ap, l2::engine_rows<T>());
}
template <class T>
void hpr(Uplo uplo, int n, real_t<T> alpha, const T* x, int incx, T* ap) {
  kr::hpr(flipped(uplo), true, size(n), alpha, first(x, n, incx), incx, ap, l2::engine_rows<T>());
}
// The rank-2 updates of the transpose take the vectors swapped (conjugated when Hermitian),
// which is also the reference's order of terms.
template <class T>
void syr2(Uplo uplo, int n, T alpha, const T* x, int incx, const T* y, int incy, T* a, int lda) {
  kr::syr2(flipped(uplo), size(n), alpha, first(y, n, incy), incy, first(x, n, incx), incx, a,
           size(lda), l2::engine_rows<T>());
}
template <class T>
void her2(Uplo uplo, int n, T alpha, const T* x, int incx, const T* y, int incy, T* a, int lda) {
  kr::her2(flipped(uplo), true, size(n), alpha, first(y, n, incy), incy, first(x, n, incx), incx, a,
           size(lda), l2::engine_rows<T>());
}
template <class T>
void spr2(Uplo uplo, int n, T alpha, const T* x, int incx, const T* y, int incy, T* ap) {
  kr::spr2(flipped(uplo), size(n), alpha, first(y, n, incy), incy, first(x, n, incx), incx, ap,
           l2::engine_rows<T>());
}
template <class T>
void hpr2(Uplo uplo, int n, T alpha, const T* x, int incx, const T* y, int incy, T* ap) {
  kr::hpr2(flipped(uplo), true, size(n), alpha, first(y, n, incy), incy, first(x, n, incx), incx,
           ap, l2::engine_rows<T>());
}

template <class T>
void gemm(Op transa, Op transb, int m, int n, int k, T alpha, const T* a, int lda, const T* b,
          int ldb, T beta, T* c, int ldc) {
  if constexpr (is_complex_v<T>) {
    k::gemm(transb, transa, size(n), size(m), size(k), alpha, b, size(ldb), a, size(lda), beta, c,
            size(ldc));
  } else {
    real_gemm(transa != Op::N, transb != Op::N, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
  }
}
template <class T>
void symm(Side side, Uplo uplo, int m, int n, T alpha, const T* a, int lda, const T* b, int ldb,
          T beta, T* c, int ldc) {
  k::symm(flipped(side), flipped(uplo), size(n), size(m), alpha, a, size(lda), b, size(ldb), beta,
          c, size(ldc));
}
template <class T>
void hemm(Side side, Uplo uplo, int m, int n, T alpha, const T* a, int lda, const T* b, int ldb,
          T beta, T* c, int ldc) {
  k::hemm(flipped(side), flipped(uplo), size(n), size(m), alpha, a, size(lda), b, size(ldb), beta,
          c, size(ldc));
}
// op(A)·op(A)ᵀ of the transposes: N <-> T (a real ?syrk's C is its T).
template <class T>
void syrk(Uplo uplo, Op trans, int n, int k, T alpha, const T* a, int lda, T beta, T* c, int ldc) {
  k::syrk(flipped(uplo), trans == Op::N ? Op::T : Op::N, size(n), size(k), alpha, a, size(lda),
          beta, c, size(ldc));
}
// The transpose of a Hermitian C is its conjugate: N <-> C.
template <class T>
void herk(Uplo uplo, Op trans, int n, int k, real_t<T> alpha, const T* a, int lda, real_t<T> beta,
          T* c, int ldc) {
  k::herk(flipped(uplo), trans == Op::N ? Op::C : Op::N, size(n), size(k), alpha, a, size(lda),
          beta, c, size(ldc));
}
template <class T>
void syr2k(Uplo uplo, Op trans, int n, int k, T alpha, const T* a, int lda, const T* b, int ldb,
           T beta, T* c, int ldc) {
  k::syr2k(flipped(uplo), trans == Op::N ? Op::T : Op::N, size(n), size(k), alpha, a, size(lda), b,
           size(ldb), beta, c, size(ldc));
}
// Conjugating C turns alpha·A·Bᴴ + conj(alpha)·B·Aᴴ into conj(alpha)·conj(A)·Bᵀ + ...: alpha
// conjugated.
template <class T>
void her2k(Uplo uplo, Op trans, int n, int k, T alpha, const T* a, int lda, const T* b, int ldb,
           real_t<T> beta, T* c, int ldc) {
  k::her2k(flipped(uplo), trans == Op::N ? Op::C : Op::N, size(n), size(k), std::conj(alpha), a,
           size(lda), b, size(ldb), beta, c, size(ldc));
}
template <class T>
void trmm(Side side, Uplo uplo, Op trans, Diag diag, int m, int n, T alpha, const T* a, int lda,
          T* b, int ldb) {
  k::trmm(flipped(side), flipped(uplo), trans, diag, size(n), size(m), alpha, a, size(lda), b,
          size(ldb));
}
template <class T>
void trsm(Side side, Uplo uplo, Op trans, Diag diag, int m, int n, T alpha, const T* a, int lda,
          T* b, int ldb) {
  k::trsm(flipped(side), flipped(uplo), trans, diag, size(n), size(m), alpha, a, size(lda), b,
          size(ldb));
}

}  // namespace col

// ------------------------------ Level 2 and 3, row-major (the kernels' own layout)

namespace row {

template <class T>
void gemv(Op trans, int m, int n, T alpha, const T* a, int lda, const T* x, int incx, T beta, T* y,
          int incy) {
  const int lx = transposes(trans) ? m : n, ly = transposes(trans) ? n : m;
  if constexpr (is_complex_v<T>) {
    kr::gemv(trans, size(m), size(n), alpha, a, size(lda), first(x, lx, incx), incx, beta,
             first(y, ly, incy), incy, l2::engine_rows<T>());
  } else {
    k::gemv(transposes(trans) ? k::Trans::T : k::Trans::N, size(m), size(n), alpha, a, size(lda),
            first(x, lx, incx), incx, beta, first(y, ly, incy), incy);
  }
}
template <class T>
void gbmv(Op trans, int m, int n, int kl, int ku, T alpha, const T* a, int lda, const T* x,
          int incx, T beta, T* y, int incy) {
  const int lx = transposes(trans) ? m : n, ly = transposes(trans) ? n : m;
  kr::gbmv(trans, size(m), size(n), size(kl), size(ku), alpha, a, size(lda), first(x, lx, incx),
           incx, beta, first(y, ly, incy), incy, l2::engine_rows<T>());
}
template <class T>
void symv(Uplo uplo, int n, T alpha, const T* a, int lda, const T* x, int incx, T beta, T* y,
          int incy) {
  k::symv(uplo, size(n), alpha, a, size(lda), first(x, n, incx), incx, beta, first(y, n, incy),
          incy);
}
template <class T>
void hemv(Uplo uplo, int n, T alpha, const T* a, int lda, const T* x, int incx, T beta, T* y,
          int incy) {
  k::hemv(uplo, Op::N, size(n), alpha, a, size(lda), first(x, n, incx), incx, beta,
          first(y, n, incy), incy);
}
template <class T>
void sbmv(Uplo uplo, int n, int k, T alpha, const T* a, int lda, const T* x, int incx, T beta, T* y,
          int incy) {
  kr::sbmv(uplo, size(n), size(k), alpha, a, size(lda), first(x, n, incx), incx, beta,
           first(y, n, incy), incy, l2::engine_rows<T>());
}
template <class T>
void hbmv(Uplo uplo, int n, int k, T alpha, const T* a, int lda, const T* x, int incx, T beta, T* y,
          int incy) {
  kr::hbmv(uplo, false, size(n), size(k), alpha, a, size(lda), first(x, n, incx), incx, beta,
           first(y, n, incy), incy, l2::engine_rows<T>());
}
template <class T>
void spmv(Uplo uplo, int n, T alpha, const T* ap, const T* x, int incx, T beta, T* y, int incy) {
  kr::spmv(uplo, size(n), alpha, ap, first(x, n, incx), incx, beta, first(y, n, incy), incy,
           l2::engine_rows<T>());
}
template <class T>
void hpmv(Uplo uplo, int n, T alpha, const T* ap, const T* x, int incx, T beta, T* y, int incy) {
  kr::hpmv(uplo, false, size(n), alpha, ap, first(x, n, incx), incx, beta, first(y, n, incy), incy,
           l2::engine_rows<T>());
}

template <class T>
void trmv(Uplo uplo, Op trans, Diag diag, int n, const T* a, int lda, T* x, int incx) {
  k::trmv(uplo, trans, diag, size(n), a, size(lda), first(x, n, incx), incx);
}
template <class T>
void tbmv(Uplo uplo, Op trans, Diag diag, int n, int k, const T* a, int lda, T* x, int incx) {
  kr::tbmv(uplo, trans, diag, size(n), size(k), a, size(lda), first(x, n, incx), incx,
           l2::engine_rows<T>());
}
template <class T>
void tpmv(Uplo uplo, Op trans, Diag diag, int n, const T* ap, T* x, int incx) {
  kr::tpmv(uplo, trans, diag, size(n), ap, first(x, n, incx), incx, l2::engine_rows<T>());
}
template <class T>
void trsv(Uplo uplo, Op trans, Diag diag, int n, const T* a, int lda, T* x, int incx) {
  k::trsv(uplo, trans, diag, size(n), a, size(lda), first(x, n, incx), incx);
}
template <class T>
void tbsv(Uplo uplo, Op trans, Diag diag, int n, int k, const T* a, int lda, T* x, int incx) {
  kr::tbsv(uplo, trans, diag, size(n), size(k), a, size(lda), first(x, n, incx), incx,
           l2::engine_rows<T>());
}
template <class T>
void tpsv(Uplo uplo, Op trans, Diag diag, int n, const T* ap, T* x, int incx) {
  kr::tpsv(uplo, trans, diag, size(n), ap, first(x, n, incx), incx, l2::engine_rows<T>());
}

template <class T>
void ger(int m, int n, T alpha, const T* x, int incx, const T* y, int incy, T* a, int lda) {
  if constexpr (is_complex_v<T>) {
    kr::ger(false, false, size(m), size(n), alpha, first(x, m, incx), incx, first(y, n, incy), incy,
            a, size(lda), l2::engine_rows<T>());
  } else {
    k::ger(size(m), size(n), alpha, first(x, m, incx), incx, first(y, n, incy), incy, a, size(lda));
  }
}
template <class T>
void geru(int m, int n, T alpha, const T* x, int incx, const T* y, int incy, T* a, int lda) {
  ger(m, n, alpha, x, incx, y, incy, a, lda);
}
template <class T>
void gerc(int m, int n, T alpha, const T* x, int incx, const T* y, int incy, T* a, int lda) {
  kr::ger(false, true, size(m), size(n), alpha, first(x, m, incx), incx, first(y, n, incy), incy, a,
          size(lda), l2::engine_rows<T>());
}
template <class T>
void syr(Uplo uplo, int n, T alpha, const T* x, int incx, T* a, int lda) {
  kr::syr(uplo, size(n), alpha, first(x, n, incx), incx, a, size(lda), l2::engine_rows<T>());
}
template <class T>
void her(Uplo uplo, int n, real_t<T> alpha, const T* x, int incx, T* a, int lda) {
  kr::her(uplo, false, size(n), alpha, first(x, n, incx), incx, a, size(lda), l2::engine_rows<T>());
}
template <class T>
void spr(Uplo uplo, int n, T alpha, const T* x, int incx, T* ap) {
  kr::spr(uplo, size(n), alpha, first(x, n, incx), incx, ap, l2::engine_rows<T>());
}
template <class T>
void hpr(Uplo uplo, int n, real_t<T> alpha, const T* x, int incx, T* ap) {
  kr::hpr(uplo, false, size(n), alpha, first(x, n, incx), incx, ap, l2::engine_rows<T>());
}
template <class T>
void syr2(Uplo uplo, int n, T alpha, const T* x, int incx, const T* y, int incy, T* a, int lda) {
  kr::syr2(uplo, size(n), alpha, first(x, n, incx), incx, first(y, n, incy), incy, a, size(lda),
           l2::engine_rows<T>());
}
template <class T>
void her2(Uplo uplo, int n, T alpha, const T* x, int incx, const T* y, int incy, T* a, int lda) {
  kr::her2(uplo, false, size(n), alpha, first(x, n, incx), incx, first(y, n, incy), incy, a,
           size(lda), l2::engine_rows<T>());
}
template <class T>
void spr2(Uplo uplo, int n, T alpha, const T* x, int incx, const T* y, int incy, T* ap) {
  kr::spr2(uplo, size(n), alpha, first(x, n, incx), incx, first(y, n, incy), incy, ap,
           l2::engine_rows<T>());
}
template <class T>
void hpr2(Uplo uplo, int n, T alpha, const T* x, int incx, const T* y, int incy, T* ap) {
  kr::hpr2(uplo, false, size(n), alpha, first(x, n, incx), incx, first(y, n, incy), incy, ap,
           l2::engine_rows<T>());
}

// Cᵀ = op(B)ᵀ·op(A)ᵀ: the column-major product of the swapped operands, as netlib CBLAS calls
// it (so a non-finite alpha gives the reference's NaNs here too).
template <class T>
void gemm(Op transa, Op transb, int m, int n, int k, T alpha, const T* a, int lda, const T* b,
          int ldb, T beta, T* c, int ldc) {
  col::gemm(transb, transa, n, m, k, alpha, b, ldb, a, lda, beta, c, ldc);
}
template <class T>
void symm(Side side, Uplo uplo, int m, int n, T alpha, const T* a, int lda, const T* b, int ldb,
          T beta, T* c, int ldc) {
  k::symm(side, uplo, size(m), size(n), alpha, a, size(lda), b, size(ldb), beta, c, size(ldc));
}
template <class T>
void hemm(Side side, Uplo uplo, int m, int n, T alpha, const T* a, int lda, const T* b, int ldb,
          T beta, T* c, int ldc) {
  k::hemm(side, uplo, size(m), size(n), alpha, a, size(lda), b, size(ldb), beta, c, size(ldc));
}
// netlib CBLAS takes a row-major ConjTrans as Trans for ?syrk and ?syr2k (complex included),
// and a row-major Trans as ConjTrans for ?herk and ?her2k.
template <class T>
void syrk(Uplo uplo, Op trans, int n, int k, T alpha, const T* a, int lda, T beta, T* c, int ldc) {
  k::syrk(uplo, trans == Op::N ? Op::N : Op::T, size(n), size(k), alpha, a, size(lda), beta, c,
          size(ldc));
}
template <class T>
void herk(Uplo uplo, Op trans, int n, int k, real_t<T> alpha, const T* a, int lda, real_t<T> beta,
          T* c, int ldc) {
  k::herk(uplo, trans == Op::N ? Op::N : Op::C, size(n), size(k), alpha, a, size(lda), beta, c,
          size(ldc));
}
template <class T>
void syr2k(Uplo uplo, Op trans, int n, int k, T alpha, const T* a, int lda, const T* b, int ldb,
           T beta, T* c, int ldc) {
  k::syr2k(uplo, trans == Op::N ? Op::N : Op::T, size(n), size(k), alpha, a, size(lda), b,
           size(ldb), beta, c, size(ldc));
}
template <class T>
void her2k(Uplo uplo, Op trans, int n, int k, T alpha, const T* a, int lda, const T* b, int ldb,
           real_t<T> beta, T* c, int ldc) {
  k::her2k(uplo, trans == Op::N ? Op::N : Op::C, size(n), size(k), alpha, a, size(lda), b,
           size(ldb), beta, c, size(ldc));
}
template <class T>
void trmm(Side side, Uplo uplo, Op trans, Diag diag, int m, int n, T alpha, const T* a, int lda,
          T* b, int ldb) {
  k::trmm(side, uplo, trans, diag, size(m), size(n), alpha, a, size(lda), b, size(ldb));
}
template <class T>
void trsm(Side side, Uplo uplo, Op trans, Diag diag, int m, int n, T alpha, const T* a, int lda,
          T* b, int ldb) {
  k::trsm(side, uplo, trans, diag, size(m), size(n), alpha, a, size(lda), b, size(ldb));
}

}  // namespace row
}  // namespace coheriq::blas
