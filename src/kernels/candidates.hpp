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

// The candidates of a typed family for one element type, one member per row, for the code written
// once for float and double: GemmCandidates<T>::gemm (api.cpp, gemm_driver.cpp),
// Blas2Candidates<T>::gemv, Blas3BlockCandidates<T>::trsm_rows (level3.cpp).
#define COHERIQ_KERNELS_MEMBER(op, S, impl, touched, R, params, args) using op = cand::op##_##S;
#define COHERIQ_KERNELS_CANDIDATES_OF_TYPE(Name, Family) \
  template <class T>                                     \
  struct Name;                                           \
  template <>                                            \
  struct Name<float> {                                   \
    Family(COHERIQ_KERNELS_MEMBER, float, f32)           \
  };                                                     \
  template <>                                            \
  struct Name<double> {                                  \
    Family(COHERIQ_KERNELS_MEMBER, double, f64)          \
  };
COHERIQ_KERNELS_CANDIDATES_OF_TYPE(GemmCandidates, COHERIQ_KERNELS_GEMM_TYPED)
COHERIQ_KERNELS_CANDIDATES_OF_TYPE(Blas2Candidates, COHERIQ_KERNELS_BLAS2_TYPED)
COHERIQ_KERNELS_CANDIDATES_OF_TYPE(Blas3BlockCandidates, COHERIQ_KERNELS_BLAS3_BLOCKS_TYPED)
#undef COHERIQ_KERNELS_CANDIDATES_OF_TYPE
#undef COHERIQ_KERNELS_MEMBER

}  // namespace coheriq::kernels
