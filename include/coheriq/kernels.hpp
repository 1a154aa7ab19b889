// Coheriq kernels: BLAS-1, vector math, BLAS-2, GEMM and BLAS-3, dispatched to the engine in
// effect.
//
// Every function is an ordinary C++ function; which engine runs it is settled once per process
// (coheriq::kernels::enable_engine, or COHERIQ_ENGINE) at the first call. Sizes are std::size_t,
// data is contiguous (except in the _strided kernels), pointers need no alignment, n == 0 is valid
// with any pointers. Elementwise kernels allow y == x; other overlaps are undefined. Bounds:
// docs/kernels.md.
#pragma once

#include <complex>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include <coheriq/kernels_table.hpp>

namespace coheriq::kernels {

// Not `inline`: a constant of each translation unit, which no binary exports (docs/decisions.md).
constexpr std::string_view domain_name = "coheriq.kernels";

// = coheriq::enable_engine(domain_name, engine): a name, "auto" or a list, as COHERIQ_ENGINE
void enable_engine(std::string_view engine);
// = coheriq::active_engine(domain_name)
std::string active_engine();
// = coheriq::enable_reproducible(domain_name), as COHERIQ_REPRODUCIBLE=1: before the first use,
// every kernel turns to its canonical order of operations, the same on every engine that honours
// the mode, so that results are bitwise the same on every machine and thread count (docs/api.md,
// "The reproducible mode").
void enable_reproducible();
// = coheriq::reproducible(domain_name)
bool reproducible();

// ------------------------------ Threads
// The threads kernels may use (GEMM; results never depend on the count), at most 4096. 0 restores
// the default: COHERIQ_NUM_THREADS when set (an integer from 1 to 4096), else the CPUs of the
// process's affinity mask. Allowed before and after the first use; set_num_threads throws
// std::invalid_argument above 4096. A malformed COHERIQ_NUM_THREADS fails the domain's first use
// (nothing locks), and num_threads() throws coheriq::Error for it when no count was set
// explicitly.
void set_num_threads(std::size_t n);
std::size_t num_threads();

enum class Trans { N, T };

// The arguments of the BLAS-3 functions (below), as the BLAS names them. Op: how a matrix enters
// a product, as stored (N), transposed (T), conjugate-transposed (C) or conjugated (Conj,
// CBLAS's CblasConjNoTrans); for real data C is T and Conj is N.
enum class Op : unsigned char { N, T, C, Conj };
enum class Uplo : unsigned char { Upper, Lower };
enum class Side : unsigned char { Left, Right };
enum class Diag : unsigned char { NonUnit, Unit };

// ------------------------------ BLAS-1, strided BLAS-1, vector math
// One function per public row of the kernels' table, coheriq/kernels_table.hpp, which gives its
// signature (`X(dot, S, dot<T>, touches<>, T, (std::size_t n, const T* x, const T* y), ...)` is
// `float dot(std::size_t n, const float* x, const float* y)` and its double overload). What each
// computes, its bounds and special values: docs/kernels.md (the _strided siblings take any
// increment, 0 and negative included, x pointing at element 0; the vector math allows y == x, and
// its functions of two arrays take them in C's order: pow(n, x, y, z), atan2(n, y, x, z)). The
// complex rows (dotu_strided, dotc_strided, axpy_strided, axpyc_strided over std::complex<float>
// and std::complex<double>) are overloads of the same kind, counted in complex elements.
#define COHERIQ_KERNELS_DECLARE(op, S, impl, touched, R, params, args) R op params;
COHERIQ_KERNELS_PUBLIC(COHERIQ_KERNELS_DECLARE)
#undef COHERIQ_KERNELS_DECLARE

// ------------------------------ GEMM
// Row-major C = alpha * op(A) * op(B) + beta * C, op(A) is m x k, op(B) is k x n.
// beta == 0 ignores C's old contents. Throws std::invalid_argument naming a leading dimension
// smaller than its row.
void gemm(Trans ta, Trans tb, std::size_t m, std::size_t n, std::size_t k, float alpha,
          const float* A, std::size_t lda, const float* B, std::size_t ldb, float beta, float* C,
          std::size_t ldc);
void gemm(Trans ta, Trans tb, std::size_t m, std::size_t n, std::size_t k, double alpha,
          const double* A, std::size_t lda, const double* B, std::size_t ldb, double beta,
          double* C, std::size_t ldc);

// ------------------------------ Small and batched GEMM
// Small products need nothing of their own: gemm runs them without packing below sizes the
// engine chooses (its tuning record), with no heap allocation.
//
// `batch` products C_i = alpha·op(A_i)·op(B_i) + beta·C_i of one shape, as gemm computes each
// (the same bits as `batch` gemm calls, for any thread count), on the thread pool across the
// batch. Strided: A_i = A + i·stride_a (elements), and so B_i and C_i; a stride of 0 reuses one
// operand (A or B; C's stride must keep the C_i apart). Pointer arrays: A_i = A[i], and so on.
// The C_i must not overlap each other or any A_i or B_i. Throws std::invalid_argument as gemm,
// and for a C stride that makes two C_i overlap.
void gemm_batch_strided(Trans ta, Trans tb, std::size_t m, std::size_t n, std::size_t k,
                        float alpha, const float* A, std::size_t lda, std::size_t stride_a,
                        const float* B, std::size_t ldb, std::size_t stride_b, float beta, float* C,
                        std::size_t ldc, std::size_t stride_c, std::size_t batch);
void gemm_batch_strided(Trans ta, Trans tb, std::size_t m, std::size_t n, std::size_t k,
                        double alpha, const double* A, std::size_t lda, std::size_t stride_a,
                        const double* B, std::size_t ldb, std::size_t stride_b, double beta,
                        double* C, std::size_t ldc, std::size_t stride_c, std::size_t batch);
void gemm_batch(Trans ta, Trans tb, std::size_t m, std::size_t n, std::size_t k, float alpha,
                const float* const* A, std::size_t lda, const float* const* B, std::size_t ldb,
                float beta, float* const* C, std::size_t ldc, std::size_t batch);
void gemm_batch(Trans ta, Trans tb, std::size_t m, std::size_t n, std::size_t k, double alpha,
                const double* const* A, std::size_t lda, const double* const* B, std::size_t ldb,
                double beta, double* const* C, std::size_t ldc, std::size_t batch);

// The bytes a GemmPlan keeps for the engine's own plan of its shape (the gemm_plan candidate).
inline constexpr std::size_t kGemmPlanBytes = 192;

// One shape of gemm, checked and resolved once, for a caller that multiplies it many times (as
// LIBXSMM's dispatched kernels): calling the plan runs the engine's GEMM with no argument check
// and no dispatch. Constructing one is a first use of the domain (it locks the engine) and
// throws as gemm for arguments gemm would refuse. The call gives the same bits as gemm.
template <class T>
class GemmPlan final {
 public:
  GemmPlan(Trans ta, Trans tb, std::size_t m, std::size_t n, std::size_t k, T alpha,
           std::size_t lda, std::size_t ldb, T beta, std::size_t ldc);

