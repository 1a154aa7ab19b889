// Helpers shared by the framework tests.
#pragma once

#include <doctest/doctest.h>
#include <coheriq/coheriq.hpp>

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <string>
#include <string_view>
#include <typeinfo>
#include <vector>

#include "shapes.hpp"

namespace shapes::test {

// The activation contract is one-way, so each test case needs a process of its own: ctest runs
// every discovered case separately. Running the binary without --test-case fails here, loudly,
// instead of producing confusing results from a domain an earlier case already settled.
// Also materializes the domain, as the domain's own entry points would.
inline void fresh_process() {
  static int cases_in_this_process = 0;
  REQUIRE_MESSAGE(++cases_in_this_process == 1,
                  "run one test case per process (ctest does; by hand: --test-case=<name>)");
  coheriq::materialize<Domain>();
}

// Asserts the variable the group of this case starts with (tests/framework/CMakeLists.txt).
inline void require_env(const char* name, std::string_view value) {
  const char* actual = std::getenv(name);
  REQUIRE_MESSAGE((actual != nullptr && value == actual),
                  "this case needs " << name << "=" << value << " (ctest passes --env " << name
                                     << "=" << value << ")");
}

inline void set_env(const char* name, const char* value) { REQUIRE(setenv(name, value, 1) == 0); }

// The exit code of a case that did not run: ctest counts it as skipped (SKIP_RETURN_CODE in
// tests/framework/CMakeLists.txt), never as passed.
inline constexpr int skip_exit_code = 77;

// Ends the case, and its process (one case per process), saying why it did not run.
[[noreturn]] inline void skip(const std::string& why) {
  std::printf("skipped: %s\n", why.c_str());
  std::fflush(stdout);
  std::_Exit(skip_exit_code);
}

// Asserts that COHERIQ_DISABLE_CPU_FEATURES, as the group of this case starts it, lists `name`.
inline void require_disabled(std::string_view name) {
  const char* actual = std::getenv("COHERIQ_DISABLE_CPU_FEATURES");
  const std::string list = "," + std::string(actual == nullptr ? "" : actual) + ",";
  REQUIRE_MESSAGE(list.find("," + std::string(name) + ",") != std::string::npos,
                  "this case needs COHERIQ_DISABLE_CPU_FEATURES to list " << name);
}

inline bool contains(std::string_view haystack, std::string_view needle) {
  return haystack.find(needle) != std::string_view::npos;
}

inline bool host_has(std::string_view feature) {
  const auto features = coheriq::host().features;
  return std::find(features.begin(), features.end(), feature) != features.end();
}

inline coheriq::EngineInfo info_of(std::string_view engine) {
  for (coheriq::EngineInfo& info : coheriq::engines(domain)) {
    if (info.name == engine) return info;
  }
  FAIL("engines(\"" << domain << "\") does not list " << engine);
  return {};
}

inline std::string provider_of(const coheriq::EngineInfo& info, std::string_view candidate) {
  for (const auto& p : info.providers) {
    if (p.candidate == candidate) return p.engine;
  }
  FAIL("engine " << info.name << " lists no provider of " << candidate);
  return {};
}

// Runs `f`, which must throw exactly `Expected` (or a subclass) with a message that starts with
// "coheriq:" and contains every needle. Returns the message.
template <class Expected, class F>
std::string expect_error(F&& f, std::initializer_list<std::string_view> needles) {
  std::string message;
  try {
    f();
    FAIL_CHECK("no exception; expected " << std::string(typeid(Expected).name()));
    return message;
  } catch (const Expected& e) {
    message = e.what();
  } catch (const std::exception& e) {
    // doctest prints a char* as a pointer: wrap every C string.
    FAIL_CHECK("expected " << std::string(typeid(Expected).name()) << ", got "
                           << std::string(typeid(e).name()) << ": " << std::string(e.what()));
    return e.what();
  }
  CHECK_MESSAGE(message.rfind("coheriq:", 0) == 0, "message: " << message);
  for (std::string_view needle : needles) {
    CHECK_MESSAGE(contains(message, needle), "message lacks '" << needle << "': " << message);
  }
  return message;
}

// Everything status() reports, compared as a whole: a failed call must leave all of it unchanged.
inline bool same_status(const coheriq::DomainStatus& a, const coheriq::DomainStatus& b) {
  return a.domain == b.domain && a.env_var == b.env_var && a.state == b.state &&
         a.engine == b.engine && a.reason == b.reason && a.locked_by == b.locked_by &&
         a.candidates == b.candidates && a.classes == b.classes &&
         a.reproducible_env_var == b.reproducible_env_var && a.reproducible == b.reproducible;
}

inline std::string describe(const coheriq::DomainStatus& s) {
  return s.state + " " + s.engine + " (" + s.reason + ") locked_by=" + s.locked_by;
}

// Calls the three shape candidates and checks their values and the engines that answered.
inline void check_calls(std::string_view area_engine, std::string_view perimeter_engine,
                        std::string_view volume_engine) {
  const Result a = area(3, 4);
  CHECK(a.value == 12);
  CHECK(a.engine == area_engine);
  const Result p = perimeter(3, 4);
  CHECK(p.value == 14);
  CHECK(p.engine == perimeter_engine);
  const Result v = volume(2, 3, 4);
  CHECK(v.value == 24);
  CHECK(v.engine == volume_engine);
}

// Sends everything written to file descriptor 2 into a temporary file, until text() or the end
// of the scope.
class StderrCapture {
 public:
  StderrCapture() : file_(std::tmpfile()) {
    REQUIRE(file_ != nullptr);
    std::fflush(stderr);
    saved_ = dup(2);
    REQUIRE(dup2(fileno(file_), 2) == 2);
  }
  StderrCapture(const StderrCapture&) = delete;
  StderrCapture& operator=(const StderrCapture&) = delete;
  ~StderrCapture() {
    restore();
    std::fclose(file_);
  }

  // What was written so far; stops capturing.
  std::string text() {
    restore();
    std::rewind(file_);
    std::string out;
    char buffer[256];
    for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, file_)) > 0;)
      out.append(buffer, n);
    return out;
  }

 private:
  void restore() {
    if (saved_ < 0) return;
    std::fflush(stderr);
    dup2(saved_, 2);
    close(saved_);
    saved_ = -1;
  }

  std::FILE* file_;
  int saved_ = -1;
};

}  // namespace shapes::test
