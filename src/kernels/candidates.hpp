// The kernels domain's candidate list lives in the public authoring header, so that engines built
// outside this repository (plugins) name the same candidates.
#pragma once
#include <coheriq/kernels_domain.hpp>

// One override-table entry per row of the candidate list: the implementation named in the row
// (`impl`), looked up where the table is written (the reference engine, or a generic engine).
//   constexpr coheriq::Override table[] = {COHERIQ_KERNELS_CANDIDATES(COHERIQ_KERNELS_IMPLEMENT)};
#define COHERIQ_KERNELS_IMPLEMENT(op, S, impl, touched, R, params, args) \
  coheriq::implement<cand::op##_##S, &impl>(),
