// The name of a PackedMatrix layout produced by the generic GEMM packing with a given tuning, as
// an engine's descriptor states it (baseline code).
#pragma once

#include <string>
#include <string_view>

#include "engines/generic/gemm-tuning.hpp"

namespace coheriq::kernels {

// "avx2: 16-column panels, even k-blocks of at most 384, 64-byte aligned"
std::string gemm_layout_name(std::string_view engine, const GemmTuning& tuning);

}  // namespace coheriq::kernels
