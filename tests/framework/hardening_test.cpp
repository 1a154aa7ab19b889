// What a hostile user, a broken installation or a careless job script does to selection: a
// malformed host variable, plugin engines whose library does not load or whose manifest is
// broken, untrusted text in names and values, misleading messages, and fork() while another
// thread holds a domain's lock. Plugin engines are made here the way add_plugins makes them
// (origin "plugin:...", a loader, a refusal), so the selection side is tested without files; the
// manifest side is tests/plugins. Every case runs in its own process and sets its variables
// before anything reads them.
#include <coheriq/engine.hpp>

#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

#include "core/core.hpp"
#include "support.hpp"

using shapes::test::contains;
using shapes::test::expect_error;
using shapes::test::fresh_process;
using shapes::test::host_has;
using shapes::test::same_status;
using shapes::test::set_env;
using shapes::test::StderrCapture;
namespace detail = coheriq::detail;

namespace {

// Ends a forked child at once, by the system call: the child holds copies of the parent's
// threads' std::thread objects, which ThreadSanitizer's exit hook reports as leaked threads and
// turns into exit code 66 (seen in CI, depending on timing), hiding the child's own verdict.
[[noreturn]] void exit_child(int code) {
  syscall(SYS_exit_group, code);
  _exit(code);  // not reached
}

coheriq::DomainStatus status() { return coheriq::status(shapes::domain); }
void enable(std::string_view engine) { coheriq::enable_engine(shapes::domain, engine); }

std::string manifest_of(const std::string& name) { return "/plugins/" + name + ".coheriq-engine"; }

// A plugin engine as add_plugins registers it: on `left`, overriding volume (as
// shapes::outside_engine), loaded by `loader` when it is to be used, unusable when `refusal` is
// set (a manifest that does not parse, another ABI).
void add_plugin_engine(const std::string& name, int priority,
                       std::function<void(detail::Engine&)> loader, std::string refusal = "") {
  detail::DomainCore& d = detail::find_domain(shapes::domain);
  std::lock_guard<std::mutex> guard(d.mu);
  coheriq::EngineSpec spec = shapes::outside_engine();
  spec.name = name;
  spec.priority = priority;
  auto e = detail::make_engine(d, spec, "plugin:" + manifest_of(name));
  e->loader = std::move(loader);
  e->refusal = std::move(refusal);
  d.add(std::move(e));
}

// What load_plugin throws for a library that is not there.
void add_missing_library(const std::string& name, int priority) {
  add_plugin_engine(name, priority, [name](detail::Engine&) {
    throw coheriq::PluginError("coheriq: plugin engine '" + name + "' (" + manifest_of(name) +
                               "): cannot load /plugins/lib" + name +
                               ".so: No such file or directory. Check the manifest's library path");
  });
}

const std::string broken_refusal =
    "coheriq: plugin manifest /plugins/broken.coheriq-engine:4: key 'priority' appears twice";
const std::string unreadable =
    "coheriq: plugin manifest /plugins/garbage.coheriq-engine:1: expected 'key = value'";

// A domain with a broken manifest whose engine name was readable ("broken", priority 99, above
// every built-in) and one whose name was not.
void add_broken_manifests() {
  add_plugin_engine(
      "broken", 99, [](detail::Engine&) {}, broken_refusal);
  detail::DomainCore& d = detail::find_domain(shapes::domain);
  std::lock_guard<std::mutex> guard(d.mu);
  d.broken_manifests.push_back(unreadable);
}

// What auto picks among the built-ins of test.shapes on this host.
const char* auto_choice() {
  return host_has(shapes::kWideFeature) ? (host_has(shapes::kWiderFeature) ? "wider" : "wide")
                                        : "left_first";
}

}  // namespace

// ------------------------------ Item 4: a malformed host variable is never a reason

TEST_CASE("hardening: a typo in COHERIQ_DISABLE_CPU_FEATURES fails auto and lists loudly") {
  fresh_process();
  set_env("COHERIQ_DISABLE_CPU_FEATURES", shapes::kWideAndUnknownFeature);
  for (const char* value : {"auto", "wide,reference", "left,reference"}) {
    CAPTURE(std::string(value));
    set_env("SHAPES_ENGINE", value);
    const std::string message = expect_error<coheriq::Error>(
        [] { shapes::area(1, 1); }, {"COHERIQ_DISABLE_CPU_FEATURES", "avx9000"});
    CHECK_MESSAGE(!contains(message, "no engine in the list"), message);
    CHECK_FALSE(coheriq::is_locked(shapes::domain));
  }
  // The default reference too: the job asked for something that cannot be honoured.
  REQUIRE(unsetenv("SHAPES_ENGINE") == 0);
  expect_error<coheriq::Error>([] { shapes::area(1, 1); }, {"avx9000"});
  CHECK_FALSE(coheriq::is_locked(shapes::domain));
}

