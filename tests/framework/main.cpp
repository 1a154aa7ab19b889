// The doctest main of the framework tests.
//
// The cases state their environment themselves, so the variables that steer coheriq start unset
// whatever the shell exported; `--env NAME=VALUE` (given by tests/framework/CMakeLists.txt to the
// env-* groups) then sets one before any coheriq code runs, as if the process had been started
// with it.
#include <doctest/doctest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  for (const char* name :
       {"SHAPES_ENGINE", "SHAPES_REPRODUCIBLE", "COHERIQ_LOG", "COHERIQ_DISABLE_CPU_FEATURES",
        "COHERIQ_ENGINE_PATH", "COHERIQ_HOST_OVERRIDE"}) {
    unsetenv(name);
  }
  std::vector<char*> doctest_args;
  for (int i = 0; i < argc; ++i) {
    if (std::strcmp(argv[i], "--env") == 0 && i + 1 < argc) {
      const std::string assignment = argv[++i];
      const std::size_t eq = assignment.find('=');
      if (eq == std::string::npos || eq == 0) {
        std::fprintf(stderr, "--env takes NAME=VALUE, got '%s'\n", assignment.c_str());
        return 2;
      }
      setenv(assignment.substr(0, eq).c_str(), assignment.c_str() + eq + 1, 1);
    } else {
      doctest_args.push_back(argv[i]);
    }
  }
  doctest::Context context(static_cast<int>(doctest_args.size()), doctest_args.data());
  return context.run();
}
