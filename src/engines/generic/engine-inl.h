// Every generic kernel, compiled for the including engine, and the engine's override table:
// the generic kernels its line in cmake/CoheriqEngines.cmake takes (KERNELS all, none, or a list
// of candidate names) after the engine's own hand-written kernels, if any; it inherits the
// others from its bases.
//
// Included once, by src/engines/<engine>/kernels.cpp, after its generated engine-config.h.
// Every kernel is vector-length agnostic: on a scalable target (SVE) GEMM and packing read the
// lane count at run time (engines/generic/gemm-inl.h).
//
// An engine with hand-written kernels defines COHERIQ_ENGINE_OWN_KERNELS before this include,
// then, after it, defines them and `constexpr coheriq::Override kOwnKernels[]` between
// COHERIQ_GENERIC_BEGIN and COHERIQ_GENERIC_END, and includes engines/generic/engine-table.h
// last (docs/adding-an-engine.md). Otherwise this header ends the table itself.
#ifndef COHERIQ_ENGINES_GENERIC_ENGINE_INL_H_
#define COHERIQ_ENGINES_GENERIC_ENGINE_INL_H_

#include <cstddef>
#include <string_view>

#include "engines/generic/blas1-inl.h"
#include "engines/generic/math-inl.h"
#include "engines/generic/namespace.h"
#include "engines/generic/reduced-inl.h"
// The generic GEMM needs the engine's tuning (engines that take no GEMM kernel have none).
#if defined(COHERIQ_ENGINE_TUNING)
#define COHERIQ_ENGINE_GENERIC_GEMM 1
#include "engines/generic/gemm-inl.h"
#endif
#include "kernels/candidates.hpp"

#ifdef COHERIQ_ENGINE_HWY_TARGET
// Highway silently drops to an older target when one flag of the ISA record is missing.
static_assert(HWY_STATIC_TARGET == COHERIQ_ENGINE_HWY_TARGET,
              "the kernels TU is not compiled for its ISA record's Highway target: complete the "
              "record's FLAGS in cmake/CoheriqEngines.cmake");
#endif

COHERIQ_GENERIC_BEGIN

using coheriq::implement;

constexpr coheriq::Override kGenericKernels[] = {
    COHERIQ_KERNELS_PUBLIC(COHERIQ_KERNELS_IMPLEMENT)
#ifdef COHERIQ_ENGINE_GENERIC_GEMM
        COHERIQ_KERNELS_GEMM(COHERIQ_KERNELS_IMPLEMENT)
#endif
            COHERIQ_KERNELS_REDUCED(COHERIQ_KERNELS_IMPLEMENT)};

// ------------------------------ The kernels the engine takes (compile time only)

#ifndef COHERIQ_ENGINE_KERNELS
#define COHERIQ_ENGINE_KERNELS "all"
#endif
constexpr std::string_view kTaken[] = {COHERIQ_ENGINE_KERNELS};

constexpr bool TakesAll() { return std::size(kTaken) == 1 && kTaken[0] == "all"; }
// `none`: an engine of hand-written kernels only.
constexpr bool TakesNone() { return std::size(kTaken) == 1 && kTaken[0] == "none"; }

constexpr bool Taken(std::string_view candidate) {
  if (TakesAll()) return true;
  if (TakesNone()) return false;
  for (std::string_view t : kTaken) {
    if (t == candidate) return true;
  }
  return false;
}

constexpr bool EveryTakenNameIsGeneric() {
  if (TakesAll() || TakesNone()) return true;
  for (std::string_view t : kTaken) {
    bool found = false;
    for (const coheriq::Override& o : kGenericKernels) found = found || o.candidate == t;
    if (!found) return false;
  }
  return true;
}
static_assert(EveryTakenNameIsGeneric(),
              "the engine line's KERNELS names a candidate that has no generic kernel for this "
              "target (see COHERIQ_KERNELS_CANDIDATES in coheriq/kernels_domain.hpp)");

constexpr std::size_t CountTaken() {
  std::size_t count = 0;
  for (const coheriq::Override& o : kGenericKernels) count += Taken(o.candidate) ? 1 : 0;
  return count;
}

// Sized at least 1, so that an engine taking none still has a valid array; `count` is the truth.
struct TakenTable {
  coheriq::Override entries[CountTaken() > 0 ? CountTaken() : 1];
  std::size_t count;
};

constexpr TakenTable SelectTaken() {
  TakenTable table{};
  std::size_t i = 0;
  for (const coheriq::Override& o : kGenericKernels) {
    if (Taken(o.candidate)) table.entries[i++] = o;
  }
  table.count = i;
  return table;
}

constexpr TakenTable kTakenTable = SelectTaken();

COHERIQ_GENERIC_END

#ifndef COHERIQ_ENGINE_OWN_KERNELS
namespace coheriq::kernels::COHERIQ_ENGINE_NS {
// The engine's one exported symbol, read by its descriptor (constant-initialized: no code runs).
extern const coheriq::OverrideTable overrides = {kTakenTable.entries, kTakenTable.count};
}  // namespace coheriq::kernels::COHERIQ_ENGINE_NS
#endif

#endif  // COHERIQ_ENGINES_GENERIC_ENGINE_INL_H_
