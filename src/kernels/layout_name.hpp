// The name of a PackedMatrix layout produced by the generic GEMM packing with a given blocking, as
// an engine's descriptor states it (baseline code).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "kernels/tuning.hpp"

namespace coheriq::kernels {

// "avx2: 16-column panels, even k-blocks of at most 384, 64-byte aligned"; for a scalable blocking
// the panel width and the vector length the process runs at (scalable_vector_bits):
// "sve (512-bit vectors): 32-column panels, even k-blocks of at most 256, 64-byte aligned".
std::string gemm_layout_name(std::string_view engine, const GemmTuning& blocking);

// The SVE vector length the kernels of this process run at, in bits (0 without SVE): the largest
// power of two of the length the process has (the host's), as Highway uses it.
std::size_t scalable_vector_bits();

}  // namespace coheriq::kernels
