// The reference engine's GEMM and packing: every element of C is one compensated dot product.
//
// Not fast (one operand is read with a stride), but each element is as accurate as a dot
// product in twice f64 precision, which makes it the oracle for every engine's GEMM.
#include <cmath>
#include <complex>
#include <cstddef>
#include <type_traits>

#include "kernels/candidates.hpp"
#include "reference/compensated.hpp"
#include "reference/reference.hpp"
#include "reference/scalar.hpp"

namespace coheriq::kernels::reference {
namespace {

// C := alpha·op(A)·op(B) + beta·C on the elements (i, j), i < m, with j in columns(i)
// (reference.hpp: every column of n, or gemmt's triangle).
template <class T, class OperandA, class OperandB, class ColumnsOf>
void multiply(std::size_t m, std::size_t k, T alpha, OperandA a, OperandB b, T beta, T* C,
              std::size_t ldc, ColumnsOf columns) {
  for (std::size_t i = 0; i < m; ++i) {
    const auto [first, last] = columns(i);
    for (std::size_t j = first; j < last; ++j) {
      CompensatedSum dot;
      for (std::size_t p = 0; p < k; ++p) {
        if constexpr (std::is_same_v<T, float>) {
          dot.add(static_cast<double>(a(i, p)) * static_cast<double>(b(p, j)));
        } else {
          dot.add_product(a(i, p), b(p, j));
        }
      }
      T& c = C[i * ldc + j];
      // beta == 0 must not read C: its old contents may be NaN or uninitialized.
      if constexpr (std::is_same_v<T, float>) {
        // f32: alpha·dot and beta·c are exact in f64 up to one f64 rounding; one f32 rounding.
        const double scaled = double{alpha} * dot.value();
        c = static_cast<float>(beta == 0.0f ? scaled : scaled + double{beta} * double{c});
      } else {
        const double scaled = alpha * dot.value();
        c = beta == 0.0 ? scaled : scaled + beta * c;
      }
    }
  }
}

}  // namespace

// 0: the reference needs no workspace.
template <class T>
std::size_t gemm_workspace(std::size_t, std::size_t, std::size_t) {
  return 0;
}

// Row-major C = alpha·op(A)·op(B) + beta·C, every element a compensated dot product;
// beta == 0 does not read C. `workspace` is unused.
template <class T>
void gemm(Trans ta, Trans tb, std::size_t m, std::size_t n, std::size_t k, T alpha, const T* A,
          std::size_t lda, const T* B, std::size_t ldb, T beta, T* C, std::size_t ldc,
          void* /*workspace*/) {
  multiply(m, k, alpha, Operand<T>{A, lda, ta}, Operand<T>{B, ldb, tb}, beta, C, ldc,
           all_columns(n));
}

// ------------------------------ Packing: op(B) row-major k x n, contiguous

// The reference layout of a packed op(B): row-major k x n, contiguous (k·n·sizeof(T) bytes);
// pack_b's part p of P is the band of rows [k·p/P, k·(p+1)/P).
template <class T>
std::size_t packed_bytes(std::size_t k, std::size_t n) {
  return k * n * sizeof(T);  // the caller checked that this does not overflow
}

template <class T>
void pack_b(Trans tb, std::size_t k, std::size_t n, const T* B, std::size_t ldb, void* packed,
            std::size_t part, std::size_t parts) {
  T* out = static_cast<T*>(packed);
  const Operand<T> b{B, ldb, tb};
  // A part is a band of rows of op(B).
  for (std::size_t p = k * part / parts; p < k * (part + 1) / parts; ++p) {
    for (std::size_t j = 0; j < n; ++j) out[p * n + j] = b(p, j);
  }
}

template <class T>
void gemm_packed(Trans ta, std::size_t m, std::size_t n, std::size_t k, T alpha, const T* A,
                 std::size_t lda, const void* packed, T beta, T* C, std::size_t ldc) {
  multiply(m, k, alpha, Operand<T>{A, lda, ta},
           Operand<T>{static_cast<const T*>(packed), n, Trans::N}, beta, C, ldc, all_columns(n));
}

// The complex op(B)'s 1m expansion (kernels_table.hpp), in this layout: 2k x 2n reals.
// b' = alpha·op(B) by the textbook product (scalar.hpp), as the reference's own first product.
template <class T>
void pack_b_1m(Op op, bool conj_a, std::size_t k, std::size_t n, T alpha_re, T alpha_im, const T* B,
               std::size_t ldb, void* packed) {
  using Complex = std::complex<T>;
  const Complex* b = reinterpret_cast<const Complex*>(B);
  const Complex alpha(alpha_re, alpha_im);
  const bool transposed = op == Op::T || op == Op::C;
  const bool conjugated = op == Op::C || op == Op::Conj;
  const T s = conj_a ? T(-1) : T(1);
  T* const out = static_cast<T*>(packed);
  for (std::size_t l = 0; l < k; ++l) {
    T* even = out + 2 * l * 2 * n;
    T* odd = even + 2 * n;
    for (std::size_t j = 0; j < n; ++j) {
      Complex v = conj_if(conjugated, transposed ? b[j * ldb + l] : b[l * ldb + j]);
      if (alpha != Complex(1)) v = mul(alpha, v);
      even[2 * j] = v.real();
      even[2 * j + 1] = v.imag();
      odd[2 * j] = -s * v.imag();
      odd[2 * j + 1] = s * v.real();
    }
  }
}

// The complex products on that expansion (kernels_table.hpp): alpha is in it.
template <class T>
std::size_t gemm_1m_workspace(std::size_t, std::size_t) {
  return 0;
}

template <class T>
void gemm_1m(Trans ta, std::size_t m, std::size_t n, std::size_t k, const T* A, std::size_t lda,
             const void* packed, T beta, T* C, std::size_t ldc, void* /*work*/) {
  complex_as_gemm(ta, n, k, A, lda, packed, [&](std::size_t depth, auto a, auto b) {
    multiply(m, depth, T(1), a, b, beta, C, 2 * ldc, all_columns(2 * n));
  });
}

template <class T>
void gemmt_1m(Uplo uplo, Trans ta, std::size_t n, std::size_t k, const T* A, std::size_t lda,
              const void* packed, T beta, T* C, std::size_t ldc, void* /*work*/) {
  complex_as_gemm(ta, n, k, A, lda, packed, [&](std::size_t depth, auto a, auto b) {
    multiply(n, depth, T(1), a, b, beta, C, 2 * ldc, triangle_columns(uplo, n, 2));
  });
}

// ------------------------------ Batches: one gemm per product

template <class T>
void gemm_batch_strided(Trans ta, Trans tb, std::size_t m, std::size_t n, std::size_t k, T alpha,
                        const T* A, std::size_t lda, std::size_t stride_a, const T* B,
                        std::size_t ldb, std::size_t stride_b, T beta, T* C, std::size_t ldc,
                        std::size_t stride_c, std::size_t batch, void* workspace) {
  for (std::size_t i = 0; i < batch; ++i) {
    gemm(ta, tb, m, n, k, alpha, A + i * stride_a, lda, B + i * stride_b, ldb, beta,
         C + i * stride_c, ldc, workspace);
  }
}

template <class T>
void gemm_batch(Trans ta, Trans tb, std::size_t m, std::size_t n, std::size_t k, T alpha,
                const T* const* A, std::size_t lda, const T* const* B, std::size_t ldb, T beta,
                T* const* C, std::size_t ldc, std::size_t batch, void* workspace) {
  for (std::size_t i = 0; i < batch; ++i) {
    gemm(ta, tb, m, n, k, alpha, A[i], lda, B[i], ldb, beta, C[i], ldc, workspace);
  }
}

// ------------------------------ The triangle of C: gemm's elements there, nothing else

template <class T>
std::size_t gemmt_workspace(std::size_t, std::size_t, std::size_t) {
  return 0;
}

template <class T>
void gemmt(Uplo uplo, Trans ta, Trans tb, std::size_t n, std::size_t width, std::size_t k, T alpha,
           const T* A, std::size_t lda, const T* B, std::size_t ldb, T beta, T* C, std::size_t ldc,
           void* /*workspace*/) {
  multiply(n, k, alpha, Operand<T>{A, lda, ta}, Operand<T>{B, ldb, tb}, beta, C, ldc,
           triangle_columns(uplo, n, width));
}

// ------------------------------ The symmetric product: gemm's on A written in full

template <class T>
std::size_t symm_packed_workspace(Side, std::size_t, std::size_t) {
  return 0;
}

template <class T>
void symm_packed(Side side, Uplo uplo, std::size_t m, std::size_t n, T alpha, const T* A,
                 std::size_t lda, const T* B, std::size_t ldb, T beta, T* C, std::size_t ldc,
                 void* /*workspace*/) {
  symmetric_as_gemm(side, uplo, m, n, A, lda, B, ldb, [&](std::size_t k, auto a, auto b) {
    multiply(m, k, alpha, a, b, beta, C, ldc, all_columns(n));
  });
}

// ------------------------------ The triangular product: each element one compensated sum

template <class T>
std::size_t trmm_packed_workspace(Side, std::size_t, std::size_t) {
  return 0;
}

template <class T>
void trmm_packed(Side side, Uplo uplo, Trans ta, Diag diag, std::size_t m, std::size_t n, T alpha,
                 const T* A, std::size_t lda, T* B, std::size_t ldb, void* /*workspace*/) {
  const TriangularOperand op_a{uplo, ta, diag};
  const bool left = side == Side::Left;
  triangular_product_elements(
      side, op_a.lower(), m, n, [&](std::size_t i, std::size_t j, std::size_t lo, std::size_t hi) {
        CompensatedSum dot;
        for (std::size_t l = lo; l < hi; ++l) {
          const T x = left ? op_a(A, lda, i, l) : B[i * ldb + l];
          const T y = left ? B[l * ldb + j] : op_a(A, lda, l, j);
          if constexpr (std::is_same_v<T, float>) {
            dot.add(static_cast<double>(x) * static_cast<double>(y));
          } else {
            dot.add_product(x, y);
          }
        }
        B[i * ldb + j] = static_cast<T>(static_cast<double>(alpha) * dot.value());
      });
}

// The complex one on the 1m method: each real part one compensated sum (alpha is in the
// expansion).
template <class T>
std::size_t trmm_1m_workspace(Side, std::size_t, std::size_t) {
  return 0;
}

template <class T>
void trmm_1m(Side side, Uplo uplo, Op op, Diag diag, std::size_t m, std::size_t n, T alpha_re,
             T alpha_im, const T* A, std::size_t lda, T* B, std::size_t ldb, void* /*workspace*/) {
  complex_triangular_product(side, uplo, op, diag, m, n, alpha_re, alpha_im, A, lda, B, ldb,
                             [](std::size_t, std::size_t lo, std::size_t hi, auto x, auto y) {
                               CompensatedSum dot;
                               for (std::size_t p = lo; p < hi; ++p) {
                                 if constexpr (std::is_same_v<T, float>) {
                                   dot.add(static_cast<double>(x(p)) * static_cast<double>(y(p)));
                                 } else {
                                   dot.add_product(x(p), y(p));
                                 }
                               }
                               return static_cast<T>(dot.value());
                             });
}

// ------------------------------ Plans: none (GemmPlan calls gemm)

template <class T>
bool gemm_plan(Trans, Trans, std::size_t, std::size_t, std::size_t, std::size_t, void*) {
  return false;
}

// Never called: gemm_plan made no plan.
template <class T>
void gemm_planned(const void*, std::size_t, T, const T*, const T*, std::size_t, T, T*,
                  std::size_t) {}

// Explicit instantiations of every row of the candidate list this file implements.
#define COHERIQ_REFERENCE_INSTANTIATE(op, S, impl, touched, R, params, args) template R impl params;
COHERIQ_KERNELS_GEMM_TYPED(COHERIQ_REFERENCE_INSTANTIATE, float, f32)
COHERIQ_KERNELS_GEMM_TYPED(COHERIQ_REFERENCE_INSTANTIATE, double, f64)
#undef COHERIQ_REFERENCE_INSTANTIATE

}  // namespace coheriq::kernels::reference
