// The avx2 engine's descriptor: baseline code, compiled without ISA flags.
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
  e.layouts = {{"PackedMatrix<float>", "avx2"}, {"PackedMatrix<double>", "avx2"}};
  e.overrides = &overrides;
  return e;
}

}  // namespace coheriq::kernels::avx2
