// Hand-written AVX-512 reduced-precision kernels, shared by the avx512_vnni engine (u8·s8 with
// vpdpbusd) and the avx512_bf16 engine (bf16 with vdpbf16ps). Both instructions take, per 32-bit
// lane, one 4-byte group of each operand and add their dot product to the lane: 4 u8·s8 products
// (VNNI) or 2 bf16 products (BF16). So both GEMMs share one shape and one packed layout of B in
// units of 4-byte groups ("cells": G = 4 bytes of k, or G = 2 bf16 of k, of one column):
//
//   B is cut into panels of kPanel = 48 columns (three zmm of 16 cells); a panel is stored group
//   row after group row (k/G of them, the last zero-padded), each row 48 cells = 192 bytes, so
//   one step of k is three aligned 64-byte loads. Columns past n are zero. The packed B lives in
//   the workspace of one call (gemm_workspace.* returns its size, 64-byte aligned by the caller).
//
// The microkernel holds an MR x 48 tile of C in MR·3 zmm accumulators (MR <= 8: 24 accumulators,
// three B vectors and one broadcast of A's 4-byte group fit the 32 registers), or a tile of one or
// two vectors where the last panel has no more columns (at n = 256 the last panel holds 16: a
// three-vector tile there did 1.125 times the work of the product), over the whole k:
// integer accumulation is exact and f32 accumulation stays in registers, so C is written once.
// Loops: B panels outermost (a panel, 48·k·4/G bytes, stays in L1/L2 across every tile of rows),
// then tiles of 8 rows of A, read in place (4 bytes broadcast per row and step).
//
// Included by the engine's kernels TU, compiled with its ISA record's flags (-mavx512vnni or
// -mavx512bf16 on top of avx512). Internal linkage only; no std:: functions, no allocation.
#ifndef COHERIQ_ENGINES_INTRINSICS_AVX512_DOT4_INL_H_
#define COHERIQ_ENGINES_INTRINSICS_AVX512_DOT4_INL_H_

#include <immintrin.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

#ifndef COHERIQ_ENGINE_NS
#define COHERIQ_ENGINE_NS standalone
#endif

namespace coheriq::kernels::COHERIQ_ENGINE_NS {
namespace {
namespace dot4 {

constexpr std::size_t kPanel = 48;             // columns per packed panel: 3 zmm of 16 cells
constexpr std::size_t kRowBytes = kPanel * 4;  // one group row of a panel
constexpr std::size_t kMaxRows = 8;            // MR

inline std::size_t CeilDiv(std::size_t a, std::size_t b) { return (a + b - 1) / b; }

// Bytes of the packed B of a k x n operand with groups of G elements.
inline std::size_t PackedBytes(std::size_t n, std::size_t k, std::size_t group) {
  return CeilDiv(n, kPanel) * CeilDiv(k, group) * kRowBytes;
}

// Mask of the lanes of vector v (16 cells) of a panel at column j that hold columns < n.
inline __mmask16 ColumnMask(std::size_t n, std::size_t j, std::size_t v) {
  const std::size_t first = j + 16 * v;
  if (first >= n) return 0;
  const std::size_t left = n - first;
  return left >= 16 ? static_cast<__mmask16>(0xffff) : static_cast<__mmask16>((1u << left) - 1u);
}

// ------------------------------ Packing (Elem: 1 or 2 bytes; group = 4 / sizeof(Elem))

// Scalar packing of any cell range: used for partial panels and the last, partial group row.
template <class Elem>
inline void PackCellsScalar(const Elem* B, std::size_t ldb, std::size_t k, std::size_t n,
                            std::size_t g, std::size_t j0, std::size_t c_begin, Elem* row) {
  constexpr std::size_t G = 4 / sizeof(Elem);
  for (std::size_t c = c_begin; c < kPanel; ++c) {
    for (std::size_t e = 0; e < G; ++e) {
      const std::size_t p = g * G + e;
      const std::size_t j = j0 + c;
      Elem v{};
      if (p < k && j < n) v = B[p * ldb + j];
      row[c * G + e] = v;
    }
  }
}

// 4 rows x 16 columns of bytes into 16 cells of 4 bytes (the 4x16 byte transpose).
inline void PackBytes16(const std::uint8_t* b, std::size_t ldb, std::uint8_t* out) {
  const __m128i r0 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(b));
  const __m128i r1 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(b + ldb));
  const __m128i r2 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(b + 2 * ldb));
  const __m128i r3 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(b + 3 * ldb));
  const __m128i t0 = _mm_unpacklo_epi8(r0, r1);
  const __m128i t1 = _mm_unpackhi_epi8(r0, r1);
  const __m128i t2 = _mm_unpacklo_epi8(r2, r3);
  const __m128i t3 = _mm_unpackhi_epi8(r2, r3);
  _mm_store_si128(reinterpret_cast<__m128i*>(out), _mm_unpacklo_epi16(t0, t2));
  _mm_store_si128(reinterpret_cast<__m128i*>(out + 16), _mm_unpackhi_epi16(t0, t2));
  _mm_store_si128(reinterpret_cast<__m128i*>(out + 32), _mm_unpacklo_epi16(t1, t3));
  _mm_store_si128(reinterpret_cast<__m128i*>(out + 48), _mm_unpackhi_epi16(t1, t3));
}

