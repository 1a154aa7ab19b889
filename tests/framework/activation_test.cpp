// The activation contract (docs/design.md, "The activation contract"): one engine per domain,
// one-way, settled before the first use. Each case runs in a fresh process (ctest runs every case
// on its own).
#include "support.hpp"

using shapes::test::check_calls;
using shapes::test::contains;
using shapes::test::expect_error;
using shapes::test::fresh_process;
using shapes::test::same_status;

namespace {

coheriq::DomainStatus status() { return coheriq::status(shapes::domain); }
void enable(std::string_view engine) { coheriq::enable_engine(shapes::domain, engine); }

}  // namespace

// ------------------------------ Before and after the first use

TEST_CASE("the reference runs when nothing was chosen") {
  fresh_process();
  const auto s = status();
  CHECK(s.state == "open");
  CHECK(s.engine == "reference");
  CHECK(s.reason == "default");
  CHECK(s.locked_by == "");
  check_calls("reference", "reference", "reference");
  CHECK(status().state == "locked");
  CHECK(coheriq::is_locked(shapes::domain));
}

TEST_CASE("enabling an engine after the first use is an EngineLockedError") {
  fresh_process();
  CHECK(shapes::area(1, 1).engine == "reference");
  const auto before = status();
  CHECK(before.state == "locked");
  CHECK(before.locked_by == "area");
  // Names the engine in effect and the candidate whose first use locked it.
  expect_error<coheriq::EngineLockedError>([] { enable("left"); }, {"reference", "area", "left"});
  CHECK(same_status(before, status()));
  check_calls("reference", "reference", "reference");
}

TEST_CASE("enabling another engine after enable_engine is an EngineLockedError") {
  fresh_process();
  enable("left");
  const auto chosen = status();
  CHECK(chosen.state == "chosen");
  CHECK(chosen.engine == "left");
  CHECK(chosen.reason == "enable_engine");
  CHECK_FALSE(coheriq::is_locked(shapes::domain));
  expect_error<coheriq::EngineLockedError>([] { enable("right"); }, {"left", "right"});
  CHECK(same_status(chosen, status()));
  check_calls("base", "left", "base");
  const auto locked = status();
  CHECK(locked.state == "locked");
  CHECK(locked.engine == "left");
  CHECK(locked.reason == "enable_engine");
  CHECK(locked.locked_by == "area");
}

TEST_CASE("the reference cannot replace an enabled engine") {
  fresh_process();
  enable("left");
  const auto chosen = status();
  expect_error<coheriq::EngineLockedError>([] { enable("reference"); }, {"left"});
  CHECK(same_status(chosen, status()));
  CHECK(shapes::perimeter(1, 1).engine == "left");
  expect_error<coheriq::EngineLockedError>([] { enable("reference"); }, {"left", "perimeter"});
  CHECK(shapes::perimeter(1, 1).engine == "left");
}

TEST_CASE("re-enabling the engine in effect is a no-op before the lock") {
  fresh_process();
  enable("left");
  const auto once = status();
  enable("left");
  CHECK(same_status(once, status()));
  check_calls("base", "left", "base");
}

TEST_CASE("re-enabling the engine in effect is a no-op after the lock") {
  fresh_process();
  enable("right");
  CHECK(shapes::volume(1, 1, 1).engine == "right");
  const auto locked = status();
  CHECK(locked.state == "locked");
  enable("right");
  CHECK(same_status(locked, status()));
  CHECK(shapes::volume(1, 1, 1).engine == "right");
}

TEST_CASE("re-enabling the locked reference is a no-op") {
  fresh_process();
  CHECK(shapes::area(2, 2).engine == "reference");
  const auto locked = status();
  enable("reference");
  enable(coheriq::REFERENCE);
  CHECK(same_status(locked, status()));
}

TEST_CASE("the reference can be selected before the first use, and settles the choice") {
  fresh_process();
  enable("reference");
  const auto chosen = status();
  CHECK(chosen.state == "chosen");
  CHECK(chosen.engine == "reference");
  CHECK(chosen.reason == "enable_engine");
  expect_error<coheriq::EngineLockedError>([] { enable("left"); }, {"reference", "left"});
  CHECK(same_status(chosen, status()));
  check_calls("reference", "reference", "reference");
}

// ------------------------------ Candidate classes

