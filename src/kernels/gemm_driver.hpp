// The GEMM driver: what runs between the public GEMM functions (api.cpp, which checked every
// argument) and the engine's GEMM candidates. It owns the workspace the engines need (ISA code
// never allocates), decides how many threads a product uses and how C is cut among them, and
// runs the parts on the pool. Baseline code; the engine in effect comes through coheriq::call.
#pragma once

#include <coheriq/kernels.hpp>

#include <complex>
#include <cstddef>
#include <cstdint>

namespace coheriq::kernels::driver {

// Where block `part` of `parts` starts when `extent` rows or columns are cut among threads: an
// even share, rounded down to a multiple of `grain`; `extent` for part >= parts.
constexpr std::size_t block_begin(std::size_t extent, std::size_t parts, std::size_t grain,
                                  std::size_t part) {
  return part >= parts ? extent : extent * part / parts / grain * grain;
}

// Row-major C = alpha·op(A)·op(B) + beta·C, for T = float or double.
template <class T>
void gemm(Trans ta, Trans tb, std::size_t m, std::size_t n, std::size_t k, T alpha, const T* A,
          std::size_t lda, const T* B, std::size_t ldb, T beta, T* C, std::size_t ldc);

// The same, op(B) packed in the engine's layout (a PackedMatrix's data) and k x n.
template <class T>
void gemm_packed(Trans ta, std::size_t m, std::size_t n, std::size_t k, T alpha, const T* A,
                 std::size_t lda, const void* packed, T beta, T* C, std::size_t ldc);

// Bytes of op(B) (k x n) packed in the engine's layout (the packed_bytes candidate).
template <class T>
std::size_t packed_bytes(std::size_t k, std::size_t n);

// The complex op(B)'s 1m expansion, b' = alpha·op(B) (k x n) as 2k x 2n reals, packed in the
// engine's layout (packed_bytes(2k, 2n) at `packed`) for gemm_1m and gemmt_1m (the pack_b_1m
// candidate), on the calling thread; `conj_a`: op(A) is conjugated.
template <class T>
void pack_b_1m(Op op, bool conj_a, std::size_t k, std::size_t n, std::complex<T> alpha,
               const std::complex<T>* B, std::size_t ldb, void* packed);

// The `uplo` triangle of the n x n C := alpha·op(A)·op(B) + beta·C, its elements `width` columns
// wide (the gemmt candidate: gemm's bits there, nothing written elsewhere), on the calling
// thread: its caller (the level 3's one-term rank updates, on their diagonal parts) cuts its work
// among threads itself.
template <class T>
void gemmt(Uplo uplo, Trans ta, Trans tb, std::size_t n, std::size_t width, std::size_t k, T alpha,
           const T* A, std::size_t lda, const T* B, std::size_t ldb, T beta, T* C, std::size_t ldc);

// C := A'·B' + beta·C as reals, op(A) = A (N) or Aᵀ (T) of the complex A (m x k) as reals, B' what
// pack_b_1m packed (the gemm_1m candidate): on the pool, by rows of C, once large enough for the
// engine's record, as gemm.
template <class T>
void gemm_1m(Trans ta, std::size_t m, std::size_t n, std::size_t k, const std::complex<T>* A,
             std::size_t lda, const void* packed, T beta, std::complex<T>* C, std::size_t ldc);

// Its `uplo` triangle of an n x n C (the gemmt_1m candidate), on the calling thread: its caller
// (the complex rank updates, on their diagonal parts) cuts its work among threads itself.
template <class T>
void gemmt_1m(Uplo uplo, Trans ta, std::size_t n, std::size_t k, const std::complex<T>* A,
              std::size_t lda, const void* packed, T beta, std::complex<T>* C, std::size_t ldc);

// C := alpha·A·B + beta·C (Left) or alpha·B·A + beta·C (Right), A symmetric given by its `uplo`
// triangle (the symm_packed candidate), on the calling thread: its caller (the level 3's real
// symm, on slices of C) cuts its work among threads itself.
template <class T>
void symm_packed(Side side, Uplo uplo, std::size_t m, std::size_t n, T alpha, const T* A,
                 std::size_t lda, const T* B, std::size_t ldb, T beta, T* C, std::size_t ldc);

// B := alpha·op(A)·B (Left) or alpha·B·op(A) (Right) in place, op(A) triangular (the
// trmm_packed candidate), on the calling thread: its caller (the level 3's real trmm, on slices
// of B) cuts its work among threads itself.
template <class T>
void trmm_packed(Side side, Uplo uplo, Trans ta, Diag diag, std::size_t m, std::size_t n, T alpha,
                 const T* A, std::size_t lda, T* B, std::size_t ldb);

// The same for complex A and B, op(A) = A, Aᵀ, Aᴴ or conj(A), as one real pass on the 1m
// method (the trmm_1m candidate), on the calling thread, as trmm_packed.
template <class T>
void trmm_1m(Side side, Uplo uplo, Op op, Diag diag, std::size_t m, std::size_t n,
             std::complex<T> alpha, const std::complex<T>* A, std::size_t lda, std::complex<T>* B,
             std::size_t ldb);

// Whether the engine in effect runs this product on the calling thread with no workspace (its
// small path): then its gemm candidate may be called directly, with a null workspace, for the
// same bits (GemmPlan). A first use of the domain.
template <class T>
bool gemm_runs_alone(std::size_t m, std::size_t n, std::size_t k);

// y := alpha·op(A)·x + beta·y (the gemv candidate's arguments, checked), for T = float or
// double: on the pool once A is large enough for the engine's record (GemvThreading), y cut into
// blocks, each element computed as one call computes it.
template <class T>
void gemv(Trans op, std::size_t m, std::size_t n, T alpha, const T* A, std::size_t lda, const T* x,
          std::ptrdiff_t incx, T beta, T* y, std::ptrdiff_t incy);

// The threads a computation of `work` multiply-adds of T (float or double) that is made of GEMM
// calls may use: 1 below the work the engine's record gives GEMM threads for (its
// min_parallel_work), else num_threads(). The level 3 cuts its routines by it. A first use of the
// domain.
template <class T>
std::size_t threads_for_work(double work);

// `batch` products of one shape (kernels.hpp), strided or by pointer arrays.
template <class T>
void gemm_batch_strided(Trans ta, Trans tb, std::size_t m, std::size_t n, std::size_t k, T alpha,
                        const T* A, std::size_t lda, std::size_t stride_a, const T* B,
                        std::size_t ldb, std::size_t stride_b, T beta, T* C, std::size_t ldc,
                        std::size_t stride_c, std::size_t batch);
template <class T>
void gemm_batch(Trans ta, Trans tb, std::size_t m, std::size_t n, std::size_t k, T alpha,
                const T* const* A, std::size_t lda, const T* const* B, std::size_t ldb, T beta,
                T* const* C, std::size_t ldc, std::size_t batch);

// The reduced-precision GEMMs (no transposes; B is k x n).
void gemm_u8s8s32(std::size_t m, std::size_t n, std::size_t k, const std::uint8_t* A,
                  std::size_t lda, const std::int8_t* B, std::size_t ldb, std::int32_t* C,
                  std::size_t ldc);
void gemm_bf16(std::size_t m, std::size_t n, std::size_t k, float alpha, const bfloat16* A,
               std::size_t lda, const bfloat16* B, std::size_t ldb, float beta, float* C,
               std::size_t ldc);

}  // namespace coheriq::kernels::driver
