// The reproducible mode (docs/api.md, "The reproducible mode") on the test.shapes domain, whose
// tables for the mode answer with tags ending in "/repro" (shapes.hpp): settled with the engine
// and one-way, refused by engines that do not honour it, and a layout that counts in the mode only
// from an engine whose table for the mode touches the class. Each case runs in its own process;
// ctest starts them with SHAPES_REPRODUCIBLE unset (main.cpp), and a case that needs it sets it
// before its first use. The variable present at start-up: environment_test.cpp, env-reproducible.
#include <coheriq/domain.hpp>
#include <coheriq/engine.hpp>

#include <optional>

#include "core/env.hpp"
#include "support.hpp"

using shapes::test::check_calls;
using shapes::test::contains;
using shapes::test::expect_error;
using shapes::test::fresh_process;
using shapes::test::info_of;
using shapes::test::provider_of;
using shapes::test::same_status;
using shapes::test::set_env;

namespace {

coheriq::DomainStatus status() { return coheriq::status(shapes::domain); }
void enable(std::string_view engine) { coheriq::enable_engine(shapes::domain, engine); }
void enable_reproducible() { coheriq::enable_reproducible(shapes::domain); }
bool reproducible() { return coheriq::reproducible(shapes::domain); }

// Every shape candidate from the reference's table for the mode, or from base's.
void check_reference_repro() {
  check_calls("reference/repro", "reference/repro", "reference/repro");
}
void check_base_repro() { check_calls("base/repro", "base/repro", "base/repro"); }

// A second domain, without a reproducible mode: the only other one this binary links.
namespace plain {

struct one : coheriq::candidate<int()> {
  static constexpr std::string_view name = "one";
};
int one_of() { return 1; }
constexpr coheriq::Override reference_overrides[] = {coheriq::implement<one, &one_of>()};
constexpr coheriq::OverrideTable reference_table = coheriq::table_of(reference_overrides);

struct Domain {
  static constexpr std::string_view name = "test.plain";
  static constexpr std::string_view env_var = "";
  static constexpr std::string_view abi = "test.plain/1";
  using classes = coheriq::list<>;
  using candidates = coheriq::list<one>;
  static const coheriq::OverrideTable& reference() { return reference_table; }
  static std::vector<coheriq::EngineSpec> builtin_engines() { return {}; }
};

}  // namespace plain

}  // namespace

// ------------------------------ Off unless asked for

TEST_CASE("reproducible: off by default, and the normal tables run") {
  fresh_process();
  const auto s = status();
  CHECK(s.reproducible_env_var == "SHAPES_REPRODUCIBLE");
  CHECK_FALSE(s.reproducible);
  CHECK_FALSE(reproducible());
  enable("left");
  check_calls("base", "left", "base");  // left's normal table, not base's for the mode
  CHECK_FALSE(reproducible());
  CHECK_FALSE(status().reproducible);
}

TEST_CASE("reproducible: SHAPES_REPRODUCIBLE=0, empty or blank is off") {
  fresh_process();
  for (const char* value : {"0", "", " \t", " 0\t"}) {
    CAPTURE(std::string(value));
    set_env("SHAPES_REPRODUCIBLE", value);
    CHECK_FALSE(reproducible());
    CHECK_FALSE(status().reproducible);
  }
  check_calls("reference", "reference", "reference");
  CHECK_FALSE(status().reproducible);
}

// ------------------------------ enable_reproducible

