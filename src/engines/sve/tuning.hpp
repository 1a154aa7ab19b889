// The sve engine's GEMM tuning (see engines/generic/gemm-tuning.hpp), vector-length agnostic:
// nr and nc are stated for 128-bit vectors and scale with the run-time length (scalable), so the
// tile is MR rows x 2 vectors at every length (8 x 8 f32 at 128 bits, 8 x 128 at 2048). Two
// vectors of B, 16 accumulators and one broadcast of A take 19 of the 32 z registers, the same
// at every length; a wider NR would stop the transposed-B packing's groups of 4 columns from
// tiling a panel of 3 f64 vectors at 128 bits (6 columns). MR 8: 8 broadcasts per 16 FMAs.
// KC: the B micro-panel (KC x NR) takes 8 KiB per 128 bits of vector (64 KiB at 1024 bits, the
// A64FX L1d at 512 bits holds its 32 KiB). Not measured on SVE hardware: the first numbers to
// revisit there (docs/performance.md).
#pragma once

#include "engines/generic/gemm-tuning.hpp"

namespace coheriq::kernels::sve {

template <class T>
constexpr GemmTuning kGemm = {};
template <>
inline constexpr GemmTuning kGemm<float> = {
    .mr = 8, .nr = 8, .kc = 256, .mc = 128, .nc = 96, .scalable = true};
template <>
inline constexpr GemmTuning kGemm<double> = {
    .mr = 8, .nr = 4, .kc = 256, .mc = 64, .nc = 48, .scalable = true};

}  // namespace coheriq::kernels::sve
