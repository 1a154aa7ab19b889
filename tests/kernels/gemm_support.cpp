#include "gemm_support.hpp"

#include <doctest/doctest.h>

#include "reference/reference.hpp"

namespace coheriq::kernels::testing {

const std::vector<Shape>& gemm_shapes() {
  static const std::vector<Shape> shapes = [] {
    std::vector<Shape> v = {{1, 1, 1},    {1, 1, 9},   {1, 17, 1},  {2, 3, 4},  {3, 5, 7},
                            {7, 3, 5},    {4, 8, 16},  {8, 16, 8},  {9, 17, 5}, {16, 16, 16},
                            {17, 33, 15}, {31, 7, 65}, {33, 67, 31}};
    if (!quick()) v.push_back({67, 129, 300});
    return v;
  }();
  return shapes;
}

template <class T>
Matrix<T> reference_product(const Product<T>& p) {
  Matrix<T> c = p.c;
  reference::gemm(p.ta, p.tb, p.shape.m, p.shape.n, p.shape.k, p.alpha, p.a.data(), p.a.ld(),
                  p.b.data(), p.b.ld(), p.beta, c.data(), c.ld(), nullptr);
  return c;
}

template <class T>
void check_product(const Product<T>& p, const Matrix<T>& got, const Matrix<T>& expected,
                   const std::string& what, Worst& worst) {
  const auto [m, n, k] = p.shape;
  const double eps = double(kEps<T>);
  Failures failures;
  for (std::size_t i = 0; i < m; ++i) {
    for (std::size_t j = 0; j < n; ++j) {
      double magnitude = 0;  // (|op(A)|·|op(B)|)_ij
      for (std::size_t q = 0; q < k; ++q) {
        magnitude += std::fabs(double(p.a.op(p.ta, i, q)) * double(p.b.op(p.tb, q, j)));
      }
      magnitude *= std::fabs(double(p.alpha));
      const double old_c = p.beta == T(0) ? 0.0 : std::fabs(double(p.beta) * double(p.c(i, j)));
      const double bound = double(k + 2) * (eps * (magnitude + old_c) + double(kDenormMin<T>));
      const T g = got(i, j), e = expected(i, j);
      const double error = std::fabs(double(g) - double(e));
      const bool ok = std::isfinite(e) ? std::isfinite(g) && error <= bound : same(g, e);
      if (!ok) {
        failures.add([&] {
          return "C(" + std::to_string(i) + ", " + std::to_string(j) + ") = " + show(g) +
                 ", reference " + show(e) + ", error " + show(error) + " > bound " + show(bound);
        });
      }
      if (ok && magnitude + old_c > 0) {
        worst.offer(error / (eps * (magnitude + old_c)), [&] { return p.describe(); });
      }
    }
  }
  // C's padding: nothing may be written between rows.
  for (std::size_t i = 0; i < m; ++i) {
    for (std::size_t j = n; j < got.ld(); ++j) {
      if (!same(got.data()[i * got.ld() + j], p.c.data()[i * got.ld() + j])) {
        failures.add([&] {
          return "C's padding at row " + std::to_string(i) + ", column " + std::to_string(j) +
                 " was written";
        });
      }
    }
  }
  CHECK_MESSAGE(failures.none(), what, " ", p.describe(), ": ", failures.report());
}

template Matrix<float> reference_product(const Product<float>&);
template Matrix<double> reference_product(const Product<double>&);
template void check_product(const Product<float>&, const Matrix<float>&, const Matrix<float>&,
                            const std::string&, Worst&);
template void check_product(const Product<double>&, const Matrix<double>&, const Matrix<double>&,
                            const std::string&, Worst&);

}  // namespace coheriq::kernels::testing
