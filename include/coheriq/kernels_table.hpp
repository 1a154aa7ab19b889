// The kernels domain's table: every candidate function, one row each, written once.
//
// Macros only (X-macros), no declarations: <coheriq/kernels.hpp> expands the public rows into the
// public functions, <coheriq/kernels_domain.hpp> every row into a candidate tag, and the library
// into the public forwarders, the reference engine's declarations and table, every generic
// engine's table and the benchmarks. A new kernel of a family is a row here, its reference
// function, its generic function and its test (docs/adding-a-kernel.md).
//
// A row is X(op, S, impl, touches, R, params, args): the candidate cand::op_S, named "op.S" (S =
// f32, f64, or the element types of a reduced-precision kernel), implemented by `impl` in the
// reference engine and in the generic kernels (the same name in both), touching the candidate
// classes in `touches`, with signature R params (`args` are the parameter names, for forwarding).
// A typed family is written once with T and S as parameters and instantiated for float/f32 and
// double/f64; its `impl` is op<T>.
#pragma once

// ------------------------------ Public kernels: the public function `op` forwards unchanged

// BLAS-1 (reference: src/reference/blas1.cpp; generic: src/engines/generic/blas1-inl.h).
#define COHERIQ_KERNELS_PUBLIC_TYPED(X, T, S)                                                \
  X(dot, S, dot<T>, touches<>, T, (std::size_t n, const T* x, const T* y), (n, x, y))        \
  X(axpy, S, axpy<T>, touches<>, void, (std::size_t n, T a, const T* x, T* y), (n, a, x, y)) \
  X(scal, S, scal<T>, touches<>, void, (std::size_t n, T a, T * x), (n, a, x))               \
  X(sum, S, sum<T>, touches<>, T, (std::size_t n, const T* x), (n, x))                       \
  X(asum, S, asum<T>, touches<>, T, (std::size_t n, const T* x), (n, x))                     \
  X(nrm2, S, nrm2<T>, touches<>, T, (std::size_t n, const T* x), (n, x))                     \
  X(iamax, S, iamax<T>, touches<>, std::size_t, (std::size_t n, const T* x), (n, x))         \
  COHERIQ_KERNELS_STRIDED_TYPED(X, T, S)
// Strided siblings of the BLAS-1 rows (the BLAS and CBLAS interfaces use them): element i of a
// vector is x[i * incx], any increment (0 and negative included; x points at element 0, the
// highest address when incx < 0). axpy_dot_strided is axpy_strided(x into y) then the result
// dot_strided(x, v), bit for bit, in one call: a symmetric product's stored row (BLIS's
// dotaxpyv), whose short rows two calls cost more than the reference BLAS's fused loop.
#define COHERIQ_KERNELS_STRIDED_TYPED(X, T, S)                                                   \
  X(dot_strided, S, dot_strided<T>, touches<>, T,                                                \
    (std::size_t n, const T* x, std::ptrdiff_t incx, const T* y, std::ptrdiff_t incy),           \
    (n, x, incx, y, incy))                                                                       \
  X(axpy_strided, S, axpy_strided<T>, touches<>, void,                                           \
    (std::size_t n, T a, const T* x, std::ptrdiff_t incx, T* y, std::ptrdiff_t incy),            \
    (n, a, x, incx, y, incy))                                                                    \
  X(axpy_dot_strided, S, axpy_dot_strided<T>, touches<>, T,                                      \
    (std::size_t n, T a, const T* x, std::ptrdiff_t incx, T* y, std::ptrdiff_t incy, const T* v, \
     std::ptrdiff_t incv),                                                                       \
    (n, a, x, incx, y, incy, v, incv))                                                           \
  X(scal_strided, S, scal_strided<T>, touches<>, void,                                           \
    (std::size_t n, T a, T * x, std::ptrdiff_t incx), (n, a, x, incx))                           \
  X(asum_strided, S, asum_strided<T>, touches<>, T,                                              \
    (std::size_t n, const T* x, std::ptrdiff_t incx), (n, x, incx))                              \
  X(nrm2_strided, S, nrm2_strided<T>, touches<>, T,                                              \
    (std::size_t n, const T* x, std::ptrdiff_t incx), (n, x, incx))                              \
  X(iamax_strided, S, iamax_strided<T>, touches<>, std::size_t,                                  \
    (std::size_t n, const T* x, std::ptrdiff_t incx), (n, x, incx))                              \
  X(copy_strided, S, copy_strided<T>, touches<>, void,                                           \
    (std::size_t n, const T* x, std::ptrdiff_t incx, T* y, std::ptrdiff_t incy),                 \
    (n, x, incx, y, incy))                                                                       \
  X(swap_strided, S, swap_strided<T>, touches<>, void,                                           \
    (std::size_t n, T * x, std::ptrdiff_t incx, T * y, std::ptrdiff_t incy),                     \
    (n, x, incx, y, incy))                                                                       \
  X(rot_strided, S, rot_strided<T>, touches<>, void,                                             \
    (std::size_t n, T * x, std::ptrdiff_t incx, T * y, std::ptrdiff_t incy, T c, T s),           \
    (n, x, incx, y, incy, c, s))
