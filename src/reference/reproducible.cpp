// The reference engine's kernels in the reproducible mode (reproducible.hpp): the canonical orders
// of kernels/reproducible.hpp as scalar loops, one term at a time, and the generic kernels'
// arithmetic per element (engines/generic/*-inl.h) wherever the mode leaves it as it is.
//
// Every fused multiply-add of the generic kernels (Highway's MulAdd, MulSub) is a std::fma here and
// every other product and sum is rounded on its own: the library is built with -ffp-contract=off,
// so a·b + c below is two roundings, as it is in the vector code. Scalar, baseline flags, not
// fast: the oracle of the mode's cross-engine tests.
#include "reference/reproducible.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <complex>
#include <cstddef>
#include <limits>
#include <type_traits>

#include "kernels/candidates.hpp"
#include "kernels/level2.hpp"
#include "kernels/level3.hpp"
#include "kernels/reproducible.hpp"

namespace coheriq::kernels::reference::reproducible {
namespace {

// The domain's figures (kernels/reproducible.hpp).
namespace canonical = ::coheriq::kernels::canonical;

// Element i of a strided vector; x points at element 0 whatever the sign of inc.
template <class T>
T& element(T* x, std::ptrdiff_t inc, std::size_t i) {
  return x[static_cast<std::ptrdiff_t>(i) * inc];
}

// ------------------------------ The canonical reduction

// The partial sums of a reduction: P values of S starting at +0, term i going into partial i mod
// P, then the halving tree. Every reduction of this file is one of these, so that the order the
// domain states is written once.
template <class S, std::size_t P = canonical::kPartials<S>>
class Partials {
  static_assert(P >= 2 && (P & (P - 1)) == 0, "the halving tree needs a power of two partials");

 public:
  // The partial that term i goes into.
  S& of(std::size_t i) { return partial_[i % P]; }

  // The halving tree, stopped when `keep` partials are left (1 for a sum; 2 for the complex dots,
  // which keep the even and the odd lanes apart): s_j = s_j + s_{j+h} for every j < h, for h =
  // P/2, P/4, ..., keep (a power of two, at least 1).
  void fold(std::size_t keep = 1) {
    for (std::size_t h = P / 2; h >= keep; h /= 2) {
      for (std::size_t j = 0; j < h; ++j) partial_[j] = partial_[j] + partial_[j + h];
    }
  }

  S operator[](std::size_t j) const { return partial_[j]; }

