// The avx2 engine's tuning record (kernels/tuning.hpp). GEMM: 16 ymm registers hold a 6 x 2-vector
// tile of C, the two B vectors and one broadcast of A. KC: the A micro-panel takes two thirds of a
// 32 KiB L1; MC, NC: half and a quarter of a 512 KiB L2 (AVX2 parts have 256 KiB to 1 MiB and
// more). A batch of small products prefetches the next product only when its C is 8 column tiles
// wide or more: on a Zen 3 guest (AMD EPYC, 32 MiB L3, batches of 64 MB), 256 x 8 x 8 ran 1.45x
// (f64) to 2.0x (f32) faster with the prefetch and f64 order 64 1.2x, where narrower products
// ran level or up to 19% slower (f64 12, 32, 48; f32 24 and 48) and 1 x 64 x 64 either side
// (0.65-1.16 of the time without; docs/performance.md). A small product's equal bands of rows run
// in one call (small_bands_call): a tile of 16 registers holds 4 to 12 rows, so C of three vectors
// takes bands of 4 (f32 order 24: six), each a call with its set-up and its tests of alpha and
// beta. On the same guest, batches held in L2, LIBXSMM's time over ours (medians of five runs in
// one process each): with the three-vector tiles (gemm-inl.h, kGemmSmallWidestVecs) and a call
// per band f32 order 24 0.64 -> 0.76, f64 12 0.57 -> 0.65; with one call for the bands 0.86-0.92
// and 0.71-0.84 (three sets of runs); products of two bands (f64 8, f32 12) level. The same call
// also runs a strided batch's products one after the other (in one k-block, nothing read ahead):
// f64 8 0.70 -> 0.86, f32 12 0.71 -> 0.78, f64 12 0.82 -> 0.89, f32 20 0.93 -> 0.98 in L2
// (medians of five), and in batches of 64 MiB f64 8 0.73-0.90 -> 0.95-0.99, f32 12 0.65-0.82 ->
// 0.85-0.95; so does a strided batch of products of one tile of one vector (the narrow plans'
// repeating tile): f64 4 0.77 -> 1.07, f64 3 0.54 -> 0.73, f32 7 1.21 -> 1.33, f32 6 0.76 -> 0.84
// (f32 8 level). A small tile's last vector is half a vector where its columns fit there
// (small_half_tail), as on avx512's record but for another reason: the tail's masked stores of C
// (vmaskmov to memory, slow on AMD: about a third of the tile's samples in `perf` at f32 order
// 12), which half a vector the columns fill needs none of, and which cost less on 128 bits where
// one remains (f32 9). On the same guest, in L2, medians of five: f32 12 0.77 -> 1.19, f32 20 0.98
// -> 1.23, f32 28 0.90 -> 1.04, f32 9 0.55 -> 0.71, f64 6 0.75 -> 1.11, f64 10 0.72 -> 0.83, f64 5
// 0.71 -> 0.82, f64 9 0.81 -> 0.91; rows of whole vectors level. Everything else: the defaults.
#pragma once

#include "kernels/tuning.hpp"

namespace coheriq::kernels::avx2 {

constexpr Tuning kTuning = [] {
  Tuning t = kDefaultTuning;
  t.gemm.f32 = {.mr = 6, .nr = 16, .kc = 384, .mc = 168, .nc = 80};
  t.gemm.f64 = {.mr = 6, .nr = 8, .kc = 384, .mc = 84, .nc = 40};
  t.gemm.f32.small_bands_call = t.gemm.f64.small_bands_call = true;
  t.gemm.f32.small_half_tail = t.gemm.f64.small_half_tail = true;
  t.gemm_u8s8 = {.mr = 6, .kc = 512, .mc = 96};
  t.small_batch.prefetch_column_tiles = 8;
  return t;
}();

}  // namespace coheriq::kernels::avx2
