// An engine's override table, the one symbol its kernels TU exports: its hand-written kernels
// first, then the generic kernels its line in cmake/CoheriqEngines.cmake takes (KERNELS all, none,
// or a list of candidate names); it inherits the others from its bases.
//
// One rule for every kernels TU: define your kernels and `kOwnKernels` (their override entries, an
// empty std::array when there are none) in coheriq::kernels::COHERIQ_ENGINE_NS, and
// `kOwnReproducibleKernels`, those of them that follow the reproducible mode's canonical order
// (src/kernels/reproducible.hpp; the others are left to the engine's bases in the mode), then
// include this header last (docs/adding-an-engine.md).
//
// The engine exports two tables: `overrides`, and `reproducible_overrides`, its kernels in the
// reproducible mode: the same rows, each generic kernel from reproducible:: (the canonical
// versions, engines/generic/reproducible-inl.h, where they differ), the hand-written kernels of
// kOwnReproducibleKernels. src/engines/generic/kernels.cpp is that TU for an engine
// with no hand-written kernels.
//
// The generic kernels read the engine's tuning record, so they are compiled for an engine that has
// one (src/engines/<engine>/tuning.hpp, required by configure when its line takes any). Every one
// is vector-length agnostic: on a scalable target (SVE) GEMM and packing read the lane count at
// run time (engines/generic/gemm-inl.h).
#ifndef COHERIQ_ENGINES_GENERIC_ENGINE_TABLE_H_
#define COHERIQ_ENGINES_GENERIC_ENGINE_TABLE_H_

#include <array>
#include <cstddef>
#include <iterator>
#include <string_view>

#include "engines/generic/namespace.h"
#include "kernels/candidates.hpp"
#ifdef COHERIQ_ENGINE_TUNING
#include "engines/generic/blas1-inl.h"
#include "engines/generic/blas2-inl.h"
#include "engines/generic/blas3-inl.h"
#include "engines/generic/forwarded-inl.h"
#include "engines/generic/gemm-inl.h"
#include "engines/generic/math-inl.h"
#include "engines/generic/reduced-inl.h"
#include "engines/generic/reproducible-inl.h"
#endif

COHERIQ_GENERIC_BEGIN

// Highway silently drops to an older target when one flag of the ISA record is missing.
static_assert(HWY_STATIC_TARGET == kEngine.hwy_target,
              "the kernels TU is not compiled for its ISA record's Highway target: complete the "
              "record's FLAGS in cmake/CoheriqEngines.cmake");

using coheriq::implement;

#ifdef COHERIQ_ENGINE_TUNING
constexpr coheriq::Override kGenericKernels[] = {
    COHERIQ_KERNELS_CANDIDATES(COHERIQ_KERNELS_IMPLEMENT)};
// Row for row the same candidates as kGenericKernels.
constexpr coheriq::Override kGenericReproducible[] = {
    COHERIQ_KERNELS_CANDIDATES(COHERIQ_KERNELS_IMPLEMENT_REPRODUCIBLE)};
#else
constexpr std::array<coheriq::Override, 0> kGenericKernels{};
constexpr std::array<coheriq::Override, 0> kGenericReproducible{};
#endif

// ------------------------------ The kernels the engine takes (compile time only)

// The candidate classes each generic kernel touches, in kGenericKernels' order.
#ifdef COHERIQ_ENGINE_TUNING
#define COHERIQ_KERNELS_TOUCHED(op, S, impl, classes, R, params, args) \
  coheriq::detail::touched_names<typename cand::op##_##S::touched>::value,
constexpr const std::string_view* kGenericTouched[] = {
    COHERIQ_KERNELS_CANDIDATES(COHERIQ_KERNELS_TOUCHED)};
#undef COHERIQ_KERNELS_TOUCHED
#else
constexpr std::array<const std::string_view*, 0> kGenericTouched{};
#endif

constexpr bool TakesAll() { return kEngine.kernels == "all"; }
// `none`: an engine of hand-written kernels only.
constexpr bool TakesNone() { return kEngine.kernels == "none"; }

