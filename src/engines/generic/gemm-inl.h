// Generic GEMM and packed GEMM, written once with Highway (BLIS/GotoBLAS structure).
//
// Compiled once per engine, inside its kernels TU (through engines/generic/engine-table.h), in the
// engine's own namespace with internal linkage. It calls nothing in std::, never allocates and
// never throws (ISA hygiene, docs/engine-guide.md).
//
// Fixed-width and scalable (SVE) targets share everything but the microkernel: the loops,
// k-blocking and packing read the lane count and NR through GemmShape (constants on a fixed-width
// target, so its code is what it was; read at run time on a scalable one, where NR is a whole
// number of vectors of the hardware's length and pack_b's panels follow it). The scalable
// microkernel names its accumulators one by one: SVE vectors are sizeless types, which cannot
// be array elements.
//
// Row-major C (m x n) = alpha * op(A) (m x k) * op(B) (k x n) + beta * C.
//
// The register tile is MR rows x NR columns of C, NR = two full vectors. Per step of k the
// microkernel loads one row of NR values of op(B) as vectors, broadcasts MR values of op(A) and
// issues 2 * MR FMAs into register accumulators. MR is what the register file holds after the B
// vectors and one broadcast: 6 x 16 f32 with 16 ymm (avx2), 14 x 32 f32 with 32 zmm (avx512).
// The same code gives each engine the shape that fits its registers, and the blocking that
// follows from it (GemmShape).
//
// Loops, outermost first (the BLIS order, with the roles of A and B swapped because C is row-major
// here and the vectors run along its rows):
//   pc: k in blocks of at most KC. op(B) (kc x n) is packed into NR-column panels, k-major: the
//       B k-block.
//   ic: rows in blocks of MC. op(A) (mc x kc) is packed into MR-row micro-panels (the A block, L2).
//   jc: columns in blocks of NC: the part of the B k-block used against the A block (L2).
//   ir: one A micro-panel (MR x kc, L1) is reused against every B panel of the column block.
//   jr: microkernel.
// pack_b's layout is the sequence of the B k-blocks for the whole matrix, so gemm_packed runs the
// same loops without packing B (and gives the same bits: the k-blocks depend on k alone). gemmt
// runs them on C's triangle, skipping the tiles off it (GemmTriangleTile); symm_packed and
// trmm_packed run them with a symmetric or triangular operand packed from its stored triangle;
// pack_b_1m packs a complex op(B)'s 1m expansion in pack_b's layout (the complex GEMM's operand,
// src/kernels/complex_gemm.hpp), which gemm_1m and gemmt_1m multiply by, packing the complex
// A as reals.
// gemm_packed has no workspace: it packs A one micro-panel at a time into a buffer on the stack
// (MC = MR), which streams the B k-block once per MR rows; the 9 bytes per cycle that takes (128
// bytes per 14 cycles with zmm) are within what L3 delivers (MC rows of A in a workspace measured
// no faster: docs/performance.md, "What the tuned figures rest on").

#ifndef COHERIQ_ENGINES_GENERIC_GEMM_INL_H_
#define COHERIQ_ENGINES_GENERIC_GEMM_INL_H_

#include <cstddef>
#include <type_traits>  // std::true_type: a compile-time flag, no code

#include "engines/generic/masked-inl.h"
#include "engines/generic/namespace.h"  // kTuning.gemm: the engine's MR, NR, KC, MC, NC
#include "hwy/cache_control.h"          // FlushStream, after the non-temporal stores of pack_b
#include "kernels/candidates.hpp"
#include "kernels/prefetch.hpp"  // prefetch_line, prefetch_rows, touch_rows: packing, batches
#include "kernels/reproducible.hpp"

COHERIQ_GENERIC_BEGIN

// ------------------------------ Shape and blocking

constexpr std::size_t GemmMin(std::size_t a, std::size_t b) { return a < b ? a : b; }
constexpr std::size_t GemmRoundUp(std::size_t x, std::size_t to) { return (x + to - 1) / to * to; }

template <class T>
struct GemmShape {
  using D = hn::ScalableTag<T>;
  // The lanes of a vector: on a scalable target, the most the target allows (for buffers sized
  // at compile time; Lanes() is the run-time count).
  static constexpr std::size_t kLanes = HWY_LANES(T);
  static constexpr bool kScalable = HWY_HAVE_SCALABLE != 0;
  static constexpr GemmTuning kBlocking = kTuning.gemm.of<T>();  // the engine's tuning.hpp
  static_assert(kBlocking.mr != 0,
                "tuning: the engine's record sets no GEMM blocking; set gemm in its tuning.hpp, or "
                "refine a record that has one");
  static_assert(kBlocking.scalable == kScalable,
                "tuning: set scalable = true exactly for an engine of a scalable target (SVE)");
  // A scalable tuning states nr and nc for 128-bit vectors.
  static constexpr std::size_t kTuningLanes = kScalable ? 16 / sizeof(T) : kLanes;
  static constexpr std::size_t kMR = kBlocking.mr;
  static constexpr std::size_t kNR = kBlocking.nr;  // fixed-width targets (else NR())
  static constexpr std::size_t kKC = kBlocking.kc;
  static constexpr std::size_t kMC = kBlocking.mc;
  static constexpr std::size_t kNC = kBlocking.nc;  // fixed-width targets (else NC())
  static constexpr std::size_t kNRVectors = kNR / kTuningLanes;
  // Packed A runs k in groups of 4 (see GemmPackA); the microkernel unrolls k by as much.
  static constexpr std::size_t kKGroup = 4;

  // The run-time lanes, tile width and column block: constants on a fixed-width target.
  static HWY_INLINE std::size_t Lanes() { return hn::Lanes(D()); }
  static HWY_INLINE std::size_t NR() {
    if constexpr (kScalable) {
      return kNRVectors * Lanes();
    } else {
      return kNR;
    }
  }
  static HWY_INLINE std::size_t NC() {
    if constexpr (kScalable) {
      const std::size_t nr = NR();
      return nr >= kNC ? nr : kNC / nr * nr;
    } else {
      return kNC;
    }
  }

  static_assert(kNR % kTuningLanes == 0 && kNRVectors >= 1, "tuning: NR must be whole vectors");
  // Packing a transposed B writes kKGroup columns at a time (GemmPackB): a panel narrower than a
  // whole number of groups would be overrun (found with neon's 2-lane f64 and NR = 6).
  static_assert(kNR % kKGroup == 0, "tuning: NR must be a multiple of 4 (the k group)");
  // Accumulators + the B vectors + one broadcast of A, in the ISA record's registers.
  static_assert(kMR * kNRVectors + kNRVectors + 1 <= kEngine.vector_registers,
                "tuning: the MR x NR register tile does not fit the ISA's vector registers");
  static_assert(kKC >= 16 && kKC % 16 == 0, "tuning: KC must be a positive multiple of 16");
  static_assert(kMC >= kMR && kMC % kMR == 0, "tuning: MC must be a positive multiple of MR");
  static_assert(kNC >= kNR && kNC % kNR == 0, "tuning: NC must be a positive multiple of NR");
  // Every packed B row starts a multiple of NR values into a 64-byte aligned buffer, so the
  // microkernel may use aligned loads as long as a vector is at most 64 bytes (SVE loads need no
  // alignment).
  static_assert(kScalable || kLanes * sizeof(T) <= 64, "packed B rows must be vector-aligned");
};

// The KC the k-blocks are cut by: the engine's, or in the reproducible mode (kReproducible) the
// domain's (kernels/reproducible.hpp), which is at most every engine's, so that the packed panels
// and stack buffers sized by the engine's KC hold the mode's blocks too. Every GEMM path takes
// kReproducible down to here, the one place the two modes differ.
template <class T, bool kReproducible>
inline constexpr std::size_t kGemmKC =
    kReproducible ? ::coheriq::kernels::canonical::kGemmKc : GemmShape<T>::kKC;

// Depth of the k-blocks for a product of depth k: the fewest blocks of at most KC, made equal (up
// to a multiple of 16), so that no short last block costs a whole pass over C for little work.
template <class T, bool kReproducible = false>
constexpr std::size_t GemmKBlock(std::size_t k) {
  constexpr std::size_t kKC = kGemmKC<T, kReproducible>;
  static_assert(::coheriq::kernels::canonical::kGemmKc <= GemmShape<T>::kKC,
                "tuning: KC below the reproducible mode's k-block (kernels/reproducible.hpp)");
  const std::size_t blocks = k == 0 ? 1 : (k + kKC - 1) / kKC;
  return GemmRoundUp((k + blocks - 1) / blocks, 16);
}

// ------------------------------ Packing

// The packing reads the operands as T, or as a narrower element type S that it widens to T (the
// bf16 GEMM: bf16 operands packed as float, reduced-inl.h; each product of two bf16 is exact in
// float). A widened operand is read untransposed only (gemm_bf16 has no transposes).
template <class T, class S>
HWY_INLINE T GemmWiden(S v) {
  return static_cast<T>(v);
}
// One vector of D from lanes(d) elements of S at p.
template <class D, class S>
HWY_INLINE hn::VFromD<D> GemmLoadWidened(D d, const S* HWY_RESTRICT p) {
  using T = hn::TFromD<D>;
  if constexpr (std::is_same_v<S, T>) {
    return hn::LoadU(d, p);
  } else {
    static_assert(sizeof(S) == 2 && sizeof(T) == 4, "widening packs bf16 into float only");
    const hn::Rebind<hwy::bfloat16_t, D> dn;
    return hn::PromoteTo(d, hn::LoadU(dn, reinterpret_cast<const hwy::bfloat16_t*>(p)));
  }
}

// Packs rows [i0, i0 + mc) x columns [p0, p0 + kc) of op(A) into MR-row micro-panels of
// MR * round_up(kc, 4) values. Inside a micro-panel k runs in groups of 4: group g holds, row
// after row, the 4 values (i, 4g .. 4g + 3). Op(A) = A (the usual case) then packs by plain
// 4-element copies from the rows of A, with no transposition. Rows past m and the unused tail
// of the last group are zero, so the microkernel always runs a full MR x NR tile.
template <class T, class S>
HWY_INLINE void GemmPackA(Trans ta, const S* HWY_RESTRICT A, std::size_t lda, std::size_t i0,
                          std::size_t mc, std::size_t p0, std::size_t kc, T* HWY_RESTRICT dst) {
  using Shape = GemmShape<T>;
  constexpr std::size_t kMR = Shape::kMR;
  constexpr std::size_t kG = Shape::kKGroup;
  const typename Shape::D d;
  const std::size_t lanes = Shape::Lanes();
  const std::size_t kc_full = kc / kG * kG;
  const std::size_t panel_size = kMR * GemmRoundUp(kc, kG);
  if (ta == Trans::N) {
    for (std::size_t r = 0; r < mc; r += kMR, dst += panel_size) {
      const std::size_t rows = GemmMin(kMR, mc - r);
      // One group after the other, so that the writes are sequential and the MR rows of A are
      // read as MR parallel streams.
      const S* HWY_RESTRICT src = A + (i0 + r) * lda + p0;
      T* HWY_RESTRICT out = dst;
      std::size_t p = 0;
      for (; p < kc_full; p += kG, out += kMR * kG) {
        for (std::size_t i = 0; i < rows; ++i) {
          if constexpr (std::is_same_v<S, T>) {
            __builtin_memcpy(out + i * kG, src + i * lda + p, sizeof(T) * kG);
          } else {
            for (std::size_t e = 0; e < kG; ++e) {
              out[i * kG + e] = GemmWiden<T>(src[i * lda + p + e]);
            }
          }
        }
        for (std::size_t e = rows * kG; e < kMR * kG; ++e) out[e] = T(0);
      }
      if (p < kc) {
        for (std::size_t i = 0; i < kMR; ++i) {
          for (std::size_t e = 0; e < kG; ++e) {
            out[i * kG + e] = i < rows && p + e < kc ? GemmWiden<T>(src[i * lda + p + e]) : T(0);
          }
        }
      }
    }
  } else if constexpr (std::is_same_v<S, T>) {  // a widened operand is never transposed
    // op(A) column p is a row of A: four rows of A, MR values each, interleaved into one group.
    // Every panel takes its group from the same four rows before the next four are read, so each
    // line of A is read once: panel after panel read all kc rows once per panel, and rows a
    // power of two of bytes apart (lda = 2048 doubles) fall in so few sets of L1 and L2 that
    // they came from L3 each time (dsyrk L,N n = 64, k = 1024 from a matrix of order 2048).
    HWY_ALIGN T group[kG * Shape::kLanes];
    const bool far = rows_far_apart<T>(lda);
    for (std::size_t p = 0; p < kc; p += kG) {
      if (far && p + kRowsAhead < kc) {
        prefetch_rows(A + (p0 + p + kRowsAhead) * lda + i0, GemmMin(kG, kc - p - kRowsAhead), mc,
                      lda);
      }
      for (std::size_t r = 0; r < mc; r += kMR) {
        const std::size_t rows = GemmMin(kMR, mc - r);
        T* HWY_RESTRICT out = dst + (r / kMR) * panel_size + p * kMR;
        for (std::size_t c = 0; c < kMR; c += lanes) {
          const std::size_t valid = rows > c ? GemmMin(lanes, rows - c) : 0;
          const auto mask = hn::FirstN(d, valid);
          auto row = [&](std::size_t e) HWY_ATTR {
            if (p + e >= kc || valid == 0) return hn::Zero(d);
            return LoadSelected(mask, d, A + (p0 + p + e) * lda + i0 + r + c);
          };
          hn::StoreInterleaved4(row(0), row(1), row(2), row(3), d, group);
          const std::size_t count = kG * GemmMin(lanes, kMR - c);
          for (std::size_t e = 0; e < count; e += lanes) {
            const auto v = hn::Load(d, group + e);
            if (e + lanes <= count) {
              hn::StoreU(v, d, out + kG * c + e);
            } else {
              StoreSelected(v, hn::FirstN(d, count - e), d, out + kG * c + e);
            }
          }
        }
      }
    }
  }
}

// Packs rows [p0, p0 + kc) of op(B) (k x n) into NR-column panels over round_up(n, NR) columns:
// element (p, j) goes to dst[(j / NR) * kc * NR + p * NR + j % NR], zero past n. dst is 64-byte
// aligned, and so is every panel row. kStream writes op(B) = B around the caches (non-temporal
// stores; the caller then calls hwy::FlushStream): for a packed matrix larger than the caches,
// which is not read again soon, it saves the read-for-ownership traffic.
template <class T, bool kStream = false, class S>
HWY_INLINE void GemmPackB(Trans tb, const S* HWY_RESTRICT B, std::size_t ldb, std::size_t n,
                          std::size_t p0, std::size_t kc, T* HWY_RESTRICT dst) {
  using Shape = GemmShape<T>;
  constexpr std::size_t kG = Shape::kKGroup;
  const std::size_t nr = Shape::NR();
  const std::size_t lanes = Shape::Lanes();
  const typename Shape::D d;
  if (tb == Trans::N) {
    // A few rows of B at a time: the reads are a few sequential streams, and each panel receives
    // kRows * NR consecutive values (row by row, the writes would scatter over every panel).
    constexpr std::size_t kRows = 8;
    const auto put = [&](auto v, T* HWY_RESTRICT out) HWY_ATTR {
      if constexpr (kStream) {
        hn::Stream(v, d, out);
      } else {
        hn::Store(v, d, out);
      }
    };
    const bool far = rows_far_apart<S>(ldb);
    for (std::size_t p = 0; p < kc; p += kRows) {
      const std::size_t rows = GemmMin(kRows, kc - p);
      if (far && p + kRowsAhead < kc) {
        prefetch_rows(B + (p0 + p + kRowsAhead) * ldb, GemmMin(kRows, kc - p - kRowsAhead), n, ldb);
      }
      T* HWY_RESTRICT panel = dst + p * nr;
      for (std::size_t j = 0; j < n; j += nr, panel += kc * nr) {
        const std::size_t cols = GemmMin(nr, n - j);
        for (std::size_t r = 0; r < rows; ++r) {
          const S* HWY_RESTRICT src = B + (p0 + p + r) * ldb + j;
          T* HWY_RESTRICT out = panel + r * nr;
          for (std::size_t v = 0; v < nr; v += lanes) {
            if (v + lanes <= cols) {
              put(GemmLoadWidened(d, src + v), out + v);
            } else if (v >= cols) {
              put(hn::Zero(d), out + v);
            } else if constexpr (std::is_same_v<S, T>) {
              put(LoadSelected(hn::FirstN(d, cols - v), d, src + v), out + v);
            } else {
              // Highway 1.0.3's MaskedLoad of 16-bit lanes may read the whole vector on some
              // targets: the columns left are widened one by one.
              HWY_ALIGN T part[Shape::kLanes] = {};
              for (std::size_t e = 0; e < cols - v; ++e) part[e] = GemmWiden<T>(src[v + e]);
              put(hn::Load(d, part), out + v);
            }
          }
        }
      }
    }
    return;
  }
  // op(B) column j is row j of B: four rows of B, interleaved, give 4-column pieces of panel rows.
  // Each of the four is asked for 4 lines ahead, once per line read: the hardware follows four
  // short streams a row of B apart too late, and the loads waited on L3 (most of this loop's time
  // in a herk.c32 at n = 1024). With the requests, a Zen 5 guest: sgemm N,T 1.02x at n = 1024 and
  // 1.04x at 512 (zen5), 1.04x at 512 (avx2). (A widened operand is never transposed.)
  if constexpr (std::is_same_v<S, T>) {
    HWY_ALIGN T group[kG * Shape::kLanes];
    constexpr std::size_t kLine = 64 / sizeof(T), kAhead = 4 * kLine;
    for (std::size_t j = 0; j < n; j += nr, dst += kc * nr) {
      for (std::size_t jq = 0; jq < nr; jq += kG) {
        for (std::size_t p = 0; p < kc; p += lanes) {
          const std::size_t steps = GemmMin(lanes, kc - p);
          const auto mask = hn::FirstN(d, steps);
          auto row = [&](std::size_t e) HWY_ATTR {
            if (j + jq + e >= n) return hn::Zero(d);
            const T* src = B + (j + jq + e) * ldb + p0 + p;
            if (p % kLine < lanes && p + kAhead < kc) prefetch_line(src + kAhead);
            return LoadSelected(mask, d, src);
          };
          hn::StoreInterleaved4(row(0), row(1), row(2), row(3), d, group);
          T* HWY_RESTRICT out = dst + p * nr + jq;
          for (std::size_t e = 0; e < steps; ++e) {
            __builtin_memcpy(out + e * nr, group + e * kG, sizeof(T) * kG);
          }
        }
      }
    }
  }
}

