// The reference engine: the kernels domain's own implementation of every candidate, and
// Domain::reference(), through which the framework finds it; and the same in the reproducible
// mode, Domain::reference_reproducible().
//
// Constant-initialized tables, like every engine's: reading them runs no code.
#include "kernels/candidates.hpp"
#include "reference/reference.hpp"
#include "reference/reproducible.hpp"

namespace coheriq::kernels {
namespace reference {
namespace {

// Every candidate of the list, by the name the list gives its implementation (reference.hpp).
constexpr coheriq::Override table[] = {COHERIQ_KERNELS_CANDIDATES(COHERIQ_KERNELS_IMPLEMENT)};

// The same rows in the reproducible mode: reproducible::impl, the mode's kernel where it has one
// and the normal kernel otherwise (reproducible.hpp).
constexpr coheriq::Override reproducible_table[] = {
    COHERIQ_KERNELS_CANDIDATES(COHERIQ_KERNELS_IMPLEMENT_REPRODUCIBLE)};

}  // namespace

extern const coheriq::OverrideTable overrides = coheriq::table_of(table);
extern const coheriq::OverrideTable reproducible_overrides = coheriq::table_of(reproducible_table);

}  // namespace reference

const coheriq::OverrideTable& Domain::reference() { return reference::overrides; }
const coheriq::OverrideTable& Domain::reference_reproducible() {
  return reference::reproducible_overrides;
}

}  // namespace coheriq::kernels
