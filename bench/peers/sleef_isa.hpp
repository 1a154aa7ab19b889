// SLEEF's u10 (1-ulp) float functions over arrays, one namespace per x86 ISA. Each namespace is
// defined in its own translation unit compiled with that ISA's flags (sleef.h declares a vector
// width's functions only under its ISA macros) and exports nothing but these plain functions.
#pragma once

#include <cstddef>

#define COHERIQ_SLEEF_ISA(isa)                          \
  namespace coheriq_bench::sleef_##isa {                \
    void exp(std::size_t n, const float* x, float* y);  \
    void log(std::size_t n, const float* x, float* y);  \
    void tanh(std::size_t n, const float* x, float* y); \
  }

COHERIQ_SLEEF_ISA(avx512)  // Sleef_*f16_u10avx512f, needs AVX512F
COHERIQ_SLEEF_ISA(avx2)    // Sleef_*f8_u10avx2, needs AVX2 and FMA
COHERIQ_SLEEF_ISA(sse4)    // Sleef_*f4_u10sse4, needs SSE4.1
#undef COHERIQ_SLEEF_ISA
