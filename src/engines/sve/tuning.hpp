// The sve engine's tuning record (kernels/tuning.hpp): neon's, with a vector-length agnostic GEMM.
// Every generic kernel is compiled for Highway's SVE target and reads the lane count at run time,
// so one binary is correct at every SVE length from 128 to 2048 bits (tests/emulation runs it at
// 128, 256, 512 and 2048).
//
// GEMM: nr and nc are stated for 128-bit vectors and scale with the run-time length (scalable),
// so the tile is MR rows x 2 vectors at every length (8 x 8 f32 at 128 bits, 8 x 128 at 2048), and
// pack_b's panels are as wide: the descriptor names each PackedMatrix layout with the vector length
// the process runs at (kernels/layout_name.cpp). Two vectors of B, 16 accumulators and one
// broadcast of A take 19 of the 32 z registers at every length; a wider NR would stop the
// transposed-B packing's groups of 4 columns from tiling a panel of 3 f64 vectors at 128 bits (6
// columns). MR 8: 8 broadcasts per 16 FMAs. KC: the B micro-panel (KC x NR) takes 8 KiB per 128
// bits of vector (64 KiB at 1024 bits; the A64FX L1d at 512 bits holds its 32 KiB). Not measured
// on SVE hardware: the first numbers to revisit there (docs/performance.md).
#pragma once

#include "engines/neon/tuning.hpp"

namespace coheriq::kernels::sve {

constexpr Tuning kTuning = [] {
  Tuning t = neon::kTuning;
  t.gemm.f32 = {.mr = 8, .nr = 8, .kc = 256, .mc = 128, .nc = 96, .scalable = true};
  t.gemm.f64 = {.mr = 8, .nr = 4, .kc = 256, .mc = 64, .nc = 48, .scalable = true};
  return t;
}();

}  // namespace coheriq::kernels::sve
