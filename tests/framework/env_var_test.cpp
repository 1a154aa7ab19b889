// The domain's engine variable (SHAPES_ENGINE for test.shapes), read at the first use when
// nothing was enabled explicitly. Grammar: docs/api.md. Each case sets the variable itself
// before its first use, in a process of its own; ctest starts them with the variable unset.
#include "support.hpp"

using shapes::test::check_calls;
using shapes::test::contains;
using shapes::test::expect_error;
using shapes::test::fresh_process;
using shapes::test::host_has;
using shapes::test::set_env;

namespace {

coheriq::DomainStatus status() { return coheriq::status(shapes::domain); }

// Sets SHAPES_ENGINE, makes the first use a call of `perimeter`, and checks that the variable
// selected `engine`, whose perimeter comes from `perimeter_provider`.
void expect_selected(const char* value, std::string_view engine,
                     std::string_view perimeter_provider) {
  set_env("SHAPES_ENGINE", value);
  CHECK(coheriq::active_engine(shapes::domain) == engine);
  CHECK(status().state == "open");
  const shapes::Result p = shapes::perimeter(1, 2);
  CHECK(p.value == 6);
  CHECK(p.engine == perimeter_provider);
  const auto s = status();
  CHECK(s.state == "locked");
  CHECK(s.engine == engine);
  CHECK(s.locked_by == "perimeter");
  CHECK_MESSAGE(contains(s.reason, "SHAPES_ENGINE"), "reason: " << s.reason);
}

}  // namespace

TEST_CASE("env var: names the engine used at the first use") {
  fresh_process();
  expect_selected("left", "left", "left");
  check_calls("base", "left", "base");
  expect_error<coheriq::EngineLockedError>([] { coheriq::enable_engine(shapes::domain, "right"); },
                                           {"left", "perimeter"});
}

TEST_CASE("env var: read at the first use, not when the domain is materialized") {
  fresh_process();
  REQUIRE(unsetenv("SHAPES_ENGINE") == 0);
  CHECK(status().engine == "reference");
  CHECK(status().reason == "default");
  set_env("SHAPES_ENGINE", "right");
  CHECK(status().engine == "right");
  set_env("SHAPES_ENGINE", "left");
  expect_selected("left", "left", "left");
  // After the lock the variable no longer matters.
  set_env("SHAPES_ENGINE", "right");
  CHECK(coheriq::active_engine(shapes::domain) == "left");
  CHECK(shapes::perimeter(1, 1).engine == "left");
}

TEST_CASE("env var: an explicit enable_engine wins") {
  fresh_process();
  set_env("SHAPES_ENGINE", "right");
  coheriq::enable_engine(shapes::domain, "left");
  CHECK(coheriq::active_engine(shapes::domain) == "left");
  check_calls("base", "left", "base");
  CHECK(status().reason == "enable_engine");
}

TEST_CASE("env var: an explicit reference wins") {
  fresh_process();
  set_env("SHAPES_ENGINE", "left");
  coheriq::enable_engine(shapes::domain, "reference");
  check_calls("reference", "reference", "reference");
  CHECK(status().reason == "enable_engine");
}

TEST_CASE("env var: auto picks the highest-priority supported engine") {
  fresh_process();
  // By this domain's table (shapes.hpp): every engine above left_first either does not compose
  // or needs shapes::kWideFeature (wide) and shapes::kWiderFeature (wider).
  const char* expected = host_has(shapes::kWideFeature)
                             ? (host_has(shapes::kWiderFeature) ? "wider" : "wide")
                             : "left_first";
  set_env("SHAPES_ENGINE", "auto");
  CHECK(coheriq::active_engine(shapes::domain) == expected);
  shapes::area(1, 1);
  CHECK(status().engine == expected);
  CHECK(contains(status().reason, "auto"));
}

TEST_CASE("env var: the first supported engine of a list wins") {
  fresh_process();
  expect_selected("right,left", "right", "right");
}

TEST_CASE("env var: engines that do not compose are passed over") {
  fresh_process();
  // orphan misses a base, tangled has no C3 order, paired is incoherent.
  expect_selected("orphan,tangled,paired,left", "left", "left");
}

