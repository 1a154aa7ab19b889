// The reference engine: the kernels domain's own implementation of every candidate, and
// Domain::reference(), through which the framework finds it.
//
// A constant-initialized table, like every engine's: reading it runs no code.
#include "kernels/candidates.hpp"
#include "reference/reference.hpp"

namespace coheriq::kernels {
namespace reference {
namespace {

// Every candidate of the list, by the name the list gives its implementation (reference.hpp).
constexpr coheriq::Override table[] = {COHERIQ_KERNELS_CANDIDATES(COHERIQ_KERNELS_IMPLEMENT)};

}  // namespace

extern const coheriq::OverrideTable overrides = coheriq::table_of(table);

}  // namespace reference

const coheriq::OverrideTable& Domain::reference() { return reference::overrides; }

}  // namespace coheriq::kernels
