// The override table of an engine with hand-written kernels: its own kernels (kOwnKernels,
// defined by its kernels TU) first, then the generic kernels its line takes (kTakenTable, from
// engine-inl.h). Included last by such a TU, which defined COHERIQ_ENGINE_OWN_KERNELS before
// including engine-inl.h (docs/adding-an-engine.md).
#ifndef COHERIQ_ENGINES_GENERIC_ENGINE_TABLE_H_
#define COHERIQ_ENGINES_GENERIC_ENGINE_TABLE_H_

#ifndef COHERIQ_ENGINE_OWN_KERNELS
#error "define COHERIQ_ENGINE_OWN_KERNELS before including engines/generic/engine-inl.h"
#endif

#include <cstddef>
#include <iterator>
#include <string_view>

#include "engines/generic/engine-inl.h"

COHERIQ_GENERIC_BEGIN

// A candidate both hand-written and taken from the generic kernels would be provided twice.
constexpr bool OwnKernelsAreNotTaken() {
  for (const coheriq::Override& own : kOwnKernels) {
    for (std::size_t i = 0; i < kTakenTable.count; ++i) {
      if (kTakenTable.entries[i].candidate == own.candidate) return false;
    }
  }
  return true;
}
static_assert(OwnKernelsAreNotTaken(),
              "the engine line's KERNELS takes a generic kernel the engine also writes itself: "
              "remove it from KERNELS in cmake/CoheriqEngines.cmake");

struct EngineTable {
  coheriq::Override entries[std::size(kOwnKernels) + kTakenTable.count];
};

constexpr EngineTable MergeTables() {
  EngineTable table{};
  std::size_t i = 0;
  for (const coheriq::Override& own : kOwnKernels) table.entries[i++] = own;
  for (std::size_t t = 0; t < kTakenTable.count; ++t) table.entries[i++] = kTakenTable.entries[t];
  return table;
}

constexpr EngineTable kEngineTable = MergeTables();

COHERIQ_GENERIC_END

namespace coheriq::kernels::COHERIQ_ENGINE_NS {
// The engine's one exported symbol, read by its descriptor (constant-initialized: no code runs).
extern const coheriq::OverrideTable overrides = {kEngineTable.entries,
                                                 std::size(kEngineTable.entries)};
}  // namespace coheriq::kernels::COHERIQ_ENGINE_NS

#endif  // COHERIQ_ENGINES_GENERIC_ENGINE_TABLE_H_
