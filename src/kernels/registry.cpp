// The built-in engines of the kernels domain, highest priority first: one per row of the generated
// header of engine rows (builtin_engines.h, from the engine lines of cmake/CoheriqEngines.cmake),
// each described by its descriptor (descriptor.cpp), which also hands over its tuning record.
// Baseline code: it only describes engines.
#include "builtin_engines.h"
#include "kernels/candidates.hpp"
#include "kernels/tuning_in_effect.hpp"

namespace coheriq::kernels {

#define COHERIQ_DECLARE(engine, ...) \
  namespace engine {                 \
  coheriq::EngineSpec describe();    \
  const Tuning* tuning();            \
  }
COHERIQ_BUILTIN_ENGINES(COHERIQ_DECLARE)
#undef COHERIQ_DECLARE

std::vector<coheriq::EngineSpec> Domain::builtin_engines() {
#define COHERIQ_DESCRIBE(engine, ...) engine::describe(),
  return {COHERIQ_BUILTIN_ENGINES(COHERIQ_DESCRIBE)};
#undef COHERIQ_DESCRIBE
}

const Tuning* builtin_tuning([[maybe_unused]] std::string_view engine) {
#define COHERIQ_TUNING_OF(row, ...) \
  if (engine == #row) return row::tuning();
  COHERIQ_BUILTIN_ENGINES(COHERIQ_TUNING_OF)
#undef COHERIQ_TUNING_OF
  return nullptr;
}

}  // namespace coheriq::kernels