// Complex BLAS-1, S = c32 or c64 over the real type T: vectors of std::complex<T> (real and
// imaginary parts interleaved), any increment as the strided rows, counted in complex elements.
// dotu: *result = Σ x·y; dotc: *result = Σ conj(x)·y; axpy: y = a·x + y; axpyc: y = a·conj(x) + y.
// (The dots return through a pointer, as CBLAS's cblas_zdotu_sub does: engine code never calls a
// std::complex member, which an unoptimized build would emit with the engine's ISA flags.)
#define COHERIQ_KERNELS_COMPLEX_TYPED(X, T, S)                                               \
  X(dotu_strided, S, dotu_strided<T>, touches<>, void,                                       \
    (std::size_t n, const std::complex<T>* x, std::ptrdiff_t incx, const std::complex<T>* y, \
     std::ptrdiff_t incy, std::complex<T>* result),                                          \
    (n, x, incx, y, incy, result))                                                           \
  X(dotc_strided, S, dotc_strided<T>, touches<>, void,                                       \
    (std::size_t n, const std::complex<T>* x, std::ptrdiff_t incx, const std::complex<T>* y, \
     std::ptrdiff_t incy, std::complex<T>* result),                                          \
    (n, x, incx, y, incy, result))                                                           \
  X(axpy_strided, S, axpy_strided<T>, touches<>, void,                                       \
    (std::size_t n, std::complex<T> a, const std::complex<T>* x, std::ptrdiff_t incx,        \
     std::complex<T>* y, std::ptrdiff_t incy),                                               \
    (n, a, x, incx, y, incy))                                                                \
  X(axpyc_strided, S, axpyc_strided<T>, touches<>, void,                                     \
    (std::size_t n, std::complex<T> a, const std::complex<T>* x, std::ptrdiff_t incx,        \
     std::complex<T>* y, std::ptrdiff_t incy),                                               \
    (n, a, x, incx, y, incy))
// Vector math (docs/kernels.md): each function one algorithm of src/math that the reference
// (src/reference/math.cpp) and the generic kernels (src/engines/generic/math-inl.h) share. A
// function of one array, y[i] = f(x[i]) (softmax: of all of x), is one COHERIQ_KERNELS_UNARY line:
// the row `op` with signature void (std::size_t n, const T* x, T* y), implemented by op<T>; the C
// API names it coheriq_vs<op> / coheriq_vd<op>. A function of two arrays, z[i] = f(a[i], b[i]), is
// one COHERIQ_KERNELS_BINARY line with the arguments in C's order and named as C names them
// (pow(x, y), atan2(y, x)); the C API's messages use these names.
#define COHERIQ_KERNELS_UNARY(op, X, T, S) \
  X(op, S, op<T>, touches<>, void, (std::size_t n, const T* x, T* y), (n, x, y))
#define COHERIQ_KERNELS_BINARY(op, a, b, X, T, S) \
  X(op, S, op<T>, touches<>, void, (std::size_t n, const T* a, const T* b, T* z), (n, a, b, z))
// The functions of both precisions.
#define COHERIQ_KERNELS_MATH_TYPED(X, T, S)    \
  COHERIQ_KERNELS_UNARY(exp, X, T, S)          \
  COHERIQ_KERNELS_UNARY(exp2, X, T, S)         \
  COHERIQ_KERNELS_UNARY(expm1, X, T, S)        \
  COHERIQ_KERNELS_UNARY(log, X, T, S)          \
  COHERIQ_KERNELS_UNARY(log2, X, T, S)         \
  COHERIQ_KERNELS_UNARY(log10, X, T, S)        \
  COHERIQ_KERNELS_UNARY(log1p, X, T, S)        \
  COHERIQ_KERNELS_UNARY(sqrt, X, T, S)         \
  COHERIQ_KERNELS_UNARY(cbrt, X, T, S)         \
  COHERIQ_KERNELS_BINARY(pow, x, y, X, T, S)   \
  COHERIQ_KERNELS_UNARY(sin, X, T, S)          \
  COHERIQ_KERNELS_UNARY(cos, X, T, S)          \
  COHERIQ_KERNELS_UNARY(tan, X, T, S)          \
  COHERIQ_KERNELS_UNARY(asin, X, T, S)         \
  COHERIQ_KERNELS_UNARY(acos, X, T, S)         \
  COHERIQ_KERNELS_UNARY(atan, X, T, S)         \
  COHERIQ_KERNELS_BINARY(atan2, y, x, X, T, S) \
  COHERIQ_KERNELS_UNARY(sinh, X, T, S)         \
  COHERIQ_KERNELS_UNARY(cosh, X, T, S)         \
  COHERIQ_KERNELS_UNARY(erf, X, T, S)          \
  COHERIQ_KERNELS_UNARY(erfc, X, T, S)         \
  COHERIQ_KERNELS_UNARY(sigmoid, X, T, S)      \
  COHERIQ_KERNELS_UNARY(silu, X, T, S)         \
  COHERIQ_KERNELS_UNARY(gelu, X, T, S)         \
  COHERIQ_KERNELS_UNARY(gelu_tanh, X, T, S)    \
  COHERIQ_KERNELS_UNARY(softmax, X, T, S)      \
  COHERIQ_KERNELS_UNARY(log_softmax, X, T, S)  \
  COHERIQ_KERNELS_UNARY(tanh, X, T, S)
