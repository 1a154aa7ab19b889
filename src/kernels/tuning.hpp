// Tuning as data: the figures an engine's kernels run with, in one record per engine.
//
// Each engine that compiles generic kernels states its record once, in
// src/engines/<engine>/tuning.hpp, as `constexpr Tuning kTuning` in its namespace: the
// record it refines (its base's, or kDefaultTuning) with the fields it sets changed. A field it
// does not set is inherited, so a field added here (with its default) reaches every engine
// without touching one. The generic kernels read their engine's record at compile time; the
// descriptor (baseline code) reads the GEMM blocking to name the engine's PackedMatrix layouts
// (kernels/layout_name.hpp), so a block size is never written twice and a change of tuning is a
// change of layout that the coherence rule sees; and it hands the record to the baseline code
// that decides around the kernels of the engine in effect (the GEMM driver's threads,
// kernels/tuning_in_effect.hpp).
//
// Plain constants, no code: safe to include from baseline and ISA translation units alike. Why
// each default is what it is, and what was measured: docs/performance.md and docs/decisions.md.
#pragma once

#include <cstddef>

namespace coheriq::kernels {

// One value per element type of the f32/f64 kernels.
template <class V>
struct PerType {
  V f32{};
  V f64{};

  template <class T>
  constexpr const V& of() const {
    if constexpr (sizeof(T) == sizeof(float)) {
      return f32;
    } else {
      return f64;
    }
  }
};

// The blocking of the generic GEMM (engines/generic/gemm-inl.h, BLIS's loops). Checked at compile
// time against the ISA's registers; 0 (the default) means the engine has no generic GEMM.
struct GemmTuning {
  std::size_t mr = 0;  // register tile rows (C rows per microkernel call)
  std::size_t nr = 0;  // register tile columns: a whole number of vectors; the packed B panel width
  std::size_t kc = 0;  // k block, at most (a multiple of 16): the packed B k-block depth
  std::size_t mc = 0;  // row block (a multiple of mr): the packed A block, sized for L2
  std::size_t nc = 0;  // column block (a multiple of nr): the part of a B k-block used per A block
  // Scalable vectors (SVE): nr and nc are stated for 128-bit vectors, and the GEMM runs with
  // nr * VL / 128 columns (the same number of vectors) at the run-time length VL, its column
  // block the largest multiple of that within max(nc, NR). The layout name carries VL.
  bool scalable = false;
  // Products of at most small³ multiply-adds (m·n·k) run unpacked: a microkernel reads op(A) and
  // B where they are, with no workspace (gemm-inl.h, "Small products"). Below it, packing costs
  // more than it saves. The same bits either way: the choice is speed only.
  std::size_t small = 64;
  // Larger products with op(B) as stored run unpacked too while op(A)'s and op(B)'s k-blocks
  // (m and n values by at most kc) take at most this many bytes together (0: never). That path
  // reads op(A) again for every column tile and op(B)'s tile again for every band of rows, from
  // L2 when both fit there, which costs less than packing them. A transposed B stays packed (the
  // unpacked path copies its columns one by one), and so does a B whose rows are a multiple of 4
  // KiB apart (they share L1 sets: gemm-inl.h, GemmRunsUnpacked).
  std::size_t unpacked_bytes = 0;
  // A small product's tile (gemm-inl.h, GemmSmallTile) whose last vector holds at most half a
  // vector of columns computes it on half a vector (vectors of 256 bits and more): on a host whose
  // widest operations run as two halves in turn, that costs half; with AVX2, columns that fill the
  // half are read and written whole, not by vmaskmov, whose stores are slow on AMD's Zen 3 (the
  // records say what they measured). The same bits.
  bool small_half_tail = false;
  // A small product of one column of tiles whose rows divide into equal bands (m = bands·q, C's
  // row in one tile) runs every band in one call, where each band was a call of its own, with its
  // set-up and its tests of alpha and beta (gemm-inl.h, GemmSmallBands), and a strided batch of
  // such products, or of products of one tile of one vector (GemmSmallTiles, as a narrow plan's),
  // in one call when each fits one k-block and nothing is read ahead. The same bits.
  bool small_bands_call = false;
};

// The blocking of the generic integer GEMM (gemm_u8s8s32, engines/generic/reduced-inl.h): k in
// pairs of 16-bit lanes multiplied and added into 32-bit lanes (pmaddwd on x86), an mr x (two
// vectors) register tile of C, the float GEMM's loops. Checked at compile time against the ISA's
// registers (targets other than x86 keep two accumulators per vector of C).
struct IntGemmTuning {
  std::size_t mr = 4;    // register tile rows, at most 12
  std::size_t kc = 512;  // k block, at most (even): packed B panel of kc/2 pair rows, for L1
  std::size_t mc = 96;   // row block (a multiple of mr): the packed A block, for L2
};
// The BLAS-1 kernels' switches between code paths (engines/generic/blas1-inl.h). Each depends on
// n only, so results stay bitwise reproducible.
struct Blas1Tuning {
  // dot: from this many bytes per operand on, the operands no longer sit in L1d and come from L2,
  // where fewer accumulator chains read faster (2 of 64-byte vectors, 4 of 32 bytes).
  std::size_t dot_from_l2_bytes = 32 * 1024;
  // asum: arrays of [min, max) bytes are summed with half-width loads (a host whose wide loads
  // from L2 are slower than two narrow ones). Empty by default: wide loads everywhere.
  std::size_t asum_half_width_min_bytes = 0;
  std::size_t asum_half_width_max_bytes = 0;
  // iamax: the block whose max is taken in one pass and rescanned for the index, small enough to
  // be re-read from L1d. Speed only: the index found does not depend on it.
  std::size_t iamax_block_bytes = 8192;
};

// How the GEMM driver (kernels/gemm_driver.cpp) runs a product on threads: when it cuts C, and
// into which blocks. Speed only: C is bitwise the same for every thread count and every cut. Read
// from the record of the engine that provides the product (kernels/tuning_in_effect.hpp).
struct GemmThreading {
  // Fewer multiply-adds (m·n·k) than this run on the calling thread: a second thread gains only
  // when one would take longer than twice a sleeping worker's start (docs/decisions.md, "Threads").
  PerType<double> min_parallel_work{192.0 * 192.0 * 192.0, 152.0 * 152.0 * 152.0};
  // Each thread's block is at least this many rows or columns: whole register tiles.
  std::size_t min_block = 32;
  // Column blocks start at multiples of this: a multiple of the engine's NR (x86: 32, 16, 8) keeps
  // its panels whole; any other costs an edge tile per block, never a different result.
  std::size_t column_grain = 32;
  // A tall or square product is cut by columns too once n >= this x (threads - 1): where packing
  // op(A) per block costs less than streaming B from L3 (docs/decisions.md, "Wide enough ...").
  std::size_t columns_per_extra_thread = 768;
};

// How gemv uses the pool (kernels/gemm_driver.cpp): y cut into blocks, each one call of the
// engine's gemv on its rows (Trans::N) or columns (Trans::T) of A.
struct GemvThreading {
  // A of fewer bytes runs on the calling thread: one core reads an A that its L2 and L3 hold at
  // 75-87 GB/s, and two threads lost there (waking a worker costs about 28 us); from 16 MiB, where
  // one core falls to 40-60 GB/s, two read at 64-88 (docs/decisions.md, "gemv on the pool").
  std::size_t min_parallel_bytes = std::size_t{16} << 20;
  // Each block is at least this many elements of y, and starts at a multiple of `grain` (the
  // generic gemv takes rows in fours; whole cache lines of y).
  std::size_t min_block = 64;
  std::size_t grain = 16;
};

// How a batch of small products (engines/generic/gemm-inl.h, GemmSmallBatch) asks for the next
// product's operands in L2 while one runs, tile by tile, and, streamed from memory, reads each
// product's lines before computing it (a batch of larger products too, where the record says so:
// GemmBatch). Speed only: the products and their bits are the same. The
// defaults were measured on a Zen 5 guest (docs/decisions.md, "A batch prefetches the next
// product" and "A streamed batch reads each product's lines first").
struct SmallBatchTuning {
  // Operands of more bytes than this stream from memory (the last-level cache holds less).
  std::size_t stream_bytes = std::size_t{32} << 20;
  // Products of at least this many multiply-adds (m·n·k) prefetch the next one: in a batch the
  // cache holds (below, the prefetch instructions cost more than the misses they save) and in a
  // streamed one. A product much deeper than it is wide never does (the hardware follows it).
  std::size_t prefetch_work = 16384;
  std::size_t streamed_prefetch_work = 1024;
  // ... and whose C is at least this many of the small path's column tiles (one to four vectors)
  // wide.
  std::size_t prefetch_column_tiles = 0;
  // A streamed batch's products of at least this many multiply-adds have their operands read, a
  // load per line, before they run (engines/generic/gemm-inl.h): those misses then overlap, where
  // the tiles' loads wait behind their multiply-adds. Never a product much deeper than it is wide.
  std::size_t streamed_touch_work = 4096;
  // ... and of at least this many bytes (A, B and C as stored): below it, the reads cost some
  // hosts more than they save (avx512's record: a Zen 4 host).
  std::size_t streamed_touch_bytes = 0;
  // ... and whether that includes a product whose rows of C fit one tile of two or more vectors
  // (C at most four vectors wide with 32 registers): such a product reads a whole row of B at
  // each step of k, the next row after it, one long run of lines that some hosts' prefetchers
  // follow faster than the reads before it (avx512's record: a Zen 4 host).
  bool streamed_touch_row_tiles = true;
  // Whether a streamed batch's products above the small path's size (one gemm call each) have
  // their lines read first too (not a product much deeper than it is wide): avx512's record
  // says why.
  bool streamed_touch_large = false;
};

// Everything an engine's record holds. Grouped by the code that reads it.
struct Tuning {
  PerType<GemmTuning> gemm;
  IntGemmTuning gemm_u8s8;
  GemmThreading gemm_threading;
  GemvThreading gemv_threading;
  // pack_b writes a packed matrix of more bytes than this around the caches (streaming stores):
  // about a quarter of the last-level cache, beyond which it would not stay there for the product.
  std::size_t pack_b_stream_bytes = std::size_t{8} << 20;
  SmallBatchTuning small_batch;
  Blas1Tuning blas1;
};

// The root of every record: what an engine inherits for a field no engine of its chain sets.
constexpr Tuning kDefaultTuning{};

}  // namespace coheriq::kernels
