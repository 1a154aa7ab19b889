// The avx512 engine's kernels: every generic Highway kernel, compiled for AVX-512 (512-bit).
// It overrides all of them rather than inheriting some from avx2, because zmm wins wherever it
// was measured: BLAS-1 1.1-1.6x avx2 at 1K and 1.0-1.9x at 64K (ties when memory-bound at 16M),
// vector math 1.7-2.0x, GEMM 1.8-2x (docs/performance.md). Its GEMM micro-kernel is 14x32, so its
// PackedMatrix layout differs from avx2's, and coherence requires it to override the packing.
//
// ISA hygiene (docs/engine-guide.md): everything here has internal linkage except `overrides`,
// a constant-initialized table; no allocation, exceptions or STL instantiations.
#include "kernels/candidates.hpp"

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "engines/avx512/gemm-layout.hpp"
#include "hwy/cache_control.h"  // FlushStream, after the non-temporal stores of pack_b
#include "hwy/highway.h"

static_assert(HWY_STATIC_TARGET == HWY_AVX3, "avx512 kernels need the full AVX-512 flag set");

HWY_BEFORE_NAMESPACE();
namespace coheriq::kernels::avx512 {
namespace {
namespace hn = hwy::HWY_NAMESPACE;
#include "engines/generic/engine-inl.h"
}  // namespace

extern const coheriq::OverrideTable overrides = coheriq::table_of(generic_overrides);

}  // namespace coheriq::kernels::avx512
HWY_AFTER_NAMESPACE();
