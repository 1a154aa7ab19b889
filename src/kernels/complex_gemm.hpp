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
// is). C is not copied. For a product the engine runs packed, it packs op(A) from A and
// B_expanded from B straight into its GEMM layout (pack_b_1m, then gemm_1m or, for a rank
// update's triangle, gemmt_1m), a panel of op(B)'s columns at a time: neither is written out
// first. A product it runs unpacked (its small path) reads op(A) from A's storage as it is (N;
// Conj flips the sign of the odd rows of B_expanded instead) or, for T and C, from each row of A
// split into its real and imaginary parts (2k x m, read transposed), and B_expanded from a
// buffer. beta other than 0 and 1 scales C first, by the textbook product, as the reference does.
//
// What stays on the reference engine's loop (kr::gemm, the reference's own order): alpha == 0 or
// k == 0 (C := beta·C, A and B not read), and a non-finite alpha or operand: the real product
// multiplies every zero, so an Inf or NaN would spread to other parts than the reference's products
// spread it. Not a small product: an element of C gets the same bits whatever the m and n of the
// call that computes it (a part of a matrix updated on its own agrees with the whole updated at
// once, as LAPACK's ?GGEV3 test requires, bit for bit), so the choice of loop cannot depend on
// them; the real product costs a tiny one about 0.1 µs more (docs/decisions.md). The generic
// engines' gemm.c32 and gemm.c64 (level3.cpp), and the bulk work of the complex level 3 there;
// the rank updates' triangles run the same product on the engine's triangle GEMM
// (real_triangle_product). Its workspace and finiteness checks are level3_support.hpp's (shared
// with level3.cpp).
#pragma once

#include <coheriq/kernels.hpp>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstddef>
#include <new>
#include <optional>
#include <utility>

#include "kernels/gemm_driver.hpp"
#include "kernels/level3_support.hpp"
#include "kernels/thread_workspace.hpp"
#include "reference/blas.hpp"

namespace coheriq::kernels::level3 {

namespace k = coheriq::kernels;
namespace kr = coheriq::kernels::reference::blas;

// The expanded op(B) is formed a panel of columns at a time, at most this many bytes (so memory
// stays bounded for any n), in the thread's cached buffer (thread_workspace.hpp: its pages are
// faulted in once, not on every call; 4% of a cgemm at n = 1024 when it was allocated per call).
// Each panel is one real GEMM, which packs all of op(A) again: fewer, larger panels.
inline constexpr size_t kComplexPanelBytes = size_t{16} << 20;
struct ComplexGemmSlot;
// Whether op(X)'s r x c elements (X stored r x c for N/Conj, c x r for T/C) are all finite.
template <class T>
bool finite_complex(Op op, size_t r, size_t c, const T* x, size_t ld) {
  if (transposes(op)) std::swap(r, c);
  return finite_matrix(r, c, x, ld);
}

// The expanded op(B) (k x n), the real GEMM's B, in `out`, for a product the engine runs unpacked
// (real_product); returns how the GEMM reads it. For op(B) = N or Conj, rows 2l and 2l + 1 as
// above (2k x 2n reals, rows 2n apart), from row l of B. For T and C, row l of op(B) is column l
// of B, so the transpose is written instead (2n x 2k, rows 2k apart, Trans::T), from row j of B:
// rows 2j and 2j + 1 are [re b'_0j, −s·im b'_0j, re b'_1j, ...] and [im b'_0j, s·re b'_0j, ...] (s:
// `sign`, −1 when op(A) is conjugated). Either way every row of B is read once, contiguously, and
// with alpha 1 each output row is its input row with the parts signed (and swapped), which the
// compiler vectorizes.
template <class T>
k::Trans expand(Op opb, size_t k, size_t n, const T* b, size_t ldb, T alpha, real_t<T> sign,
                real_t<T>* out) {
  using R = real_t<T>;
  const bool conj = kr::conjugates(opb);
  const R c = conj ? R(-1) : R(1);  // the sign of an imaginary part of op(B)
  // One row of B (count elements, `in`), alpha applied (the reference's own first product) into
  // `row` when alpha is not 1; its reals, as signed parts of b' = alpha·op(B).
  const auto scaled = [&](const T* in, size_t count, T* row) -> const R* {
    if (alpha == T(1)) return reinterpret_cast<const R*>(in);
    for (size_t j = 0; j < count; ++j)
      row[j] = kernels::reference::mul(alpha, conj ? std::conj(in[j]) : in[j]);
    return reinterpret_cast<const R*>(row);
  };
  // With alpha applied the conjugation is in the values already.
  const R ci = alpha == T(1) ? c : R(1);
  if (!transposes(opb)) {
    const size_t ld = 2 * n;
    for (size_t l = 0; l < k; ++l) {
      R* even = out + 2 * l * ld;
      R* odd = even + ld;
      // Row l of op(B): scaled into `odd` first (n complex values fit), read before written.
      const R* x = scaled(b + l * ldb, n, reinterpret_cast<T*>(odd));
      for (size_t j = 0; j < ld; j += 2) {
        const R re = x[j], im = ci * x[j + 1];
        even[j] = re;
        even[j + 1] = im;
        odd[j] = -sign * im;
        odd[j + 1] = sign * re;
      }
    }
    return k::Trans::N;
  }
  const size_t ld = 2 * k;
  for (size_t j = 0; j < n; ++j) {
    R* even = out + 2 * j * ld;
    R* odd = even + ld;
    const R* x = scaled(b + j * ldb, k, reinterpret_cast<T*>(odd));
    for (size_t l = 0; l < ld; l += 2) {
      const R re = x[l], im = ci * x[l + 1];
      even[l] = re;
      even[l + 1] = -sign * im;
      odd[l] = im;
      odd[l + 1] = sign * re;
    }
  }
  return k::Trans::T;
}

// op(A) (m x k) as the real GEMM reads it, for a product the engine runs unpacked (real_product):
// A's own storage (m x 2k reals, N), or for T and C each row of A (row l: column l of op(A)) split
// into its real parts and its imaginary parts, rows 2l and 2l + 1 of a 2k x m matrix that the real
// GEMM reads transposed. (Packed, the engine packs op(A) from A itself: gemm_1m.)
template <class T>
class RealOperandA {
 public:
  using R = real_t<T>;
  RealOperandA(Op op, size_t m, size_t k, const T* a, size_t lda)
      : data_(reinterpret_cast<const R*>(a)), ld_(2 * lda), trans_(k::Trans::N) {
    if (!transposes(op)) return;
    split_ = Workspace<R>(2 * k * m);
    R* split = split_.get();
    for (size_t l = 0; l < k; ++l) {
      const T* row = a + l * lda;
      R* re = split + 2 * l * m;
      R* im = re + m;
      for (size_t i = 0; i < m; ++i) {
        re[i] = row[i].real();
        im[i] = row[i].imag();
      }
    }
    data_ = split;
    ld_ = m;
    trans_ = k::Trans::T;
  }
  k::Trans trans() const { return trans_; }
  size_t ld() const { return ld_; }
  // Where the real GEMM reads op(A) from row i on.
  const R* rows(size_t i) const { return trans_ == k::Trans::N ? data_ + i * ld_ : data_ + i; }

