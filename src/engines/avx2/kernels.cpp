// The avx2 engine's kernels: the generic Highway kernels compiled for AVX2+FMA.
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
#include "engines/generic/blas1-inl.h"
#include "engines/generic/gemm-inl.h"
#include "engines/generic/math-inl.h"

// The PackedMatrix layouts engine.cpp names (gemm-layout.hpp) are the ones GEMM packs here.
static_assert(GemmShape<float>::kNR == kGemmPanelColumnsF32 &&
                  GemmShape<float>::kKC == kGemmKBlockF32,
              "update gemm-layout.hpp: the f32 GEMM blocking changed the PackedMatrix layout");
static_assert(GemmShape<double>::kNR == kGemmPanelColumnsF64 &&
                  GemmShape<double>::kKC == kGemmKBlockF64,
              "update gemm-layout.hpp: the f64 GEMM blocking changed the PackedMatrix layout");

using coheriq::implement;

constexpr coheriq::Override table[] = {
    // ------------------------------ BLAS-1 (generic/blas1-inl.h)
    implement<cand::dot_f32, &Dot<float>>(),
    implement<cand::dot_f64, &Dot<double>>(),
    implement<cand::axpy_f32, &Axpy<float>>(),
    implement<cand::axpy_f64, &Axpy<double>>(),
    implement<cand::scal_f32, &Scal<float>>(),
    implement<cand::scal_f64, &Scal<double>>(),
    implement<cand::sum_f32, &Sum<float>>(),
    implement<cand::sum_f64, &Sum<double>>(),
    implement<cand::asum_f32, &Asum<float>>(),
    implement<cand::asum_f64, &Asum<double>>(),
    implement<cand::nrm2_f32, &Nrm2<float>>(),
    implement<cand::nrm2_f64, &Nrm2<double>>(),
    implement<cand::iamax_f32, &Iamax<float>>(),
    implement<cand::iamax_f64, &Iamax<double>>(),
    // ------------------------------ Vector math (generic/math-inl.h)
    implement<cand::exp_f32, &Exp>(),
    implement<cand::log_f32, &Log>(),
    implement<cand::tanh_f32, &Tanh>(),
    implement<cand::sigmoid_f32, &Sigmoid>(),
    implement<cand::softmax_f32, &Softmax>(),
    // ------------------------------ GEMM and packing (generic/gemm-inl.h)
    implement<cand::gemm_workspace_f32, &GemmWorkspace<float>>(),
    implement<cand::gemm_workspace_f64, &GemmWorkspace<double>>(),
    implement<cand::gemm_f32, &Gemm<float>>(),
    implement<cand::gemm_f64, &Gemm<double>>(),
    implement<cand::packed_bytes_f32, &PackedBytes<float>>(),
    implement<cand::packed_bytes_f64, &PackedBytes<double>>(),
    implement<cand::pack_b_f32, &PackB<float>>(),
    implement<cand::pack_b_f64, &PackB<double>>(),
    implement<cand::gemm_packed_f32, &GemmPacked<float>>(),
    implement<cand::gemm_packed_f64, &GemmPacked<double>>(),
};

}  // namespace

extern const coheriq::OverrideTable overrides = coheriq::table_of(table);

}  // namespace coheriq::kernels::avx2
HWY_AFTER_NAMESPACE();
