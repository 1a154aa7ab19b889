// The zen5 engine's tuning record (kernels/tuning.hpp): avx512's, with GEMM cache blocks for Zen
// 5's 48 KiB L1d and 1 MiB L2 per core (avx512's register tiles). KC: the A micro-panel (MR x KC)
// takes about two thirds of the L1d (f32 32 KiB, f64 34 KiB); MC: the packed A block (MC x KC) a
// half to two thirds of the L2; NC: the B columns used against it a quarter to three eighths.
// unpacked_bytes: avx512's (half the L2), carried over since each blocking is set whole; not
// small_half_tail, which is for Zen 4's 512-bit operations in two halves (Zen 5's units are 512
// bits wide). The batch of small products: the defaults, measured on Zen 5 (avx512's touch
// threshold is Zen 4's).
#pragma once

#include "engines/avx512/tuning.hpp"

namespace coheriq::kernels::zen5 {

constexpr Tuning kTuning = [] {
  Tuning t = avx512::kTuning;
  const GemmTuning f32 = t.gemm.f32, f64 = t.gemm.f64;  // avx512's
  t.gemm.f32 = {
      .mr = 14, .nr = 32, .kc = 576, .mc = 224, .nc = 128, .unpacked_bytes = f32.unpacked_bytes};
  t.gemm.f64 = {
      .mr = 10, .nr = 16, .kc = 432, .mc = 200, .nc = 112, .unpacked_bytes = f64.unpacked_bytes};
  t.small_batch = kDefaultTuning.small_batch;
  return t;
}();

}  // namespace coheriq::kernels::zen5
