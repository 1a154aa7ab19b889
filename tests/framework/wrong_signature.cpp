// Compiled by ctest, not by the build: an override whose signature differs from its candidate's
// must not compile (docs/api.md, "Authoring"). COHERIQ_SIGNATURE selects the override:
//   0  the candidate's exact signature (the control: must compile)
//   1  another return type
//   2  another parameter type
//   3  a missing parameter
//   4  a function of another candidate
#include <coheriq/engine.hpp>

#include "shapes.hpp"

namespace {

[[maybe_unused]] shapes::Result exact(double width, double height) {
  return {width * height, "exact"};
}
[[maybe_unused]] double wrong_return(double width, double height) { return width * height; }
[[maybe_unused]] shapes::Result wrong_parameter(float width, double height) {
  return {width * height, "float"};
}
[[maybe_unused]] shapes::Result missing_parameter(double width) {
  return {width * width, "square"};
}
[[maybe_unused]] int other_candidate(const int* storage, std::size_t, std::size_t i) {
  return storage[i];
}

#if COHERIQ_SIGNATURE == 0
#define OVERRIDE exact
#elif COHERIQ_SIGNATURE == 1
#define OVERRIDE wrong_return
#elif COHERIQ_SIGNATURE == 2
#define OVERRIDE wrong_parameter
#elif COHERIQ_SIGNATURE == 3
#define OVERRIDE missing_parameter
#elif COHERIQ_SIGNATURE == 4
#define OVERRIDE other_candidate
#else
#error "COHERIQ_SIGNATURE must be 0..4"
#endif

constexpr coheriq::Override overrides[] = {coheriq::implement<shapes::cand::area, &OVERRIDE>()};

}  // namespace

const coheriq::OverrideTable wrong_signature_table = coheriq::table_of(overrides);