 private:
  std::array<S, P> partial_{};  // value-initialized: +0
};

// The canonical reduction of n terms: step(s, i) is partial s after term i; then zero terms up
// to a multiple of P (s + 0: a fused term whose product underflowed to -0 can leave -0 in its
// partial, which the padding turns into +0, as vector code padding its last block does).
template <class S, std::size_t P = canonical::kPartials<S>, class Step>
S reduce(std::size_t n, Step step) {
  Partials<S, P> partials;
  for (std::size_t i = 0; i < n; ++i) {
    S& s = partials.of(i);
    s = step(s, i);
  }
  for (std::size_t i = n; i % P != 0; ++i) {
    S& s = partials.of(i);
    s = s + S(0);
  }
  partials.fold();
  return partials[0];
}

// Σ x_i·y_i, x_i and y_i given by index: the canonical dot.
template <class T, class X, class Y>
T canonical_dot(std::size_t n, X x, Y y) {
  return reduce<T>(n, [&](T s, std::size_t i) { return std::fma(x(i), y(i), s); });
}

// ------------------------------ nrm2

// Below this the sum of squares in T may have lost significant terms to underflow: the generic
// nrm2's threshold (engines/generic/blas1-inl.h, kNrm2SafeMinSumSq), which decides the fallback.
template <class T>
constexpr T kSafeMinSumSq = std::is_same_v<T, float> ? T(0x1p-80) : T(0x1p-900);

// √Σx² of x_i given by index, as the generic nrm2: the canonical sum of squares in T (fused, in
// two parts cut at nrm2_split), and when it overflowed or may have underflowed, f32: the
// canonical sum of squares in f64 (kPartials<double> partials, element i into partial i mod 32),
// its square root rounded to float; f64: x scaled by 2^-e in two exact halves (max |x| = m·2^e,
// m in [0.5, 1)), then the canonical sum of the rounded squares and the square root scaled back.
template <class T, class X>
T canonical_nrm2(std::size_t n, X x) {
  const std::size_t split = canonical::nrm2_split<T>(n);
  const auto squares = [&](std::size_t first, std::size_t count) {
    return reduce<T>(count, [&](T s, std::size_t i) {
      const T v = x(first + i);
      return std::fma(v, v, s);
    });
  };
  const T sumsq = squares(0, split) + squares(split, n - split);
  if (sumsq >= kSafeMinSumSq<T> && sumsq <= std::numeric_limits<T>::max()) return std::sqrt(sumsq);
  if (std::isnan(sumsq) || n == 0) return sumsq;
  if constexpr (std::is_same_v<T, float>) {
    const double wide = reduce<double>(n, [&](double s, std::size_t i) {
      const double v = x(i);
      return s + v * v;
    });
    return static_cast<float>(std::sqrt(wide));
  } else {
    // No NaN is left (its square would have made sumsq NaN), so the maximum is the same in any
    // order.
    double amax = 0.0;
    for (std::size_t i = 0; i < n; ++i) amax = std::max(amax, std::fabs(x(i)));
    if (amax == 0.0 || amax > std::numeric_limits<double>::max()) return amax;  // zeros, or an Inf
    int e = 0;
    (void)std::frexp(amax, &e);
    // 2^-e alone overflows for a subnormal amax: two halves, each a power of two within range.
    const int e_half = e / 2;
    const double scale_a = std::ldexp(1.0, -e_half);
    const double scale_b = std::ldexp(1.0, e_half - e);
    const double scaled = reduce<double>(n, [&](double s, std::size_t i) {
      const double v = (x(i) * scale_a) * scale_b;
      return s + v * v;
    });
    return std::ldexp(std::sqrt(scaled), e);
  }
}

// ------------------------------ Complex

// Σ conj?(x)·y over the 2n interleaved reals: A = Σ x·y and B = Σ x·y' (y' with each element's
// parts swapped), each in the canonical partials of the real type by index over the reals, the
// tree stopped at two partials (even lanes: real parts of x; odd: imaginary).
template <bool kConj, class T>
std::complex<T> complex_dot(std::size_t n, const std::complex<T>* x, std::ptrdiff_t incx,
                            const std::complex<T>* y, std::ptrdiff_t incy) {
  Partials<T> a, b;
  for (std::size_t i = 0; i < n; ++i) {
    const std::complex<T> xi = element(x, incx, i), yi = element(y, incy, i);
    T& a_re = a.of(2 * i);
    a_re = std::fma(xi.real(), yi.real(), a_re);
    T& b_re = b.of(2 * i);
    b_re = std::fma(xi.real(), yi.imag(), b_re);
    T& a_im = a.of(2 * i + 1);
    a_im = std::fma(xi.imag(), yi.imag(), a_im);
    T& b_im = b.of(2 * i + 1);
    b_im = std::fma(xi.imag(), yi.real(), b_im);
  }
  a.fold(2);
  b.fold(2);
  if constexpr (kConj) return {a[0] + a[1], b[0] - b[1]};
  return {a[0] - a[1], b[0] + b[1]};
}

// y += a·conj?(x), element by element in order, as the generic ComplexAxpy: each part as a lane of
// its ComplexAxpyContiguous, y = fma(direct, x, fma(swapped, x', y)), x' the element with its parts
// swapped, direct = (a_r, a_r) and swapped = (-a_i, a_i) for a·x, direct = (a_r, -a_r) and
// swapped = (a_i, a_i) for a·conj(x); but a 0 increment on y takes its scalar loop, every update
// into y[0] by the textbook product, each product and sum rounded (the same on every width, and
// what the generic engines run in the mode too).
template <bool kConj, class T>
void complex_axpy(std::size_t n, std::complex<T> a, const std::complex<T>* x, std::ptrdiff_t incx,
                  std::complex<T>* y, std::ptrdiff_t incy) {
  const T ar = a.real(), ai = a.imag();
  if (incy == 0) {
    for (std::size_t i = 0; i < n; ++i) {
      const std::complex<T> xi = element(x, incx, i);
      const T x_re = xi.real(), x_im = kConj ? -xi.imag() : xi.imag();
      const T re = y->real() + (ar * x_re - ai * x_im);
      const T im = y->imag() + (ar * x_im + ai * x_re);
      *y = {re, im};
    }
    return;
  }
  const T direct_re = ar, direct_im = kConj ? -ar : ar;
  const T swapped_re = kConj ? ai : -ai, swapped_im = ai;
  for (std::size_t i = 0; i < n; ++i) {
    const std::complex<T> xi = element(x, incx, i);  // read before y is written: x == y works
    std::complex<T>& yi = element(y, incy, i);
    const T re = std::fma(direct_re, xi.real(), std::fma(swapped_re, xi.imag(), yi.real()));
    const T im = std::fma(direct_im, xi.imag(), std::fma(swapped_im, xi.real(), yi.imag()));
    yi = {re, im};
  }
}

// ------------------------------ GEMM

// A row-major bf16 matrix as stored, widened to float (exactly).
struct WidenedBf16 {
  const bfloat16* data;
  std::size_t ld;

