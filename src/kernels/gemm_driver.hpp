// The GEMM driver: what runs between the public GEMM functions (api.cpp, which checked every
// argument) and the engine's GEMM candidates. It owns the workspace the engines need (ISA code
// never allocates), decides how many threads a product uses and how C is cut among them, and
// runs the parts on the pool. Baseline code; the engine in effect comes through coheriq::call.
#pragma once

#include <coheriq/kernels.hpp>

#include <cstddef>
#include <cstdint>

namespace coheriq::kernels::driver {

// Row-major C = alpha·op(A)·op(B) + beta·C, for T = float or double.
template <class T>
void gemm(Trans ta, Trans tb, std::size_t m, std::size_t n, std::size_t k, T alpha, const T* A,
          std::size_t lda, const T* B, std::size_t ldb, T beta, T* C, std::size_t ldc);

// The same, op(B) packed in the engine's layout (a PackedMatrix's data) and k x n.
template <class T>
void gemm_packed(Trans ta, std::size_t m, std::size_t n, std::size_t k, T alpha, const T* A,
                 std::size_t lda, const void* packed, T beta, T* C, std::size_t ldc);

// The reduced-precision GEMMs (no transposes; B is k x n).
void gemm_u8s8s32(std::size_t m, std::size_t n, std::size_t k, const std::uint8_t* A,
                  std::size_t lda, const std::int8_t* B, std::size_t ldb, std::int32_t* C,
                  std::size_t ldc);
void gemm_bf16(std::size_t m, std::size_t n, std::size_t k, float alpha, const bfloat16* A,
               std::size_t lda, const bfloat16* B, std::size_t ldb, float beta, float* C,
               std::size_t ldc);

}  // namespace coheriq::kernels::driver
