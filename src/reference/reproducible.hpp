// The reference engine in the reproducible mode: scalar kernels that give exactly the bits of the
// mode's canonical orders (kernels/reproducible.hpp), which every engine's kernels give in the
// mode; Domain::reference_reproducible() returns their table (engine.cpp).
//
// The table is the reference's own table with the rows whose normal kernel computes in another
// order replaced: namespace reproducible declares those, and its using-directive makes every other
// name the normal reference kernel, so that `reproducible::op<T>` names the kernel of the mode
// either way (the data movement, scal, iamax, the integer kernels, the GEMM's workspace, packing
// and plan, and the vector math, whose bits are already the same on every engine, but for
// softmax's and log_softmax's sums). The replacements are defined in reproducible.cpp, softmax and
// log_softmax in math.cpp beside the normal ones.
#pragma once

#include <coheriq/engine.hpp>
#include <coheriq/kernels.hpp>
#include <coheriq/kernels_table.hpp>

#include <complex>
#include <cstddef>

#include "reference/reference.hpp"

namespace coheriq::kernels::reference {

// Every candidate of src/kernels/candidates.hpp in the reproducible mode (engine.cpp).
extern const coheriq::OverrideTable reproducible_overrides;

namespace reproducible {

using namespace coheriq::kernels::reference;

// ------------------------------ BLAS-1: the canonical reductions, and the fused elementwise forms

template <class T>
T dot(std::size_t n, const T* x, const T* y);
template <class T>
T sum(std::size_t n, const T* x);
template <class T>
T asum(std::size_t n, const T* x);
template <class T>
T nrm2(std::size_t n, const T* x);
template <class T>
void axpy(std::size_t n, T a, const T* x, T* y);
template <class T>
T dot_strided(std::size_t n, const T* x, std::ptrdiff_t incx, const T* y, std::ptrdiff_t incy);
template <class T>
void axpy_strided(std::size_t n, T a, const T* x, std::ptrdiff_t incx, T* y, std::ptrdiff_t incy);
template <class T>
T axpy_dot_strided(std::size_t n, T a, const T* x, std::ptrdiff_t incx, T* y, std::ptrdiff_t incy,
                   const T* v, std::ptrdiff_t incv);
template <class T>
T asum_strided(std::size_t n, const T* x, std::ptrdiff_t incx);
template <class T>
T nrm2_strided(std::size_t n, const T* x, std::ptrdiff_t incx);
template <class T>
void rot_strided(std::size_t n, T* x, std::ptrdiff_t incx, T* y, std::ptrdiff_t incy, T c, T s);

// Complex, T the real type.
template <class T>
void dotu_strided(std::size_t n, const std::complex<T>* x, std::ptrdiff_t incx,
                  const std::complex<T>* y, std::ptrdiff_t incy, std::complex<T>* result);
template <class T>
void dotc_strided(std::size_t n, const std::complex<T>* x, std::ptrdiff_t incx,
                  const std::complex<T>* y, std::ptrdiff_t incy, std::complex<T>* result);
template <class T>
void axpy_strided(std::size_t n, std::complex<T> a, const std::complex<T>* x, std::ptrdiff_t incx,
                  std::complex<T>* y, std::ptrdiff_t incy);
template <class T>
void axpyc_strided(std::size_t n, std::complex<T> a, const std::complex<T>* x, std::ptrdiff_t incx,
                   std::complex<T>* y, std::ptrdiff_t incy);

// ------------------------------ softmax and log_softmax: the canonical sum of the exponentials

template <class T>
void softmax(std::size_t n, const T* x, T* y);
template <class T>
void log_softmax(std::size_t n, const T* x, T* y);

// ------------------------------ GEMM: the canonical k-blocks (packed_bytes and pack_b are the
// reference's: gemm_packed reads its layout)

template <class T>
void gemm(Trans ta, Trans tb, std::size_t m, std::size_t n, std::size_t k, T alpha, const T* A,
          std::size_t lda, const T* B, std::size_t ldb, T beta, T* C, std::size_t ldc, void* work);
template <class T>
void gemm_packed(Trans ta, std::size_t m, std::size_t n, std::size_t k, T alpha, const T* A,
                 std::size_t lda, const void* packed, T beta, T* C, std::size_t ldc);
template <class T>
void gemm_batch_strided(Trans ta, Trans tb, std::size_t m, std::size_t n, std::size_t k, T alpha,
                        const T* A, std::size_t lda, std::size_t stride_a, const T* B,
                        std::size_t ldb, std::size_t stride_b, T beta, T* C, std::size_t ldc,
                        std::size_t stride_c, std::size_t batch, void* work);
template <class T>
void gemm_batch(Trans ta, Trans tb, std::size_t m, std::size_t n, std::size_t k, T alpha,
                const T* const* A, std::size_t lda, const T* const* B, std::size_t ldb, T beta,
                T* const* C, std::size_t ldc, std::size_t batch, void* work);

template <class T>
void gemmt(Uplo uplo, Trans ta, Trans tb, std::size_t n, std::size_t width, std::size_t k, T alpha,
           const T* A, std::size_t lda, const T* B, std::size_t ldb, T beta, T* C, std::size_t ldc,
           void* work);
template <class T>
void gemm_1m(Trans ta, std::size_t m, std::size_t n, std::size_t k, const T* A, std::size_t lda,
             const void* packed, T beta, T* C, std::size_t ldc, void* work);
template <class T>
void gemmt_1m(Uplo uplo, Trans ta, std::size_t n, std::size_t k, const T* A, std::size_t lda,
              const void* packed, T beta, T* C, std::size_t ldc, void* work);
template <class T>
void symm_packed(Side side, Uplo uplo, std::size_t m, std::size_t n, T alpha, const T* A,
                 std::size_t lda, const T* B, std::size_t ldb, T beta, T* C, std::size_t ldc,
                 void* work);
template <class T>
void trmm_packed(Side side, Uplo uplo, Trans ta, Diag diag, std::size_t m, std::size_t n, T alpha,
                 const T* A, std::size_t lda, T* B, std::size_t ldb, void* work);
template <class T>
void trmm_1m(Side side, Uplo uplo, Op op, Diag diag, std::size_t m, std::size_t n, T alpha_re,
             T alpha_im, const T* A, std::size_t lda, T* B, std::size_t ldb, void* work);

// ------------------------------ BLAS-2

template <class T>
void gemv(Trans op, std::size_t m, std::size_t n, T alpha, const T* A, std::size_t lda, const T* x,
          std::ptrdiff_t incx, T beta, T* y, std::ptrdiff_t incy);
template <class T>
void ger(std::size_t m, std::size_t n, T alpha, const T* x, std::ptrdiff_t incx, const T* y,
         std::ptrdiff_t incy, T* A, std::size_t lda);

// ------------------------------ Reduced precision: the f32 forms on the widened operands

float dot_bf16(std::size_t n, const bfloat16* x, const bfloat16* y);
void gemm_bf16(std::size_t m, std::size_t n, std::size_t k, float alpha, const bfloat16* A,
               std::size_t lda, const bfloat16* B, std::size_t ldb, float beta, float* C,
               std::size_t ldc, void* work);

// ------------------------------ The level 2 and 3: the blocked forms every generic engine runs
// (src/kernels/level2.cpp, level3.cpp), one forwarder per row, as engines/generic/forwarded-inl.h.
#define COHERIQ_REPRODUCIBLE_DECLARE(op, S, impl, touched, R, params, args) \
  template <class T>                                                        \
  R op params;
COHERIQ_KERNELS_BLAS2_SYMMETRIC_TYPED(COHERIQ_REPRODUCIBLE_DECLARE, T, S)
COHERIQ_KERNELS_BLAS2_TRIANGULAR_TYPED(COHERIQ_REPRODUCIBLE_DECLARE, T, S)
COHERIQ_KERNELS_BLAS2_HERMITIAN_TYPED(COHERIQ_REPRODUCIBLE_DECLARE, T, S)
COHERIQ_KERNELS_BLAS3_TYPED(COHERIQ_REPRODUCIBLE_DECLARE, T, S)
COHERIQ_KERNELS_BLAS3_COMPLEX_TYPED(COHERIQ_REPRODUCIBLE_DECLARE, T, S)
#undef COHERIQ_REPRODUCIBLE_DECLARE

}  // namespace reproducible
}  // namespace coheriq::kernels::reference
