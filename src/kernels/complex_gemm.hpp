// Complex GEMM on the kernels domain's real GEMM: C := alpha·op(A)·op(B) + beta·C for
// std::complex<float> and std::complex<double>, as one real product on the complex matrices'
// own interleaved storage (BLIS's 1m method, on the public real GEMM). Seen as reals, a row of C
// is [re c_i0, im c_i0, re c_i1, ...] (m x 2n) and a row of op(A) [re a_i0, im a_i0, ...]
// (m x 2k); with op(B) expanded into 2k x 2n reals, rows 2l and 2l + 1 being
//
//   row 2l:     [ re b'_l0,  im b'_l0,  re b'_l1, ...]      b' = alpha·op(B) (the reference's
//   row 2l + 1: [−im b'_l0,  re b'_l0, −im b'_l1, ...]      own first product)
//
// one real product C := A·B_expanded + beta·C computes re = Σ ar·br − ai·bi and im = Σ ar·bi +
// ai·br: four real multiply-adds per complex one, as the complex product itself has, on the
// engine in effect and its thread pool (bitwise the same for every thread count, as real GEMM
// is). A and C are not copied: op(A) = N reads A's storage as it is (Conj flips the sign of the
// odd rows of B_expanded instead); op(A) = T or C splits each row of A into its real and
// imaginary parts (2k x m, a streaming pass) for the real GEMM to read transposed. B's expansion,
// a panel of columns at a time, is the only other pass; beta other than 0 and 1 scales C first,
// by the textbook product, as the reference does.
//
// What stays on the reference engine's loop (kr::gemm, the reference's own order): a small
// product (the expansion costs more than it saves), alpha == 0 or k == 0 (C := beta·C, A and B
// not read), and a non-finite alpha or operand: the real product multiplies every zero, so an Inf
// or NaN would spread to other parts than the reference's products spread it. The generic
// engines' gemm.c32 and gemm.c64 (level3.cpp), and the bulk work of the complex level 3 there.
// Its workspace and finiteness checks are level3_support.hpp's (shared with level3.cpp).
#pragma once

#include <coheriq/kernels.hpp>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstddef>
#include <cstring>
#include <new>
#include <optional>
#include <utility>

#include "kernels/level3_support.hpp"
#include "kernels/thread_workspace.hpp"
#include "reference/blas.hpp"

