// Eigen's benchmarks: the harness loops (baseline code) calling eigen_kernels (Eigen's TU).
#include <cstddef>
#include <string>

#include "../harness.hpp"
#include "eigen_kernels.hpp"
#include "peers.hpp"

namespace coheriq_bench {
namespace {

namespace ek = eigen_kernels;

template <class T>
void register_type() {
  add_dot<T>("eigen", [](std::size_t n, const T* x, const T* y) { return ek::dot(n, x, y); });
  add_axpy<T>("eigen", [](std::size_t n, T a, const T* x, T* y) { ek::axpy(n, a, x, y); });
  add_scal<T>("eigen", [](std::size_t n, T a, T* x) { ek::scal(n, a, x); });
  add_reduction<T>("sum", "eigen", [](std::size_t n, const T* x) { return ek::sum(n, x); });
  add_reduction<T>("asum", "eigen", [](std::size_t n, const T* x) { return ek::asum(n, x); });
  add_reduction<T>("nrm2", "eigen", [](std::size_t n, const T* x) { return ek::nrm2(n, x); });
  add_reduction<T>("iamax", "eigen", [](std::size_t n, const T* x) { return ek::iamax(n, x); });
}

}  // namespace

PeerStatus register_eigen() {
  register_type<float>();
  register_type<double>();
  add_math("exp", Fill::kExp, "eigen",
           [](std::size_t n, const float* x, float* y) { ek::exp(n, x, y); });
  add_math("log", Fill::kLog, "eigen",
           [](std::size_t n, const float* x, float* y) { ek::log(n, x, y); });
  add_math("tanh", Fill::kTanh, "eigen",
           [](std::size_t n, const float* x, float* y) { ek::tanh(n, x, y); });
  add_math("sigmoid", Fill::kSigmoid, "eigen",
           [](std::size_t n, const float* x, float* y) { ek::sigmoid(n, x, y); });
  add_math("softmax", Fill::kSigmoid, "eigen",
           [](std::size_t n, const float* x, float* y) { ek::softmax(n, x, y); });
  add_gemm<float>("eigen", [](std::size_t n, const float* a, const float* b, float* c) {
    ek::gemm(n, a, b, c);
  });
  add_gemm<double>("eigen", [](std::size_t n, const double* a, const double* b, double* c) {
    ek::gemm(n, a, b, c);
  });
  return {"eigen", true,
          std::string(ek::version()) + ", " + ek::simd() + ", EIGEN_DONT_PARALLELIZE"};
}

}  // namespace coheriq_bench
