// The zen5 engine's kernels: the generic GEMM and packing, compiled with the avx512 ISA record's
// flags and this engine's cache blocking (tuning.hpp); everything else (BLAS-1, math, and the
// reduced-precision kernels of avx512_vnni and avx512_bf16) is inherited through its bases.
//
// ISA hygiene (docs/engine-guide.md): everything compiled here has internal linkage except
// `overrides`, a constant-initialized table.
#include "engine-config.h"  // generated from the line: name, Highway target, tuning, kernels taken
#include "engines/generic/engine-inl.h"
