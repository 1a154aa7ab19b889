// The neon engine's tuning record (kernels/tuning.hpp). GEMM: 32 128-bit registers hold an 8 x
// 3-vector tile of C for f32 (24 accumulators, the three B vectors and one broadcast of A: 28 of
// 32) and a 6 x 4-vector tile for f64 (NR must be a multiple of 4, the packing's k group:
// 6 x 4 + 4 + 1 = 29). KC: the B micro-panel (KC x NR) takes 12 KiB (f32) or 16 KiB (f64) of a
// 32 KiB (Cortex-A72) to 64 KiB (Neoverse V1, A64FX) L1; MC, NC: the A block (MC x KC) takes
// 128 KiB of a 512 KiB to 1 MiB L2. Everything else: the defaults. Not measured on ARM hardware
// yet: the first numbers to revisit there (docs/performance.md).
#pragma once

#include "kernels/tuning.hpp"

namespace coheriq::kernels::neon {

constexpr Tuning kTuning = [] {
  Tuning t = kDefaultTuning;
  t.gemm.f32 = {.mr = 8, .nr = 12, .kc = 256, .mc = 128, .nc = 96};
  t.gemm.f64 = {.mr = 6, .nr = 8, .kc = 256, .mc = 60, .nc = 48};
  return t;
}();

}  // namespace coheriq::kernels::neon
