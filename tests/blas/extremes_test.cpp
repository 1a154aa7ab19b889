// The drop-in's routines against the reference BLAS at magnitudes where a plain computation
// overflows or underflows: ?nrm2_ and cblas_?nrm2 (snrm2, dnrm2, scnrm2, dznrm2) of vectors near
// 1e20 and 1e-25 (f32) and 1e200 and 1e-200 (f64), whose squares leave the type's range, alone
// and mixed, at increments +-1 and +-3. The kernel tests check the kernels at such scales; this
// checks the BLAS layer on top of them (its increment handling, its choice of kernel), which they
// cannot see. Part of coheriq_blas_conformance (a file of its own, beside conformance_test.cpp).
#include <doctest/doctest.h>

#include <cmath>
#include <complex>
#include <cstddef>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "libraries.hpp"

namespace coheriq::blas_testing {
namespace {

template <class T>
using FNrm2 = real_t<T> (*)(const int*, const T*, const int*);
template <class T>
using CNrm2 = real_t<T> (*)(int, const T*, int);

// The magnitudes whose squares overflow and underflow R.
template <class R>
constexpr R kHuge = sizeof(R) == 4 ? R(1e20) : R(1e200);
template <class R>
constexpr R kTiny = sizeof(R) == 4 ? R(1e-25) : R(1e-200);

// A value of about `magnitude` with a random sign (each part, for complex).
template <class T, class Random>
T value(real_t<T> magnitude, std::uniform_real_distribution<real_t<T>>& uniform, Random& random) {
  const auto part = [&] {
    const real_t<T> v = magnitude * uniform(random);
    return random() % 2 ? v : -v;
  };
  if constexpr (std::is_same_v<T, real_t<T>>) {
    return part();
  } else {
    const real_t<T> re = part();
    return T(re, part());
  }
}

std::string where(const std::string& routine, const char* values, int n, int inc) {
  return routine + " n = " + std::to_string(n) + ", inc = " + std::to_string(inc) + ", " + values;
}

TEST_CASE_TEMPLATE("nrm2 agrees with the reference BLAS where squares overflow or underflow", T,
                   float, double, std::complex<float>, std::complex<double>) {
  using R = real_t<T>;
  const bool complex = !std::is_same_v<T, R>;
  const std::string p =
      std::string(sizeof(R) == 4 ? "s" : "d") + (complex ? (sizeof(R) == 4 ? "c" : "z") : "");
  const Pair<FNrm2<T>> fortran(p + "nrm2_");
  const Pair<CNrm2<T>> cblas("cblas_" + p + "nrm2");
  std::mt19937 random(27);
  std::uniform_real_distribution<R> uniform(R(0.5), R(1));
  struct Values {
    const char* name;
    R even, odd;  // the scale of the elements at even and odd positions
  };
  const Values kinds[] = {{"huge", kHuge<R>, kHuge<R>},
                          {"tiny", kTiny<R>, kTiny<R>},
                          {"huge and tiny", kHuge<R>, kTiny<R>}};
  for (const Values& kind : kinds) {
    for (int n : {1, 2, 3, 7, 16, 17, 33, 100, 1025}) {
      for (int inc : {1, -1, 3, -3}) {
        const int step = inc < 0 ? -inc : inc;
        std::vector<T> x(std::size_t(n - 1) * step + 1, T(std::numeric_limits<R>::quiet_NaN()));
        for (int i = 0; i < n; ++i) {
          x[std::size_t(i) * step] = value<T>(i % 2 == 0 ? kind.even : kind.odd, uniform, random);
        }
        const R ref = fortran.ref(&n, x.data(), &inc);
        const std::string context = where(fortran.name, kind.name, n, inc);
        // The reference's own result must be meaningful here, or the comparison proves nothing.
        REQUIRE_MESSAGE(std::isnormal(ref), context, ": the reference gives ", ref);
        // The reference's scaled sum (Blue's algorithm) and ours are both within a few eps·n.
        const double bound = (2.0 * n + 4) * double(std::numeric_limits<R>::epsilon()) * ref;
        const R f_ours = fortran.ours(&n, x.data(), &inc);
        CHECK_MESSAGE(std::fabs(double(f_ours) - double(ref)) <= bound, context, ": ", f_ours,
                      " vs the reference's ", ref);
        const R c_ours = cblas.ours(n, x.data(), inc);
        CHECK_MESSAGE(std::fabs(double(c_ours) - double(ref)) <= bound,
                      where(cblas.name, kind.name, n, inc), ": ", c_ours, " vs the reference's ",
                      ref);
      }
    }
  }
}

}  // namespace
}  // namespace coheriq::blas_testing
