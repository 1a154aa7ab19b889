// coheriq_kernel_tests: every kernel under the engine COHERIQ_ENGINE selects, against the
// tests' own oracle. ctest runs it once per engine. An engine is skipped (exit code 77, the
// reason printed) only when this host lacks what it requires: CPU features, or host properties
// (vendor, vector length, caches). Anything else that stops the engine from running (it does not
// compose, names a base that does not exist, is unknown, its plugin does not load) is a failure:
// a broken engine must not pass as a skip.
//
// --register-test-engines (used by the kernels.selfcheck.* entries only) first registers two
// engines that prove this rule: one whose base does not exist, one that needs AVX2.
#include <doctest/doctest.h>

#include <coheriq/coheriq.hpp>
#include <coheriq/engine.hpp>
#include <coheriq/kernels.hpp>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "core/env.hpp"
#include "core/text.hpp"
#include "support.hpp"

namespace {

constexpr int kSkipped = 77;  // SKIP_RETURN_CODE of the ctest entries

// The engine names of COHERIQ_ENGINE, in order, read by the library's own parser; none when the
// value is malformed (then the selection error is not the host's).
std::vector<std::string> requested_engines() {
  const char* value = std::getenv("COHERIQ_ENGINE");
  try {
    return coheriq::detail::parse_engine_list(value != nullptr ? value : "", "COHERIQ_ENGINE");
  } catch (const coheriq::Error&) {
    return {};
  }
}

// Why this host cannot run what COHERIQ_ENGINE asks for, when that is the only reason: every
// engine it names exists, composes, and lacks features or host properties here. Empty otherwise
// (then the selection error is a failure).
std::string host_shortfall() {
  const std::vector<std::string> requested = requested_engines();
  if (requested.empty()) return {};
  std::vector<coheriq::EngineInfo> infos;
  try {
    infos = coheriq::engines(coheriq::kernels::domain_name);
  } catch (const coheriq::Error&) {
    return {};
  }
  std::vector<std::string> reasons;
  for (const std::string& name : requested) {
    const coheriq::EngineInfo* info = nullptr;
    for (const coheriq::EngineInfo& candidate : infos) {
      if (candidate.name == name) info = &candidate;
    }
    // 'auto' always finds an engine (the reference at worst): its errors are never the host's.
    if (info == nullptr || !info->error.empty()) return {};
    if (info->missing_features.empty() && info->missing_host.empty()) return {};
    std::vector<std::string> missing = info->missing_features;
    missing.insert(missing.end(), info->missing_host.begin(), info->missing_host.end());
    reasons.push_back("engine " + name + " is not supported on this host: missing " +
                      coheriq::detail::join(missing));
  }
  std::string out;
  for (const std::string& reason : reasons) out += (out.empty() ? "" : "; ") + reason;
  return out;
}

// What the failure is, from the engine's own description when it does not compose.
void print_failure(const coheriq::Error& error) {
  std::fprintf(stderr, "coheriq: kernel tests: %s\n", error.what());
  try {
    for (const coheriq::EngineInfo& info : coheriq::engines(coheriq::kernels::domain_name)) {
      for (const std::string& name : requested_engines()) {
        if (info.name == name && !info.error.empty()) {
          std::fprintf(stderr,
                       "coheriq: kernel tests: engine %s does not compose: %s\n"
                       "coheriq: kernel tests: a broken engine is a failure, not a skip; fix "
                       "its definition\n",
                       name.c_str(), info.error.c_str());
        }
      }
    }
  } catch (const coheriq::Error&) {  // the first message says it already
  }
}

// The engines of --register-test-engines (see the top of this file). Neither overrides
// anything: they only exercise the selection, and run the reference's kernels where they run.
void register_test_engines() {
  coheriq::EngineSpec broken;
  broken.domain = std::string(coheriq::kernels::domain_name);
  broken.name = "selfcheck_broken_base";
  broken.description = "kernel tests: names a base that does not exist";
  broken.bases = {"selfcheck_no_such_base"};
  coheriq::register_engine(broken);

  coheriq::EngineSpec needs;
  needs.domain = std::string(coheriq::kernels::domain_name);
  // A feature of the target architecture (tests/kernels/CMakeLists.txt): avx2, or asimd.
  needs.name = "selfcheck_needs_feature";
  needs.description = "kernel tests: requires " COHERIQ_SELFCHECK_FEATURE
                      " (run with COHERIQ_DISABLE_CPU_FEATURES=" COHERIQ_SELFCHECK_FEATURE ")";
  needs.required_features = {COHERIQ_SELFCHECK_FEATURE};
  coheriq::register_engine(needs);
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<char*> args;
  bool test_engines = false;
  for (int i = 0; i < argc; ++i) {
    if (i > 0 && std::strcmp(argv[i], "--register-test-engines") == 0) {
      test_engines = true;
    } else {
      args.push_back(argv[i]);
    }
  }
  try {
    if (test_engines) register_test_engines();
    // Resolving the engine never locks the domain, so the tests still see it open.
    (void)coheriq::kernels::testing::engine();
  } catch (const coheriq::Error& error) {
    const std::string shortfall = host_shortfall();
    if (!shortfall.empty()) {
      std::printf("SKIPPED: %s\n", shortfall.c_str());
      return kSkipped;
    }
    print_failure(error);
    return 1;
  }
  coheriq::kernels::testing::report(
      "coheriq_kernel_tests: engine " + coheriq::kernels::testing::engine() +
      (coheriq::kernels::testing::quick() ? " (COHERIQ_TEST_QUICK=1: reduced sizes and sweeps)"
                                          : ""));
  doctest::Context context(static_cast<int>(args.size()), args.data());
  return context.run();
}
