// The avx2 engine's kernels: the generic kernels its line in cmake/CoheriqEngines.cmake takes,
// compiled with its ISA record's flags (AVX2 + FMA, 256-bit) and GEMM tuning (tuning.hpp).
//
// ISA hygiene (docs/engine-guide.md): everything compiled here has internal linkage except
// `overrides`, a constant-initialized table; no allocation, exceptions or STL instantiations.
#include "engine-config.h"  // generated from the line: name, Highway target, tuning, kernels taken
#include "engines/generic/engine-inl.h"