#define COHERIQ_KERNELS_MATH(X)             \
  COHERIQ_KERNELS_MATH_TYPED(X, float, f32) \
  COHERIQ_KERNELS_MATH_TYPED(X, double, f64)
// Every public row: the real BLAS-1 for f32 and f64, the vector math, then the complex BLAS-1 (c32,
// c64).
#define COHERIQ_KERNELS_PUBLIC(X)              \
  COHERIQ_KERNELS_PUBLIC_TYPED(X, float, f32)  \
  COHERIQ_KERNELS_PUBLIC_TYPED(X, double, f64) \
  COHERIQ_KERNELS_MATH(X)                      \
  COHERIQ_KERNELS_COMPLEX_TYPED(X, float, c32) \
  COHERIQ_KERNELS_COMPLEX_TYPED(X, double, c64)

// ------------------------------ GEMM
// Internal candidates behind the public gemm/pack_b, which check arguments and own the memory (ISA
// code never allocates). gemm_workspace: bytes of 64-byte aligned scratch gemm needs (0 allowed);
// packed_bytes: bytes of op(B) (k x n) packed in the engine's layout; pack_b writes part `part` of
// `parts` of such a buffer (the engine chooses the cut; the parts together are the whole, and may
// be packed at the same time by different threads); gemm_packed multiplies by it; the batches run
// `batch` products of one shape, each exactly as gemm (operand i at A + i·stride_a, or A[i]),
// with gemm's workspace; gemm_plan writes, into kGemmPlanBytes at `plan`, the engine's own plan
// of a shape it runs small (unpacked, on the calling thread; false: none, the caller uses gemm),
// and gemm_planned runs a product by that plan with gemm's bits (GemmPlan); gemmt computes only
// the `uplo` triangle of an n x n matrix of elements `width` columns wide (C n x width·n; op(B)
// k x width·n; width 1: a real matrix, 2: a complex one as interleaved reals), the diagonal
// included, each column with gemm's bits for the same call, and writes nothing else (the one-term
// rank updates: src/kernels/level3.cpp), with gemmt_workspace's bytes; trmm_packed is the real
// trmm, B := alpha·op(A)·B (Left, op(A) of order m) or alpha·B·op(A) (Right, order n) in place,
// op(A) = A or Aᵀ triangular (lower when uplo == Lower for N and Upper for T; the other triangle
// and a Unit diagonal not used), every element a sum over op(A)'s triangle in k-blocks of gemm's
// (the blocked trmm: level3.cpp), with trmm_packed_workspace's bytes; symm_packed is the real
// symm, C := alpha·A·B + beta·C (Left, A of order m) or alpha·B·A + beta·C (Right, order n), A
// symmetric given by its `uplo` triangle, with gemm's bits for A written in full, with
// symm_packed_workspace's bytes. The complex GEMM runs on these real ones (BLIS's 1m method,
// src/kernels/complex_gemm.hpp): pack_b_1m packs, in pack_b's layout for 2k x 2n reals, the
// expansion of b' = alpha·op(B) (complex, k x n, B's interleaved storage with ldb counted in
// complex elements; op: N, T, C or Conj) whose rows 2l and 2l + 1 are [re b'_l0, im b'_l0, re
// b'_l1, ...] and [-s·im b'_l0, s·re b'_l0, ...], s = -1 when `conj_a` (op(A) conjugated) and 1
// otherwise, b' formed by the textbook product (alpha == 1: op(B) itself); gemm_1m multiplies by
// it, C := A'·B' + beta·C as reals (C complex m x n, ldc counted in complex elements; A' op(A) as
// reals, m x 2k, op(A) = A (N) or Aᵀ (T) of the complex A, lda counted in complex elements, its
// conjugation being pack_b_1m's conj_a), each element with gemm's bits for A' and the expansion
// written out (alpha 1), with gemm_1m_workspace's bytes (m rows of op(A), depth k); gemmt_1m is
// its `uplo` triangle of an n x n C (gemmt's, width 2), with gemm_1m_workspace's bytes for n
// rows; trmm_1m is the complex trmm (trmm_packed's, op N, T, C or Conj; A and B complex, their
// leading dimensions counted in complex elements) as one real pass on the 1m method: A' Left and
// the expansion of alpha·op(A) Right, each element's two parts sums over op(A)'s triangle in the
// k-blocks of gemm's for twice the order, with trmm_1m_workspace's bytes. All twenty-one are one
// class: on several threads, gemm is pack_b and gemm_packed (the threads share one packed op(B)),
// and the workspace fits the engine's own blocking, so they must all come from the same engine.
#define COHERIQ_KERNELS_GEMM_TYPED(X, T, S)                                                        \
  X(gemm_workspace, S, gemm_workspace<T>, touches<packed_##S>, std::size_t,                        \
    (std::size_t m, std::size_t n, std::size_t k), (m, n, k))                                      \
  X(gemm, S, gemm<T>, touches<packed_##S>, void,                                                   \
    (Trans ta, Trans tb, std::size_t m, std::size_t n, std::size_t k, T alpha, const T* A,         \
     std::size_t lda, const T* B, std::size_t ldb, T beta, T* C, std::size_t ldc, void* work),     \
    (ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc, work))                                  \
  X(packed_bytes, S, packed_bytes<T>, touches<packed_##S>, std::size_t,                            \
    (std::size_t k, std::size_t n), (k, n))                                                        \
  X(pack_b, S, pack_b<T>, touches<packed_##S>, void,                                               \
    (Trans tb, std::size_t k, std::size_t n, const T* B, std::size_t ldb, void* packed,            \
     std::size_t part, std::size_t parts),                                                         \
    (tb, k, n, B, ldb, packed, part, parts))                                                       \
  X(gemm_packed, S, gemm_packed<T>, touches<packed_##S>, void,                                     \
    (Trans ta, std::size_t m, std::size_t n, std::size_t k, T alpha, const T* A, std::size_t lda,  \
     const void* packed, T beta, T* C, std::size_t ldc),                                           \
    (ta, m, n, k, alpha, A, lda, packed, beta, C, ldc))                                            \
  X(pack_b_1m, S, pack_b_1m<T>, touches<packed_##S>, void,                                         \
    (Op op, bool conj_a, std::size_t k, std::size_t n, T alpha_re, T alpha_im, const T* B,         \
     std::size_t ldb, void* packed),                                                               \
    (op, conj_a, k, n, alpha_re, alpha_im, B, ldb, packed))                                        \
  X(gemm_1m_workspace, S, gemm_1m_workspace<T>, touches<packed_##S>, std::size_t,                  \
    (std::size_t m, std::size_t k), (m, k))                                                        \
  X(gemm_1m, S, gemm_1m<T>, touches<packed_##S>, void,                                             \
    (Trans ta, std::size_t m, std::size_t n, std::size_t k, const T* A, std::size_t lda,           \
     const void* packed, T beta, T* C, std::size_t ldc, void* work),                               \
    (ta, m, n, k, A, lda, packed, beta, C, ldc, work))                                             \
  X(gemmt_1m, S, gemmt_1m<T>, touches<packed_##S>, void,                                           \
    (Uplo uplo, Trans ta, std::size_t n, std::size_t k, const T* A, std::size_t lda,               \
     const void* packed, T beta, T* C, std::size_t ldc, void* work),                               \
    (uplo, ta, n, k, A, lda, packed, beta, C, ldc, work))                                          \
  X(gemm_batch_strided, S, gemm_batch_strided<T>, touches<packed_##S>, void,                       \
    (Trans ta, Trans tb, std::size_t m, std::size_t n, std::size_t k, T alpha, const T* A,         \
     std::size_t lda, std::size_t stride_a, const T* B, std::size_t ldb, std::size_t stride_b,     \
     T beta, T* C, std::size_t ldc, std::size_t stride_c, std::size_t batch, void* work),          \
    (ta, tb, m, n, k, alpha, A, lda, stride_a, B, ldb, stride_b, beta, C, ldc, stride_c, batch,    \
     work))                                                                                        \
  X(gemm_batch, S, gemm_batch<T>, touches<packed_##S>, void,                                       \
    (Trans ta, Trans tb, std::size_t m, std::size_t n, std::size_t k, T alpha, const T* const* A,  \
     std::size_t lda, const T* const* B, std::size_t ldb, T beta, T* const* C, std::size_t ldc,    \
     std::size_t batch, void* work),                                                               \
    (ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc, batch, work))                           \
  X(gemm_plan, S, gemm_plan<T>, touches<packed_##S>, bool,                                         \
    (Trans ta, Trans tb, std::size_t m, std::size_t n, std::size_t k, std::size_t lda,             \
     void* plan),                                                                                  \
    (ta, tb, m, n, k, lda, plan))                                                                  \
  X(gemm_planned, S, gemm_planned<T>, touches<packed_##S>, void,                                   \
    (const void* plan, std::size_t k, T alpha, const T* A, const T* B, std::size_t ldb, T beta,    \
     T* C, std::size_t ldc),                                                                       \
    (plan, k, alpha, A, B, ldb, beta, C, ldc))                                                     \
  X(gemmt_workspace, S, gemmt_workspace<T>, touches<packed_##S>, std::size_t,                      \
    (std::size_t n, std::size_t width, std::size_t k), (n, width, k))                              \
  X(gemmt, S, gemmt<T>, touches<packed_##S>, void,                                                 \
    (Uplo uplo, Trans ta, Trans tb, std::size_t n, std::size_t width, std::size_t k, T alpha,      \
     const T* A, std::size_t lda, const T* B, std::size_t ldb, T beta, T* C, std::size_t ldc,      \
     void* work),                                                                                  \
    (uplo, ta, tb, n, width, k, alpha, A, lda, B, ldb, beta, C, ldc, work))                        \
  X(trmm_packed_workspace, S, trmm_packed_workspace<T>, touches<packed_##S>, std::size_t,          \
    (Side side, std::size_t m, std::size_t n), (side, m, n))                                       \
  X(trmm_packed, S, trmm_packed<T>, touches<packed_##S>, void,                                     \
    (Side side, Uplo uplo, Trans ta, Diag diag, std::size_t m, std::size_t n, T alpha, const T* A, \
     std::size_t lda, T* B, std::size_t ldb, void* work),                                          \
    (side, uplo, ta, diag, m, n, alpha, A, lda, B, ldb, work))                                     \
  X(trmm_1m_workspace, S, trmm_1m_workspace<T>, touches<packed_##S>, std::size_t,                  \
    (Side side, std::size_t m, std::size_t n), (side, m, n))                                       \
  X(trmm_1m, S, trmm_1m<T>, touches<packed_##S>, void,                                             \
    (Side side, Uplo uplo, Op op, Diag diag, std::size_t m, std::size_t n, T alpha_re, T alpha_im, \
     const T* A, std::size_t lda, T* B, std::size_t ldb, void* work),                              \
    (side, uplo, op, diag, m, n, alpha_re, alpha_im, A, lda, B, ldb, work))                        \
  X(symm_packed_workspace, S, symm_packed_workspace<T>, touches<packed_##S>, std::size_t,          \
    (Side side, std::size_t m, std::size_t n), (side, m, n))                                       \
  X(symm_packed, S, symm_packed<T>, touches<packed_##S>, void,                                     \
    (Side side, Uplo uplo, std::size_t m, std::size_t n, T alpha, const T* A, std::size_t lda,     \
     const T* B, std::size_t ldb, T beta, T* C, std::size_t ldc, void* work),                      \
    (side, uplo, m, n, alpha, A, lda, B, ldb, beta, C, ldc, work))
