// The avx512 engine's GEMM tuning (see engines/generic/gemm-tuning.hpp): 32 zmm registers hold a
// 14 x 2-vector tile of C, the two B vectors and one broadcast of A. KC: f32 512 deep, an A
// micro-panel of 28 KiB, 60% of Zen 5's 48 KiB L1d (measured against 384: sgemm at n = 1024 from
// 88% to 92-94% of the zmm FMA peak, n = 2048 from 92% to 93-94%); f64 192 deep, 21 KiB (256
// measured 3% slower). MC, NC: half and a quarter of a 1 MiB L2.
#pragma once

#include "engines/generic/gemm-tuning.hpp"

namespace coheriq::kernels::avx512 {

template <class T>
constexpr GemmTuning kGemm = {};
template <>
inline constexpr GemmTuning kGemm<float> = {.mr = 14, .nr = 32, .kc = 512, .mc = 336, .nc = 160};
template <>
inline constexpr GemmTuning kGemm<double> = {.mr = 10, .nr = 16, .kc = 384, .mc = 240, .nc = 160};

}  // namespace coheriq::kernels::avx512
