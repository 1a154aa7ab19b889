// The built-in engines of the kernels domain, highest priority first: one per row of the generated
// header of engine rows (builtin_engines.h, from the engine lines of cmake/CoheriqEngines.cmake),
// each described by its descriptor (descriptor.cpp). Baseline code: it only describes engines.
#include "builtin_engines.h"
#include "kernels/candidates.hpp"

namespace coheriq::kernels {

#define COHERIQ_DECLARE(engine, ...) \
  namespace engine {                 \
  coheriq::EngineSpec describe();    \
  }
COHERIQ_BUILTIN_ENGINES(COHERIQ_DECLARE)
#undef COHERIQ_DECLARE

std::vector<coheriq::EngineSpec> Domain::builtin_engines() {
#define COHERIQ_DESCRIBE(engine, ...) engine::describe(),
  return {COHERIQ_BUILTIN_ENGINES(COHERIQ_DESCRIBE)};
#undef COHERIQ_DESCRIBE
}

}  // namespace coheriq::kernels
