// The avx512 engine's descriptor: baseline code, compiled without ISA flags.
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
  e.layouts = {{"PackedMatrix<float>", "avx512"}, {"PackedMatrix<double>", "avx512"}};
  e.overrides = &overrides;
  return e;
}

}  // namespace coheriq::kernels::avx512
