// The C API (<coheriq/coheriq.h>) against the C++ API it wraps, under the engine in effect: every
// exported function is called here (kernels.capi_covered checks the header against this file)
// with inputs on which it differs from its neighbours (ssum of {1, -2, 3} is 2, sasum 6; the
// strided kernels walk other elements than the contiguous ones; each transpose pair of a GEMM
// reads other elements), and its results must be bitwise those of the C++ call. A C function
// that calls the wrong kernel, or passes its arguments in the wrong order, differs here.
// (Argument errors from C: tests/blas/c_api_test.c.)
#include <doctest/doctest.h>

#include <coheriq/coheriq.h>
#include <coheriq/coheriq.hpp>
#include <coheriq/kernels.hpp>

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "support.hpp"

namespace coheriq::kernels::testing {
namespace {

template <class T>
bool same_bits(const T& a, const T& b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}
template <class T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

// Inputs of the BLAS-1 tests: kN elements (odd, past every lane count), signs mixed and
// magnitudes distinct, so that sum, asum, nrm2 and dot differ and the largest |x| is one element.
// A strided vector has kStrided elements, |inc| apart, inside the same storage.
constexpr std::size_t kN = 37, kStrided = 12;
template <class T>
std::vector<T> values(double scale, int shift) {
  std::vector<T> v(kN);
  for (std::size_t i = 0; i < kN; ++i) {
    const double magnitude = scale * (1.0 + double((i * 7 + shift) % kN) / 8.0);
    v[i] = T((i + shift) % 3 == 1 ? -magnitude : magnitude);
  }
  return v;
}
// Element 0 of a strided vector with increment inc over `v`: the highest address for inc < 0.
template <class T>
T* first(std::vector<T>& v, std::ptrdiff_t inc) {
  return inc < 0 ? v.data() + (kStrided - 1) * std::size_t(-inc) : v.data();
}

// The C API's BLAS-1 of one element type.
template <class T>
struct C;
template <>
struct C<float> {
  static constexpr auto dot = coheriq_sdot;
  static constexpr auto dot_strided = coheriq_sdot_strided;
  static constexpr auto axpy = coheriq_saxpy;
  static constexpr auto axpy_strided = coheriq_saxpy_strided;
  static constexpr auto scal = coheriq_sscal;
  static constexpr auto scal_strided = coheriq_sscal_strided;
  static constexpr auto sum = coheriq_ssum;
  static constexpr auto asum = coheriq_sasum;
  static constexpr auto asum_strided = coheriq_sasum_strided;
  static constexpr auto nrm2 = coheriq_snrm2;
  static constexpr auto nrm2_strided = coheriq_snrm2_strided;
  static constexpr auto iamax = coheriq_isamax;
  static constexpr auto iamax_strided = coheriq_isamax_strided;
  static constexpr auto gemm = coheriq_sgemm;
  static constexpr auto gemm_batch_strided = coheriq_sgemm_batch_strided;
  static constexpr auto gemm_batch = coheriq_sgemm_batch;
};
template <>
struct C<double> {
  static constexpr auto dot = coheriq_ddot;
  static constexpr auto dot_strided = coheriq_ddot_strided;
  static constexpr auto axpy = coheriq_daxpy;
  static constexpr auto axpy_strided = coheriq_daxpy_strided;
  static constexpr auto scal = coheriq_dscal;
  static constexpr auto scal_strided = coheriq_dscal_strided;
  static constexpr auto sum = coheriq_dsum;
  static constexpr auto asum = coheriq_dasum;
  static constexpr auto asum_strided = coheriq_dasum_strided;
  static constexpr auto nrm2 = coheriq_dnrm2;
  static constexpr auto nrm2_strided = coheriq_dnrm2_strided;
  static constexpr auto iamax = coheriq_idamax;
  static constexpr auto iamax_strided = coheriq_idamax_strided;
  static constexpr auto gemm = coheriq_dgemm;
  static constexpr auto gemm_batch_strided = coheriq_dgemm_batch_strided;
  static constexpr auto gemm_batch = coheriq_dgemm_batch;
};

// A result of the C API beside the C++ one, for one report line.
template <class R>
struct Pair {
  std::string name;
  int status;
  R c, cxx;
};
template <class R>
void check_pair(const Pair<R>& p) {
  CHECK_MESSAGE(p.status == COHERIQ_OK, p.name, ": ", coheriq_last_error());
  CHECK_MESSAGE(same_bits(p.c, p.cxx), p.name, ": the C result differs from the C++ one");
}

TEST_CASE_TEMPLATE("every C API BLAS-1 function gives its C++ counterpart's bits", T, float,
                   double) {
  using Api = C<T>;
  std::vector<T> x = values<T>(1.0, 0), y = values<T>(0.5, 5);
  const std::ptrdiff_t incx = -3, incy = 2;
  const T a = T(-0.625);
  const std::string type = type_name<T>();

  // Reductions: one value each.
  std::vector<Pair<T>> values_of;
  T r = T(0);
  int s = Api::dot(kN, x.data(), y.data(), &r);
  values_of.push_back({"dot", s, r, dot(kN, x.data(), y.data())});
  s = Api::dot_strided(kStrided, first(x, incx), incx, first(y, incy), incy, &r);
  values_of.push_back(
      {"dot_strided", s, r, dot_strided(kStrided, first(x, incx), incx, first(y, incy), incy)});
  s = Api::sum(kN, x.data(), &r);
  values_of.push_back({"sum", s, r, sum(kN, x.data())});
  s = Api::asum(kN, x.data(), &r);
  values_of.push_back({"asum", s, r, asum(kN, x.data())});
  s = Api::asum_strided(kStrided, first(x, incx), incx, &r);
  values_of.push_back({"asum_strided", s, r, asum_strided(kStrided, first(x, incx), incx)});
  s = Api::nrm2(kN, x.data(), &r);
  values_of.push_back({"nrm2", s, r, nrm2(kN, x.data())});
  s = Api::nrm2_strided(kStrided, first(x, incx), incx, &r);
  values_of.push_back({"nrm2_strided", s, r, nrm2_strided(kStrided, first(x, incx), incx)});
  for (Pair<T>& p : values_of) {
    p.name = p.name + "." + type;
    check_pair(p);
  }
  // The inputs tell the reductions apart: no two C++ results are equal.
  for (std::size_t i = 0; i < values_of.size(); ++i) {
    for (std::size_t j = i + 1; j < values_of.size(); ++j) {
      CHECK_MESSAGE(values_of[i].cxx != values_of[j].cxx, values_of[i].name, " and ",
                    values_of[j].name, " agree on the test's inputs");
    }
  }

  std::size_t index = 0;
  s = Api::iamax(kN, x.data(), &index);
  const Pair<std::size_t> contiguous{"iamax." + type, s, index, iamax(kN, x.data())};
  check_pair(contiguous);
  s = Api::iamax_strided(kStrided, first(x, incx), incx, &index);
  const Pair<std::size_t> strided{"iamax_strided." + type, s, index,
                                  iamax_strided(kStrided, first(x, incx), incx)};
  check_pair(strided);
  CHECK(contiguous.cxx != strided.cxx);

  // Updates: the whole storage after the call, C against C++.
  std::vector<std::vector<T>> updated;
  const auto update = [&](const std::string& name, auto c_call, auto cxx_call) {
    std::vector<T> by_c = y, by_cxx = y;
    const int status = c_call(by_c);
    cxx_call(by_cxx);
    check_pair(Pair<std::vector<T>>{name + "." + type, status, by_c, by_cxx});
    updated.push_back(by_cxx);
  };
  update(
      "axpy", [&](std::vector<T>& v) { return Api::axpy(kN, a, x.data(), v.data()); },
      [&](std::vector<T>& v) { axpy(kN, a, x.data(), v.data()); });
  update(
      "axpy_strided",
      [&](std::vector<T>& v) {
        return Api::axpy_strided(kStrided, a, first(x, incx), incx, first(v, incy), incy);
      },
      [&](std::vector<T>& v) {
        axpy_strided(kStrided, a, first(x, incx), incx, first(v, incy), incy);
      });
  update(
      "scal", [&](std::vector<T>& v) { return Api::scal(kN, a, v.data()); },
      [&](std::vector<T>& v) { scal(kN, a, v.data()); });
  update(
      "scal_strided",
      [&](std::vector<T>& v) { return Api::scal_strided(kStrided, a, first(v, incy), incy); },
      [&](std::vector<T>& v) { scal_strided(kStrided, a, first(v, incy), incy); });
  for (std::size_t i = 0; i < updated.size(); ++i) {
    for (std::size_t j = i + 1; j < updated.size(); ++j) {
      CHECK_MESSAGE(!same_bits(updated[i], updated[j]), "updates ", i, " and ", j, " agree");
    }
  }
}

// The vector math of one element type: each C function with its C++ counterpart, listed by hand
// (kernels.selfcheck.capi_covered finds each name here).
template <class T>
struct Unary {
  const char* name;
  int (*c)(size_t, const T*, T*);
  void (*cxx)(std::size_t, const T*, T*);
};
template <class T>
struct Binary {
  const char* name;
  int (*c)(size_t, const T*, const T*, T*);
  void (*cxx)(std::size_t, const T*, const T*, T*);
};
template <class T>
struct Math;
template <>
struct Math<float> {
  static std::vector<Unary<float>> unary() {
    return {{"exp", coheriq_vsexp, exp},
            {"exp2", coheriq_vsexp2, exp2},
            {"expm1", coheriq_vsexpm1, expm1},
            {"log", coheriq_vslog, log},
            {"log2", coheriq_vslog2, log2},
            {"log10", coheriq_vslog10, log10},
            {"log1p", coheriq_vslog1p, log1p},
            {"sqrt", coheriq_vssqrt, sqrt},
            {"cbrt", coheriq_vscbrt, cbrt},
            {"sin", coheriq_vssin, sin},
            {"cos", coheriq_vscos, cos},
            {"tan", coheriq_vstan, tan},
            {"asin", coheriq_vsasin, asin},
            {"acos", coheriq_vsacos, acos},
            {"atan", coheriq_vsatan, atan},
            {"sinh", coheriq_vssinh, sinh},
            {"cosh", coheriq_vscosh, cosh},
            {"erf", coheriq_vserf, erf},
            {"erfc", coheriq_vserfc, erfc},
            {"tanh", coheriq_vstanh, tanh},
            {"sigmoid", coheriq_vssigmoid, sigmoid},
            {"softmax", coheriq_vssoftmax, softmax},
            {"silu", coheriq_vssilu, silu},
            {"gelu", coheriq_vsgelu, gelu},
            {"gelu_tanh", coheriq_vsgelu_tanh, gelu_tanh},
            {"log_softmax", coheriq_vslog_softmax, log_softmax}};
  }
  static std::vector<Binary<float>> binary() {
    return {{"pow", coheriq_vspow, pow}, {"atan2", coheriq_vsatan2, atan2}};
  }
};
template <>
struct Math<double> {
  static std::vector<Unary<double>> unary() {
    return {{"exp", coheriq_vdexp, exp},
            {"exp2", coheriq_vdexp2, exp2},
            {"expm1", coheriq_vdexpm1, expm1},
            {"log", coheriq_vdlog, log},
            {"log2", coheriq_vdlog2, log2},
            {"log10", coheriq_vdlog10, log10},
            {"log1p", coheriq_vdlog1p, log1p},
            {"sqrt", coheriq_vdsqrt, sqrt},
            {"cbrt", coheriq_vdcbrt, cbrt},
            {"sin", coheriq_vdsin, sin},
            {"cos", coheriq_vdcos, cos},
            {"tan", coheriq_vdtan, tan},
            {"asin", coheriq_vdasin, asin},
            {"acos", coheriq_vdacos, acos},
            {"atan", coheriq_vdatan, atan},
            {"sinh", coheriq_vdsinh, sinh},
            {"cosh", coheriq_vdcosh, cosh},
            {"erf", coheriq_vderf, erf},
            {"erfc", coheriq_vderfc, erfc},
            {"sigmoid", coheriq_vdsigmoid, sigmoid},
            {"softmax", coheriq_vdsoftmax, softmax},
            {"silu", coheriq_vdsilu, silu},
            {"gelu", coheriq_vdgelu, gelu},
            {"gelu_tanh", coheriq_vdgelu_tanh, gelu_tanh},
            {"log_softmax", coheriq_vdlog_softmax, log_softmax},
            {"tanh", coheriq_vdtanh, tanh}};
  }
  static std::vector<Binary<double>> binary() {
    return {{"pow", coheriq_vdpow, pow}, {"atan2", coheriq_vdatan2, atan2}};
  }
};

TEST_CASE_TEMPLATE("every C API vector-math function gives its C++ counterpart's bits", T, float,
                   double) {
  // Magnitudes 0.1 to 0.56 (asin and acos are defined there) and 0.75 to 4.2, signs mixed (log of
  // the negative ones: NaN); the binary functions take both, in both orders.
  const std::vector<T> x = values<T>(0.1, 2), w = values<T>(0.75, 5);
  std::vector<T> small_and_large(x);
  small_and_large.insert(small_and_large.end(), w.begin(), w.end());
  const std::size_t n = small_and_large.size();
  std::vector<const char*> names;
  std::vector<std::vector<T>> outputs;
  for (const Unary<T>& f : Math<T>::unary()) {
    std::vector<T> by_c(n, T(9)), by_cxx(n, T(9));
    const int status = f.c(n, small_and_large.data(), by_c.data());
    f.cxx(n, small_and_large.data(), by_cxx.data());
    check_pair(Pair<std::vector<T>>{f.name, status, by_c, by_cxx});
    names.push_back(f.name);
    outputs.push_back(by_cxx);
  }
  for (const Binary<T>& f : Math<T>::binary()) {
    std::vector<T> by_c(kN, T(9)), by_cxx(kN, T(9)), swapped(kN, T(9));
    const int status = f.c(kN, x.data(), w.data(), by_c.data());
    f.cxx(kN, x.data(), w.data(), by_cxx.data());
    check_pair(Pair<std::vector<T>>{f.name, status, by_c, by_cxx});
    f.cxx(kN, w.data(), x.data(), swapped.data());
    CHECK_MESSAGE(!same_bits(by_cxx, swapped), f.name, " gives the same with its inputs swapped");
    names.push_back(f.name);
    by_cxx.resize(n, T(0));
    outputs.push_back(by_cxx);
  }
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    for (std::size_t j = i + 1; j < outputs.size(); ++j) {
      CHECK_MESSAGE(!same_bits(outputs[i], outputs[j]), names[i], " and ", names[j],
                    " agree on the test's inputs");
    }
  }
  // In place (y == x), as the header allows.
  std::vector<T> in_place = small_and_large, expected(n);
  CHECK(Math<T>::unary()[0].c(n, in_place.data(), in_place.data()) == COHERIQ_OK);
  exp(n, small_and_large.data(), expected.data());
  CHECK(same_bits(in_place, expected));
}

// GEMM: one A and one B storage read under all four transpose pairs (every leading dimension
// holds a row under either reading), so each pair reads other elements and gives another C;
// shapes with m, n and k distinct and odd, padded leading dimensions, alpha and beta general.
TEST_CASE_TEMPLATE("coheriq_?gemm gives gemm's bits for all four transpose pairs", T, float,
                   double) {
  struct Shape {
    std::size_t m, n, k;
  };
  for (const Shape& s : {Shape{7, 5, 9}, Shape{33, 17, 65}, Shape{1, 3, 2}}) {
    const std::size_t lda = std::max(s.m, s.k) + 3, ldb = std::max(s.k, s.n) + 5, ldc = s.n + 2;
    const std::size_t rows = std::max({s.m, s.n, s.k});
    std::vector<T> a(rows * lda), b(rows * ldb), c(s.m * ldc);
    for (std::size_t i = 0; i < a.size(); ++i) a[i] = T(double((i * 37) % 101) / 50.0 - 1.0);
    for (std::size_t i = 0; i < b.size(); ++i) b[i] = T(double((i * 53) % 97) / 48.0 - 1.0);
    for (std::size_t i = 0; i < c.size(); ++i) c[i] = T(double((i * 11) % 13) - 6.0);
    std::vector<std::vector<T>> results;
    for (int ta : {COHERIQ_NO_TRANS, COHERIQ_TRANS}) {
      for (int tb : {COHERIQ_NO_TRANS, COHERIQ_TRANS}) {
        const Trans op_a = ta == COHERIQ_TRANS ? Trans::T : Trans::N;
        const Trans op_b = tb == COHERIQ_TRANS ? Trans::T : Trans::N;
        std::vector<T> by_c = c, by_cxx = c;
        const int status = C<T>::gemm(ta, tb, s.m, s.n, s.k, T(0.75), a.data(), lda, b.data(), ldb,
                                      T(-1.25), by_c.data(), ldc);
        gemm(op_a, op_b, s.m, s.n, s.k, T(0.75), a.data(), lda, b.data(), ldb, T(-1.25),
             by_cxx.data(), ldc);
        const std::string name = std::string("gemm.") + type_name<T>() + " " +
                                 (ta == COHERIQ_TRANS ? "T" : "N") +
                                 (tb == COHERIQ_TRANS ? "T" : "N") + " m = " + std::to_string(s.m) +
                                 ", n = " + std::to_string(s.n) + ", k = " + std::to_string(s.k);
        check_pair(Pair<std::vector<T>>{name, status, by_c, by_cxx});
        results.push_back(by_cxx);
      }
    }
    for (std::size_t i = 0; i < results.size(); ++i) {
      for (std::size_t j = i + 1; j < results.size(); ++j) {
        CHECK_MESSAGE(!same_bits(results[i], results[j]), "transpose pairs ", i, " and ", j,
                      " agree at m = ", s.m, ", n = ", s.n, ", k = ", s.k);
      }
    }
  }
}

TEST_CASE_TEMPLATE("coheriq_?gemm_batch_strided and coheriq_?gemm_batch give the C++ batches' bits",
                   T, float, double) {
  constexpr std::size_t m = 5, n = 6, k = 7, lda = 8, ldb = 9, ldc = 10, batch = 4;
  constexpr std::size_t stride_a = m * lda + 1, stride_b = k * ldb + 2, stride_c = m * ldc + 3;
  std::vector<T> a(stride_a * batch), b(stride_b * batch), c(stride_c * batch);
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = T(double((i * 37) % 101) / 50.0 - 1.0);
  for (std::size_t i = 0; i < b.size(); ++i) b[i] = T(double((i * 53) % 97) / 48.0 - 1.0);
  for (std::size_t i = 0; i < c.size(); ++i) c[i] = T(double((i * 11) % 13) - 6.0);
  std::vector<T> by_c = c, by_cxx = c;
  int status = C<T>::gemm_batch_strided(COHERIQ_NO_TRANS, COHERIQ_TRANS, m, n, k, T(0.75), a.data(),
                                        lda, stride_a, b.data(), ldb, stride_b, T(-1.25),
                                        by_c.data(), ldc, stride_c, batch);
  gemm_batch_strided(Trans::N, Trans::T, m, n, k, T(0.75), a.data(), lda, stride_a, b.data(), ldb,
                     stride_b, T(-1.25), by_cxx.data(), ldc, stride_c, batch);
  check_pair(Pair<std::vector<T>>{std::string("gemm_batch_strided.") + type_name<T>(), status, by_c,
                                  by_cxx});
  CHECK(!same_bits(by_cxx, c));
  std::vector<const T*> as, bs;
  std::vector<T*> cs;
  std::vector<T> by_arrays = c;
  for (std::size_t i = 0; i < batch; ++i) {
    as.push_back(a.data() + i * stride_a);
    bs.push_back(b.data() + i * stride_b);
    cs.push_back(by_arrays.data() + i * stride_c);
  }
  status = C<T>::gemm_batch(COHERIQ_NO_TRANS, COHERIQ_TRANS, m, n, k, T(0.75), as.data(), lda,
                            bs.data(), ldb, T(-1.25), cs.data(), ldc, batch);
  check_pair(
      Pair<std::vector<T>>{std::string("gemm_batch.") + type_name<T>(), status, by_arrays, by_cxx});
  // A NULL matrix with products to compute is refused by name, and changes nothing.
  std::vector<T> untouched = c;
  CHECK(C<T>::gemm_batch_strided(COHERIQ_NO_TRANS, COHERIQ_NO_TRANS, m, n, k, T(1), nullptr, lda,
                                 stride_a, b.data(), ldb, stride_b, T(0), untouched.data(), ldc,
                                 stride_c, batch) == COHERIQ_ERROR_INVALID_ARGUMENT);
  CHECK(std::string(coheriq_last_error())
            .find(std::string("coheriq: coheriq_") + (sizeof(T) == 4 ? "s" : "d") +
                  "gemm_batch_strided: A is NULL with m = 5, n = 6, k = 7, batch > 0") == 0);
  CHECK(C<T>::gemm_batch(COHERIQ_NO_TRANS, COHERIQ_NO_TRANS, m, n, k, T(1), as.data(), lda,
                         bs.data(), ldb, T(0), nullptr, ldc,
                         batch) == COHERIQ_ERROR_INVALID_ARGUMENT);
  CHECK(same_bits(untouched, c));
}

// The engine and thread functions against coheriq:: and coheriq::kernels::, and the last error
// against the C++ exception of the same bad call (with the C function's name).
TEST_CASE("the C API's engine, thread and error functions agree with the C++ API") {
  (void)dot(0, static_cast<const float*>(nullptr), static_cast<const float*>(nullptr));  // lock
  const char* domain = COHERIQ_KERNELS_DOMAIN;
  CHECK(std::string(domain) == domain_name);
  const std::vector<EngineInfo> engines = coheriq::engines(domain_name);
  std::size_t count = 0;
  REQUIRE(coheriq_engine_count(domain, &count) == COHERIQ_OK);
  CHECK(count == engines.size());
  std::string other;  // a supported engine that is not in effect, if there is one
  for (std::size_t i = 0; i < count && i < engines.size(); ++i) {
    char name[64] = "";
    int supported = -1;
    CHECK(coheriq_engine_name(domain, i, name, sizeof name) == COHERIQ_OK);
    CHECK(std::string(name) == engines[i].name);
    CHECK(coheriq_engine_supported(domain, name, &supported) == COHERIQ_OK);
    CHECK(supported == (engines[i].supported ? 1 : 0));
    if (engines[i].supported && engines[i].name != engine()) other = engines[i].name;
  }
  char active[64] = "";
  CHECK(coheriq_active_engine(domain, active, sizeof active) == COHERIQ_OK);
  CHECK(std::string(active) == kernels::active_engine());
  CHECK(coheriq_enable_engine(domain, active) == COHERIQ_OK);  // the engine in effect: harmless
  if (!other.empty()) {
    CHECK(coheriq_enable_engine(domain, other.c_str()) == COHERIQ_ERROR_ENGINE_LOCKED);
  }

  // The reproducible mode: what the C++ API says, and no change once locked with another mode.
  int on = -1;
  CHECK(coheriq_reproducible(domain, &on) == COHERIQ_OK);
  CHECK(on == (kernels::reproducible() ? 1 : 0));
  CHECK(coheriq_reproducible(nullptr, &on) == COHERIQ_ERROR_INVALID_ARGUMENT);
  CHECK(coheriq_enable_reproducible("no.such.domain") == COHERIQ_ERROR_UNKNOWN_DOMAIN);
  if (on == 1) {
    CHECK(coheriq_enable_reproducible(domain) == COHERIQ_OK);  // on already: harmless
  } else {
    CHECK(coheriq_enable_reproducible(domain) == COHERIQ_ERROR_ENGINE_LOCKED);
    CHECK(std::string(coheriq_last_error()).find("COHERIQ_REPRODUCIBLE=1") != std::string::npos);
    CHECK(coheriq_reproducible(domain, &on) == COHERIQ_OK);
    CHECK(on == 0);
  }

  CHECK(coheriq_set_num_threads(3) == COHERIQ_OK);
  std::size_t threads = 0;
  CHECK(coheriq_num_threads(&threads) == COHERIQ_OK);
  CHECK(threads == 3);
  CHECK(num_threads() == 3);
  CHECK(coheriq_set_num_threads(0) == COHERIQ_OK);
  CHECK(coheriq_num_threads(&threads) == COHERIQ_OK);
  CHECK(threads == num_threads());

  // lda = 3 < k = 5: the C++ message, with the C function's name.
  float a[16] = {}, b[16] = {}, c[16] = {};
  std::string cxx;
  try {
    gemm(Trans::N, Trans::N, 2, 4, 5, 1.0f, a, 3, b, 4, 0.0f, c, 4);
  } catch (const std::invalid_argument& e) {
    cxx = e.what();
  }
  REQUIRE(cxx.rfind("coheriq: gemm: ", 0) == 0);
  CHECK(coheriq_sgemm(COHERIQ_NO_TRANS, COHERIQ_NO_TRANS, 2, 4, 5, 1.0f, a, 3, b, 4, 0.0f, c, 4) ==
        COHERIQ_ERROR_INVALID_ARGUMENT);
  CHECK(std::string(coheriq_last_error()) ==
        "coheriq: coheriq_sgemm: " + cxx.substr(std::string("coheriq: gemm: ").size()));
}

}  // namespace
}  // namespace coheriq::kernels::testing