// 2 rows x 8 columns of 16-bit elements into 8 cells of 2 elements.
inline void PackPairs8(const std::uint8_t* b, std::size_t ldb_bytes, std::uint8_t* out) {
  const __m128i r0 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(b));
  const __m128i r1 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(b + ldb_bytes));
  _mm_store_si128(reinterpret_cast<__m128i*>(out), _mm_unpacklo_epi16(r0, r1));
  _mm_store_si128(reinterpret_cast<__m128i*>(out + 16), _mm_unpackhi_epi16(r0, r1));
}

// Packs B (k x n, row-major, ldb elements) into `packed` (PackedBytes(n, k, G) bytes, 64-byte
// aligned): whole cells of 16 columns and whole groups with vector moves, the rest scalar.
template <class Elem>
inline void PackB(const Elem* B, std::size_t ldb, std::size_t k, std::size_t n, void* packed) {
  constexpr std::size_t G = 4 / sizeof(Elem);
  const std::size_t groups = CeilDiv(k, G);
  const std::size_t full_groups = k / G;
  auto* out = static_cast<std::uint8_t*>(packed);
  for (std::size_t j0 = 0; j0 < n; j0 += kPanel) {
    // Columns of this panel that whole 16-column blocks cover.
    const std::size_t vector_cells = n - j0 >= kPanel ? kPanel : (n - j0) / 16 * 16;
    for (std::size_t g = 0; g < groups; ++g) {
      std::uint8_t* row = out + g * kRowBytes;
      std::size_t c = 0;
      if (g < full_groups) {
        const auto* src = reinterpret_cast<const std::uint8_t*>(B + g * G * ldb + j0);
        for (; c < vector_cells; c += 16) {
          if constexpr (sizeof(Elem) == 1) {
            PackBytes16(src + c, ldb, row + c * 4);
          } else {
            PackPairs8(src + c * 2, ldb * 2, row + c * 4);
            PackPairs8(src + c * 2 + 16, ldb * 2, row + c * 4 + 32);
          }
        }
      }
      PackCellsScalar(B, ldb, k, n, g, j0, c, reinterpret_cast<Elem*>(row));
    }
    out += groups * kRowBytes;
  }
}

// A's 4-byte group g of a row of k elements, zero-padded past k (so that a padded group
// multiplies zeros of B by zeros, never by whatever follows the row, which may be NaN).
template <class Elem>
inline __m512i BroadcastGroup(const Elem* a, std::size_t g, std::size_t k) {
  constexpr std::size_t G = 4 / sizeof(Elem);
  std::uint32_t cell = 0;
  const std::size_t first = g * G;
  const std::size_t count = k - first >= G ? G : k - first;
  std::memcpy(&cell, a + first, count * sizeof(Elem));
  return _mm512_set1_epi32(static_cast<int>(cell));
}

// ------------------------------ The microkernel, for Ops = U8S8 or BF16 below

