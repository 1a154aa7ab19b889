// Quick start: call the kernels like any C++ functions. The engine is picked once per process:
//   ./quickstart                  reference, unless COHERIQ_ENGINE says otherwise
//   ./quickstart avx2             enable_engine("avx2") before the first call
//   COHERIQ_ENGINE=auto ./quickstart
#include <coheriq/coheriq.hpp>
#include <coheriq/kernels.hpp>

#include <cstdio>
#include <vector>

namespace ck = coheriq::kernels;

int main(int argc, char** argv) {
  try {
    if (argc > 1) ck::enable_engine(argv[1]);  // one line, before the first use
  } catch (const coheriq::Error& e) {
    std::fprintf(stderr, "%s\n", e.what());  // e.g. unsupported on this CPU: says what is missing
    return 1;
  }

  std::vector<float> x(4096), y(4096);
  for (std::size_t i = 0; i < x.size(); ++i) {
    x[i] = static_cast<float>(i) / 4096.0f;
    y[i] = 1.0f - x[i];
  }
  const float d = ck::dot(x.size(), x.data(), y.data());  // the first use: the choice locks here
  ck::axpy(x.size(), 2.0f, x.data(), y.data());
  ck::exp(x.size(), x.data(), x.data());

  std::vector<double> a(64 * 64, 0.5), b(64 * 64, 2.0), c(64 * 64);
  ck::gemm(ck::Trans::N, ck::Trans::N, 64, 64, 64, 1.0, a.data(), 64, b.data(), 64, 0.0, c.data(),
           64);

  std::printf("engine %s: dot = %.6g, y[10] = %.6g, exp(x)[4095] = %.6g, C[0] = %g\n",
              ck::active_engine().c_str(), static_cast<double>(d), static_cast<double>(y[10]),
              static_cast<double>(x[4095]), c[0]);
  const bool ok = c[0] == 64.0 && d > 682.0f && d < 683.0f;
  return ok ? 0 : 1;
}
