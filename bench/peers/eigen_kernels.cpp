// Eigen kernels, compiled with COHERIQ_BENCH_EIGEN_FLAGS (the host's ISA by default) and
// EIGEN_DONT_PARALLELIZE (one thread). See eigen_kernels.hpp.
#include "eigen_kernels.hpp"

#include <Eigen/Core>

namespace coheriq_bench::eigen_kernels {
namespace {

using Index = Eigen::Index;

template <class T>
using ConstArray = Eigen::Map<const Eigen::Array<T, Eigen::Dynamic, 1>>;
template <class T>
using MutArray = Eigen::Map<Eigen::Array<T, Eigen::Dynamic, 1>>;
template <class T>
using ConstVector = Eigen::Map<const Eigen::Matrix<T, Eigen::Dynamic, 1>>;
template <class T>
using RowMajor = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

Index idx(std::size_t n) { return static_cast<Index>(n); }

template <class T>
T dot_t(std::size_t n, const T* x, const T* y) {
  return ConstVector<T>(x, idx(n)).dot(ConstVector<T>(y, idx(n)));
}
template <class T>
void axpy_t(std::size_t n, T a, const T* x, T* y) {
  MutArray<T>(y, idx(n)) += a * ConstArray<T>(x, idx(n));
}
template <class T>
void scal_t(std::size_t n, T a, T* x) {
  MutArray<T>(x, idx(n)) *= a;
}
template <class T>
T sum_t(std::size_t n, const T* x) {
  return ConstArray<T>(x, idx(n)).sum();
}
template <class T>
T asum_t(std::size_t n, const T* x) {
  return ConstArray<T>(x, idx(n)).abs().sum();
}
template <class T>
T nrm2_t(std::size_t n, const T* x) {
  return ConstVector<T>(x, idx(n)).stableNorm();
}
template <class T>
std::size_t iamax_t(std::size_t n, const T* x) {
  if (n == 0) return 0;
  Index at = 0;
  ConstArray<T>(x, idx(n)).abs().maxCoeff(&at);
  return static_cast<std::size_t>(at);
}
template <class T>
void gemm_t(std::size_t n, const T* a, const T* b, T* c) {
  const Index m = idx(n);
  Eigen::Map<RowMajor<T>>(c, m, m).noalias() =
      Eigen::Map<const RowMajor<T>>(a, m, m) * Eigen::Map<const RowMajor<T>>(b, m, m);
}

#define COHERIQ_STR2(x) #x
#define COHERIQ_STR(x) COHERIQ_STR2(x)

}  // namespace

float dot(std::size_t n, const float* x, const float* y) { return dot_t(n, x, y); }
double dot(std::size_t n, const double* x, const double* y) { return dot_t(n, x, y); }
void axpy(std::size_t n, float a, const float* x, float* y) { axpy_t(n, a, x, y); }
void axpy(std::size_t n, double a, const double* x, double* y) { axpy_t(n, a, x, y); }
void scal(std::size_t n, float a, float* x) { scal_t(n, a, x); }
void scal(std::size_t n, double a, double* x) { scal_t(n, a, x); }
float sum(std::size_t n, const float* x) { return sum_t(n, x); }
double sum(std::size_t n, const double* x) { return sum_t(n, x); }
float asum(std::size_t n, const float* x) { return asum_t(n, x); }
double asum(std::size_t n, const double* x) { return asum_t(n, x); }
float nrm2(std::size_t n, const float* x) { return nrm2_t(n, x); }
double nrm2(std::size_t n, const double* x) { return nrm2_t(n, x); }
std::size_t iamax(std::size_t n, const float* x) { return iamax_t(n, x); }
std::size_t iamax(std::size_t n, const double* x) { return iamax_t(n, x); }

void exp(std::size_t n, const float* x, float* y) {
  MutArray<float>(y, idx(n)) = ConstArray<float>(x, idx(n)).exp();
}
void log(std::size_t n, const float* x, float* y) {
  MutArray<float>(y, idx(n)) = ConstArray<float>(x, idx(n)).log();
}
void tanh(std::size_t n, const float* x, float* y) {
  MutArray<float>(y, idx(n)) = ConstArray<float>(x, idx(n)).tanh();
}
void sigmoid(std::size_t n, const float* x, float* y) {
  MutArray<float>(y, idx(n)) = ConstArray<float>(x, idx(n)).logistic();
}
void softmax(std::size_t n, const float* x, float* y) {
  if (n == 0) return;
  const ConstArray<float> in(x, idx(n));
  MutArray<float> out(y, idx(n));
  out = (in - in.maxCoeff()).exp();
  out /= out.sum();
}

void gemm(std::size_t n, const float* a, const float* b, float* c) { gemm_t(n, a, b, c); }
void gemm(std::size_t n, const double* a, const double* b, double* c) { gemm_t(n, a, b, c); }

const char* version() {
  return COHERIQ_STR(EIGEN_WORLD_VERSION) "." COHERIQ_STR(EIGEN_MAJOR_VERSION) "." COHERIQ_STR(
      EIGEN_MINOR_VERSION);
}
const char* simd() { return Eigen::SimdInstructionSetsInUse(); }

}  // namespace coheriq_bench::eigen_kernels
