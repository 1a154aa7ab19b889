/* Coheriq's C API (C99, also callable from Fortran through bind(C)): engine selection and
 * introspection, and every kernel of the kernels domain (<coheriq/kernels.hpp>), with the same
 * semantics, bounds and engine dispatch (docs/api.md, "C API"; docs/kernels.md).
 *
 * Errors: every function returns a coheriq_status (COHERIQ_OK == 0); results come back through
 * pointer arguments, written only on success. A failed call changes nothing; its message, which
 * starts with "coheriq:", names the argument and says what to do, is coheriq_last_error() on the
 * calling thread until that thread's next failed call. Bad arguments never raise a signal: NULL
 * where elements would be read or written (n > 0; a GEMM's A and B when m, n and k are > 0, C when
 * m and n are) and sizes describing an array beyond PTRDIFF_MAX bytes are
 * COHERIQ_ERROR_INVALID_ARGUMENT, reported before any work. Link with coheriq::kernels: pkg-config
 * coheriq carries the C++ runtime and libm a C program needs (without it, add -lstdc++ -lm). */
#ifndef COHERIQ_COHERIQ_H_
#define COHERIQ_COHERIQ_H_

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The kernels domain, for the functions that take a domain name. */
#define COHERIQ_KERNELS_DOMAIN "coheriq.kernels"

typedef enum coheriq_status {
  COHERIQ_OK = 0,
  COHERIQ_ERROR_INVALID_ARGUMENT = 1,   /* a leading dimension, transpose, size or null pointer */
  COHERIQ_ERROR_UNKNOWN_DOMAIN = 2,     /* no domain of that name in the process */
  COHERIQ_ERROR_UNKNOWN_ENGINE = 3,     /* no engine of that name in the domain */
  COHERIQ_ERROR_UNSUPPORTED_ENGINE = 4, /* the host cannot run it */
  COHERIQ_ERROR_ENGINE_LOCKED = 5,      /* another engine is in effect already */
  COHERIQ_ERROR_COMPOSITION = 6,        /* the engine's bases do not compose */
  COHERIQ_ERROR_PLUGIN = 7,             /* a plugin manifest or library failed */
  COHERIQ_ERROR_BUFFER_TOO_SMALL = 8,   /* a name does not fit the caller's buffer */
  COHERIQ_ERROR_OUT_OF_MEMORY = 9,
  COHERIQ_ERROR_OTHER = 10
} coheriq_status;

/* The transpose arguments of coheriq_?gemm. They are passed as int: an out-of-range value is then
 * an argument error (COHERIQ_ERROR_INVALID_ARGUMENT), not undefined behaviour in the library. */
enum coheriq_trans { COHERIQ_NO_TRANS = 0, COHERIQ_TRANS = 1 };

/* The message of this thread's last failed call ("" if none); valid until its next failure. */
const char* coheriq_last_error(void);

/* ------------------------------ Engines */

/* coheriq::enable_engine: one-way, before the domain's first use; a name, "auto" or a list. */
int coheriq_enable_engine(const char* domain, const char* engine);
/* The engine in effect, or the one the first use would lock, as a NUL-terminated string in
 * buf[0, size). Never locks. COHERIQ_ERROR_BUFFER_TOO_SMALL (buf untouched, the message says the
 * size needed) when it does not fit. */
int coheriq_active_engine(const char* domain, char* buf, size_t size);
/* coheriq::enable_reproducible: the domain's reproducible mode, one-way, before its first use
 * (COHERIQ_REPRODUCIBLE=1 does the same for the kernels); and whether it is on (1) or off (0). */
int coheriq_enable_reproducible(const char* domain);
int coheriq_reproducible(const char* domain, int* on);
/* The domain's engines, highest priority first: how many, the name of one, and whether this host
 * supports an engine (1) or not (0). */
int coheriq_engine_count(const char* domain, size_t* count);
int coheriq_engine_name(const char* domain, size_t index, char* buf, size_t size);
int coheriq_engine_supported(const char* domain, const char* engine, int* supported);

/* ------------------------------ Threads (coheriq::kernels::set_num_threads / num_threads) */
int coheriq_set_num_threads(size_t n);
int coheriq_num_threads(size_t* n);

