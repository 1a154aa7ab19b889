// Generic BLAS-2 kernels (gemv, ger), written once with Highway over the BLAS-1 kernels of
// blas1-inl.h. Compiled once per engine like them; vector-length agnostic (no vector is stored in
// an array or a struct, so the scalable targets take it too).
//
// The matrix is row-major, so each kernel's inner loop walks a row and the vector of its length
// (x for gemv N, y for gemv T and ger): that vector, when strided, is gathered chunk by chunk
// into a buffer on the stack (kStridedChunk elements, as the strided BLAS-1) which every row then
// reads contiguously; the other vector is read or written one element per row.
#ifndef COHERIQ_ENGINES_GENERIC_BLAS2_INL_H_
#define COHERIQ_ENGINES_GENERIC_BLAS2_INL_H_

#include <cstddef>

#include "engines/generic/blas1-inl.h"
#include "engines/generic/masked-inl.h"
#include "engines/generic/namespace.h"

COHERIQ_GENERIC_BEGIN

// ------------------------------ Gemv

// y := beta·y, m elements, incy != 0: zeros when beta == 0 (y is not read), nothing when beta == 1.
template <class T>
HWY_INLINE void ScaleByBeta(std::size_t m, T beta, T* y, std::ptrdiff_t incy) {
  if (beta == T{1}) return;
  if (beta != T{0}) return incy == 1 ? scal(m, beta, y) : scal_strided(m, beta, y, incy);
  if (incy != 1) {
    for (std::size_t i = 0; i < m; ++i) *ElementPtr(y, incy, i) = T{0};
    return;
  }
  const hn::ScalableTag<T> d;
  const std::size_t N = hn::Lanes(d);
  std::size_t i = 0;
  for (; i + N <= m; i += N) hn::StoreU(hn::Zero(d), d, y + i);
  if (i < m) StoreSelected(hn::Zero(d), hn::FirstN(d, m - i), d, y + i);
}

// y_i += alpha·(row i of A)·x for i < m, rows of len elements, x contiguous: four rows at a time
// share each load of x, each row with two accumulators (eight FMA chains in flight); the last
// rows, one at a time, the same way.
template <class T>
HWY_INLINE void DotRows(std::size_t m, std::size_t len, T alpha, const T* A, std::size_t lda,
                        const T* x, T* y, std::ptrdiff_t incy) {
  const hn::ScalableTag<T> d;
  const std::size_t N = hn::Lanes(d);
  const auto total = [d](auto a, auto b)
                         HWY_ATTR { return hn::GetLane(hn::SumOfLanes(d, hn::Add(a, b))); };
  // One row as each row of a block of four computes it (two accumulators, the masked tail in the
  // first), so that a row's bits do not depend on where the call's rows start or end.
  const auto row_dot = [&](const T* a) HWY_ATTR {
    auto s = hn::Zero(d), t = hn::Zero(d);
    std::size_t j = 0;
    for (; j + 2 * N <= len; j += 2 * N) {
      s = hn::MulAdd(hn::LoadU(d, a + j), hn::LoadU(d, x + j), s);
      t = hn::MulAdd(hn::LoadU(d, a + j + N), hn::LoadU(d, x + j + N), t);
    }
    for (; j < len; j += N) {
      const auto mask = hn::FirstN(d, len - j);
      s = hn::MulAdd(LoadSelected(mask, d, a + j), LoadSelected(mask, d, x + j), s);
    }
    return total(s, t);
  };
  std::size_t i = 0;
  for (; i + 4 <= m; i += 4) {
    const T* a0 = A + i * lda;
    const T* a1 = a0 + lda;
    const T* a2 = a1 + lda;
    const T* a3 = a2 + lda;
    auto s0 = hn::Zero(d), s1 = hn::Zero(d), s2 = hn::Zero(d), s3 = hn::Zero(d);
    auto t0 = hn::Zero(d), t1 = hn::Zero(d), t2 = hn::Zero(d), t3 = hn::Zero(d);
    std::size_t j = 0;
    for (; j + 2 * N <= len; j += 2 * N) {
      const auto x0 = hn::LoadU(d, x + j), x1 = hn::LoadU(d, x + j + N);
      s0 = hn::MulAdd(hn::LoadU(d, a0 + j), x0, s0);
      s1 = hn::MulAdd(hn::LoadU(d, a1 + j), x0, s1);
      s2 = hn::MulAdd(hn::LoadU(d, a2 + j), x0, s2);
      s3 = hn::MulAdd(hn::LoadU(d, a3 + j), x0, s3);
      t0 = hn::MulAdd(hn::LoadU(d, a0 + j + N), x1, t0);
      t1 = hn::MulAdd(hn::LoadU(d, a1 + j + N), x1, t1);
      t2 = hn::MulAdd(hn::LoadU(d, a2 + j + N), x1, t2);
      t3 = hn::MulAdd(hn::LoadU(d, a3 + j + N), x1, t3);
    }
    for (; j < len; j += N) {
      const auto mask = hn::FirstN(d, len - j);  // all lanes but in the last block
      const auto xv = LoadSelected(mask, d, x + j);
      s0 = hn::MulAdd(LoadSelected(mask, d, a0 + j), xv, s0);
      s1 = hn::MulAdd(LoadSelected(mask, d, a1 + j), xv, s1);
      s2 = hn::MulAdd(LoadSelected(mask, d, a2 + j), xv, s2);
      s3 = hn::MulAdd(LoadSelected(mask, d, a3 + j), xv, s3);
    }
    *ElementPtr(y, incy, i) += alpha * total(s0, t0);
    *ElementPtr(y, incy, i + 1) += alpha * total(s1, t1);
    *ElementPtr(y, incy, i + 2) += alpha * total(s2, t2);
    *ElementPtr(y, incy, i + 3) += alpha * total(s3, t3);
  }
  for (; i < m; ++i) *ElementPtr(y, incy, i) += alpha * row_dot(A + i * lda);
}

