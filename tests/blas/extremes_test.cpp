// The drop-in's routines against the reference BLAS at magnitudes where a plain computation
// overflows or underflows: ?nrm2_ and cblas_?nrm2 of vectors near 1e20 and 1e-25 (f32) and 1e200
// and 1e-200 (f64), whose squares leave the type's range, alone and mixed, at increments +-1 and
// +-3. The kernel tests check the kernels at such scales; this checks the BLAS layer on top of
// them (its increment handling, its choice of kernel), which they cannot see. Part of
// coheriq_blas_conformance (a file of its own, beside conformance_test.cpp).
#include <doctest/doctest.h>

#include <cmath>
#include <cstddef>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "libraries.hpp"

namespace coheriq::blas_testing {
namespace {

template <class T>
using FNrm2 = T (*)(const int*, const T*, const int*);
template <class T>
using CNrm2 = T (*)(int, const T*, int);

// The magnitudes whose squares overflow and underflow T.
template <class T>
constexpr T kHuge = sizeof(T) == 4 ? T(1e20) : T(1e200);
template <class T>
constexpr T kTiny = sizeof(T) == 4 ? T(1e-25) : T(1e-200);

std::string where(const std::string& routine, const char* values, int n, int inc) {
  return routine + " n = " + std::to_string(n) + ", inc = " + std::to_string(inc) + ", " + values;
}

TEST_CASE_TEMPLATE("nrm2 agrees with the reference BLAS where squares overflow or underflow", T,
                   float, double) {
  const char* p = sizeof(T) == 4 ? "s" : "d";
  const Pair<FNrm2<T>> fortran(std::string(p) + "nrm2_");
  const Pair<CNrm2<T>> cblas(std::string("cblas_") + p + "nrm2");
  std::mt19937 random(27);
  std::uniform_real_distribution<T> uniform(T(0.5), T(1));
  struct Values {
    const char* name;
    T even, odd;  // the scale of the elements at even and odd positions
  };
  const Values kinds[] = {{"huge", kHuge<T>, kHuge<T>},
                          {"tiny", kTiny<T>, kTiny<T>},
                          {"huge and tiny", kHuge<T>, kTiny<T>}};
  for (const Values& kind : kinds) {
    for (int n : {1, 2, 3, 7, 16, 17, 33, 100, 1025}) {
      for (int inc : {1, -1, 3, -3}) {
        const int step = inc < 0 ? -inc : inc;
        std::vector<T> x(std::size_t(n - 1) * step + 1, std::numeric_limits<T>::quiet_NaN());
        for (int i = 0; i < n; ++i) {
          const T magnitude = (i % 2 == 0 ? kind.even : kind.odd) * uniform(random);
          x[std::size_t(i) * step] = random() % 2 ? magnitude : -magnitude;
        }
        const T ref = fortran.ref(&n, x.data(), &inc);
        const std::string context = where(fortran.name, kind.name, n, inc);
        // The reference's own result must be meaningful here, or the comparison proves nothing.
        REQUIRE_MESSAGE(std::isnormal(ref), context, ": the reference gives ", ref);
        // The reference's scaled sum (Blue's algorithm) and ours are both within a few eps·n.
        const double bound = (2.0 * n + 4) * double(std::numeric_limits<T>::epsilon()) * ref;
        const T f_ours = fortran.ours(&n, x.data(), &inc);
        CHECK_MESSAGE(std::fabs(double(f_ours) - double(ref)) <= bound, context, ": ", f_ours,
                      " vs the reference's ", ref);
        const T c_ours = cblas.ours(n, x.data(), inc);
        CHECK_MESSAGE(std::fabs(double(c_ours) - double(ref)) <= bound,
                      where(cblas.name, kind.name, n, inc), ": ", c_ours, " vs the reference's ",
                      ref);
      }
    }
  }
}

}  // namespace
}  // namespace coheriq::blas_testing