TEST_CASE("env var: auto after a list of names") {
  fresh_process();
  set_env("SHAPES_ENGINE", "orphan,auto");
  const char* expected = host_has(shapes::kWideFeature)
                             ? (host_has(shapes::kWiderFeature) ? "wider" : "wide")
                             : "left_first";
  CHECK(coheriq::active_engine(shapes::domain) == expected);
}

TEST_CASE("env var: blanks around tokens are ignored") {
  fresh_process();
  expect_selected(" \t left_first\t,  right ", "left_first", "left");
}

TEST_CASE("env var: an empty value means the reference") {
  fresh_process();
  set_env("SHAPES_ENGINE", "");
  CHECK(coheriq::active_engine(shapes::domain) == "reference");
  check_calls("reference", "reference", "reference");
}

TEST_CASE("env var: a blank value means the reference") {
  fresh_process();
  set_env("SHAPES_ENGINE", " \t ");
  CHECK(coheriq::active_engine(shapes::domain) == "reference");
  check_calls("reference", "reference", "reference");
}

TEST_CASE("env var: an unknown name anywhere is an UnknownEngineError from the first use") {
  fresh_process();
  set_env("SHAPES_ENGINE", "left,lefty");  // left alone would be fine: typos still fail loudly
  expect_error<coheriq::UnknownEngineError>([] { coheriq::active_engine(shapes::domain); },
                                            {"SHAPES_ENGINE", "lefty"});
  expect_error<coheriq::UnknownEngineError>([] { shapes::perimeter(1, 1); },
                                            {"SHAPES_ENGINE", "lefty", "left_first", "reference"});
  // The failed first use had no effect: the domain is still open, and fails the same way again.
  CHECK_FALSE(coheriq::is_locked(shapes::domain));
  expect_error<coheriq::UnknownEngineError>([] { shapes::Grid grid({1}); }, {"lefty"});
  CHECK_FALSE(coheriq::is_locked(shapes::domain));
  // An explicit choice beats the variable, so the domain can still be used.
  coheriq::enable_engine(shapes::domain, "right");
  check_calls("base", "right", "right");
  CHECK(status().locked_by == "area");
}

TEST_CASE("env var: auto does not hide an unknown name") {
  fresh_process();
  set_env("SHAPES_ENGINE", "auto,lefty");
  expect_error<coheriq::UnknownEngineError>([] { shapes::area(1, 1); }, {"lefty"});
  CHECK_FALSE(coheriq::is_locked(shapes::domain));
}

TEST_CASE("env var: nothing supported is an UnsupportedEngineError listing each token and why") {
  fresh_process();
  set_env("SHAPES_ENGINE", "orphan, cycle_a ,paired");
  expect_error<coheriq::UnsupportedEngineError>([] { shapes::area(1, 1); },
                                                {"SHAPES_ENGINE", "orphan", "cycle_a", "paired"});
  CHECK_FALSE(coheriq::is_locked(shapes::domain));
  REQUIRE(unsetenv("SHAPES_ENGINE") == 0);
  check_calls("reference", "reference", "reference");
}

TEST_CASE("env var: a malformed value is an Error naming the variable") {
  fresh_process();
  for (std::string value : {"left,,right", "left right", ",left", "left,", "left;right"}) {
    CAPTURE(value);
    set_env("SHAPES_ENGINE", value.c_str());
    expect_error<coheriq::Error>([] { shapes::area(1, 1); }, {"SHAPES_ENGINE"});
    CHECK_FALSE(coheriq::is_locked(shapes::domain));
  }
  set_env("SHAPES_ENGINE", "left");
  check_calls("base", "left", "base");
}

TEST_CASE("env var: constructing a candidate class reads it too") {
  fresh_process();
  set_env("SHAPES_ENGINE", "reversed");
  const shapes::Grid grid({1, 2, 3});
  CHECK(grid.engine() == "reversed");
  CHECK(grid.storage() == std::vector<int>{3, 2, 1});
  const auto s = status();
  CHECK(s.engine == "reversed");
  CHECK(contains(s.locked_by, "Grid"));
  CHECK(contains(s.reason, "SHAPES_ENGINE"));
}