#define COHERIQ_KERNELS_GEMM(X)             \
  COHERIQ_KERNELS_GEMM_TYPED(X, float, f32) \
  COHERIQ_KERNELS_GEMM_TYPED(X, double, f64)

// ------------------------------ BLAS-2
// Internal candidates behind the public gemv and ger, which check the matrix and the vectors
// (reference: src/reference/blas2.cpp; generic: src/engines/generic/blas2-inl.h). Row-major A (m
// x n, rows lda apart); a vector is (x, inc), element i at x[i·inc], x pointing at element 0.
// gemv: y := alpha·op(A)·x + beta·y, x of n elements for Trans::N (a dot per row), m for Trans::T
// (an axpy per row), incy != 0; ger: A := alpha·x·yᵀ + A, x of m elements, y of n. The reference
// BLAS's rules hold (docs/kernels.md).
#define COHERIQ_KERNELS_BLAS2_TYPED(X, T, S)                                                   \
  X(gemv, S, gemv<T>, touches<>, void,                                                         \
    (Trans op, std::size_t m, std::size_t n, T alpha, const T* A, std::size_t lda, const T* x, \
     std::ptrdiff_t incx, T beta, T* y, std::ptrdiff_t incy),                                  \
    (op, m, n, alpha, A, lda, x, incx, beta, y, incy))                                         \
  X(ger, S, ger<T>, touches<>, void,                                                           \
    (std::size_t m, std::size_t n, T alpha, const T* x, std::ptrdiff_t incx, const T* y,       \
     std::ptrdiff_t incy, T* A, std::size_t lda),                                              \
    (m, n, alpha, x, incx, y, incy, A, lda))
