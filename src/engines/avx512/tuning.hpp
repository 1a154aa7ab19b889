// The avx512 engine's tuning record (kernels/tuning.hpp): avx2's, with its own GEMM and asum,
// and the default prefetching of a batch of small products (avx2 keeps it to wide ones, for Zen 3).
// GEMM: 32 zmm registers hold the tile of C, the two B vectors and one broadcast of A: f32 14 x 2
// vectors (28 accumulators), f64 10 x 2 (20). KC: the A micro-panel (f32 28 KiB, f64 30 KiB)
// takes about 60% of a 48 KiB L1d; MC, NC: the packed A block (f32 336 x 512, 672 KiB; f64
// 240 x 384, 720 KiB) and the B columns used against it, for a 1 MiB L2; products whose k-blocks
// of op(A) and op(B) take at most 512 KiB together (half the L2: f32 to about 256³, f64 to 181³)
// run unpacked when op(B) is as stored, f32 256³ 1.09-1.10x and f64 181³ 1.16x faster than
// packed (a wider limit made products with n = 4096 0.84-0.86x as fast). asum: half-width loads
// for arrays that live in a 1 MiB L2 and not in L1d, which AVX-512 hosts with slow 64-byte loads
// from L2 read faster. The batch's prefetch: the defaults gained 1.1-1.6x from order 32 to 64.
// All three were measured on a Zen 5 host (docs/performance.md, "What the tuned
// figures rest on"), which zen5 serves now (it takes this record and keeps the batch defaults).
// The batch's touch, revisited on a Zen 4 host (double-pumped AVX-512, 32 KiB L1d), the first
// AVX-512 host of another family measured: a streamed product of less than 13 KiB lost to it
// (f32 order 24 and 32 and 23 x 29 x 31, f64 order 16: 1.17-1.53x faster without), one of 13.5
// KiB or more gained (f64 order 24 1.19-1.43x, f32 256 x 8 x 8 2.1-2.2x), so it starts at 13 KiB.
// Since the small path's tiles span up to four vectors, a product whose rows of C fit one tile
// reads each row of B whole, and on that host runs faster without the touch (LIBXSMM's time over
// ours in one run, with -> without: f64 order 24 0.57-0.58 -> 0.77-0.88, order 32 0.62-0.77 ->
// 0.96, 23 x 29 x 31 0.62-0.67 -> 0.95, f32 order 48 0.66-0.78 -> 0.85-0.95); wider products
// still gain from it (f64 order 48 and 64 1.04-1.23 against 0.88-1.02 without). On that host a
// 512-bit multiply-add is two 256-bit halves in turn, so a small tile whose last vector holds at
// most half a vector of columns computes it on half a vector (small_half_tail): f64 order 12,
// f32 24 and f32 23 x 29 x 31 1.20-1.27x faster in cache. An Intel host runs 256-bit operations
// at the 512-bit rate per instruction, so it should neither gain nor lose; not measured there.
// Larger products of a streamed batch (above small³ multiply-adds, one gemm call each) read
// first too (streamed_touch_large) ran f32 order 96 and 128 1.21-1.24x faster on that host, 256
// 1.06-1.11x, f64 128 1.12x, f64 200 x 192 x 192 (packed) level; not a deep one (f32 64 x 64 x 512
// lost 0.82-0.85x, as the small ones do). zen5 keeps the default (not measured on Zen 5).
#pragma once

#include "engines/avx2/tuning.hpp"

namespace coheriq::kernels::avx512 {

constexpr Tuning kTuning = [] {
  Tuning t = avx2::kTuning;
  t.gemm.f32 = {.mr = 14, .nr = 32, .kc = 512, .mc = 336, .nc = 160, .unpacked_bytes = 512 << 10};
  t.gemm.f64 = {.mr = 10, .nr = 16, .kc = 384, .mc = 240, .nc = 160, .unpacked_bytes = 512 << 10};
  t.gemm.f32.small_half_tail = t.gemm.f64.small_half_tail = true;
  t.blas1.asum_half_width_min_bytes = 128 * 1024;
  t.blas1.asum_half_width_max_bytes = 1024 * 1024;
  t.small_batch = kDefaultTuning.small_batch;
  t.small_batch.streamed_touch_bytes = std::size_t{13} << 10;
  t.small_batch.streamed_touch_row_tiles = false;
  t.small_batch.streamed_touch_large = true;
  return t;
}();

}  // namespace coheriq::kernels::avx512
