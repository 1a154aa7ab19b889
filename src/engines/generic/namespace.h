// Where generic kernels are compiled, and what they know of their engine.
//
// COHERIQ_GENERIC_BEGIN opens the including engine's namespace, coheriq::kernels::<engine>, with
// an unnamed namespace inside it (internal linkage: nothing built with the engine's ISA flags can
// be picked by the linker for another TU) and the Highway target region; COHERIQ_GENERIC_END
// closes them.
//
// The engine is the one COHERIQ_ENGINE_NS names, its kernels TU's compile definition
// (cmake/CoheriqEngines.cmake). In its namespace: `kEngine`, its row of the generated header of
// engine rows (Highway target, vector registers, generic kernels taken), and `kTuning`, its tuning
// record (kernels/tuning.hpp), from the header COHERIQ_ENGINE_TUNING names. Read on its own (an
// editor, clangd), a generic header compiles into the placeholder engine `standalone`: the static
// Highway target, 32 vector registers, every kernel and the default tuning.
#pragma once

#include <cstddef>
#include <string_view>

#include "hwy/highway.h"
#include "kernels/tuning.hpp"

#ifdef COHERIQ_ENGINE_NS
#include "builtin_engines.h"
#else
#define COHERIQ_ENGINE_NS standalone
#endif
#ifdef COHERIQ_ENGINE_TUNING
#include COHERIQ_ENGINE_TUNING
#endif

#define COHERIQ_GENERIC_BEGIN                     \
  HWY_BEFORE_NAMESPACE();                         \
  namespace coheriq::kernels::COHERIQ_ENGINE_NS { \
  namespace {                                     \
  namespace hn = hwy::HWY_NAMESPACE;

#define COHERIQ_GENERIC_END                    \
  } /* namespace */                            \
  } /* namespace coheriq::kernels::<engine> */ \
  HWY_AFTER_NAMESPACE();

#define COHERIQ_GENERIC_STRINGIFY_(x) #x
#define COHERIQ_GENERIC_STRINGIFY(x) COHERIQ_GENERIC_STRINGIFY_(x)

namespace coheriq::kernels::COHERIQ_ENGINE_NS {
namespace {

// What an engine's kernels TU compiles, from its line.
struct EngineRow {
  std::string_view name;
  long long hwy_target;  // the Highway static target its ISA record's flags must give
  std::size_t vector_registers;
  std::string_view kernels;  // the generic kernels it takes: "all", "none" or "a, b, ..."
};

#ifdef COHERIQ_BUILTIN_ENGINES
#define COHERIQ_GENERIC_ROW(name, priority, target, registers, bases, features, host, kernels, \
                            layouts, description)                                              \
  EngineRow{#name, target, registers, kernels},
constexpr EngineRow kBuiltinRows[] = {COHERIQ_BUILTIN_ENGINES(COHERIQ_GENERIC_ROW)};
#undef COHERIQ_GENERIC_ROW

constexpr EngineRow FindRow(std::string_view name) {
  for (const EngineRow& row : kBuiltinRows) {
    if (row.name == name) return row;
  }
  return EngineRow{};
}

constexpr EngineRow kEngine = FindRow(COHERIQ_GENERIC_STRINGIFY(COHERIQ_ENGINE_NS));
static_assert(!kEngine.name.empty(),
              "COHERIQ_ENGINE_NS names no engine of this build (builtin_engines.h): the kernels TU "
              "of an engine is compiled by cmake/CoheriqEngines.cmake, for an engine of "
              "COHERIQ_ENGINES");
#else
constexpr EngineRow kEngine = {"standalone", HWY_STATIC_TARGET, 32, "all"};
#endif

#ifndef COHERIQ_ENGINE_TUNING
[[maybe_unused]] constexpr const Tuning& kTuning = kDefaultTuning;
#endif

}  // namespace
}  // namespace coheriq::kernels::COHERIQ_ENGINE_NS
