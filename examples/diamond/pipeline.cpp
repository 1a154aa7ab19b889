// example.pipeline: the reference, the built-in simd engine, and the public function.
#include "pipeline.hpp"

#include <coheriq/engine.hpp>

namespace pipeline {
namespace {

constexpr std::string_view kReference = "reference";
constexpr std::string_view kSimd = "simd";

constexpr coheriq::Override reference_overrides[] = {
    coheriq::implement<cand::decode, &traced_stage<cand::decode::name, kReference>>(),
    coheriq::implement<cand::filter, &traced_stage<cand::filter::name, kReference>>(),
    coheriq::implement<cand::encode, &traced_stage<cand::encode::name, kReference>>(),
    coheriq::implement<cand::checksum, &traced_stage<cand::checksum::name, kReference>>(),
};
constexpr coheriq::OverrideTable reference_table = coheriq::table_of(reference_overrides);

constexpr coheriq::Override simd_overrides[] = {
    coheriq::implement<cand::decode, &traced_stage<cand::decode::name, kSimd>>(),
    coheriq::implement<cand::filter, &traced_stage<cand::filter::name, kSimd>>(),
    coheriq::implement<cand::encode, &traced_stage<cand::encode::name, kSimd>>(),
    coheriq::implement<cand::checksum, &traced_stage<cand::checksum::name, kSimd>>(),
};
constexpr coheriq::OverrideTable simd_table = coheriq::table_of(simd_overrides);

[[maybe_unused]] const bool materialized = (coheriq::materialize<Domain>(), true);

}  // namespace

const coheriq::OverrideTable& Domain::reference() { return reference_table; }

std::vector<coheriq::EngineSpec> Domain::builtin_engines() {
  coheriq::EngineSpec simd;
  simd.domain = std::string(Domain::name);
  simd.name = "simd";
  simd.description = "every stage, vectorized";
  simd.priority = 10;
  simd.overrides = &simd_table;
  return {simd};
}

std::string run() {
  std::string trace;
  coheriq::call<Domain, cand::decode>(trace);
  coheriq::call<Domain, cand::filter>(trace);
  coheriq::call<Domain, cand::encode>(trace);
  coheriq::call<Domain, cand::checksum>(trace);
  return trace;
}

}  // namespace pipeline
