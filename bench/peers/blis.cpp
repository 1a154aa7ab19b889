// BLIS, loaded at run time with dlopen(RTLD_LOCAL | RTLD_DEEPBIND) and called through its typed
// API (bli_?gemv, bli_?trsm, ...), on the harness's threads (1 unless --threads).
//
// BLIS exports the same cblas_* and Fortran symbols as OpenBLAS, which kernels_bench links:
// linked too, one library would answer for both, and BLIS's own CBLAS layer would call OpenBLAS's
// Fortran routines. Loaded locally with its own symbols first, it runs its own code; the typed API
// takes a row stride and a column stride, so the row-major operands need no CBLAS layer at all.
// blis.h (found at build time) gives every signature; BLIS picks its kernels for the host itself
// (its configuration is reported).
#include <blis.h>
#include <dlfcn.h>

#include <complex>
#include <cstddef>
#include <string>

#include "../harness.hpp"
#include "bench_config.hpp"
#include "peers.hpp"

namespace coheriq_bench {
namespace {

// Every BLIS entry point the harness calls, typed from blis.h's declarations.
struct Blis {
  // clang-format off
#define COHERIQ_BLIS_FUNCTIONS(X)                                                                \
  X(bli_sgemv) X(bli_dgemv)                                                                     \
  X(bli_strsm) X(bli_dtrsm) X(bli_ctrsm) X(bli_ztrsm) X(bli_strmm) X(bli_dtrmm)                 \
  X(bli_ssyrk) X(bli_dsyrk) X(bli_cherk) X(bli_zherk) X(bli_ssyr2k) X(bli_dsyr2k)               \
  X(bli_ssymm) X(bli_dsymm) X(bli_cgemm) X(bli_zgemm)                                           \
  X(bli_thread_set_num_threads) X(bli_thread_get_num_threads) X(bli_info_get_version_str)       \
  X(bli_arch_query_id) X(bli_arch_string)
  // clang-format on
#define COHERIQ_BLIS_POINTER(name) decltype(&::name) name = nullptr;
  COHERIQ_BLIS_FUNCTIONS(COHERIQ_BLIS_POINTER)
#undef COHERIQ_BLIS_POINTER
};

const Blis* blis = nullptr;

// Loads libblis and resolves every function; returns why it could not.
std::string load(Blis& b) {
  void* handle = dlopen(kBlisLibrary, RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND);
  if (handle == nullptr) return std::string(kBlisLibrary) + " does not load: " + dlerror();
#define COHERIQ_BLIS_RESOLVE(name)                                   \
  b.name = reinterpret_cast<decltype(b.name)>(dlsym(handle, #name)); \
  if (b.name == nullptr) return std::string(kBlisLibrary) + " lacks " #name;
  COHERIQ_BLIS_FUNCTIONS(COHERIQ_BLIS_RESOLVE)
#undef COHERIQ_BLIS_RESOLVE
  return "";
}

// BLIS's scalar and matrix types for T (its complex types have std::complex's layout), and the
// typed API's non-const pointers for the harness's const operands (BLIS does not write them).
template <class T>
struct BlisType;
template <>
struct BlisType<float> {
  using type = float;
};
template <>
struct BlisType<double> {
  using type = double;
};
template <>
struct BlisType<std::complex<float>> {
  using type = scomplex;
};
template <>
struct BlisType<std::complex<double>> {
  using type = dcomplex;
};
template <class T>
auto* in(const T* p) {
  return reinterpret_cast<typename BlisType<T>::type*>(const_cast<T*>(p));
}

// Row-major, order n: rows n apart, columns 1 apart.
inline inc_t rows(std::size_t n) { return static_cast<inc_t>(n); }

void gemv(bool t, std::size_t n, const float* a, const float* x, float* y) {
  float one = 1, zero = 0;
  const dim_t m = static_cast<dim_t>(n);
  blis->bli_sgemv(t ? BLIS_TRANSPOSE : BLIS_NO_TRANSPOSE, BLIS_NO_CONJUGATE, m, m, &one, in(a),
                  rows(n), 1, in(x), 1, &zero, y, 1);
}
void gemv(bool t, std::size_t n, const double* a, const double* x, double* y) {
  double one = 1, zero = 0;
  const dim_t m = static_cast<dim_t>(n);
  blis->bli_dgemv(t ? BLIS_TRANSPOSE : BLIS_NO_TRANSPOSE, BLIS_NO_CONJUGATE, m, m, &one, in(a),
                  rows(n), 1, in(x), 1, &zero, y, 1);
}

// The level 3 of the blas group (harness.hpp, level3_cases), one function per type: the cases of
// a real type (trsm, trmm, syrk, syr2k, symm) and of a complex one (trsm, herk, gemm).
// clang-format off
#define COHERIQ_BLIS_ARGUMENTS(T)                                                                \
  const dim_t n = static_cast<dim_t>(size);                                                      \
  const inc_t rs = rows(size);                                                                   \
  const side_t side = c.left ? BLIS_LEFT : BLIS_RIGHT;                                           \
  const uplo_t uplo = c.lower ? BLIS_LOWER : BLIS_UPPER;                                         \
  const trans_t op = c.trans ? BLIS_TRANSPOSE : BLIS_NO_TRANSPOSE;                               \
  T one_value(1);                                                                                \
  auto* one = in(&one_value);
#define COHERIQ_BLIS_REAL(T, p)                                                                  \
  void level3(const Level3Case& c, std::size_t size, const T* a, T* b, T* cm) {                 \
    COHERIQ_BLIS_ARGUMENTS(T)                                                                    \
    switch (c.routine) {                                                                         \
      case Routine::kTrsm:                                                                       \
        return blis->bli_##p##trsm(side, uplo, op, BLIS_NONUNIT_DIAG, n, n, one, in(a), rs, 1,   \
                                   b, rs, 1);                                                    \
      case Routine::kTrmm:                                                                       \
        return blis->bli_##p##trmm(side, uplo, op, BLIS_NONUNIT_DIAG, n, n, one, in(a), rs, 1,   \
                                   b, rs, 1);                                                    \
      case Routine::kSyrk:                                                                       \
        return blis->bli_##p##syrk(uplo, op, n, n, one, in(a), rs, 1, one, cm, rs, 1);           \
      case Routine::kSyr2k:                                                                      \
        return blis->bli_##p##syr2k(uplo, op, op, n, n, one, in(a), rs, 1, b, rs, 1, one, cm,    \
                                    rs, 1);                                                      \
      case Routine::kSymm:                                                                       \
        return blis->bli_##p##symm(side, uplo, BLIS_NO_CONJUGATE, BLIS_NO_TRANSPOSE, n, n, one,  \
                                   in(a), rs, 1, b, rs, 1, one, cm, rs, 1);                      \
      default:                                                                                   \
        return;                                                                                  \
    }                                                                                            \
  }
