// A downstream program: C++17, links coheriq::kernels without whole-archive, and sees every
// built-in engine (the registry is referenced explicitly, nothing relies on static constructors).
#include <coheriq/coheriq.hpp>
#include <coheriq/kernels.hpp>

#include <cstdio>
#include <vector>

int main() {
  const std::vector<coheriq::EngineInfo> engines = coheriq::engines(coheriq::kernels::domain_name);
  std::printf("engines:");
  for (const auto& e : engines)
    std::printf(" %s%s", e.name.c_str(), e.supported ? "" : "(unsupported)");
  std::printf("\n");
  std::vector<double> x(1001, 0.5), y(1001, 4.0);
  const double d = coheriq::kernels::dot(x.size(), x.data(), y.data());
  std::printf("dot = %g with engine %s\n", d, coheriq::kernels::active_engine().c_str());
  return d == 2002.0 && !engines.empty() ? 0 : 1;
}
