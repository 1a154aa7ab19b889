// The avx512 engine's descriptor: baseline code, compiled without ISA flags.
#include <cstddef>
#include <string>

#include "engines/avx512/gemm-layout.hpp"
#include "kernels/candidates.hpp"

namespace coheriq::kernels::avx512 {

extern const coheriq::OverrideTable overrides;  // kernels.cpp (AVX-512 flags)

coheriq::EngineSpec describe() {
  coheriq::EngineSpec e;
  e.domain = std::string(domain_name);
  e.name = "avx512";
  e.description = "AVX-512 (F, BW, DQ, VL) kernels on top of avx2 (Highway, 512-bit)";
  e.bases = {"avx2"};
  e.required_features = {"avx512f", "avx512bw", "avx512dq", "avx512vl"};
  e.priority = 300;
  // kernels.cpp checks that its GEMM packs what these names say.
  const auto gemm_layout = [](std::size_t columns, std::size_t k_block) {
    return "avx512: " + std::to_string(columns) + "-column panels, even k-blocks of at most " +
           std::to_string(k_block) + ", 64-byte aligned";
  };
  e.layouts = {{"PackedMatrix<float>", gemm_layout(kGemmPanelColumnsF32, kGemmKBlockF32)},
               {"PackedMatrix<double>", gemm_layout(kGemmPanelColumnsF64, kGemmKBlockF64)}};
  e.overrides = &overrides;
  return e;
}

}  // namespace coheriq::kernels::avx512
