// The zen5 engine's GEMM tuning (see engines/generic/gemm-tuning.hpp): avx512's register tiles
// (f32 14 x 2 vectors, f64 10 x 2) with cache blocks sized for Zen 5's 48 KiB L1d and 1 MiB L2
// per core. KC: the A micro-panel (MR x KC) takes about two thirds of the L1d (f32 32 KiB, f64
// 34 KiB); MC: the packed A block (MC x KC) a half to two thirds of the L2; NC: the B columns
// used against it a quarter to three eighths.
#pragma once

#include "engines/generic/gemm-tuning.hpp"

namespace coheriq::kernels::zen5 {

template <class T>
constexpr GemmTuning kGemm = {};
template <>
inline constexpr GemmTuning kGemm<float> = {.mr = 14, .nr = 32, .kc = 576, .mc = 224, .nc = 128};
template <>
inline constexpr GemmTuning kGemm<double> = {.mr = 10, .nr = 16, .kc = 432, .mc = 200, .nc = 112};

}  // namespace coheriq::kernels::zen5
