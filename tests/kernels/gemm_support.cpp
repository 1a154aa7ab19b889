#include "gemm_support.hpp"

#include <doctest/doctest.h>

#include "oracle.hpp"

namespace coheriq::kernels::testing {

const std::vector<Shape>& gemm_shapes() {
  static const std::vector<Shape> shapes = [] {
    std::vector<Shape> v = {{1, 1, 1},    {1, 1, 9},   {1, 17, 1},  {2, 3, 4},  {3, 5, 7},
                            {7, 3, 5},    {4, 8, 16},  {8, 16, 8},  {9, 17, 5}, {16, 16, 16},
                            {17, 33, 15}, {31, 7, 65}, {33, 67, 31}};
    // n == k, odd and not a lane multiple: op(B) is square, so reading B as stored instead of
    // transposed stays in bounds and only the values tell (16 and 64 are even, 1 is symmetric).
    for (Shape square : {Shape{7, 9, 9}, Shape{33, 33, 33}, Shape{5, 31, 31}}) v.push_back(square);
    if (!quick()) v.push_back({67, 129, 300});
    return v;
  }();
  return shapes;
}

template <class T>
void check_product(const Product<T>& p, const Matrix<T>& got, const std::string& what,
                   Worst& worst) {
  const auto [m, n, k] = p.shape;
  const double eps = double(kEps<T>);
  const double terms = summation_bound(k) + 2.0;
  Failures failures;
  for (std::size_t i = 0; i < m; ++i) {
    for (std::size_t j = 0; j < n; ++j) {
      // (op(A)·op(B))_ij and (|op(A)|·|op(B)|)_ij, each a pairwise sum in long double.
      const auto product = [&](std::size_t q) {
        return wide_product(p.a.op(p.ta, i, q), p.b.op(p.tb, q, j));
      };
      const auto [exact_dot, magnitude_dot] = pairwise_sum<SignedAndMagnitude>(0, k, product);
      // beta == 0: C is not read (it holds NaN here).
      const Wide exact = p.beta == T(0)
                             ? Wide(p.alpha) * exact_dot
                             : Wide(p.alpha) * exact_dot + Wide(p.beta) * Wide(p.c(i, j));
      const double magnitude = double(std::fabs(Wide(p.alpha)) * magnitude_dot);
      const double old_c = p.beta == T(0) ? 0.0 : std::fabs(double(p.beta) * double(p.c(i, j)));
      const double bound = (terms * eps + oracle_error(k)) * (magnitude + old_c) +
                           double(k + 2) * double(kDenormMin<T>);
      const T g = got(i, j), e = T(exact);
      const double error = double(std::fabs(Wide(g) - exact));
      const bool ok = std::isfinite(e) ? std::isfinite(g) && error <= bound : same(g, e);
      if (!ok) {
        failures.add([&] {
          return "C(" + std::to_string(i) + ", " + std::to_string(j) + ") = " + show(g) +
                 ", oracle " + show(double(exact)) + ", error " + show(error) + " > bound " +
                 show(bound);
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

template void check_product(const Product<float>&, const Matrix<float>&, const std::string&,
                            Worst&);
template void check_product(const Product<double>&, const Matrix<double>&, const std::string&,
                            Worst&);

}  // namespace coheriq::kernels::testing
