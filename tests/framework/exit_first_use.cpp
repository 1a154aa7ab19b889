// The first use of a domain from a static destructor of the application, after main looked at
// the host (enable_engine, or introspection under auto). Everything the dispatch path reads must
// still be there: the host description used to be a function-local static, destroyed before this
// destructor runs, so the host seemed to lack the engine's features and the process aborted (or,
// under auto, silently ran the reference). Run under ASan or valgrind, a use after free fails too.
//
//   exit_first_use explicit   enable_engine in main of an engine needing what this host has
//   exit_first_use auto       SHAPES_ENGINE=auto, what auto picks is looked up in main
#include <coheriq/engine.hpp>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "shapes.hpp"

namespace {

// Plain storage: nothing this test checks with may be destroyed before the check runs.
char expected_engine[64];
char expected_volume[64];
bool armed = false;

[[noreturn]] void fail(const char* what) {
  std::fprintf(stderr, "exit_first_use: %s\n", what);
  std::fflush(stderr);
  std::_Exit(1);
}

struct FirstUseAtExit {
  // Constructed before main, so destroyed after everything main constructed.
  ~FirstUseAtExit() {
    if (!armed) return;
    try {
      const shapes::Result v = shapes::volume(2, 3, 4);  // the domain's first use
      const std::string engine = coheriq::status(shapes::domain).engine;
      if (v.value != 24) fail("volume computed a wrong value");
      if (engine != expected_engine) {
        std::fprintf(stderr, "exit_first_use: locked to %s, expected %s\n", engine.c_str(),
                     expected_engine);
        std::_Exit(1);
      }
      if (expected_volume[0] != '\0' && v.engine != expected_volume) {
        fail("volume did not run the enabled engine's kernel");
      }
    } catch (const std::exception& e) {
      std::fprintf(stderr, "exit_first_use: the first use at exit threw: %s\n", e.what());
      std::_Exit(1);
    }
    std::printf("exit_first_use: ok, %s at exit\n", expected_engine);
    std::fflush(stdout);
  }
} first_use_at_exit;

void copy(char (&to)[64], const std::string& from) {
  if (from.size() >= sizeof to) fail("name too long");
  std::memcpy(to, from.c_str(), from.size() + 1);
}

}  // namespace

int main(int argc, char** argv) {
  for (const char* name : {"SHAPES_ENGINE", "COHERIQ_LOG", "COHERIQ_DISABLE_CPU_FEATURES",
                           "COHERIQ_ENGINE_PATH", "COHERIQ_HOST_OVERRIDE"}) {
    unsetenv(name);
  }
  const std::string mode = argc == 2 ? argv[1] : "";
  coheriq::materialize<shapes::Domain>();
  if (mode == "explicit") {
    // An engine that needs what this host has: a feature, its vendor and its L1d size.
    const coheriq::HostInfo host = coheriq::host();
    if (host.features.empty()) fail("this host reports no CPU feature to require");
    coheriq::EngineSpec spec = shapes::outside_engine();  // on left, overrides volume
    spec.name = "native";
    spec.required_features = {host.features.front()};
    spec.host.vendor = host.vendor;
    spec.host.min_l1d_bytes = host.l1d_bytes;
    coheriq::register_engine(spec);
    coheriq::enable_engine(shapes::domain, "native");
    copy(expected_engine, "native");
    copy(expected_volume, "outside");
  } else if (mode == "auto") {
    setenv("SHAPES_ENGINE", "auto", 1);
    copy(expected_engine, coheriq::active_engine(shapes::domain));
    if (std::string(expected_engine) == "reference") fail("auto should not pick the reference");
  } else {
    fail("usage: exit_first_use explicit|auto");
  }
  armed = true;
  return 0;
}
