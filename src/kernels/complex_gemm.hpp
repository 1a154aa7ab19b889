// Complex GEMM on the kernels domain's real GEMM: C := alpha·op(A)·op(B) + beta·C for
// std::complex<float> and std::complex<double>, as one real product of twice the size
//
//   [Ar Ai] · [Br  Bi]  =  [Re Im]       (op(A) = Ar + i·Ai, m x k; op(B) = Br + i·Bi, k x n)
//             [−Bi Br]
//
// so the engine in effect does the work, on its thread pool, bitwise the same for every thread
// count (as real GEMM is), and C takes alpha and beta by the textbook products afterwards. Four
// real multiply-adds per complex one, as the complex product itself has.
//
// What stays on the reference engine's loop (kr::gemm, the reference's own order): a small
// product (the split costs more than it saves), alpha == 0 or k == 0 (C := beta·C, A and B not
// read), and a non-finite alpha or operand: the real product multiplies every zero, so an Inf or
// NaN would spread to other parts than the reference's products spread it. The generic engines'
// gemm.c32 and gemm.c64 (level3.cpp), and the bulk work of the complex level 3 there. Its
// workspace and finiteness checks are level3_support.hpp's (shared with level3.cpp).
#pragma once

#include <coheriq/kernels.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <utility>

#include "kernels/level3_support.hpp"
#include "reference/blas.hpp"

namespace coheriq::kernels::level3 {

namespace k = coheriq::kernels;
namespace kr = coheriq::kernels::reference::blas;

// Below this many complex multiply-adds (m·n·k) the loop is as fast as the split: measured,
// docs/decisions.md ("Complex GEMM on the real GEMM").
inline constexpr size_t kComplexGemmMinWork = size_t{8} * 8 * 8;
// The split B and the product are formed a panel of columns at a time, at most this many bytes
// each (so memory stays bounded for any n; op(A)'s split is m·2k reals, A's own size).
inline constexpr size_t kComplexPanelBytes = size_t{8} << 20;

// Row r of op(X) for a row-major X with leading dimension ld: where it starts, how far apart its
// elements are, and whether they are conjugated; so the splits below run without a choice per
// element.
template <class T>
struct OpRows {
  const T* x;
  size_t ld;
  Op op;
  const T* row(size_t r) const { return transposes(op) ? x + r : x + r * ld; }
  size_t step() const { return transposes(op) ? ld : 1; }
  bool conj() const { return op == Op::C || op == Op::Conj; }
};

// `count` elements src[j·step] into re[j] and im[j] (the imaginary part negated for conj: the
// operands are finite here, so −1·x is −x).
template <class T>
void split_row(const T* src, size_t step, size_t count, bool conj, real_t<T>* re, real_t<T>* im) {
  using R = real_t<T>;
  const R sign = conj ? R(-1) : R(1);
  if (step == 1) {
    for (size_t j = 0; j < count; ++j) {
      re[j] = src[j].real();
      im[j] = sign * src[j].imag();
    }
  } else {
    for (size_t j = 0; j < count; ++j) {
      re[j] = src[j * step].real();
      im[j] = sign * src[j * step].imag();
    }
  }
}

// Whether op(X)'s r x c elements (X stored r x c for N/Conj, c x r for T/C) are all finite.
template <class T>
bool finite_complex(Op op, size_t r, size_t c, const T* x, size_t ld) {
  if (transposes(op)) std::swap(r, c);
  return finite_matrix(r, c, x, ld);
}

template <class T>
void gemm(Op opa, Op opb, size_t m, size_t n, size_t k, T alpha, const T* a, size_t lda, const T* b,
          size_t ldb, T beta, T* c, size_t ldc) {
  using R = real_t<T>;
  if (m == 0 || n == 0) return;
  const bool finite = finite_scalar(alpha) && alpha != T(0) && k != 0 &&
                      finite_complex(opa, m, k, a, lda) && finite_complex(opb, k, n, b, ldb);
  if (!finite || m * n * k < kComplexGemmMinWork) {
    kr::gemm(opa, opb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
    return;
  }
  // op(A) split: row i is [re of op(A)(i, :) | im of op(A)(i, :)].
  Workspace<R> a_split(m * 2 * k);
  R* as = a_split.get();
  const OpRows<T> A{a, lda, opa};
  for (size_t i = 0; i < m; ++i) {
    R* row = as + i * 2 * k;
    split_row(A.row(i), A.step(), k, A.conj(), row, row + k);
  }
  const size_t panel = std::clamp<size_t>(kComplexPanelBytes / (4 * k * sizeof(R)), 16, n);
  Workspace<R> b_split(2 * k * 2 * panel), product(m * 2 * panel);
  const OpRows<T> B{b, ldb, opb};
  for (size_t j0 = 0; j0 < n; j0 += panel) {
    const size_t w = std::min(panel, n - j0);
    // Rows l: [Br | Bi]; rows k + l: [−Bi | Br] (columns j0 .. j0 + w of op(B)), ld 2w.
    R* bs = b_split.get();
    for (size_t l = 0; l < k; ++l) {
      R* top = bs + l * 2 * w;
      R* bottom = bs + (k + l) * 2 * w;
      // Row l of op(B) is column l of B for T and C, so its element j0 + j is step (j0 + j) on.
      split_row(B.row(l) + j0 * B.step(), B.step(), w, B.conj(), top, top + w);
      for (size_t j = 0; j < w; ++j) {
        bottom[j] = -top[w + j];
        bottom[w + j] = top[j];
      }
    }
    R* p = product.get();
    k::gemm(k::Trans::N, k::Trans::N, m, 2 * w, 2 * k, R(1), as, 2 * k, bs, 2 * w, R(0), p, 2 * w);
    for (size_t i = 0; i < m; ++i) {
      const R* re = p + i * 2 * w;
      T* out = c + i * ldc + j0;
      for (size_t j = 0; j < w; ++j) {
        const T scaled = kernels::reference::mul(alpha, T(re[j], re[w + j]));
        if (beta == T(0)) {
          out[j] = scaled;
        } else if (beta == T(1)) {
          out[j] += scaled;
        } else {
          out[j] = kernels::reference::mul(beta, out[j]) + scaled;
        }
      }
    }
  }
}

}  // namespace coheriq::kernels::level3