#define COHERIQ_KERNELS_BLAS2(X)             \
  COHERIQ_KERNELS_BLAS2_TYPED(X, float, f32) \
  COHERIQ_KERNELS_BLAS2_TYPED(X, double, f64)

// ------------------------------ BLAS-2 on Op, Uplo and Diag
// The level-2 rows of the BLAS-3 kind (below): public functions that check their arguments and
// forward (src/kernels/api.cpp), the enums of <coheriq/kernels.hpp>, a vector as gemv's (x, inc).
// Reference: src/reference/blas2.cpp (the reference BLAS's loops); generic:
// src/engines/generic/forwarded-inl.h (src/kernels/level2.cpp: the loops on the engine's dots and
// axpys, symv on its gemv).
// symv (real, f32 and f64): y := alpha·A·x + beta·y, A n x n symmetric given by its `uplo`
// triangle, incy != 0; trmv: x := op(A)·x, A n x n triangular, any Op, incx != 0; trsv: x :=
// op(A)⁻¹·x; hemv (c32, c64 over the real type T): y := alpha·op(A)·x + beta·y, A Hermitian, op
// N or Conj (conj(A), which is Aᵀ: how a column-major Hermitian matrix reads row-major).
#define COHERIQ_KERNELS_BLAS2_SYMMETRIC_TYPED(X, T, S)                           \
  X(symv, S, symv<T>, touches<>, void,                                           \
    (Uplo uplo, std::size_t n, T alpha, const T* A, std::size_t lda, const T* x, \
     std::ptrdiff_t incx, T beta, T* y, std::ptrdiff_t incy),                    \
    (uplo, n, alpha, A, lda, x, incx, beta, y, incy))
