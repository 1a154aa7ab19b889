// The reference engine's BLAS-3 candidates (trsm, trmm, syrk, syr2k, symm over the four types;
// complex gemm, hemm, herk, her2k; coheriq/kernels_table.hpp): the reference BLAS's loops of
// blas_level3.cpp, in their orders and with their zero skips (scalar, baseline flags; the tests'
// oracle is the system's reference BLAS, tests/blas/level3_test.cpp). And the base block of the
// blocked forms, trsm_rows (f32, f64), in its row's order.
#include <cmath>
#include <complex>
#include <cstddef>

#include "kernels/candidates.hpp"
#include "reference/blas.hpp"
#include "reference/reference.hpp"

namespace coheriq::kernels::reference {

// One adapter per row, generated from the table: `template <class T> R op params` calls
// blas::op with the row's arguments (the complex-only rows, T the real type, deduce its
// std::complex<T>).
COHERIQ_KERNELS_BLAS3_TYPED(COHERIQ_REFERENCE_TO_BLAS, T, S)
COHERIQ_KERNELS_BLAS3_COMPLEX_TYPED(COHERIQ_REFERENCE_TO_BLAS, T, S)

// The base block of the blocked trsm (the trsm_rows row: its order of operations, element by
// element, is the row's definition). Row by row as the blocked form once ran it on axpy and scal.
template <class T>
void trsm_rows(Uplo uplo, Trans ta, Diag diag, std::size_t m, std::size_t n, T alpha, const T* A,
               std::size_t lda, T* B, std::size_t ldb) {
  const bool t = ta == Trans::T, lower = (uplo == Uplo::Lower) != t;
  const auto at = [&](std::size_t r, std::size_t c) { return t ? A[c * lda + r] : A[r * lda + c]; };
  for (std::size_t step = 0; step < m; ++step) {
    const std::size_t i = lower ? step : m - 1 - step;
    T* bi = B + i * ldb;
    if (alpha != T(1)) {
      for (std::size_t j = 0; j < n; ++j) bi[j] = alpha * bi[j];
    }
    for (std::size_t l = lower ? 0 : i + 1; l < (lower ? i : m); ++l) {
      const T tl = at(i, l);
      if (tl == T(0)) continue;
      const T* bl = B + l * ldb;
      for (std::size_t j = 0; j < n; ++j) bi[j] = std::fma(-tl, bl[j], bi[j]);
    }
    if (diag == Diag::NonUnit) {
      const T d = at(i, i);
      for (std::size_t j = 0; j < n; ++j) bi[j] = bi[j] / d;
    }
  }
}

#define COHERIQ_REFERENCE_INSTANTIATE(op, S, impl, touched, R, params, args) template R impl params;
COHERIQ_KERNELS_BLAS3(COHERIQ_REFERENCE_INSTANTIATE)
COHERIQ_KERNELS_BLAS3_BLOCKS(COHERIQ_REFERENCE_INSTANTIATE)
#undef COHERIQ_REFERENCE_INSTANTIATE

}  // namespace coheriq::kernels::reference
