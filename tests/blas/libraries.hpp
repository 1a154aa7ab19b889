// The two BLAS libraries a conformance test compares, loaded into the test process with
// dlopen(RTLD_LOCAL): libcoheriq_blas (COHERIQ_BLAS_LIBRARY) and the system's reference BLAS
// (COHERIQ_REFERENCE_BLAS). Neither sees the other's symbols; both see the program's own
// (xerbla_, cblas_xerbla), which is linked with exported symbols.
#pragma once

#include <dlfcn.h>

#include <complex>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <type_traits>

namespace coheriq::blas_testing {

// The real type of a BLAS type: T itself, or R of std::complex<R>.
template <class T>
struct RealOf {
  using type = T;
};
template <class R>
struct RealOf<std::complex<R>> {
  using type = R;
};
template <class T>
using real_t = typename RealOf<T>::type;
// Whether T is one of the complex types.
template <class T>
constexpr bool kComplex = !std::is_same_v<T, real_t<T>>;

// A routine's name for type T: Fortran's ("sgemm_" ... "zgemm_") or CBLAS's ("cblas_sgemm" ...).
template <class T>
std::string routine_name(const char* stem, bool cblas) {
  const bool single = sizeof(real_t<T>) == 4;
  const char* letter = kComplex<T> ? (single ? "c" : "z") : (single ? "s" : "d");
  return cblas ? std::string("cblas_") + letter + stem : std::string(letter) + stem + "_";
}

inline void* open_library(const char* path) {
  void* handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    std::fprintf(stderr, "coheriq: cannot load %s: %s\n", path, dlerror());
    std::abort();
  }
  return handle;
}
inline void* ours() {
  static void* handle = open_library(COHERIQ_BLAS_LIBRARY);
  return handle;
}
inline void* reference() {
  static void* handle = open_library(COHERIQ_REFERENCE_BLAS);
  return handle;
}
template <class F>
F symbol(void* library, const char* name) {
  void* p = dlsym(library, name);
  if (p == nullptr) {
    std::fprintf(stderr, "coheriq: %s is missing from a BLAS library under test\n", name);
    std::abort();
  }
  return reinterpret_cast<F>(p);
}

// Both implementations of one routine.
template <class F>
struct Pair {
  explicit Pair(const std::string& routine_name)
      : name(routine_name),
        ours(symbol<F>(blas_testing::ours(), routine_name.c_str())),
        ref(symbol<F>(blas_testing::reference(), routine_name.c_str())) {}
  std::string name;
  F ours;
  F ref;
};

}  // namespace coheriq::blas_testing