#define COHERIQ_KERNELS_BLAS2_TRIANGULAR_TYPED(X, T, S)                             \
  X(trmv, S, trmv<T>, touches<>, void,                                              \
    (Uplo uplo, Op op, Diag diag, std::size_t n, const T* A, std::size_t lda, T* x, \
     std::ptrdiff_t incx),                                                          \
    (uplo, op, diag, n, A, lda, x, incx))                                           \
  X(trsv, S, trsv<T>, touches<>, void,                                              \
    (Uplo uplo, Op op, Diag diag, std::size_t n, const T* A, std::size_t lda, T* x, \
     std::ptrdiff_t incx),                                                          \
    (uplo, op, diag, n, A, lda, x, incx))
#define COHERIQ_KERNELS_BLAS2_HERMITIAN_TYPED(X, T, S)                                     \
  X(hemv, S, hemv<T>, touches<>, void,                                                     \
    (Uplo uplo, Op op, std::size_t n, std::complex<T> alpha, const std::complex<T>* A,     \
     std::size_t lda, const std::complex<T>* x, std::ptrdiff_t incx, std::complex<T> beta, \
     std::complex<T>* y, std::ptrdiff_t incy),                                             \
    (uplo, op, n, alpha, A, lda, x, incx, beta, y, incy))
#define COHERIQ_KERNELS_BLAS2_CHECKED(X)                               \
  COHERIQ_KERNELS_BLAS2_SYMMETRIC_TYPED(X, float, f32)                 \
  COHERIQ_KERNELS_BLAS2_SYMMETRIC_TYPED(X, double, f64)                \
  COHERIQ_KERNELS_BLAS2_TRIANGULAR_TYPED(X, float, f32)                \
  COHERIQ_KERNELS_BLAS2_TRIANGULAR_TYPED(X, double, f64)               \
  COHERIQ_KERNELS_BLAS2_TRIANGULAR_TYPED(X, std::complex<float>, c32)  \
  COHERIQ_KERNELS_BLAS2_TRIANGULAR_TYPED(X, std::complex<double>, c64) \
  COHERIQ_KERNELS_BLAS2_HERMITIAN_TYPED(X, float, c32)                 \
  COHERIQ_KERNELS_BLAS2_HERMITIAN_TYPED(X, double, c64)

// ------------------------------ BLAS-3
// The level-3 BLAS and complex GEMM, public functions that check their arguments and forward
// (src/kernels/api.cpp). Row-major operands as stored, with leading dimensions; op (Op) says how
// a matrix enters: N, T, C (conjugate-transposed; T for real data) or Conj. A triangular,
// symmetric or Hermitian matrix is the `uplo` triangle of its rows; Unit diagonals are not read.
// The reference BLAS's rules hold (alpha == 0 reads neither A nor B, beta == 0 does not read C,
// a Hermitian diagonal is real; docs/kernels.md). Reference: src/reference/blas3.cpp (the
// reference BLAS's loops); generic: src/engines/generic/forwarded-inl.h (the blocked forms of
// src/kernels/level3.cpp, on the engine's GEMM and vector kernels).
//
// Over the element type T: float/f32, double/f64, std::complex<float>/c32 and
// std::complex<double>/c64. trsm: B := alpha·op(A)⁻¹·B (Left) or alpha·B·op(A)⁻¹ (Right), B m x
// n, A of the order of its side; trmm: the same with op(A); syrk: C := alpha·op(A)·op(A)ᵀ +
// beta·C on C's `uplo` triangle, op(A) n x k, op N or T; syr2k: alpha·(op(A)·op(B)ᵀ +
// op(B)·op(A)ᵀ) + beta·C; symm: C := alpha·A·B + beta·C (Left) or alpha·B·A + beta·C (Right), A
// symmetric, B and C m x n.
#define COHERIQ_KERNELS_BLAS3_TYPED(X, T, S)                                                       \
  X(trsm, S, trsm<T>, touches<>, void,                                                             \
    (Side side, Uplo uplo, Op op, Diag diag, std::size_t m, std::size_t n, T alpha, const T* A,    \
     std::size_t lda, T* B, std::size_t ldb),                                                      \
    (side, uplo, op, diag, m, n, alpha, A, lda, B, ldb))                                           \
  X(trmm, S, trmm<T>, touches<>, void,                                                             \
    (Side side, Uplo uplo, Op op, Diag diag, std::size_t m, std::size_t n, T alpha, const T* A,    \
     std::size_t lda, T* B, std::size_t ldb),                                                      \
    (side, uplo, op, diag, m, n, alpha, A, lda, B, ldb))                                           \
  X(syrk, S, syrk<T>, touches<>, void,                                                             \
    (Uplo uplo, Op op, std::size_t n, std::size_t k, T alpha, const T* A, std::size_t lda, T beta, \
     T* C, std::size_t ldc),                                                                       \
    (uplo, op, n, k, alpha, A, lda, beta, C, ldc))                                                 \
  X(syr2k, S, syr2k<T>, touches<>, void,                                                           \
    (Uplo uplo, Op op, std::size_t n, std::size_t k, T alpha, const T* A, std::size_t lda,         \
     const T* B, std::size_t ldb, T beta, T* C, std::size_t ldc),                                  \
    (uplo, op, n, k, alpha, A, lda, B, ldb, beta, C, ldc))                                         \
  X(symm, S, symm<T>, touches<>, void,                                                             \
    (Side side, Uplo uplo, std::size_t m, std::size_t n, T alpha, const T* A, std::size_t lda,     \
     const T* B, std::size_t ldb, T beta, T* C, std::size_t ldc),                                  \
    (side, uplo, m, n, alpha, A, lda, B, ldb, beta, C, ldc))