  // C = alpha·op(A)·op(B) + beta·C with the plan's shape.
  void operator()(const T* A, const T* B, T* C) const;

 private:
  using Kernel = void (*)(Trans, Trans, std::size_t, std::size_t, std::size_t, T, const T*,
                          std::size_t, const T*, std::size_t, T, T*, std::size_t, void*);
  using Planned = void (*)(const void*, std::size_t, T, const T*, const T*, std::size_t, T, T*,
                           std::size_t);
  Kernel kernel_;    // the engine's gemm
  Planned planned_;  // the engine's gemm_planned, when it made a plan of the shape (else null)
  bool small_;       // the engine runs this shape without a workspace (its small path)
  Trans ta_, tb_;
  std::size_t m_, n_, k_;
  T alpha_, beta_;
  std::size_t lda_, ldb_, ldc_;
  alignas(16) unsigned char engine_plan_[kGemmPlanBytes];
};

// op(B) (k x n) packed once in the layout of the engine in effect, for repeated products.
// A candidate class: constructing one is a first use of the domain. Its representation is
// opaque and owned by the engine that packed it.
template <class T>
class PackedMatrix final {
 public:
  PackedMatrix(PackedMatrix&& other) noexcept;
  PackedMatrix& operator=(PackedMatrix&& other) noexcept;
  PackedMatrix(const PackedMatrix&) = delete;
  PackedMatrix& operator=(const PackedMatrix&) = delete;
  ~PackedMatrix();

