// Every generic kernel, compiled for the including engine, and the table that overrides each
// candidate with it (generic_overrides).
//
// Meant to be included once per engine TU (src/engines/<engine>/kernels.cpp), inside `namespace
// coheriq::kernels::<engine> { namespace {`, with `namespace hn = hwy::HWY_NAMESPACE;` declared,
// HWY_BEFORE_NAMESPACE() active, and the engine's gemm-layout.hpp included (its layout constants
// are checked against the GEMM blocking compiled here). No include guard.
//
// An engine that overrides every generic kernel exports generic_overrides as is; one that wins
// only on some lists those in its own table, and inherits the rest from its bases.
#include "engines/generic/blas1-inl.h"
#include "engines/generic/gemm-inl.h"
#include "engines/generic/math-inl.h"

// The PackedMatrix layouts the engine's descriptor names (its gemm-layout.hpp, included by the
// engine TU) are the ones GEMM packs here.
static_assert(GemmShape<float>::kNR == kGemmPanelColumnsF32 &&
                  GemmShape<float>::kKC == kGemmKBlockF32,
              "update gemm-layout.hpp: the f32 GEMM blocking changed the PackedMatrix layout");
static_assert(GemmShape<double>::kNR == kGemmPanelColumnsF64 &&
                  GemmShape<double>::kKC == kGemmKBlockF64,
              "update gemm-layout.hpp: the f64 GEMM blocking changed the PackedMatrix layout");

using coheriq::implement;

constexpr coheriq::Override generic_overrides[] = {
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