// Complex only, S = c32 or c64 over the real type T (as the complex BLAS-1): gemm, C :=
// alpha·op(A)·op(B) + beta·C (an overload of the real GEMM's gemm<T>); hemm, symm with A Hermitian;
// herk, C := alpha·op(A)·op(A)ᴴ + beta·C with real alpha and beta, op N or C; her2k,
// alpha·op(A)·op(B)ᴴ + conj(alpha)·op(B)·op(A)ᴴ + beta·C.
#define COHERIQ_KERNELS_BLAS3_COMPLEX_TYPED(X, T, S)                                               \
  X(gemm, S, gemm<T>, touches<>, void,                                                             \
    (Op opa, Op opb, std::size_t m, std::size_t n, std::size_t k, std::complex<T> alpha,           \
     const std::complex<T>* A, std::size_t lda, const std::complex<T>* B, std::size_t ldb,         \
     std::complex<T> beta, std::complex<T>* C, std::size_t ldc),                                   \
    (opa, opb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc))                                      \
  X(hemm, S, hemm<T>, touches<>, void,                                                             \
    (Side side, Uplo uplo, std::size_t m, std::size_t n, std::complex<T> alpha,                    \
     const std::complex<T>* A, std::size_t lda, const std::complex<T>* B, std::size_t ldb,         \
     std::complex<T> beta, std::complex<T>* C, std::size_t ldc),                                   \
    (side, uplo, m, n, alpha, A, lda, B, ldb, beta, C, ldc))                                       \
  X(herk, S, herk<T>, touches<>, void,                                                             \
    (Uplo uplo, Op op, std::size_t n, std::size_t k, T alpha, const std::complex<T>* A,            \
     std::size_t lda, T beta, std::complex<T>* C, std::size_t ldc),                                \
    (uplo, op, n, k, alpha, A, lda, beta, C, ldc))                                                 \
  X(her2k, S, her2k<T>, touches<>, void,                                                           \
    (Uplo uplo, Op op, std::size_t n, std::size_t k, std::complex<T> alpha,                        \
     const std::complex<T>* A, std::size_t lda, const std::complex<T>* B, std::size_t ldb, T beta, \
     std::complex<T>* C, std::size_t ldc),                                                         \
    (uplo, op, n, k, alpha, A, lda, B, ldb, beta, C, ldc))
#define COHERIQ_KERNELS_BLAS3(X)                            \
  COHERIQ_KERNELS_BLAS3_TYPED(X, float, f32)                \
  COHERIQ_KERNELS_BLAS3_TYPED(X, double, f64)               \
  COHERIQ_KERNELS_BLAS3_TYPED(X, std::complex<float>, c32)  \
  COHERIQ_KERNELS_BLAS3_TYPED(X, std::complex<double>, c64) \
  COHERIQ_KERNELS_BLAS3_COMPLEX_TYPED(X, float, c32)        \
  COHERIQ_KERNELS_BLAS3_COMPLEX_TYPED(X, double, c64)