TEST_CASE("reproducible: enable_reproducible before the first use runs the mode's tables") {
  fresh_process();
  enable_reproducible();
  CHECK(reproducible());
  const auto on = status();
  CHECK(on.reproducible);
  CHECK(on.state == "open");  // the mode chooses no engine
  CHECK(on.engine == "reference");
  enable_reproducible();  // again: a no-op
  CHECK(same_status(on, status()));
  CHECK_FALSE(coheriq::is_locked(shapes::domain));

  check_reference_repro();
  CHECK(coheriq::is_locked(shapes::domain));
  const auto locked = status();
  CHECK(locked.state == "locked");
  CHECK(locked.reproducible);
  CHECK(locked.locked_by == "area");
  enable_reproducible();  // after the lock with the mode on: a no-op too
  CHECK(same_status(locked, status()));
  check_reference_repro();
  const shapes::Grid grid({1, 2, 3});
  CHECK(grid.storage() == std::vector<int>{1, 2, 3});
  CHECK(grid[2] == 3);
}

TEST_CASE("reproducible: a domain without a mode refuses enable_reproducible") {
  fresh_process();
  coheriq::materialize<plain::Domain>();
  const auto before = coheriq::status(plain::Domain::name);
  CHECK(before.reproducible_env_var == "");
  CHECK_FALSE(before.reproducible);
  CHECK_FALSE(coheriq::reproducible(plain::Domain::name));
  expect_error<coheriq::Error>([] { coheriq::enable_reproducible(plain::Domain::name); },
                               {"'test.plain'", "has no reproducible mode"});
  expect_error<coheriq::Error>([] { coheriq::enable_reproducible<plain::Domain>(); },
                               {"'test.plain'", "has no reproducible mode"});
  CHECK(same_status(before, coheriq::status(plain::Domain::name)));
  CHECK_FALSE(coheriq::reproducible<plain::Domain>());
  CHECK(coheriq::call<plain::Domain, plain::one>() == 1);
  // Nor did it touch test.shapes, or a domain that does not exist.
  CHECK_FALSE(reproducible());
  expect_error<coheriq::UnknownDomainError>([] { coheriq::enable_reproducible("no.such.domain"); },
                                            {"no.such.domain"});
  expect_error<coheriq::UnknownDomainError>([] { coheriq::reproducible("no.such.domain"); },
                                            {"no.such.domain"});
}

TEST_CASE("reproducible: enable_reproducible after the lock with the mode off changes nothing") {
  fresh_process();
  CHECK(shapes::area(1, 1).engine == "reference");
  const auto locked = status();
  CHECK(locked.state == "locked");
  CHECK_FALSE(locked.reproducible);
  // Names the engine in effect, the first use, and how the mode is turned on in time.
  expect_error<coheriq::EngineLockedError>([] { enable_reproducible(); },
                                           {"'reference'", "area", "SHAPES_REPRODUCIBLE=1"});
  CHECK(same_status(locked, status()));
  CHECK_FALSE(reproducible());
  check_calls("reference", "reference", "reference");
  // The failed call turned nothing half on: it fails again the same way.
  expect_error<coheriq::EngineLockedError>([] { enable_reproducible(); }, {"with the mode off"});
  // After the lock the variable no longer matters.
  set_env("SHAPES_REPRODUCIBLE", "1");
  CHECK_FALSE(reproducible());
  CHECK_FALSE(status().reproducible);
  check_calls("reference", "reference", "reference");
}

TEST_CASE("reproducible: enable_reproducible refused by the engine enabled changes nothing") {
  fresh_process();
  enable("right");
  const auto chosen = status();
  expect_error<coheriq::CompositionError>(
      [] { enable_reproducible(); },
      {"'right'", "does not honour the reproducible mode", "(enable_reproducible)"});
  CHECK(same_status(chosen, status()));
  CHECK_FALSE(reproducible());
  CHECK(coheriq::active_engine(shapes::domain) == "right");
  // Refused again: the first refusal left the mode off, not half on.
  expect_error<coheriq::CompositionError>([] { enable_reproducible(); }, {"'right'"});
  CHECK(same_status(chosen, status()));
  check_calls("base", "right", "right");
  CHECK(status().state == "locked");
  CHECK_FALSE(status().reproducible);
}

