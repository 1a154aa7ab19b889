// The avx2 engine's GEMM tuning (see engines/generic/gemm-tuning.hpp): 16 ymm registers hold a
// 6 x 2-vector tile of C, the two B vectors and one broadcast of A. KC: the A micro-panel takes
// two thirds of a 32 KiB L1; MC, NC: half and a quarter of a 512 KiB L2 (AVX2 parts have 256 KiB
// to 1 MiB and more).
#pragma once

#include "engines/generic/gemm-tuning.hpp"

namespace coheriq::kernels::avx2 {

template <class T>
constexpr GemmTuning kGemm = {};
template <>
inline constexpr GemmTuning kGemm<float> = {.mr = 6, .nr = 16, .kc = 384, .mc = 168, .nc = 80};
template <>
inline constexpr GemmTuning kGemm<double> = {.mr = 6, .nr = 8, .kc = 384, .mc = 84, .nc = 40};

}  // namespace coheriq::kernels::avx2
