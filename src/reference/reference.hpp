// The reference engine: the kernels domain's own implementation of every candidate.
//
// Portable scalar C++ compiled with the target's baseline flags, so it runs on any host. It is
// also the oracle of every kernel test, so accuracy comes before speed: sums are compensated,
// f32 kernels accumulate in f64, nrm2 scales by a power of two. The vector math is the one
// algorithm per function that every engine runs (src/math). Private to the library and its
// tests (the tests call these functions directly, whichever engine is in effect); users call
// coheriq::kernels.
#pragma once

#include <coheriq/engine.hpp>
#include <coheriq/kernels.hpp>
#include <coheriq/kernels_table.hpp>

#include <complex>
#include <cstddef>
#include <cstdint>

#include "reference/scalar.hpp"

namespace coheriq::kernels::reference {

// op(M) of a row-major matrix with leading dimension ld: element (r, c) of the operand (the GEMMs
// of gemm.cpp and, in the reproducible mode, reproducible.cpp).
template <class T>
struct Operand {
  const T* data;
  std::size_t ld;
  Trans trans;

  T operator()(std::size_t r, std::size_t c) const noexcept {
    return trans == Trans::N ? data[r * ld + c] : data[c * ld + r];
  }
};

// A' of gemm_1m and gemmt_1m (kernels_table.hpp): op(A) of a complex A (its interleaved reals, ld
// counted in complex elements) as reals, element (i, p) the part p % 2 (0 real, 1 imaginary) of
// op(A)(i, p / 2).
template <class T>
struct ComplexAsReals {
  const T* data;
  std::size_t ld;
  Trans trans;

  T operator()(std::size_t i, std::size_t p) const noexcept {
    const std::size_t element = trans == Trans::N ? i * ld + p / 2 : p / 2 * ld + i;
    return data[2 * element + p % 2];
  }
};

// The columns [first, last) of row i of C that a product writes: every one of n (gemm), or those
// of C's `uplo` triangle of elements `width` columns wide (gemmt, C n x width·n), as functions of
// i.
struct Columns {
  std::size_t first, last;
};
inline auto all_columns(std::size_t n) {
  return [n](std::size_t) { return Columns{0, n}; };
}
inline auto triangle_columns(Uplo uplo, std::size_t n, std::size_t width) {
  return [uplo, n, width](std::size_t i) {
    return uplo == Uplo::Lower ? Columns{0, width * (i + 1)} : Columns{width * i, width * n};
  };
}

// A symmetric matrix given by its `uplo` triangle (symm_packed, kernels_table.hpp): element (r, c)
// as stored, or from (c, r) across the diagonal.
template <class T>
struct SymmetricOperand {
  const T* data;
  std::size_t ld;
  Uplo uplo;

