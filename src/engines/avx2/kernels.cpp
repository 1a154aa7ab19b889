// The avx2 engine's kernels: every generic Highway kernel, compiled for AVX2 + FMA (256-bit).
//
// ISA hygiene (docs/engine-guide.md): everything here has internal linkage except `overrides`,
// a constant-initialized table; no allocation, exceptions or STL instantiations.
#include "kernels/candidates.hpp"

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "engines/avx2/gemm-layout.hpp"
#include "hwy/cache_control.h"  // FlushStream, after the non-temporal stores of pack_b
#include "hwy/highway.h"

static_assert(HWY_STATIC_TARGET == HWY_AVX2, "avx2 kernels need the full AVX2 flag set");

HWY_BEFORE_NAMESPACE();
namespace coheriq::kernels::avx2 {
namespace {
namespace hn = hwy::HWY_NAMESPACE;
#include "engines/generic/engine-inl.h"
}  // namespace

extern const coheriq::OverrideTable overrides = coheriq::table_of(generic_overrides);

}  // namespace coheriq::kernels::avx2
HWY_AFTER_NAMESPACE();
