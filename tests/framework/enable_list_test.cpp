// enable_engine takes what the domain's variable takes (docs/api.md, "Value grammar of an engine
// variable"): a name, "auto", or a comma-separated list of them, blanks around entries ignored,
// with the variable's errors. A list is chosen when enable_engine is called (the first usable
// entry, as the variable's list at first use) and then fixed, one-way, like a name. Each case runs
// in its own process.
#include <typeinfo>

#include "support.hpp"

using shapes::test::check_calls;
using shapes::test::contains;
using shapes::test::expect_error;
using shapes::test::fresh_process;
using shapes::test::host_has;
using shapes::test::same_status;
using shapes::test::set_env;
using shapes::test::StderrCapture;

namespace {

coheriq::DomainStatus status() { return coheriq::status(shapes::domain); }
void enable(std::string_view engine) { coheriq::enable_engine(shapes::domain, engine); }

// What auto picks among the built-ins of test.shapes on this host (env_var_test.cpp).
const char* auto_choice() {
  return host_has(shapes::kWideFeature) ? (host_has(shapes::kWiderFeature) ? "wider" : "wide")
                                        : "left_first";
}

// The error `f` throws, as type and message.
struct Thrown {
  std::string type;
  std::string message;
};
template <class F>
Thrown thrown_by(F&& f) {
  try {
    f();
  } catch (const coheriq::Error& e) {
    return {typeid(e).name(), e.what()};
  }
  FAIL("no coheriq::Error thrown");
  return {};
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const std::size_t at = text.find(from);
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

}  // namespace

TEST_CASE("enable_engine list: 'auto' chooses what the variable's auto would, then locks it") {
  fresh_process();
  enable("auto");
  const auto chosen = status();
  CHECK(chosen.state == "chosen");
  CHECK(chosen.engine == auto_choice());
  CHECK(chosen.reason == "enable_engine('auto')");
  CHECK(coheriq::active_engine(shapes::domain) == auto_choice());
  shapes::area(1, 1);
  CHECK(status().state == "locked");
  CHECK(status().engine == auto_choice());
  CHECK(status().locked_by == "area");
}

TEST_CASE("enable_engine list: the first usable entry wins, and broken ones are passed over") {
  fresh_process();
  // orphan misses a base, tangled has no C3 order, paired is incoherent.
  enable(" orphan,tangled , paired,left,right ");
  CHECK(status().engine == "left");
  check_calls("base", "left", "base");
}

TEST_CASE("enable_engine list: blanks around a single name are ignored, as in the variable") {
  fresh_process();
  enable(" \tright ");
  CHECK(status().engine == "right");
  CHECK(status().reason == "enable_engine");
  check_calls("base", "right", "right");
}

TEST_CASE("enable_engine list: the variable's errors, and nothing changes") {
  fresh_process();
  const auto open = status();
  // Each value fails the same way in the variable (at the first use) and in enable_engine.
  for (const std::string value :
       {"left,,right", ",left", "left;right", "auto,lefty", "orphan, cycle_a ,paired"}) {
    CAPTURE(value);
    set_env("SHAPES_ENGINE", value.c_str());
    const Thrown from_variable = thrown_by([] { shapes::area(1, 1); });
    REQUIRE(unsetenv("SHAPES_ENGINE") == 0);
    const Thrown from_enable = thrown_by([&] { enable(value); });
    CHECK(from_enable.type == from_variable.type);
    // The same text, the source named as enable_engine's argument instead of the variable.
    std::string expected = from_variable.message;
    expected =
        replaced(expected, "SHAPES_ENGINE='" + value + "'", "enable_engine('" + value + "')");
    for (const char* tokens : {"left,lefty", "auto,lefty", "orphan,cycle_a,paired"}) {
      expected = replaced(expected, std::string("SHAPES_ENGINE=") + tokens,
                          std::string("enable_engine('") + tokens + "')");
    }
    expected = replaced(expected, "Fix SHAPES_ENGINE", "Fix the list passed to enable_engine");
    expected = replaced(expected, "add one of them to SHAPES_ENGINE",
                        "add one of them to the list passed to enable_engine");
    CHECK(from_enable.message == expected);
    CHECK(same_status(open, status()));
  }
  expect_error<coheriq::UnknownEngineError>([] { enable("auto,lefty"); },
                                            {"'lefty'", "(or 'auto')"});
  expect_error<coheriq::UnsupportedEngineError>([] { enable("orphan, cycle_a ,paired"); },
                                                {"orphan", "cycle_a", "paired", "can be used"});
  expect_error<coheriq::UnknownEngineError>([] { enable(" \t "); }, {"names no engine", "left"});
  CHECK(same_status(open, status()));
  check_calls("reference", "reference", "reference");
}

TEST_CASE(
    "enable_engine list: asking again for what is in effect is a no-op, anything else locked") {
  fresh_process();
  enable("right,left");
  CHECK(status().engine == "right");
  enable("right,left");    // the same list, chosen
  enable("right");         // the engine it chose
  enable("orphan,right");  // another list that chooses it
  shapes::area(1, 1);
  enable("right,left");  // and after the lock
  expect_error<coheriq::EngineLockedError>([] { enable("left,right"); }, {"'right'", "area"});
  expect_error<coheriq::EngineLockedError>([] { enable("auto"); }, {"'right'"});
  expect_error<coheriq::EngineLockedError>([] { enable("left,,"); }, {"'right'"});
  CHECK(status().engine == "right");
}

TEST_CASE("enable_engine list: the log names what the list passed over and the choice") {
  fresh_process();
  set_env("COHERIQ_LOG", "info");
  set_env("SHAPES_ENGINE", "right");
  StderrCapture capture;
  enable("orphan,left");
  shapes::area(1, 1);
  const std::string log = capture.text();
  CHECK_MESSAGE(
      contains(log, "coheriq: test.shapes: enable_engine('orphan,left') passed over 'orphan': "),
      log);
  CHECK_MESSAGE(contains(log,
                         "coheriq: test.shapes locked to left (enable_engine('orphan,left'); "
                         "SHAPES_ENGINE=right ignored; first use: area)\n"),
                log);
}
