// Diamond composition: prints every engine's method-resolution order and which engine provides
// each stage, then runs the pipeline under one engine (default: combined) and checks that every
// stage ran the provider the framework reported.
//
//   diamond [ENGINE]
#include <coheriq/coheriq.hpp>

#include <cstdio>
#include <string>
#include <vector>

#include "pipeline.hpp"

namespace {

std::string joined(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& item : items) out += (out.empty() ? "" : " ") + item;
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string chosen = argc > 1 ? argv[1] : "combined";
  try {
    pipeline::register_team_engines();  // before the first use, like any static engine

    std::string expected_trace;
    for (const coheriq::EngineInfo& e : coheriq::engines(pipeline::Domain::name)) {
      std::printf("%s (%s, priority %d): %s\n", e.name.c_str(), e.origin.c_str(), e.priority,
                  e.description.c_str());
      std::printf("  mro: %s\n", joined(e.mro).c_str());
      for (const coheriq::EngineInfo::Provider& p : e.providers) {
        std::printf("  %-9s from %s\n", p.candidate.c_str(), p.engine.c_str());
        if (e.name == chosen) {
          expected_trace += (expected_trace.empty() ? "" : " ") + p.candidate + "@" + p.engine;
        }
      }
    }

    coheriq::enable_engine(pipeline::Domain::name, chosen);
    const std::string trace = pipeline::run();
    std::printf("run with %s: %s\n", chosen.c_str(), trace.c_str());
    if (trace != expected_trace) {
      std::printf("MISMATCH: the providers listed say %s\n", expected_trace.c_str());
      return 1;
    }
    std::printf("ok: every stage ran its provider\n");
    return 0;
  } catch (const coheriq::Error& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
}