  float operator()(std::size_t r, std::size_t c) const {
    return static_cast<float>(data[r * ld + c]);
  }
};

// C = alpha·op(A)·op(B) + beta·C in the canonical order, on the elements (i, j), i < m, with j
// in columns(i) (reference.hpp: every column, or gemmt's triangle): for each k-block, one FMA
// chain from +0 in k order, t = alpha·acc (acc when alpha == 1), C = t under a block beta of 0,
// else fma(beta_b, C, t), beta_b the caller's beta for the first block and 1 after. k == 0: C =
// beta·C, zeros when beta == 0. beta == 0 does not read C. a(i, p) and b(p, j) are the operands'
// elements.
template <class T, class A, class B, class ColumnsOf>
void canonical_gemm(std::size_t m, std::size_t k, T alpha, A a, B b, T beta, T* C, std::size_t ldc,
                    ColumnsOf columns) {
  const std::size_t k_block = canonical::gemm_k_block(k);
  for (std::size_t i = 0; i < m; ++i) {
    const auto [first, last] = columns(i);
    for (std::size_t j = first; j < last; ++j) {
      T& c = C[i * ldc + j];
      if (k == 0) c = beta == T(0) ? T(0) : beta * c;
      for (std::size_t p0 = 0; p0 < k; p0 += k_block) {
        const std::size_t p1 = std::min(k, p0 + k_block);
        T acc = T(0);
        for (std::size_t p = p0; p < p1; ++p) acc = std::fma(a(i, p), b(p, j), acc);
        const T t = alpha == T(1) ? acc : alpha * acc;
        const T block_beta = p0 == 0 ? beta : T(1);
        c = block_beta == T(0) ? t : std::fma(block_beta, c, t);
      }
    }
  }
}

}  // namespace

// ------------------------------ BLAS-1

template <class T>
T dot(std::size_t n, const T* x, const T* y) {
  return canonical_dot<T>(
      n, [&](std::size_t i) { return x[i]; }, [&](std::size_t i) { return y[i]; });
}

template <class T>
T sum(std::size_t n, const T* x) {
  return reduce<T>(n, [&](T s, std::size_t i) { return s + x[i]; });
}

template <class T>
T asum(std::size_t n, const T* x) {
  return reduce<T>(n, [&](T s, std::size_t i) { return s + std::fabs(x[i]); });
}

template <class T>
T nrm2(std::size_t n, const T* x) {
  return canonical_nrm2<T>(n, [&](std::size_t i) { return x[i]; });
}

// y = fma(a, x, y), in order: the generic axpy's one rounding per element.
template <class T>
void axpy(std::size_t n, T a, const T* x, T* y) {
  for (std::size_t i = 0; i < n; ++i) y[i] = std::fma(a, x[i], y[i]);
}

template <class T>
T dot_strided(std::size_t n, const T* x, std::ptrdiff_t incx, const T* y, std::ptrdiff_t incy) {
  return canonical_dot<T>(
      n, [&](std::size_t i) { return element(x, incx, i); },
      [&](std::size_t i) { return element(y, incy, i); });
}

// In order, element by element: a 0 increment on y accumulates every update into y[0].
template <class T>
void axpy_strided(std::size_t n, T a, const T* x, std::ptrdiff_t incx, T* y, std::ptrdiff_t incy) {
  for (std::size_t i = 0; i < n; ++i) {
    T& yi = element(y, incy, i);
    yi = std::fma(a, element(x, incx, i), yi);
  }
}

// axpy_strided (x into y), then the canonical dot of x with v (v == y reads the updated y).
template <class T>
T axpy_dot_strided(std::size_t n, T a, const T* x, std::ptrdiff_t incx, T* y, std::ptrdiff_t incy,
                   const T* v, std::ptrdiff_t incv) {
  axpy_strided<T>(n, a, x, incx, y, incy);
  return dot_strided<T>(n, x, incx, v, incv);
}

template <class T>
T asum_strided(std::size_t n, const T* x, std::ptrdiff_t incx) {
  return reduce<T>(n, [&](T s, std::size_t i) { return s + std::fabs(element(x, incx, i)); });
}

template <class T>
T nrm2_strided(std::size_t n, const T* x, std::ptrdiff_t incx) {
  return canonical_nrm2<T>(n, [&](std::size_t i) { return element(x, incx, i); });
}

// (x, y) := (fma(c, x, s·y), fma(c, y, -(s·x))): the generic RotContiguous's MulAdd and MulSub,
// element by element in order (a 0 increment as the generic's scalar loop).
template <class T>
void rot_strided(std::size_t n, T* x, std::ptrdiff_t incx, T* y, std::ptrdiff_t incy, T c, T s) {
  for (std::size_t i = 0; i < n; ++i) {
    T& xi = element(x, incx, i);
    T& yi = element(y, incy, i);
    const T xv = xi, yv = yi;
    xi = std::fma(c, xv, s * yv);
    yi = std::fma(c, yv, -(s * xv));
  }
}

template <class T>
void dotu_strided(std::size_t n, const std::complex<T>* x, std::ptrdiff_t incx,
                  const std::complex<T>* y, std::ptrdiff_t incy, std::complex<T>* result) {
  *result = complex_dot<false>(n, x, incx, y, incy);
}
template <class T>
void dotc_strided(std::size_t n, const std::complex<T>* x, std::ptrdiff_t incx,
                  const std::complex<T>* y, std::ptrdiff_t incy, std::complex<T>* result) {
  *result = complex_dot<true>(n, x, incx, y, incy);
}
template <class T>
void axpy_strided(std::size_t n, std::complex<T> a, const std::complex<T>* x, std::ptrdiff_t incx,
                  std::complex<T>* y, std::ptrdiff_t incy) {
  complex_axpy<false>(n, a, x, incx, y, incy);
}
template <class T>
void axpyc_strided(std::size_t n, std::complex<T> a, const std::complex<T>* x, std::ptrdiff_t incx,
                   std::complex<T>* y, std::ptrdiff_t incy) {
  complex_axpy<true>(n, a, x, incx, y, incy);
}

// ------------------------------ GEMM

template <class T>
void gemm(Trans ta, Trans tb, std::size_t m, std::size_t n, std::size_t k, T alpha, const T* A,
          std::size_t lda, const T* B, std::size_t ldb, T beta, T* C, std::size_t ldc,
          void* /*work*/) {
  canonical_gemm(m, k, alpha, Operand<T>{A, lda, ta}, Operand<T>{B, ldb, tb}, beta, C, ldc,
                 all_columns(n));
}

// The reference's packed layout (gemm.cpp): op(B) row-major k x n, contiguous.
template <class T>
void gemm_packed(Trans ta, std::size_t m, std::size_t n, std::size_t k, T alpha, const T* A,
                 std::size_t lda, const void* packed, T beta, T* C, std::size_t ldc) {
  canonical_gemm(m, k, alpha, Operand<T>{A, lda, ta},
                 Operand<T>{static_cast<const T*>(packed), n, Trans::N}, beta, C, ldc,
                 all_columns(n));
}

template <class T>
void gemm_batch_strided(Trans ta, Trans tb, std::size_t m, std::size_t n, std::size_t k, T alpha,
                        const T* A, std::size_t lda, std::size_t stride_a, const T* B,
                        std::size_t ldb, std::size_t stride_b, T beta, T* C, std::size_t ldc,
                        std::size_t stride_c, std::size_t batch, void* /*work*/) {
  for (std::size_t i = 0; i < batch; ++i) {
    canonical_gemm(m, k, alpha, Operand<T>{A + i * stride_a, lda, ta},
                   Operand<T>{B + i * stride_b, ldb, tb}, beta, C + i * stride_c, ldc,
                   all_columns(n));
  }
}

template <class T>
void gemm_batch(Trans ta, Trans tb, std::size_t m, std::size_t n, std::size_t k, T alpha,
                const T* const* A, std::size_t lda, const T* const* B, std::size_t ldb, T beta,
                T* const* C, std::size_t ldc, std::size_t batch, void* /*work*/) {
  for (std::size_t i = 0; i < batch; ++i) {
    canonical_gemm(m, k, alpha, Operand<T>{A[i], lda, ta}, Operand<T>{B[i], ldb, tb}, beta, C[i],
                   ldc, all_columns(n));
  }
}

// The triangle of C (engines/generic/gemm-inl.h: gemm's elements there, nothing else).
template <class T>
void gemmt(Uplo uplo, Trans ta, Trans tb, std::size_t n, std::size_t width, std::size_t k, T alpha,
           const T* A, std::size_t lda, const T* B, std::size_t ldb, T beta, T* C, std::size_t ldc,
           void* /*work*/) {
  canonical_gemm(n, k, alpha, Operand<T>{A, lda, ta}, Operand<T>{B, ldb, tb}, beta, C, ldc,
                 triangle_columns(uplo, n, width));
}

// The complex products on the reference's packed expansion (gemm.cpp); alpha is in it.
template <class T>
void gemm_1m(Trans ta, std::size_t m, std::size_t n, std::size_t k, const T* A, std::size_t lda,
             const void* packed, T beta, T* C, std::size_t ldc, void* /*work*/) {
  complex_as_gemm(ta, n, k, A, lda, packed, [&](std::size_t depth, auto a, auto b) {
    canonical_gemm(m, depth, T(1), a, b, beta, C, 2 * ldc, all_columns(2 * n));
  });
}
template <class T>
void gemmt_1m(Uplo uplo, Trans ta, std::size_t n, std::size_t k, const T* A, std::size_t lda,
              const void* packed, T beta, T* C, std::size_t ldc, void* /*work*/) {
  complex_as_gemm(ta, n, k, A, lda, packed, [&](std::size_t depth, auto a, auto b) {
    canonical_gemm(n, depth, T(1), a, b, beta, C, 2 * ldc, triangle_columns(uplo, n, 2));
  });
}

// The symmetric product (engines/generic/gemm-inl.h): gemm's on A written in full.
template <class T>
void symm_packed(Side side, Uplo uplo, std::size_t m, std::size_t n, T alpha, const T* A,
                 std::size_t lda, const T* B, std::size_t ldb, T beta, T* C, std::size_t ldc,
                 void* /*work*/) {
  symmetric_as_gemm(side, uplo, m, n, A, lda, B, ldb, [&](std::size_t k, auto a, auto b) {
    canonical_gemm(m, k, alpha, a, b, beta, C, ldc, all_columns(n));
  });
}

// The triangular product (engines/generic/gemm-inl.h, trmm_packed): each element's sum over its
// triangle in the k-blocks of gemm's for a depth of the order, from the block holding the element's
// own row (Left) or column (Right) away from it, each block an FMA chain from +0 in k order, t =
// alpha·acc (acc when alpha == 1), the first block's t the element, the others added as fma(1, C,
// t).
template <class T>
void trmm_packed(Side side, Uplo uplo, Trans ta, Diag diag, std::size_t m, std::size_t n, T alpha,
                 const T* A, std::size_t lda, T* B, std::size_t ldb, void* /*work*/) {
  const TriangularOperand op_a{uplo, ta, diag};
  const bool left = side == Side::Left;
  const std::size_t k_block = canonical::gemm_k_block(left ? m : n);
  triangular_product_elements(
      side, op_a.lower(), m, n, [&](std::size_t i, std::size_t j, std::size_t lo, std::size_t hi) {
        // The element's own index is the first of its range (its blocks then ascend) or the last.
        const std::size_t own = left ? i : j;
        const bool ascending = lo == own;
        const std::size_t last = (ascending ? hi - 1 : lo) / k_block;
        T c = T(0);
        for (std::size_t b = own / k_block;; b = ascending ? b + 1 : b - 1) {
          const std::size_t p0 = std::max(lo, b * k_block), p1 = std::min(hi, (b + 1) * k_block);
          T acc = T(0);
          for (std::size_t p = p0; p < p1; ++p) {
            const T x = left ? op_a(A, lda, i, p) : B[i * ldb + p];
            const T y = left ? B[p * ldb + j] : op_a(A, lda, p, j);
            acc = std::fma(x, y, acc);
          }
          const T t = alpha == T(1) ? acc : alpha * acc;
          c = b == own / k_block ? t : std::fma(T(1), c, t);
          if (b == last) break;
        }
        B[i * ldb + j] = c;
      });
}

// The complex one on the 1m method (engines/generic/gemm-inl.h, trmm_1m): each real part's sum as
// trmm_packed's, in the k-blocks of gemm's for twice the order, t = acc (alpha is in the
// expansion).
template <class T>
void trmm_1m(Side side, Uplo uplo, Op op, Diag diag, std::size_t m, std::size_t n, T alpha_re,
             T alpha_im, const T* A, std::size_t lda, T* B, std::size_t ldb, void* /*work*/) {
  const std::size_t k_block = canonical::gemm_k_block(2 * (side == Side::Left ? m : n));
  complex_triangular_product(side, uplo, op, diag, m, n, alpha_re, alpha_im, A, lda, B, ldb,
                             [&](std::size_t own, std::size_t lo, std::size_t hi, auto x, auto y) {
                               const bool ascending = lo == own;
                               const std::size_t last = (ascending ? hi - 1 : lo) / k_block;
                               T c = T(0);
                               for (std::size_t b = own / k_block;; b = ascending ? b + 1 : b - 1) {
                                 const std::size_t p0 = std::max(lo, b * k_block),
                                                   p1 = std::min(hi, (b + 1) * k_block);
                                 T acc = T(0);
                                 for (std::size_t p = p0; p < p1; ++p)
                                   acc = std::fma(x(p), y(p), acc);
                                 c = b == own / k_block ? acc : std::fma(T(1), c, acc);
                                 if (b == last) break;
                               }
                               return c;
                             });
}

// ------------------------------ BLAS-2

// The generic gemv's order (engines/generic/blas2-inl.h): y scaled by beta first (beta == 1: as it
// is; 0: zeros, y not read; else beta·y), nothing more when alpha == 0; then N: per chunk of
// columns, y_i = y_i + alpha·D_i, D_i the canonical dot of the chunk of row i with x's chunk (two
// roundings: the product, then the sum); T: row after row, t = alpha·x_i, y_j = fma(t, A_ij, y_j).
template <class T>
void gemv(Trans op, std::size_t m, std::size_t n, T alpha, const T* A, std::size_t lda, const T* x,
          std::ptrdiff_t incx, T beta, T* y, std::ptrdiff_t incy) {
  if (m == 0 || n == 0 || (alpha == T(0) && beta == T(1))) return;
  if (beta != T(1)) {
    for (std::size_t i = 0, len = op == Trans::N ? m : n; i < len; ++i) {
      T& yi = element(y, incy, i);
      yi = beta == T(0) ? T(0) : beta * yi;
    }
  }
  if (alpha == T(0)) return;
  if (op == Trans::N) {
    for (std::size_t start = 0; start < n; start += canonical::kGemvChunk) {
      const std::size_t len = std::min(canonical::kGemvChunk, n - start);
      for (std::size_t i = 0; i < m; ++i) {
        const T* row = A + i * lda + start;
        const T d = canonical_dot<T>(
            len, [&](std::size_t j) { return row[j]; },
            [&](std::size_t j) { return element(x, incx, start + j); });
        T& yi = element(y, incy, i);
        yi = yi + alpha * d;
      }
    }
    return;
  }
  for (std::size_t i = 0; i < m; ++i) {
    const T t = alpha * element(x, incx, i);
    const T* row = A + i * lda;
    for (std::size_t j = 0; j < n; ++j) {
      T& yj = element(y, incy, j);
      yj = std::fma(t, row[j], yj);
    }
  }
}

// The generic ger: row i gets fma(alpha·x_i, y_j, A_ij), skipped when x_i == 0 (the reference
// BLAS's skip, which the generic keeps).
template <class T>
void ger(std::size_t m, std::size_t n, T alpha, const T* x, std::ptrdiff_t incx, const T* y,
         std::ptrdiff_t incy, T* A, std::size_t lda) {
  if (m == 0 || n == 0 || alpha == T(0)) return;
  for (std::size_t i = 0; i < m; ++i) {
    const T xi = element(x, incx, i);
    if (xi == T(0)) continue;
    const T t = alpha * xi;
    T* row = A + i * lda;
    for (std::size_t j = 0; j < n; ++j) row[j] = std::fma(t, element(y, incy, j), row[j]);
  }
}

// ------------------------------ Reduced precision

// The canonical f32 dot of the operands widened to float.
float dot_bf16(std::size_t n, const bfloat16* x, const bfloat16* y) {
  return canonical_dot<float>(
      n, [&](std::size_t i) { return static_cast<float>(x[i]); },
      [&](std::size_t i) { return static_cast<float>(y[i]); });
}

// The canonical f32 GEMM of the operands widened to float (A m x k, B k x n, as stored).
void gemm_bf16(std::size_t m, std::size_t n, std::size_t k, float alpha, const bfloat16* A,
               std::size_t lda, const bfloat16* B, std::size_t ldb, float beta, float* C,
               std::size_t ldc, void* /*work*/) {
  canonical_gemm(m, k, alpha, WidenedBf16{A, lda}, WidenedBf16{B, ldb}, beta, C, ldc,
                 all_columns(n));
}

// ------------------------------ The level 2 and 3: forwarders to the blocked forms, which call
// the public API, so that in the mode they run on this table's kernels as a generic engine's run
// on its own.
#define COHERIQ_REPRODUCIBLE_FORWARD(ns, op, R, params, args) \
  template <class T>                                          \
  R op params {                                               \
    return ns::op args;                                       \
  }
#define COHERIQ_REPRODUCIBLE_FORWARD_LEVEL2(op, S, impl, touched, R, params, args) \
  COHERIQ_REPRODUCIBLE_FORWARD(::coheriq::kernels::level2, op, R, params, args)
#define COHERIQ_REPRODUCIBLE_FORWARD_LEVEL3(op, S, impl, touched, R, params, args) \
  COHERIQ_REPRODUCIBLE_FORWARD(::coheriq::kernels::level3, op, R, params, args)
COHERIQ_KERNELS_BLAS2_SYMMETRIC_TYPED(COHERIQ_REPRODUCIBLE_FORWARD_LEVEL2, T, S)
COHERIQ_KERNELS_BLAS2_TRIANGULAR_TYPED(COHERIQ_REPRODUCIBLE_FORWARD_LEVEL2, T, S)
COHERIQ_KERNELS_BLAS2_HERMITIAN_TYPED(COHERIQ_REPRODUCIBLE_FORWARD_LEVEL2, T, S)
COHERIQ_KERNELS_BLAS3_TYPED(COHERIQ_REPRODUCIBLE_FORWARD_LEVEL3, T, S)
COHERIQ_KERNELS_BLAS3_COMPLEX_TYPED(COHERIQ_REPRODUCIBLE_FORWARD_LEVEL3, T, S)
#undef COHERIQ_REPRODUCIBLE_FORWARD_LEVEL3
#undef COHERIQ_REPRODUCIBLE_FORWARD_LEVEL2
#undef COHERIQ_REPRODUCIBLE_FORWARD

// ------------------------------ Explicit instantiations: every template reproducible.hpp declares

#define COHERIQ_REPRODUCIBLE_REAL(T)                                                              \
  template T dot<T>(std::size_t, const T*, const T*);                                             \
  template T sum<T>(std::size_t, const T*);                                                       \
  template T asum<T>(std::size_t, const T*);                                                      \
  template T nrm2<T>(std::size_t, const T*);                                                      \
  template void axpy<T>(std::size_t, T, const T*, T*);                                            \
  template T dot_strided<T>(std::size_t, const T*, std::ptrdiff_t, const T*, std::ptrdiff_t);     \
  template void axpy_strided<T>(std::size_t, T, const T*, std::ptrdiff_t, T*, std::ptrdiff_t);    \
  template T axpy_dot_strided<T>(std::size_t, T, const T*, std::ptrdiff_t, T*, std::ptrdiff_t,    \
                                 const T*, std::ptrdiff_t);                                       \
  template T asum_strided<T>(std::size_t, const T*, std::ptrdiff_t);                              \
  template T nrm2_strided<T>(std::size_t, const T*, std::ptrdiff_t);                              \
  template void rot_strided<T>(std::size_t, T*, std::ptrdiff_t, T*, std::ptrdiff_t, T, T);        \
  template void dotu_strided<T>(std::size_t, const std::complex<T>*, std::ptrdiff_t,              \
                                const std::complex<T>*, std::ptrdiff_t, std::complex<T>*);        \
  template void dotc_strided<T>(std::size_t, const std::complex<T>*, std::ptrdiff_t,              \
                                const std::complex<T>*, std::ptrdiff_t, std::complex<T>*);        \
  template void axpy_strided<T>(std::size_t, std::complex<T>, const std::complex<T>*,             \
                                std::ptrdiff_t, std::complex<T>*, std::ptrdiff_t);                \
  template void axpyc_strided<T>(std::size_t, std::complex<T>, const std::complex<T>*,            \
                                 std::ptrdiff_t, std::complex<T>*, std::ptrdiff_t);               \
  template void gemm<T>(Trans, Trans, std::size_t, std::size_t, std::size_t, T, const T*,         \
                        std::size_t, const T*, std::size_t, T, T*, std::size_t, void*);           \
  template void gemm_packed<T>(Trans, std::size_t, std::size_t, std::size_t, T, const T*,         \
                               std::size_t, const void*, T, T*, std::size_t);                     \
  template void gemm_batch_strided<T>(                                                            \
      Trans, Trans, std::size_t, std::size_t, std::size_t, T, const T*, std::size_t, std::size_t, \
      const T*, std::size_t, std::size_t, T, T*, std::size_t, std::size_t, std::size_t, void*);   \
  template void gemm_batch<T>(Trans, Trans, std::size_t, std::size_t, std::size_t, T,             \
                              const T* const*, std::size_t, const T* const*, std::size_t, T,      \
                              T* const*, std::size_t, std::size_t, void*);                        \
  template void gemmt<T>(Uplo, Trans, Trans, std::size_t, std::size_t, std::size_t, T, const T*,  \
                         std::size_t, const T*, std::size_t, T, T*, std::size_t, void*);          \
  template void gemm_1m<T>(Trans, std::size_t, std::size_t, std::size_t, const T*, std::size_t,   \
                           const void*, T, T*, std::size_t, void*);                               \
  template void gemmt_1m<T>(Uplo, Trans, std::size_t, std::size_t, const T*, std::size_t,         \
                            const void*, T, T*, std::size_t, void*);                              \
  template void symm_packed<T>(Side, Uplo, std::size_t, std::size_t, T, const T*, std::size_t,    \
                               const T*, std::size_t, T, T*, std::size_t, void*);                 \
  template void trmm_packed<T>(Side, Uplo, Trans, Diag, std::size_t, std::size_t, T, const T*,    \
                               std::size_t, T*, std::size_t, void*);                              \
  template void trmm_1m<T>(Side, Uplo, Op, Diag, std::size_t, std::size_t, T, T, const T*,        \
                           std::size_t, T*, std::size_t, void*);                                  \
  template void gemv<T>(Trans, std::size_t, std::size_t, T, const T*, std::size_t, const T*,      \
                        std::ptrdiff_t, T, T*, std::ptrdiff_t);                                   \
  template void ger<T>(std::size_t, std::size_t, T, const T*, std::ptrdiff_t, const T*,           \
                       std::ptrdiff_t, T*, std::size_t);
COHERIQ_REPRODUCIBLE_REAL(float)
COHERIQ_REPRODUCIBLE_REAL(double)
#undef COHERIQ_REPRODUCIBLE_REAL

#define COHERIQ_REPRODUCIBLE_INSTANTIATE(op, S, impl, touched, R, params, args) \
  template R impl params;
COHERIQ_KERNELS_BLAS2_CHECKED(COHERIQ_REPRODUCIBLE_INSTANTIATE)
COHERIQ_KERNELS_BLAS3(COHERIQ_REPRODUCIBLE_INSTANTIATE)
#undef COHERIQ_REPRODUCIBLE_INSTANTIATE

}  // namespace coheriq::kernels::reference::reproducible
