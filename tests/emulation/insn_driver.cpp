// Runs one kernel on n elements under one engine, for counting the guest instructions it executes
// under qemu (tests/emulation/insns_per_element.sh): the difference between two sizes, divided by
// the difference in elements, is the kernel's instructions per element, free of the fixed cost
// (process start, dispatch, the remainder loop).
//   coheriq_insn_driver ENGINE KERNEL N      KERNEL: dot.f32 axpy.f32 ... softmax.f32, gemm.f32,
//                                            gemm.f64 (gemm: N x N x N, per element of C times k),
//                                            or none.f32 / none.gemm: the set-up alone (subtracted)
#include <coheriq/kernels.hpp>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "coheriq: usage: %s ENGINE KERNEL N\n", argv[0]);
    return 2;
  }
  namespace k = coheriq::kernels;
  const std::string kernel = argv[2];
  const std::size_t n = std::strtoull(argv[3], nullptr, 10);
  k::enable_engine(argv[1]);
  // gemm: square matrices
  const bool square = kernel == "gemm.f32" || kernel == "gemm.f64" || kernel == "none.gemm";
  const std::size_t size = square ? n * n : n;
  std::vector<float> x(size), y(size), z(size);
  std::vector<double> zd(square ? size : 0);
  for (std::size_t i = 0; i < x.size(); ++i) {
    x[i] = 0.5f + static_cast<float>(i % 7) * 0.25f;
    y[i] = 1.0f - static_cast<float>(i % 5) * 0.125f;
  }
  std::vector<double> xd(x.begin(), x.end()), yd(y.begin(), y.end());
  double sink = 0;
  if (kernel == "none.f32" || kernel == "none.gemm")
    sink = 0;
  else if (kernel == "dot.f32")
    sink = k::dot(n, x.data(), y.data());
  else if (kernel == "dot.f64")
    sink = k::dot(n, xd.data(), yd.data());
  else if (kernel == "axpy.f32")
    k::axpy(n, 0.5f, x.data(), y.data());
  else if (kernel == "scal.f32")
    k::scal(n, 0.5f, x.data());
  else if (kernel == "sum.f32")
    sink = k::sum(n, x.data());
  else if (kernel == "asum.f32")
    sink = k::asum(n, x.data());
  else if (kernel == "nrm2.f32")
    sink = k::nrm2(n, x.data());
  else if (kernel == "iamax.f32")
    sink = static_cast<double>(k::iamax(n, x.data()));
  else if (kernel == "exp.f32")
    k::exp(n, x.data(), y.data());
  else if (kernel == "log.f32")
    k::log(n, x.data(), y.data());
  else if (kernel == "tanh.f32")
    k::tanh(n, x.data(), y.data());
  else if (kernel == "sigmoid.f32")
    k::sigmoid(n, x.data(), y.data());
  else if (kernel == "softmax.f32")
    k::softmax(n, x.data(), y.data());
  else if (kernel == "gemm.f32")
    k::gemm(k::Trans::N, k::Trans::N, n, n, n, 1.0f, x.data(), n, y.data(), n, 0.0f, z.data(), n);
  else if (kernel == "gemm.f64")
    k::gemm(k::Trans::N, k::Trans::N, n, n, n, 1.0, xd.data(), n, yd.data(), n, 0.0, zd.data(), n);
  else {
    std::fprintf(stderr, "coheriq: unknown KERNEL '%s'; see the top of insn_driver.cpp\n",
                 kernel.c_str());
    return 2;
  }
  std::printf("%s %s n=%zu: %g %g\n", argv[1], kernel.c_str(), n, sink,
              double(y[n / 2] + z[0]) + (zd.empty() ? 0.0 : zd[0]));
  return 0;
}