// Packs rows [i0, i0 + mc) x columns [p0, p0 + kc) (p0 and kc even) of A' (gemm_1m,
// kernels_table.hpp: op(A) of the complex A as reals, m x 2k) as GemmPackA packs op(A). For op(A)
// = A, A' is A's own storage (rows 2·lda reals apart). For Aᵀ, a k group of A' row i (4 reals) is
// the complex elements (l, i) and (l + 1, i) of A, from two rows of A: each group reads those two
// rows along into the micro-panels one after the other. A complex float is one 64-bit lane: the
// two rows' vectors interleaved lane by lane are the groups of as many rows of A'; a complex
// double is copied an element (two reals) at a time.
template <class T>
HWY_INLINE void GemmPackA1m(Trans ta, const T* HWY_RESTRICT A, std::size_t lda, std::size_t i0,
                            std::size_t mc, std::size_t p0, std::size_t kc, T* HWY_RESTRICT dst) {
  using Shape = GemmShape<T>;
  constexpr std::size_t kMR = Shape::kMR, kG = Shape::kKGroup;
  static_assert(kG == 4, "a k group holds two complex elements");
  if (ta == Trans::N) return GemmPackA(Trans::N, A, 2 * lda, i0, mc, p0, kc, dst);
  const std::size_t panel_size = kMR * GemmRoundUp(kc, kG);
  for (std::size_t p = 0; p < kc; p += kG) {
    const T* HWY_RESTRICT first = A + 2 * ((p0 + p) / 2 * lda + i0);
    const T* HWY_RESTRICT second = p + 2 < kc ? first + 2 * lda : nullptr;
    for (std::size_t r = 0; r < mc; r += kMR) {
      const std::size_t rows = GemmMin(kMR, mc - r);
      T* HWY_RESTRICT out = dst + (r / kMR) * panel_size + p * kMR;
      std::size_t i = 0;
      if constexpr (sizeof(T) == 4) {
        if (second != nullptr) {
          const hn::Repartition<std::uint64_t, typename Shape::D> d64;
          const std::size_t lanes = hn::Lanes(d64);
          HWY_ALIGN std::uint64_t pairs[2 * hn::MaxLanes(d64)];
          for (; i < rows; i += lanes) {
            const std::size_t valid = GemmMin(lanes, rows - i);
            const auto mask = hn::FirstN(d64, valid);
            const auto load = [&](const T* row) HWY_ATTR {
              return LoadSelected(mask, d64,
                                  reinterpret_cast<const std::uint64_t*>(row + 2 * (r + i)));
            };
            std::uint64_t* HWY_RESTRICT to = reinterpret_cast<std::uint64_t*>(out + i * kG);
            if (valid == lanes) {
              hn::StoreInterleaved2(load(first), load(second), d64, to);
            } else {
              hn::StoreInterleaved2(load(first), load(second), d64, pairs);
              for (std::size_t e = 0; e < 2 * valid; ++e) to[e] = pairs[e];
            }
          }
          i = rows;
        }
      }
      for (; i < kMR; ++i) {  // the rest, and the zeros past the rows
        const bool inside = i < rows;
        out[i * kG + 0] = inside ? first[2 * (r + i)] : T(0);
        out[i * kG + 1] = inside ? first[2 * (r + i) + 1] : T(0);
        out[i * kG + 2] = inside && second != nullptr ? second[2 * (r + i)] : T(0);
        out[i * kG + 3] = inside && second != nullptr ? second[2 * (r + i) + 1] : T(0);
      }
    }
  }
}

// Where element (i, p) of an A block packed by GemmPackA (kc steps; i counted in the block) lies
// in it, and element (p, j) of a B k-block packed by GemmPackB (j counted from the first panel's
// first column): for the code that corrects a packed operand after packing (symm_packed,
// trmm_packed).
template <class T>
HWY_INLINE std::size_t GemmPackedAAt(std::size_t kc, std::size_t i, std::size_t p) {
  using Shape = GemmShape<T>;
  constexpr std::size_t kMR = Shape::kMR, kG = Shape::kKGroup;
  return (i / kMR) * kMR * GemmRoundUp(kc, kG) + (p / kG) * kMR * kG + (i % kMR) * kG + p % kG;
}
template <class T>
HWY_INLINE std::size_t GemmPackedBAt(std::size_t kc, std::size_t p, std::size_t j) {
  const std::size_t nr = GemmShape<T>::NR();
  return (j / nr) * kc * nr + p * nr + j % nr;
}

// Packs rows [p0, p0 + kc) (p0 and kc even) of the 1m expansion of b' = alpha·op(B) (pack_b_1m,
// kernels_table.hpp: 2k x 2n reals, n complex columns of op(B)) as GemmPackB packs op(B). B is
// complex, its parts interleaved, ldb counted in complex elements. Per k-step l and vector x of
// row l of op(B) as reals, [re, im, ...]: b' = x·[1, c] (alpha == 1; c = -1 for a conjugated
// op(B)), else x·[ar, c·ar] + swap(x)·[-c·ai, ai], the textbook product's roundings (each product
// rounded, then the sum, as std::complex's parts are formed without contraction); row 2l is b'
// and row 2l + 1 swap(b')·[-s, s]. swap exchanges the parts (Reverse2); the factors ±1 are exact.
// Op(B) = T or C reads row l of op(B) from a column of B: kChunk steps at a time, each panel's
// complex columns (rows of B, read along) are first copied to a stack tile, k-major.
template <class T, bool kStream = false>
HWY_INLINE void GemmPackB1m(Op op, bool conj_a, const T* HWY_RESTRICT B, std::size_t ldb,
                            std::size_t n, std::size_t p0, std::size_t kc, T alpha_re, T alpha_im,
                            T* HWY_RESTRICT dst) {
  using Shape = GemmShape<T>;
  constexpr std::size_t kChunk = 8;
  const std::size_t nr = Shape::NR();
  const std::size_t lanes = Shape::Lanes();
  const typename Shape::D d;
  const bool transposed = op == Op::T || op == Op::C;
  const T c = op == Op::C || op == Op::Conj ? T(-1) : T(1);
  const T s = conj_a ? T(-1) : T(1);
  const bool one = alpha_re == T(1) && alpha_im == T(0);
  // OddEven(odd lanes, even lanes): the factors of the imaginary and the real parts.
  const auto direct = one ? hn::OddEven(hn::Set(d, c), hn::Set(d, T(1)))
                          : hn::OddEven(hn::Set(d, c * alpha_re), hn::Set(d, alpha_re));
  const auto crossed = hn::OddEven(hn::Set(d, alpha_im), hn::Set(d, -c * alpha_im));
  const auto turned = hn::OddEven(hn::Set(d, s), hn::Set(d, -s));
  // kChunk steps of a panel; the reals in a row of the expansion.
  HWY_ALIGN T tile[kChunk * Shape::kNRVectors * Shape::kLanes];
  const std::size_t width = 2 * n;
  for (std::size_t j = 0; j < width; j += nr, dst += kc * nr) {
    const std::size_t cols = GemmMin(nr, width - j);  // even
    for (std::size_t p = 0; p < kc; p += 2 * kChunk) {
      const std::size_t steps = GemmMin(kChunk, (kc - p) / 2);
      const std::size_t l0 = (p0 + p) / 2;
      const T* HWY_RESTRICT rows = B + 2 * (l0 * ldb) + j;  // row l0 of op(B) = B: from column j/2
      std::size_t ld = 2 * ldb;
      if (transposed) {
        for (std::size_t q = 0; q < cols; q += 2) {
          const T* HWY_RESTRICT src = B + 2 * ((j + q) / 2 * ldb + l0);
          for (std::size_t e = 0; e < steps; ++e) {
            tile[e * nr + q] = src[2 * e];
            tile[e * nr + q + 1] = src[2 * e + 1];
          }
        }
        rows = tile;
        ld = nr;
      }
      for (std::size_t e = 0; e < steps; ++e) {
        T* HWY_RESTRICT even = dst + (p + 2 * e) * nr;
        T* HWY_RESTRICT odd = even + nr;
        for (std::size_t v = 0; v < nr; v += lanes) {
          // Lanes past the expansion's width are +0, as GemmPackB leaves them.
          const std::size_t live = v < cols ? GemmMin(lanes, cols - v) : 0;
          const auto mask = hn::FirstN(d, live);
          const T* HWY_RESTRICT src = rows + e * ld + v;
          const auto x = live == lanes ? hn::LoadU(d, src) : LoadSelected(mask, d, src);
          const auto b = one ? hn::Mul(x, direct)
                             : hn::Add(hn::Mul(x, direct), hn::Mul(hn::Reverse2(d, x), crossed));
          const auto odd_b = hn::Mul(hn::Reverse2(d, b), turned);
          if constexpr (kStream) {
            hn::Stream(hn::IfThenElseZero(mask, b), d, even + v);
            hn::Stream(hn::IfThenElseZero(mask, odd_b), d, odd + v);
          } else {
            hn::Store(hn::IfThenElseZero(mask, b), d, even + v);
            hn::Store(hn::IfThenElseZero(mask, odd_b), d, odd + v);
          }
        }
      }
    }
  }
}

// ------------------------------ Microkernel

// The k loop of a microkernel: group(a, b), which runs one k-group (kKGroup steps of k) from the
// A and B panels at a and b, for kc_full steps in all (a and b are left past them), with the C tile
// (mr rows of nr values at c, ldc apart) fetched for writing 32 steps before the end (at the start
// of a shorter loop). The tile is needed only after the loop, and a tile fetched at its start can
// be evicted by the A and B panels streaming through L1 before it is used (its rows, a multiple of
// 4 KiB apart at n = 1024 doubles, share L1 sets). 32 steps are at least 320 FMAs, enough to hide a
// fetch from L3 (docs/performance.md, "What the tuned figures rest on").
template <class T, class Group>
HWY_INLINE void GemmKLoop(std::size_t kc_full, const T* HWY_RESTRICT& a, const T* HWY_RESTRICT& b,
                          Group group, T* HWY_RESTRICT c, std::size_t ldc, std::size_t mr,
                          std::size_t nr) {
  using Shape = GemmShape<T>;
  constexpr std::size_t kG = Shape::kKGroup;
  constexpr std::size_t kLead = 32;
  const std::size_t a_step = Shape::kMR * kG, b_step = kG * Shape::NR();
  const std::size_t fetch_at = kc_full > kLead ? (kc_full - kLead) / kG * kG : 0;
  std::size_t p = 0;
  for (; p < fetch_at; p += kG, a += a_step, b += b_step) group(a, b);
  for (std::size_t i = 0; i < mr; ++i) {
    __builtin_prefetch(c + i * ldc, 1);
    __builtin_prefetch(c + i * ldc + nr - 1, 1);
  }
  for (; p < kc_full; p += kG, a += a_step, b += b_step) group(a, b);
}

#if HWY_HAVE_SCALABLE

// The scalable tile: MR <= 12 rows of 2 vectors, each accumulator a named variable (rows at and
// past MR are dead code, removed by the compiler). X(i) for every row.
#define COHERIQ_GEMM_ROWS(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11)