namespace coheriq::kernels::level3 {

namespace k = coheriq::kernels;
namespace kr = coheriq::kernels::reference::blas;

// Below this many complex multiply-adds (m·n·k) the loop is as fast as the real product:
// measured, docs/decisions.md ("Complex GEMM on the real GEMM").
inline constexpr size_t kComplexGemmMinWork = size_t{8} * 8 * 8;
// The expanded op(B) is formed a panel of columns at a time, at most this many bytes (so memory
// stays bounded for any n), in the thread's cached buffer (thread_workspace.hpp: its pages are
// faulted in once, not on every call; 4% of a cgemm at n = 1024 when it was allocated per call).
// Each panel is one real GEMM, which packs all of op(A) again: fewer, larger panels.
inline constexpr size_t kComplexPanelBytes = size_t{16} << 20;
struct ComplexGemmSlot;
// op(B) = T or C is read in square tiles of this order (its rows are B's columns).
inline constexpr size_t kExpandTile = 16;

// Whether op(X)'s r x c elements (X stored r x c for N/Conj, c x r for T/C) are all finite.
template <class T>
bool finite_complex(Op op, size_t r, size_t c, const T* x, size_t ld) {
  if (transposes(op)) std::swap(r, c);
  return finite_matrix(r, c, x, ld);
}

// Rows 2l and 2l + 1 of the expanded op(B) (above) for element (l, j) of op(B), value b: b' =
// alpha·b (b itself when alpha is 1), and `sign` −1 when op(A) is conjugated.
template <class T>
inline void expand(T b, T alpha, bool alpha_one, real_t<T> sign, real_t<T>* even, real_t<T>* odd) {
  const T scaled = alpha_one ? b : kernels::reference::mul(alpha, b);
  even[0] = scaled.real();
  even[1] = scaled.imag();
  odd[0] = -sign * scaled.imag();
  odd[1] = sign * scaled.real();
}

// Columns j0 .. j0 + w of op(B) (k x n), expanded into `out` (2k x 2w reals, rows 2w apart).
template <class T>
void expand_panel(Op opb, size_t k, size_t j0, size_t w, const T* b, size_t ldb, T alpha,
                  real_t<T> sign, real_t<T>* out) {
  using R = real_t<T>;
  const bool alpha_one = alpha == T(1);
  const bool conj = opb == Op::C || opb == Op::Conj;
  const size_t ld = 2 * w;
  const auto value = [conj](T x) { return conj ? std::conj(x) : x; };
  if (!transposes(opb)) {
    for (size_t l = 0; l < k; ++l) {
      const T* row = b + l * ldb + j0;
      R* even = out + 2 * l * ld;
      R* odd = even + ld;
      if (alpha_one && !conj) {
        // The common case, on the reals (vectorized): the even row is the row itself, the odd
        // row its pairs swapped and signed.
        const R* x = reinterpret_cast<const R*>(row);
        std::memcpy(even, x, ld * sizeof(R));
        for (size_t j = 0; j < ld; j += 2) {
          odd[j] = -sign * x[j + 1];
          odd[j + 1] = sign * x[j];
        }
        continue;
      }
      for (size_t j = 0; j < w; ++j) {
        expand(value(row[j]), alpha, alpha_one, sign, even + 2 * j, odd + 2 * j);
      }
    }
    return;
  }
  // Element (l, j) of op(B) is b[(j0 + j)·ldb + l]: tiles, so that both sides stay in cache.
  for (size_t l0 = 0; l0 < k; l0 += kExpandTile) {
    const size_t l1 = std::min(k, l0 + kExpandTile);
    for (size_t jt = 0; jt < w; jt += kExpandTile) {
      const size_t j1 = std::min(w, jt + kExpandTile);
      for (size_t j = jt; j < j1; ++j) {
        const T* column = b + (j0 + j) * ldb;
        for (size_t l = l0; l < l1; ++l) {
          R* even = out + 2 * l * ld + 2 * j;
          expand(value(column[l]), alpha, alpha_one, sign, even, even + ld);
        }
      }
    }
  }
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
  const R sign = opa == Op::C || opa == Op::Conj ? R(-1) : R(1);
  // op(A) as the real GEMM reads it: A's own storage (m x 2k reals, N), or for T and C each row
  // of A (row l: column l of op(A)) split into its real parts and its imaginary parts, rows 2l
  // and 2l + 1 of a 2k x m matrix that the real GEMM reads transposed.
  const R* a_real = reinterpret_cast<const R*>(a);
  size_t a_ld = 2 * lda;
  std::optional<Workspace<R>> a_split;
  if (transposes(opa)) {
    R* split = a_split.emplace(2 * k * m).get();
    for (size_t l = 0; l < k; ++l) {
      const T* row = a + l * lda;
      R* re = split + 2 * l * m;
      R* im = re + m;
      for (size_t i = 0; i < m; ++i) {
        re[i] = row[i].real();
        im[i] = row[i].imag();
      }
    }
    a_real = split;
    a_ld = m;
  }
  const k::Trans ta = transposes(opa) ? k::Trans::T : k::Trans::N;
  // beta·C first where the real GEMM cannot apply it (a complex beta other than 0 and 1).
  const bool scale_c = beta != T(0) && beta != T(1);
  if (scale_c) {
    for (size_t i = 0; i < m; ++i) {
      T* row = c + i * ldc;
      for (size_t j = 0; j < n; ++j) row[j] = kernels::reference::mul(beta, row[j]);
    }
  }
  const R real_beta = beta == T(0) ? R(0) : R(1);
  const size_t panel = std::clamp<size_t>(kComplexPanelBytes / (4 * k * sizeof(R)), 16, n);
  const size_t bytes = 2 * k * 2 * panel * sizeof(R);
  std::optional<ThreadWorkspace<ComplexGemmSlot>> cached;
  try {
    cached.emplace(bytes);
  } catch (const std::bad_alloc&) {
    no_workspace(bytes);
  }
  R* expanded = static_cast<R*>(cached->data());
  for (size_t j0 = 0; j0 < n; j0 += panel) {
    const size_t w = std::min(panel, n - j0);
    expand_panel(opb, k, j0, w, b, ldb, alpha, sign, expanded);
    k::gemm(ta, k::Trans::N, m, 2 * w, 2 * k, R(1), a_real, a_ld, expanded, 2 * w, real_beta,
            reinterpret_cast<R*>(c + j0), 2 * ldc);
  }
}

}  // namespace coheriq::kernels::level3
