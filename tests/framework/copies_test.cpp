// Several binaries' copies of one domain (docs/decisions.md, "Static copies"): the templates of
// <coheriq/domain.hpp> are local to each binary, so an application and a shared library that
// both call a domain through one framework each have their own slots, and the domain installs
// the engine into every copy. A second binary is simulated here by a second instantiation of the
// templates for the same domain (same name, ABI and candidates).
#include "support.hpp"

using shapes::test::expect_error;
using shapes::test::fresh_process;

namespace {

// Another binary's instantiation of test.shapes: the same description, slots of its own.
struct OtherBinary : shapes::Domain {};

shapes::Result other_area(double w, double h) {
  return coheriq::call<OtherBinary, shapes::cand::area>(w, h);
}
shapes::Result other_volume(double w, double h, double d) {
  return coheriq::call<OtherBinary, shapes::cand::volume>(w, h, d);
}

// A binary built against a different test.shapes under the same ABI: two candidates swapped.
struct SkewedBinary : shapes::Domain {
  using candidates =
      coheriq::list<shapes::cand::perimeter, shapes::cand::area, shapes::cand::volume,
                    shapes::cand::grid_store, shapes::cand::grid_load>;
};

}  // namespace

TEST_CASE("copies: a copy registered before the first use runs the engine the domain locks") {
  fresh_process();
  coheriq::materialize<OtherBinary>();
  coheriq::enable_engine(shapes::domain, "right");
  CHECK(shapes::area(2, 3).engine == "base");  // the library's copy locks the domain
  REQUIRE(coheriq::is_locked(shapes::domain));
  CHECK(other_area(2, 3).engine == "base");
  CHECK(other_volume(1, 2, 3).engine == "right");
  CHECK(other_volume(1, 2, 3).value == 6);
}

TEST_CASE("copies: a copy first used after the lock gets the locked engine") {
  fresh_process();
  coheriq::enable_engine(shapes::domain, "left");
  CHECK(shapes::perimeter(1, 1).engine == "left");
  CHECK(other_area(2, 3).engine == "base");  // registers now, installed at once
  CHECK(other_volume(1, 1, 1).engine == "base");
  CHECK(coheriq::status(shapes::domain).locked_by == "perimeter");
}

TEST_CASE("copies: the first use through a second copy locks every copy") {
  fresh_process();
  coheriq::enable_engine<OtherBinary>("right");
  CHECK(other_volume(1, 1, 1).engine == "right");
  CHECK(coheriq::status(shapes::domain).locked_by == "volume");
  CHECK(shapes::volume(1, 1, 1).engine == "right");
  CHECK(shapes::area(1, 1).engine == "base");
}

TEST_CASE("copies: a copy whose candidates differ under the same ABI is refused") {
  fresh_process();
  expect_error<coheriq::CompositionError>([] { coheriq::materialize<SkewedBinary>(); },
                                          {"test.shapes", "different candidates", "abi"});
  CHECK(coheriq::status(shapes::domain).state == "open");
  CHECK(shapes::area(1, 1).engine == "reference");
}
