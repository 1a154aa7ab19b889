// Eigen kernels, compiled once per ISA (bench/CMakeLists.txt gives each build its flags and
// COHERIQ_EIGEN_VARIANT) with EIGEN_DONT_PARALLELIZE (one thread). See eigen_kernels.hpp.
//
// Each build also renames Eigen's namespace (-DEigen=coheriq_eigen_<isa>): Eigen's templates are
// inline, and two builds instantiating the same one with different ISA flags would otherwise
// emit one weak symbol the linker keeps a single copy of, so the baseline build could end up
// calling AVX-512 code. Renamed, every build's instantiations are its own.
#include <Eigen/Core>
#include <unsupported/Eigen/SpecialFunctions>

#include "eigen_kernels.hpp"

namespace coheriq_bench::COHERIQ_EIGEN_VARIANT {
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

template <class T>
using ColMajor = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic>;

// Eigen chooses per product between its coefficient-based (lazy) product, for m + n + k below
// EIGEN_GEMM_TO_COEFFBASED_THRESHOLD (20), and its blocked GEMM.
template <class T>
void small_gemm_t(bool trans_b, std::size_t m, std::size_t n, std::size_t k, const T* a, const T* b,
                  T* c) {
  Eigen::Map<ColMajor<T>> cm(c, idx(m), idx(n));
  const Eigen::Map<const ColMajor<T>> am(a, idx(m), idx(k));
  if (trans_b) {
    cm.noalias() += am * Eigen::Map<const ColMajor<T>>(b, idx(n), idx(k)).transpose();
  } else {
    cm.noalias() += am * Eigen::Map<const ColMajor<T>>(b, idx(k), idx(n));
  }
}

template <class T>
void sigmoid_t(std::size_t n, const T* x, T* y) {
  MutArray<T>(y, idx(n)) = ConstArray<T>(x, idx(n)).logistic();
}
template <class T>
void softmax_t(std::size_t n, const T* x, T* y) {
  if (n == 0) return;
  const ConstArray<T> in(x, idx(n));
  MutArray<T> out(y, idx(n));
  out = (in - in.maxCoeff()).exp();
  out /= out.sum();
}

#define COHERIQ_STR2(x) #x
#define COHERIQ_STR(x) COHERIQ_STR2(x)

}  // namespace

float Kernels::dot(std::size_t n, const float* x, const float* y) { return dot_t(n, x, y); }
double Kernels::dot(std::size_t n, const double* x, const double* y) { return dot_t(n, x, y); }
void Kernels::axpy(std::size_t n, float a, const float* x, float* y) { axpy_t(n, a, x, y); }
void Kernels::axpy(std::size_t n, double a, const double* x, double* y) { axpy_t(n, a, x, y); }
void Kernels::scal(std::size_t n, float a, float* x) { scal_t(n, a, x); }
void Kernels::scal(std::size_t n, double a, double* x) { scal_t(n, a, x); }
float Kernels::sum(std::size_t n, const float* x) { return sum_t(n, x); }
double Kernels::sum(std::size_t n, const double* x) { return sum_t(n, x); }
float Kernels::asum(std::size_t n, const float* x) { return asum_t(n, x); }
double Kernels::asum(std::size_t n, const double* x) { return asum_t(n, x); }
float Kernels::nrm2(std::size_t n, const float* x) { return nrm2_t(n, x); }
double Kernels::nrm2(std::size_t n, const double* x) { return nrm2_t(n, x); }
std::size_t Kernels::iamax(std::size_t n, const float* x) { return iamax_t(n, x); }
std::size_t Kernels::iamax(std::size_t n, const double* x) { return iamax_t(n, x); }

void Kernels::sigmoid(std::size_t n, const float* x, float* y) { sigmoid_t(n, x, y); }
void Kernels::sigmoid(std::size_t n, const double* x, double* y) { sigmoid_t(n, x, y); }
void Kernels::softmax(std::size_t n, const float* x, float* y) { softmax_t(n, x, y); }
void Kernels::softmax(std::size_t n, const double* x, double* y) { softmax_t(n, x, y); }
#define COHERIQ_EIGEN_DEFINE_MATH(name)                                 \
  void Kernels::name(std::size_t n, const float* x, float* y) {         \
    MutArray<float>(y, idx(n)) = ConstArray<float>(x, idx(n)).name();   \
  }                                                                     \
  void Kernels::name(std::size_t n, const double* x, double* y) {       \
    MutArray<double>(y, idx(n)) = ConstArray<double>(x, idx(n)).name(); \
  }
COHERIQ_EIGEN_DEFINE_MATH(exp)
COHERIQ_EIGEN_DEFINE_MATH(log)
COHERIQ_EIGEN_DEFINE_MATH(log1p)
COHERIQ_EIGEN_DEFINE_MATH(expm1)
COHERIQ_EIGEN_DEFINE_MATH(tanh)
COHERIQ_EIGEN_DEFINE_MATH(sqrt)
COHERIQ_EIGEN_DEFINE_MATH(sin)
COHERIQ_EIGEN_DEFINE_MATH(cos)
COHERIQ_EIGEN_DEFINE_MATH(erf)
#undef COHERIQ_EIGEN_DEFINE_MATH

void Kernels::gemm(std::size_t n, const float* a, const float* b, float* c) { gemm_t(n, a, b, c); }
void Kernels::gemm(std::size_t n, const double* a, const double* b, double* c) {
  gemm_t(n, a, b, c);
}

void Kernels::small_gemm(bool trans_b, std::size_t m, std::size_t n, std::size_t k, const float* a,
                         const float* b, float* c) {
  small_gemm_t(trans_b, m, n, k, a, b, c);
}
void Kernels::small_gemm(bool trans_b, std::size_t m, std::size_t n, std::size_t k, const double* a,
                         const double* b, double* c) {
  small_gemm_t(trans_b, m, n, k, a, b, c);
}

const char* Kernels::version() {
  return COHERIQ_STR(EIGEN_WORLD_VERSION) "." COHERIQ_STR(EIGEN_MAJOR_VERSION) "." COHERIQ_STR(
      EIGEN_MINOR_VERSION);
}
const char* Kernels::simd() { return Eigen::SimdInstructionSetsInUse(); }

}  // namespace coheriq_bench::COHERIQ_EIGEN_VARIANT
