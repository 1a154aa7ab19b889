// An installed test program (tests/plugins/install_prefix.cmake): prints one line per engine of
// the kernels domain, "<name> <origin> <supported|error>", then the domain's broken manifests;
// with an engine name as argument, also enables it and prints the sum of {1, 2, 3}.
#include <coheriq/coheriq.hpp>
#include <coheriq/kernels.hpp>

#include <cstdio>
#include <string>

int main(int argc, char** argv) {
  try {
    for (const coheriq::EngineInfo& e : coheriq::engines(coheriq::kernels::domain_name)) {
      std::printf("engine %s %s %s\n", e.name.c_str(), e.origin.c_str(),
                  e.supported ? "supported" : e.error.c_str());
    }
    if (argc > 1) {
      coheriq::kernels::enable_engine(argv[1]);
      const float x[3] = {1, 2, 3};
      std::printf("sum %g\n", static_cast<double>(coheriq::kernels::sum(3, x)));
    }
  } catch (const coheriq::Error& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
  return 0;
}