// C tile (mr <= MR rows, nr <= NR columns at c) = alpha * a_panel * b_panel + beta * C tile,
// over kc steps of k. beta == 0 does not read C. The arithmetic per element is the fixed-width
// kernel's: one FMA chain over k, then alpha * acc, then beta * C + that, in full and edge tiles
// alike (a column's sum is the same wherever a block of columns starts).
template <class T>
HWY_NOINLINE void GemmMicroKernel(std::size_t kc, const T* HWY_RESTRICT a, const T* HWY_RESTRICT b,
                                  T alpha, T beta, T* HWY_RESTRICT c, std::size_t ldc,
                                  std::size_t mr, std::size_t nr) {
  using Shape = GemmShape<T>;
  constexpr std::size_t kMR = Shape::kMR;
  constexpr std::size_t kG = Shape::kKGroup;
  static_assert(Shape::kNRVectors == 2 && kMR >= 1 && kMR <= 12,
                "tuning: the scalable microkernel holds 1 to 12 rows of 2 vectors (nr = 2 "
                "128-bit vectors)");
  using D = typename Shape::D;
  using V = hn::Vec<D>;
  const D d;
  const std::size_t lanes = hn::Lanes(d);
  const std::size_t nr_full = 2 * lanes;

#define COHERIQ_GEMM_ZERO(i) V acc##i##_0 = hn::Zero(d), acc##i##_1 = hn::Zero(d);
  COHERIQ_GEMM_ROWS(COHERIQ_GEMM_ZERO)
#undef COHERIQ_GEMM_ZERO
  // One k step: a_col[i * kG] is row i of op(A), b_row one row of the B panel.
#define COHERIQ_GEMM_FMA(i)                      \
  if constexpr (i < kMR) {                       \
    const V ai = hn::Set(d, a_col[i * kG]);      \
    acc##i##_0 = hn::MulAdd(ai, b0, acc##i##_0); \
    acc##i##_1 = hn::MulAdd(ai, b1, acc##i##_1); \
  }
#define COHERIQ_GEMM_STEP(a_step, b_step)     \
  do {                                        \
    const T* HWY_RESTRICT a_col = (a_step);   \
    const T* HWY_RESTRICT b_row = (b_step);   \
    const V b0 = hn::LoadU(d, b_row);         \
    const V b1 = hn::LoadU(d, b_row + lanes); \
    COHERIQ_GEMM_ROWS(COHERIQ_GEMM_FMA)       \
  } while (0)
  const std::size_t kc_full = kc / kG * kG;
  // Unrolled over the group, unlike the fixed-width kernel: 19 of the 32 z registers are live, so
  // GCC interleaves the steps without spilling, and the loop's scalar instructions are paid once
  // per 64 FMAs (0.57 to 0.52 instructions per multiply-add at 128 bits).
  const auto group = [&](const T* HWY_RESTRICT ag, const T* HWY_RESTRICT bg) HWY_ATTR {
    HWY_UNROLL(4)
    for (std::size_t e = 0; e < kG; ++e) COHERIQ_GEMM_STEP(ag + e, bg + e * nr_full);
  };
  GemmKLoop(kc_full, a, b, group, c, ldc, mr, nr);
  for (std::size_t e = 0; e < kc - kc_full; ++e) COHERIQ_GEMM_STEP(a + e, b + e * nr_full);
#undef COHERIQ_GEMM_STEP
#undef COHERIQ_GEMM_FMA

  const V valpha = hn::Set(d, alpha);
  const V vbeta = hn::Set(d, beta);
  if (mr == kMR && nr == nr_full) {
    if (beta == T(0)) {
#define COHERIQ_GEMM_PUT(i)                                          \
  if constexpr (i < kMR) {                                           \
    hn::StoreU(hn::Mul(valpha, acc##i##_0), d, c + i * ldc);         \
    hn::StoreU(hn::Mul(valpha, acc##i##_1), d, c + i * ldc + lanes); \
  }
      COHERIQ_GEMM_ROWS(COHERIQ_GEMM_PUT)
#undef COHERIQ_GEMM_PUT
    } else {
#define COHERIQ_GEMM_PUT(i)                                                                \
  if constexpr (i < kMR) {                                                                 \
    T* HWY_RESTRICT out = c + i * ldc;                                                     \
    hn::StoreU(hn::MulAdd(vbeta, hn::LoadU(d, out), hn::Mul(valpha, acc##i##_0)), d, out); \
    out += lanes;                                                                          \
    hn::StoreU(hn::MulAdd(vbeta, hn::LoadU(d, out), hn::Mul(valpha, acc##i##_1)), d, out); \
  }
      COHERIQ_GEMM_ROWS(COHERIQ_GEMM_PUT)
#undef COHERIQ_GEMM_PUT
    }
    return;
  }
  // Edge tile: the rows inside C, each vector masked to the columns inside C (a masked load or
  // store touches no memory past its mask). Each count at most `lanes`: on a length that is not
  // a power of two (384 bits) Highway uses the power-of-two part of the vector, and FirstN of a
  // larger count would also enable the lanes past it, writing past the tile.
  const auto mask0 = hn::FirstN(d, GemmMin(nr, lanes));
  const auto mask1 = hn::FirstN(d, nr > lanes ? GemmMin(nr - lanes, lanes) : 0);
  const auto put = [&](V r, decltype(mask0) mask, T* HWY_RESTRICT out) HWY_ATTR {
    if (beta != T(0)) r = hn::MulAdd(vbeta, LoadSelected(mask, d, out), r);
    StoreSelected(r, mask, d, out);
  };
#define COHERIQ_GEMM_PUT(i)                                                         \
  if constexpr (i < kMR) {                                                          \
    if (i < mr) {                                                                   \
      put(hn::Mul(valpha, acc##i##_0), mask0, c + i * ldc);                         \
      if (nr > lanes) put(hn::Mul(valpha, acc##i##_1), mask1, c + i * ldc + lanes); \
    }                                                                               \
  }
  COHERIQ_GEMM_ROWS(COHERIQ_GEMM_PUT)
#undef COHERIQ_GEMM_PUT
}

#undef COHERIQ_GEMM_ROWS

#else  // fixed-width vectors

// C tile (mr <= kRows rows, nr <= NR columns at c) = alpha * a_panel * b_panel + beta * C tile,
// over kc steps of k, from the first kRows rows of the A micro-panel (MR rows). beta == 0 does
// not read C. The full tile has kRows = MR; GemmMicroKernel sends a tile of fewer rows to a
// kernel of fewer (its arithmetic per element is the same).
template <class T, std::size_t kRows>
HWY_NOINLINE void GemmMicroKernelRows(std::size_t kc, const T* HWY_RESTRICT a,
                                      const T* HWY_RESTRICT b, T alpha, T beta, T* HWY_RESTRICT c,
                                      std::size_t ldc, std::size_t mr, std::size_t nr) {
  using Shape = GemmShape<T>;
  constexpr std::size_t kNR = Shape::kNR;
  constexpr std::size_t kNV = Shape::kNRVectors;
  constexpr std::size_t kG = Shape::kKGroup;
  constexpr std::size_t kLanes = Shape::kLanes;
  using D = typename Shape::D;
  using V = hn::Vec<D>;
  const D d;

  V acc[kRows][kNV];
  HWY_UNROLL(32)
  for (std::size_t i = 0; i < kRows; ++i) {
    HWY_UNROLL(32)
    for (std::size_t v = 0; v < kNV; ++v) acc[i][v] = hn::Zero(d);
  }
  // One k step: a_col[i * kG] is row i of op(A), b_row one row of the B panel.
  auto step = [&](const T* HWY_RESTRICT a_col, const T* HWY_RESTRICT b_row) HWY_ATTR {
    V bv[kNV];
    HWY_UNROLL(32)
    for (std::size_t v = 0; v < kNV; ++v) bv[v] = hn::Load(d, b_row + v * kLanes);
    HWY_UNROLL(32)
    for (std::size_t i = 0; i < kRows; ++i) {
      const V ai = hn::Set(d, a_col[i * kG]);
      HWY_UNROLL(32)
      for (std::size_t v = 0; v < kNV; ++v) acc[i][v] = hn::MulAdd(ai, bv[v], acc[i][v]);
    }
  };
  const std::size_t kc_full = kc / kG * kG;
  // Not unrolled: GCC would interleave the steps and spill accumulators (31 of the 32 zmm
  // registers are live); the loop costs two scalar instructions per 28 FMAs.
  const auto group = [&](const T* HWY_RESTRICT ag, const T* HWY_RESTRICT bg) HWY_ATTR {
    HWY_UNROLL(1)
    for (std::size_t e = 0; e < kG; ++e) step(ag + e, bg + e * kNR);
  };
  GemmKLoop(kc_full, a, b, group, c, ldc, mr, nr);
  for (std::size_t e = 0; e < kc - kc_full; ++e) step(a + e, b + e * kNR);

  const V valpha = hn::Set(d, alpha);
  const V vbeta = hn::Set(d, beta);
  if (mr == kRows && nr == kNR) {
    // Full tile: straight from the registers (constant indices keep acc out of memory). alpha
    // == 1 (every k-block after the first has beta == 1) skips the multiplies: acc * 1 is acc
    // and fma(1, C, acc) is C + acc, bit for bit, so the result is the same either way.
    const auto store_tile = [&](auto scaled) HWY_ATTR {
      if (beta == T(0)) {
        HWY_UNROLL(32)
        for (std::size_t i = 0; i < kRows; ++i) {
          HWY_UNROLL(32)
          for (std::size_t v = 0; v < kNV; ++v) {
            hn::StoreU(scaled(acc[i][v]), d, c + i * ldc + v * kLanes);
          }
        }
      } else {
        HWY_UNROLL(32)
        for (std::size_t i = 0; i < kRows; ++i) {
          HWY_UNROLL(32)
          for (std::size_t v = 0; v < kNV; ++v) {
            T* HWY_RESTRICT out = c + i * ldc + v * kLanes;
            hn::StoreU(hn::MulAdd(vbeta, hn::LoadU(d, out), scaled(acc[i][v])), d, out);
          }
        }
      }
    };
    if (alpha == T(1)) {
      store_tile([](V x) HWY_ATTR { return x; });
    } else {
      store_tile([&](V x) HWY_ATTR { return hn::Mul(valpha, x); });
    }
    return;
  }
  // Edge tile: through a scratch tile, then only the rows and columns inside C, the last vector
  // of a row masked.
  HWY_ALIGN T tile[kRows * kNR];
  HWY_UNROLL(32)
  for (std::size_t i = 0; i < kRows; ++i) {
    HWY_UNROLL(32)
    for (std::size_t v = 0; v < kNV; ++v) {
      hn::Store(hn::Mul(valpha, acc[i][v]), d, tile + i * kNR + v * kLanes);
    }
  }
  for (std::size_t i = 0; i < mr; ++i) {
    for (std::size_t j = 0; j < nr; j += kLanes) {
      T* HWY_RESTRICT out = c + i * ldc + j;
      V r = hn::Load(d, tile + i * kNR + j);
      if (j + kLanes <= nr) {
        if (beta != T(0)) r = hn::MulAdd(vbeta, hn::LoadU(d, out), r);
        hn::StoreU(r, d, out);
      } else {
        const auto mask = hn::FirstN(d, nr - j);
        if (beta != T(0)) r = hn::MulAdd(vbeta, LoadSelected(mask, d, out), r);
        StoreSelected(r, mask, d, out);
      }
    }
  }
}

// C tile (mr <= MR rows, nr <= NR columns at c) = alpha * a_panel * b_panel + beta * C tile. A
// tile of at most 4 or 8 rows (the last row panel of a block whose rows are not a multiple of
// MR) runs on a kernel of that many: the full one would spend MR rows' FMAs on it (at MR = 14, a
// product of 128 rows ran 10 full tiles of work for 9 1/7).
template <class T>
HWY_INLINE void GemmMicroKernel(std::size_t kc, const T* HWY_RESTRICT a, const T* HWY_RESTRICT b,
                                T alpha, T beta, T* HWY_RESTRICT c, std::size_t ldc, std::size_t mr,
                                std::size_t nr) {
  constexpr std::size_t kMR = GemmShape<T>::kMR;
  if constexpr (kMR > 4) {
    if (mr <= 4) return GemmMicroKernelRows<T, 4>(kc, a, b, alpha, beta, c, ldc, mr, nr);
  }
  if constexpr (kMR > 8) {
    if (mr <= 8) return GemmMicroKernelRows<T, 8>(kc, a, b, alpha, beta, c, ldc, mr, nr);
  }
  GemmMicroKernelRows<T, kMR>(kc, a, b, alpha, beta, c, ldc, mr, nr);
}

#endif  // HWY_HAVE_SCALABLE

// ------------------------------ Macro loops

// C = beta * C for k == 0, beta == 0 writing zeros whatever C held.
template <class T>
HWY_INLINE void GemmScaleC(std::size_t m, std::size_t n, T beta, T* HWY_RESTRICT C,
                           std::size_t ldc) {
  using Shape = GemmShape<T>;
  const std::size_t lanes = Shape::Lanes();
  const typename Shape::D d;
  const auto vbeta = hn::Set(d, beta);
  for (std::size_t i = 0; i < m; ++i) {
    T* HWY_RESTRICT row = C + i * ldc;
    std::size_t j = 0;
    for (; j + lanes <= n; j += lanes) {
      const auto r = beta == T(0) ? hn::Zero(d) : hn::Mul(vbeta, hn::LoadU(d, row + j));
      hn::StoreU(r, d, row + j);
    }
    if (j < n) {
      const auto mask = hn::FirstN(d, n - j);
      const auto r = beta == T(0) ? hn::Zero(d) : hn::Mul(vbeta, LoadSelected(mask, d, row + j));
      StoreSelected(r, mask, d, row + j);
    }
  }
}

// Which tiles of C a product writes, and over which k-steps: every one over the whole k-block
// (gemm); every one over span(i, mr, j, nr)'s steps [begin, end), begin a multiple of the k group
// (GemmSpans: trmm's diagonal tiles, the tile's first row i and column j of the product); or
// those with an element in the `uplo`
// triangle of C, the diagonal included, its elements `width` columns wide (gemmt): row i's columns
// [0, width·(i + 1)) (Lower) or [width·i, width·n) (Upper).
struct GemmWhole {};
struct GemmSpan {
  std::size_t begin, end;
};
template <class Span>
struct GemmSpans {
  Span span;
};
struct GemmTriangle {
  Uplo uplo;
  std::size_t width;
  // Row i's first column on the triangle and the column past its last.
  std::size_t first(std::size_t i) const { return uplo == Uplo::Lower ? 0 : width * i; }
  std::size_t past(std::size_t i) const {
    return uplo == Uplo::Lower ? width * (i + 1) : ~std::size_t{0};
  }
};

// The tile of C at row i0 and column j0 of the product (mr x nr at c) on the triangle only:
// computed by the microkernel when it lies inside, skipped when it lies outside, and across the
// diagonal computed into a tile on the stack with beta = 0 (alpha·acc, as the microkernel forms
// it) and merged into C on the triangle's elements as the microkernel merges (beta·C + that, one
// FMA; beta == 0 not reading C). So every element written has gemm's bits.
template <class T>
HWY_INLINE void GemmTriangleTile(GemmTriangle part, std::size_t i0, std::size_t j0, std::size_t kc,
                                 const T* HWY_RESTRICT a, const T* HWY_RESTRICT b, T alpha, T beta,
                                 T* HWY_RESTRICT c, std::size_t ldc, std::size_t mr,
                                 std::size_t nr) {
  // The first column of the top row and the past-last of the bottom row bound the triangle's
  // columns in the tile; the last row's first and the top row's past-last, the columns every row
  // has (both grow with the row).
  const std::size_t j1 = j0 + nr, last_row = i0 + mr - 1;
  if (j1 <= part.first(i0) || j0 >= part.past(last_row)) return;
  if (j0 >= part.first(last_row) && j1 <= part.past(i0)) {
    return GemmMicroKernel<T>(kc, a, b, alpha, beta, c, ldc, mr, nr);
  }
  using Shape = GemmShape<T>;
  constexpr std::size_t kTileLd = Shape::kNRVectors * Shape::kLanes;
  HWY_ALIGN T tile[Shape::kMR * kTileLd];
  GemmMicroKernel<T>(kc, a, b, alpha, T(0), tile, kTileLd, mr, nr);
  const typename Shape::D d;
  const std::size_t lanes = Shape::Lanes();
  const auto vbeta = hn::Set(d, beta);
  for (std::size_t r = 0; r < mr; ++r) {
    // The row's columns on the triangle: [lo, hi) of the tile's.
    const std::size_t lo = GemmMin(nr, part.first(i0 + r) - GemmMin(part.first(i0 + r), j0));
    const std::size_t past = part.past(i0 + r);
    const std::size_t hi = past <= j0 ? 0 : GemmMin(nr, past - j0);
    for (std::size_t v = lo / lanes * lanes; v < hi; v += lanes) {
      // Lanes [lo - v, hi - v) of this vector, each count at most `lanes` (GemmMicroKernel).
      const auto mask =
          hn::AndNot(hn::FirstN(d, lo > v ? lo - v : 0), hn::FirstN(d, GemmMin(hi - v, lanes)));
      T* HWY_RESTRICT out = c + r * ldc + v;
      auto x = hn::LoadU(d, tile + r * kTileLd + v);
      if (beta != T(0)) x = hn::MulAdd(vbeta, LoadSelected(mask, d, out), x);
      StoreSelected(x, mask, d, out);
    }
  }
}

// Multiplies a packed A block (mc x kc, micro-panels) by a packed B block (kc x nc, panels)
// into the C block at c, which starts at row i0 and column j0 of the product (Part: which of its
// tiles are written, over which k-steps).
template <class T, class Part = GemmWhole>
HWY_INLINE void GemmMacroKernel(std::size_t mc, std::size_t nc, std::size_t kc,
                                const T* HWY_RESTRICT a_block, const T* HWY_RESTRICT b_block,
                                T alpha, T beta, T* HWY_RESTRICT c, std::size_t ldc, Part part = {},
                                std::size_t i0 = 0, std::size_t j0 = 0) {
  using Shape = GemmShape<T>;
  const std::size_t a_panel_size = Shape::kMR * GemmRoundUp(kc, Shape::kKGroup);
  const std::size_t nr = Shape::NR();
  for (std::size_t ir = 0; ir < mc; ir += Shape::kMR, a_block += a_panel_size) {
    const std::size_t mr = GemmMin(Shape::kMR, mc - ir);
    for (std::size_t jr = 0; jr < nc; jr += nr) {
      const std::size_t w = GemmMin(nr, nc - jr);
      const T* HWY_RESTRICT b_panel = b_block + jr * kc;
      T* HWY_RESTRICT tile = c + ir * ldc + jr;
      if constexpr (std::is_same_v<Part, GemmWhole>) {
        GemmMicroKernel<T>(kc, a_block, b_panel, alpha, beta, tile, ldc, mr, w);
      } else if constexpr (std::is_same_v<Part, GemmTriangle>) {
        GemmTriangleTile<T>(part, i0 + ir, j0 + jr, kc, a_block, b_panel, alpha, beta, tile, ldc,
                            mr, w);
      } else {
        const GemmSpan s = part.span(i0 + ir, mr, j0 + jr, w);
        GemmMicroKernel<T>(s.end - s.begin, a_block + s.begin * Shape::kMR, b_panel + s.begin * nr,
                           alpha, beta, tile, ldc, mr, w);
      }
    }
  }
}

// The loop nest of every packed product: pack_a(ic, mc, pc, kc) packs rows [ic, ic + mc) x
// columns [pc, pc + kc) of op(A) into the A block, pack_b(pc, kc) returns the B k-block, rows [pc,
// pc + kc) of op(B) in pack_b's layout (packed then, or already); the tiles `part` says (gemmt).
template <class T, bool kReproducible, class PackA, class PackB, class Part = GemmWhole>
HWY_INLINE void GemmBlocks(std::size_t m, std::size_t n, std::size_t k, T alpha, PackA pack_a,
                           PackB pack_b, T beta, T* HWY_RESTRICT C, std::size_t ldc,
                           const T* HWY_RESTRICT a_block, std::size_t mc_max, Part part = {}) {
  using Shape = GemmShape<T>;
  const std::size_t nc_max = Shape::NC();
  const std::size_t k_block = GemmKBlock<T, kReproducible>(k);
  for (std::size_t pc = 0; pc < k; pc += k_block) {
    const std::size_t kc = GemmMin(k_block, k - pc);
    // The first k-block applies the caller's beta; later ones accumulate into C.
    const T block_beta = pc == 0 ? beta : T(1);
    const T* HWY_RESTRICT b_kblock = pack_b(pc, kc);
    for (std::size_t ic = 0; ic < m; ic += mc_max) {
      const std::size_t mc = GemmMin(mc_max, m - ic);
      pack_a(ic, mc, pc, kc);
      for (std::size_t jc = 0; jc < n; jc += nc_max) {
        GemmMacroKernel(mc, GemmMin(nc_max, n - jc), kc, a_block, b_kblock + jc * kc, alpha,
                        block_beta, C + ic * ldc + jc, ldc, part, ic, jc);
      }
    }
  }
}

// Gemm's and GemmPacked's (and gemmt's: Part). b_packed: op(B) in pack_b's layout, or nullptr
// to pack each k-block of op(B) into b_work first. a_work holds up to mc_max packed rows of
// op(A). A and B may be of a narrower type that the packing widens to T (SA, SB: GemmWiden).
template <class T, bool kReproducible, class SA = T, class SB = T, class Part = GemmWhole>
HWY_INLINE void GemmLoops(Trans ta, Trans tb, std::size_t m, std::size_t n, std::size_t k, T alpha,
                          const SA* HWY_RESTRICT A, std::size_t lda, const SB* HWY_RESTRICT B,
                          std::size_t ldb, const T* HWY_RESTRICT b_packed, T beta,
                          T* HWY_RESTRICT C, std::size_t ldc, T* HWY_RESTRICT a_work,
                          std::size_t mc_max, T* HWY_RESTRICT b_work, Part part = {}) {
  const std::size_t n_padded = GemmRoundUp(n, GemmShape<T>::NR());
  const auto pack_a = [&](std::size_t ic, std::size_t mc, std::size_t pc, std::size_t kc)
                          HWY_ATTR { GemmPackA(ta, A, lda, ic, mc, pc, kc, a_work); };
  const auto pack_b = [&](std::size_t pc, std::size_t kc) HWY_ATTR -> const T* {
    if (b_packed != nullptr) return b_packed + pc * n_padded;  // the k-blocks before: k_block wide
    GemmPackB(tb, B, ldb, n, pc, kc, b_work);
    return b_work;
  };
  GemmBlocks<T, kReproducible>(m, n, k, alpha, pack_a, pack_b, beta, C, ldc, a_work, mc_max, part);
}

// Bytes of the packed A block in Gemm's workspace, a multiple of 64 so that the B k-block after
// it stays 64-byte aligned.
template <class T, bool kReproducible>
HWY_INLINE std::size_t GemmABlockBytes(std::size_t m, std::size_t k) {
  using Shape = GemmShape<T>;
  const std::size_t rows = GemmMin(GemmRoundUp(m, Shape::kMR), Shape::kMC);
  return GemmRoundUp(
      rows * GemmRoundUp(GemmMin(k, GemmKBlock<T, kReproducible>(k)), Shape::kKGroup) * sizeof(T),
      64);
}

// ------------------------------ Small products: unpacked

// A product of at most small³ multiply-adds (the engine's record) runs here: packing op(A) and
// op(B) would cost more than it saves, and the product needs no workspace (so no heap and no
// thread cache; gemm_workspace says 0). The microkernel reads op(A) and B where they are: a tile of
// up to 12 rows of C by one to four vectors (as many as C's row needs, up to what the registers
// hold; wider C in tiles of two), op(A) broadcast element by element (either transpose), rows of
// B loaded as vectors, the last one masked to the columns inside C. C
// narrower than a vector runs on a half or quarter vector (at least 128 bits) on a fixed-width
// target: fewer idle lanes, and a masked access to C spans no more bytes than C's row needs, so
// a tile's stores do not hold up the next tile's (or the next product's) loads of nearby rows. A
// transposed B has no rows in memory: one vector's width of its columns at a time is copied to
// the stack, k-major, as a panel of the packed layout would hold them.
//
// The arithmetic per element of C is the packed path's, in the same order: the same k-blocks
// (GemmKBlock), one FMA chain from zero over each in k order, then alpha·acc, then beta·C plus
// that (beta == 1 after the first k-block, beta == 0 not reading C). So the small and packed
// paths give the same bits, and the threshold, or a thread's block of a larger product falling
// under it, never changes a result.

template <class T>
HWY_INLINE bool GemmIsSmall(std::size_t m, std::size_t n, std::size_t k) {
  constexpr std::size_t kSmall = GemmShape<T>::kBlocking.small;
  static_assert(kSmall <= 1024, "tuning: gemm small must be at most 1024 (m·n·k in 64 bits)");
  constexpr std::size_t kWork = kSmall * kSmall * kSmall;
  return m <= kWork && n <= kWork && m * n <= kWork && k <= kWork && m * n * k <= kWork;
}

// Whether gemm runs a product unpacked: a small one (GemmIsSmall, whatever its transposes), or one
// with op(B) as stored whose op(A) and op(B) k-blocks fit the engine's unpacked_bytes and whose
// rows of B are not a multiple of 4 KiB apart (such rows share L1 sets, and a tile's k steps
// evict each other: 32 x 1024 x 32 f32 ran at 0.91 of the packed path's speed, 64 x 1024 x 64
// at 0.94; at 512 columns, 1.30x it). Both paths give the same bits, so this chooses speed only.
// gemm_workspace, which does not know tb, sizes the packed path's workspace for every product
// that is not small.
template <class T, bool kReproducible>
HWY_INLINE bool GemmRunsUnpacked(Trans tb, std::size_t m, std::size_t n, std::size_t k,
                                 std::size_t ldb) {
  constexpr std::size_t kBytes = GemmShape<T>::kBlocking.unpacked_bytes;
  if (GemmIsSmall<T>(m, n, k)) return true;
  if constexpr (kBytes == 0) {
    return false;
  } else {
    constexpr std::size_t kSetStride = 4096;  // an L1 way: rows this far apart share a set
    const std::size_t k_block = GemmMin(k, GemmKBlock<T, kReproducible>(k));
    return tb == Trans::N && m <= kBytes && n <= kBytes - m &&
           m + n <= kBytes / sizeof(T) / k_block && ldb * sizeof(T) % kSetStride != 0;
  }
}

// The tile names its accumulators one by one (SVE vectors cannot be array elements); rows at and
// past kRows are dead code.
#define COHERIQ_GEMM_SMALL_ROWS(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11)
constexpr std::size_t kGemmSmallMaxRows = 12;

// The vectors of a tile's row, named one by one as its rows are.
#define COHERIQ_GEMM_SMALL_VECS(X, i) X(i, 0) X(i, 1) X(i, 2) X(i, 3)
constexpr std::size_t kGemmSmallMaxVecs = 4;

// The tag of vector j of a small tile's row: D, or DL for the last one (kVecs - 1).
template <std::size_t j, std::size_t kVecs, class D, class DL>
using GemmSmallTag = std::conditional_t<j + 1 == kVecs, DL, D>;

// v, a vector of D, as a vector of DT: itself, or its lower half (DT = hn::Half<D>).
template <class DT, class V>
HWY_INLINE hn::Vec<DT> GemmSmallPart(V v) {
  if constexpr (std::is_same_v<hn::Vec<DT>, V>) {
    return v;
  } else {
    return hn::LowerHalf(DT(), v);
  }
}

// Vector j of a tile's row at p, whole, or the last one of DL (its first `mask` lanes unless
// `full`); past the last, zeros (unused).
template <std::size_t j, std::size_t kVecs, class D, class DL, class T>
HWY_INLINE hn::Vec<GemmSmallTag<j, kVecs, D, DL>> GemmSmallLoad(D d, DL dl, bool full,
                                                                hn::Mask<DL> mask, const T* p) {
  if constexpr (j >= kVecs) {
    return hn::Zero(d);
  } else if constexpr (j + 1 < kVecs) {
    return hn::LoadU(d, p);
  } else {
    return full ? hn::LoadU(dl, p) : LoadSelected(mask, dl, p);
  }
}

template <std::size_t j, std::size_t kVecs, class D, class DL, class T>
HWY_INLINE void GemmSmallStore(hn::Vec<GemmSmallTag<j, kVecs, D, DL>> v, D d, DL dl, bool full,
                               hn::Mask<DL> mask, T* p) {
  if constexpr (j + 1 < kVecs) {
    hn::StoreU(v, d, p);
  } else if (full) {
    hn::StoreU(v, dl, p);
  } else {
    StoreSelected(v, mask, dl, p);
  }
}

// C tile (kRows rows, nr columns: kVecs vectors of D, the last one holding the columns past
// (kVecs - 1)·lanes) = alpha·op(A)·B + beta·C over kc steps of k. op(A) row i, step p is
// a[i·a_row + p·a_col]; row p of B starts at b + p·ldb. With kHalfTail, the last vector is half
// of D's, for columns that fit there (kGemmSmallHalfTail). GemmSmallTile and GemmSmallTiles call
// it.
template <class D, std::size_t kRows, std::size_t kVecs, bool kHalfTail, class T = hn::TFromD<D>>
HWY_INLINE void GemmSmallTileBody(std::size_t kc, const T* HWY_RESTRICT a, std::size_t a_row,
                                  std::size_t a_col, const T* HWY_RESTRICT b, std::size_t ldb,
                                  T alpha, T beta, T* HWY_RESTRICT c, std::size_t ldc,
                                  std::size_t nr) {
  static_assert(kRows >= 1 && kRows <= kGemmSmallMaxRows && kVecs >= 1 &&
                kVecs <= kGemmSmallMaxVecs);
  using V = hn::Vec<D>;
  using DL = std::conditional_t<kHalfTail, hn::Half<D>, D>;
  const D d;
  const DL dl;
  const std::size_t lanes = hn::Lanes(d);
  const std::size_t last = nr - (kVecs - 1) * lanes;  // 1 .. Lanes(dl)
  const bool full = last == hn::Lanes(dl);
  const auto mask = hn::FirstN(dl, last);

#define COHERIQ_GEMM_TAG(j) GemmSmallTag<j, kVecs, D, DL>
#define COHERIQ_GEMM_ZERO_VEC(i, j) auto acc##i##_##j = hn::Zero(COHERIQ_GEMM_TAG(j)());
#define COHERIQ_GEMM_ZERO(i) COHERIQ_GEMM_SMALL_VECS(COHERIQ_GEMM_ZERO_VEC, i)
  COHERIQ_GEMM_SMALL_ROWS(COHERIQ_GEMM_ZERO)
#undef COHERIQ_GEMM_ZERO
#undef COHERIQ_GEMM_ZERO_VEC
  // Rows 4 apart share a base pointer, so that each broadcast is a base plus 0 to 3 row strides
  // (an index register and a scale) and the loop keeps its pointers in registers.
#define COHERIQ_GEMM_FMA_VEC(i, j) \
  if constexpr (j < kVecs)         \
    acc##i##_##j = hn::MulAdd(GemmSmallPart<COHERIQ_GEMM_TAG(j)>(ai), b##j, acc##i##_##j);
#define COHERIQ_GEMM_FMA(i)                                      \
  if constexpr (i < kRows) {                                     \
    const T* HWY_RESTRICT base = i < 4 ? a0 : (i < 8 ? a4 : a8); \
    const V ai = hn::Set(d, base[(i % 4) * a_row]);              \
    COHERIQ_GEMM_SMALL_VECS(COHERIQ_GEMM_FMA_VEC, i)             \
  }
  // Row p of B as vectors (the last one whole where `full_b`, a constant of each loop), those
  // past it unused. The loop over k is unrolled by 4 (each accumulator's sum keeps its order: the
  // same bits): its counter, pointer steps and branch were a fifth of a step's instructions for a
  // tile of 8 multiply-adds. What it gained, why not by 2, and its cost in code size:
  // docs/decisions.md, "The small tile's loop unrolled".
#define COHERIQ_GEMM_LOAD_B(j, full_b) \
  const auto b##j = GemmSmallLoad<j, kVecs>(d, dl, full_b, mask, b_row + j * lanes);
#define COHERIQ_GEMM_LOOP(full_b)                                \
  _Pragma("GCC unroll 4") for (std::size_t p = 0; p < kc; ++p) { \
    const T* HWY_RESTRICT b_row = b + p * ldb;                   \
    COHERIQ_GEMM_LOAD_B(0, full_b)                               \
    COHERIQ_GEMM_LOAD_B(1, full_b)                               \
    COHERIQ_GEMM_LOAD_B(2, full_b)                               \
    COHERIQ_GEMM_LOAD_B(3, full_b)                               \
    COHERIQ_GEMM_SMALL_ROWS(COHERIQ_GEMM_FMA)                    \
    a0 += a_col;                                                 \
    a4 += a_col;                                                 \
    a8 += a_col;                                                 \
  }
  const T* HWY_RESTRICT a0 = a;
  const T* HWY_RESTRICT a4 = a + (kRows > 4 ? 4 * a_row : 0);
  const T* HWY_RESTRICT a8 = a + (kRows > 8 ? 8 * a_row : 0);
  if (full) {
    COHERIQ_GEMM_LOOP(true)
  } else {
    COHERIQ_GEMM_LOOP(false)
  }
#undef COHERIQ_GEMM_LOOP
#undef COHERIQ_GEMM_LOAD_B
#undef COHERIQ_GEMM_FMA
#undef COHERIQ_GEMM_FMA_VEC

  // The packed microkernel's epilogue (alpha == 1 skips a multiply that would change no bit), in
  // two passes: every read of C before the first write. alpha and beta are tested once (kScale,
  // kRead, kAdd), not per row. Only the last vector of a row may be partial. beta == 1 (with
  // alpha == 1: C += op(A)·B) adds C on the adders rather than the multiply-add units, which the
  // tile keeps busy: fma(1, C, acc) is C + acc, bit for bit (a batch held in cache on the Zen 4
  // guest: f64 order 8 1.07x, f32 8 1.11x, f32 16 1.07x, f64 16 1.03x).
  const V valpha = hn::Set(d, alpha);
  const V vbeta = hn::Set(d, beta);
#define COHERIQ_GEMM_FINISH_VEC(i, j)                                                      \
  if constexpr (j < kVecs) {                                                               \
    if constexpr (kScale) {                                                                \
      acc##i##_##j = hn::Mul(GemmSmallPart<COHERIQ_GEMM_TAG(j)>(valpha), acc##i##_##j);    \
    }                                                                                      \
    if constexpr (kRead) {                                                                 \
      const auto ci = GemmSmallLoad<j, kVecs>(d, dl, full, mask, c + i * ldc + j * lanes); \
      acc##i##_##j =                                                                       \
          kAdd ? hn::Add(ci, acc##i##_##j)                                                 \
               : hn::MulAdd(GemmSmallPart<COHERIQ_GEMM_TAG(j)>(vbeta), ci, acc##i##_##j);  \
    }                                                                                      \
  }
#define COHERIQ_GEMM_FINISH(i)                          \
  if constexpr (i < kRows) {                            \
    COHERIQ_GEMM_SMALL_VECS(COHERIQ_GEMM_FINISH_VEC, i) \
  }
#define COHERIQ_GEMM_FINISH_ALL(scale_value, read_value, add_value) \
  {                                                                 \
    constexpr bool kScale = scale_value;                            \
    constexpr bool kRead = read_value;                              \
    constexpr bool kAdd = add_value;                                \
    COHERIQ_GEMM_SMALL_ROWS(COHERIQ_GEMM_FINISH)                    \
  }
  if (alpha != T(1)) {
    if (beta != T(0)) {
      COHERIQ_GEMM_FINISH_ALL(true, true, false)
    } else {
      COHERIQ_GEMM_FINISH_ALL(true, false, false)
    }
  } else if (beta == T(1)) {
    COHERIQ_GEMM_FINISH_ALL(false, true, true)
  } else if (beta != T(0)) {
    COHERIQ_GEMM_FINISH_ALL(false, true, false)
  }
#undef COHERIQ_GEMM_FINISH_ALL
#undef COHERIQ_GEMM_FINISH
#undef COHERIQ_GEMM_FINISH_VEC
#define COHERIQ_GEMM_PUT_VEC(i, j) \
  if constexpr (j < kVecs)         \
    GemmSmallStore<j, kVecs>(acc##i##_##j, d, dl, full, mask, c + i * ldc + j * lanes);
#define COHERIQ_GEMM_PUT(i)                          \
  if constexpr (i < kRows) {                         \
    COHERIQ_GEMM_SMALL_VECS(COHERIQ_GEMM_PUT_VEC, i) \
  }
  COHERIQ_GEMM_SMALL_ROWS(COHERIQ_GEMM_PUT)
#undef COHERIQ_GEMM_PUT
#undef COHERIQ_GEMM_PUT_VEC
#undef COHERIQ_GEMM_TAG
}

#undef COHERIQ_GEMM_SMALL_VECS
#undef COHERIQ_GEMM_SMALL_ROWS

// One tile of a product (GemmSmallTileBody).
template <class D, std::size_t kRows, std::size_t kVecs, bool kHalfTail, class T = hn::TFromD<D>>
HWY_NOINLINE void GemmSmallTile(std::size_t kc, const T* a, std::size_t a_row, std::size_t a_col,
                                const T* b, std::size_t ldb, T alpha, T beta, T* c, std::size_t ldc,
                                std::size_t nr) {
  GemmSmallTileBody<D, kRows, kVecs, kHalfTail>(kc, a, a_row, a_col, b, ldb, alpha, beta, c, ldc,
                                                nr);
}

// Products of one shape in a row, each `stride_*` elements past the one before.
struct GemmSmallRepeat {
  std::size_t count, stride_a, stride_b, stride_c;
};

// `repeat.count` products of one vector-wide tile each, in one call: a strided batch of a
// narrow plan's products (C at most half a vector wide, a few dozen multiply-adds each), whose
// call, set-up and tests of alpha and beta took as long as the product when made per product
// (order 4 on the Zen 4 guest: 1.9x faster in one call). Only the one-vector tiles have this
// form: with the loop in every tile, wider tiles kept more values live across it (integer
// registers spilled), and f64 order 24 ran 0.91x as fast in a call per product.
template <class D, std::size_t kRows, class T = hn::TFromD<D>>
HWY_NOINLINE void GemmSmallTiles(std::size_t kc, const T* a, std::size_t a_row, std::size_t a_col,
                                 const T* b, std::size_t ldb, T alpha, T beta, T* c,
                                 std::size_t ldc, std::size_t nr, GemmSmallRepeat repeat) {
  for (std::size_t i = 0; i < repeat.count; ++i) {
    GemmSmallTileBody<D, kRows, 1, false>(kc, a + i * repeat.stride_a, a_row, a_col,
                                          b + i * repeat.stride_b, ldb, alpha, beta,
                                          c + i * repeat.stride_c, ldc, nr);
  }
}

// `bands` bands of kRows rows each, one under the other, of `repeat.count` products, in one call
// (a plan's `bands_tile`): a product of one column of tiles whose rows divide into equal bands, or
// a strided batch of such products that fit one k-block, on records that ask for it
// (GemmTuning::small_bands_call). Each band is the tile's body, the same operations as a call of
// GemmSmallTile each: the same bits.
template <class D, std::size_t kRows, std::size_t kVecs, bool kHalfTail, class T = hn::TFromD<D>>
HWY_NOINLINE void GemmSmallBands(std::size_t kc, const T* a, std::size_t a_row, std::size_t a_col,
                                 const T* b, std::size_t ldb, T alpha, T beta, T* c,
                                 std::size_t ldc, std::size_t nr, std::size_t bands,
                                 GemmSmallRepeat repeat) {
  for (std::size_t i = 0; i < repeat.count; ++i) {
    for (std::size_t band = 0; band < bands; ++band) {
      GemmSmallTileBody<D, kRows, kVecs, kHalfTail>(
          kc, a + i * repeat.stride_a + band * kRows * a_row, a_row, a_col, b + i * repeat.stride_b,
          ldb, alpha, beta, c + i * repeat.stride_c + band * kRows * ldc, ldc, nr);
    }
  }
}

// How a small product of one shape is cut into tiles, worked out once (per gemm call, or once for
// a whole batch): C in column tiles of `width` (the last one `last_nr` wide), each in `bands`
// bands of rows, the first `rem` of q + 1 rows and the others of q (13 rows are 7 + 6, not
// 12 + 1), and the tile function of each kind. Running it makes no decision but the loops'.
template <class T>
struct GemmSmallPlan {
  using Tile = void (*)(std::size_t, const T*, std::size_t, std::size_t, const T*, std::size_t, T,
                        T, T*, std::size_t, std::size_t);
  using Tiles = void (*)(std::size_t, const T*, std::size_t, std::size_t, const T*, std::size_t, T,
                         T, T*, std::size_t, std::size_t, GemmSmallRepeat);
  Tile tile[2][2];  // [a band of q + 1 rows][the last column tile]
  Tiles tiles;  // a narrow or (small_bands_call) one-vector plan's one tile, repeating; else null
  using Bands = void (*)(std::size_t, const T*, std::size_t, std::size_t, const T*, std::size_t, T,
                         T, T*, std::size_t, std::size_t, std::size_t, GemmSmallRepeat);
  Bands bands_tile;  // every band of a one-column plan in one call (GemmSmallBands); else null
  std::size_t q, rem, bands, width, col_tiles, last_nr, lanes, a_row, a_col, k_block;
  bool transposed_b;  // op(B) columns are copied to a panel of `lanes` columns first
};

// The most rows a tile of `vecs` vectors holds in the ISA's registers, beside its row of B and one
// broadcast.
constexpr std::size_t GemmSmallRows(std::size_t vecs) {
  return GemmMin(kGemmSmallMaxRows, (kEngine.vector_registers - vecs - 1) / vecs);
}

// The widest tile the ISA's registers hold with at least 6 rows, or else 3 vectors of 4 rows: 4
// vectors with 32 registers, 3 with 16. A wider tile reads fewer broadcasts per multiply-add (4 x
// 6: 10 loads for 24; 2 x 11: 13 for 22; with 16 registers 3 x 4: 7 for 12, 2 x 6: 8), and a row of
// C that fits one tile has its row of B read whole at each step of k. With 16 registers a row of
// three vectors (f32 orders 17 to 24, f64 9 to 12) took a tile of two vectors and one of one, a
// load per multiply-add in the second; on three-vector tiles, with their bands in one call (avx2's
// record has the figures), f32 order 24 and f64 12 ran 1.2-1.4x as fast on a Zen 3 guest.
constexpr std::size_t kGemmSmallWidestVecs = GemmSmallRows(4) >= 6   ? 4
                                             : GemmSmallRows(3) >= 4 ? 3
                                                                     : 2;

// Wider C is cut into tiles of two vectors, as before the wider tiles: the bands of rows pass in
// turn over a tile's strip of B (a k-block by the tile's width), which a narrower tile keeps
// smaller. Cut into tiles of four vectors, f64 orders 96 and 128 ran 0.86-0.89x as fast on the
// Zen 4 guest (batches of 64 MiB), f32 order 128 1.04-1.06x.
constexpr std::size_t kGemmSmallStripVecs = 2;

// Whether a tile's last vector is half of D's where the columns it holds fit there: the engine's
// record says so (GemmTuning::small_half_tail: hosts whose widest operations run as two halves,
// where half a vector costs half, and AVX2 hosts, where columns that fill the half need no masked
// load or store), for vectors of 256 bits and more.
template <class D, class T = hn::TFromD<D>>
constexpr bool kGemmSmallHalfTail = (kTuning.gemm.of<T>().small_half_tail) &&
                                    (hn::MaxLanes(D()) * sizeof(T) >= 32);

// pick(std::integral_constant<std::size_t, r>) for the run-time `rows` <= kRows: the choice of a
// tile function (or a repeating one) by its number of rows, made once for both kinds.
template <std::size_t kRows, class Pick>
HWY_INLINE auto GemmSmallByRows(std::size_t rows, Pick pick) {
  if constexpr (kRows > 1) {
    if (rows < kRows) return GemmSmallByRows<kRows - 1>(rows, pick);
  }
  return pick(std::integral_constant<std::size_t, kRows>());
}

// The tile function of `vecs` <= kMaxVecs vectors and `rows` <= GemmSmallRows(vecs) rows (with
// kBands, its GemmSmallBands), its last vector half of D's when `half_tail` and the engine's record
// asks for it.
template <class D, std::size_t kMaxVecs, bool kBands = false, std::size_t kVecs = 1,
          class T = hn::TFromD<D>>
HWY_INLINE auto GemmSmallTileOf(std::size_t vecs, std::size_t rows, bool half_tail) {
  using Fn =
      std::conditional_t<kBands, typename GemmSmallPlan<T>::Bands, typename GemmSmallPlan<T>::Tile>;
  if constexpr (kVecs < kMaxVecs) {
    if (vecs > kVecs) return GemmSmallTileOf<D, kMaxVecs, kBands, kVecs + 1>(vecs, rows, half_tail);
  }
  const auto of = [rows](auto half) -> Fn {
    return GemmSmallByRows<GemmSmallRows(kVecs)>(rows, [](auto r) -> Fn {
      if constexpr (kBands) {
        return &GemmSmallBands<D, r(), kVecs, decltype(half)::value>;
      } else {
        return &GemmSmallTile<D, r(), kVecs, decltype(half)::value>;
      }
    });
  };
  if constexpr (kGemmSmallHalfTail<D>) {
    if (half_tail) return of(std::true_type());
  }
  return of(std::false_type());
}

// The plan on vectors of D (tb == Trans::T: one vector wide, its columns copied to a panel). C
// whose rows fit one tile of at most kMaxVecs vectors is one column of tiles; wider C is cut into
// tiles of kGemmSmallStripVecs.
template <bool kReproducible, std::size_t kMaxVecs, class D, class T = hn::TFromD<D>>
HWY_INLINE GemmSmallPlan<T> GemmSmallPlanOn(D d, Trans ta, Trans tb, std::size_t m, std::size_t n,
                                            std::size_t k, std::size_t lda) {
  GemmSmallPlan<T> p;
  p.lanes = hn::Lanes(d);
  p.transposed_b = tb == Trans::T;
  const std::size_t vecs = p.transposed_b ? 1 : (n + p.lanes - 1) / p.lanes;
  const std::size_t tile_vecs = vecs <= kMaxVecs ? vecs : GemmMin(kMaxVecs, kGemmSmallStripVecs);
  p.width = tile_vecs * p.lanes;
  // A product of one tile (the common case of a call per product) divides nothing: a division
  // by the run-time width or band count was a fifth of an order-8 f64 call's time.
  p.col_tiles = n <= p.width ? 1 : (n + p.width - 1) / p.width;
  p.last_nr = n - (p.col_tiles - 1) * p.width;
  const std::size_t most_rows = GemmSmallRows(tile_vecs);
  p.bands = m <= most_rows ? 1 : (m + most_rows - 1) / most_rows;
  p.q = p.bands == 1 ? m : m / p.bands;
  p.rem = m - p.q * p.bands;
  p.a_row = ta == Trans::N ? lda : 1;
  p.a_col = ta == Trans::N ? 1 : lda;
  // The packed path's k-blocks: one block when k fits one.
  p.k_block = k <= kGemmKC<T, kReproducible> ? k : GemmKBlock<T, kReproducible>(k);
  // The tiles the product runs: bands of q + 1 rows only when m leaves a remainder, the full
  // width only when there are several column tiles (GemmSmallRun); the others stay null.
  for (std::size_t big = 0; big < 2; ++big) {
    for (std::size_t last = 0; last < 2; ++last) {
      const bool used = (big == 0 || p.rem != 0) && (last == 1 || p.col_tiles > 1);
      const std::size_t nr = last ? p.last_nr : p.width;
      const std::size_t nr_vecs = (nr + p.lanes - 1) / p.lanes;
      const bool half_tail = nr - (nr_vecs - 1) * p.lanes <= p.lanes / 2;
      p.tile[big][last] =
          used ? GemmSmallTileOf<D, kMaxVecs>(nr_vecs, p.q + big, half_tail) : nullptr;
    }
  }
  p.tiles = nullptr;
  // Every band in one call: one column tile (its last, p.tile[0][1]'s width) in equal bands; and a
  // product of one tile of one vector repeats in a strided batch, as a narrow plan's does. Only
  // records that ask for it have the functions.
  p.bands_tile = nullptr;
  if constexpr (kTuning.gemm.of<T>().small_bands_call) {
    if (p.col_tiles == 1 && p.bands > 1 && p.rem == 0) {
      const std::size_t nr_vecs = (p.last_nr + p.lanes - 1) / p.lanes;
      const bool half_tail = p.last_nr - (nr_vecs - 1) * p.lanes <= p.lanes / 2;
      p.bands_tile = GemmSmallTileOf<D, kMaxVecs, true>(nr_vecs, p.q, half_tail);
    }
    if (p.col_tiles == 1 && p.bands == 1 && p.width == p.lanes && !p.transposed_b) {
      p.tiles = GemmSmallByRows<GemmSmallRows(1)>(
          p.q, [](auto r) -> typename GemmSmallPlan<T>::Tiles { return &GemmSmallTiles<D, r()>; });
    }
  }
  return p;
}

// A narrow plan (C at most a quarter or half of D's vector wide): one vector wide, and a product
// of one tile also has its repeating tile function.
template <bool kReproducible, class D, class T = hn::TFromD<D>>
HWY_INLINE GemmSmallPlan<T> GemmSmallNarrowPlan(D d, Trans ta, Trans tb, std::size_t m,
                                                std::size_t n, std::size_t k, std::size_t lda) {
  GemmSmallPlan<T> p = GemmSmallPlanOn<kReproducible, 1>(d, ta, tb, m, n, k, lda);
  if (p.bands == 1) {
    p.tiles = GemmSmallByRows<GemmSmallRows(1)>(
        p.q, [](auto r) -> typename GemmSmallPlan<T>::Tiles { return &GemmSmallTiles<D, r()>; });
  }
  return p;
}

// The plan for a product whose op(B) is as stored (tb == Trans::N): narrow C on a quarter or
// half vector, down to 128 bits (fixed-width targets of 256 bits and more).
template <class T, bool kReproducible>
HWY_INLINE GemmSmallPlan<T> GemmSmallPlanFor(Trans ta, Trans tb, std::size_t m, std::size_t n,
                                             std::size_t k, std::size_t lda) {
  using Shape = GemmShape<T>;
  if constexpr (!Shape::kScalable && Shape::kLanes * sizeof(T) >= 32) {
    constexpr std::size_t kQuarter = Shape::kLanes / 4 * sizeof(T) >= 16 ? Shape::kLanes / 4 : 0;
    constexpr std::size_t kHalf = Shape::kLanes / 2;
    if (tb == Trans::N) {
      if constexpr (kQuarter != 0) {
        if (n <= kQuarter) {
          return GemmSmallNarrowPlan<kReproducible>(hn::CappedTag<T, kQuarter>(), ta, tb, m, n, k,
                                                    lda);
        }
      }
      if (n <= kHalf) {
        return GemmSmallNarrowPlan<kReproducible>(hn::CappedTag<T, kHalf>(), ta, tb, m, n, k, lda);
      }
    }
  }
  return GemmSmallPlanOn<kReproducible, kGemmSmallWidestVecs>(typename Shape::D(), ta, tb, m, n, k,
                                                              lda);
}

// The next product of a batch (GemmSmallBatch), whose operands a product asks for as it goes:
// before each tile, the part of the next product's operands that the same tile reads first. The
// requests are spread over the product, not issued at once: a burst of them at the start held
// up the product's own loads (a Zen 3 guest, orders 24 to 48).
template <class T>
struct GemmSmallNext {
  const T* a;
  const T* b;
  const T* c;
};

// Whether a product is one tile and one k-block (m <= 12, n within two vectors, op(B) as
// stored): its tile function alone computes it.
template <class T>
HWY_INLINE bool GemmSmallIsOneTile(const GemmSmallPlan<T>& p, std::size_t k) {
  return p.bands == 1 && p.col_tiles == 1 && k <= p.k_block && !p.transposed_b;
}

// One product by its plan. `panel` (k-block x lanes) receives a transposed B's columns. `next`,
// when not null, is prefetched tile by tile.
template <class T>
HWY_INLINE void GemmSmallRun(const GemmSmallPlan<T>& p, std::size_t k, T alpha,
                             const T* HWY_RESTRICT A, const T* HWY_RESTRICT B, std::size_t ldb,
                             T beta, T* HWY_RESTRICT C, std::size_t ldc, T* HWY_RESTRICT panel,
                             const GemmSmallNext<T>* next = nullptr) {
  if (GemmSmallIsOneTile(p, k)) {
    if (next != nullptr) {
      const std::size_t m = p.q, lda = p.a_col * p.a_row;
      prefetch_rows(next->a, p.a_col == 1 ? m : k, p.a_col == 1 ? k : m, lda);
      prefetch_rows(next->b, k, p.last_nr, ldb);
      prefetch_rows(next->c, m, p.last_nr, ldc);
    }
    return p.tile[0][1](k, A, p.a_row, p.a_col, B, ldb, alpha, beta, C, ldc, p.last_nr);
  }
  for (std::size_t pc = 0; pc < k; pc += p.k_block) {
    const std::size_t kc = GemmMin(p.k_block, k - pc);
    const T block_beta = pc == 0 ? beta : T(1);
    for (std::size_t jt = 0; jt < p.col_tiles; ++jt) {
      const std::size_t j0 = jt * p.width;
      const std::size_t last = jt + 1 == p.col_tiles ? 1 : 0;
      const std::size_t nr = last ? p.last_nr : p.width;
      // This column tile's B: kc rows of nr columns, as stored (a transposed B: nr rows of kc).
      const std::size_t b_at = p.transposed_b ? j0 * ldb + pc : pc * ldb + j0;
      if (next != nullptr) {
        prefetch_rows(next->b + b_at, p.transposed_b ? nr : kc, p.transposed_b ? kc : nr, ldb);
      }
      const T* b = B + b_at;
      std::size_t b_ld = ldb;
      if (p.transposed_b) {
        for (std::size_t q = 0; q < kc; ++q) {
          for (std::size_t j = 0; j < nr; ++j) panel[q * p.lanes + j] = b[j * ldb + q];
        }
        b = panel;
        b_ld = p.lanes;
      }
      const T* a = A + pc * p.a_col;
      T* c = C + j0;
      if (p.bands_tile != nullptr && next == nullptr) {
        p.bands_tile(kc, a, p.a_row, p.a_col, b, b_ld, alpha, block_beta, c, ldc, nr, p.bands,
                     {1, 0, 0, 0});
        continue;
      }
      for (std::size_t band = 0; band < p.bands; ++band) {
        const std::size_t big = band < p.rem ? 1 : 0;
        const std::size_t rows = p.q + big;
        if (next != nullptr) {
          // The band's op(A) (rows x kc; stored as kc x rows when transposed) the first time
          // it is read, and its tile of C in the first k-block.
          if (jt == 0) {
            prefetch_rows(next->a + (a - A), p.a_col == 1 ? rows : kc, p.a_col == 1 ? kc : rows,
                          p.a_col * p.a_row);
          }
          if (pc == 0) prefetch_rows(next->c + (c - C), rows, nr, ldc);
        }
        p.tile[big][last](kc, a, p.a_row, p.a_col, b, b_ld, alpha, block_beta, c, ldc, nr);
        a += rows * p.a_row;
        c += rows * ldc;
      }
    }
  }
}

// A transposed B's panel (up to a k-block of vectors: 36 KiB for zen5's f32) lives on the stack
// of these functions only, out of the way of the other path's frame.
template <class T>
HWY_NOINLINE void GemmSmallTransposedB(const GemmSmallPlan<T>& p, std::size_t k, T alpha,
                                       const T* A, const T* B, std::size_t ldb, T beta, T* C,
                                       std::size_t ldc) {
  HWY_ALIGN T panel[GemmShape<T>::kKC * GemmShape<T>::kLanes];
  GemmSmallRun(p, k, alpha, A, B, ldb, beta, C, ldc, panel);
}

// One product by its plan, with a stack panel when op(B) is transposed.
template <class T>
HWY_INLINE void GemmSmallProduct(const GemmSmallPlan<T>& p, std::size_t k, T alpha, const T* A,
                                 const T* B, std::size_t ldb, T beta, T* C, std::size_t ldc) {
  if (p.transposed_b) return GemmSmallTransposedB(p, k, alpha, A, B, ldb, beta, C, ldc);
  GemmSmallRun(p, k, alpha, A, B, ldb, beta, C, ldc, static_cast<T*>(nullptr));
}

// A product whose C is one contiguous column (n == 1, ldc == 1, m > 1) and whose op(A) is Aᵀ (A
// stored k x m, its rows along C) runs as its transpose, one row: Cᵀ = op(B)ᵀ·A, 1 x m, op(B)'s
// k values broadcast and A's rows read along as vectors, instead of m rows of one column (a
// vector an element, one lane of it in use, and A read down its columns). Each element is the
// same chain of multiply-adds over k, each product's two factors exchanged: the same bits. The
// row's op(A) is op(B)ᵀ: B stored k x 1 (Trans::N) read as Trans::T, or 1 x k as Trans::N.
// GemmSmallOriented gives the shape the small path runs, `swapped` when A's and B's operands
// change places.
struct GemmSmallShape {
  Trans ta, tb;
  std::size_t m, n, lda, ldb, ldc;
  bool swapped;
};
HWY_INLINE GemmSmallShape GemmSmallOriented(Trans ta, Trans tb, std::size_t m, std::size_t n,
                                            std::size_t lda, std::size_t ldb, std::size_t ldc) {
  if (n == 1 && ldc == 1 && m > 1 && ta == Trans::T) {
    return {tb == Trans::N ? Trans::T : Trans::N, Trans::N, 1, m, ldb, lda, m, true};
  }
  return {ta, tb, m, n, lda, ldb, ldc, false};
}

template <class T, bool kReproducible>
HWY_NOINLINE void GemmSmall(Trans ta, Trans tb, std::size_t m, std::size_t n, std::size_t k,
                            T alpha, const T* A, std::size_t lda, const T* B, std::size_t ldb,
                            T beta, T* C, std::size_t ldc) {
  const GemmSmallShape s = GemmSmallOriented(ta, tb, m, n, lda, ldb, ldc);
  GemmSmallProduct(GemmSmallPlanFor<T, kReproducible>(s.ta, s.tb, s.m, s.n, k, s.lda), k, alpha,
                   s.swapped ? B : A, s.swapped ? A : B, s.ldb, beta, C, s.ldc);
}

// ------------------------------ Candidates
// Each GEMM candidate is a template over kReproducible, false for the engine's table, true for its
// table of the reproducible mode (engines/generic/reproducible-inl.h).

// The packed path's workspace: the A block, then one packed k-block of op(B).
template <class T, bool kReproducible>
HWY_INLINE std::size_t GemmPackedWorkspace(std::size_t m, std::size_t n, std::size_t k) {
  return GemmABlockBytes<T, kReproducible>(m, k) + GemmMin(k, GemmKBlock<T, kReproducible>(k)) *
                                                       GemmRoundUp(n, GemmShape<T>::NR()) *
                                                       sizeof(T);
}

// The packed path (k > 0) in GemmPackedWorkspace's bytes at `workspace`; A and B of T, or of a
// type the packing widens to T (gemm_bf16); the tiles `part` says (GemmTriangle: gemmt).
template <class T, bool kReproducible, class SA, class SB, class Part = GemmWhole>
HWY_INLINE void GemmPackedPath(Trans ta, Trans tb, std::size_t m, std::size_t n, std::size_t k,
                               T alpha, const SA* A, std::size_t lda, const SB* B, std::size_t ldb,
                               T beta, T* C, std::size_t ldc, void* workspace, Part part = {}) {
  T* a_work = static_cast<T*>(workspace);
  T* b_work = reinterpret_cast<T*>(static_cast<unsigned char*>(workspace) +
                                   GemmABlockBytes<T, kReproducible>(m, k));
  GemmLoops<T, kReproducible>(ta, tb, m, n, k, alpha, A, lda, B, ldb, nullptr, beta, C, ldc, a_work,
                              GemmShape<T>::kMC, b_work, part);
}

template <class T, bool kReproducible = false>
std::size_t gemm_workspace(std::size_t m, std::size_t n, std::size_t k) {
  if (m == 0 || n == 0 || k == 0 || GemmIsSmall<T>(m, n, k)) return 0;
  return GemmPackedWorkspace<T, kReproducible>(m, n, k);
}

template <class T, bool kReproducible = false>
void gemm(Trans ta, Trans tb, std::size_t m, std::size_t n, std::size_t k, T alpha, const T* A,
          std::size_t lda, const T* B, std::size_t ldb, T beta, T* C, std::size_t ldc,
          void* workspace) {
  if (m == 0 || n == 0) return;
  if (k == 0) return GemmScaleC(m, n, beta, C, ldc);
  if (GemmRunsUnpacked<T, kReproducible>(tb, m, n, k, ldb)) {
    return GemmSmall<T, kReproducible>(ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
  }
  GemmPackedPath<T, kReproducible>(ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc, workspace);
}

// The `uplo` triangle of C (n x n elements `width` columns wide) = alpha·op(A)·op(B) + beta·C,
// every column as gemm computes it: the packed path for every size (its bits are the small
// path's), the tiles off the triangle skipped (GemmTriangleTile), so about half of gemm's work
// for a square.
// C = beta·C on the triangle of C (n rows), for k == 0.
template <class T>
HWY_INLINE void GemmScaleTriangle(GemmTriangle part, std::size_t n, T beta, T* HWY_RESTRICT C,
                                  std::size_t ldc) {
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t lo = part.first(i), hi = GemmMin(part.past(i), part.width * n);
    GemmScaleC(1, hi - lo, beta, C + i * ldc + lo, ldc);
  }
}

template <class T, bool kReproducible = false>
std::size_t gemmt_workspace(std::size_t n, std::size_t width, std::size_t k) {
  return n == 0 || k == 0 ? 0 : GemmPackedWorkspace<T, kReproducible>(n, width * n, k);
}

template <class T, bool kReproducible = false>
void gemmt(Uplo uplo, Trans ta, Trans tb, std::size_t n, std::size_t width, std::size_t k, T alpha,
           const T* A, std::size_t lda, const T* B, std::size_t ldb, T beta, T* C, std::size_t ldc,
           void* workspace) {
  if (n == 0) return;
  const GemmTriangle part{uplo, width};
  if (k == 0) return GemmScaleTriangle(part, n, beta, C, ldc);
  GemmPackedPath<T, kReproducible>(ta, tb, n, width * n, k, alpha, A, lda, B, ldb, beta, C, ldc,
                                   workspace, part);
}

// ------------------------------ The symmetric product: symm on GEMM's loops

// C := alpha·A·B + beta·C (Left, A of order m) or alpha·B·A + beta·C (Right, order n), A
// symmetric, given by its `uplo` triangle: gemm's loops (GemmBlocks) with A packed from that
// triangle as op(A) (Left) or op(B) (Right), so gemm's bits for the matrix written in full.
// Element (r, c) of A is stored at (r, c) when c <= r (Lower) or c >= r (Upper), else at (c, r).
// A block wholly on one side of the diagonal is packed as stored or transposed (GEMM's own
// packing, reading rows of A either way); one across it is packed as stored and its mirrored
// entries then copied over from their rows (row l of A holds those of column l), SymmMirror.

// Whether element (r, c) of A is read from (c, r).
HWY_INLINE bool SymmMirrored(Uplo uplo, std::size_t r, std::size_t c) {
  return uplo == Uplo::Lower ? c > r : c < r;
}

// The mirrored entries of rows [r0, r1) x columns [c0, c1) of A, already packed as stored: for
// each column c, row c of A's elements at (c, r), written to at(r, c).
template <class T, class At>
HWY_INLINE void SymmMirror(Uplo uplo, const T* HWY_RESTRICT A, std::size_t lda, std::size_t r0,
                           std::size_t r1, std::size_t c0, std::size_t c1, At at) {
  for (std::size_t c = c0; c < c1; ++c) {
    const T* HWY_RESTRICT row = A + c * lda;
    // Mirrored: r < c (Lower) or r > c (Upper).
    const std::size_t lo = uplo == Uplo::Lower ? r0 : GemmMin(r1, c + 1 > r0 ? c + 1 : r0);
    const std::size_t hi = uplo == Uplo::Lower ? GemmMin(r1, c > r0 ? c : r0) : r1;
    for (std::size_t r = lo; r < hi; ++r) at(r, c) = row[r];
  }
}

template <class T, bool kReproducible = false>
std::size_t symm_packed_workspace(Side side, std::size_t m, std::size_t n) {
  if (m == 0 || n == 0) return 0;
  return GemmPackedWorkspace<T, kReproducible>(m, n, side == Side::Left ? m : n);
}

template <class T, bool kReproducible = false>
void symm_packed(Side side, Uplo uplo, std::size_t m, std::size_t n, T alpha, const T* A,
                 std::size_t lda, const T* B, std::size_t ldb, T beta, T* C, std::size_t ldc,
                 void* workspace) {
  if (m == 0 || n == 0) return;
  using Shape = GemmShape<T>;
  const std::size_t order = side == Side::Left ? m : n;
  T* a_work = static_cast<T*>(workspace);
  T* b_work = reinterpret_cast<T*>(static_cast<unsigned char*>(workspace) +
                                   GemmABlockBytes<T, kReproducible>(m, order));
  if (side == Side::Left) {
    const auto pack_a = [&](std::size_t ic, std::size_t mc, std::size_t pc,
                            std::size_t kc) HWY_ATTR {
      // Wholly as stored when its corner nearest the mirrored side is, wholly mirrored when its
      // corner nearest the stored side is.
      const std::size_t r1 = ic + mc, c1 = pc + kc;
      const bool lower = uplo == Uplo::Lower;
      if (!SymmMirrored(uplo, lower ? ic : r1 - 1, lower ? c1 - 1 : pc)) {
        return GemmPackA(Trans::N, A, lda, ic, mc, pc, kc, a_work);
      }
      if (SymmMirrored(uplo, lower ? r1 - 1 : ic, lower ? pc : c1 - 1)) {
        return GemmPackA(Trans::T, A, lda, ic, mc, pc, kc, a_work);
      }
      GemmPackA(Trans::N, A, lda, ic, mc, pc, kc, a_work);
      SymmMirror(uplo, A, lda, ic, r1, pc, c1, [&](std::size_t r, std::size_t c) HWY_ATTR -> T& {
        return a_work[GemmPackedAAt<T>(kc, r - ic, c - pc)];
      });
    };
    const auto pack_b = [&](std::size_t pc, std::size_t kc) HWY_ATTR -> const T* {
      GemmPackB(Trans::N, B, ldb, n, pc, kc, b_work);
      return b_work;
    };
    return GemmBlocks<T, kReproducible>(m, n, m, alpha, pack_a, pack_b, beta, C, ldc, a_work,
                                        Shape::kMC);
  }
  const std::size_t nr = Shape::NR();
  const auto pack_a = [&](std::size_t ic, std::size_t mc, std::size_t pc, std::size_t kc)
                          HWY_ATTR { GemmPackA(Trans::N, B, ldb, ic, mc, pc, kc, a_work); };
  // Rows [pc, pc + kc) of A: the columns before the diagonal block's panels (stored for Lower,
  // mirrored for Upper), its panels, and those after, each range from a panel's start.
  const auto pack_b = [&](std::size_t pc, std::size_t kc) HWY_ATTR -> const T* {
    const std::size_t c1 = pc / nr * nr, c2 = GemmMin(n, GemmRoundUp(pc + kc, nr));
    const bool lower = uplo == Uplo::Lower;
    const auto range = [&](std::size_t c0, std::size_t c_end, Trans t) HWY_ATTR {
      if (c0 < c_end) {
        GemmPackB(t, t == Trans::N ? A + c0 : A + c0 * lda, lda, c_end - c0, pc, kc,
                  b_work + (c0 / nr) * kc * nr);
      }
    };
    range(0, c1, lower ? Trans::N : Trans::T);
    range(c1, c2, Trans::N);
    range(c2, n, lower ? Trans::T : Trans::N);
    // In the middle, element (p, c) of A is mirrored when c > p (Lower) or c < p: at (c, p).
    SymmMirror(uplo, A, lda, pc, pc + kc, c1, c2, [&](std::size_t r, std::size_t c) HWY_ATTR -> T& {
      return b_work[GemmPackedBAt<T>(kc, r - pc, c)];
    });
    return b_work;
  };
  GemmBlocks<T, kReproducible>(m, n, n, alpha, pack_a, pack_b, beta, C, ldc, a_work, Shape::kMC);
}

// ------------------------------ The triangular product: trmm on GEMM's loops

// B := alpha·op(A)·B (Left, op(A) of order m) or alpha·B·op(A) (Right, order n), in place, op(A)
// triangular: GEMM's loops with op(A) as the packed A block (Left) or the packed k-block of the
// other operand (Right), B as the other operand and as C. One pass, as BLIS runs it: each k-block
// of the order is packed once, the blocks in the order that packs B's rows (Left) or columns
// (Right) before any of them is written: for op(A) lower, from the last block to the first on the
// Left and from the first to the last on the Right; upper, the other way. So each element of B
// takes first the k-block holding its own row (Left) or column (Right), the diagonal block, as C =
// alpha·acc (beta 0), then the blocks away from it as C + alpha·acc (beta 1). In the diagonal
// block op(A) is packed whole (the other triangle's storage read with it) and each tile runs only
// the k-steps its elements' sums span, from a multiple of the k group, the entries it reads off
// the triangle replaced by zeros and a Unit diagonal by ones (TrmmMaskA, TrmmMaskB): the steps
// a tile runs beyond an element's triangle are products with zero, which leave an FMA chain from
// +0 as it was (its operands are finite: the blocked trmm's condition), so every element has the
// canonical sum of its triangle on every engine (kernels/reproducible.hpp). The packing and the
// microkernel are GEMM's.
//
// The complex trmm (trmm_1m) is the same pass on the complex matrices as reals, BLIS's 1m method
// as gemm_1m runs it: kWidth = 2 reals per element. Left, the A block is op(A) as reals (A',
// GemmPackA1m) and the k-block the expansion of alpha·B (GemmPackB1m, op(A)'s conjugation in its
// signs); Right, the A block is B as reals and the k-block the expansion of alpha·op(A). A k-step
// is a real, two to an element of the order, and the k-blocks are even, so an element's two steps
// lie in one block; alpha is in the expansion and the macro-kernel's alpha is 1. A Unit diagonal
// entry of the expansion is alpha's (Right); of A', 1 and 0 (Left).

// The scalars of a pass: the real trmm's alpha (kWidth 1), or the complex one's parts (kWidth 2),
// with op(A)'s Op (its conjugation, for the complex expansion).
template <class T, std::size_t kWidth>
struct TrmmScalars {
  Op op;
  T alpha_re, alpha_im;
  // The macro-kernel's alpha: the real alpha, or 1 (the complex alpha is in the expansion).
  T macro_alpha() const { return kWidth == 1 ? alpha_re : T(1); }
  bool transposed() const { return op == Op::T || op == Op::C; }
  bool conjugated() const { return op == Op::C || op == Op::Conj; }
};

// The diagonal block's entries that a tile reads off op(A)'s triangle, set to 0, and a Unit
// diagonal's to unit[0, kWidth): of the row or column `index` (an element of the order: its kWidth
// k-steps from kWidth·index), the steps [begin, end) of its tile's span (TrmmMaskA: rows of a
// packed A block, GemmPackA's layout; TrmmMaskB: columns of packed panels, GemmPackB's layout),
// entry(p) being step p's. Entry (r, p) of a row is outside when p's element is past r (lower) or
// before it (upper). Only the spans: the rest of the block is packed but never read (masking the
// whole block cost up to 8% of a dtrmm of order 1024 on a Zen 4 guest).
template <class T, std::size_t kWidth, class Entry>
HWY_INLINE void TrmmMask(bool lower, Diag diag, std::size_t index, std::size_t begin,
                         std::size_t end, const T* unit, Entry entry) {
  const std::size_t first = kWidth * index, past = first + kWidth;
  const std::size_t lo = lower ? GemmMin(begin > past ? begin : past, end) : begin;
  const std::size_t hi = lower ? end : GemmMin(first, end);
  for (std::size_t p = lo; p < hi; ++p) entry(p) = T(0);
  if (diag == Diag::Unit) {
    for (std::size_t w = 0; w < kWidth; ++w) {
      if (first + w >= begin && first + w < end) entry(first + w) = unit[w];
    }
  }
}
// Rows [row0, row0 + mc) of the diagonal block, packed, each micro-panel over span(its first row,
// its rows). A Unit diagonal's entries are 1 (and 0 for an imaginary part).
template <class T, std::size_t kWidth, class Span>
HWY_INLINE void TrmmMaskA(bool lower, Diag diag, std::size_t row0, std::size_t mc, std::size_t kc,
                          T* HWY_RESTRICT a_block, Span span) {
  constexpr std::size_t kMR = GemmShape<T>::kMR;
  const T unit[2] = {T(1), T(0)};
  for (std::size_t r0 = 0; r0 < mc; r0 += kMR) {
    const std::size_t mr = GemmMin(kMR, mc - r0);
    const GemmSpan s = span(row0 + r0, mr);
    for (std::size_t r = r0; r < r0 + mr; ++r) {
      TrmmMask<T, kWidth>(lower, diag, row0 + r, s.begin, s.end, unit,
                          [&](std::size_t p) -> T& { return a_block[GemmPackedAAt<T>(kc, r, p)]; });
    }
  }
}
// The kc x kc diagonal block, packed in panels, each over span(its first column, its columns):
// column c's entries are (p, c), outside when c's element is past p's (lower) or before it. A
// Unit diagonal's entries are 1, or in the complex expansion alpha's: column 2l (real parts)
// [re alpha, -im alpha] and column 2l + 1 [im alpha, re alpha] in rows 2l and 2l + 1, as the
// expansion of alpha·1 has them.
template <class T, std::size_t kWidth, class Span>
HWY_INLINE void TrmmMaskB(bool lower, Diag diag, std::size_t kc, T* HWY_RESTRICT panels, Span span,
                          const TrmmScalars<T, kWidth>& scalars) {
  const std::size_t nr = GemmShape<T>::NR();
  const T units[2][2] = {{kWidth == 1 ? T(1) : scalars.alpha_re, -scalars.alpha_im},
                         {scalars.alpha_im, scalars.alpha_re}};
  for (std::size_t j0 = 0; j0 < kc; j0 += nr) {
    const std::size_t w = GemmMin(nr, kc - j0);
    const GemmSpan s = span(j0, w);
    for (std::size_t j = j0; j < j0 + w; ++j) {
      // Column c is outside for p's element before c's (lower) or past it: the row's rule with
      // the sides swapped.
      TrmmMask<T, kWidth>(!lower, diag, j / kWidth, s.begin, s.end, units[j % kWidth],
                          [&](std::size_t p) -> T& { return panels[GemmPackedBAt<T>(kc, p, j)]; });
    }
  }
}

// step(pc, kc) for each k-block of a product of depth `order`, first to last or last to first.
template <class T, bool kReproducible, class Step>
HWY_INLINE void TrmmKBlocks(std::size_t order, bool backwards, Step step) {
  const std::size_t k_block = GemmKBlock<T, kReproducible>(order);
  const std::size_t blocks = (order + k_block - 1) / k_block;
  for (std::size_t b = 0; b < blocks; ++b) {
    const std::size_t pc = (backwards ? blocks - 1 - b : b) * k_block;
    step(pc, GemmMin(k_block, order - pc));
  }
}

// Left: the A block is op(A)'s rows, the k-block B's rows [pc, pc + kc), packed for all n columns.
// m, n and the leading dimensions count elements (kWidth reals each); pc and kc count reals.
template <class T, bool kReproducible, std::size_t kWidth>
HWY_INLINE void TrmmLeft(bool lower, Diag diag, std::size_t m, std::size_t n,
                         const TrmmScalars<T, kWidth>& scalars, const T* HWY_RESTRICT A,
                         std::size_t lda, T* HWY_RESTRICT B, std::size_t ldb,
                         T* HWY_RESTRICT a_work, T* HWY_RESTRICT b_work) {
  using Shape = GemmShape<T>;
  constexpr std::size_t kG = Shape::kKGroup;
  const std::size_t nc_max = Shape::NC();
  const Trans ta = scalars.transposed() ? Trans::T : Trans::N;
  const std::size_t width = kWidth * n, ldb_reals = kWidth * ldb;
  TrmmKBlocks<T, kReproducible>(kWidth * m, lower, [&](std::size_t pc, std::size_t kc) HWY_ATTR {
    if constexpr (kWidth == 1) {
      GemmPackB(Trans::N, B, ldb, n, pc, kc, b_work);
    } else {
      GemmPackB1m(Op::N, scalars.conjugated(), B, ldb, n, pc, kc, scalars.alpha_re,
                  scalars.alpha_im, b_work);
    }
    // A micro-panel's span from its first row and its rows, counted in the diagonal block: to
    // past the last (lower) or from the first rounded down to the group (upper).
    const auto diagonal_span = [&](std::size_t r, std::size_t mr) {
      return lower ? GemmSpan{0, GemmMin(kc, kWidth * (r + mr))}
                   : GemmSpan{kWidth * r / kG * kG, kc};
    };
    const std::size_t first_row = pc / kWidth, past_row = (pc + kc) / kWidth;
    const auto span = [&](std::size_t i, std::size_t mr, std::size_t, std::size_t) {
      return diagonal_span(i - first_row, mr);
    };
    // Rows [r0, r1): the diagonal block's (GemmSpans, overwritten) or beside it (GemmWhole,
    // added to).
    const auto rows = [&](std::size_t r0, std::size_t r1, auto part) HWY_ATTR {
      constexpr bool kDiagonal = !std::is_same_v<decltype(part), GemmWhole>;
      for (std::size_t ic = r0; ic < r1; ic += Shape::kMC) {
        const std::size_t mc = GemmMin(Shape::kMC, r1 - ic);
        if constexpr (kWidth == 1) {
          GemmPackA(ta, A, lda, ic, mc, pc, kc, a_work);
        } else {
          GemmPackA1m(ta, A, lda, ic, mc, pc, kc, a_work);
        }
        if constexpr (kDiagonal) {
          TrmmMaskA<T, kWidth>(lower, diag, ic - first_row, mc, kc, a_work, diagonal_span);
        }
        for (std::size_t jc = 0; jc < width; jc += nc_max) {
          GemmMacroKernel(mc, GemmMin(nc_max, width - jc), kc, a_work, b_work + jc * kc,
                          scalars.macro_alpha(), kDiagonal ? T(0) : T(1), B + ic * ldb_reals + jc,
                          ldb_reals, part, ic, jc);
        }
      }
    };
    rows(first_row, past_row, GemmSpans<decltype(span)>{span});
    if (lower) {
      rows(past_row, m, GemmWhole{});
    } else {
      rows(0, first_row, GemmWhole{});
    }
  });
}

// Right: the A block is B's rows, columns [pc, pc + kc); the k-block op(A)'s rows [pc, pc + kc),
// its diagonal block (columns [pc, pc + kc)) and the rest of the columns that take it (lower:
// those before, upper: after) packed apart, each from a panel's start. Counted as TrmmLeft.
template <class T, bool kReproducible, std::size_t kWidth>
HWY_INLINE void TrmmRight(bool lower, Diag diag, std::size_t m, std::size_t n,
                          const TrmmScalars<T, kWidth>& scalars, const T* HWY_RESTRICT A,
                          std::size_t lda, T* HWY_RESTRICT B, std::size_t ldb,
                          T* HWY_RESTRICT a_work, T* HWY_RESTRICT b_work) {
  using Shape = GemmShape<T>;
  constexpr std::size_t kG = Shape::kKGroup;
  const std::size_t nr = Shape::NR(), nc_max = Shape::NC();
  const Trans ta = scalars.transposed() ? Trans::T : Trans::N;
  const std::size_t order = kWidth * n, ldb_reals = kWidth * ldb;
  // Op(A)'s columns [c0, c0 + count) (counted in reals) packed for its rows [pc, pc + kc): column
  // c of op(A) is column c (N) or row c (T, C) of A.
  const auto pack = [&](std::size_t c0, std::size_t count, std::size_t pc, std::size_t kc,
                        T* HWY_RESTRICT to) HWY_ATTR {
    const std::size_t element = c0 / kWidth;
    const T* column = A + kWidth * (ta == Trans::N ? element : element * lda);
    if constexpr (kWidth == 1) {
      GemmPackB(ta, column, lda, count, pc, kc, to);
    } else {
      GemmPackB1m(scalars.op, false, column, lda, count / kWidth, pc, kc, scalars.alpha_re,
                  scalars.alpha_im, to);
    }
  };
  TrmmKBlocks<T, kReproducible>(order, !lower, [&](std::size_t pc, std::size_t kc) HWY_ATTR {
    const std::size_t rest0 = lower ? 0 : pc + kc, rest = lower ? pc : order - pc - kc;
    T* HWY_RESTRICT diagonal = b_work;
    T* HWY_RESTRICT beside = b_work + kc * GemmRoundUp(kc, nr);
    // A tile's span from its first column and its columns, counted in the diagonal block: from
    // the first rounded down to the group (lower) or to past the last (upper).
    const auto diagonal_span = [&](std::size_t j, std::size_t w) {
      return lower ? GemmSpan{j / kG * kG, kc} : GemmSpan{0, GemmMin(kc, j + w)};
    };
    pack(pc, kc, pc, kc, diagonal);
    TrmmMaskB<T, kWidth>(lower, diag, kc, diagonal, diagonal_span, scalars);
    if (rest != 0) pack(rest0, rest, pc, kc, beside);
    const auto span = [&](std::size_t, std::size_t, std::size_t j, std::size_t w) {
      return diagonal_span(j - pc, w);
    };
    for (std::size_t ic = 0; ic < m; ic += Shape::kMC) {
      const std::size_t mc = GemmMin(Shape::kMC, m - ic);
      GemmPackA(Trans::N, B, ldb_reals, ic, mc, pc, kc, a_work);
      GemmMacroKernel(mc, kc, kc, a_work, diagonal, scalars.macro_alpha(), T(0),
                      B + ic * ldb_reals + pc, ldb_reals, GemmSpans<decltype(span)>{span}, ic, pc);
      for (std::size_t jc = 0; jc < rest; jc += nc_max) {
        GemmMacroKernel(mc, GemmMin(nc_max, rest - jc), kc, a_work, beside + jc * kc,
                        scalars.macro_alpha(), T(1), B + ic * ldb_reals + rest0 + jc, ldb_reals);
      }
    }
  });
}

// The A block (MC rows of op(A) or of B, a k-block deep) and the other operand's k-block (n
// columns, the Right side's two parts each from a panel's start), in reals.
template <class T, bool kReproducible, std::size_t kWidth>
std::size_t TrmmWorkspace(Side side, std::size_t m, std::size_t n) {
  if (m == 0 || n == 0) return 0;
  const std::size_t order = kWidth * (side == Side::Left ? m : n);
  const std::size_t nr = GemmShape<T>::NR();
  return GemmABlockBytes<T, kReproducible>(m, order) +
         GemmMin(order, GemmKBlock<T, kReproducible>(order)) *
             (GemmRoundUp(kWidth * n, nr) + 2 * nr) * sizeof(T);
}

template <class T, bool kReproducible, std::size_t kWidth>
void TrmmPass(Side side, Uplo uplo, Diag diag, std::size_t m, std::size_t n,
              const TrmmScalars<T, kWidth>& scalars, const T* A, std::size_t lda, T* B,
              std::size_t ldb, void* workspace) {
  if (m == 0 || n == 0) return;
  const bool lower = (uplo == Uplo::Lower) != scalars.transposed();
  const std::size_t order = kWidth * (side == Side::Left ? m : n);
  T* a_work = static_cast<T*>(workspace);
  T* b_work = reinterpret_cast<T*>(static_cast<unsigned char*>(workspace) +
                                   GemmABlockBytes<T, kReproducible>(m, order));
  if (side == Side::Left) {
    TrmmLeft<T, kReproducible>(lower, diag, m, n, scalars, A, lda, B, ldb, a_work, b_work);
  } else {
    TrmmRight<T, kReproducible>(lower, diag, m, n, scalars, A, lda, B, ldb, a_work, b_work);
  }
}

template <class T, bool kReproducible = false>
std::size_t trmm_packed_workspace(Side side, std::size_t m, std::size_t n) {
  return TrmmWorkspace<T, kReproducible, 1>(side, m, n);
}

template <class T, bool kReproducible = false>
void trmm_packed(Side side, Uplo uplo, Trans ta, Diag diag, std::size_t m, std::size_t n, T alpha,
                 const T* A, std::size_t lda, T* B, std::size_t ldb, void* workspace) {
  const TrmmScalars<T, 1> scalars{ta == Trans::N ? Op::N : Op::T, alpha, T(0)};
  TrmmPass<T, kReproducible>(side, uplo, diag, m, n, scalars, A, lda, B, ldb, workspace);
}

template <class T, bool kReproducible = false>
std::size_t trmm_1m_workspace(Side side, std::size_t m, std::size_t n) {
  return TrmmWorkspace<T, kReproducible, 2>(side, m, n);
}

template <class T, bool kReproducible = false>
void trmm_1m(Side side, Uplo uplo, Op op, Diag diag, std::size_t m, std::size_t n, T alpha_re,
             T alpha_im, const T* A, std::size_t lda, T* B, std::size_t ldb, void* workspace) {
  const TrmmScalars<T, 2> scalars{op, alpha_re, alpha_im};
  TrmmPass<T, kReproducible>(side, uplo, diag, m, n, scalars, A, lda, B, ldb, workspace);
}

// The bf16 GEMM (C = alpha·A·B + beta·C, A m x k and B k x n, no transposes) on the packed path,
// its packing widening both operands to float: the float GEMM's blocking and microkernel, and its
// arithmetic (each product of two bf16 is exact in float), so in the reproducible mode the float
// GEMM's canonical order. Every size packs: the small path reads its operands in place, as float.
template <bool kReproducible = false>
std::size_t GemmWorkspaceBf16(std::size_t m, std::size_t n, std::size_t k) {
  if (m == 0 || n == 0 || k == 0) return 0;
  return GemmPackedWorkspace<float, kReproducible>(m, n, k);
}

template <bool kReproducible = false>
void GemmBf16(std::size_t m, std::size_t n, std::size_t k, float alpha, const bfloat16* A,
              std::size_t lda, const bfloat16* B, std::size_t ldb, float beta, float* C,
              std::size_t ldc, void* workspace) {
  if (m == 0 || n == 0) return;
  if (k == 0) return GemmScaleC(m, n, beta, C, ldc);
  GemmPackedPath<float, kReproducible>(Trans::N, Trans::N, m, n, k, alpha, A, lda, B, ldb, beta, C,
                                       ldc, workspace);
}

// The packed layout: op(B) in k-blocks of GemmKBlock(k) rows (the last one may be shorter), each a
// sequence of NR-column panels over round_up(n, NR) columns, each panel k-major (NR values per k,
// zero past n). The engine's layouts string describes it.
template <class T>
std::size_t packed_bytes(std::size_t k, std::size_t n) {
  return GemmRoundUp(k * GemmRoundUp(n, GemmShape<T>::NR()) * sizeof(T), 64);
}

// Part `part` of `parts` is a band of whole panels, in every k-block: each part writes its own
// bytes of the layout, so the parts may be packed at the same time.
template <class T, bool kReproducible = false>
void pack_b(Trans tb, std::size_t k, std::size_t n, const T* B, std::size_t ldb, void* packed,
            std::size_t part, std::size_t parts) {
  using Shape = GemmShape<T>;
  const std::size_t nr = Shape::NR();
  const std::size_t n_padded = GemmRoundUp(n, nr);
  const std::size_t panels = n_padded / nr;
  const std::size_t j0 = panels * part / parts * nr;
  const std::size_t j1 = GemmMin(n, panels * (part + 1) / parts * nr);
  if (j0 >= j1) return;
  const std::size_t k_block = GemmKBlock<T, kReproducible>(k);
  // The columns [j0, j1) of op(B): columns of B, or rows of B when it is transposed.
  const T* const b = tb == Trans::N ? B + j0 : B + j0 * ldb;
  T* const dst = static_cast<T*>(packed);
  // Column j0 of k-block pc is j0 * kc values into it (panels are kc x NR, k-major).
  const auto block_of = [&](std::size_t pc) {
    return dst + pc * n_padded + j0 * GemmMin(k_block, k - pc);
  };
  // A packed matrix larger than a part of the last-level cache would not stay there for the
  // product anyway: it is written around the caches (streaming stores; the engine's record).
  const bool stream = n_padded * k * sizeof(T) > kTuning.pack_b_stream_bytes;
  for (std::size_t pc = 0; pc < k; pc += k_block) {
    const std::size_t kc = GemmMin(k_block, k - pc);
    if (stream) {
      GemmPackB<T, true>(tb, b, ldb, j1 - j0, pc, kc, block_of(pc));
    } else {
      GemmPackB(tb, b, ldb, j1 - j0, pc, kc, block_of(pc));
    }
  }
  if (stream) hwy::FlushStream();
}

// The complex op(B)'s 1m expansion (kernels_table.hpp) in pack_b's layout for 2k x 2n, on the
// calling thread: each k-block by GemmPackB1m (the expansion's k-blocks are even), written around
// the caches when pack_b would write it so.
template <class T, bool kReproducible = false>
void pack_b_1m(Op op, bool conj_a, std::size_t k, std::size_t n, T alpha_re, T alpha_im, const T* B,
               std::size_t ldb, void* packed) {
  const std::size_t depth = 2 * k, n_padded = GemmRoundUp(2 * n, GemmShape<T>::NR());
  const std::size_t k_block = GemmKBlock<T, kReproducible>(depth);
  const bool stream = n_padded * depth * sizeof(T) > kTuning.pack_b_stream_bytes;
  for (std::size_t pc = 0; pc < depth; pc += k_block) {
    const std::size_t kc = GemmMin(k_block, depth - pc);
    T* const block = static_cast<T*>(packed) + pc * n_padded;
    if (stream) {
      GemmPackB1m<T, true>(op, conj_a, B, ldb, n, pc, kc, alpha_re, alpha_im, block);
    } else {
      GemmPackB1m(op, conj_a, B, ldb, n, pc, kc, alpha_re, alpha_im, block);
    }
  }
  if (stream) hwy::FlushStream();
}

template <class T, bool kReproducible = false>
void gemm_packed(Trans ta, std::size_t m, std::size_t n, std::size_t k, T alpha, const T* A,
                 std::size_t lda, const void* packed, T beta, T* C, std::size_t ldc) {
  using Shape = GemmShape<T>;
  if (m == 0 || n == 0) return;
  if (k == 0) return GemmScaleC(m, n, beta, C, ldc);
  // No workspace here: A is packed one micro-panel at a time into this buffer (2/3 of L1).
  HWY_ALIGN T a_panel[Shape::kMR * Shape::kKC];
  GemmLoops<T, kReproducible, T, T>(ta, Trans::N, m, n, k, alpha, A, lda, nullptr, 0,
                                    static_cast<const T*>(packed), beta, C, ldc, a_panel,
                                    Shape::kMR, nullptr);
}

// The complex products' loops (gemm_1m, gemmt_1m): gemm's, op(A) packed from the complex A as
// A' (GemmPackA1m, MC rows at a time in the workspace), op(B) the expansion pack_b_1m packed, alpha
// 1; the tiles `part` says.
template <class T, bool kReproducible, class Part = GemmWhole>
HWY_INLINE void Gemm1mLoops(Trans ta, std::size_t m, std::size_t n, std::size_t k,
                            const T* HWY_RESTRICT A, std::size_t lda, const void* packed, T beta,
                            T* HWY_RESTRICT C, std::size_t ldc, void* workspace, Part part = {}) {
  T* const a_work = static_cast<T*>(workspace);
  const T* const b_packed = static_cast<const T*>(packed);
  const std::size_t n_padded = GemmRoundUp(2 * n, GemmShape<T>::NR());
  const auto pack_a = [&](std::size_t ic, std::size_t mc, std::size_t pc, std::size_t kc)
                          HWY_ATTR { GemmPackA1m(ta, A, lda, ic, mc, pc, kc, a_work); };
  const auto pack_b = [&](std::size_t pc, std::size_t) HWY_ATTR -> const T* {
    return b_packed + pc * n_padded;  // the k-blocks before: k_block wide
  };
  GemmBlocks<T, kReproducible>(m, 2 * n, 2 * k, T(1), pack_a, pack_b, beta, C, 2 * ldc, a_work,
                               GemmShape<T>::kMC, part);
}

template <class T, bool kReproducible = false>
std::size_t gemm_1m_workspace(std::size_t m, std::size_t k) {
  return m == 0 || k == 0 ? 0 : GemmABlockBytes<T, kReproducible>(m, 2 * k);
}

template <class T, bool kReproducible = false>
void gemm_1m(Trans ta, std::size_t m, std::size_t n, std::size_t k, const T* A, std::size_t lda,
             const void* packed, T beta, T* C, std::size_t ldc, void* workspace) {
  if (m == 0 || n == 0) return;
  if (k == 0) return GemmScaleC(m, 2 * n, beta, C, 2 * ldc);
  Gemm1mLoops<T, kReproducible>(ta, m, n, k, A, lda, packed, beta, C, ldc, workspace);
}

template <class T, bool kReproducible = false>
void gemmt_1m(Uplo uplo, Trans ta, std::size_t n, std::size_t k, const T* A, std::size_t lda,
              const void* packed, T beta, T* C, std::size_t ldc, void* workspace) {
  if (n == 0) return;
  const GemmTriangle part{uplo, 2};
  if (k == 0) return GemmScaleTriangle(part, n, beta, C, 2 * ldc);
  Gemm1mLoops<T, kReproducible>(ta, n, n, k, A, lda, packed, beta, C, ldc, workspace, part);
}

// ------------------------------ Batches

// A product's operands as stored, a load per line (touch_rows); out of line, so that a batch that
// does not touch keeps its loop as short as before.
template <class T>
HWY_NOINLINE void GemmSmallTouch(const T* a, std::size_t a_rows, std::size_t a_cols,
                                 std::size_t lda, const T* b, std::size_t b_rows,
                                 std::size_t b_cols, std::size_t ldb, const T* c, std::size_t m,
                                 std::size_t n, std::size_t ldc) {
  touch_rows(a, a_rows, a_cols, lda);
  touch_rows(b, b_rows, b_cols, ldb);
  touch_rows(c, m, n, ldc);
}

// A batch's operands as stored (op(A) is m x k, op(B) k x n), and how its products meet memory:
// `streamed` when the batch's operands exceed the record's stream_bytes (more than the last-level
// cache holds), `deep` when a product is much deeper than it is wide (its operands are two long
// runs of lines, which the hardware's prefetchers follow).
struct GemmBatchShape {
  std::size_t a_rows, a_cols, b_rows, b_cols, product_bytes;
  bool streamed, deep;
};

template <class T>
HWY_INLINE GemmBatchShape GemmBatchShapeOf(Trans ta, Trans tb, std::size_t m, std::size_t n,
                                           std::size_t k, std::size_t batch) {
  GemmBatchShape s;
  s.a_rows = ta == Trans::N ? m : k;
  s.a_cols = ta == Trans::N ? k : m;
  s.b_rows = tb == Trans::N ? k : n;
  s.b_cols = tb == Trans::N ? n : k;
  s.product_bytes = (s.a_rows * s.a_cols + s.b_rows * s.b_cols + m * n) * sizeof(T);
  const double bytes = static_cast<double>(batch) * static_cast<double>(s.product_bytes);
  s.streamed = bytes > static_cast<double>(kTuning.small_batch.stream_bytes);
  s.deep = k > 2 * (m > n ? m : n);
  return s;
}

// Small products of a batch by one plan, made once; the next product's operands prefetched
// while one runs. operands(i, a, b, c) sets product i's matrices.
template <class T, class Operands>
HWY_NOINLINE void GemmSmallBatch(const GemmSmallPlan<T>& p, Trans ta, Trans tb, std::size_t m,
                                 std::size_t n, std::size_t k, T alpha, std::size_t ldb, T beta,
                                 std::size_t ldc, std::size_t batch, Operands operands,
                                 T* HWY_RESTRICT panel) {
  const GemmBatchShape s = GemmBatchShapeOf<T>(ta, tb, m, n, k, batch);
  // Whether the next product is prefetched is the engine's (its record's small_batch). On the
  // Zen 5 guest, with the whole next product asked for before each product: a batch the
  // last-level cache holds, below about 25³ multiply-adds, lost (a line per 3·n/16 multiply-adds
  // at order n; f32 order 16, 30 MB, 89 -> 71-74 GFLOP/s with them); a batch streamed from
  // memory gained from 1024 (f32 order 24, 67 MB: 39 -> 83-87 GFLOP/s; f64 16 and 24: 18-23 ->
  // 29-43). A product much deeper than it is wide (8 x 8 x 256) reads its operands as two long
  // streams, which the hardware prefetches: asking for the next product's too made such a batch
  // 1.6-2.2x slower. GemmSmallRun now spreads the requests over the product's tiles.
  constexpr auto kBatch = kTuning.small_batch;
  const std::size_t work = m * n * k;
  const bool prefetch =
      work >= (s.streamed ? kBatch.streamed_prefetch_work : kBatch.prefetch_work) &&
      p.col_tiles >= kBatch.prefetch_column_tiles && !s.deep;
  // A streamed product's lines read before its tiles (GemmSmallTouch; docs/decisions.md, "A
  // streamed batch reads each product's lines first"): the tiles' own loads wait behind their
  // multiply-adds, a few lines in flight at a time, where a loop of loads and nothing else keeps
  // many. On the Zen 5 guest, batches of 64 MiB under zen5: f64 order 32 27-30 -> 47-48 GFLOP/s,
  // f32 order 64 88-96 -> 138-143. Smaller products lost (f64 order 12 0.71-0.89x), and so did a
  // deep product's long streams (8 x 8 x 256 with B transposed 0.55-0.6x), as with prefetching.
  // A record may also exempt products of fewer bytes (streamed_touch_bytes) or whose rows of C
  // fit one tile of two or more vectors (streamed_touch_row_tiles: avx512's record says why).
  const bool row_tile = p.col_tiles == 1 && p.width >= 2 * p.lanes;
  const bool touch = s.streamed && work >= kBatch.streamed_touch_work &&
                     s.product_bytes >= kBatch.streamed_touch_bytes && !s.deep &&
                     (kBatch.streamed_touch_row_tiles || !row_tile);
  // A strided batch that reads nothing ahead or first, of products of one column tile in one
  // k-block: a narrow plan's products (one tile each), or on records that ask for it products of
  // one tile of one vector or in equal bands (GemmSmallBands), in one call.
  if constexpr (requires { operands.stride_a; }) {
    if (k <= p.k_block && !p.transposed_b && !prefetch && !touch) {
      const GemmSmallRepeat repeat{batch, operands.stride_a, operands.stride_b, operands.stride_c};
      if (p.tiles != nullptr) {
        return p.tiles(k, operands.A, p.a_row, p.a_col, operands.B, ldb, alpha, beta, operands.C,
                       ldc, p.last_nr, repeat);
      }
      if (p.bands_tile != nullptr) {
        return p.bands_tile(k, operands.A, p.a_row, p.a_col, operands.B, ldb, alpha, beta,
                            operands.C, ldc, p.last_nr, p.bands, repeat);
      }
    }
  }
  // A batch of one-tile products that reads nothing ahead or first: the tile function alone.
  if (GemmSmallIsOneTile(p, k) && !prefetch && !touch) {
    const auto tile = p.tile[0][1];
    for (std::size_t i = 0; i < batch; ++i) {
      const T *a, *b;
      T* c;
      operands(i, a, b, c);
      tile(k, a, p.a_row, p.a_col, b, ldb, alpha, beta, c, ldc, p.last_nr);
    }
    return;
  }
  const std::size_t lda = p.a_row * p.a_col;
  // The loop twice, with and without the touch, so that a batch that does not touch runs the
  // loop it ran before (order 4 lost 7-10% to a test in it).
  const auto products = [&](auto touch_tag) HWY_ATTR {
    const T *a, *b;
    T* c;
    if (batch != 0) operands(0, a, b, c);
    for (std::size_t i = 0; i < batch; ++i) {
      const T *next_a = a, *next_b = b;
      T* next_c = c;
      if (i + 1 < batch) operands(i + 1, next_a, next_b, next_c);
      const GemmSmallNext<T> ahead{next_a, next_b, next_c};
      if constexpr (decltype(touch_tag)::value) {
        GemmSmallTouch(a, s.a_rows, s.a_cols, lda, b, s.b_rows, s.b_cols, ldb, c, m, n, ldc);
      }
      GemmSmallRun(p, k, alpha, a, b, ldb, beta, c, ldc, panel,
                   prefetch && i + 1 < batch ? &ahead : nullptr);
      a = next_a;
      b = next_b;
      c = next_c;
    }
  };
  if (touch) return products(std::true_type());
  products(std::false_type());
}
template <class T, class Operands>
HWY_NOINLINE void GemmSmallBatchTransposedB(const GemmSmallPlan<T>& p, Trans ta, std::size_t m,
                                            std::size_t n, std::size_t k, T alpha, std::size_t ldb,
                                            T beta, std::size_t ldc, std::size_t batch,
                                            Operands operands) {
  HWY_ALIGN T panel[GemmShape<T>::kKC * GemmShape<T>::kLanes];
  GemmSmallBatch(p, ta, Trans::T, m, n, k, alpha, ldb, beta, ldc, batch, operands, panel);
}

// A strided batch's operands: product i's at A + i·stride_a, B + i·stride_b, C + i·stride_c.
// GemmSmallBatch reads the strides to run a narrow plan's products in one call.
template <class T>
struct GemmStridedOperands {
  const T* A;
  const T* B;
  T* C;
  std::size_t stride_a, stride_b, stride_c;

  void operator()(std::size_t i, const T*& a, const T*& b, T*& c) const {
    a = A + i * stride_a;
    b = B + i * stride_b;
    c = C + i * stride_c;
  }
};

// A batch's operands with A's and B's exchanged (GemmSmallOriented's transpose), a strided batch's
// still strided.
template <class T, class Operands>
HWY_INLINE auto GemmSwappedOperands(Operands operands) {
  if constexpr (requires { operands.stride_a; }) {
    return GemmStridedOperands<T>{operands.B,        operands.A,        operands.C,
                                  operands.stride_b, operands.stride_a, operands.stride_c};
  } else {
    return [operands](std::size_t i, const T*& a, const T*& b, T*& c) { operands(i, b, a, c); };
  }
}

// A batch of small products by one plan for the whole batch, of the shape the small path runs.
template <class T, bool kReproducible, class Operands>
HWY_INLINE void GemmSmallBatchOf(const GemmSmallShape& s, std::size_t k, T alpha, T beta,
                                 std::size_t batch, Operands operands) {
  const GemmSmallPlan<T> p = GemmSmallPlanFor<T, kReproducible>(s.ta, s.tb, s.m, s.n, k, s.lda);
  if (p.transposed_b) {
    return GemmSmallBatchTransposedB(p, s.ta, s.m, s.n, k, alpha, s.ldb, beta, s.ldc, batch,
                                     operands);
  }
  GemmSmallBatch(p, s.ta, s.tb, s.m, s.n, k, alpha, s.ldb, beta, s.ldc, batch, operands,
                 static_cast<T*>(nullptr));
}

// Each product as gemm computes it, one after the other, in the caller's workspace (gemm's for
// this shape); small ones by one plan for the whole batch (a column as a row: GemmSmallOriented).
template <class T, bool kReproducible, class Operands>
HWY_INLINE void GemmBatch(Trans ta, Trans tb, std::size_t m, std::size_t n, std::size_t k, T alpha,
                          std::size_t lda, std::size_t ldb, T beta, std::size_t ldc,
                          std::size_t batch, Operands operands, void* workspace) {
  if (m != 0 && n != 0 && k != 0 && GemmIsSmall<T>(m, n, k)) {
    const GemmSmallShape s = GemmSmallOriented(ta, tb, m, n, lda, ldb, ldc);
    if (s.swapped) {
      return GemmSmallBatchOf<T, kReproducible>(s, k, alpha, beta, batch,
                                                GemmSwappedOperands<T>(operands));
    }
    return GemmSmallBatchOf<T, kReproducible>(s, k, alpha, beta, batch, operands);
  }
  // Larger products one gemm call each. A streamed batch reads each one's lines first, where the
  // record says so (streamed_touch_large), as it does the small ones (GemmSmallBatch): the
  // unpacked path's tiles read their operands where they are, a few lines in flight behind the
  // multiply-adds. Not a deep product, whose long runs of lines the hardware follows.
  const GemmBatchShape s = GemmBatchShapeOf<T>(ta, tb, m, n, k, batch);
  const bool touch = kTuning.small_batch.streamed_touch_large && s.streamed && !s.deep;
  for (std::size_t i = 0; i < batch; ++i) {
    const T *a, *b;
    T* c;
    operands(i, a, b, c);
    if (touch) GemmSmallTouch(a, s.a_rows, s.a_cols, lda, b, s.b_rows, s.b_cols, ldb, c, m, n, ldc);
    gemm<T, kReproducible>(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, workspace);
  }
}

// A shape the engine runs small gets its tiling worked out once, into the caller's
// kGemmPlanBytes: GemmPlan's calls then run the tiles and nothing else.
template <class T, bool kReproducible = false>
bool gemm_plan(Trans ta, Trans tb, std::size_t m, std::size_t n, std::size_t k, std::size_t lda,
               void* plan) {
  static_assert(sizeof(GemmSmallPlan<T>) <= kGemmPlanBytes && alignof(GemmSmallPlan<T>) <= 16,
                "a small plan must fit GemmPlan's kGemmPlanBytes");
  if (m == 0 || n == 0 || k == 0 || !GemmIsSmall<T>(m, n, k)) return false;
  const GemmSmallPlan<T> p = GemmSmallPlanFor<T, kReproducible>(ta, tb, m, n, k, lda);
  __builtin_memcpy(plan, &p, sizeof p);
  return true;
}

// The plan by value: the loops run on their own copy, as when gemm_planned copied it (through a
// reference, each call of a tile function could change what it refers to, for all the compiler
// knows).
template <class T>
HWY_NOINLINE void GemmSmallProductOutOfLine(GemmSmallPlan<T> p, std::size_t k, T alpha, const T* A,
                                            const T* B, std::size_t ldb, T beta, T* C,
                                            std::size_t ldc) {
  GemmSmallProduct(p, k, alpha, A, B, ldb, beta, C, ldc);
}

// gemm_plan's memcpy created the plan in the caller's bytes (a trivially copyable type), so it is
// read where it is. A product of one tile calls its tile function straight away, the loops
// (whose frame saves six registers) are out of line: copying the plan out and entering the loops
// took a fifth of an order-8 f32 product on the Zen 3 guest.
template <class T>
void gemm_planned(const void* plan, std::size_t k, T alpha, const T* A, const T* B, std::size_t ldb,
                  T beta, T* C, std::size_t ldc) {
  const GemmSmallPlan<T>& p = *__builtin_launder(static_cast<const GemmSmallPlan<T>*>(plan));
  if (GemmSmallIsOneTile(p, k)) {
    return p.tile[0][1](k, A, p.a_row, p.a_col, B, ldb, alpha, beta, C, ldc, p.last_nr);
  }
  GemmSmallProductOutOfLine(p, k, alpha, A, B, ldb, beta, C, ldc);
}

template <class T, bool kReproducible = false>
void gemm_batch_strided(Trans ta, Trans tb, std::size_t m, std::size_t n, std::size_t k, T alpha,
                        const T* A, std::size_t lda, std::size_t stride_a, const T* B,
                        std::size_t ldb, std::size_t stride_b, T beta, T* C, std::size_t ldc,
                        std::size_t stride_c, std::size_t batch, void* workspace) {
  GemmBatch<T, kReproducible>(ta, tb, m, n, k, alpha, lda, ldb, beta, ldc, batch,
                              GemmStridedOperands<T>{A, B, C, stride_a, stride_b, stride_c},
                              workspace);
}

template <class T, bool kReproducible = false>
void gemm_batch(Trans ta, Trans tb, std::size_t m, std::size_t n, std::size_t k, T alpha,
                const T* const* A, std::size_t lda, const T* const* B, std::size_t ldb, T beta,
                T* const* C, std::size_t ldc, std::size_t batch, void* workspace) {
  GemmBatch<T, kReproducible>(
      ta, tb, m, n, k, alpha, lda, ldb, beta, ldc, batch,
      [=](std::size_t i, const T*& a, const T*& b, T*& c) {
        a = A[i];
        b = B[i];
        c = C[i];
      },
      workspace);
}

COHERIQ_GENERIC_END

#endif  // COHERIQ_ENGINES_GENERIC_GEMM_INL_H_
