// The strided BLAS-1 kernels (dot_strided, axpy_strided, ...) of the engine in effect against the
// long double oracle of oracle.hpp, on every increment class: 1 (the contiguous kernel), small
// and large positive, negative, and 0 where a vector is only read, across the chunk size of the
// generic engines (1024 elements) and around the vector lengths. Elements between the strided
// ones must stay untouched. Bounds are the contiguous kernels' (docs/kernels.md).
#include <doctest/doctest.h>

#include <coheriq/kernels.hpp>

#include <cmath>
#include <cstddef>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "oracle.hpp"
#include "support.hpp"

namespace coheriq::kernels::testing {
namespace {

constexpr std::size_t kSizes[] = {0, 1, 2, 3, 7, 8, 9, 15, 16, 17, 33, 100, 1023, 1024, 1025, 2500};
constexpr std::ptrdiff_t kIncrements[] = {1, 2, 3, 4, -1, -2, -3, -4, -7, 100};

std::string where(const char* kernel, std::size_t n, std::ptrdiff_t incx, std::ptrdiff_t incy) {
  return std::string(kernel) + " n = " + std::to_string(n) + ", incx = " + std::to_string(incx) +
         ", incy = " + std::to_string(incy);
}

template <class T>
double bound(std::size_t n, Wide magnitude) {
  return (summation_bound(n) * double(kEps<T>) + oracle_error(n)) * double(magnitude);
}

TEST_CASE_TEMPLATE("strided dot and asum are within the contiguous bounds of the oracle", T, float,
                   double) {
  Random random(11);
  for (std::size_t n : kSizes) {
    for (std::ptrdiff_t incx : kIncrements) {
      for (std::ptrdiff_t incy : {std::ptrdiff_t(1), std::ptrdiff_t(-3), incx}) {
        Strided<T> x(n, incx, random), y(n, incy, random);
        const std::vector<T> gx = x.gathered(), gy = y.gathered();
        const Wide exact = oracle_dot(n, gx.data(), gy.data());
        Wide magnitude = 0;
        for (std::size_t i = 0; i < n; ++i) magnitude += std::fabs(Wide(gx[i]) * gy[i]);
        const T got = dot_strided(n, x.base(), incx, y.base(), incy);
        CHECK_MESSAGE(double(std::fabs(Wide(got) - exact)) <= bound<T>(n, magnitude),
                      where("dot_strided", n, incx, incy), ": ", show(got));
      }
      Strided<T> x(n, incx, random);
      const std::vector<T> gx = x.gathered();
      const Wide exact = oracle_asum(n, gx.data());
      const T got = asum_strided(n, x.base(), incx);
      CHECK_MESSAGE(double(std::fabs(Wide(got) - exact)) <= bound<T>(n, exact),
                    where("asum_strided", n, incx, 0), ": ", show(got));
    }
  }
}

TEST_CASE_TEMPLATE("strided reads with an increment of 0 see one element n times", T, float,
                   double) {
  const T x[] = {T(0.75)};
  const T y[] = {T(1), T(2), T(3), T(4), T(5)};
  CHECK(dot_strided(5, x, 0, y, 1) == T(0.75) * T(15));
  CHECK(dot_strided(4, y, 1, x, 0) == T(0.75) * T(10));
  CHECK(asum_strided(6, x, 0) == T(4.5));
  CHECK(iamax_strided(6, x, 0) == 0);
  CHECK(std::fabs(double(nrm2_strided(4, x, 0)) - 1.5) <= 4 * double(kEps<T>));
}

TEST_CASE_TEMPLATE("strided nrm2 and iamax match the oracle, special values included", T, float,
                   double) {
  Random random(12);
  for (std::size_t n : kSizes) {
    for (std::ptrdiff_t incx : kIncrements) {
      Strided<T> x(n, incx, random);
      std::vector<T> gx = x.gathered();
      const Wide exact = oracle_nrm2(n, gx.data());
      const T got = nrm2_strided(n, x.base(), incx);
      const double rel = std::min(2.0 * double(n), 2 * std::sqrt(double(n)) + 8) * double(kEps<T>);
      CHECK_MESSAGE(double(std::fabs(Wide(got) - exact)) <= rel * double(exact),
                    where("nrm2_strided", n, incx, 0), ": ", show(got));
      CHECK_MESSAGE(iamax_strided(n, x.base(), incx) == oracle_iamax(n, gx.data()),
                    where("iamax_strided", n, incx, 0));
      if (n < 3) continue;
      // Tiny values (nrm2's underflow fallback), then huge ones and a tie (its overflow fallback,
      // iamax's first index), then NaNs for iamax.
      for (std::size_t i = 0; i < n; ++i) x.at(i) = gx[i] * std::numeric_limits<T>::min();
      std::vector<T> tiny_values = x.gathered();
      const T tiny = nrm2_strided(n, x.base(), incx);
      const Wide tiny_exact = oracle_nrm2(n, tiny_values.data());
      CHECK_MESSAGE(double(std::fabs(Wide(tiny) - tiny_exact)) <=
                        rel * double(tiny_exact) + double(n) * double(kDenormMin<T>),
                    where("nrm2_strided tiny", n, incx, 0), ": ", show(tiny));
      for (std::size_t i = 0; i < n; ++i) x.at(i) = gx[i];
      x.at(n / 2) = std::numeric_limits<T>::max() / T(4);
      x.at(n - 1) = -x.at(n / 2);
      gx = x.gathered();
      CHECK_MESSAGE(iamax_strided(n, x.base(), incx) == n / 2,
                    where("iamax_strided tie", n, incx, 0));
      const T huge = nrm2_strided(n, x.base(), incx);
      const Wide huge_exact = oracle_nrm2(n, gx.data());
      CHECK_MESSAGE(double(std::fabs(Wide(huge) - huge_exact)) <= rel * double(huge_exact),
                    where("nrm2_strided huge", n, incx, 0), ": ", show(huge));
      x.at(n - 2) = kNaN<T>;
      x.at(n - 1) = kNaN<T>;
      CHECK_MESSAGE(iamax_strided(n, x.base(), incx) == n - 2,
                    where("iamax_strided NaN", n, incx, 0));
      CHECK_MESSAGE(std::isnan(nrm2_strided(n, x.base(), incx)),
                    where("nrm2_strided NaN", n, incx, 0));
    }
  }
}

TEST_CASE_TEMPLATE("strided axpy and scal write only their elements, within 1 ulp / exactly", T,
                   float, double) {
  Random random(13);
  const T a = T(-0.625);
  for (std::size_t n : kSizes) {
    for (std::ptrdiff_t incx : kIncrements) {
      for (std::ptrdiff_t incy : {std::ptrdiff_t(1), std::ptrdiff_t(-2), std::ptrdiff_t(5), incx}) {
        Strided<T> x(n, incx, random), y(n, incy, random);
        const std::vector<T> gx = x.gathered(), gy = y.gathered();
        axpy_strided(n, a, x.base(), incx, y.base(), incy);
        std::size_t bad = 0;
        for (std::size_t i = 0; i < n; ++i) {
          const T exact = T(Wide(a) * gx[i] + gy[i]);  // correctly rounded: one rounding from Wide
          if (ulp_distance(y.at(i), exact) > 1) ++bad;
        }
        CHECK_MESSAGE(bad == 0, where("axpy_strided", n, incx, incy), ": ", bad, " elements off");
        CHECK_MESSAGE(y.untouched_between(), where("axpy_strided wrote between", n, incx, incy));
        CHECK_MESSAGE(x.gathered() == gx, where("axpy_strided changed x", n, incx, incy));
      }
      Strided<T> x(n, incx, random);
      const std::vector<T> gx = x.gathered();
      scal_strided(n, a, x.base(), incx);
      std::size_t bad = 0;
      for (std::size_t i = 0; i < n; ++i) bad += x.at(i) == a * gx[i] ? 0 : 1;
      CHECK_MESSAGE(bad == 0, where("scal_strided", n, incx, 0), ": ", bad, " elements off");
      CHECK_MESSAGE(x.untouched_between(), where("scal_strided wrote between", n, incx, 0));
      // In place, as axpy allows: y == x with one increment gives x += a·x.
      Strided<T> z(n, incx, random);
      const std::vector<T> gz = z.gathered();
      axpy_strided(n, a, z.base(), incx, z.base(), incx);
      bad = 0;
      for (std::size_t i = 0; i < n; ++i)
        bad += ulp_distance(z.at(i), T(Wide(a) * gz[i] + gz[i])) > 1;
      CHECK_MESSAGE(bad == 0, where("axpy_strided in place", n, incx, incx));
    }
  }
}

// axpy_dot_strided promises the bits of axpy_strided then dot_strided (checked against the oracle
// above), so the two calls are its oracle: y and the result bitwise, y's gaps untouched, v == y
// (the dot reads the updated y) and increments of 0 included.
TEST_CASE_TEMPLATE("strided axpy_dot is axpy then dot, bit for bit, v == y included", T, float,
                   double) {
  Random random(15);
  const T a = T(-0.625);
  const auto same = [](T p, T q) { return std::memcmp(&p, &q, sizeof(T)) == 0; };
  // One call on y against the two calls on a copy of it; v null: v is y itself (increment incy).
  const auto check = [&](std::size_t n, Strided<T>& x, Strided<T>& y, Strided<T>* v,
                         const std::string& context) {
    Strided<T> two_calls = y;
    const std::ptrdiff_t incv = v ? v->inc : y.inc;
    const T got =
        axpy_dot_strided(n, a, x.base(), x.inc, y.base(), y.inc, v ? v->base() : y.base(), incv);
    axpy_strided(n, a, x.base(), x.inc, two_calls.base(), y.inc);
    const T expected = dot_strided(n, x.base(), x.inc, v ? v->base() : two_calls.base(), incv);
    CHECK_MESSAGE(same(got, expected), context, ": ", show(got), ", two calls ", show(expected));
    CHECK_MESSAGE(y.storage == two_calls.storage, context, ": y differs from axpy_strided's");
  };
  for (std::size_t n : kSizes) {
    for (std::ptrdiff_t incx : kIncrements) {
      for (std::ptrdiff_t incy : {std::ptrdiff_t(1), std::ptrdiff_t(-2), std::ptrdiff_t(0), incx}) {
        for (std::ptrdiff_t incv : {std::ptrdiff_t(1), std::ptrdiff_t(-3), std::ptrdiff_t(0)}) {
          Strided<T> x(n, incx, random), y(n, incy, random), v(n, incv, random);
          check(n, x, y, &v,
                where("axpy_dot_strided", n, incx, incy) + ", incv = " + std::to_string(incv));
        }
        Strided<T> x(n, incx, random), y(n, incy, random);
        check(n, x, y, nullptr, where("axpy_dot_strided, v == y", n, incx, incy));
      }
    }
  }
}

TEST_CASE_TEMPLATE("strided writes with an increment of 0 apply every update in order", T, float,
                   double) {
  const T x[] = {T(1),  T(2),  T(3),  T(4),  T(5),  T(6),  T(7),  T(8),  T(9),  T(10),
                 T(11), T(12), T(13), T(14), T(15), T(16), T(17), T(18), T(19), T(20)};
  T y = T(0.1);
  T expected = y;
  for (std::size_t i = 0; i < 20; ++i) expected = std::fma(T(0.3), x[i], expected);
  axpy_strided(20, T(0.3), x, 1, &y, 0);
  CHECK(y == expected);
  T s = T(3);
  scal_strided(20, T(0.5), &s, 0);
  CHECK(s == T(3) * T(0x1p-20));
}

TEST_CASE_TEMPLATE("strided copy and swap move exactly their elements", T, float, double) {
  Random random(14);
  for (std::size_t n : kSizes) {
    for (std::ptrdiff_t incx : kIncrements) {
      for (std::ptrdiff_t incy : {std::ptrdiff_t(1), std::ptrdiff_t(-2), std::ptrdiff_t(5), incx}) {
        Strided<T> x(n, incx, random), y(n, incy, random);
        const std::vector<T> gx = x.gathered(), gy = y.gathered();
        copy_strided(n, x.base(), incx, y.base(), incy);
        CHECK_MESSAGE(y.gathered() == gx, where("copy_strided", n, incx, incy));
        CHECK_MESSAGE(y.untouched_between(), where("copy_strided wrote between", n, incx, incy));
        CHECK_MESSAGE(x.gathered() == gx, where("copy_strided changed x", n, incx, incy));
        Strided<T> u(n, incx, random), v(n, incy, random);
        const std::vector<T> gu = u.gathered(), gv = v.gathered();
        swap_strided(n, u.base(), incx, v.base(), incy);
        CHECK_MESSAGE(u.gathered() == gv, where("swap_strided x", n, incx, incy));
        CHECK_MESSAGE(v.gathered() == gu, where("swap_strided y", n, incx, incy));
        CHECK_MESSAGE((u.untouched_between() && v.untouched_between()),
                      where("swap_strided wrote between", n, incx, incy));
      }
    }
  }
}

TEST_CASE_TEMPLATE("strided rot is within 2 eps of the rotated pair, elementwise", T, float,
                   double) {
  Random random(15);
  const T c = T(0.6), s = T(-0.8);
  for (std::size_t n : kSizes) {
    for (std::ptrdiff_t incx : kIncrements) {
      for (std::ptrdiff_t incy : {std::ptrdiff_t(1), std::ptrdiff_t(-2), std::ptrdiff_t(5), incx}) {
        Strided<T> x(n, incx, random), y(n, incy, random);
        const std::vector<T> gx = x.gathered(), gy = y.gathered();
        rot_strided(n, x.base(), incx, y.base(), incy, c, s);
        std::size_t bad = 0;
        for (std::size_t i = 0; i < n; ++i) {
          const Wide cx = Wide(c) * gx[i], sy = Wide(s) * gy[i];
          const Wide cy = Wide(c) * gy[i], sx = Wide(s) * gx[i];
          const Wide bx = 2 * Wide(kEps<T>) * (std::fabs(cx) + std::fabs(sy));
          const Wide by = 2 * Wide(kEps<T>) * (std::fabs(cy) + std::fabs(sx));
          if (std::fabs(Wide(x.at(i)) - (cx + sy)) > bx) ++bad;
          if (std::fabs(Wide(y.at(i)) - (cy - sx)) > by) ++bad;
        }
        CHECK_MESSAGE(bad == 0, where("rot_strided", n, incx, incy), ": ", bad, " elements off");
        CHECK_MESSAGE((x.untouched_between() && y.untouched_between()),
                      where("rot_strided wrote between", n, incx, incy));
      }
    }
  }
}

TEST_CASE_TEMPLATE("copy, swap and rot with an increment of 0 act element by element in order", T,
                   float, double) {
  const T x[] = {T(1), T(2), T(3), T(4), T(5), T(6), T(7), T(8), T(9), T(10), T(11)};
  std::vector<T> y(11, T(0));
  T one = T(-1);
  copy_strided(11, x, 0, y.data(), 1);
  CHECK(y == std::vector<T>(11, T(1)));
  copy_strided(11, x, 1, &one, 0);
  CHECK(one == T(11));
  copy_strided(11, x + 10, -1, &one, 0);  // element 0 is x[10], the last one x[0]
  CHECK(one == T(1));
  // swap with x of increment 0: x[0] moves along y, one place per step.
  std::vector<T> v(x, x + 11);
  T a = T(100);
  swap_strided(11, &a, 0, v.data(), 1);
  CHECK(a == T(11));
  CHECK(v[0] == T(100));
  for (std::size_t i = 1; i < 11; ++i) CHECK(v[i] == T(i));
  // rot with x of increment 0: one x rotated against each y in turn.
  std::vector<T> w(x, x + 11);
  T r = T(0.5);
  Wide er = r;
  std::vector<Wide> ew(w.begin(), w.end());
  const T c = T(0.8), s = T(0.6);
  rot_strided(11, &r, 0, w.data(), 1, c, s);
  for (std::size_t i = 0; i < 11; ++i) {
    const Wide t = Wide(c) * er + Wide(s) * ew[i];
    ew[i] = Wide(c) * ew[i] - Wide(s) * er;
    er = t;
  }
  CHECK(double(std::fabs(Wide(r) - er)) <= 64 * double(kEps<T>) * 40);
  for (std::size_t i = 0; i < 11; ++i)
    CHECK(double(std::fabs(Wide(w[i]) - ew[i])) <= 64 * double(kEps<T>) * 40);
}

}  // namespace
}  // namespace coheriq::kernels::testing
