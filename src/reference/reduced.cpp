// The reference engine's reduced-precision kernels: integer dot products in wrapping uint32
// arithmetic (what int32 vector adds do, without signed-overflow UB), bf16 products summed in
// f64. Scalar and strided: the oracle, not a fast path.
#include <cstddef>
#include <cstdint>

#include "kernels/candidates.hpp"
#include "reference/reference.hpp"

namespace coheriq::kernels::reference {
namespace {

// Σ x[i]·y[i·stride] modulo 2^32.
std::int32_t dot_u8s8_strided(std::size_t n, const std::uint8_t* x, const std::int8_t* y,
                              std::size_t stride) {
  std::uint32_t total = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const std::int32_t product = std::int32_t{x[i]} * std::int32_t{y[i * stride]};
    total += static_cast<std::uint32_t>(product);
  }
  return static_cast<std::int32_t>(total);  // two's complement (C++20)
}

// bf16·bf16 is exact in f32 (8 + 8 significant bits); the sum is accumulated in f64.
double dot_bf16_strided(std::size_t n, const bfloat16* x, const bfloat16* y, std::size_t stride) {
  double total = 0;
  for (std::size_t i = 0; i < n; ++i) {
    total += static_cast<double>(static_cast<float>(x[i])) *
             static_cast<double>(static_cast<float>(y[i * stride]));
  }
  return total;
}

}  // namespace

// Σ x·y in uint32 arithmetic: exact, modulo 2^32 beyond n = 65793 (as the engines' int32 adds).
std::int32_t dot_u8s8(std::size_t n, const std::uint8_t* x, const std::int8_t* y) {
  return dot_u8s8_strided(n, x, y, 1);
}

// 0: the reference packs nothing (its "layout" of the packed B is B itself).
std::size_t gemm_workspace_u8s8s32(std::size_t, std::size_t, std::size_t) { return 0; }

// C = A·B, every element one dot_u8s8 over a strided column of B. `workspace` is unused.
void gemm_u8s8s32(std::size_t m, std::size_t n, std::size_t k, const std::uint8_t* A,
                  std::size_t lda, const std::int8_t* B, std::size_t ldb, std::int32_t* C,
                  std::size_t ldc, void* /*workspace*/) {
  for (std::size_t i = 0; i < m; ++i) {
    for (std::size_t j = 0; j < n; ++j)
      C[i * ldc + j] = dot_u8s8_strided(k, A + i * lda, B + j, ldb);
  }
}

// Σ x·y of the bf16 values: the products are exact, their sum is accumulated in f64 (error at
// most n·2^-53·Σ|x·y|, far below the f32 bound engines are held to) and rounded once to f32.
float dot_bf16(std::size_t n, const bfloat16* x, const bfloat16* y) {
  return static_cast<float>(dot_bf16_strided(n, x, y, 1));
}

std::size_t gemm_workspace_bf16(std::size_t, std::size_t, std::size_t) { return 0; }

// C = alpha·A·B + beta·C with each A·B element a dot_bf16-style f64 sum; beta == 0 does not read C.
void gemm_bf16(std::size_t m, std::size_t n, std::size_t k, float alpha, const bfloat16* A,
               std::size_t lda, const bfloat16* B, std::size_t ldb, float beta, float* C,
               std::size_t ldc, void* /*workspace*/) {
  for (std::size_t i = 0; i < m; ++i) {
    for (std::size_t j = 0; j < n; ++j) {
      const double scaled = double{alpha} * dot_bf16_strided(k, A + i * lda, B + j, ldb);
      float& c = C[i * ldc + j];
      // beta == 0 must not read C: its old contents may be NaN or uninitialized.
      c = static_cast<float>(beta == 0.0f ? scaled : scaled + double{beta} * double{c});
    }
  }
}

}  // namespace coheriq::kernels::reference