// One tile: acc[r][v] += A row r's group g · packed cells (vector v < V), over every group of k,
// then stored. The accumulators are locals of this function and every loop over them is unrolled,
// so they live in registers (passed by reference, gcc 12 spilled some of them every step).
template <class Ops, std::size_t MR, std::size_t V>
inline void TileAndStore(const typename Ops::AElem* A, std::size_t lda, std::size_t k,
                         const std::uint8_t* panel, const typename Ops::Scale& scale,
                         typename Ops::CElem* C, std::size_t ldc, std::size_t n, std::size_t j) {
  static_assert(V >= 1 && V <= 3, "a tile is one to three vectors of a panel");
  constexpr std::size_t G = 4 / sizeof(typename Ops::AElem);
  typename Ops::Acc acc[MR][V];
#pragma GCC unroll 8
  for (std::size_t r = 0; r < MR; ++r) {
#pragma GCC unroll 3
    for (std::size_t v = 0; v < V; ++v) acc[r][v] = Ops::Zero();
  }
  // One group of k: the V vectors of the panel's group row, each row's group broadcast.
  const auto step = [&](const std::uint8_t* row, auto broadcast) {
    __m512i b[V];
#pragma GCC unroll 3
    for (std::size_t v = 0; v < V; ++v) b[v] = _mm512_load_si512(row + 64 * v);
#pragma GCC unroll 8
    for (std::size_t r = 0; r < MR; ++r) {
      const __m512i av = broadcast(r);
#pragma GCC unroll 3
      for (std::size_t v = 0; v < V; ++v) acc[r][v] = Ops::Dot(acc[r][v], av, b[v]);
    }
  };
  const std::size_t full = k / G;
  const typename Ops::AElem* a = A;
  for (std::size_t g = 0; g < full; ++g, a += G) {
    step(panel + g * kRowBytes, [&](std::size_t r) {
      std::uint32_t cell;
      std::memcpy(&cell, a + r * lda, 4);
      return _mm512_set1_epi32(static_cast<int>(cell));
    });
  }
  if (full * G < k) {  // the last, partial group (B's padding is zero)
    step(panel + full * kRowBytes,
         [&](std::size_t r) { return BroadcastGroup(A + r * lda, full, k); });
  }
#pragma GCC unroll 8
  for (std::size_t r = 0; r < MR; ++r) {
#pragma GCC unroll 3
    for (std::size_t v = 0; v < V; ++v) {
      const __mmask16 mask = ColumnMask(n, j, v);
      if (mask != 0) Ops::Store(acc[r][v], scale, mask, C + r * ldc + j + 16 * v);
    }
  }
}

// The last `rows` (1 to Rows) rows of a panel: the tile of exactly that height, chosen at compile
// time (the accumulators must be a fixed number of registers).
template <class Ops, std::size_t V, std::size_t Rows>
inline void TileRemainder(std::size_t rows, const typename Ops::AElem* A, std::size_t lda,
                          std::size_t k, const std::uint8_t* panel,
                          const typename Ops::Scale& scale, typename Ops::CElem* C, std::size_t ldc,
                          std::size_t n, std::size_t j) {
  if constexpr (Rows > 0) {
    if (rows == Rows) {
      TileAndStore<Ops, Rows, V>(A, lda, k, panel, scale, C, ldc, n, j);
    } else {
      TileRemainder<Ops, V, Rows - 1>(rows, A, lda, k, panel, scale, C, ldc, n, j);
    }
  }
}

// The panel at column j, V vectors wide, in tiles of up to 8 rows.
template <class Ops, std::size_t V>
inline void MultiplyPanel(std::size_t m, std::size_t n, std::size_t k, const typename Ops::AElem* A,
                          std::size_t lda, const std::uint8_t* panel,
                          const typename Ops::Scale& scale, typename Ops::CElem* C, std::size_t ldc,
                          std::size_t j) {
  std::size_t i = 0;
  for (; i + kMaxRows <= m; i += kMaxRows) {
    TileAndStore<Ops, kMaxRows, V>(A + i * lda, lda, k, panel, scale, C + i * ldc, ldc, n, j);
  }
  if (i < m) {
    TileRemainder<Ops, V, kMaxRows - 1>(m - i, A + i * lda, lda, k, panel, scale, C + i * ldc, ldc,
                                        n, j);
  }
}

// C (m x n) from A (m x k, in place) and the packed B, in tiles of up to 8 rows x 48 columns; the
// last panel's tiles only as many vectors wide as it has columns.
template <class Ops>
inline void Multiply(std::size_t m, std::size_t n, std::size_t k, const typename Ops::AElem* A,
                     std::size_t lda, const void* packed, const typename Ops::Scale& scale,
                     typename Ops::CElem* C, std::size_t ldc) {
  constexpr std::size_t G = 4 / sizeof(typename Ops::AElem);
  const std::size_t panel_bytes = CeilDiv(k, G) * kRowBytes;
  const auto* panels = static_cast<const std::uint8_t*>(packed);
  for (std::size_t j = 0, p = 0; j < n; j += kPanel, ++p) {
    const std::uint8_t* panel = panels + p * panel_bytes;
    switch (CeilDiv(n - j < kPanel ? n - j : kPanel, 16)) {
      case 1:
        MultiplyPanel<Ops, 1>(m, n, k, A, lda, panel, scale, C, ldc, j);
        break;
      case 2:
        MultiplyPanel<Ops, 2>(m, n, k, A, lda, panel, scale, C, ldc, j);
        break;
      default:
        MultiplyPanel<Ops, 3>(m, n, k, A, lda, panel, scale, C, ldc, j);
        break;
    }
  }
}

}  // namespace dot4
}  // namespace
}  // namespace coheriq::kernels::COHERIQ_ENGINE_NS

#endif  // COHERIQ_ENGINES_INTRINSICS_AVX512_DOT4_INL_H_
