// Cases that need a variable in the process environment from the start. The name prefix of
// each case selects the variable tests/framework/CMakeLists.txt passes it (main.cpp's --env):
//   env-disable-wide:     COHERIQ_DISABLE_CPU_FEATURES=<wide's feature> (avx2; asimd on aarch64)
//   env-disable-wider:    COHERIQ_DISABLE_CPU_FEATURES=<wider's> (avx512f; sve) (also run with
//   both, where
//                         they skip: framework.skip.counted)
//   env-disable-unknown:  COHERIQ_DISABLE_CPU_FEATURES=<wide's feature>,avx9000
//   env-log-info:         COHERIQ_LOG=info
//   env-shapes-right:     SHAPES_ENGINE=right
//   env-reproducible:     SHAPES_REPRODUCIBLE=1
#include "support.hpp"

using shapes::test::check_calls;
using shapes::test::contains;
using shapes::test::expect_error;
using shapes::test::fresh_process;
using shapes::test::host_has;
using shapes::test::info_of;
using shapes::test::require_env;
using shapes::test::same_status;
using shapes::test::set_env;
using Names = std::vector<std::string>;

namespace {

coheriq::DomainStatus status() { return coheriq::status(shapes::domain); }
void enable(std::string_view engine) { coheriq::enable_engine(shapes::domain, engine); }

}  // namespace

// ------------------------------ COHERIQ_DISABLE_CPU_FEATURES=<wide's feature>

TEST_CASE("env-disable-wide: the host no longer has the feature") {
  fresh_process();
  require_env("COHERIQ_DISABLE_CPU_FEATURES", shapes::kWideFeature);
  const coheriq::HostInfo host = coheriq::host();
  CHECK(host.disabled == Names{shapes::kWideFeature});
  CHECK(std::find(host.features.begin(), host.features.end(), shapes::kWideFeature) ==
        host.features.end());
  CHECK(std::is_sorted(host.features.begin(), host.features.end()));
  CHECK_FALSE(info_of("wide").supported);
  CHECK(info_of("wide").missing_features == Names{shapes::kWideFeature});
}

TEST_CASE("env-disable-wide: enabling an engine that needs it names the feature and alternatives") {
  fresh_process();
  require_env("COHERIQ_DISABLE_CPU_FEATURES", shapes::kWideFeature);
  const auto open = status();
  expect_error<coheriq::UnsupportedEngineError>(
      [] { enable("wide"); },
      {"wide", shapes::kWideFeature, "left_first", "reversed_load", "reference"});
  CHECK(same_status(open, status()));
  // wider needs wide's feature through its base, even where the host has its own.
  const std::string message = expect_error<coheriq::UnsupportedEngineError>(
      [] { enable("wider"); }, {"wider", shapes::kWideFeature});
  const auto wider = info_of("wider");
  CHECK_FALSE(wider.supported);
  CHECK(std::find(wider.missing_features.begin(), wider.missing_features.end(),
                  shapes::kWideFeature) != wider.missing_features.end());
  if (host_has(shapes::kWiderFeature)) {
    CHECK(wider.missing_features == Names{shapes::kWideFeature});
    CHECK_MESSAGE(!contains(message, shapes::kWiderFeature),
                  "the host has " << shapes::kWiderFeature << ": " << message);
  }
  CHECK(same_status(open, status()));
  enable("left");
  check_calls("base", "left", "base");
}

TEST_CASE("env-disable-wide: auto passes over engines that need it") {
  fresh_process();
  require_env("COHERIQ_DISABLE_CPU_FEATURES", shapes::kWideFeature);
  set_env("SHAPES_ENGINE", "auto");
  CHECK(coheriq::active_engine(shapes::domain) == "left_first");
  check_calls("base", "left", "right");
  CHECK(status().engine == "left_first");
}

TEST_CASE("env-disable-wide: a list falls through to the first supported engine") {
  fresh_process();
  require_env("COHERIQ_DISABLE_CPU_FEATURES", shapes::kWideFeature);
  set_env("SHAPES_ENGINE", "wider,wide,right");
  check_calls("base", "right", "right");
  CHECK(status().engine == "right");
}