TEST_CASE("constructing a candidate class is a first use and locks") {
  fresh_process();
  enable("reversed");
  CHECK_FALSE(coheriq::is_locked(shapes::domain));
  const shapes::Grid grid({4, 5});
  CHECK(coheriq::is_locked(shapes::domain));
  const auto s = status();
  CHECK(s.state == "locked");
  CHECK(s.engine == "reversed");
  CHECK(contains(s.locked_by, "Grid"));
  CHECK(grid.storage() == std::vector<int>{5, 4});
  expect_error<coheriq::EngineLockedError>([] { enable("paired_fixed"); }, {"reversed", "Grid"});
}

TEST_CASE("a candidate class locks the reference when nothing was chosen") {
  fresh_process();
  const shapes::Grid grid({4, 5});
  CHECK(grid.engine() == "reference");
  CHECK(grid.storage() == std::vector<int>{4, 5});
  CHECK(status().engine == "reference");
  expect_error<coheriq::EngineLockedError>([] { enable("reversed"); }, {"reference", "Grid"});
  CHECK(grid[1] == 5);
}

TEST_CASE("locked_by names the candidate whose first use locked") {
  fresh_process();
  enable("base");
  CHECK(shapes::perimeter(1, 2).engine == "base");
  CHECK(shapes::area(1, 2).engine == "base");  // later first calls of other candidates: no change
  const auto s = status();
  CHECK(s.locked_by == "perimeter");
  expect_error<coheriq::EngineLockedError>([] { enable("right"); }, {"base", "perimeter"});
}

// ------------------------------ Failed activation changes nothing

TEST_CASE("failed activation changes nothing") {
  fresh_process();
  const auto open = status();
  CHECK(open.state == "open");
  expect_error<coheriq::UnknownEngineError>([] { enable("lefty"); },
                                            {"lefty", "left", "right", "base", "reference"});
  CHECK(same_status(open, status()));
  expect_error<coheriq::CompositionError>([] { enable("paired"); }, {"paired", "grid_load"});
  CHECK(same_status(open, status()));
  expect_error<coheriq::CompositionError>([] { enable("cycle_b"); }, {"cycle_a", "cycle_b"});
  CHECK(same_status(open, status()));
  expect_error<coheriq::CompositionError>([] { enable("orphan"); }, {"ghost"});
  CHECK(same_status(open, status()));
  expect_error<coheriq::UnknownEngineError>([] { enable(""); }, {"left"});
  CHECK(same_status(open, status()));
  CHECK_FALSE(coheriq::is_locked(shapes::domain));

  // The domain is still open: a good engine can be enabled. Any other name is now refused as
  // a different engine, whatever else is wrong with it.
  enable("left_first");
  const auto chosen = status();
  expect_error<coheriq::EngineLockedError>([] { enable("lefty"); }, {"left_first"});
  expect_error<coheriq::EngineLockedError>([] { enable("paired"); }, {"left_first"});
  CHECK(same_status(chosen, status()));
  check_calls("base", "left", "right");
}

TEST_CASE("an unsupported engine is an UnsupportedEngineError naming features and alternatives") {
  fresh_process();
  // Whatever this host has, without its feature the engine wide cannot run.
  shapes::test::set_env("COHERIQ_DISABLE_CPU_FEATURES", shapes::kWideFeature);
  const auto open = status();
  expect_error<coheriq::UnsupportedEngineError>(
      [] { enable("wide"); },
      {"'wide'", "missing " COHERIQ_TEST_WIDE_FEATURE, "reference", "left"});
  CHECK(same_status(open, status()));
  enable("left");
  check_calls("base", "left", "base");
}

// ------------------------------ Introspection never locks

TEST_CASE("introspection never locks") {
  fresh_process();
  CHECK(coheriq::active_engine(shapes::domain) == "reference");
  CHECK(coheriq::engines(shapes::domain).size() > 10);
  CHECK(status().state == "open");
  CHECK_FALSE(coheriq::is_locked(shapes::domain));
  CHECK_FALSE(coheriq::domains().empty());
  CHECK_FALSE(coheriq::host().arch.empty());
  CHECK(status().state == "open");
  CHECK_FALSE(coheriq::is_locked(shapes::domain));
  // Still open: an engine can be enabled after all that.
  enable("right");
  CHECK(coheriq::active_engine(shapes::domain) == "right");
  CHECK(coheriq::engines(shapes::domain).size() > 10);
  CHECK(status().state == "chosen");
  CHECK_FALSE(coheriq::is_locked(shapes::domain));
  check_calls("base", "right", "right");
}

TEST_CASE("no log line without COHERIQ_LOG") {
  fresh_process();
  REQUIRE(unsetenv("COHERIQ_LOG") == 0);
  shapes::test::StderrCapture capture;
  shapes::area(1, 1);
  CHECK(capture.text() == "");
}
