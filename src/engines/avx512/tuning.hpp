// The avx512 engine's GEMM tuning (see engines/generic/gemm-tuning.hpp): 32 zmm registers hold a
// 14 x 2-vector tile of C, the two B vectors and one broadcast of A. KC: the A micro-panel takes
// two thirds of a 32 KiB L1 (at most 384 deep; half of L1 measured 1-2% slower on Zen 5); MC, NC:
// half and a quarter of a 1 MiB L2.
#pragma once

#include "engines/generic/gemm-tuning.hpp"

namespace coheriq::kernels::avx512 {

template <class T>
constexpr GemmTuning kGemm = {};
template <>
inline constexpr GemmTuning kGemm<float> = {.mr = 14, .nr = 32, .kc = 384, .mc = 336, .nc = 160};
template <>
inline constexpr GemmTuning kGemm<double> = {.mr = 14, .nr = 16, .kc = 192, .mc = 336, .nc = 160};

}  // namespace coheriq::kernels::avx512