TEST_CASE("env-disable-wide: a list with nothing supported names each engine and the feature") {
  fresh_process();
  require_env("COHERIQ_DISABLE_CPU_FEATURES", shapes::kWideFeature);
  set_env("SHAPES_ENGINE", "wider, wide");
  expect_error<coheriq::UnsupportedEngineError>(
      [] { shapes::area(1, 1); }, {"SHAPES_ENGINE", "wider", "wide", shapes::kWideFeature});
  CHECK_FALSE(coheriq::is_locked(shapes::domain));
}

// ------------------------------ COHERIQ_DISABLE_CPU_FEATURES=<wider's feature>

TEST_CASE("env-disable-wider: auto picks the best engine without it") {
  fresh_process();
  shapes::test::require_disabled(shapes::kWiderFeature);
  if (!host_has(shapes::kWideFeature))
    shapes::test::skip(std::string("this host lacks ") + shapes::kWideFeature +
                       ", so wide is not supported either");
  set_env("SHAPES_ENGINE", "auto");
  CHECK(coheriq::active_engine(shapes::domain) == "wide");
  check_calls("wide", "base", "base");
}

TEST_CASE("env-disable-wider: only the engine needing it is refused") {
  fresh_process();
  shapes::test::require_disabled(shapes::kWiderFeature);
  if (!host_has(shapes::kWideFeature))
    shapes::test::skip(std::string("this host lacks ") + shapes::kWideFeature +
                       ", so wide is not supported either");
  const std::string message = expect_error<coheriq::UnsupportedEngineError>(
      [] { enable("wider"); }, {shapes::kWiderFeature, "wide"});
  CHECK_MESSAGE(!contains(message, shapes::kWideFeature),
                "the host has " << shapes::kWideFeature << ": " << message);
  CHECK(info_of("wider").missing_features == Names{shapes::kWiderFeature});
  enable("wide");
  check_calls("wide", "base", "base");
}

// ------------------------------ COHERIQ_DISABLE_CPU_FEATURES=<wide's feature>,avx9000

TEST_CASE("env-disable-unknown: an unknown feature name is an Error") {
  fresh_process();
  require_env("COHERIQ_DISABLE_CPU_FEATURES", shapes::kWideAndUnknownFeature);
  expect_error<coheriq::Error>([] { coheriq::host(); },
                               {"COHERIQ_DISABLE_CPU_FEATURES", "avx9000"});
  // Whether an engine needing features is supported cannot be decided either.
  const auto open = status();
  expect_error<coheriq::Error>([] { enable("wide"); }, {"avx9000"});
  CHECK(same_status(open, status()));
}

// ------------------------------ COHERIQ_LOG=info

TEST_CASE("env-log-info: one line when an explicitly enabled engine locks") {
  fresh_process();
  require_env("COHERIQ_LOG", "info");
  shapes::test::StderrCapture capture;
  enable("left");
  shapes::area(1, 1);
  shapes::perimeter(1, 1);
  const shapes::Grid grid({1});
  CHECK(capture.text() == "coheriq: test.shapes locked to left (enable_engine; first use: area)\n");
}

TEST_CASE("env-log-info: the line gives the variable as the reason") {
  fresh_process();
  require_env("COHERIQ_LOG", "info");
  set_env("SHAPES_ENGINE", "right");
  shapes::test::StderrCapture capture;
  shapes::volume(1, 1, 1);
  const std::string reason = status().reason;
  CHECK(contains(reason, "SHAPES_ENGINE"));
  CHECK(capture.text() ==
        "coheriq: test.shapes locked to right (" + reason + "; first use: volume)\n");
}

TEST_CASE("env-log-info: the line for the default reference") {
  fresh_process();
  require_env("COHERIQ_LOG", "info");
  REQUIRE(unsetenv("SHAPES_ENGINE") == 0);
  shapes::test::StderrCapture capture;
  shapes::perimeter(1, 1);
  CHECK(capture.text() ==
        "coheriq: test.shapes locked to reference (default; first use: perimeter)\n");
}

TEST_CASE("env-log-info: the line says when the reproducible mode is on, and what turned it on") {
  fresh_process();
  require_env("COHERIQ_LOG", "info");
  coheriq::enable_reproducible(shapes::domain);
  enable("left");
  shapes::test::StderrCapture capture;
  shapes::perimeter(1, 1);
  CHECK(capture.text() ==
        "coheriq: test.shapes locked to left (enable_engine; reproducible mode "
        "(enable_reproducible); first use: perimeter)\n");
}

