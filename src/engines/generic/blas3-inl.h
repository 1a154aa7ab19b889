// Generic BLAS-3 base blocks (trsm_rows), written once with Highway: the kernels that the blocked
// level 3 (src/kernels/level3.cpp) runs on its diagonal blocks, where its GEMM does not reach.
// Compiled once per engine like the other generic kernels; vector-length agnostic (no vector is
// stored in an array or a struct).
#ifndef COHERIQ_ENGINES_GENERIC_BLAS3_INL_H_
#define COHERIQ_ENGINES_GENERIC_BLAS3_INL_H_

#include <coheriq/kernels.hpp>

#include <cstddef>

#include "engines/generic/masked-inl.h"
#include "engines/generic/namespace.h"

COHERIQ_GENERIC_BEGIN

// ------------------------------ trsm_rows

// A trsm_rows call (kernels_table.hpp): op(A)'s elements, which rows of B a row subtracts, and B.
template <class T>
struct TriangularRows {
  bool transposed, lower, unit;
  std::size_t m;
  T alpha;
  const T* a;
  std::size_t lda;
  T* b;
  std::size_t ldb;

  T at(std::size_t r, std::size_t c) const { return transposed ? a[c * lda + r] : a[r * lda + c]; }
  // The row solved at `step` (and the step at which row i is solved), and the rows [first, last)
  // solved before row i.
  std::size_t row(std::size_t step) const { return lower ? step : m - 1 - step; }
  std::size_t first(std::size_t i) const { return lower ? 0 : i + 1; }
  std::size_t last(std::size_t i) const { return lower ? i : m; }
};

// The strips of the rows solved so far are read from a copy on the stack, one after the other, not
// from B: rows of B a power of two of bytes apart (ldb = 2048 doubles, LAPACK's panels of a matrix
// of order 2048) put every row's strip in the same few sets of L1, which holds 8 of them, so
// reading them back from B missed L1 (dtrsm R,L,T order 64 x 1000: 248 us with ldb = 2048, 201
// with ldb = 1000). The strip of the row solved at step s is at s·width in the copy; rows past
// what it holds (8 strips of 8 SVE vectors of 2048 bits, 32 of 8 zmm, 64 of 8 ymm) are read from
// B.
inline constexpr std::size_t kSolvedStripBytes = 16 * 1024;
// And op(A) is copied dense when its order is at most this: a transposed A is read down columns,
// lda apart, the same few sets again, once per strip.
inline constexpr std::size_t kDenseTriangleOrder = 32;

// How many of m solved rows the copy holds: as many strips of 8 vectors as fit (the single
// vectors of the last columns keep as many rows, so that one order tests both ways of reading).
template <class D>
HWY_INLINE std::size_t RowsKept(D d, std::size_t m) {
  const std::size_t fit = kSolvedStripBytes / (8 * hn::Lanes(d) * sizeof(hn::TFromD<D>));
  return m < fit ? m : fit;
}

// Where the strip of row l (solved before the row at hand) starts: in the copy when it was solved
// at a step below `kept` (row() is its own inverse: row l is solved at step row(l)), else in B.
template <class T>
HWY_INLINE const T* SolvedStrip(const TriangularRows<T>& s, std::size_t l, std::size_t j,
                                const T* solved, std::size_t width, std::size_t kept) {
  const std::size_t at_step = s.row(l);
  return at_step < kept ? solved + at_step * width : s.b + l * s.ldb + j;
}

// Columns [j, j + 8·Lanes) of B: a strip of each row held in eight vectors (eight FMA chains, to
// cover the FMA's latency) while the strips of the rows solved before it (`solved`, in L1) are
// subtracted from it. Each element takes the row's operations in its order.
template <class D, class T = hn::TFromD<D>>
HWY_INLINE void SolveStrip8(D d, const TriangularRows<T>& s, std::size_t j,
                            T* HWY_RESTRICT solved) {
  const std::size_t N = hn::Lanes(d), width = 8 * N, kept = RowsKept(d, s.m);
  for (std::size_t step = 0; step < s.m; ++step) {
    const std::size_t i = s.row(step);
    T* bi = s.b + i * s.ldb + j;
    auto x0 = hn::LoadU(d, bi), x1 = hn::LoadU(d, bi + N), x2 = hn::LoadU(d, bi + 2 * N);
    auto x3 = hn::LoadU(d, bi + 3 * N), x4 = hn::LoadU(d, bi + 4 * N);
    auto x5 = hn::LoadU(d, bi + 5 * N), x6 = hn::LoadU(d, bi + 6 * N);
    auto x7 = hn::LoadU(d, bi + 7 * N);
    if (s.alpha != T(1)) {
      const auto va = hn::Set(d, s.alpha);
      x0 = hn::Mul(va, x0), x1 = hn::Mul(va, x1), x2 = hn::Mul(va, x2), x3 = hn::Mul(va, x3);
      x4 = hn::Mul(va, x4), x5 = hn::Mul(va, x5), x6 = hn::Mul(va, x6), x7 = hn::Mul(va, x7);
    }
    for (std::size_t l = s.first(i); l < s.last(i); ++l) {
      const T t = s.at(i, l);
      if (t == T(0)) continue;
      const auto vt = hn::Set(d, -t);
      const T* bl = SolvedStrip(s, l, j, solved, width, kept);
      x0 = hn::MulAdd(vt, hn::LoadU(d, bl), x0);
      x1 = hn::MulAdd(vt, hn::LoadU(d, bl + N), x1);
      x2 = hn::MulAdd(vt, hn::LoadU(d, bl + 2 * N), x2);
      x3 = hn::MulAdd(vt, hn::LoadU(d, bl + 3 * N), x3);
      x4 = hn::MulAdd(vt, hn::LoadU(d, bl + 4 * N), x4);
      x5 = hn::MulAdd(vt, hn::LoadU(d, bl + 5 * N), x5);
      x6 = hn::MulAdd(vt, hn::LoadU(d, bl + 6 * N), x6);
      x7 = hn::MulAdd(vt, hn::LoadU(d, bl + 7 * N), x7);
    }
    if (!s.unit) {
      const auto vd = hn::Set(d, s.at(i, i));
      x0 = hn::Div(x0, vd), x1 = hn::Div(x1, vd), x2 = hn::Div(x2, vd), x3 = hn::Div(x3, vd);
      x4 = hn::Div(x4, vd), x5 = hn::Div(x5, vd), x6 = hn::Div(x6, vd), x7 = hn::Div(x7, vd);
    }
    hn::StoreU(x0, d, bi), hn::StoreU(x1, d, bi + N), hn::StoreU(x2, d, bi + 2 * N);
    hn::StoreU(x3, d, bi + 3 * N), hn::StoreU(x4, d, bi + 4 * N), hn::StoreU(x5, d, bi + 5 * N);
    hn::StoreU(x6, d, bi + 6 * N), hn::StoreU(x7, d, bi + 7 * N);
    if (step < kept) {
      T* copy = solved + step * width;
      hn::Store(x0, d, copy), hn::Store(x1, d, copy + N), hn::Store(x2, d, copy + 2 * N);
      hn::Store(x3, d, copy + 3 * N), hn::Store(x4, d, copy + 4 * N);
      hn::Store(x5, d, copy + 5 * N), hn::Store(x6, d, copy + 6 * N);
      hn::Store(x7, d, copy + 7 * N);
    }
  }
}

