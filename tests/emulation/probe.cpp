// Emulation probe: enables one kernels engine and reports how that went.
//   coheriq_engine_probe ENGINE --expect-refusal FEATURE...   the host must refuse ENGINE with an
//                                                             UnsupportedEngineError naming each
//                                                             FEATURE
//   coheriq_engine_probe ENGINE --expect-run                  ENGINE must be enabled and run a dot
// Exit 0 when the expectation holds, 1 otherwise (the reason on stderr).
#include <coheriq/coheriq.hpp>
#include <coheriq/kernels.hpp>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s ENGINE --expect-refusal FEATURE... | ENGINE --expect-run\n",
                 argv[0]);
    return 2;
  }
  const std::string engine = argv[1];
  const bool expect_run = std::strcmp(argv[2], "--expect-run") == 0;
  try {
    coheriq::kernels::enable_engine(engine);
  } catch (const coheriq::UnsupportedEngineError& e) {
    std::printf("refused: %s\n", e.what());
    if (expect_run) return 1;
    const std::string message = e.what();
    for (int i = 3; i < argc; ++i) {
      if (message.find(argv[i]) == std::string::npos) {
        std::fprintf(stderr, "FAIL: the refusal does not name the missing feature %s\n", argv[i]);
        return 1;
      }
    }
    if (coheriq::is_locked(coheriq::kernels::domain_name) ||
        coheriq::kernels::active_engine() != "reference") {
      std::fprintf(stderr, "FAIL: a refused engine changed the domain's state\n");
      return 1;
    }
    return 0;
  }
  if (!expect_run) {
    std::fprintf(stderr, "FAIL: engine %s was accepted on this host, expected a refusal\n",
                 engine.c_str());
    return 1;
  }
  std::vector<float> x(37, 1.5f), y(37, 2.0f);
  const float d = coheriq::kernels::dot(x.size(), x.data(), y.data());
  std::printf("%s ran: dot = %g\n", coheriq::kernels::active_engine().c_str(), double(d));
  return d == 111.0f ? 0 : 1;
}
