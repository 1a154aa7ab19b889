// The reference engine: the kernels domain's own implementation of every candidate.
//
// Portable scalar C++ compiled with the target's baseline flags, so it runs on any host. It is
// also the oracle of every kernel test, so accuracy comes before speed: sums are compensated,
// f32 kernels accumulate in f64, nrm2 scales by a power of two. The vector math is the one
// algorithm per function that every engine runs (src/math). Private to the library and its
// tests (the tests call these functions directly, whichever engine is in effect); users call
// coheriq::kernels.
#pragma once

#include <coheriq/engine.hpp>
#include <coheriq/kernels.hpp>

#include <cstddef>
#include <cstdint>

namespace coheriq::kernels::reference {

// Every candidate of src/kernels/candidates.hpp; Domain::reference() returns it (engine.cpp).
extern const coheriq::OverrideTable overrides;

// The templates below are defined and explicitly instantiated for float and double in their
// .cpp files.

// ------------------------------ BLAS-1 (blas1.cpp)

// Σ x·y, compensated: as if computed in twice f64 precision, then rounded to T.
template <class T>
T dot(std::size_t n, const T* x, const T* y);
// y = fma(a, x, y): one rounding per element. Allows y == x.
template <class T>
void axpy(std::size_t n, T a, const T* x, T* y);
// x = a·x.
template <class T>
void scal(std::size_t n, T a, T* x);
// Σ x, compensated.
template <class T>
T sum(std::size_t n, const T* x);
// Σ |x|, compensated.
template <class T>
T asum(std::size_t n, const T* x);
// √Σx² for any finite input without overflow or underflow; NaN if any x is NaN, else +Inf if
// any is infinite.
template <class T>
T nrm2(std::size_t n, const T* x);
// The first index of the largest |x|; the first NaN if any; 0 when n == 0.
template <class T>
std::size_t iamax(std::size_t n, const T* x);

// The strided siblings (blas1.cpp): the same results on element i = x[i * incx], any increment.
template <class T>
T dot_strided(std::size_t n, const T* x, std::ptrdiff_t incx, const T* y, std::ptrdiff_t incy);
template <class T>
void axpy_strided(std::size_t n, T a, const T* x, std::ptrdiff_t incx, T* y, std::ptrdiff_t incy);
template <class T>
void scal_strided(std::size_t n, T a, T* x, std::ptrdiff_t incx);
template <class T>
T asum_strided(std::size_t n, const T* x, std::ptrdiff_t incx);
template <class T>
T nrm2_strided(std::size_t n, const T* x, std::ptrdiff_t incx);
template <class T>
std::size_t iamax_strided(std::size_t n, const T* x, std::ptrdiff_t incx);

// ------------------------------ Vector math (math.cpp)
// The algorithms of src/math on one element at a time (the generic kernels run the same ones on
// vectors). All allow y == x.

template <class T>
void exp(std::size_t n, const T* x, T* y);
template <class T>
void exp2(std::size_t n, const T* x, T* y);
template <class T>
void expm1(std::size_t n, const T* x, T* y);
template <class T>
void log(std::size_t n, const T* x, T* y);
template <class T>
void log2(std::size_t n, const T* x, T* y);
template <class T>
void log10(std::size_t n, const T* x, T* y);
template <class T>
void log1p(std::size_t n, const T* x, T* y);
template <class T>
void tanh(std::size_t n, const T* x, T* y);
template <class T>
void sigmoid(std::size_t n, const T* x, T* y);
template <class T>
void sin(std::size_t n, const T* x, T* y);
template <class T>
void cos(std::size_t n, const T* x, T* y);
template <class T>
void tan(std::size_t n, const T* x, T* y);
template <class T>
void asin(std::size_t n, const T* x, T* y);
template <class T>
void acos(std::size_t n, const T* x, T* y);
template <class T>
void atan(std::size_t n, const T* x, T* y);
// z = atan2(y, x), the angle of the point (x, y): C99's quadrants, zeros and infinities.
template <class T>
void atan2(std::size_t n, const T* y, const T* x, T* z);
template <class T>
void sqrt(std::size_t n, const T* x, T* y);
template <class T>
void cbrt(std::size_t n, const T* x, T* y);
template <class T>
void pow(std::size_t n, const T* x, const T* y, T* z);
// exp(x - max x) / Σ exp(x - max x). A NaN, or a +Inf, or all entries -Inf make every output
// NaN; -Inf entries among finite ones give exactly 0 (masking).
template <class T>
void softmax(std::size_t n, const T* x, T* y);

// ------------------------------ GEMM and packing (gemm.cpp)

// 0: the reference needs no workspace.
template <class T>
std::size_t gemm_workspace(std::size_t m, std::size_t n, std::size_t k);
// Row-major C = alpha·op(A)·op(B) + beta·C, every element a compensated dot product;
// beta == 0 does not read C. `workspace` is unused.
template <class T>
void gemm(Trans ta, Trans tb, std::size_t m, std::size_t n, std::size_t k, T alpha, const T* A,
          std::size_t lda, const T* B, std::size_t ldb, T beta, T* C, std::size_t ldc,
          void* workspace);
// The reference layout of a packed op(B): row-major k x n, contiguous (k·n·sizeof(T) bytes);
// pack_b's part p of P is the band of rows [k·p/P, k·(p+1)/P).
template <class T>
std::size_t packed_bytes(std::size_t k, std::size_t n);
template <class T>
void pack_b(Trans tb, std::size_t k, std::size_t n, const T* B, std::size_t ldb, void* packed,
            std::size_t part, std::size_t parts);
template <class T>
void gemm_packed(Trans ta, std::size_t m, std::size_t n, std::size_t k, T alpha, const T* A,
                 std::size_t lda, const void* packed, T beta, T* C, std::size_t ldc);

// ------------------------------ Reduced precision (reduced.cpp)

// Σ x·y in uint32 arithmetic: exact, modulo 2^32 beyond n = 65793 (as the engines' int32 adds).
std::int32_t dot_u8s8(std::size_t n, const std::uint8_t* x, const std::int8_t* y);
// 0: the reference packs nothing (its "layout" of the packed B is B itself).
std::size_t gemm_workspace_u8s8s32(std::size_t m, std::size_t n, std::size_t k);
// C = A·B, every element one dot_u8s8 over a strided column of B. `workspace` is unused.
void gemm_u8s8s32(std::size_t m, std::size_t n, std::size_t k, const std::uint8_t* A,
                  std::size_t lda, const std::int8_t* B, std::size_t ldb, std::int32_t* C,
                  std::size_t ldc, void* workspace);
// Σ x·y of the bf16 values: the products are exact, their sum is accumulated in f64 (error at
// most n·2^-53·Σ|x·y|, far below the f32 bound engines are held to) and rounded once to f32.
float dot_bf16(std::size_t n, const bfloat16* x, const bfloat16* y);
std::size_t gemm_workspace_bf16(std::size_t m, std::size_t n, std::size_t k);
// C = alpha·A·B + beta·C with each A·B element a dot_bf16-style f64 sum; beta == 0 does not read C.
void gemm_bf16(std::size_t m, std::size_t n, std::size_t k, float alpha, const bfloat16* A,
               std::size_t lda, const bfloat16* B, std::size_t ldb, float beta, float* C,
               std::size_t ldc, void* workspace);

}  // namespace coheriq::kernels::reference