TEST_CASE("reproducible: enable_reproducible after an engine that honours it") {
  fresh_process();
  enable("left");
  enable_reproducible();
  const auto s = status();
  CHECK(s.reproducible);
  CHECK(s.state == "chosen");
  CHECK(s.engine == "left");
  check_base_repro();  // left's empty table for the mode: base's kernels for it
}

// ------------------------------ Engines that do not honour the mode

TEST_CASE("reproducible: with the mode on, enable_engine refuses engines that do not honour it") {
  fresh_process();
  enable_reproducible();
  const auto open = status();
  expect_error<coheriq::CompositionError>(
      [] { enable("right"); },
      {"'right'", "does not honour the reproducible mode", ": 'right' declares no kernels"});
  CHECK(same_status(open, status()));
  // An empty table of its own is not enough: every engine of the MRO must honour it.
  const std::string right_first = expect_error<coheriq::CompositionError>(
      [] { enable("right_first"); }, {"'right_first'", ": 'right' declares no kernels"});
  CHECK_FALSE(contains(right_first, "'right_first' declares"));
  expect_error<coheriq::CompositionError>([] { enable("left_first"); },
                                          {"'left_first', 'right' declare no kernels"});
  // An engine that is broken anyway keeps its own error.
  expect_error<coheriq::CompositionError>([] { enable("cycle_a"); }, {"cycle"});
  CHECK(same_status(open, status()));
  CHECK_FALSE(coheriq::is_locked(shapes::domain));

  enable("left");
  CHECK(status().state == "chosen");
  CHECK(status().reproducible);
  check_base_repro();
}

TEST_CASE(
    "reproducible: with the mode on, lists and auto pass over engines that do not honour it") {
  fresh_process();
  enable_reproducible();
  // Above left (21) in priority only engines that do not honour the mode, or do not compose
  // (shapes.hpp): whatever the host's features, auto comes down to left.
  enable("right_first, right, auto");
  const auto s = status();
  CHECK(s.engine == "left");
  CHECK(contains(s.reason, "enable_engine"));
  check_base_repro();
}

// ------------------------------ The mode's variable

TEST_CASE(
    "reproducible: a malformed SHAPES_REPRODUCIBLE is an Error at the first use, locking nothing") {
  fresh_process();
  for (const char* value : {"yes", "2", "01", "1 1", "true", "1\n"}) {
    const std::string quoted = "SHAPES_REPRODUCIBLE=" + std::string(value);
    CAPTURE(quoted);
    set_env("SHAPES_REPRODUCIBLE", value);
    if (std::string_view(value) == "1\n") {
      // Blanks are spaces and tabs only; the newline is quoted escaped, never raw.
      expect_error<coheriq::Error>([] { shapes::area(1, 1); },
                                   {"SHAPES_REPRODUCIBLE=1\\x0a", "'test.shapes'"});
    } else {
      expect_error<coheriq::Error>([] { shapes::area(1, 1); }, {quoted, "'test.shapes'"});
    }
    CHECK_FALSE(coheriq::is_locked(shapes::domain));
    expect_error<coheriq::Error>([] { (void)reproducible(); }, {"SHAPES_REPRODUCIBLE="});
    expect_error<coheriq::Error>([] { const shapes::Grid grid({1}); }, {"SHAPES_REPRODUCIBLE="});
    CHECK_FALSE(coheriq::is_locked(shapes::domain));
  }
  set_env("SHAPES_REPRODUCIBLE", " 1\t");  // blanks around the digit are ignored
  CHECK(reproducible());
  check_reference_repro();
  CHECK(status().reproducible);
}

