// The reference engine's BLAS-2 candidates (gemv, ger, symv, trmv, trsv, hemv;
// coheriq/kernels_table.hpp): the reference BLAS kernels of blas_level2.cpp, which the BLAS
// library's other routines share, in their loop orders and with their scalar row operations
// (scalar, baseline flags; the tests' oracles are tests/kernels/oracle.hpp and the system's
// reference BLAS).
#include <complex>
#include <cstddef>

#include "kernels/candidates.hpp"
#include "reference/blas.hpp"
#include "reference/reference.hpp"

namespace coheriq::kernels::reference {

// op N: a dot of each row with x; op T: alpha·x_i times row i added to y. alpha == 0 reads
// neither A nor x, beta == 0 does not read y, m == 0 or n == 0 leaves y untouched.
template <class T>
void gemv(Trans op, std::size_t m, std::size_t n, T alpha, const T* A, std::size_t lda, const T* x,
          std::ptrdiff_t incx, T beta, T* y, std::ptrdiff_t incy) {
  blas::gemv(op == Trans::N ? Op::N : Op::T, m, n, alpha, A, lda, x, incx, beta, y, incy);
}

// Row i adds alpha·x_i times y, skipped when x_i == 0 (the reference BLAS skips it).
template <class T>
void ger(std::size_t m, std::size_t n, T alpha, const T* x, std::ptrdiff_t incx, const T* y,
         std::ptrdiff_t incy, T* A, std::size_t lda) {
  blas::ger(false, false, m, n, alpha, x, incx, y, incy, A, lda);
}

// symv, trmv, trsv: one adapter per row, generated from the table, calling blas::op.
COHERIQ_KERNELS_BLAS2_SYMMETRIC_TYPED(COHERIQ_REFERENCE_TO_BLAS, T, S)
COHERIQ_KERNELS_BLAS2_TRIANGULAR_TYPED(COHERIQ_REFERENCE_TO_BLAS, T, S)

// op Conj: conj(A) (the reference's loop with its conj_a flag).
template <class T>
void hemv(Uplo uplo, Op op, std::size_t n, std::complex<T> alpha, const std::complex<T>* A,
          std::size_t lda, const std::complex<T>* x, std::ptrdiff_t incx, std::complex<T> beta,
          std::complex<T>* y, std::ptrdiff_t incy) {
  blas::hemv(uplo, op == Op::Conj, n, alpha, A, lda, x, incx, beta, y, incy);
}

#define COHERIQ_REFERENCE_INSTANTIATE(op, S, impl, touched, R, params, args) template R impl params;
COHERIQ_KERNELS_BLAS2_TYPED(COHERIQ_REFERENCE_INSTANTIATE, float, f32)
COHERIQ_KERNELS_BLAS2_TYPED(COHERIQ_REFERENCE_INSTANTIATE, double, f64)
COHERIQ_KERNELS_BLAS2_CHECKED(COHERIQ_REFERENCE_INSTANTIATE)
#undef COHERIQ_REFERENCE_INSTANTIATE

}  // namespace coheriq::kernels::reference