// ------------------------------ BLAS-3 base blocks
// Internal candidates that the blocked level 3 (src/kernels/level3.cpp) runs on its diagonal
// blocks, real types only (reference: src/reference/blas3.cpp; generic:
// src/engines/generic/blas3-inl.h). trsm_rows: B (m x n, rows ldb apart) := alpha·op(A)⁻¹·B, op(A)
// (m x m, op(A) = A for Trans::N, Aᵀ for Trans::T) triangular, lower when uplo == Lower for N and
// Upper for T, in the row form with its order fixed element by element, so that every engine
// writes the same bits: the rows of B in the order they are solved (first to last when op(A) is
// lower, last to first when upper), each b_i := alpha·b_i (a rounded product; skipped when alpha ==
// 1), then b_i := fma(-t, b_l, b_i) for the rows l already solved, in ascending l, skipping t =
// op(A)(i, l) == 0, then b_i := b_i / op(A)(i, i) unless diag is Unit (whose diagonal is not read).
#define COHERIQ_KERNELS_BLAS3_BLOCKS_TYPED(X, T, S)                                     \
  X(trsm_rows, S, trsm_rows<T>, touches<>, void,                                        \
    (Uplo uplo, Trans ta, Diag diag, std::size_t m, std::size_t n, T alpha, const T* A, \
     std::size_t lda, T* B, std::size_t ldb),                                           \
    (uplo, ta, diag, m, n, alpha, A, lda, B, ldb))
#define COHERIQ_KERNELS_BLAS3_BLOCKS(X)             \
  COHERIQ_KERNELS_BLAS3_BLOCKS_TYPED(X, float, f32) \
  COHERIQ_KERNELS_BLAS3_BLOCKS_TYPED(X, double, f64)

// ------------------------------ Reduced precision (machine-specific kernels)
// S names the element types. The public functions (dot_u8s8, gemm_u8s8s32, dot_bf16, gemm_bf16)
// are written in src/kernels/api.cpp; the GEMMs get a workspace as gemm does, sized by their
// gemm_workspace row.
#define COHERIQ_KERNELS_REDUCED(X)                                                                 \
  X(dot, u8s8, dot_u8s8, touches<>, std::int32_t,                                                  \
    (std::size_t n, const std::uint8_t* x, const std::int8_t* y), (n, x, y))                       \
  X(gemm_workspace, u8s8s32, gemm_workspace_u8s8s32, touches<packed_u8s8>, std::size_t,            \
    (std::size_t m, std::size_t n, std::size_t k), (m, n, k))                                      \
  X(gemm, u8s8s32, gemm_u8s8s32, touches<packed_u8s8>, void,                                       \
    (std::size_t m, std::size_t n, std::size_t k, const std::uint8_t* A, std::size_t lda,          \
     const std::int8_t* B, std::size_t ldb, std::int32_t* C, std::size_t ldc, void* work),         \
    (m, n, k, A, lda, B, ldb, C, ldc, work))                                                       \
  X(dot, bf16, dot_bf16, touches<>, float, (std::size_t n, const bfloat16* x, const bfloat16* y),  \
    (n, x, y))                                                                                     \
  X(gemm_workspace, bf16, gemm_workspace_bf16, touches<packed_bf16>, std::size_t,                  \
    (std::size_t m, std::size_t n, std::size_t k), (m, n, k))                                      \
  X(gemm, bf16, gemm_bf16, touches<packed_bf16>, void,                                             \
    (std::size_t m, std::size_t n, std::size_t k, float alpha, const bfloat16* A, std::size_t lda, \
     const bfloat16* B, std::size_t ldb, float beta, float* C, std::size_t ldc, void* work),       \
    (m, n, k, alpha, A, lda, B, ldb, beta, C, ldc, work))

// Every row: the candidate list, in the domain's order.
#define COHERIQ_KERNELS_CANDIDATES(X) \
  COHERIQ_KERNELS_PUBLIC(X)           \
  COHERIQ_KERNELS_GEMM(X)             \
  COHERIQ_KERNELS_REDUCED(X)          \
  COHERIQ_KERNELS_BLAS2(X)            \
  COHERIQ_KERNELS_BLAS2_CHECKED(X)    \
  COHERIQ_KERNELS_BLAS3(X)            \
  COHERIQ_KERNELS_BLAS3_BLOCKS(X)

// The same rows by how their implementations are declared: the typed families (templates over T,
// impl = op<T>), with T and S as given, and the others (impl a function of its own).
#define COHERIQ_KERNELS_TYPED(X, T, S)            \
  COHERIQ_KERNELS_PUBLIC_TYPED(X, T, S)           \
  COHERIQ_KERNELS_COMPLEX_TYPED(X, T, S)          \
  COHERIQ_KERNELS_MATH_TYPED(X, T, S)             \
  COHERIQ_KERNELS_GEMM_TYPED(X, T, S)             \
  COHERIQ_KERNELS_BLAS2_TYPED(X, T, S)            \
  COHERIQ_KERNELS_BLAS2_SYMMETRIC_TYPED(X, T, S)  \
  COHERIQ_KERNELS_BLAS2_TRIANGULAR_TYPED(X, T, S) \
  COHERIQ_KERNELS_BLAS2_HERMITIAN_TYPED(X, T, S)  \
  COHERIQ_KERNELS_BLAS3_TYPED(X, T, S)            \
  COHERIQ_KERNELS_BLAS3_COMPLEX_TYPED(X, T, S)    \
  COHERIQ_KERNELS_BLAS3_BLOCKS_TYPED(X, T, S)
#define COHERIQ_KERNELS_UNTYPED(X) COHERIQ_KERNELS_REDUCED(X)