// Whether the line's KERNELS (a comma-separated list) has an item for which matches(item).
template <class Matches>
constexpr bool ListsAny(Matches matches) {
  std::string_view rest = kEngine.kernels;
  while (!rest.empty()) {
    const std::size_t comma = rest.find(',');
    std::string_view item = rest.substr(0, comma);
    while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
    if (matches(item)) return true;
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
  return false;
}

// Whether `item` names generic kernel i: its candidate name, or "class:" and a class it touches
// (every kernel of a candidate class, as the coherence rule needs them from one engine).
constexpr bool Names(std::string_view item, std::size_t i) {
  if (item == kGenericKernels[i].candidate) return true;
  constexpr std::string_view kClass = "class:";
  if (item.substr(0, kClass.size()) != kClass) return false;
  for (const std::string_view* c = kGenericTouched[i]; !c->empty(); ++c) {
    if (*c == item.substr(kClass.size())) return true;
  }
  return false;
}

constexpr bool Taken(std::size_t i) {
  if (TakesAll()) return true;
  if (TakesNone()) return false;
  return ListsAny([i](std::string_view item) { return Names(item, i); });
}

constexpr bool EveryTakenNameIsGeneric() {
  if (TakesAll() || TakesNone()) return true;
  return !ListsAny([](std::string_view item) {
    for (std::size_t i = 0; i < std::size(kGenericKernels); ++i) {
      if (Names(item, i)) return false;
    }
    return true;  // an item that names nothing
  });
}
static_assert(EveryTakenNameIsGeneric(),
              "the engine line's KERNELS names a candidate or class:<candidate class> that has no "
              "generic kernel for this target (see COHERIQ_KERNELS_CANDIDATES in "
              "coheriq/kernels_table.hpp)");

// A candidate both hand-written and taken from the generic kernels would be provided twice.
constexpr bool OwnKernelsAreNotTaken() {
  for (const coheriq::Override& own : kOwnKernels) {
    for (std::size_t i = 0; i < std::size(kGenericKernels); ++i) {
      if (kGenericKernels[i].candidate == own.candidate && Taken(i)) return false;
    }
  }
  return true;
}
static_assert(OwnKernelsAreNotTaken(),
              "the engine line's KERNELS takes a generic kernel the engine also writes itself: "
              "remove it from KERNELS in cmake/CoheriqEngines.cmake");

constexpr std::size_t CountTaken() {
  std::size_t count = std::size(kOwnKernels);
  for (std::size_t i = 0; i < std::size(kGenericKernels); ++i) count += Taken(i) ? 1 : 0;
  return count;
}

// Every kernel of the reproducible mode's own list is one of the engine's own kernels.
constexpr bool OwnReproducibleAreOwn() {
  for (const coheriq::Override& r : kOwnReproducibleKernels) {
    bool found = false;
    for (const coheriq::Override& own : kOwnKernels) found = found || own.candidate == r.candidate;
    if (!found) return false;
  }
  return true;
}
static_assert(OwnReproducibleAreOwn(),
              "kOwnReproducibleKernels lists a kernel that is not in kOwnKernels: list the "
              "engine's own kernels that follow the canonical order, nothing else");

// Sized at least 1, so that an engine with no kernel at all still has a valid array; `count` is
// the truth.
struct EngineTable {
  coheriq::Override entries[CountTaken() > 0 ? CountTaken() : 1];
  std::size_t count;
};

// The engine's own kernels, then the generic kernels its line takes, from `generic` (row for row
// kGenericKernels' candidates).
template <class Own, class Generic>
constexpr EngineTable MakeTable(const Own& own_kernels, const Generic& generic) {
  EngineTable table{};
  std::size_t i = 0;
  for (const coheriq::Override& own : own_kernels) table.entries[i++] = own;
  for (std::size_t g = 0; g < std::size(kGenericKernels); ++g) {
    if (Taken(g)) table.entries[i++] = generic[g];
  }
  table.count = i;
  return table;
}

constexpr EngineTable kEngineTable = MakeTable(kOwnKernels, kGenericKernels);
constexpr EngineTable kReproducibleTable = MakeTable(kOwnReproducibleKernels, kGenericReproducible);

COHERIQ_GENERIC_END

namespace coheriq::kernels::COHERIQ_ENGINE_NS {
// The engine's one exported symbol, read by its descriptor (constant-initialized: no code runs).
extern const coheriq::OverrideTable overrides = {kEngineTable.entries, kEngineTable.count};
extern const coheriq::OverrideTable reproducible_overrides = {kReproducibleTable.entries,
                                                              kReproducibleTable.count};
}  // namespace coheriq::kernels::COHERIQ_ENGINE_NS

#endif  // COHERIQ_ENGINES_GENERIC_ENGINE_TABLE_H_
