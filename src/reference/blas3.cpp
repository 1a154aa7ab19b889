// The reference engine's BLAS-3 candidates (trsm, trmm, syrk, syr2k, symm over the four types;
// complex gemm, hemm, herk, her2k; coheriq/kernels_table.hpp): the reference BLAS's loops of
// blas_level3.cpp, in their orders and with their zero skips (scalar, baseline flags; the tests'
// oracle is the system's reference BLAS, tests/blas/level3_test.cpp).
#include <complex>
#include <cstddef>

#include "kernels/candidates.hpp"
#include "reference/blas.hpp"
#include "reference/reference.hpp"

namespace coheriq::kernels::reference {

// One adapter per row, generated from the table: `template <class T> R op params` calls
// blas::op with the row's arguments (the complex-only rows, T the real type, deduce its
// std::complex<T>).
COHERIQ_KERNELS_BLAS3_TYPED(COHERIQ_REFERENCE_TO_BLAS, T, S)
COHERIQ_KERNELS_BLAS3_COMPLEX_TYPED(COHERIQ_REFERENCE_TO_BLAS, T, S)

#define COHERIQ_REFERENCE_INSTANTIATE(op, S, impl, touched, R, params, args) template R impl params;
COHERIQ_KERNELS_BLAS3(COHERIQ_REFERENCE_INSTANTIATE)
#undef COHERIQ_REFERENCE_INSTANTIATE

}  // namespace coheriq::kernels::reference
