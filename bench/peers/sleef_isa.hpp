// SLEEF's vector math over arrays, one namespace per x86 ISA. Each namespace is defined in its
// own translation unit compiled with that ISA's flags (sleef.h declares a vector width's functions
// only under its ISA macros) and exports nothing but these plain functions.
#pragma once

#include <cstddef>

// The functions benchmarked, F(name, accuracy): SLEEF's 1-ulp (u10) version, or its most accurate
// one where it has no u10 (sqrt: u05, correctly rounded; erfc: u15, its most accurate).
#define COHERIQ_SLEEF_UNARY(F) \
  F(exp, u10)                  \
  F(exp2, u10)                 \
  F(expm1, u10)                \
  F(log, u10)                  \
  F(log2, u10)                 \
  F(log10, u10)                \
  F(log1p, u10)                \
  F(cbrt, u10)                 \
  F(sqrt, u05)                 \
  F(sinh, u10)                 \
  F(cosh, u10)                 \
  F(tanh, u10)                 \
  F(sin, u10)                  \
  F(cos, u10)                  \
  F(tan, u10)                  \
  F(asin, u10)                 \
  F(acos, u10)                 \
  F(atan, u10)                 \
  F(erf, u10)                  \
  F(erfc, u15)
#define COHERIQ_SLEEF_BINARY(F) F(pow, u10) F(atan2, u10)

#define COHERIQ_SLEEF_DECLARE_UNARY(name, accuracy)   \
  void name(std::size_t n, const float* x, float* y); \
  void name(std::size_t n, const double* x, double* y);
#define COHERIQ_SLEEF_DECLARE_BINARY(name, accuracy)                  \
  void name(std::size_t n, const float* x, const float* y, float* z); \
  void name(std::size_t n, const double* x, const double* y, double* z);
#define COHERIQ_SLEEF_ISA(isa)                         \
  namespace coheriq_bench::sleef_##isa {               \
    COHERIQ_SLEEF_UNARY(COHERIQ_SLEEF_DECLARE_UNARY)   \
    COHERIQ_SLEEF_BINARY(COHERIQ_SLEEF_DECLARE_BINARY) \
  }

COHERIQ_SLEEF_ISA(avx512)  // Sleef_*f16_*avx512f, Sleef_*d8_*avx512f: needs AVX512F
COHERIQ_SLEEF_ISA(avx2)    // Sleef_*f8_*avx2, Sleef_*d4_*avx2: needs AVX2 and FMA
COHERIQ_SLEEF_ISA(sse4)    // Sleef_*f4_*sse4, Sleef_*d2_*sse4: needs SSE4.1
#undef COHERIQ_SLEEF_ISA
