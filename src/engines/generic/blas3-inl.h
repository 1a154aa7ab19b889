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
  // The row solved at `step`, and the rows [first, last) solved before it.
  std::size_t row(std::size_t step) const { return lower ? step : m - 1 - step; }
  std::size_t first(std::size_t i) const { return lower ? 0 : i + 1; }
  std::size_t last(std::size_t i) const { return lower ? i : m; }
};

// Columns [j, j + 8·Lanes) of B: a strip of each row held in eight vectors (eight FMA chains, to
// cover the FMA's latency) while the strips of the rows solved before it, in L1 (m rows of 8
// vectors), are subtracted from it. Each element takes the row's operations in its order.
template <class D, class T = hn::TFromD<D>>
HWY_INLINE void SolveStrip8(D d, const TriangularRows<T>& s, std::size_t j) {
  const std::size_t N = hn::Lanes(d);
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
      const T* bl = s.b + l * s.ldb + j;
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
  }
}

// Columns [j, j + count) of B, count <= Lanes, in one vector (the lanes past count neither read
// nor written when kPartial).
template <bool kPartial, class D, class T = hn::TFromD<D>>
HWY_INLINE void SolveStrip1(D d, const TriangularRows<T>& s, std::size_t j, std::size_t count) {
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
      if (t != T(0)) x = hn::MulAdd(hn::Set(d, -t), load(s.b + l * s.ldb + j), x);
    }
    if (!s.unit) x = hn::Div(x, hn::Set(d, s.at(i, i)));
    if constexpr (kPartial) {
      StoreSelected(x, mask, d, bi);
    } else {
      hn::StoreU(x, d, bi);
    }
  }
}

// B := alpha·op(A)⁻¹·B in the row form (kernels_table.hpp), a strip of columns at a time: each
// strip's rows stay in L1 while it is solved, where the row form's axpys on whole rows stream every
// earlier row from L2 for each row solved.
template <class T>
HWY_ATTR void trsm_rows(Uplo uplo, Trans ta, Diag diag, std::size_t m, std::size_t n, T alpha,
                        const T* A, std::size_t lda, T* B, std::size_t ldb) {
  const hn::ScalableTag<T> d;
  const std::size_t N = hn::Lanes(d);
  const bool transposed = ta == Trans::T;
  const TriangularRows<T> s{
      transposed, (uplo == Uplo::Lower) != transposed, diag == Diag::Unit, m, alpha, A, lda, B,
      ldb};
  std::size_t j = 0;
  for (; j + 8 * N <= n; j += 8 * N) SolveStrip8(d, s, j);
  for (; j + N <= n; j += N) SolveStrip1<false>(d, s, j, N);
  if (j < n) SolveStrip1<true>(d, s, j, n - j);
}

COHERIQ_GENERIC_END

#endif  // COHERIQ_ENGINES_GENERIC_BLAS3_INL_H_
