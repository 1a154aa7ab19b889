// example.pipeline: four stages of a data pipeline. Each stage appends "<stage>@<engine>" to a
// trace, so a run shows which engine's code ran each stage.
#pragma once

#include <coheriq/domain.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace pipeline {

namespace cand {
struct decode : coheriq::candidate<void(std::string&)> {
  static constexpr std::string_view name = "decode";
};
struct filter : coheriq::candidate<void(std::string&)> {
  static constexpr std::string_view name = "filter";
};
struct encode : coheriq::candidate<void(std::string&)> {
  static constexpr std::string_view name = "encode";
};
struct checksum : coheriq::candidate<void(std::string&)> {
  static constexpr std::string_view name = "checksum";
};
}  // namespace cand

struct Domain {
  static constexpr std::string_view name = "example.pipeline";
  static constexpr std::string_view env_var = "PIPELINE_ENGINE";
  static constexpr std::string_view abi = "example.pipeline/1";
  using classes = coheriq::list<>;
  using candidates = coheriq::list<cand::decode, cand::filter, cand::encode, cand::checksum>;
  static const coheriq::OverrideTable& reference();
  static std::vector<coheriq::EngineSpec> builtin_engines();  // simd
};

// The implementation of stage `Stage` in engine `Engine`: it records itself in the trace. Every
// engine of this example instantiates it; a real engine would transform data here.
template <const std::string_view& Stage, const std::string_view& Engine>
void traced_stage(std::string& trace) {
  trace.append(trace.empty() ? "" : " ").append(Stage).append("@").append(Engine);
}

// Runs the four stages; returns the trace.
std::string run();

// Engines written elsewhere (teams.cpp), registered by the application before the first run.
void register_team_engines();

}  // namespace pipeline
