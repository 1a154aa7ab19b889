// The kernels domain for engine authors: its candidate classes and candidate functions.
//
// Baseline code, types only. Engines (built-in or plugins) include this to name what they
// override; the signature of each tag is the contract an override must match (a mismatch does
// not compile). Internal candidates differ from the public API where the engine needs baseline
// help: gemm gets a workspace sized by gemm_workspace (ISA code never allocates), and packing is
// split into packed_bytes + pack_b so the baseline owns PackedMatrix's memory.
#pragma once

#include <coheriq/domain.hpp>
#include <coheriq/kernels.hpp>

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace coheriq::kernels {

namespace cand {

using coheriq::candidate;
using coheriq::touches;

// ------------------------------ Candidate classes
struct packed_f32 : coheriq::candidate_class {
  static constexpr std::string_view name = "PackedMatrix<float>";
};
struct packed_f64 : coheriq::candidate_class {
  static constexpr std::string_view name = "PackedMatrix<double>";
};
// The packed B of the reduced-precision GEMMs: built in the workspace of one call (no public
// object holds it), in whatever groups the engine's instructions read (VNNI: 4 bytes of k per
// column; bf16 dot products: pairs). The workspace size and the GEMM touch it, so the coherence
// rule keeps both from one engine.
struct packed_u8s8 : coheriq::candidate_class {
  static constexpr std::string_view name = "gemm_u8s8s32 packed B";
};
struct packed_bf16 : coheriq::candidate_class {
  static constexpr std::string_view name = "gemm_bf16 packed B";
};

// ------------------------------ The candidate list
// Every candidate function of the domain, listed once; the tags below, Domain::candidates, the
// reference table, the generic engines' table and the public forwarders are expanded from it.
// A row is X(op, S, impl, touches, R, params, args): the candidate cand::op_S, named "op.S"
// (S = f32 or f64), implemented by `impl` in the reference engine and in the generic kernels
// (the same name in both), touching the candidate classes in `touches`, with signature R params
// (`args` are the parameter names, for forwarding).

// Public kernels: the public function `op` forwards its arguments unchanged.
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
// highest address when incx < 0).
#define COHERIQ_KERNELS_STRIDED_TYPED(X, T, S)                                         \
  X(dot_strided, S, dot_strided<T>, touches<>, T,                                      \
    (std::size_t n, const T* x, std::ptrdiff_t incx, const T* y, std::ptrdiff_t incy), \
    (n, x, incx, y, incy))                                                             \
  X(axpy_strided, S, axpy_strided<T>, touches<>, void,                                 \
    (std::size_t n, T a, const T* x, std::ptrdiff_t incx, T* y, std::ptrdiff_t incy),  \
    (n, a, x, incx, y, incy))                                                          \
  X(scal_strided, S, scal_strided<T>, touches<>, void,                                 \
    (std::size_t n, T a, T * x, std::ptrdiff_t incx), (n, a, x, incx))                 \
  X(asum_strided, S, asum_strided<T>, touches<>, T,                                    \
    (std::size_t n, const T* x, std::ptrdiff_t incx), (n, x, incx))                    \
  X(nrm2_strided, S, nrm2_strided<T>, touches<>, T,                                    \
    (std::size_t n, const T* x, std::ptrdiff_t incx), (n, x, incx))                    \
  X(iamax_strided, S, iamax_strided<T>, touches<>, std::size_t,                        \
    (std::size_t n, const T* x, std::ptrdiff_t incx), (n, x, incx))
#define COHERIQ_KERNELS_PUBLIC(X)              \
  COHERIQ_KERNELS_PUBLIC_TYPED(X, float, f32)  \
  COHERIQ_KERNELS_PUBLIC_TYPED(X, double, f64) \
  COHERIQ_KERNELS_MATH(X)

// Vector math (docs/kernels.md): each function one algorithm (src/math) that the reference and
// the generic kernels share. A function of one array, y[i] = f(x[i]) (softmax: of all of x), is
// one COHERIQ_KERNELS_UNARY(op, ...) line: the row `op` with signature
// void (std::size_t n, const T* x, T* y), implemented by op<T>. The C API names it
// coheriq_vs<op> / coheriq_vd<op>. A function of two arrays, z[i] = f(a[i], b[i]) with the
// arguments in C's order and named as C names them (pow(x, y), atan2(y, x)), is one
// COHERIQ_KERNELS_BINARY line; the C API's messages use these names.
#define COHERIQ_KERNELS_UNARY(op, X, T, S) \
  X(op, S, op<T>, touches<>, void, (std::size_t n, const T* x, T* y), (n, x, y))
#define COHERIQ_KERNELS_BINARY(op, a, b, X, T, S) \
  X(op, S, op<T>, touches<>, void, (std::size_t n, const T* a, const T* b, T* z), (n, a, b, z))
#define COHERIQ_KERNELS_MATH_TYPED(X, T, S)  \
  COHERIQ_KERNELS_UNARY(exp, X, T, S)        \
  COHERIQ_KERNELS_UNARY(exp2, X, T, S)       \
  COHERIQ_KERNELS_UNARY(expm1, X, T, S)      \
  COHERIQ_KERNELS_UNARY(log, X, T, S)        \
  COHERIQ_KERNELS_UNARY(log2, X, T, S)       \
  COHERIQ_KERNELS_UNARY(log10, X, T, S)      \
  COHERIQ_KERNELS_UNARY(log1p, X, T, S)      \
  COHERIQ_KERNELS_UNARY(sqrt, X, T, S)       \
  COHERIQ_KERNELS_UNARY(cbrt, X, T, S)       \
  COHERIQ_KERNELS_BINARY(pow, x, y, X, T, S) \
  COHERIQ_KERNELS_UNARY(sin, X, T, S)        \
  COHERIQ_KERNELS_UNARY(cos, X, T, S)        \
  COHERIQ_KERNELS_UNARY(tan, X, T, S)        \
  COHERIQ_KERNELS_UNARY(asin, X, T, S)       \
  COHERIQ_KERNELS_UNARY(acos, X, T, S)       \
  COHERIQ_KERNELS_UNARY(atan, X, T, S)       \
  COHERIQ_KERNELS_BINARY(atan2, y, x, X, T, S)
#define COHERIQ_KERNELS_MATH(X)                 \
  COHERIQ_KERNELS_MATH_TYPED(X, float, f32)     \
  COHERIQ_KERNELS_MATH_TYPED(X, double, f64)    \
  COHERIQ_KERNELS_UNARY(tanh, X, float, f32)    \
  COHERIQ_KERNELS_UNARY(sigmoid, X, float, f32) \
  COHERIQ_KERNELS_UNARY(softmax, X, float, f32)

// GEMM: internal candidates behind the public gemm/pack_b, which check arguments and own the
// memory (ISA code never allocates). gemm_workspace: bytes of 64-byte aligned scratch gemm needs
// (0 allowed); packed_bytes: bytes of op(B) (k x n) packed in the engine's
// layout; pack_b writes part `part` of `parts` of such a buffer (the engine chooses the cut; the
// parts together are the whole, and may be packed at the same time by different threads);
// gemm_packed multiplies by it. All five are one class: on several threads, gemm is pack_b
// and gemm_packed (the threads share one packed op(B)), and the workspace fits the engine's own
// blocking, so they must all come from the same engine.
#define COHERIQ_KERNELS_GEMM_TYPED(X, T, S)                                                       \
  X(gemm_workspace, S, gemm_workspace<T>, touches<packed_##S>, std::size_t,                       \
    (std::size_t m, std::size_t n, std::size_t k), (m, n, k))                                     \
  X(gemm, S, gemm<T>, touches<packed_##S>, void,                                                  \
    (Trans ta, Trans tb, std::size_t m, std::size_t n, std::size_t k, T alpha, const T* A,        \
     std::size_t lda, const T* B, std::size_t ldb, T beta, T* C, std::size_t ldc, void* work),    \
    (ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc, work))                                 \
  X(packed_bytes, S, packed_bytes<T>, touches<packed_##S>, std::size_t,                           \
    (std::size_t k, std::size_t n), (k, n))                                                       \
  X(pack_b, S, pack_b<T>, touches<packed_##S>, void,                                              \
    (Trans tb, std::size_t k, std::size_t n, const T* B, std::size_t ldb, void* packed,           \
     std::size_t part, std::size_t parts),                                                        \
    (tb, k, n, B, ldb, packed, part, parts))                                                      \
  X(gemm_packed, S, gemm_packed<T>, touches<packed_##S>, void,                                    \
    (Trans ta, std::size_t m, std::size_t n, std::size_t k, T alpha, const T* A, std::size_t lda, \
     const void* packed, T beta, T* C, std::size_t ldc),                                          \
    (ta, m, n, k, alpha, A, lda, packed, beta, C, ldc))
#define COHERIQ_KERNELS_GEMM(X)             \
  COHERIQ_KERNELS_GEMM_TYPED(X, float, f32) \
  COHERIQ_KERNELS_GEMM_TYPED(X, double, f64)

// Reduced precision (machine-specific kernels): S names the element types. The public functions
// (dot_u8s8, gemm_u8s8s32, dot_bf16, gemm_bf16) are written in src/kernels/api.cpp; the GEMMs
// get a workspace as gemm does, sized by their gemm_workspace row.
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

#define COHERIQ_KERNELS_CANDIDATES(X) \
  COHERIQ_KERNELS_PUBLIC(X) COHERIQ_KERNELS_GEMM(X) COHERIQ_KERNELS_REDUCED(X)

// ------------------------------ Candidate tags
#define COHERIQ_KERNELS_TAG(op, S, impl, touched, R, params, args) \
  struct op##_##S : candidate<R params, touched> {                 \
    static constexpr std::string_view name = #op "." #S;           \
  };
COHERIQ_KERNELS_CANDIDATES(COHERIQ_KERNELS_TAG)
#undef COHERIQ_KERNELS_TAG

}  // namespace cand

// The domain, as coheriq sees it.
struct Domain {
  static constexpr std::string_view name = domain_name;
  static constexpr std::string_view env_var = "COHERIQ_ENGINE";
  static constexpr std::string_view abi = "coheriq.kernels/2";
  using classes =
      coheriq::list<cand::packed_f32, cand::packed_f64, cand::packed_u8s8, cand::packed_bf16>;
#define COHERIQ_KERNELS_TAG_NAME(op, S, impl, touched, R, params, args) , cand::op##_##S
  using candidates =
      coheriq::list_tail<coheriq::list<void COHERIQ_KERNELS_CANDIDATES(COHERIQ_KERNELS_TAG_NAME)>>;
#undef COHERIQ_KERNELS_TAG_NAME
  static const coheriq::OverrideTable& reference();           // src/reference
  static std::vector<coheriq::EngineSpec> builtin_engines();  // the generated registry
  // COHERIQ_NUM_THREADS, checked at the first use (src/kernels/threads.cpp).
  static void check_settings();
};

}  // namespace coheriq::kernels
