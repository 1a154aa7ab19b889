// The tuning record of the engine in effect, for the baseline code that decides around its
// kernels (the GEMM driver's threads). Records are constants (kernels/tuning.hpp); each built-in
// engine's descriptor hands over its own, so baseline code never includes an ISA header.
#pragma once

#include <string_view>

#include "kernels/tuning.hpp"

namespace coheriq::kernels {

// The record of built-in engine `engine`, or nullptr: an engine of hand-written kernels only,
// or one that is not built in (registry.cpp, from each engine's descriptor).
const Tuning* builtin_tuning(std::string_view engine);

// The record candidate `candidate` (e.g. "gemm.f32") runs with in the engine in effect: that of
// the engine that provides it, else of the first engine after that one in the MRO that has a
// record (a hand-written or plugin engine runs with its bases' figures), else kDefaultTuning.
// Call it once the domain is locked: until then the engine in effect may still change. The record
// lives as long as the process.
const Tuning& tuning_in_effect(std::string_view candidate);

}  // namespace coheriq::kernels
