// A built-in engine's descriptor: its row of the generated header of engine rows
// (builtin_engines.h, from its line in cmake/CoheriqEngines.cmake) as an EngineSpec. Compiled once
// per engine, with COHERIQ_ENGINE_NS=<engine> and, when it has a tuning record,
// COHERIQ_ENGINE_TUNING=<its tuning.hpp> (the same definitions as its kernels TU). Baseline code:
// it names the engine and reads and hands over its tuning's constants, and runs none of its
// kernels.
#include <string>
#include <string_view>
#include <vector>

#include "builtin_engines.h"
#include "core/env.hpp"
#include "kernels/candidates.hpp"
#include "kernels/layout_name.hpp"
#include "kernels/reproducible.hpp"
#include "kernels/tuning.hpp"
#ifdef COHERIQ_ENGINE_TUNING
#include COHERIQ_ENGINE_TUNING
#endif

#ifndef COHERIQ_ENGINE_NS
#error "compile descriptor.cpp with COHERIQ_ENGINE_NS=<engine> (cmake/CoheriqEngines.cmake does)"
#endif

namespace coheriq::kernels::COHERIQ_ENGINE_NS {
namespace {

// The engine's line, as its row states it.
struct Line {
  std::string_view name;
  int priority = 0;
  std::string_view bases, features, host, kernels;
  std::vector<std::string_view> layouts;  // "<candidate class>=<layout name>"
  std::string_view description;
};

#define COHERIQ_STRINGIFY_(x) #x
#define COHERIQ_STRINGIFY(x) COHERIQ_STRINGIFY_(x)
#define COHERIQ_BRACED(...) \
  { __VA_ARGS__ }

Line line() {
#define COHERIQ_LINE(engine, priority, target, registers, bases, features, host, kernels, layouts, \
                     description)                                                                  \
  if (std::string_view(#engine) == COHERIQ_STRINGIFY(COHERIQ_ENGINE_NS)) {                         \
    return Line{#engine,                                                                           \
                priority,                                                                          \
                bases,                                                                             \
                features,                                                                          \
                host,                                                                              \
                kernels,                                                                           \
                std::vector<std::string_view>                                                      \
                    COHERIQ_BRACED layouts,                                                        \
                description};                                                                      \
  }
  COHERIQ_BUILTIN_ENGINES(COHERIQ_LINE)
#undef COHERIQ_LINE
  return Line{};
}

// A list column: comma-separated names, parsed as the library's own lists are.
std::vector<std::string> names(std::string_view text, std::string_view column) {
  return detail::parse_engine_list(
      text, std::string(column) + " of engine line '" + COHERIQ_STRINGIFY(COHERIQ_ENGINE_NS) + "'");
}

}  // namespace

extern const coheriq::OverrideTable overrides;               // its kernels TU
extern const coheriq::OverrideTable reproducible_overrides;  // the same, in the reproducible mode

// Its tuning record, for the baseline code that decides around its kernels (the GEMM driver's
// threads, kernels/tuning_in_effect.hpp); none for an engine of hand-written kernels only.
const Tuning* tuning() {
#ifdef COHERIQ_ENGINE_TUNING
  return &kTuning;
#else
  return nullptr;
#endif
}

coheriq::EngineSpec describe() {
  const Line l = line();
  const std::string where =
      "coheriq: engine line '" + std::string(l.name) + "' of cmake/CoheriqEngines.cmake";
  coheriq::EngineSpec e;
  e.domain = std::string(domain_name);
  e.name = std::string(l.name);
  e.description = std::string(l.description);
  e.bases = names(l.bases, "BASES");
  e.required_features = names(l.features, "the ISA record's FEATURES");
  e.priority = l.priority;
  if (!l.host.empty()) {
    if (const std::string error = detail::parse_host_requirements(l.host, e.host); !error.empty()) {
      throw coheriq::CompositionError(where + ": HOST: " + error);
    }
  }
  // Its own PackedMatrix layouts, named from the blocking its kernels TU packs with: those whose
  // generic pack_b it takes.
#ifdef COHERIQ_ENGINE_TUNING
  // KERNELS items are candidate names and "class:<candidate class>" (every kernel touching the
  // class; its kernels TU checks at compile time that each item names generic kernels).
  constexpr std::string_view kClass = "class:";
  std::vector<std::string> classes;
  std::string candidates;
  for (std::string_view rest = l.kernels; !rest.empty();) {
    const std::size_t comma = rest.find(',');
    std::string_view item = rest.substr(0, comma);
    while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
    if (item.substr(0, kClass.size()) == kClass) {
      classes.emplace_back(item.substr(kClass.size()));
    } else {
      if (!candidates.empty()) candidates += ',';
      candidates += item;
    }
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
  }
  const std::vector<std::string> taken = names(candidates, "KERNELS");
  // Whether it takes the generic pack_b of a layout class.
  const auto takes = [&](std::string_view candidate, std::string_view layout_class) {
    for (const std::string& t : taken) {
      if (t == "all" || t == candidate) return true;
    }
    for (const std::string& c : classes) {
      if (c == layout_class) return true;
    }
    return false;
  };
  // In the reproducible mode the panels are the same and the k-blocks the domain's (at most
  // canonical::kGemmKc deep).
  // `widened`: what the packing does to a narrower operand, said after the layout.
  const auto packed = [&](std::string_view cls, const GemmTuning& blocking,
                          std::string_view widened = {}) {
    GemmTuning in_mode = blocking;
    in_mode.kc = canonical::kGemmKc;
    e.layouts.push_back({std::string(cls),
                         gemm_layout_name(l.name, blocking) + std::string(widened),
                         gemm_layout_name(l.name, in_mode) + std::string(widened)});
  };
  if (takes(cand::pack_b_f32::name, cand::packed_f32::name)) {
    packed(cand::packed_f32::name, kTuning.gemm.f32);
  }
  if (takes(cand::pack_b_f64::name, cand::packed_f64::name)) {
    packed(cand::packed_f64::name, kTuning.gemm.f64);
  }
  // The generic reduced GEMMs pack B in each call's workspace: the integer one into pairs of k
  // (engines/generic/reduced-inl.h), the bf16 one widened into the float GEMM's panels.
  if (takes(cand::gemm_u8s8s32::name, cand::packed_u8s8::name)) {
    const std::string name = std::string(l.name) +
                             ": panels of two vectors of 16-bit k-pairs, k-blocks of at most " +
                             std::to_string(kTuning.gemm_u8s8.kc);
    e.layouts.push_back({std::string(cand::packed_u8s8::name), name, name});
  }
  if (takes(cand::gemm_bf16::name, cand::packed_bf16::name)) {
    packed(cand::packed_bf16::name, kTuning.gemm.f32, ", bf16 widened to float");
  }
#endif
  // The layouts its hand-written kernels define, as its line names them.
  for (std::string_view item : l.layouts) {
    const std::size_t eq = item.find('=');
    e.layouts.push_back({std::string(item.substr(0, eq)), std::string(item.substr(eq + 1))});
  }
  e.overrides = &overrides;
  e.reproducible = &reproducible_overrides;
  return e;
}

}  // namespace coheriq::kernels::COHERIQ_ENGINE_NS
