// The neon engine's kernels: the generic kernels its line in cmake/CoheriqEngines.cmake takes,
// compiled for Highway's NEON target (AdvSIMD, 128-bit: 4 f32 or 2 f64 lanes, 32 registers) with
// its GEMM tuning (tuning.hpp).
//
// ISA hygiene (docs/engine-guide.md): everything compiled here has internal linkage except
// `overrides`, a constant-initialized table; no allocation, exceptions or STL instantiations.
#include "engine-config.h"  // generated from the line: name, Highway target, tuning, kernels taken
#include "engines/generic/engine-inl.h"