  std::size_t rows() const noexcept { return rows_; }  // k
  std::size_t cols() const noexcept { return cols_; }  // n
  std::size_t bytes() const noexcept { return bytes_; }
  std::string_view engine() const noexcept { return engine_; }

 private:
  PackedMatrix(std::size_t rows, std::size_t cols, std::size_t bytes);
  const void* data() const noexcept { return data_; }
  void* data() noexcept { return data_; }

  std::size_t rows_ = 0;
  std::size_t cols_ = 0;
  std::size_t bytes_ = 0;
  void* data_ = nullptr;  // 64-byte aligned, `bytes_` long, in the engine's layout
  std::string engine_;

  template <class U>
  friend struct PackedAccess;
};

PackedMatrix<float> pack_b(Trans tb, std::size_t k, std::size_t n, const float* B, std::size_t ldb);
PackedMatrix<double> pack_b(Trans tb, std::size_t k, std::size_t n, const double* B,
                            std::size_t ldb);

// As gemm, with op(B) packed by pack_b. Throws std::invalid_argument when k or n disagree with B.
void gemm(Trans ta, std::size_t m, std::size_t n, std::size_t k, float alpha, const float* A,
          std::size_t lda, const PackedMatrix<float>& B, float beta, float* C, std::size_t ldc);
void gemm(Trans ta, std::size_t m, std::size_t n, std::size_t k, double alpha, const double* A,
          std::size_t lda, const PackedMatrix<double>& B, double beta, double* C, std::size_t ldc);

// ------------------------------ BLAS-2
// Row-major A (m x n, rows lda apart, lda >= n); a vector is (x, inc), element i at x[i·inc] for
// any increment (0 and negative included; x points at element 0, the highest address when
// inc < 0). The reference BLAS's rules hold: alpha == 0 reads neither A nor the vectors, beta == 0
// does not read y. Throws std::invalid_argument naming an argument that cannot be right (lda < n,
// incy == 0 for gemv, an array larger than memory). docs/kernels.md.
//
// y := alpha·op(A)·x + beta·y: x has n elements and y m for Trans::N, x m and y n for Trans::T;
// m == 0 or n == 0 leaves y untouched.
void gemv(Trans op, std::size_t m, std::size_t n, float alpha, const float* A, std::size_t lda,
          const float* x, std::ptrdiff_t incx, float beta, float* y, std::ptrdiff_t incy);
void gemv(Trans op, std::size_t m, std::size_t n, double alpha, const double* A, std::size_t lda,
          const double* x, std::ptrdiff_t incx, double beta, double* y, std::ptrdiff_t incy);
// A := alpha·x·yᵀ + A, x of m elements, y of n; a row whose x_i is 0 is not touched (nor is y read
// for it), as in the reference BLAS.
void ger(std::size_t m, std::size_t n, float alpha, const float* x, std::ptrdiff_t incx,
         const float* y, std::ptrdiff_t incy, float* A, std::size_t lda);
void ger(std::size_t m, std::size_t n, double alpha, const double* x, std::ptrdiff_t incx,
         const double* y, std::ptrdiff_t incy, double* A, std::size_t lda);

// symv, trmv, trsv (the four types for the triangular ones) and hemv: one function per row of
// COHERIQ_KERNELS_BLAS2_CHECKED in coheriq/kernels_table.hpp, which says what each computes, with
// the enums of the BLAS-3 functions below and vectors as gemv's; checks and special values:
// docs/kernels.md.
#define COHERIQ_KERNELS_DECLARE(op, S, impl, touched, R, params, args) R op params;
COHERIQ_KERNELS_BLAS2_CHECKED(COHERIQ_KERNELS_DECLARE)
#undef COHERIQ_KERNELS_DECLARE

// ------------------------------ BLAS-3
// One function per row of COHERIQ_KERNELS_BLAS3 in coheriq/kernels_table.hpp, which says what
// each computes: trsm, trmm, syrk, syr2k and symm over float, double, std::complex<float> and
// std::complex<double>; gemm (taking Op), hemm, herk and her2k over the complex types.
// Row-major, the reference BLAS's rules and zero skips; the Op each routine takes, and the checks
// (a leading dimension smaller than its row, a matrix larger than memory: std::invalid_argument):
// docs/kernels.md. Results are the same for every thread count.
#define COHERIQ_KERNELS_DECLARE(op, S, impl, touched, R, params, args) R op params;
COHERIQ_KERNELS_BLAS3(COHERIQ_KERNELS_DECLARE)
#undef COHERIQ_KERNELS_DECLARE

// ------------------------------ Reduced precision (machine-specific kernels)
// 16-bit storage for bfloat16 (the upper half of an IEEE f32). Construction from float rounds to
// nearest even (NaN stays a quiet NaN with its sign); conversion back to float is exact.
class bfloat16 {
 public:
  bfloat16() = default;
  explicit bfloat16(float value) noexcept : bits_(round(value)) {}
  explicit operator float() const noexcept {
    const std::uint32_t wide = std::uint32_t{bits_} << 16;
    float out;
    std::memcpy(&out, &wide, sizeof out);
    return out;
  }
  static bfloat16 from_bits(std::uint16_t bits) noexcept {
    bfloat16 b;
    b.bits_ = bits;
    return b;
  }
  std::uint16_t bits() const noexcept { return bits_; }

