// The kernels TU of an engine without hand-written kernels: the generic kernels its line in
// cmake/CoheriqEngines.cmake takes, compiled with its ISA record's flags and its tuning record
// (src/engines/<engine>/tuning.hpp). Configure compiles this file once per such engine, with
// COHERIQ_ENGINE_NS=<engine>.
//
// ISA hygiene (docs/engine-guide.md): everything compiled here has internal linkage except
// `overrides`, a constant-initialized table; no allocation, exceptions or STL instantiations.
#include <coheriq/engine.hpp>

#include <array>

#include "engines/generic/namespace.h"

namespace coheriq::kernels::COHERIQ_ENGINE_NS {
namespace {
constexpr std::array<coheriq::Override, 0> kOwnKernels{};  // no hand-written kernels
constexpr std::array<coheriq::Override, 0> kOwnReproducibleKernels{};
}  // namespace
}  // namespace coheriq::kernels::COHERIQ_ENGINE_NS

#include "engines/generic/engine-table.h"
