// Coheriq kernels: BLAS-1, vector math and GEMM, dispatched to the engine in effect.
//
// Every function is an ordinary C++ function; which engine runs it is settled once per process
// (coheriq::kernels::enable_engine, or COHERIQ_ENGINE) at the first call. Sizes are std::size_t,
// data is contiguous (except in the _strided kernels), pointers need no alignment, n == 0 is valid
// with any pointers. Elementwise kernels allow y == x; other overlaps are undefined. Bounds:
// docs/kernels.md.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace coheriq::kernels {

// Not `inline`: a constant of each translation unit, which no binary exports (docs/decisions.md).
constexpr std::string_view domain_name = "coheriq.kernels";

// = coheriq::enable_engine(domain_name, engine): a name, "auto" or a list, as COHERIQ_ENGINE
void enable_engine(std::string_view engine);
// = coheriq::active_engine(domain_name)
std::string active_engine();

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

// ------------------------------ BLAS-1
float dot(std::size_t n, const float* x, const float* y);
double dot(std::size_t n, const double* x, const double* y);
void axpy(std::size_t n, float a, const float* x, float* y);
void axpy(std::size_t n, double a, const double* x, double* y);
void scal(std::size_t n, float a, float* x);
void scal(std::size_t n, double a, double* x);
float sum(std::size_t n, const float* x);
double sum(std::size_t n, const double* x);
float asum(std::size_t n, const float* x);
double asum(std::size_t n, const double* x);
float nrm2(std::size_t n, const float* x);
double nrm2(std::size_t n, const double* x);
std::size_t iamax(std::size_t n, const float* x);
std::size_t iamax(std::size_t n, const double* x);

// ------------------------------ Strided BLAS-1
// As above, on vectors whose element i is x[i * incx]: any increment, 0 and negative included
// (x points at element 0, which is the highest address when incx < 0; BLAS callers pass
// x + (n - 1) * -incx for a negative incx). Same bounds and special values; iamax returns the
// 0-based element number i. axpy_strided and scal_strided with an increment of 0 on the vector
// they write apply the updates in order, as the reference BLAS does.
float dot_strided(std::size_t n, const float* x, std::ptrdiff_t incx, const float* y,
                  std::ptrdiff_t incy);
double dot_strided(std::size_t n, const double* x, std::ptrdiff_t incx, const double* y,
                   std::ptrdiff_t incy);
void axpy_strided(std::size_t n, float a, const float* x, std::ptrdiff_t incx, float* y,
                  std::ptrdiff_t incy);
void axpy_strided(std::size_t n, double a, const double* x, std::ptrdiff_t incx, double* y,
                  std::ptrdiff_t incy);
void scal_strided(std::size_t n, float a, float* x, std::ptrdiff_t incx);
void scal_strided(std::size_t n, double a, double* x, std::ptrdiff_t incx);
float asum_strided(std::size_t n, const float* x, std::ptrdiff_t incx);
double asum_strided(std::size_t n, const double* x, std::ptrdiff_t incx);
float nrm2_strided(std::size_t n, const float* x, std::ptrdiff_t incx);
double nrm2_strided(std::size_t n, const double* x, std::ptrdiff_t incx);
std::size_t iamax_strided(std::size_t n, const float* x, std::ptrdiff_t incx);
std::size_t iamax_strided(std::size_t n, const double* x, std::ptrdiff_t incx);

// ------------------------------ Vector math
// y[i] = f(x[i]) (softmax: of all of x); y == x allowed. Bounds and special values:
// docs/kernels.md.
void exp(std::size_t n, const float* x, float* y);
void exp(std::size_t n, const double* x, double* y);
void exp2(std::size_t n, const float* x, float* y);
void exp2(std::size_t n, const double* x, double* y);
void expm1(std::size_t n, const float* x, float* y);
void expm1(std::size_t n, const double* x, double* y);
void log(std::size_t n, const float* x, float* y);
void log(std::size_t n, const double* x, double* y);
void log2(std::size_t n, const float* x, float* y);
void log2(std::size_t n, const double* x, double* y);
void log10(std::size_t n, const float* x, float* y);
void log10(std::size_t n, const double* x, double* y);
void log1p(std::size_t n, const float* x, float* y);
void log1p(std::size_t n, const double* x, double* y);
void sqrt(std::size_t n, const float* x, float* y);
void sqrt(std::size_t n, const double* x, double* y);
void cbrt(std::size_t n, const float* x, float* y);
void cbrt(std::size_t n, const double* x, double* y);
// z[i] = x[i]^y[i]; z == x or z == y allowed.
void pow(std::size_t n, const float* x, const float* y, float* z);
void pow(std::size_t n, const double* x, const double* y, double* z);
void tanh(std::size_t n, const float* x, float* y);
void sigmoid(std::size_t n, const float* x, float* y);
void softmax(std::size_t n, const float* x, float* y);

// ------------------------------ Trigonometry (f32 and f64; y == x allowed)
void sin(std::size_t n, const float* x, float* y);
void sin(std::size_t n, const double* x, double* y);
void cos(std::size_t n, const float* x, float* y);
void cos(std::size_t n, const double* x, double* y);
void tan(std::size_t n, const float* x, float* y);
void tan(std::size_t n, const double* x, double* y);
void asin(std::size_t n, const float* x, float* y);
void asin(std::size_t n, const double* x, double* y);
void acos(std::size_t n, const float* x, float* y);
void acos(std::size_t n, const double* x, double* y);
void atan(std::size_t n, const float* x, float* y);
void atan(std::size_t n, const double* x, double* y);
// z[i] = atan2(y[i], x[i]): the angle of the point (x[i], y[i]) in [-pi, pi].
void atan2(std::size_t n, const float* y, const float* x, float* z);
void atan2(std::size_t n, const double* y, const double* x, double* z);

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

}  // namespace coheriq::kernels