TEST_CASE("env-log-info: nothing is printed before the lock") {
  fresh_process();
  require_env("COHERIQ_LOG", "info");
  shapes::test::StderrCapture capture;
  enable("left");
  coheriq::engines(shapes::domain);
  coheriq::status(shapes::domain);
  CHECK(capture.text() == "");
}

// ------------------------------ SHAPES_ENGINE=right

TEST_CASE("env-shapes-right: the variable from the environment selects the engine") {
  fresh_process();
  require_env("SHAPES_ENGINE", "right");
  CHECK(status().engine == "right");
  CHECK(status().state == "open");
  check_calls("base", "right", "right");
  CHECK(contains(status().reason, "SHAPES_ENGINE"));
}

TEST_CASE("env-shapes-right: an explicit enable_engine wins over the environment") {
  fresh_process();
  require_env("SHAPES_ENGINE", "right");
  enable("left");
  check_calls("base", "left", "base");
  CHECK(status().reason == "enable_engine");
}

// ------------------------------ SHAPES_REPRODUCIBLE=1

namespace {

// The line of `log` that starts with `prefix`, without its newline, or empty.
std::string line_starting(const std::string& log, const std::string& prefix) {
  for (std::size_t at = 0; at < log.size();) {
    const std::size_t end = std::min(log.find('\n', at), log.size());
    if (log.compare(at, prefix.size(), prefix) == 0) return log.substr(at, end - at);
    at = end + 1;
  }
  return "";
}

}  // namespace

TEST_CASE("env-reproducible: the variable turns the mode on from the start") {
  fresh_process();
  require_env("SHAPES_REPRODUCIBLE", "1");
  CHECK(coheriq::reproducible(shapes::domain));
  const auto open = status();
  CHECK(open.reproducible);
  CHECK(open.state == "open");
  // The remedy names the variable that turned the mode on.
  expect_error<coheriq::CompositionError>(
      [] { enable("right"); },
      {"'right'", "does not honour the reproducible mode", "(SHAPES_REPRODUCIBLE=1)"});
  CHECK(same_status(open, status()));
  enable("base");
  check_calls("base/repro", "base/repro", "base/repro");
  CHECK(status().reproducible);
  CHECK(coheriq::reproducible(shapes::domain));
}

TEST_CASE("env-reproducible: auto passes over engines that do not honour the mode, and logs it") {
  fresh_process();
  require_env("SHAPES_REPRODUCIBLE", "1");
  set_env("SHAPES_ENGINE", "auto");
  set_env("COHERIQ_LOG", "info");  // read at the lock
  // Above left (21) in priority only engines that do not honour the mode, or do not compose
  // (shapes.hpp): whatever the host's features, auto comes down to left.
  CHECK(coheriq::active_engine(shapes::domain) == "left");
  shapes::test::StderrCapture capture;
  check_calls("base/repro", "base/repro", "base/repro");
  const std::string log = capture.text();
  const std::string reason = status().reason;
  CHECK(contains(reason, "SHAPES_ENGINE=auto"));
  CHECK_MESSAGE(
      contains(log, "coheriq: test.shapes locked to left (" + reason +
                        "; reproducible mode (SHAPES_REPRODUCIBLE=1); first use: area)\n"),
      log);
  const std::string passed_over = "coheriq: test.shapes: " + reason + " passed over ";
  for (const char* engine : {"wider", "wide", "left_first", "right_first"}) {
    CAPTURE(std::string(engine));
    const std::string line = line_starting(log, passed_over + "'" + engine + "': ");
    CHECK_MESSAGE(contains(line, "does not honour the reproducible mode"), log);
  }
  CHECK_MESSAGE(line_starting(log, passed_over + "'left'").empty(), log);
}

TEST_CASE("env-reproducible: the engine variable's single name that does not honour the mode") {
  fresh_process();
  require_env("SHAPES_REPRODUCIBLE", "1");
  set_env("SHAPES_ENGINE", "right");
  // As for any value of the variable with nothing usable in it (docs/api.md, the engine
  // variable's grammar): an UnsupportedEngineError giving each entry's reason.
  expect_error<coheriq::UnsupportedEngineError>(
      [] { shapes::area(1, 1); }, {"SHAPES_ENGINE=right", "'right'", "does not honour"});
  CHECK_FALSE(coheriq::is_locked(shapes::domain));
  set_env("SHAPES_ENGINE", "left");
  check_calls("base/repro", "base/repro", "base/repro");
}
