// glibc's libmvec (the vector math GCC calls for `#pragma omp simd` loops) over arrays, one
// namespace per x86 ISA, each defined in its own translation unit compiled with that ISA's flags.
// libmvec promises 4 ulp; it is benchmarked where it has the function.
#pragma once

#include <cstddef>

// The functions benchmarked: the vector ABI names are _ZGV<isa>N<lanes>v_<name>[f] (vv_ for two
// arguments).
#define COHERIQ_LIBMVEC_UNARY(F) \
  F(exp)                         \
  F(exp2)                        \
  F(expm1)                       \
  F(log)                         \
  F(log2)                        \
  F(log10)                       \
  F(log1p)                       \
  F(cbrt)                        \
  F(sinh)                        \
  F(cosh)                        \
  F(tanh)                        \
  F(sin)                         \
  F(cos)                         \
  F(tan)                         \
  F(asin)                        \
  F(acos)                        \
  F(atan)                        \
  F(erf)                         \
  F(erfc)
#define COHERIQ_LIBMVEC_BINARY(F) F(pow) F(atan2)

#define COHERIQ_LIBMVEC_DECLARE_UNARY(name)           \
  void name(std::size_t n, const float* x, float* y); \
  void name(std::size_t n, const double* x, double* y);
#define COHERIQ_LIBMVEC_DECLARE_BINARY(name)                          \
  void name(std::size_t n, const float* x, const float* y, float* z); \
  void name(std::size_t n, const double* x, const double* y, double* z);
#define COHERIQ_LIBMVEC_ISA(isa)                           \
  namespace coheriq_bench::libmvec_##isa {                 \
    COHERIQ_LIBMVEC_UNARY(COHERIQ_LIBMVEC_DECLARE_UNARY)   \
    COHERIQ_LIBMVEC_BINARY(COHERIQ_LIBMVEC_DECLARE_BINARY) \
  }

COHERIQ_LIBMVEC_ISA(avx512)  // _ZGVeN16v_*f, _ZGVeN8v_*: needs AVX512F
COHERIQ_LIBMVEC_ISA(avx2)    // _ZGVdN8v_*f, _ZGVdN4v_*: needs AVX2
#undef COHERIQ_LIBMVEC_ISA