TEST_CASE("reproducible: enable_reproducible wins over a malformed SHAPES_REPRODUCIBLE") {
  fresh_process();
  set_env("SHAPES_REPRODUCIBLE", "yes");
  // The variable decides the mode of an engine enabled now, so enabling one reports it ...
  expect_error<coheriq::Error>([] { enable("left"); }, {"SHAPES_REPRODUCIBLE=yes"});
  CHECK_FALSE(coheriq::is_locked(shapes::domain));
  // ... unless the mode is settled explicitly, as enable_engine wins over SHAPES_ENGINE.
  enable_reproducible();
  CHECK(reproducible());
  const auto s = status();  // the variable no longer decides: status() reads again
  CHECK(s.reproducible);
  CHECK(s.state == "open");  // the failed enable_engine chose nothing
  enable("left");
  check_base_repro();
  CHECK(status().reproducible);
}

TEST_CASE("reproducible: parse_switch takes 1, 0 and blank, blanks around them ignored") {
  using coheriq::detail::parse_switch;
  CHECK(parse_switch("1") == std::optional<bool>(true));
  CHECK(parse_switch(" 1 ") == std::optional<bool>(true));
  CHECK(parse_switch("\t1") == std::optional<bool>(true));
  CHECK(parse_switch("0") == std::optional<bool>(false));
  CHECK(parse_switch(" 0\t") == std::optional<bool>(false));
  CHECK(parse_switch("") == std::optional<bool>(false));
  CHECK(parse_switch(" \t ") == std::optional<bool>(false));
  const std::string_view bad_values[] = {
      "yes", "no", "on", "true", "01", "10",  "00",
      "1 1", "+1", "-1", "1\n",  "\n", "1.0", std::string_view("1\0", 2)};
  for (std::string_view bad : bad_values) {
    CAPTURE(std::string(bad));
    CHECK_FALSE(parse_switch(bad).has_value());
  }
}

// ------------------------------ Introspection

TEST_CASE("reproducible: engines() marks the engines whose whole MRO honours the mode") {
  fresh_process();
  coheriq::register_engine(shapes::outside_engine());  // on left, without a table for the mode
  const struct {
    const char* engine;
    bool reproducible;
  } expected[] = {
      {"reference", true},
      {"base", true},
      {"left", true},
      {"right", false},
      {"left_first", false},
      {"right_first", false},  // right's MRO
      {"wide", false},
      {"wider", false},
      {"outside", false},
      {"reversed", false},
      {"reversed_fast", true},
      {"paired_repro", true},
      {"paired_repro_partial", true},  // honours it, though incoherent in it
  };
  for (const auto& e : expected) {
    CAPTURE(std::string(e.engine));
    CHECK(info_of(e.engine).reproducible == e.reproducible);
  }
  // With the mode off, the tables for it change no engine's standing.
  for (const char* engine : {"right", "right_first", "left_first", "paired_repro_partial"}) {
    CAPTURE(std::string(engine));
    CHECK(info_of(engine).supported);
    CHECK(info_of(engine).error == "");
  }
  CHECK(provider_of(info_of("left"), "area") == "base");
  CHECK(provider_of(info_of("left"), "perimeter") == "left");
}

TEST_CASE("reproducible: engines() with the mode on describes the compositions in it") {
  fresh_process();
  enable_reproducible();
  const auto right = info_of("right");
  CHECK_FALSE(right.supported);
  CHECK(contains(right.error, "does not honour the reproducible mode"));
  CHECK_FALSE(right.reproducible);
  CHECK(contains(info_of("right_first").error, "'right' declares"));
  const auto left = info_of("left");
  CHECK(left.supported);
  CHECK(left.error == "");
  CHECK(left.reproducible);
  // perimeter too comes from base: left's own perimeter is not for the mode.
  for (const char* candidate : {"area", "perimeter", "volume"}) {
    CHECK(provider_of(left, candidate) == "base");
  }
  CHECK(provider_of(left, "grid_load") == "reference");
  CHECK(info_of("reference").supported);
  CHECK(status().state == "open");  // introspection settled nothing
  CHECK_FALSE(coheriq::is_locked(shapes::domain));
}

// ------------------------------ Layouts in the mode

