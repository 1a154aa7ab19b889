// The generic engines' level-2 candidates (coheriq/kernels_table.hpp,
// COHERIQ_KERNELS_BLAS2_CHECKED): symv over float and double, trmv and trsv over the four types,
// hemv over the complex types; defined and instantiated in level2.cpp. Baseline code, declared
// here for the engines' kernels TUs (engines/generic/forwarded-inl.h), which forward to it, as the
// level 3 of level3.hpp.
#pragma once

#include <coheriq/kernels.hpp>

#include <cstddef>

namespace coheriq::kernels::level2 {

template <class T>
void symv(Uplo uplo, std::size_t n, T alpha, const T* a, std::size_t lda, const T* x,
          std::ptrdiff_t incx, T beta, T* y, std::ptrdiff_t incy);
template <class T>
void hemv(Uplo uplo, Op op, std::size_t n, T alpha, const T* a, std::size_t lda, const T* x,
          std::ptrdiff_t incx, T beta, T* y, std::ptrdiff_t incy);
template <class T>
void trmv(Uplo uplo, Op op, Diag diag, std::size_t n, const T* a, std::size_t lda, T* x,
          std::ptrdiff_t incx);
template <class T>
void trsv(Uplo uplo, Op op, Diag diag, std::size_t n, const T* a, std::size_t lda, T* x,
          std::ptrdiff_t incx);

}  // namespace coheriq::kernels::level2