// ------------------------------ Item 5: a plugin library that does not load

TEST_CASE("hardening: a list passes over a plugin whose library does not load") {
  fresh_process();
  add_missing_library("missing_lib", 99);
  set_env("SHAPES_ENGINE", "missing_lib,right");
  set_env("COHERIQ_LOG", "info");
  StderrCapture capture;
  shapes::test::check_calls("base", "right", "right");
  const std::string log = capture.text();
  CHECK(status().engine == "right");
  CHECK_MESSAGE(contains(log, "passed over 'missing_lib': coheriq: plugin engine 'missing_lib'"),
                log);
  CHECK_MESSAGE(contains(log, "cannot load /plugins/libmissing_lib.so"), log);
  CHECK_MESSAGE(contains(log, "locked to right"), log);
}

TEST_CASE("hardening: auto passes over a plugin whose library does not load") {
  fresh_process();
  add_missing_library("missing_lib", 99);  // the highest priority: auto tries it first
  set_env("SHAPES_ENGINE", "auto");
  shapes::area(1, 1);
  CHECK(status().engine == auto_choice());
}

TEST_CASE("hardening: a plugin whose library does not load, named alone, fails with the reason") {
  fresh_process();
  add_missing_library("missing_lib", 99);
  const auto open = status();
  expect_error<coheriq::PluginError>([] { enable("missing_lib"); }, {"missing_lib", "cannot load"});
  CHECK(same_status(open, status()));
  set_env("SHAPES_ENGINE", "missing_lib");
  const std::string message = expect_error<coheriq::UnsupportedEngineError>(
      [] { shapes::area(1, 1); }, {"SHAPES_ENGINE=missing_lib", "cannot load", "can be used"});
  CHECK_MESSAGE(!contains(message, "supported on this host ("), message);
  CHECK_FALSE(coheriq::is_locked(shapes::domain));
}

// Round 2, item 6: introspection says what the first use will lock to. A plugin engine that the
// selection would take is probed (its library loaded, as the first use loads it) once, and a
// library that does not load is remembered as the engine's refusal.
TEST_CASE("hardening: introspection agrees with the first use past a plugin that does not load") {
  fresh_process();
  int attempts = 0;
  add_plugin_engine("missing_lib", 99, [&attempts](detail::Engine&) {
    ++attempts;
    throw coheriq::PluginError("coheriq: plugin engine 'missing_lib': cannot load it");
  });
  set_env("SHAPES_ENGINE", "auto");
  CHECK(coheriq::active_engine(shapes::domain) == auto_choice());
  CHECK(status().engine == auto_choice());
  CHECK(status().state == "open");
  const coheriq::EngineInfo info = shapes::test::info_of("missing_lib");
  CHECK_FALSE(info.supported);
  CHECK_MESSAGE(contains(info.error, "cannot load it"), info.error);
  shapes::area(1, 1);
  CHECK(status().engine == auto_choice());
  CHECK(attempts == 1);  // probed once: the first use did not try it again
}

TEST_CASE("hardening: enable_engine('auto') passes over a plugin whose library does not load") {
  fresh_process();
  add_missing_library("missing_lib", 99);
  enable("auto");
  CHECK(status().engine == auto_choice());
  shapes::area(1, 1);
  CHECK(status().engine == auto_choice());
}

// ------------------------------ Item 6: broken manifests

TEST_CASE("hardening: a broken manifest stops no job that does not need it") {
  fresh_process();
  add_broken_manifests();
  shapes::test::check_calls("reference", "reference", "reference");
  CHECK(status().engine == "reference");
}

TEST_CASE("hardening: an enabled engine runs beside a broken manifest") {
  fresh_process();
  add_broken_manifests();
  enable("left");
  shapes::test::check_calls("base", "left", "base");
}

