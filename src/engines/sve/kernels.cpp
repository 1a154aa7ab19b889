// The sve engine's kernels: every generic kernel, compiled for Highway's SVE target
// (-march=armv8-a+sve), vector-length agnostic: the lane count is read at run time, so one binary
// is correct at every SVE length from 128 to 2048 bits (tests/emulation runs it at 128, 256, 512
// and 2048). Its GEMM tile is MR rows x 2 vectors of the run-time length, and pack_b's panels are
// as wide (tuning.hpp); the descriptor names each PackedMatrix layout with the vector length the
// process runs at (kernels/layout_name.cpp), so a layout packed at one length is another
// layout at another length.
//
// ISA hygiene (docs/engine-guide.md): everything compiled here has internal linkage except
// `overrides`, a constant-initialized table; no allocation, exceptions or STL instantiations.
#include "engine-config.h"  // generated from the line: name, Highway target, tuning, kernels taken
#include "engines/generic/engine-inl.h"
