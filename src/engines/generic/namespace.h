// Where generic kernels are compiled: COHERIQ_GENERIC_BEGIN opens the including engine's
// namespace, coheriq::kernels::<engine>, with an unnamed namespace inside it (internal linkage:
// nothing built with the engine's ISA flags can be picked by the linker for another TU) and the
// Highway target region; COHERIQ_GENERIC_END closes them.
//
// The engine's name and facts come from its generated engine-config.h (cmake/CoheriqEngines.cmake),
// which its kernels TU includes first. Read on its own (an editor, clangd), a generic header
// compiles into the placeholder engine `standalone` with 32 vector registers.
#pragma once

#include "hwy/highway.h"

#ifndef COHERIQ_ENGINE_NS
#define COHERIQ_ENGINE_NS standalone
#define COHERIQ_ENGINE_VECTOR_REGISTERS 32
#endif

#define COHERIQ_GENERIC_BEGIN                     \
  HWY_BEFORE_NAMESPACE();                         \
  namespace coheriq::kernels::COHERIQ_ENGINE_NS { \
  namespace {                                     \
  namespace hn = hwy::HWY_NAMESPACE;

#define COHERIQ_GENERIC_END                    \
  } /* namespace */                            \
  } /* namespace coheriq::kernels::<engine> */ \
  HWY_AFTER_NAMESPACE();
