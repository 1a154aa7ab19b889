// The reference engine's level-3 BLAS kernels (src/reference/blas.hpp): complex GEMM, the
// symmetric and Hermitian products and rank-k updates, and the triangular products and solves,
// in the reference BLAS's loop forms over row-major operands. Work on a row of B or C goes
// through the level-2 building blocks of blas_rows.hpp where one applies (a row of a Right-side
// trmm is a trmv, a row of symm a symv), so each loop is written once.
#include <complex>
#include <cstddef>

#include "reference/blas.hpp"
#include "reference/blas_rows.hpp"

namespace coheriq::kernels::reference::blas {
namespace {

struct Span {
  size_t lo, hi;
};

// C := beta·C on rows [0, m) x columns [lo(i), hi(i)) (the reference's alpha == 0 case); the
// Hermitian diagonal keeps only its real part.
template <class T, class Columns>
void scale_rows(size_t m, Columns columns, T beta, T* c, size_t ldc, bool hermitian) {
  for (size_t i = 0; i < m; ++i) {
    const Span span = columns(i);
    T* ci = c + i * ldc;
    for (size_t j = span.lo; j < span.hi; ++j) {
      if (beta == T(0)) {
        ci[j] = T(0);
      } else if (hermitian && j == i) {
        ci[j] = T(real_part(beta) * real_part(ci[j]));
      } else {
        ci[j] = mul(beta, ci[j]);
      }
    }
  }
}

// Columns of row i in the `uplo` triangle of an n x n matrix.
inline Span triangle_columns(Uplo uplo, size_t n, size_t i) {
  return uplo == Uplo::Upper ? Span{i, n} : Span{0, i + 1};
}

// C's `uplo` triangle := alpha·op(A)·op(A)' + beta·C, where ' is ᵀ (syrk) or ᴴ (herk).
// op N: each element is a row of A times a row of A; op T or C: each row of C adds multiples of
// rows of A (skipped where the multiplier's element of A is 0, as the reference skips it).
template <class T>
void rank_k(bool hermitian, Uplo uplo, Op op, size_t n, size_t k, T alpha, const T* a, size_t lda,
            T beta, T* c, size_t ldc) {
  if (n == 0 || ((alpha == T(0) || k == 0) && beta == T(1))) return;
  const bool h = is_complex_v<T> && hermitian;
  const auto columns = [&](size_t i) { return triangle_columns(uplo, n, i); };
  if (alpha == T(0)) return scale_rows(n, columns, beta, c, ldc, h);
  for (size_t i = 0; i < n; ++i) {
    const Span span = columns(i);
    const size_t lo = span.lo, hi = span.hi;
    T* ci = c + i * ldc;
    if (!transposes(op)) {
      const T* ai = a + i * lda;
      for (size_t j = lo; j < hi; ++j) {
        const T* aj = a + j * lda;
        T total(0);
        for (size_t l = 0; l < k; ++l) total += mul(ai[l], conj_if(h, aj[l]));
        if (h && j == i) {
          const real_t<T> value = real_part(alpha) * real_part(total);
          ci[j] = T(beta == T(0) ? value : value + real_part(beta) * real_part(ci[j]));
        } else {
          ci[j] = beta == T(0) ? mul(alpha, total) : mul(alpha, total) + mul(beta, ci[j]);
        }
      }
      continue;
    }
    scale_rows(
        1,
        [&](size_t) {
          return Span{lo, hi};
        },
        beta, ci, ldc, false);
    if (h && beta != T(0)) ci[i] = T(real_part(ci[i]));
    for (size_t l = 0; l < k; ++l) {
      const T* al = a + l * lda;
      if (al[i] == T(0)) continue;
      const T t = mul(alpha, conj_if(h, al[i]));
      for (size_t j = lo; j < hi; ++j) ci[j] += mul(t, al[j]);
      if (h) ci[i] = T(real_part(ci[i]));
    }
  }
}

// C's `uplo` triangle := alpha·op(A)·op(B)' + alpha''·op(B)·op(A)' + beta·C, alpha'' = alpha
// (syr2k, ' = ᵀ) or conj(alpha) (her2k, ' = ᴴ).
template <class T>
void rank_2k(bool hermitian, Uplo uplo, Op op, size_t n, size_t k, T alpha, const T* a, size_t lda,
             const T* b, size_t ldb, T beta, T* c, size_t ldc) {
  if (n == 0 || ((alpha == T(0) || k == 0) && beta == T(1))) return;
  const bool h = is_complex_v<T> && hermitian;
  const T alpha2 = conj_if(h, alpha);
  const auto columns = [&](size_t i) { return triangle_columns(uplo, n, i); };
  if (alpha == T(0)) return scale_rows(n, columns, beta, c, ldc, h);
  for (size_t i = 0; i < n; ++i) {
    const Span span = columns(i);
    const size_t lo = span.lo, hi = span.hi;
    T* ci = c + i * ldc;
    if (!transposes(op)) {
      const T *ai = a + i * lda, *bi = b + i * ldb;
      for (size_t j = lo; j < hi; ++j) {
        const T *aj = a + j * lda, *bj = b + j * ldb;
        T ab(0), ba(0);
        for (size_t l = 0; l < k; ++l) {
          ab += mul(ai[l], conj_if(h, bj[l]));
          ba += mul(bi[l], conj_if(h, aj[l]));
        }
        const T value = mul(alpha, ab) + mul(alpha2, ba);
        if (h && j == i) {
          ci[j] = T(beta == T(0) ? real_part(value)
                                 : real_part(value) + real_part(beta) * real_part(ci[j]));
        } else {
          ci[j] = beta == T(0) ? value : value + mul(beta, ci[j]);
        }
      }
      continue;
    }
    scale_rows(
        1,
        [&](size_t) {
          return Span{lo, hi};
        },
        beta, ci, ldc, false);
    if (h && beta != T(0)) ci[i] = T(real_part(ci[i]));
    for (size_t l = 0; l < k; ++l) {
      const T *al = a + l * lda, *bl = b + l * ldb;
      if (al[i] == T(0) && bl[i] == T(0)) continue;
      const T t1 = mul(alpha, conj_if(h, al[i])), t2 = mul(alpha2, conj_if(h, bl[i]));
      for (size_t j = lo; j < hi; ++j) ci[j] += mul(t1, bl[j]) + mul(t2, al[j]);
      if (h) ci[i] = T(real_part(ci[i]));
    }
  }
}

// C := alpha·A·B + beta·C (Left) or alpha·B·A + beta·C (Right), A symmetric or Hermitian: a row
// of C on the Right is (Aᵀ·bᵀ)ᵀ for its row b of B (Aᵀ is conj(A) when A is Hermitian), a
// column of C on the Left is A times its column of B; both are symv's loop.
template <class T>
void symmetric_product(bool hermitian, Side side, Uplo uplo, size_t m, size_t n, T alpha,
                       const T* a, size_t lda, const T* b, size_t ldb, T beta, T* c, size_t ldc) {
  if (m == 0 || n == 0 || (alpha == T(0) && beta == T(1))) return;
  if (side == Side::Right) {
    const Triangle<const T> triangle{a, lda, n, uplo};
    for (size_t i = 0; i < m; ++i) {
      symmetric_multiply(hermitian, hermitian, n, triangle, alpha, b + i * ldb, 1, beta,
                         c + i * ldc, 1, scalar_rows<T>());
    }
    return;
  }
  const Triangle<const T> triangle{a, lda, m, uplo};
  for (size_t j = 0; j < n; ++j) {
    symmetric_multiply(hermitian, false, m, triangle, alpha, b + j, static_cast<ptrdiff_t>(ldb),
                       beta, c + j, static_cast<ptrdiff_t>(ldc), scalar_rows<T>());
  }
}

// Left-side trmm and trsm work on whole rows of B: row i of op(A)·B is a combination of rows of
// B. `upward`: op(A) is upper triangular, so row i needs the rows after it.
template <class T>
struct LeftTriangle {
  const T* a;
  size_t lda;
  bool trans, cj, unit, upward;

