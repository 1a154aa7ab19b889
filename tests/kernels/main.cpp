// coheriq_kernel_tests: every kernel under the engine COHERIQ_ENGINE selects, against the
// reference engine. ctest runs it once per engine; an engine this host cannot run is a skip
// (exit code 77) with the reason printed, not a failure.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <coheriq/coheriq.hpp>
#include <coheriq/kernels.hpp>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "support.hpp"

namespace {

constexpr int kSkipped = 77;  // SKIP_RETURN_CODE of the ctest entries

std::string trimmed(std::string_view s) {
  const auto first = s.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  const auto last = s.find_last_not_of(" \t");
  return std::string(s.substr(first, last - first + 1));
}

// Why the engine the environment asks for cannot run here, from the engine's own description
// when the variable names a single engine, else from the framework's error.
std::string skip_reason(const coheriq::UnsupportedEngineError& error) {
  const char* value = std::getenv("COHERIQ_ENGINE");
  const std::string requested = value != nullptr ? trimmed(value) : std::string();
  if (!requested.empty() && requested.find(',') == std::string::npos) {
    for (const coheriq::EngineInfo& info : coheriq::engines(coheriq::kernels::domain_name)) {
      if (info.name != requested) continue;
      if (!info.missing_features.empty()) {
        std::string missing;
        for (const std::string& feature : info.missing_features) {
          missing += (missing.empty() ? "" : ", ") + feature;
        }
        return "engine " + requested + " is not supported on this host: missing " + missing;
      }
      if (!info.error.empty()) return "engine " + requested + " does not compose: " + info.error;
    }
  }
  return "COHERIQ_ENGINE selects no engine this host supports: " + std::string(error.what());
}

}  // namespace

int main(int argc, char** argv) {
  // Resolving the engine never locks the domain, so the tests still see it open.
  try {
    (void)coheriq::kernels::testing::engine();
  } catch (const coheriq::UnsupportedEngineError& error) {
    std::printf("SKIPPED: %s\n", skip_reason(error).c_str());
    return kSkipped;
  } catch (const coheriq::Error& error) {
    std::fprintf(stderr, "coheriq_kernel_tests: %s\n", error.what());
    return 1;
  }
  coheriq::kernels::testing::report(
      "coheriq_kernel_tests: engine " + coheriq::kernels::testing::engine() +
      (coheriq::kernels::testing::quick() ? " (COHERIQ_TEST_QUICK=1: reduced sizes and sweeps)"
                                          : ""));
  doctest::Context context(argc, argv);
  return context.run();
}