 private:
  const R* data_;
  size_t ld_;
  k::Trans trans_;
  Workspace<R> split_;  // op(A) split, for T and C
};

// C := beta·C by the textbook product on row i's columns [first, last) = columns(i), i < m, where
// the real GEMM cannot apply beta (a complex one other than 0 and 1), as the reference scales C;
// returns the real GEMM's beta (0 or 1).
template <class T, class ColumnsOf>
real_t<T> scale_first(size_t m, T beta, T* c, size_t ldc, ColumnsOf columns) {
  if (beta != T(0) && beta != T(1)) {
    for (size_t i = 0; i < m; ++i) {
      const auto [first, last] = columns(i);
      T* row = c + i * ldc;
      for (size_t j = first; j < last; ++j) row[j] = kernels::reference::mul(beta, row[j]);
    }
  }
  return beta == T(0) ? real_t<T>(0) : real_t<T>(1);
}

// Runs use(buffer) with the thread's cached buffer of at least `bytes` (thread_workspace.hpp).
template <class Use>
void with_thread_buffer(size_t bytes, Use use) {
  std::optional<ThreadWorkspace<ComplexGemmSlot>> cached;
  try {
    cached.emplace(bytes);
  } catch (const std::bad_alloc&) {
    no_workspace(bytes);
  }
  use(cached->data());
}

// Calls panel(j0, w, packed) for each panel of op(B)'s columns [j0, j0 + w) (at most panel_bytes
// packed, but at least 16 columns), `packed` its 1m expansion (2k x 2w reals, as `expand` forms
// it) in the engine's packed layout (driver::pack_b_1m: packed from B straight, no
// expansion written first), in the thread's cached buffer.
template <class T, class Panel>
void for_each_packed_panel(Op opa, Op opb, size_t n, size_t k, T alpha, const T* b, size_t ldb,
                           size_t panel_bytes, Panel panel) {
  using R = real_t<T>;
  const size_t width = std::min(std::max<size_t>(panel_bytes / (4 * k * sizeof(R)), 16), n);
  with_thread_buffer(driver::packed_bytes<R>(2 * k, 2 * width), [&](void* packed) {
    for (size_t j0 = 0; j0 < n; j0 += width) {
      const size_t w = std::min(width, n - j0);
      driver::pack_b_1m<R>(opb, kr::conjugates(opa), k, w, alpha,
                           transposes(opb) ? b + j0 * ldb : b + j0, ldb, packed);
      panel(j0, w, static_cast<const void*>(packed));
    }
  });
}

// The product on the real GEMM, m, n, k >= 1, alpha != 0 and finite operands: gemm below, after
// its scan, and the blocks of the complex level 3 (level3.cpp), whose routines scan what they
// read once per call and call this for every block as the real ones call the real GEMM (a scan
// per block was 16% of a herk at n = 1024; an overflow inside a blocked computation is not
// caught, for either: docs/decisions.md, "The real level 3 on GEMM"). A product the engine runs
// unpacked (its small path, on the calling thread) reads op(A) as reals and op(B)'s expansion from
// buffers; any other packs both from A and B (pack_b_1m, then gemm_1m on the pool by rows of C).
// Both give the real gemm's bits for op(A) as reals and the expansion.
template <class T>
void real_product(Op opa, Op opb, size_t m, size_t n, size_t k, T alpha, const T* a, size_t lda,
                  const T* b, size_t ldb, T beta, T* c, size_t ldc) {
  using R = real_t<T>;
  const R real_beta = scale_first(m, beta, c, ldc, [n](size_t) {
    return std::pair<size_t, size_t>{0, n};
  });
  if (driver::gemm_runs_alone<R>(m, 2 * n, 2 * k)) {
    const RealOperandA<T> real_a(opa, m, k, a, lda);
    return with_thread_buffer(4 * k * n * sizeof(R), [&](void* buffer) {
      R* const x = static_cast<R*>(buffer);
      const R sign = kr::conjugates(opa) ? R(-1) : R(1);
      const k::Trans tb = expand(opb, k, n, b, ldb, alpha, sign, x);
      k::gemm(real_a.trans(), tb, m, 2 * n, 2 * k, R(1), real_a.rows(0), real_a.ld(), x,
              tb == k::Trans::N ? 2 * n : 2 * k, real_beta, reinterpret_cast<R*>(c), 2 * ldc);
    });
  }
  const k::Trans ta = trans(opa);
  for_each_packed_panel(opa, opb, n, k, alpha, b, ldb, kComplexPanelBytes,
                        [&](size_t j0, size_t w, const void* packed) {
                          driver::gemm_1m(ta, m, w, k, a, lda, packed, real_beta, c + j0, ldc);
                        });
}

// The `uplo` triangle of the n x n C := alpha·op(A)·op(B) + beta·C, each element with
// real_product's bits for the same operands (m = n), nothing else written: per panel of op(B)'s
// columns, packed (for_each_packed_panel), its diagonal block by the engine's triangle GEMM
// (driver::gemmt_1m, on the calling thread) on elements two reals wide (C's rows as interleaved
// reals climb the diagonal two columns a row), and the block beside it (below for Lower, above for
// Upper) by the product (driver::gemm_1m). `hermitian` (herk, her2k; beta real): C's diagonal is
// real, its imaginary parts ignored (the real GEMM may add to them under beta 1) and set to 0 at
// the end, as the reference's herk leaves them. The panels' size changes no bits (a test makes
// them small).
template <class T>
void real_triangle_product(bool hermitian, Uplo uplo, Op opa, Op opb, size_t n, size_t k, T alpha,
                           const T* a, size_t lda, const T* b, size_t ldb, T beta, T* c, size_t ldc,
                           size_t panel_bytes = kComplexPanelBytes) {
  using R = real_t<T>;
  const bool lower = uplo == Uplo::Lower;
  const k::Trans ta = trans(opa);
  // Row i of op(A) on.
  const auto rows = [&](size_t i) { return ta == k::Trans::T ? a + i : a + i * lda; };
  if (hermitian && beta != T(0) && beta != T(1)) {
    for (size_t i = 0; i < n; ++i) c[i * ldc + i] = T(beta.real() * c[i * ldc + i].real());
  }
  // The diagonal is scaled above (a Hermitian one) or here.
  const size_t skip = hermitian ? 1 : 0;
  const R real_beta = scale_first(n, beta, c, ldc, [&](size_t i) {
    return lower ? std::pair<size_t, size_t>{0, i + 1 - skip}
                 : std::pair<size_t, size_t>{i + skip, n};
  });
  for_each_packed_panel(
      opa, opb, n, k, alpha, b, ldb, panel_bytes, [&](size_t j0, size_t w, const void* packed) {
        driver::gemmt_1m(uplo, ta, w, k, rows(j0), lda, packed, real_beta, c + j0 * ldc + j0, ldc);
        const size_t r0 = lower ? j0 + w : 0, beside = lower ? n - r0 : j0;
        if (beside != 0) {
          driver::gemm_1m(ta, beside, w, k, rows(r0), lda, packed, real_beta, c + r0 * ldc + j0,
                          ldc);
        }
      });
  if (hermitian) {
    for (size_t i = 0; i < n; ++i) c[i * ldc + i] = T(c[i * ldc + i].real());
  }
}

template <class T>
void gemm(Op opa, Op opb, size_t m, size_t n, size_t k, T alpha, const T* a, size_t lda, const T* b,
          size_t ldb, T beta, T* c, size_t ldc) {
  if (m == 0 || n == 0) return;
  const bool finite = finite_scalar(alpha) && alpha != T(0) && k != 0 &&
                      finite_complex(opa, m, k, a, lda) && finite_complex(opb, k, n, b, ldb);
  if (!finite) {
    kr::gemm(opa, opb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
    return;
  }
  real_product(opa, opb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

}  // namespace coheriq::kernels::level3