TEST_CASE("hardening: auto passes over a broken plugin engine and the log says why") {
  fresh_process();
  add_broken_manifests();
  set_env("SHAPES_ENGINE", "auto");
  set_env("COHERIQ_LOG", "info");
  StderrCapture capture;
  shapes::area(1, 1);
  const std::string log = capture.text();
  CHECK(status().engine == auto_choice());
  CHECK_MESSAGE(contains(log, "coheriq: test.shapes: SHAPES_ENGINE=auto passed over 'broken': " +
                                  broken_refusal),
                log);
  CHECK_MESSAGE(contains(log, "passed over 'tangled'"), log);  // and the ones that do not compose
}

TEST_CASE("hardening: a job that asks for a broken plugin engine fails and runs nothing else") {
  fresh_process();
  add_broken_manifests();
  const auto open = status();
  expect_error<coheriq::PluginError>([] { enable("broken"); }, {broken_refusal});
  CHECK(same_status(open, status()));
  set_env("SHAPES_ENGINE", "broken");
  const std::string message = expect_error<coheriq::UnsupportedEngineError>(
      [] { shapes::area(1, 1); }, {"SHAPES_ENGINE=broken", broken_refusal, "can be used"});
  CHECK_MESSAGE(!contains(message, "supported on this host ("), message);
  CHECK_FALSE(coheriq::is_locked(shapes::domain));
}

TEST_CASE("hardening: an unknown engine's message lists broken manifests and the plugin path") {
  fresh_process();
  add_broken_manifests();
  set_env("COHERIQ_ENGINE_PATH", "/plugins:/more");
  expect_error<coheriq::UnknownEngineError>(
      [] { enable("fancy"); },
      {"'fancy'", unreadable, "COHERIQ_ENGINE_PATH", "'/plugins:/more'", "left"});
  set_env("SHAPES_ENGINE", "fancy");
  expect_error<coheriq::UnknownEngineError>(
      [] { shapes::area(1, 1); },
      {"SHAPES_ENGINE=fancy", unreadable, "COHERIQ_ENGINE_PATH", "(or 'auto')"});
}

// ------------------------------ Item 8: untrusted text in messages

TEST_CASE("hardening: names given to enable_engine are escaped and bounded in messages") {
  fresh_process();
  const std::string evil = "\x1b[31m" + std::string(100000, 'x');
  const auto check_safe = [](const std::string& message) {
    CHECK(message.find('\x1b') == std::string::npos);
    CHECK(contains(message, "\\x1b[31m"));
    CHECK_MESSAGE(message.size() < 4000, message.size());
  };
  check_safe(expect_error<coheriq::UnknownEngineError>([&] { enable(evil); }, {"more bytes"}));
  check_safe(expect_error<coheriq::UnknownDomainError>(
      [&] { coheriq::enable_engine(evil, "left"); }, {"no domain"}));
  enable("left");
  check_safe(expect_error<coheriq::EngineLockedError>([&] { enable(evil); }, {"'left'"}));
}

TEST_CASE("hardening: env-var values are escaped and bounded in messages") {
  fresh_process();
  set_env("SHAPES_ENGINE", std::string(100000, 'y').c_str());
  std::string message =
      expect_error<coheriq::UnknownEngineError>([] { shapes::area(1, 1); }, {"SHAPES_ENGINE"});
  CHECK_MESSAGE(message.size() < 4000, message.size());
  set_env("SHAPES_ENGINE", ("left,\x1b]0;pwned\x07" + std::string(100000, 'z')).c_str());
  message = expect_error<coheriq::Error>([] { shapes::area(1, 1); }, {"SHAPES_ENGINE"});
  CHECK(message.find('\x1b') == std::string::npos);
  CHECK(message.find('\x07') == std::string::npos);
  CHECK_MESSAGE(message.size() < 4000, message.size());
  CHECK_FALSE(coheriq::is_locked(shapes::domain));
}

// ------------------------------ Item 16: messages that mislead

TEST_CASE("hardening: the log says when enable_engine beat the variable") {
  fresh_process();
  set_env("SHAPES_ENGINE", "right");
  set_env("COHERIQ_LOG", "info");
  StderrCapture capture;
  enable("left");
  shapes::area(1, 1);
  CHECK(capture.text() ==
        "coheriq: test.shapes locked to left (enable_engine; SHAPES_ENGINE=right ignored; first "
        "use: area)\n");
}

