// SLEEF's benchmarks: exp, log and tanh (u10, 1 ulp) with the widest x86 ISA this host has,
// checked at run time. Baseline code; the vector code is in sleef_<isa>.cpp.
#include <sleef.h>

#include <cstddef>
#include <string>

#include "../harness.hpp"
#include "peers.hpp"
#include "sleef_isa.hpp"

namespace coheriq_bench {
namespace {

using ArrayFunction = void (*)(std::size_t, const float*, float*);

struct SleefIsa {
  const char* name;
  ArrayFunction exp, log, tanh;
};

// The widest ISA the CPU reports, or nullptr when it has none of them.
const SleefIsa* widest_isa() {
  static const SleefIsa avx512 = {"avx512f, Sleef_*f16_u10avx512f", sleef_avx512::exp,
                                  sleef_avx512::log, sleef_avx512::tanh};
  static const SleefIsa avx2 = {"avx2, Sleef_*f8_u10avx2", sleef_avx2::exp, sleef_avx2::log,
                                sleef_avx2::tanh};
  static const SleefIsa sse4 = {"sse4.1, Sleef_*f4_u10sse4", sleef_sse4::exp, sleef_sse4::log,
                                sleef_sse4::tanh};
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f")) return &avx512;
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return &avx2;
  if (__builtin_cpu_supports("sse4.1")) return &sse4;
  return nullptr;
}

}  // namespace

PeerStatus register_sleef() {
  const std::string version = std::to_string(SLEEF_VERSION_MAJOR) + "." +
                              std::to_string(SLEEF_VERSION_MINOR) + "." +
                              std::to_string(SLEEF_VERSION_PATCHLEVEL);
  const SleefIsa* isa = widest_isa();
  if (isa == nullptr) return {"sleef", false, "this CPU has none of avx512f, avx2+fma, sse4.1"};
  // The chosen functions are called once per array, so the indirection costs nothing measurable.
  const ArrayFunction exp = isa->exp, log = isa->log, tanh = isa->tanh;
  add_math("exp", Fill::kExp, "sleef",
           [exp](std::size_t n, const float* x, float* y) { exp(n, x, y); });
  add_math("log", Fill::kLog, "sleef",
           [log](std::size_t n, const float* x, float* y) { log(n, x, y); });
  add_math("tanh", Fill::kTanh, "sleef",
           [tanh](std::size_t n, const float* x, float* y) { tanh(n, x, y); });
  return {"sleef", true, version + ", " + isa->name};
}

}  // namespace coheriq_bench
