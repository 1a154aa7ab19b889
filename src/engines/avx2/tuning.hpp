// The avx2 engine's tuning record (kernels/tuning.hpp). GEMM: 16 ymm registers hold a 6 x 2-vector
// tile of C, the two B vectors and one broadcast of A. KC: the A micro-panel takes two thirds of a
// 32 KiB L1; MC, NC: half and a quarter of a 512 KiB L2 (AVX2 parts have 256 KiB to 1 MiB and
// more). Everything else: the defaults.
#pragma once

#include "kernels/tuning.hpp"

namespace coheriq::kernels::avx2 {

constexpr Tuning kTuning = [] {
  Tuning t = kDefaultTuning;
  t.gemm.f32 = {.mr = 6, .nr = 16, .kc = 384, .mc = 168, .nc = 80};
  t.gemm.f64 = {.mr = 6, .nr = 8, .kc = 384, .mc = 84, .nc = 40};
  t.gemm_u8s8 = {.mr = 6, .kc = 512, .mc = 96};
  return t;
}();

}  // namespace coheriq::kernels::avx2