  T operator()(std::size_t r, std::size_t c) const noexcept {
    const bool stored = uplo == Uplo::Lower ? c <= r : c >= r;
    return stored ? data[r * ld + c] : data[c * ld + r];
  }
};

// symm_packed's product as a GEMM, as gemm.cpp and reproducible.cpp compute it: product(k, a, b)
// for C := alpha·a·b + beta·C with k the depth, a and b the operands' element functions.
template <class T, class Product>
void symmetric_as_gemm(Side side, Uplo uplo, std::size_t m, std::size_t n, const T* A,
                       std::size_t lda, const T* B, std::size_t ldb, Product product) {
  const SymmetricOperand<T> sym{A, lda, uplo};
  const Operand<T> other{B, ldb, Trans::N};
  if (side == Side::Left) {
    product(m, sym, other);
  } else {
    product(n, other, sym);
  }
}

// gemm_1m's and gemmt_1m's product as a GEMM (kernels_table.hpp), as gemm.cpp and reproducible.cpp
// compute it: product(k, a, b) for C := a·b + beta·C (alpha 1: it is in the expansion) with k the
// depth (2k reals), a = A' and b the expansion in the reference's packed layout (2k x 2n).
template <class T, class Product>
void complex_as_gemm(Trans ta, std::size_t n, std::size_t k, const T* A, std::size_t lda,
                     const void* packed, Product product) {
  product(2 * k, ComplexAsReals<T>{A, lda, ta},
          Operand<T>{static_cast<const T*>(packed), 2 * n, Trans::N});
}

// trmm_packed's product (kernels_table.hpp), as gemm.cpp and reproducible.cpp compute it: op(A)'s
// element (r, c) on its triangle (0 off it, 1 on a Unit diagonal), and B's elements in an order in
// which each reads B as it was, visit(i, j, lo, hi) with [lo, hi) the k range of its sum: rows
// from last to first (Left, op(A) lower: row i takes rows [0, i]) or first to last (upper: [i,
// m)); on the Right columns first to last (lower: column j takes [j, n)) or last to first (upper:
// [0, j]). Each element's sum is of B's column j (Left) or row i (Right), whose other elements
// are not written yet; its own is read before it is written.
struct TriangularOperand {
  Uplo uplo;
  Trans trans;
  Diag diag;
  bool lower() const { return (uplo == Uplo::Lower) == (trans == Trans::N); }
  template <class T>
  T operator()(const T* a, std::size_t lda, std::size_t r, std::size_t c) const {
    if (lower() ? c > r : c < r) return T(0);
    if (r == c && diag == Diag::Unit) return T(1);
    return trans == Trans::N ? a[r * lda + c] : a[c * lda + r];
  }
};
template <class Visit>
void triangular_product_elements(Side side, bool lower, std::size_t m, std::size_t n, Visit visit) {
  if (side == Side::Left) {
    for (std::size_t step = 0; step < m; ++step) {
      const std::size_t i = lower ? m - 1 - step : step;
      for (std::size_t j = 0; j < n; ++j) visit(i, j, lower ? 0 : i, lower ? i + 1 : m);
    }
  } else {
    for (std::size_t step = 0; step < n; ++step) {
      const std::size_t j = lower ? step : n - 1 - step;
      for (std::size_t i = 0; i < m; ++i) visit(i, j, lower ? j : 0, lower ? n : j + 1);
    }
  }
}

// trmm_1m's product (kernels_table.hpp) on the complex matrices as reals, as gemm.cpp and
// reproducible.cpp compute it: B's element (i, j) is the reals 2j and 2j + 1 of row i, each
// part(own, lo, hi, x, y), the sum of x(p)·y(p) over the real k-steps [lo, hi) (twice the
// element range of triangular_product_elements; own: twice the element's own row (Left) or
// column (Right)). Left, x is row i of A' (op(A) as reals on its triangle, a Unit diagonal 1 +
// 0i, not conjugated) and y the column of pack_b_1m's expansion of alpha·B (its signs s = -1 for
// op C and Conj); Right, x is row i of B as reals and y the column of the expansion of alpha·op(A)
// on its triangle (s = 1). The elements in triangular_product_elements's order, both parts of one
// computed before it is written.
template <class T, class Part>
void complex_triangular_product(Side side, Uplo uplo, Op op, Diag diag, std::size_t m,
                                std::size_t n, T alpha_re, T alpha_im, const T* A, std::size_t lda,
                                T* B, std::size_t ldb, Part part) {
  using Complex = std::complex<T>;
  const bool conjugated = op == Op::C || op == Op::Conj;
  const TriangularOperand tri{uplo, op == Op::T || op == Op::C ? Trans::T : Trans::N, diag};
  const Complex* a = reinterpret_cast<const Complex*>(A);
  Complex* b = reinterpret_cast<Complex*>(B);
  const Complex alpha(alpha_re, alpha_im);
  const bool left = side == Side::Left;
  const T s = left && conjugated ? T(-1) : T(1);
  // Entry (p, q) of the expansion of b' whose element is v: rows 2l and 2l + 1 are [re v, im v]
  // and [-s·im v, s·re v].
  const auto expanded = [s](Complex v, std::size_t p, std::size_t q) -> T {
    if (p % 2 == 0) return q % 2 == 0 ? v.real() : v.imag();
    return q % 2 == 0 ? -s * v.imag() : s * v.real();
  };
  const auto scaled = [&](Complex v) { return alpha == Complex(1) ? v : mul(alpha, v); };
  triangular_product_elements(
      side, tri.lower(), m, n, [&](std::size_t i, std::size_t j, std::size_t lo, std::size_t hi) {
        T parts[2];
        for (std::size_t f = 0; f < 2; ++f) {
          const std::size_t q = 2 * j + f;
          const auto x = [&](std::size_t p) -> T {
            const Complex v = left ? tri(a, lda, i, p / 2) : b[i * ldb + p / 2];
            return p % 2 == 0 ? v.real() : v.imag();
          };
          const auto y = [&](std::size_t p) -> T {
            const Complex v = left ? scaled(b[p / 2 * ldb + j])
                                   : scaled(conj_if(conjugated, tri(a, lda, p / 2, j)));
            return expanded(v, p, q);
          };
          parts[f] = part(2 * (left ? i : j), 2 * lo, 2 * hi, x, y);
        }
        b[i * ldb + j] = Complex(parts[0], parts[1]);
      });
}

// Every candidate of src/kernels/candidates.hpp; Domain::reference() returns it (engine.cpp).
extern const coheriq::OverrideTable overrides;

// One function per row of the kernels' table (coheriq/kernels_table.hpp), named as its `impl`
// column: a template over T for the typed families (dot<T>, gemm<T>, ...), defined and explicitly
// instantiated for float and double in the family's file (blas1.cpp, gemm.cpp), and a function of
// its own for the others (math.cpp: exp, ...; reduced.cpp: dot_u8s8, ...). What each computes, and
// how accurately, is said at its definition.
#define COHERIQ_REFERENCE_TEMPLATE(op, S, impl, touched, R, params, args) \
  template <class T>                                                      \
  R op params;
COHERIQ_KERNELS_TYPED(COHERIQ_REFERENCE_TEMPLATE, T, S)
#undef COHERIQ_REFERENCE_TEMPLATE
#define COHERIQ_REFERENCE_FUNCTION(op, S, impl, touched, R, params, args) R impl params;
COHERIQ_KERNELS_UNTYPED(COHERIQ_REFERENCE_FUNCTION)
#undef COHERIQ_REFERENCE_FUNCTION

// The definition of a row that is the reference BLAS kernel of its name (blas::op of
// reference/blas.hpp, same arguments): `COHERIQ_KERNELS_BLAS3_TYPED(COHERIQ_REFERENCE_TO_BLAS, T,
// S)` defines trsm<T> ... as calls of blas::trsm ... (the complex-only rows, T the real type,
// deduce blas::op's std::complex<T>).
#define COHERIQ_REFERENCE_TO_BLAS(op, S, impl, touched, R, params, args) \
  template <class T>                                                     \
  R op params {                                                          \
    return blas::op args;                                                \
  }

}  // namespace coheriq::kernels::reference