#define COHERIQ_BLIS_COMPLEX(T, p)                                                               \
  void level3(const Level3Case& c, std::size_t size, const T* a, T* b, T* cm) {                 \
    COHERIQ_BLIS_ARGUMENTS(T)                                                                    \
    typename T::value_type one_real = 1;                                                         \
    switch (c.routine) {                                                                         \
      case Routine::kTrsm:                                                                       \
        return blis->bli_##p##trsm(side, uplo, op, BLIS_NONUNIT_DIAG, n, n, one, in(a), rs, 1,   \
                                   in(b), rs, 1);                                                \
      case Routine::kHerk:                                                                       \
        return blis->bli_##p##herk(uplo, op, n, n, &one_real, in(a), rs, 1, &one_real, in(cm),   \
                                   rs, 1);                                                       \
      case Routine::kGemm:                                                                       \
        return blis->bli_##p##gemm(BLIS_NO_TRANSPOSE, BLIS_NO_TRANSPOSE, n, n, n, one, in(a), rs, \
                                   1, in(b), rs, 1, one, in(cm), rs, 1);                         \
      default:                                                                                   \
        return;                                                                                  \
    }                                                                                            \
  }
COHERIQ_BLIS_REAL(float, s)
COHERIQ_BLIS_REAL(double, d)
COHERIQ_BLIS_COMPLEX(std::complex<float>, c)
COHERIQ_BLIS_COMPLEX(std::complex<double>, z)
#undef COHERIQ_BLIS_COMPLEX
#undef COHERIQ_BLIS_REAL
#undef COHERIQ_BLIS_ARGUMENTS
// clang-format on

template <class T>
void register_type() {
  add_level3<T>("blis", [](const Level3Case& c, std::size_t n, const T* a, T* b, T* cm) {
    level3(c, n, a, b, cm);
  });
  if constexpr (!is_complex_v<T>) {
    add_gemv<T>("gemv_n", "blis",
                [](std::size_t n, const T* a, const T* x, T* y) { gemv(false, n, a, x, y); });
    add_gemv<T>("gemv_t", "blis",
                [](std::size_t n, const T* a, const T* x, T* y) { gemv(true, n, a, x, y); });
  }
}

}  // namespace

PeerStatus register_blis() {
  static Blis loaded;
  if (const std::string why = load(loaded); !why.empty()) return {"blis", false, why};
  blis = &loaded;
  blis->bli_thread_set_num_threads(static_cast<dim_t>(threads()));
  register_type<float>();
  register_type<double>();
  register_type<std::complex<float>>();
  register_type<std::complex<double>>();
  const dim_t used = blis->bli_thread_get_num_threads();
  return {"blis", true,
          std::string(blis->bli_info_get_version_str()) + ", " +
              blis->bli_arch_string(blis->bli_arch_query_id()) + " kernels, " +
              std::to_string(used) + (used == 1 ? " thread" : " threads")};
}

}  // namespace coheriq_bench