// Columns [j, j + count) of B, count <= Lanes, in one vector (the lanes past count neither read
// nor written in B when kPartial), the solved rows' vectors in `solved` as above.
template <bool kPartial, class D, class T = hn::TFromD<D>>
HWY_INLINE void SolveStrip1(D d, const TriangularRows<T>& s, std::size_t j, std::size_t count,
                            T* HWY_RESTRICT solved) {
  const std::size_t N = hn::Lanes(d), kept = RowsKept(d, s.m);
  const auto mask = hn::FirstN(d, count);
  const auto load = [&](const T* p) HWY_ATTR {
    if constexpr (kPartial) {
      return LoadSelected(mask, d, p);
    } else {
      return hn::LoadU(d, p);
    }
  };
  for (std::size_t step = 0; step < s.m; ++step) {
    const std::size_t i = s.row(step);
    T* bi = s.b + i * s.ldb + j;
    auto x = load(bi);
    if (s.alpha != T(1)) x = hn::Mul(hn::Set(d, s.alpha), x);
    for (std::size_t l = s.first(i); l < s.last(i); ++l) {
      const T t = s.at(i, l);
      if (t != T(0)) x = hn::MulAdd(hn::Set(d, -t), load(SolvedStrip(s, l, j, solved, N, kept)), x);
    }
    if (!s.unit) x = hn::Div(x, hn::Set(d, s.at(i, i)));
    if constexpr (kPartial) {
      StoreSelected(x, mask, d, bi);
    } else {
      hn::StoreU(x, d, bi);
    }
    if (step < kept) hn::Store(x, d, solved + step * N);
  }
}

// B := alpha·op(A)⁻¹·B in the row form (kernels_table.hpp), a strip of columns at a time: each
// strip's solved rows stay in L1 while the strip is solved, where the row form's axpys on whole
// rows stream every earlier row from L2 for each row solved.
template <class T>
HWY_ATTR void trsm_rows(Uplo uplo, Trans ta, Diag diag, std::size_t m, std::size_t n, T alpha,
                        const T* A, std::size_t lda, T* B, std::size_t ldb) {
  const hn::ScalableTag<T> d;
  const std::size_t N = hn::Lanes(d);
  const bool transposed = ta == Trans::T, lower = (uplo == Uplo::Lower) != transposed;
  TriangularRows<T> s{transposed, lower, diag == Diag::Unit, m, alpha, A, lda, B, ldb};
  HWY_ALIGN T dense[kDenseTriangleOrder * kDenseTriangleOrder];
  if (m <= kDenseTriangleOrder) {
    // op(A)'s triangle, diagonal included unless Unit (what the solve reads), as rows of m.
    for (std::size_t i = 0; i < m; ++i) {
      const std::size_t lo = lower ? 0 : i, hi = lower ? i + 1 : m;
      for (std::size_t l = lo; l < hi; ++l) {
        if (l != i || !s.unit) dense[i * m + l] = s.at(i, l);
      }
    }
    s.transposed = false, s.a = dense, s.lda = m;
  }
  HWY_ALIGN T solved[kSolvedStripBytes / sizeof(T)];
  std::size_t j = 0;
  for (; j + 8 * N <= n; j += 8 * N) SolveStrip8(d, s, j, solved);
  for (; j + N <= n; j += N) SolveStrip1<false>(d, s, j, N, solved);
  if (j < n) SolveStrip1<true>(d, s, j, n - j, solved);
}

COHERIQ_GENERIC_END

#endif  // COHERIQ_ENGINES_GENERIC_BLAS3_INL_H_
