// An application that knows nothing about the plugin: it calls coheriq::kernels::dot. Run it with
//   COHERIQ_ENGINE_PATH=<dir with example_dot.coheriq-engine> COHERIQ_ENGINE=example_dot ./app
// With an engine name as argument it checks that this engine computed the result (exit 77 when
// the host does not support it).
#include <coheriq/coheriq.hpp>
#include <coheriq/kernels.hpp>

#include <cstdio>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  const std::string expected = argc > 1 ? argv[1] : "";
  for (const coheriq::EngineInfo& e : coheriq::engines(coheriq::kernels::domain_name)) {
    std::printf("%-12s %-11s %s\n", e.name.c_str(), e.supported ? "supported" : "unsupported",
                e.origin.c_str());
    if (e.name == expected && !e.supported) {
      std::printf("SKIPPED: engine %s is not supported on this host\n", expected.c_str());
      return 77;
    }
  }
  std::vector<float> x(1000), y(1000);
  float exact = 0;  // small integers and halves: every partial sum is exact in float
  for (std::size_t i = 0; i < x.size(); ++i) {
    x[i] = static_cast<float>(i % 7);
    y[i] = 0.5f;
    exact += x[i] * y[i];
  }
  const float d = coheriq::kernels::dot(x.size(), x.data(), y.data());
  std::printf("dot = %g, computed by engine %s\n", static_cast<double>(d),
              coheriq::kernels::active_engine().c_str());
  const bool right_engine = expected.empty() || coheriq::kernels::active_engine() == expected;
  return d == exact && right_engine ? 0 : 1;
}