/* ------------------------------ BLAS-1 (contiguous) */
int coheriq_sdot(size_t n, const float* x, const float* y, float* result);
int coheriq_ddot(size_t n, const double* x, const double* y, double* result);
int coheriq_saxpy(size_t n, float a, const float* x, float* y);
int coheriq_daxpy(size_t n, double a, const double* x, double* y);
int coheriq_sscal(size_t n, float a, float* x);
int coheriq_dscal(size_t n, double a, double* x);
int coheriq_ssum(size_t n, const float* x, float* result);
int coheriq_dsum(size_t n, const double* x, double* result);
int coheriq_sasum(size_t n, const float* x, float* result);
int coheriq_dasum(size_t n, const double* x, double* result);
int coheriq_snrm2(size_t n, const float* x, float* result);
int coheriq_dnrm2(size_t n, const double* x, double* result);
/* 0-based index of the first largest |x| (the first NaN wins); 0 for n == 0. */
int coheriq_isamax(size_t n, const float* x, size_t* result);
int coheriq_idamax(size_t n, const double* x, size_t* result);

/* ------------------------------ BLAS-1, strided: element i is x[i * incx], any increment (x
 * points at element 0, the highest address for a negative increment). */
int coheriq_sdot_strided(size_t n, const float* x, ptrdiff_t incx, const float* y, ptrdiff_t incy,
                         float* result);
int coheriq_ddot_strided(size_t n, const double* x, ptrdiff_t incx, const double* y, ptrdiff_t incy,
                         double* result);
int coheriq_saxpy_strided(size_t n, float a, const float* x, ptrdiff_t incx, float* y,
                          ptrdiff_t incy);
int coheriq_daxpy_strided(size_t n, double a, const double* x, ptrdiff_t incx, double* y,
                          ptrdiff_t incy);
int coheriq_sscal_strided(size_t n, float a, float* x, ptrdiff_t incx);
int coheriq_dscal_strided(size_t n, double a, double* x, ptrdiff_t incx);
int coheriq_sasum_strided(size_t n, const float* x, ptrdiff_t incx, float* result);
int coheriq_dasum_strided(size_t n, const double* x, ptrdiff_t incx, double* result);
int coheriq_snrm2_strided(size_t n, const float* x, ptrdiff_t incx, float* result);
int coheriq_dnrm2_strided(size_t n, const double* x, ptrdiff_t incx, double* result);
int coheriq_isamax_strided(size_t n, const float* x, ptrdiff_t incx, size_t* result);
int coheriq_idamax_strided(size_t n, const double* x, ptrdiff_t incx, size_t* result);

/* ------------------------------ Vector math (y == x allowed): vs float, vd double */
int coheriq_vsexp(size_t n, const float* x, float* y);
int coheriq_vdexp(size_t n, const double* x, double* y);
int coheriq_vsexp2(size_t n, const float* x, float* y);
int coheriq_vdexp2(size_t n, const double* x, double* y);
int coheriq_vsexpm1(size_t n, const float* x, float* y);
int coheriq_vdexpm1(size_t n, const double* x, double* y);
int coheriq_vslog(size_t n, const float* x, float* y);
int coheriq_vdlog(size_t n, const double* x, double* y);
int coheriq_vslog2(size_t n, const float* x, float* y);
int coheriq_vdlog2(size_t n, const double* x, double* y);
int coheriq_vslog10(size_t n, const float* x, float* y);
int coheriq_vdlog10(size_t n, const double* x, double* y);
int coheriq_vslog1p(size_t n, const float* x, float* y);
int coheriq_vdlog1p(size_t n, const double* x, double* y);
int coheriq_vssqrt(size_t n, const float* x, float* y);
int coheriq_vdsqrt(size_t n, const double* x, double* y);
int coheriq_vscbrt(size_t n, const float* x, float* y);
int coheriq_vdcbrt(size_t n, const double* x, double* y);
int coheriq_vspow(size_t n, const float* x, const float* y, float* z);
int coheriq_vdpow(size_t n, const double* x, const double* y, double* z);
int coheriq_vstanh(size_t n, const float* x, float* y);
int coheriq_vssigmoid(size_t n, const float* x, float* y);
int coheriq_vdsigmoid(size_t n, const double* x, double* y);
int coheriq_vssoftmax(size_t n, const float* x, float* y);
int coheriq_vdsoftmax(size_t n, const double* x, double* y);
int coheriq_vssilu(size_t n, const float* x, float* y);
int coheriq_vdsilu(size_t n, const double* x, double* y);
/* y[i] = x[i]/2 * (1 + erf(x[i]/sqrt(2))) (GELU) and its tanh approximation
 * x[i]/2 * (1 + tanh(sqrt(2/pi) * (x[i] + 0.044715 x[i]^3))) */
