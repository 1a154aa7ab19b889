// The sve engine's kernels: the generic BLAS-1 and math kernels, compiled for Highway's SVE target
// (-march=armv8-a+sve), vector-length agnostic: the lane count is read at run time, so one binary
// is correct at every SVE length from 128 to 2048 bits (tests/emulation runs it at 128, 256, 512
// and 2048). The GEMM and PackedMatrix layout are neon's (the engine's base): the generic GEMM
// needs a register tile fixed at compile time (engines/generic/gemm-inl.h), and its line takes
// no GEMM candidate, so the descriptor declares no PackedMatrix layout of its own.
//
// ISA hygiene (docs/engine-guide.md): everything compiled here has internal linkage except
// `overrides`, a constant-initialized table; no allocation, exceptions or STL instantiations.
#include "engine-config.h"  // generated from the line: name, Highway target, tuning, kernels taken
#include "engines/generic/engine-inl.h"
