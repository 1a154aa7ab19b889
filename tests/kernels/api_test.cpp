// The public API around the kernels: argument checks, registration, the engine in effect.
//
// doctest runs test cases in file order, and this file sorts first: its first case sees the
// domain before any kernel ran, which is what "a rejected call locks nothing" needs.
#include <doctest/doctest.h>

#include <coheriq/coheriq.hpp>
#include <coheriq/kernels.hpp>

#include <algorithm>
#include <cstdlib>
#include <stdexcept>
#include <string>
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
