// Engines from two teams that never talked to each other, each built on the domain's simd
// engine, and a third engine that combines them without writing a kernel:
//
//              simd
//             /    \             two teams, each on simd:
//   fast_filter    fast_checksum  both override filter; fast_checksum also checksum
//             \    /              one engine on both, in this order:
//            combined             bases: fast_filter, fast_checksum
//
// combined's order is the C3 linearization: combined, fast_filter, fast_checksum, simd,
// reference. A depth-first order would visit simd before fast_checksum and lose its checksum.
#include <coheriq/engine.hpp>

#include "pipeline.hpp"

namespace pipeline {
namespace {

constexpr std::string_view kFastFilter = "fast_filter";
constexpr std::string_view kFastChecksum = "fast_checksum";

constexpr coheriq::Override fast_filter_overrides[] = {
    coheriq::implement<cand::filter, &traced_stage<cand::filter::name, kFastFilter>>(),
};
constexpr coheriq::OverrideTable fast_filter_table = coheriq::table_of(fast_filter_overrides);

constexpr coheriq::Override fast_checksum_overrides[] = {
    coheriq::implement<cand::filter, &traced_stage<cand::filter::name, kFastChecksum>>(),
    coheriq::implement<cand::checksum, &traced_stage<cand::checksum::name, kFastChecksum>>(),
};
constexpr coheriq::OverrideTable fast_checksum_table = coheriq::table_of(fast_checksum_overrides);

coheriq::EngineSpec engine(std::string name, std::string description,
                           std::vector<std::string> bases, int priority,
                           const coheriq::OverrideTable* overrides) {
  coheriq::EngineSpec e;
  e.domain = std::string(Domain::name);
  e.name = std::move(name);
  e.description = std::move(description);
  e.bases = std::move(bases);
  e.priority = priority;
  e.overrides = overrides;
  return e;
}

}  // namespace

void register_team_engines() {
  coheriq::register_engine(
      engine("fast_filter", "team A: a faster filter", {"simd"}, 20, &fast_filter_table));
  coheriq::register_engine(engine("fast_checksum", "team B: a faster checksum (and filter)",
                                  {"simd"}, 20, &fast_checksum_table));
  // Kernels of its own: none. Its bases say which team's filter wins: the first one.
  coheriq::register_engine(engine("combined", "team A's filter with team B's checksum",
                                  {"fast_filter", "fast_checksum"}, 30, nullptr));
}

}  // namespace pipeline
