// The public API around the kernels: argument checks, registration, the engine in effect.
//
// doctest runs test cases in file order, and this file sorts first: its first case sees the
// domain before any kernel ran, which is what "a rejected call locks nothing" needs.
#include <doctest/doctest.h>

#include <coheriq/coheriq.hpp>
#include <coheriq/kernels.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "support.hpp"

namespace coheriq::kernels::testing {
namespace {

// The message of the std::invalid_argument `call` throws, or a note that it threw none.
template <class Call>
std::string invalid_argument_message(Call&& call) {
  try {
    call();
  } catch (const std::invalid_argument& e) {
    return e.what();
  } catch (const std::exception& e) {
    return std::string("<not std::invalid_argument: ") + e.what() + ">";
  }
  return "<no exception>";
}

bool starts_with(const std::string& s, const std::string& prefix) {
  return s.compare(0, prefix.size(), prefix) == 0;
}

// A std::string: doctest prints a const char* as a pointer.
std::string name_of(Trans t) { return t == Trans::N ? "Trans::N" : "Trans::T"; }

// Every leading dimension one short of its row, for each transpose: rejected, naming it, and
// nothing written. m, n and k differ so that each row length is distinct.
template <class T>
void check_rejected_leading_dimensions() {
  constexpr std::size_t m = 3, n = 4, k = 5;
  std::vector<T> a(64, T(1)), b(64, T(1)), c(64, T(7));
  for (Trans ta : {Trans::N, Trans::T}) {
    for (Trans tb : {Trans::N, Trans::T}) {
      const std::size_t row_a = ta == Trans::N ? k : m;
      const std::size_t row_b = tb == Trans::N ? n : k;
      CAPTURE(name_of(ta));
      CAPTURE(name_of(tb));
      auto gemm_with = [&](std::size_t lda, std::size_t ldb, std::size_t ldc) {
        return invalid_argument_message([&] {
          gemm(ta, tb, m, n, k, T(1), a.data(), lda, b.data(), ldb, T(0), c.data(), ldc);
        });
      };
      const std::string lda = gemm_with(row_a - 1, row_b, n);
      CHECK_MESSAGE(starts_with(lda, "coheriq: gemm: lda = " + std::to_string(row_a - 1) +
                                         " is smaller than a row of A"),
                    lda);
      CHECK_MESSAGE(lda.find(std::string("for ") + name_of(ta)) != std::string::npos, lda);
      const std::string ldb = gemm_with(row_a, row_b - 1, n);
      CHECK_MESSAGE(starts_with(ldb, "coheriq: gemm: ldb = " + std::to_string(row_b - 1) +
                                         " is smaller than a row of B"),
                    ldb);
      const std::string ldc = gemm_with(row_a, row_b, n - 1);
      CHECK_MESSAGE(starts_with(ldc, "coheriq: gemm: ldc = 3 is smaller than a row of C"), ldc);

      const std::string pack =
          invalid_argument_message([&] { (void)pack_b(tb, k, n, b.data(), row_b - 1); });
      CHECK_MESSAGE(starts_with(pack, "coheriq: pack_b: ldb = " + std::to_string(row_b - 1) +
                                          " is smaller than a row of B"),
                    pack);
    }
  }
  CHECK(std::all_of(c.begin(), c.end(), [](T v) { return v == T(7); }));
}

// ------------------------------ Sizes no array can have

// The smallest n of elements of T that spans more than PTRDIFF_MAX bytes.
template <class T>
constexpr std::size_t kTooMany = static_cast<std::size_t>(PTRDIFF_MAX) / sizeof(T) + 1;
constexpr std::size_t kSizeMax = std::numeric_limits<std::size_t>::max();

// A call of a kernel whose sizes describe an array no process can hold, over small real
// arrays (reading past them would fault), and the message that must reject it.
struct Rejected {
  std::string message;
  std::function<void()> call;
};

template <class T>
std::vector<Rejected> vectors_too_large(std::vector<T>& x, std::vector<T>& y) {
  const std::size_t n = kTooMany<T>;
  const std::string many = std::to_string(n);
  const auto whole = [&](const std::string& f, const std::string& v) {
    return "coheriq: " + f + ": " + v + " (n = " + many + " elements) spans more bytes than an " +
           "array can hold (PTRDIFF_MAX); pass the n of " + v + " as allocated";
  };
  // Two elements |inc| apart, inc = n - 1 (one past the limit) or PTRDIFF_MIN.
  const std::ptrdiff_t far = static_cast<std::ptrdiff_t>(n - 1), least = PTRDIFF_MIN;
  const auto strided = [&](const std::string& f, const std::string& v, std::ptrdiff_t inc) {
    const std::string inc_name = "inc" + v;
    return "coheriq: " + f + ": " + v + " (n = 2 elements, " + inc_name + " = " +
           std::to_string(inc) + " apart) spans more bytes than an array can hold " +
           "(PTRDIFF_MAX); pass the n and " + inc_name + " of " + v + " as allocated";
  };
  const T* cx = x.data();
  T* px = x.data();
  T* py = y.data();
  return {
      {whole("dot", "x"), [=] { (void)dot(n, cx, cx); }},
      {whole("axpy", "x"), [=] { axpy(n, T(2), cx, py); }},
      {whole("scal", "x"), [=] { scal(n, T(2), px); }},
      {whole("sum", "x"), [=] { (void)sum(n, cx); }},
      {whole("asum", "x"), [=] { (void)asum(n, cx); }},
      {whole("nrm2", "x"), [=] { (void)nrm2(n, cx); }},
      {whole("iamax", "x"), [=] { (void)iamax(n, cx); }},
      {strided("dot_strided", "x", far), [=] { (void)dot_strided(2, cx, far, cx, 1); }},
      {strided("dot_strided", "y", least), [=] { (void)dot_strided(2, cx, -1, cx, least); }},
      {strided("axpy_strided", "x", least), [=] { axpy_strided(2, T(2), cx, least, py, 1); }},
      {strided("axpy_strided", "y", far), [=] { axpy_strided(2, T(2), cx, 0, py, far); }},
      {strided("scal_strided", "x", far), [=] { scal_strided(2, T(2), px, far); }},
      {strided("asum_strided", "x", least), [=] { (void)asum_strided(2, cx, least); }},
      {strided("nrm2_strided", "x", far), [=] { (void)nrm2_strided(2, cx, far); }},
      {strided("iamax_strided", "x", least), [=] { (void)iamax_strided(2, cx, least); }},
  };
}

template <class T>
std::vector<Rejected> matrices_too_large(std::vector<T>& a, std::vector<T>& b, std::vector<T>& c) {
  const T* pa = a.data();
  const T* pb = b.data();
  T* pc = c.data();
  const std::string max = std::to_string(kSizeMax), many = std::to_string(kTooMany<T>);
  const std::string tail = " spans more bytes than an array can hold (PTRDIFF_MAX); pass the ";
  // (m − 1)·ldc + n fits in std::size_t but not in PTRDIFF_MAX bytes: m = 3, ldc = limit / 2.
  const std::size_t half = kTooMany<T> / 2;
  return {
      // m = SIZE_MAX (the product would go parallel: a pool worker would fault).
      {"coheriq: gemm: A (m = " + max + " rows of k = 1 elements for Trans::N, lda = 1 apart)" +
           tail + "m, k and lda of A as allocated",
       [=] { gemm(Trans::N, Trans::N, kSizeMax, 1, 1, T(1), pa, 1, pb, 1, T(0), pc, 1); }},
      // m·ldc overflows std::size_t (A and B are small).
      {"coheriq: gemm: C (m = 1099511627776 rows of n = 2 elements, ldc = 1073741824 apart)" +
           tail + "m, n and ldc of C as allocated",
       [=] {
         gemm(Trans::N, Trans::N, std::size_t{1} << 40, 2, 1, T(1), pa, 1, pb, 2, T(0), pc,
              std::size_t{1} << 30);
       }},
      {"coheriq: gemm: C (m = 3 rows of n = 2 elements, ldc = " + std::to_string(half) + " apart)" +
           tail + "m, n and ldc of C as allocated",
       [=] { gemm(Trans::T, Trans::N, 3, 2, 2, T(1), pa, 3, pb, 2, T(0), pc, half); }},
      // Stored transposed: A is k rows of m, B n rows of k.
      {"coheriq: gemm: A (k = " + many + " rows of m = 1 elements for Trans::T, lda = 1 apart)" +
           tail + "k, m and lda of A as allocated",
       [=] { gemm(Trans::T, Trans::N, 1, 1, kTooMany<T>, T(1), pa, 1, pb, 1, T(0), pc, 1); }},
      {"coheriq: gemm: B (n = 3 rows of k = 1 elements for Trans::T, ldb = " +
           std::to_string(half) + " apart)" + tail + "n, k and ldb of B as allocated",
       [=] { gemm(Trans::N, Trans::T, 1, 3, 1, T(1), pa, 1, pb, half, T(0), pc, 3); }},
      {"coheriq: pack_b: B (k = 2 rows of n = " + many + " elements for Trans::N, ldb = " + many +
           " apart)" + tail + "k, n and ldb of B as allocated",
       [=] { (void)pack_b(Trans::N, 2, kTooMany<T>, pb, kTooMany<T>); }},
  };
}

template <class T>
void check_rejected(const std::vector<Rejected>& rejected) {
  for (const Rejected& r : rejected) {
    const std::string message = invalid_argument_message(r.call);
    CHECK_MESSAGE(message == r.message, "expected: ", r.message);
  }
}

TEST_CASE("sizes no array can have raise std::invalid_argument naming them, and lock nothing") {
  const bool was_locked = coheriq::is_locked(domain_name);
  std::vector<float> xf(64, 1.0f), yf(64, 2.0f), cf(64, 7.0f);
  std::vector<double> xd(64, 1.0), yd(64, 2.0), cd(64, 7.0);
  check_rejected<float>(vectors_too_large(xf, yf));
  check_rejected<double>(vectors_too_large(xd, yd));
  check_rejected<float>(matrices_too_large(xf, yf, cf));
  check_rejected<double>(matrices_too_large(xd, yd, cd));

  // Vector math (f32) and the reduced-precision kernels, with their own element sizes.
  const std::size_t n = kTooMany<float>;
  const std::string many = std::to_string(n);
  using Math = std::pair<const char*, void (*)(std::size_t, const float*, float*)>;
  for (auto [name, f] :
       {Math{"exp", kernels::exp}, Math{"log", kernels::log}, Math{"tanh", kernels::tanh},
        Math{"sigmoid", kernels::sigmoid}, Math{"softmax", kernels::softmax}}) {
    const auto kernel = f;  // clang 14 cannot capture a structured binding in a lambda
    CHECK(invalid_argument_message([&] { kernel(n, xf.data(), yf.data()); }) ==
          "coheriq: " + std::string(name) + ": x (n = " + many +
              " elements) spans more bytes than an array can hold (PTRDIFF_MAX); pass the n of x "
              "as allocated");
  }
  std::vector<std::uint8_t> u8(64, 1);
  std::vector<std::int8_t> i8(64, 1);
  std::vector<std::int32_t> i32(64, 7);
  std::vector<bfloat16> bf(64, bfloat16(1.0f));
  const std::size_t bytes = kTooMany<std::uint8_t>;
  CHECK(invalid_argument_message([&] {
          (void)dot_u8s8(bytes, u8.data(), i8.data());
        }).rfind("coheriq: dot_u8s8: x (n = " + std::to_string(bytes) + " elements) spans", 0) ==
        0);
  CHECK(invalid_argument_message([&] {
          (void)dot_bf16(kTooMany<bfloat16>, bf.data(), bf.data());
        }).rfind("coheriq: dot_bf16: x (n = " + std::to_string(kTooMany<bfloat16>), 0) == 0);
  // int32 C of gemm_u8s8s32: 4-byte rows; bf16 A of gemm_bf16: 2-byte elements.
  const std::string c_message = invalid_argument_message([&] {
    gemm_u8s8s32(3, 1, 1, u8.data(), 1, i8.data(), 1, i32.data(), kTooMany<std::int32_t> / 2);
  });
  CHECK_MESSAGE(
      c_message.rfind("coheriq: gemm_u8s8s32: C (m = 3 rows of n = 1 elements, ldc = ", 0) == 0,
      c_message);
  const std::string a_message = invalid_argument_message(
      [&] { gemm_bf16(kSizeMax, 1, 1, 1.0f, bf.data(), 1, bf.data(), 1, 0.0f, cf.data(), 1); });
  CHECK_MESSAGE(a_message == "coheriq: gemm_bf16: A (m = " + std::to_string(kSizeMax) +
                                 " rows of k = 1 elements, lda = 1 apart) spans more bytes than "
                                 "an array can hold (PTRDIFF_MAX); pass the m, k and lda of A as "
                                 "allocated",
                a_message);

  // (The packed product's checks: packed_test.cpp; a PackedMatrix would lock the domain.)

  // Nothing was written.
  CHECK(std::all_of(yf.begin(), yf.end(), [](float e) { return e == 2.0f; }));
  CHECK(std::all_of(yd.begin(), yd.end(), [](double e) { return e == 2.0; }));
  CHECK(std::all_of(cf.begin(), cf.end(), [](float e) { return e == 7.0f; }));
  CHECK(std::all_of(cd.begin(), cd.end(), [](double e) { return e == 7.0; }));
  CHECK(std::all_of(i32.begin(), i32.end(), [](std::int32_t e) { return e == 7; }));
  if (was_locked) {
    MESSAGE(
        "not checking that rejected calls leave the domain open: an earlier test case "
        "(run out of file order) used it already");
  } else {
    CHECK_FALSE(coheriq::is_locked(domain_name));
  }
}

TEST_CASE("bad leading dimensions raise std::invalid_argument naming them, and lock nothing") {
  const bool was_locked = coheriq::is_locked(domain_name);

  // The documented message, in full.
  std::vector<float> a(16), b(16), c(16);
  CHECK(invalid_argument_message([&] {
          gemm(Trans::N, Trans::N, 2, 4, 5, 1.0f, a.data(), 3, b.data(), 4, 0.0f, c.data(), 4);
        }) ==
        "coheriq: gemm: lda = 3 is smaller than a row of A (k = 5 for Trans::N); "
        "pass lda >= 5");
  check_rejected_leading_dimensions<float>();
  check_rejected_leading_dimensions<double>();

  if (was_locked) {
    MESSAGE(
        "not checking that rejected calls leave the domain open: an earlier test case "
        "(run out of file order) used it already");
  } else {
    CHECK_FALSE(coheriq::is_locked(domain_name));
  }
}

TEST_CASE("the kernels domain is registered by linking, and runs the engine COHERIQ_ENGINE names") {
  const std::vector<std::string> domains = coheriq::domains();
  CHECK(std::find(domains.begin(), domains.end(), std::string(domain_name)) != domains.end());

  (void)dot(0, static_cast<const float*>(nullptr), static_cast<const float*>(nullptr));
  CHECK(coheriq::is_locked(domain_name));
  CHECK(active_engine() == engine());

  const char* requested = std::getenv("COHERIQ_ENGINE");
  if (requested != nullptr && *requested != '\0' &&
      std::string(requested).find_first_of(", \t") == std::string::npos &&
      std::string(requested) != "auto") {
    CHECK(engine() == requested);
  }
  // Enabling the engine in effect is harmless, also after the lock.
  CHECK_NOTHROW(enable_engine(engine()));
}

}  // namespace
}  // namespace coheriq::kernels::testing
