// The avx2 engine's PackedMatrix layouts, in one place for its descriptor (engine.cpp, baseline
// code, which names them) and its kernels (kernels.cpp, which checks at compile time that the
// GEMM it compiles packs exactly this; see the packed layout in generic/gemm-inl.h).
#pragma once

#include <cstddef>

namespace coheriq::kernels::avx2 {

// op(B) in panels of this many columns, k-major, k split evenly into blocks of at most this many
// rows (a multiple of 16).
inline constexpr std::size_t kGemmPanelColumnsF32 = 16;
inline constexpr std::size_t kGemmKBlockF32 = 384;
inline constexpr std::size_t kGemmPanelColumnsF64 = 8;
inline constexpr std::size_t kGemmKBlockF64 = 384;

}  // namespace coheriq::kernels::avx2
