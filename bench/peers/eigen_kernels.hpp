// Eigen 3 kernels over raw buffers (Eigen::Map), compiled once per ISA in their own translation
// unit (eigen_kernels.cpp, see bench/CMakeLists.txt) and picked at run time by eigen.cpp. Only
// these plain functions cross the TU boundary, so nothing Eigen instantiates there is shared with
// the baseline code of the harness or with another ISA's build.
//
// Included once per build with COHERIQ_EIGEN_VARIANT set to its namespace (eigen_baseline,
// eigen_avx2, eigen_avx512): deliberately no include guard.
#include <cstddef>

#ifndef COHERIQ_EIGEN_VARIANT
#error "define COHERIQ_EIGEN_VARIANT (the namespace of one ISA's build) before including this"
#endif

// The vector math functions of Eigen's arrays benchmarked (those the anchors name:
// Eigen vectorizes them): sigmoid is logistic(), softmax exp(x - max) / sum.
#ifndef COHERIQ_EIGEN_MATH
#define COHERIQ_EIGEN_MATH(F) \
  F(exp) F(log) F(log1p) F(expm1) F(tanh) F(sqrt) F(sin) F(cos) F(erf) F(sigmoid) F(softmax)
#endif

namespace coheriq_bench::COHERIQ_EIGEN_VARIANT {

// Static members, so that the harness's loops call them directly (no function pointer).
struct Kernels {
  static float dot(std::size_t n, const float* x, const float* y);
  static double dot(std::size_t n, const double* x, const double* y);
  static void axpy(std::size_t n, float a, const float* x, float* y);
  static void axpy(std::size_t n, double a, const double* x, double* y);
  static void scal(std::size_t n, float a, float* x);
  static void scal(std::size_t n, double a, double* x);
  static float sum(std::size_t n, const float* x);
  static double sum(std::size_t n, const double* x);
  static float asum(std::size_t n, const float* x);
  static double asum(std::size_t n, const double* x);
  // stableNorm(): Eigen's norm without overflow or underflow, the same contract as coheriq nrm2.
  static float nrm2(std::size_t n, const float* x);
  static double nrm2(std::size_t n, const double* x);
  static std::size_t iamax(std::size_t n, const float* x);
  static std::size_t iamax(std::size_t n, const double* x);

  // The vector math Eigen has (COHERIQ_EIGEN_MATH), float and double.
#define COHERIQ_EIGEN_DECLARE_MATH(name)                     \
  static void name(std::size_t n, const float* x, float* y); \
  static void name(std::size_t n, const double* x, double* y);
  COHERIQ_EIGEN_MATH(COHERIQ_EIGEN_DECLARE_MATH)
#undef COHERIQ_EIGEN_DECLARE_MATH

  // Row-major square C = A * B.
  static void gemm(std::size_t n, const float* a, const float* b, float* c);
  static void gemm(std::size_t n, const double* a, const double* b, double* c);

  // One product of the small group, column-major and of dynamic size, as a caller maps raw
  // buffers: C (m x n, leading dimension m) += A (m x k, m) · B (k x n, k), or · Bᵀ (B n x k, n)
  // with trans_b.
  static void small_gemm(bool trans_b, std::size_t m, std::size_t n, std::size_t k, const float* a,
                         const float* b, float* c);
  static void small_gemm(bool trans_b, std::size_t m, std::size_t n, std::size_t k, const double* a,
                         const double* b, double* c);

  // Eigen's version and the SIMD instruction sets this build uses.
  static const char* version();
  static const char* simd();
};

}  // namespace coheriq_bench::COHERIQ_EIGEN_VARIANT
