// The avx2 engine's descriptor: baseline code, compiled without ISA flags.
#include <cstddef>
#include <string>

#include "engines/avx2/gemm-layout.hpp"
#include "kernels/candidates.hpp"

namespace coheriq::kernels::avx2 {

extern const coheriq::OverrideTable overrides;  // kernels.cpp (AVX2 flags)

coheriq::EngineSpec describe() {
  coheriq::EngineSpec e;
  e.domain = std::string(domain_name);
  e.name = "avx2";
  e.description = "AVX2+FMA kernels (Highway, 256-bit)";
  e.bases = {"reference"};
  e.required_features = {"avx", "avx2", "fma3", "bmi1", "bmi2", "f16c", "pclmulqdq", "aes"};
  e.priority = 200;
  // kernels.cpp checks that its GEMM packs what these names say.
  const auto gemm_layout = [](std::size_t columns, std::size_t k_block) {
    return "avx2: " + std::to_string(columns) + "-column panels, even k-blocks of at most " +
           std::to_string(k_block) + ", 64-byte aligned";
  };
  e.layouts = {{"PackedMatrix<float>", gemm_layout(kGemmPanelColumnsF32, kGemmKBlockF32)},
               {"PackedMatrix<double>", gemm_layout(kGemmPanelColumnsF64, kGemmKBlockF64)}};
  e.overrides = &overrides;
  return e;
}

}  // namespace coheriq::kernels::avx2
