// The kernels domain's candidate list lives in the public authoring header, so that engines built
// outside this repository (plugins) name the same candidates.
#pragma once
#include <coheriq/kernels_domain.hpp>

// One override-table entry per row of the candidate list: the implementation named in the row
// (`impl`), looked up where the table is written (the reference engine, or a generic engine).
//   constexpr coheriq::Override table[] = {COHERIQ_KERNELS_CANDIDATES(COHERIQ_KERNELS_IMPLEMENT)};
#define COHERIQ_KERNELS_IMPLEMENT(op, S, impl, touched, R, params, args) \
  coheriq::implement<cand::op##_##S, &impl>(),
// The same for the reproducible mode: `reproducible::impl`, where the engine's nested namespace
// `reproducible` declares the kernels whose canonical order differs from the fast one and takes
// every other by a using-directive of the engine's namespace (qualified lookup finds its own
// declaration first, the engine's otherwise).
#define COHERIQ_KERNELS_IMPLEMENT_REPRODUCIBLE(op, S, impl, touched, R, params, args) \
  coheriq::implement<cand::op##_##S, &reproducible::impl>(),

namespace coheriq::kernels {

// The GEMM candidates of an element type, one member per GEMM row of the kernels' table, for the
// code written once for float and double (api.cpp, gemm_driver.cpp).
template <class T>
struct GemmCandidates;
#define COHERIQ_KERNELS_GEMM_CANDIDATE(op, S, impl, touched, R, params, args) \
  using op = cand::op##_##S;
template <>
struct GemmCandidates<float> {
  COHERIQ_KERNELS_GEMM_TYPED(COHERIQ_KERNELS_GEMM_CANDIDATE, float, f32)
};
template <>
struct GemmCandidates<double> {
  COHERIQ_KERNELS_GEMM_TYPED(COHERIQ_KERNELS_GEMM_CANDIDATE, double, f64)
};
// The same for the BLAS-2 rows: Blas2Candidates<T>::gemv.
template <class T>
struct Blas2Candidates;
template <>
struct Blas2Candidates<float> {
  COHERIQ_KERNELS_BLAS2_TYPED(COHERIQ_KERNELS_GEMM_CANDIDATE, float, f32)
};
template <>
struct Blas2Candidates<double> {
  COHERIQ_KERNELS_BLAS2_TYPED(COHERIQ_KERNELS_GEMM_CANDIDATE, double, f64)
};
// And for the level 3's base blocks: Blas3BlockCandidates<T>::trsm_rows.
template <class T>
struct Blas3BlockCandidates;
template <>
struct Blas3BlockCandidates<float> {
  COHERIQ_KERNELS_BLAS3_BLOCKS_TYPED(COHERIQ_KERNELS_GEMM_CANDIDATE, float, f32)
};
template <>
struct Blas3BlockCandidates<double> {
  COHERIQ_KERNELS_BLAS3_BLOCKS_TYPED(COHERIQ_KERNELS_GEMM_CANDIDATE, double, f64)
};
#undef COHERIQ_KERNELS_GEMM_CANDIDATE

}  // namespace coheriq::kernels