 private:
  static std::uint16_t round(float value) noexcept {
    std::uint32_t wide;
    std::memcpy(&wide, &value, sizeof wide);
    if ((wide & 0x7fffffffu) > 0x7f800000u) {  // NaN: keep sign and top payload, force quiet
      return static_cast<std::uint16_t>((wide >> 16) | 0x0040u);
    }
    // Round to nearest, ties to even; a carry into the exponent is correct (up to +-Inf).
    const std::uint32_t bias = 0x7fffu + ((wide >> 16) & 1u);
    return static_cast<std::uint16_t>((wide + bias) >> 16);
  }
  std::uint16_t bits_ = 0;
};
static_assert(sizeof(bfloat16) == 2);

// Σ x·y, exact in int32 arithmetic: the true sum whenever n <= 65793 (|x·y| <= 255·128, so no
// partial sum leaves int32); beyond that the sum wraps modulo 2^32 (never saturates).
std::int32_t dot_u8s8(std::size_t n, const std::uint8_t* x, const std::int8_t* y);
// Row-major C (m x n, int32) = A (m x k, uint8) · B (k x n, int8), exact as dot_u8s8 (k <= 65793).
void gemm_u8s8s32(std::size_t m, std::size_t n, std::size_t k, const std::uint8_t* A,
                  std::size_t lda, const std::int8_t* B, std::size_t ldb, std::int32_t* C,
                  std::size_t ldc);
// Σ x·y of bfloat16 inputs, accumulated in f32 (bf16 products are exact in f32).
float dot_bf16(std::size_t n, const bfloat16* x, const bfloat16* y);
// Row-major C = alpha·A·B + beta·C, A m x k and B k x n in bfloat16, C in f32, f32 accumulation;
// beta == 0 ignores C's old contents.
void gemm_bf16(std::size_t m, std::size_t n, std::size_t k, float alpha, const bfloat16* A,
               std::size_t lda, const bfloat16* B, std::size_t ldb, float beta, float* C,
               std::size_t ldc);

extern template class PackedMatrix<float>;
extern template class PackedMatrix<double>;
extern template class GemmPlan<float>;
extern template class GemmPlan<double>;

}  // namespace coheriq::kernels