TEST_CASE("hardening: a coherence error names the layouts, not only the engines") {
  fresh_process();
  // zigzag changes reversed's layout of Grid but inherits reversed's grid_load.
  coheriq::EngineSpec spec = shapes::outside_engine();
  spec.name = "zigzag_engine";
  spec.bases = {"reversed"};
  spec.layouts = {{"Grid", "zigzag"}};
  coheriq::register_engine(spec);
  expect_error<coheriq::CompositionError>(
      [] { enable("zigzag_engine"); },
      {"grid_load comes from 'reversed', written for layout 'reversed' of Grid",
       "the layout in effect is 'zigzag' (from 'zigzag_engine')"});
}

TEST_CASE("hardening: a broken engine alone in the variable is not called a host problem") {
  fresh_process();
  set_env("COHERIQ_DISABLE_CPU_FEATURES",
          shapes::kWideFeature);  // read once, at the first look at the host
  set_env("SHAPES_ENGINE", "paired");
  const std::string message = expect_error<coheriq::UnsupportedEngineError>(
      [] { shapes::area(1, 1); }, {"SHAPES_ENGINE=paired", "can be used", "incoherent"});
  CHECK_MESSAGE(!contains(message, "supported on this host ("), message);
  // Only what the host lacks reads as a host problem.
  set_env("SHAPES_ENGINE", "wide");
  expect_error<coheriq::UnsupportedEngineError>(
      [] { shapes::area(1, 1); },
      {"is supported on this host ('wide': missing " COHERIQ_TEST_WIDE_FEATURE});
}

// ------------------------------ Item 17: fork while another thread holds a domain's lock

TEST_CASE("hardening: fork while another thread holds the domain's lock leaves a working child") {
  fresh_process();
  // A plugin whose loading takes a while: enable_engine holds the domain's lock meanwhile.
  std::mutex m;
  std::condition_variable cv;
  bool loading = false;
  add_plugin_engine("slow", 1, [&](detail::Engine&) {
    {
      std::lock_guard<std::mutex> g(m);
      loading = true;
    }
    cv.notify_all();
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
  });
  std::thread enabler([] { enable("slow"); });
  {
    std::unique_lock<std::mutex> g(m);
    cv.wait(g, [&] { return loading; });
  }
  const pid_t child = fork();  // the enabler is inside the domain's lock now
  REQUIRE(child >= 0);
  if (child == 0) {
    // Without the fork handlers the domain's mutex is locked forever here.
    const bool ok = coheriq::status(shapes::domain).engine == "slow" &&
                    shapes::volume(1, 1, 1).engine == "outside";
    exit_child(ok ? 0 : 3);
  }
  enabler.join();
  int wstatus = 0;
  pid_t done = 0;
  for (int i = 0; i < 100 && done == 0; ++i) {  // up to 10 s
    done = waitpid(child, &wstatus, WNOHANG);
    if (done == 0) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  if (done == 0) {
    kill(child, SIGKILL);
    waitpid(child, &wstatus, 0);
    FAIL("the child of fork() hangs on the domain's lock");
  }
  CHECK(WIFEXITED(wstatus));
  CHECK(WEXITSTATUS(wstatus) == 0);
  CHECK(status().engine == "slow");
}

TEST_CASE("hardening: fork while other threads take the registry's and domain's locks") {
  fresh_process();
  // Threads that hold the locks most of the time: without the fork handlers some child inherits
  // a held mutex and hangs.
  std::atomic<bool> stop{false};
  std::vector<std::thread> busy;
  for (int t = 0; t < 4; ++t) {
    busy.emplace_back([&] {
      while (!stop.load()) {
        (void)coheriq::domains();
        (void)coheriq::status(shapes::domain);
      }
    });
  }
  int hung = 0;
  int failed = 0;
  for (int i = 0; i < 100 && hung == 0; ++i) {
    const pid_t child = fork();
    REQUIRE(child >= 0);
    if (child == 0) {
      const bool ok =
          coheriq::domains().size() == 1 && coheriq::status(shapes::domain).engine == "reference";
      exit_child(ok ? 0 : 3);
    }
    int wstatus = 0;
    pid_t done = 0;
    for (int w = 0; w < 200 && done == 0; ++w) {  // up to 2 s
      done = waitpid(child, &wstatus, WNOHANG);
      if (done == 0) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    if (done == 0) {
      ++hung;
      kill(child, SIGKILL);
      waitpid(child, &wstatus, 0);
    } else if (!WIFEXITED(wstatus) || WEXITSTATUS(wstatus) != 0) {
      ++failed;
    }
  }
  stop = true;
  for (std::thread& t : busy) t.join();
  CHECK_MESSAGE(hung == 0, "a child of fork() hung on a lock");
  CHECK(failed == 0);
}
