// GEMM tuning as data: the register tile and cache blocks an engine's GEMM runs with.
//
// Each engine with a GEMM of its own states its numbers once, in src/engines/<engine>/tuning.hpp,
// as `template <class T> constexpr GemmTuning kGemm` specialized for float and double. The generic
// GEMM and packing (gemm-inl.h) read them; the engine's descriptor names its PackedMatrix layouts
// from the same numbers (kernels/layout_name.hpp), so a block size is never written twice and a
// change of tuning is a change of layout that the coherence rule sees.
//
// Plain constants, no code: safe to include from baseline and ISA translation units alike.
#pragma once

#include <cstddef>

namespace coheriq::kernels {

struct GemmTuning {
  std::size_t mr;  // register tile rows (C rows per microkernel call)
  std::size_t nr;  // register tile columns: a whole number of vectors; the packed B panel width
  std::size_t kc;  // k block, at most (a multiple of 16): the packed B k-block depth
  std::size_t mc;  // row block (a multiple of mr): the packed A block, sized for L2
  std::size_t nc;  // column block (a multiple of nr): the part of a B k-block used per A block
  // Scalable vectors (SVE): nr and nc are stated for 128-bit vectors, and the GEMM runs with
  // nr * VL / 128 columns (the same number of vectors) at the run-time length VL, its column
  // block the largest multiple of that within max(nc, NR). The layout name carries VL.
  bool scalable = false;
};

}  // namespace coheriq::kernels
