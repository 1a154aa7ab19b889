// The generic engines' level-2 candidates of COHERIQ_KERNELS_BLAS2_CHECKED (level2.hpp): trmv,
// trsv and hemv are the reference engine's loops with the engine's dots and axpys as their row
// operations (engine_rows.hpp); the real symv is the stored triangle taken a band of kRows rows at
// a time, the band's diagonal block in the reference engine's loop (kr::symv) and the rest of
// the band, in panels P of kRows x kColumns of the stored triangle, two gemv calls per panel,
// y_band += alpha·P·x_rest and y_rest += alpha·Pᵀ·x_band, the second reading P while it is still
// in cache. So each stored element is read from memory once, as in the reference's loop, and the
// work is the engine's (and its pool's when gemv splits).
//
// The reference's semantics hold: symv has no zero skips, and neither has gemv, so an Inf or NaN
// anywhere spreads to the same elements; beta == 0 sets y without reading it; alpha == 0 reads
// neither A nor x. Measured: docs/decisions.md, "?symv on gemv".
#include "kernels/level2.hpp"

#include <coheriq/kernels.hpp>

#include <algorithm>
#include <complex>
#include <cstddef>

#include "kernels/engine_rows.hpp"
#include "reference/blas.hpp"
#include "reference/blas_rows.hpp"

namespace coheriq::kernels::level2 {

// Rows per band (an order up to kRows is one diagonal block: the reference's loop) and columns
// per panel (a panel of doubles is 256 KiB, in L2 for its second read).
inline constexpr size_t kRows = 32;
inline constexpr size_t kColumns = 1024;

template <class T>
void symv(Uplo uplo, size_t n, T alpha, const T* a, size_t lda, const T* x, ptrdiff_t incx, T beta,
          T* y, ptrdiff_t incy) {
  if (n <= kRows) return kr::symv(uplo, n, alpha, a, lda, x, incx, beta, y, incy);
  if (alpha == T(0) && beta == T(1)) return;
  kr::scale_by_beta(n, beta, y, incy);
  if (alpha == T(0)) return;
  for (size_t i0 = 0; i0 < n; i0 += kRows) {
    const size_t rows = std::min(kRows, n - i0);
    const T* x_band = &kr::at(x, incx, i0);
    T* y_band = &kr::at(y, incy, i0);
    kr::symv(uplo, rows, alpha, a + i0 * lda + i0, lda, x_band, incx, T(1), y_band, incy);
    // The panel beside the diagonal block: columns after it (Upper) or before it (Lower).
    const size_t c0 = uplo == Uplo::Upper ? i0 + rows : 0;
    const size_t cols = uplo == Uplo::Upper ? n - c0 : i0;
    for (size_t j0 = c0; j0 < c0 + cols; j0 += kColumns) {
      const size_t width = std::min(kColumns, c0 + cols - j0);
      const T* panel = a + i0 * lda + j0;
      k::gemv(k::Trans::N, rows, width, alpha, panel, lda, &kr::at(x, incx, j0), incx, T(1), y_band,
              incy);
      k::gemv(k::Trans::T, rows, width, alpha, panel, lda, x_band, incx, T(1), &kr::at(y, incy, j0),
              incy);
    }
  }
}

template <class T>
void hemv(Uplo uplo, Op op, size_t n, T alpha, const T* a, size_t lda, const T* x, ptrdiff_t incx,
          T beta, T* y, ptrdiff_t incy) {
  kr::hemv(uplo, op == Op::Conj, n, alpha, a, lda, x, incx, beta, y, incy, engine_rows<T>());
}
template <class T>
void trmv(Uplo uplo, Op op, Diag diag, size_t n, const T* a, size_t lda, T* x, ptrdiff_t incx) {
  kr::trmv(uplo, op, diag, n, a, lda, x, incx, engine_rows<T>());
}
template <class T>
void trsv(Uplo uplo, Op op, Diag diag, size_t n, const T* a, size_t lda, T* x, ptrdiff_t incx) {
  kr::trsv(uplo, op, diag, n, a, lda, x, incx, engine_rows<T>());
}

template void symv<float>(Uplo, size_t, float, const float*, size_t, const float*, ptrdiff_t, float,
                          float*, ptrdiff_t);
template void symv<double>(Uplo, size_t, double, const double*, size_t, const double*, ptrdiff_t,
                           double, double*, ptrdiff_t);
#define COHERIQ_LEVEL2_INSTANTIATE(T)                                             \
  template void trmv<T>(Uplo, Op, Diag, size_t, const T*, size_t, T*, ptrdiff_t); \
  template void trsv<T>(Uplo, Op, Diag, size_t, const T*, size_t, T*, ptrdiff_t);
COHERIQ_LEVEL2_INSTANTIATE(float)
COHERIQ_LEVEL2_INSTANTIATE(double)
COHERIQ_LEVEL2_INSTANTIATE(std::complex<float>)
COHERIQ_LEVEL2_INSTANTIATE(std::complex<double>)
#undef COHERIQ_LEVEL2_INSTANTIATE
template void hemv<std::complex<float>>(Uplo, Op, size_t, std::complex<float>,
                                        const std::complex<float>*, size_t,
                                        const std::complex<float>*, ptrdiff_t, std::complex<float>,
                                        std::complex<float>*, ptrdiff_t);
template void hemv<std::complex<double>>(Uplo, Op, size_t, std::complex<double>,
                                         const std::complex<double>*, size_t,
                                         const std::complex<double>*, ptrdiff_t,
                                         std::complex<double>, std::complex<double>*, ptrdiff_t);

}  // namespace coheriq::kernels::level2