int coheriq_vsgelu(size_t n, const float* x, float* y);
int coheriq_vdgelu(size_t n, const double* x, double* y);
int coheriq_vsgelu_tanh(size_t n, const float* x, float* y);
int coheriq_vdgelu_tanh(size_t n, const double* x, double* y);
int coheriq_vslog_softmax(size_t n, const float* x, float* y);
int coheriq_vdlog_softmax(size_t n, const double* x, double* y);
int coheriq_vdtanh(size_t n, const double* x, double* y);

/* ------------------------------ Trigonometry, vs f32 and vd f64 (y == x allowed) */
int coheriq_vssin(size_t n, const float* x, float* y);
int coheriq_vdsin(size_t n, const double* x, double* y);
int coheriq_vscos(size_t n, const float* x, float* y);
int coheriq_vdcos(size_t n, const double* x, double* y);
int coheriq_vstan(size_t n, const float* x, float* y);
int coheriq_vdtan(size_t n, const double* x, double* y);
int coheriq_vsasin(size_t n, const float* x, float* y);
int coheriq_vdasin(size_t n, const double* x, double* y);
int coheriq_vsacos(size_t n, const float* x, float* y);
int coheriq_vdacos(size_t n, const double* x, double* y);
int coheriq_vsatan(size_t n, const float* x, float* y);
int coheriq_vdatan(size_t n, const double* x, double* y);
/* z[i] = atan2(y[i], x[i]) */
int coheriq_vsatan2(size_t n, const float* y, const float* x, float* z);
int coheriq_vdatan2(size_t n, const double* y, const double* x, double* z);
int coheriq_vssinh(size_t n, const float* x, float* y);
int coheriq_vdsinh(size_t n, const double* x, double* y);
int coheriq_vscosh(size_t n, const float* x, float* y);
int coheriq_vdcosh(size_t n, const double* x, double* y);
int coheriq_vserf(size_t n, const float* x, float* y);
int coheriq_vderf(size_t n, const double* x, double* y);
int coheriq_vserfc(size_t n, const float* x, float* y);
int coheriq_vderfc(size_t n, const double* x, double* y);

/* ------------------------------ GEMM: row-major C = alpha * op(A) * op(B) + beta * C, op(A) is
 * m x k, op(B) is k x n; beta == 0 ignores C's old contents. */
int coheriq_sgemm(int ta, int tb, size_t m, size_t n, size_t k, float alpha, const float* A,
                  size_t lda, const float* B, size_t ldb, float beta, float* C, size_t ldc);
int coheriq_dgemm(int ta, int tb, size_t m, size_t n, size_t k, double alpha, const double* A,
                  size_t lda, const double* B, size_t ldb, double beta, double* C, size_t ldc);
/* `batch` products of one shape, each as coheriq_?gemm computes it, on the thread pool across the
 * batch (the same bits for any thread count). Strided: product i reads A + i * stride_a and
 * B + i * stride_b and updates C + i * stride_c (strides in elements; 0 reuses A or B; the C_i
 * must not overlap: stride_c at least a C's span, or its rows interleaved within ldc). Pointer
 * arrays: product i is A[i], B[i], C[i]. */
int coheriq_sgemm_batch_strided(int ta, int tb, size_t m, size_t n, size_t k, float alpha,
                                const float* A, size_t lda, size_t stride_a, const float* B,
                                size_t ldb, size_t stride_b, float beta, float* C, size_t ldc,
                                size_t stride_c, size_t batch);
int coheriq_dgemm_batch_strided(int ta, int tb, size_t m, size_t n, size_t k, double alpha,
                                const double* A, size_t lda, size_t stride_a, const double* B,
                                size_t ldb, size_t stride_b, double beta, double* C, size_t ldc,
                                size_t stride_c, size_t batch);
int coheriq_sgemm_batch(int ta, int tb, size_t m, size_t n, size_t k, float alpha,
                        const float* const* A, size_t lda, const float* const* B, size_t ldb,
                        float beta, float* const* C, size_t ldc, size_t batch);
int coheriq_dgemm_batch(int ta, int tb, size_t m, size_t n, size_t k, double alpha,
                        const double* const* A, size_t lda, const double* const* B, size_t ldb,
                        double beta, double* const* C, size_t ldc, size_t batch);

#ifdef __cplusplus
}
#endif

#endif /* COHERIQ_COHERIQ_H_ */