  LeftTriangle(Uplo uplo, Op op, Diag diag, const T* matrix, size_t ld)
      : a(matrix),
        lda(ld),
        trans(transposes(op)),
        cj(is_complex_v<T> && conjugates(op)),
        unit(diag == Diag::Unit),
        upward((uplo == Uplo::Upper) != transposes(op)) {}
  // op(A)(i, k)
  T at(size_t i, size_t k) const { return conj_if(cj, trans ? a[k * lda + i] : a[i * lda + k]); }
};

}  // namespace

template <class T>
void gemm(Op opa, Op opb, size_t m, size_t n, size_t k, T alpha, const T* a, size_t lda, const T* b,
          size_t ldb, T beta, T* c, size_t ldc) {
  if (m == 0 || n == 0 || ((alpha == T(0) || k == 0) && beta == T(1))) return;
  const auto all = [&](size_t) { return Span{0, n}; };
  if (alpha == T(0)) return scale_rows(m, all, beta, c, ldc, false);
  const bool ta = transposes(opa), tb = transposes(opb);
  const bool ca = is_complex_v<T> && conjugates(opa), cb = is_complex_v<T> && conjugates(opb);
  for (size_t i = 0; i < m; ++i) {
    T* ci = c + i * ldc;
    if (!tb) {
      // Rows of op(B) are rows of B: C's row adds alpha·op(A)(i, l) times row l.
      scale_by_beta(n, beta, ci, 1);
      for (size_t l = 0; l < k; ++l) {
        const T ail = conj_if(ca, ta ? a[l * lda + i] : a[i * lda + l]);
        row_axpy(scalar_rows<T>(), cb, mul(alpha, ail), b + l * ldb, 0, n, ci, 1);
      }
      continue;
    }
    // Columns of op(B) are rows of B: each element is a row of op(A) times a row of B.
    for (size_t j = 0; j < n; ++j) {
      const T* bj = b + j * ldb;
      T total(0);
      if (ta) {
        for (size_t l = 0; l < k; ++l) {
          total += mul(conj_if(ca, a[l * lda + i]), conj_if(cb, bj[l]));
        }
      } else {
        const T* ai = a + i * lda;
        for (size_t l = 0; l < k; ++l) total += mul(conj_if(ca, ai[l]), conj_if(cb, bj[l]));
      }
      ci[j] = beta == T(0) ? mul(alpha, total) : mul(alpha, total) + mul(beta, ci[j]);
    }
  }
}

template <class T>
void symm(Side side, Uplo uplo, size_t m, size_t n, T alpha, const T* a, size_t lda, const T* b,
          size_t ldb, T beta, T* c, size_t ldc) {
  symmetric_product(false, side, uplo, m, n, alpha, a, lda, b, ldb, beta, c, ldc);
}
template <class T>
void hemm(Side side, Uplo uplo, size_t m, size_t n, T alpha, const T* a, size_t lda, const T* b,
          size_t ldb, T beta, T* c, size_t ldc) {
  symmetric_product(true, side, uplo, m, n, alpha, a, lda, b, ldb, beta, c, ldc);
}
template <class T>
void syrk(Uplo uplo, Op op, size_t n, size_t k, T alpha, const T* a, size_t lda, T beta, T* c,
          size_t ldc) {
  rank_k(false, uplo, op, n, k, alpha, a, lda, beta, c, ldc);
}
template <class T>
void herk(Uplo uplo, Op op, size_t n, size_t k, real_t<T> alpha, const T* a, size_t lda,
          real_t<T> beta, T* c, size_t ldc) {
  rank_k(true, uplo, op, n, k, T(alpha), a, lda, T(beta), c, ldc);
}
template <class T>
void syr2k(Uplo uplo, Op op, size_t n, size_t k, T alpha, const T* a, size_t lda, const T* b,
           size_t ldb, T beta, T* c, size_t ldc) {
  rank_2k(false, uplo, op, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}
template <class T>
void her2k(Uplo uplo, Op op, size_t n, size_t k, T alpha, const T* a, size_t lda, const T* b,
           size_t ldb, real_t<T> beta, T* c, size_t ldc) {
  rank_2k(true, uplo, op, n, k, alpha, a, lda, b, ldb, T(beta), c, ldc);
}

template <class T>
void trmm(Side side, Uplo uplo, Op op, Diag diag, size_t m, size_t n, T alpha, const T* a,
          size_t lda, T* b, size_t ldb) {
  if (m == 0 || n == 0) return;
  const auto all = [&](size_t) { return Span{0, n}; };
  if (alpha == T(0)) return scale_rows(m, all, T(0), b, ldb, false);
  if (side == Side::Right) {
    // A row b of B becomes alpha·b·op(A) = (alpha·op(A)ᵀ·bᵀ)ᵀ: a trmv with the transposed op.
    const Triangle<const T> triangle{a, lda, n, uplo};
    for (size_t i = 0; i < m; ++i) {
      triangular_multiply(uplo, transposed(op), diag, n, triangle, alpha, b + i * ldb, 1,
                          scalar_rows<T>());
    }
    return;
  }
  // Row i of B becomes alpha·(op(A)(i, i)·row i + Σ op(A)(i, k)·row k) over the rows k on op(A)'s
  // side of the diagonal, which are still unchanged when row i is formed.
  const LeftTriangle<T> tri(uplo, op, diag, a, lda);
  for (size_t step = 0; step < m; ++step) {
    const size_t i = tri.upward ? step : m - 1 - step;
    T* bi = b + i * ldb;
    if (!tri.unit) {
      const T d = tri.at(i, i);
      for (size_t j = 0; j < n; ++j) bi[j] = mul(d, bi[j]);
    }
    const size_t lo = tri.upward ? i + 1 : 0, hi = tri.upward ? m : i;
    for (size_t kk = lo; kk < hi; ++kk) {
      const T t = tri.at(i, kk);
      if (t != T(0)) row_axpy(scalar_rows<T>(), false, t, b + kk * ldb, 0, n, bi, 1);
    }
    if (alpha != T(1)) {
      for (size_t j = 0; j < n; ++j) bi[j] = mul(alpha, bi[j]);
    }
  }
}

template <class T>
void trsm(Side side, Uplo uplo, Op op, Diag diag, size_t m, size_t n, T alpha, const T* a,
          size_t lda, T* b, size_t ldb) {
  if (m == 0 || n == 0) return;
  const auto all = [&](size_t) { return Span{0, n}; };
  if (alpha == T(0)) return scale_rows(m, all, T(0), b, ldb, false);
  if (side == Side::Right) {
    // A row x of X with x·op(A) = alpha·b: op(A)ᵀ·xᵀ = alpha·bᵀ, a trsv with the transposed op.
    const Triangle<const T> triangle{a, lda, n, uplo};
    for (size_t i = 0; i < m; ++i) {
      triangular_solve(uplo, transposed(op), diag, n, triangle, alpha, b + i * ldb, 1,
                       scalar_rows<T>());
    }
    return;
  }
  // Row i of X is (alpha·row i of B − Σ op(A)(i, k)·row k of X) / op(A)(i, i), over the rows k
  // on op(A)'s side of the diagonal, which are solved before it.
  const LeftTriangle<T> tri(uplo, op, diag, a, lda);
  for (size_t step = 0; step < m; ++step) {
    const size_t i = tri.upward ? m - 1 - step : step;
    T* bi = b + i * ldb;
    if (alpha != T(1)) {
      for (size_t j = 0; j < n; ++j) bi[j] = mul(alpha, bi[j]);
    }
    const size_t lo = tri.upward ? i + 1 : 0, hi = tri.upward ? m : i;
    for (size_t kk = lo; kk < hi; ++kk) {
      const T t = tri.at(i, kk);
      if (t != T(0)) row_axpy(scalar_rows<T>(), false, -t, b + kk * ldb, 0, n, bi, 1);
    }
    if (!tri.unit) {
      const T d = tri.at(i, i);
      for (size_t j = 0; j < n; ++j) bi[j] = div(bi[j], d);
    }
  }
}

// ------------------------------ Instantiations

#define COHERIQ_BLAS3_ALL(T)                                                                      \
  template void gemm<T>(Op, Op, size_t, size_t, size_t, T, const T*, size_t, const T*, size_t, T, \
                        T*, size_t);                                                              \
  template void symm<T>(Side, Uplo, size_t, size_t, T, const T*, size_t, const T*, size_t, T, T*, \
                        size_t);                                                                  \
  template void syrk<T>(Uplo, Op, size_t, size_t, T, const T*, size_t, T, T*, size_t);            \
  template void syr2k<T>(Uplo, Op, size_t, size_t, T, const T*, size_t, const T*, size_t, T, T*,  \
                         size_t);                                                                 \
  template void trmm<T>(Side, Uplo, Op, Diag, size_t, size_t, T, const T*, size_t, T*, size_t);   \
  template void trsm<T>(Side, Uplo, Op, Diag, size_t, size_t, T, const T*, size_t, T*, size_t);
#define COHERIQ_BLAS3_COMPLEX(T)                                                                  \
  template void hemm<T>(Side, Uplo, size_t, size_t, T, const T*, size_t, const T*, size_t, T, T*, \
                        size_t);                                                                  \
  template void herk<T>(Uplo, Op, size_t, size_t, real_t<T>, const T*, size_t, real_t<T>, T*,     \
                        size_t);                                                                  \
  template void her2k<T>(Uplo, Op, size_t, size_t, T, const T*, size_t, const T*, size_t,         \
                         real_t<T>, T*, size_t);
COHERIQ_BLAS3_ALL(float)
COHERIQ_BLAS3_ALL(double)
COHERIQ_BLAS3_ALL(std::complex<float>)
COHERIQ_BLAS3_ALL(std::complex<double>)
COHERIQ_BLAS3_COMPLEX(std::complex<float>)
COHERIQ_BLAS3_COMPLEX(std::complex<double>)
#undef COHERIQ_BLAS3_ALL
#undef COHERIQ_BLAS3_COMPLEX

}  // namespace coheriq::kernels::reference::blas