// y += Σ_i t_i·(row i of A), t_i = alpha·x_i, for i < m, rows of len elements, y contiguous: four
// rows at a time, so y is loaded and stored once per four rows (in the rows' order, as the
// reference adds them).
template <class T>
HWY_INLINE void AxpyRows(std::size_t m, std::size_t len, T alpha, const T* A, std::size_t lda,
                         const T* x, std::ptrdiff_t incx, T* y) {
  const hn::ScalableTag<T> d;
  const std::size_t N = hn::Lanes(d);
  std::size_t i = 0;
  for (; i + 4 <= m; i += 4) {
    const T* a0 = A + i * lda;
    const T* a1 = a0 + lda;
    const T* a2 = a1 + lda;
    const T* a3 = a2 + lda;
    const auto v0 = hn::Set(d, alpha * *ElementPtr(x, incx, i));
    const auto v1 = hn::Set(d, alpha * *ElementPtr(x, incx, i + 1));
    const auto v2 = hn::Set(d, alpha * *ElementPtr(x, incx, i + 2));
    const auto v3 = hn::Set(d, alpha * *ElementPtr(x, incx, i + 3));
    std::size_t j = 0;
    for (; j + N <= len; j += N) {
      auto yv = hn::LoadU(d, y + j);
      yv = hn::MulAdd(v0, hn::LoadU(d, a0 + j), yv);
      yv = hn::MulAdd(v1, hn::LoadU(d, a1 + j), yv);
      yv = hn::MulAdd(v2, hn::LoadU(d, a2 + j), yv);
      yv = hn::MulAdd(v3, hn::LoadU(d, a3 + j), yv);
      hn::StoreU(yv, d, y + j);
    }
    if (j < len) {
      const auto mask = hn::FirstN(d, len - j);
      auto yv = LoadSelected(mask, d, y + j);
      yv = hn::MulAdd(v0, LoadSelected(mask, d, a0 + j), yv);
      yv = hn::MulAdd(v1, LoadSelected(mask, d, a1 + j), yv);
      yv = hn::MulAdd(v2, LoadSelected(mask, d, a2 + j), yv);
      yv = hn::MulAdd(v3, LoadSelected(mask, d, a3 + j), yv);
      StoreSelected(yv, mask, d, y + j);
    }
  }
  for (; i < m; ++i) axpy(len, alpha * *ElementPtr(x, incx, i), A + i * lda, y);
}

// y := alpha·op(A)·x + beta·y in the reference's order: y scaled by beta first, then each row's
// contribution added (Trans::N: alpha times the row's dot with x; Trans::T: alpha·x_i times the
// row). A strided x (N) or y (T) is taken in chunks of columns, the same chunk of every row.
template <class T>
HWY_ATTR void gemv(Trans op, std::size_t m, std::size_t n, T alpha, const T* A, std::size_t lda,
                   const T* x, std::ptrdiff_t incx, T beta, T* y, std::ptrdiff_t incy) {
  if (m == 0 || n == 0 || (alpha == T{0} && beta == T{1})) return;
  ScaleByBeta(op == Trans::N ? m : n, beta, y, incy);
  if (alpha == T{0}) return;
  if (op == Trans::N && incx == 1) return DotRows(m, n, alpha, A, lda, x, y, incy);
  if (op == Trans::T && incy == 1) return AxpyRows(m, n, alpha, A, lda, x, incx, y);
  HWY_ALIGN T buffer[kStridedChunk];
  for (std::size_t start = 0; start < n; start += kStridedChunk) {
    const std::size_t len = n - start < kStridedChunk ? n - start : kStridedChunk;
    if (op == Trans::N) {
      GatherChunk(len, ElementPtr(x, incx, start), incx, buffer);
      DotRows(m, len, alpha, A + start, lda, buffer, y, incy);
    } else {
      T* ys = ElementPtr(y, incy, start);
      GatherChunk(len, ys, incy, buffer);
      AxpyRows(m, len, alpha, A + start, lda, x, incx, buffer);
      ScatterChunk(len, buffer, ys, incy);
    }
  }
}

// ------------------------------ Ger

// A := alpha·x·yᵀ + A: row i adds alpha·x_i times y (axpy), skipped when x_i == 0 as the
// reference skips it. A strided y is gathered a chunk of columns at a time.
template <class T>
HWY_ATTR void ger(std::size_t m, std::size_t n, T alpha, const T* x, std::ptrdiff_t incx,
                  const T* y, std::ptrdiff_t incy, T* A, std::size_t lda) {
  if (m == 0 || n == 0 || alpha == T{0}) return;
  HWY_ALIGN T buffer[kStridedChunk];
  const std::size_t chunk = incy == 1 ? n : kStridedChunk;
  for (std::size_t start = 0; start < n; start += chunk) {
    const std::size_t len = n - start < chunk ? n - start : chunk;
    const T* ys = ElementPtr(y, incy, start);
    if (incy != 1) {
      GatherChunk(len, ys, incy, buffer);
      ys = buffer;
    }
    for (std::size_t i = 0; i < m; ++i) {
      const T xi = *ElementPtr(x, incx, i);
      if (xi != T{0}) axpy(len, alpha * xi, ys, A + i * lda + start);
    }
  }
}

COHERIQ_GENERIC_END

#endif  // COHERIQ_ENGINES_GENERIC_BLAS2_INL_H_