TEST_CASE("reproducible: with the mode off, the engines for the layout rule are ordinary") {
  fresh_process();
  const auto fast = info_of("reversed_fast");
  CHECK(fast.supported);
  REQUIRE(fast.layouts.size() == 1);
  CHECK(fast.layouts[0].engine == "reversed_fast");
  CHECK(provider_of(fast, "area") == "reference");
  CHECK(info_of("paired_repro").layouts[0].name == "paired");  // its name out of the mode
  const auto partial = info_of("paired_repro_partial");
  CHECK(partial.supported);  // incoherent in the mode only
  CHECK(partial.error == "");
  CHECK(partial.layouts[0].engine == "paired_repro_partial");

  enable("paired_repro_partial");
  const shapes::Grid grid({1, 2, 3, 4, 5});
  CHECK(grid.storage() == std::vector<int>{2, 1, 4, 3, 5});
  for (std::size_t i = 0; i < grid.size(); ++i) CHECK(grid[i] == static_cast<int>(i + 1));
  CHECK(shapes::area(3, 4).engine == "reference");
}

TEST_CASE("reproducible: a layout counts in the mode only from a table for it touching the class") {
  fresh_process();
  enable_reproducible();
  // reversed_fast defines Grid's layout, but its table for the mode has no Grid kernel: in the
  // mode Grid keeps the reference's layout and kernels, and the composition is coherent.
  const auto fast = info_of("reversed_fast");
  CHECK(fast.error == "");
  CHECK(fast.supported);
  REQUIRE(fast.layouts.size() == 1);
  CHECK(fast.layouts[0].engine == "reference");
  CHECK(fast.layouts[0].name == "reference");
  CHECK(provider_of(fast, "grid_store") == "reference");
  CHECK(provider_of(fast, "grid_load") == "reference");
  CHECK(provider_of(fast, "area") == "reversed_fast");

  // paired_repro's table for the mode has both Grid kernels: its layout counts in the mode.
  // Its layout's name in the mode is the one it gives for the mode.
  const auto paired = info_of("paired_repro");
  CHECK(paired.supported);
  CHECK(paired.layouts[0].engine == "paired_repro");
  CHECK(paired.layouts[0].name == "paired (the mode's)");

  // paired_repro_partial's has grid_store alone: its layout counts, and the inherited grid_load
  // (the reference's for the mode) reads another layout. Incoherent, as with the mode off.
  const auto partial = info_of("paired_repro_partial");
  CHECK_FALSE(partial.supported);
  CHECK(contains(partial.error, "grid_load"));
  const auto open = status();
  const std::string message = expect_error<coheriq::CompositionError>(
      [] { enable("paired_repro_partial"); },
      {"'paired_repro_partial'", "is incoherent", "grid_load comes from 'reference'", "'paired'"});
  CHECK_MESSAGE(!contains(message, "grid_store comes"), "grid_store is overridden: " << message);
  CHECK(same_status(open, status()));

  enable("reversed_fast");
  const shapes::Grid grid({1, 2, 3});
  CHECK(grid.engine() == "reversed_fast");
  CHECK(grid.storage() == std::vector<int>{1, 2, 3});  // the reference's layout
  CHECK(grid[0] == 1);
  CHECK(grid[2] == 3);
  CHECK(shapes::area(3, 4).engine == "reversed_fast/repro");
  CHECK(shapes::perimeter(3, 4).engine == "reference/repro");
}

TEST_CASE("reproducible: an engine's own layout in the mode runs with its kernels for the mode") {
  fresh_process();
  enable_reproducible();
  enable("paired_repro");
  const shapes::Grid grid({1, 2, 3, 4, 5});
  CHECK(grid.storage() == std::vector<int>{2, 1, 4, 3, 5});
  for (std::size_t i = 0; i < grid.size(); ++i) CHECK(grid[i] == static_cast<int>(i + 1));
  CHECK(shapes::area(1, 1).engine == "reversed_fast/repro");
  CHECK(status().reproducible);
}
