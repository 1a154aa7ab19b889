// coheriq_selection_probe: what COHERIQ_ENGINE selects on this host (as
// COHERIQ_DISABLE_CPU_FEATURES and COHERIQ_HOST_OVERRIDE make it look), for the refusal tests of
// the machine engines (tests/kernels/CMakeLists.txt matches the output).
//
// Runs one kernel (the first use) and prints "active: <engine>", or "refused: <error>" when the
// selection fails. With --expect-best-supported it also checks that the active engine is the
// highest-priority engine this host supports, naming both when not (exit 1). With
// --register-half-vnni it first registers `probe_half_vnni`: on avx512_vnni, its own layout of
// the integer GEMM's packed B, but only the workspace size overridden (the GEMM inherited, written
// for avx512_vnni's layout), and prints "probe_half_vnni: <composition error>".
#include <coheriq/coheriq.hpp>
#include <coheriq/engine.hpp>
#include <coheriq/kernels.hpp>
#include <coheriq/kernels_domain.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

namespace {

std::size_t other_workspace(std::size_t, std::size_t, std::size_t) { return 64; }

constexpr coheriq::Override kHalfVnni[] = {
    coheriq::implement<coheriq::kernels::cand::gemm_workspace_u8s8s32, &other_workspace>()};
const coheriq::OverrideTable kHalfVnniTable = coheriq::table_of(kHalfVnni);

// Registers probe_half_vnni and prints why it does not compose (or that it does).
int half_vnni() {
  coheriq::EngineSpec e;
  e.domain = std::string(coheriq::kernels::domain_name);
  e.name = "probe_half_vnni";
  e.description = "selection probe: a layout change without the GEMM that reads it";
  e.bases = {"avx512_vnni"};
  e.layouts = {{"gemm_u8s8s32 packed B", "probe_half_vnni: 64-column panels"}};
  e.overrides = &kHalfVnniTable;
  coheriq::register_engine(e);
  for (const coheriq::EngineInfo& info : coheriq::engines(coheriq::kernels::domain_name)) {
    if (info.name == e.name) {
      std::printf("probe_half_vnni: %s\n", info.error.empty() ? "composes" : info.error.c_str());
      return 0;
    }
  }
  std::printf("coheriq: selection probe: probe_half_vnni is not listed\n");
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "--register-half-vnni") == 0) return half_vnni();
  const bool expect_best = argc > 1 && std::strcmp(argv[1], "--expect-best-supported") == 0;
  std::string active;
  try {
    const std::uint8_t x[3] = {1, 2, 3};
    const std::int8_t y[3] = {4, -5, 6};
    if (coheriq::kernels::dot_u8s8(3, x, y) != 12) {
      std::printf("coheriq: selection probe: dot_u8s8 gave a wrong result\n");
      return 1;
    }
    active = coheriq::kernels::active_engine();
  } catch (const coheriq::Error& e) {
    std::printf("refused: %s\n", e.what());
    return 0;
  }
  std::printf("active: %s\n", active.c_str());
  if (!expect_best) return 0;
  // engines() lists the engines highest priority first.
  for (const coheriq::EngineInfo& info : coheriq::engines(coheriq::kernels::domain_name)) {
    if (info.error.empty() && info.missing_features.empty() && info.missing_host.empty()) {
      if (info.name == active) return 0;
      std::printf("coheriq: selection probe: auto chose %s, but the best supported engine is %s\n",
                  active.c_str(), info.name.c_str());
      return 1;
    }
  }
  std::printf("coheriq: selection probe: no supported engine listed\n");
  return 1;
}
