// The generic rows that forward to baseline code: the BLAS-3 (trsm, trmm, syrk, syr2k, symm over
// the four types; complex gemm, hemm, herk, her2k) to the blocked forms of
// src/kernels/level3.cpp, and the checked BLAS-2 (symv, trmv, trsv, hemv) to src/kernels/
// level2.cpp. That code is compiled once; its work is the kernels' GEMM, gemv and vector
// kernels, called through the public API, so the engine in effect runs it with its own vector
// code and thread pool. Nothing here is compiled with the engine's flags but the call: the
// blocked forms allocate and throw, which an engine's TU must not (docs/engine-guide.md), and
// compiling them once per engine would copy them for nothing. An engine (or a plugin) with
// better kernels for these overrides the rows.
#ifndef COHERIQ_ENGINES_GENERIC_FORWARDED_INL_H_
#define COHERIQ_ENGINES_GENERIC_FORWARDED_INL_H_

#include <coheriq/kernels.hpp>

#include <complex>
#include <cstddef>

#include "engines/generic/namespace.h"
#include "kernels/level2.hpp"
#include "kernels/level3.hpp"

COHERIQ_GENERIC_BEGIN

// One forwarder per row, generated from the table: `template <class T> R op params` calls
// level2::op or level3::op with the row's arguments (the complex-only rows, T the real type,
// deduce the baseline function's std::complex<T>).
#define COHERIQ_GENERIC_FORWARD(ns, op, R, params, args) \
  template <class T>                                     \
  R op params {                                          \
    return ns::op args;                                  \
  }
#define COHERIQ_GENERIC_FORWARD_LEVEL2(op, S, impl, touched, R, params, args) \
  COHERIQ_GENERIC_FORWARD(level2, op, R, params, args)
#define COHERIQ_GENERIC_FORWARD_LEVEL3(op, S, impl, touched, R, params, args) \
  COHERIQ_GENERIC_FORWARD(level3, op, R, params, args)
COHERIQ_KERNELS_BLAS2_SYMMETRIC_TYPED(COHERIQ_GENERIC_FORWARD_LEVEL2, T, S)
COHERIQ_KERNELS_BLAS2_TRIANGULAR_TYPED(COHERIQ_GENERIC_FORWARD_LEVEL2, T, S)
COHERIQ_KERNELS_BLAS2_HERMITIAN_TYPED(COHERIQ_GENERIC_FORWARD_LEVEL2, T, S)
COHERIQ_KERNELS_BLAS3_TYPED(COHERIQ_GENERIC_FORWARD_LEVEL3, T, S)
COHERIQ_KERNELS_BLAS3_COMPLEX_TYPED(COHERIQ_GENERIC_FORWARD_LEVEL3, T, S)
#undef COHERIQ_GENERIC_FORWARD_LEVEL3
#undef COHERIQ_GENERIC_FORWARD_LEVEL2
#undef COHERIQ_GENERIC_FORWARD

COHERIQ_GENERIC_END

#endif  // COHERIQ_ENGINES_GENERIC_FORWARDED_INL_H_
