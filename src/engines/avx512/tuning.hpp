// The avx512 engine's GEMM tuning (see engines/generic/gemm-tuning.hpp). 32 zmm registers hold
// the tile of C, the two B vectors and one broadcast of A: f32 14 x 2 vectors (28 accumulators),
// f64 10 x 2 (20). KC: f32 512 deep, an A micro-panel of 28 KiB, 60% of Zen 5's 48 KiB L1d
// (measured against 384: sgemm at n = 1024 from 88% to 92-94% of the zmm FMA peak, n = 2048 from
// 92% to 93-94%); f64 384 deep, a 30 KiB micro-panel (a 14-row f64 tile limited the k-block to
// 192-256, and dgemm ran 2-3 points of the peak lower: docs/performance.md). MC, NC: the packed A
// block (f32 336 x 512, 672 KiB; f64 240 x 384, 720 KiB) and the B columns used against it, for
// a 1 MiB L2.
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
