// The blocked level-3 BLAS: the generic engines' BLAS-3 candidates (coheriq/kernels_table.hpp,
// COHERIQ_KERNELS_BLAS3), defined and instantiated in level3.cpp for float, double,
// std::complex<float> and std::complex<double> (hemm, herk, her2k and gemm for the
// complex types). Baseline code, declared here for the engines' kernels TUs
// (engines/generic/forwarded-inl.h), which forward to it: the work is a few large GEMMs and vector
// operations, which these functions call through the kernels' public API, so they run the
// engine in effect (and its thread pool) without being compiled per ISA, and an engine compiles
// no allocation or exception of its own (docs/decisions.md, "The level 3 as candidates").
#pragma once

#include <coheriq/kernels.hpp>

#include <cstddef>

#include "reference/scalar.hpp"

namespace coheriq::kernels::level3 {

using reference::real_t;

template <class T>
void trsm(Side side, Uplo uplo, Op op, Diag diag, std::size_t m, std::size_t n, T alpha, const T* a,
          std::size_t lda, T* b, std::size_t ldb);
template <class T>
void trmm(Side side, Uplo uplo, Op op, Diag diag, std::size_t m, std::size_t n, T alpha, const T* a,
          std::size_t lda, T* b, std::size_t ldb);
template <class T>
void syrk(Uplo uplo, Op op, std::size_t n, std::size_t k, T alpha, const T* a, std::size_t lda,
          T beta, T* c, std::size_t ldc);
template <class T>
void syr2k(Uplo uplo, Op op, std::size_t n, std::size_t k, T alpha, const T* a, std::size_t lda,
           const T* b, std::size_t ldb, T beta, T* c, std::size_t ldc);
template <class T>
void symm(Side side, Uplo uplo, std::size_t m, std::size_t n, T alpha, const T* a, std::size_t lda,
          const T* b, std::size_t ldb, T beta, T* c, std::size_t ldc);
template <class T>
void hemm(Side side, Uplo uplo, std::size_t m, std::size_t n, T alpha, const T* a, std::size_t lda,
          const T* b, std::size_t ldb, T beta, T* c, std::size_t ldc);
template <class T>
void herk(Uplo uplo, Op op, std::size_t n, std::size_t k, real_t<T> alpha, const T* a,
          std::size_t lda, real_t<T> beta, T* c, std::size_t ldc);
template <class T>
void her2k(Uplo uplo, Op op, std::size_t n, std::size_t k, T alpha, const T* a, std::size_t lda,
           const T* b, std::size_t ldb, real_t<T> beta, T* c, std::size_t ldc);
template <class T>
void gemm(Op opa, Op opb, std::size_t m, std::size_t n, std::size_t k, T alpha, const T* a,
          std::size_t lda, const T* b, std::size_t ldb, T beta, T* c, std::size_t ldc);

}  // namespace coheriq::kernels::level3
