#include "numlib.hpp"

#include <coheriq/kernels.hpp>

namespace numlib {

double normalize(std::vector<double>& v) {
  const double length = coheriq::kernels::nrm2(v.size(), v.data());
  if (length > 0) coheriq::kernels::scal(v.size(), 1.0 / length, v.data());
  return length;
}

std::vector<float> matmul(const std::vector<float>& a, const std::vector<float>& b, std::size_t m,
                          std::size_t k, std::size_t n) {
  using coheriq::kernels::Trans;
  std::vector<float> c(m * n);
  coheriq::kernels::gemm(Trans::N, Trans::N, m, n, k, 1.0f, a.data(), k, b.data(), n, 0.0f,
                         c.data(), n);
  return c;
}

}  // namespace numlib
