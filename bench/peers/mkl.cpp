// Intel MKL, loaded at run time with dlopen(RTLD_LOCAL), on the harness's threads (1 unless
// --threads).
//
// Linking MKL would put its cblas_* symbols next to OpenBLAS's in one process, and one library
// would silently answer for both. Loading it locally and calling through dlsym keeps each
// peer's kernels its own. mkl.h (found at build time) gives every signature.
#include <dlfcn.h>
#include <mkl.h>

#include <cstddef>
#include <string>
#include <vector>

#include "../harness.hpp"
#include "peers.hpp"

namespace coheriq_bench {
namespace {

// Every MKL entry point the harness calls, typed from mkl.h's declarations.
struct Mkl {
  // clang-format off
#define COHERIQ_MKL_FUNCTIONS(X)                                                                 \
  X(cblas_sdot) X(cblas_ddot) X(cblas_saxpy) X(cblas_daxpy) X(cblas_sscal) X(cblas_dscal)       \
  X(cblas_sasum) X(cblas_dasum) X(cblas_snrm2) X(cblas_dnrm2) X(cblas_isamax) X(cblas_idamax)   \
  X(cblas_sgemm) X(cblas_dgemm) X(cblas_sgemm_pack_get_size) X(cblas_dgemm_pack_get_size)       \
  X(cblas_sgemm_pack) X(cblas_dgemm_pack) X(cblas_sgemm_compute) X(cblas_dgemm_compute)         \
  X(vsExp) X(vsLn) X(vsTanh) X(MKL_Set_Num_Threads) X(MKL_Get_Version_String)
  // clang-format on
#define COHERIQ_MKL_POINTER(name) decltype(&::name) name = nullptr;
  COHERIQ_MKL_FUNCTIONS(COHERIQ_MKL_POINTER)
#undef COHERIQ_MKL_POINTER
};

const Mkl* mkl = nullptr;

MKL_INT to_mkl(std::size_t n) { return static_cast<MKL_INT>(n); }

// Loads libmkl_rt and resolves every function; returns why it could not.
std::string load(Mkl& m) {
  void* handle = nullptr;
  for (const char* name : {"libmkl_rt.so", "libmkl_rt.so.2", "libmkl_rt.so.1"}) {
    if ((handle = dlopen(name, RTLD_NOW | RTLD_LOCAL)) != nullptr) break;
  }
  if (handle == nullptr) return std::string("libmkl_rt.so does not load: ") + dlerror();
#define COHERIQ_MKL_RESOLVE(name)                                    \
  m.name = reinterpret_cast<decltype(m.name)>(dlsym(handle, #name)); \
  if (m.name == nullptr) return "libmkl_rt.so lacks " #name;
  COHERIQ_MKL_FUNCTIONS(COHERIQ_MKL_RESOLVE)
#undef COHERIQ_MKL_RESOLVE
  return "";
}

// One overload per type, so the registration below is written once for f32 and f64.
float dot(std::size_t n, const float* x, const float* y) {
  return mkl->cblas_sdot(to_mkl(n), x, 1, y, 1);
}
double dot(std::size_t n, const double* x, const double* y) {
  return mkl->cblas_ddot(to_mkl(n), x, 1, y, 1);
}
void axpy(std::size_t n, float a, const float* x, float* y) {
  mkl->cblas_saxpy(to_mkl(n), a, x, 1, y, 1);
}
void axpy(std::size_t n, double a, const double* x, double* y) {
  mkl->cblas_daxpy(to_mkl(n), a, x, 1, y, 1);
}
void scal(std::size_t n, float a, float* x) { mkl->cblas_sscal(to_mkl(n), a, x, 1); }
void scal(std::size_t n, double a, double* x) { mkl->cblas_dscal(to_mkl(n), a, x, 1); }
float asum(std::size_t n, const float* x) { return mkl->cblas_sasum(to_mkl(n), x, 1); }
double asum(std::size_t n, const double* x) { return mkl->cblas_dasum(to_mkl(n), x, 1); }
float nrm2(std::size_t n, const float* x) { return mkl->cblas_snrm2(to_mkl(n), x, 1); }
double nrm2(std::size_t n, const double* x) { return mkl->cblas_dnrm2(to_mkl(n), x, 1); }
std::size_t iamax(std::size_t n, const float* x) { return mkl->cblas_isamax(to_mkl(n), x, 1); }
std::size_t iamax(std::size_t n, const double* x) { return mkl->cblas_idamax(to_mkl(n), x, 1); }
void gemm(std::size_t n, const float* a, const float* b, float* c) {
  const MKL_INT m = to_mkl(n);
  mkl->cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, m, m, 1.0f, a, m, b, m, 0.0f, c,
                   m);
}
void gemm(std::size_t n, const double* a, const double* b, double* c) {
  const MKL_INT m = to_mkl(n);
  mkl->cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, m, m, 1.0, a, m, b, m, 0.0, c, m);
}

// MKL's packed GEMM: B packed once (cblas_?gemm_pack), multiplied by cblas_?gemm_compute.
std::vector<float> pack(std::size_t n, const float* b) {
  const MKL_INT m = to_mkl(n);
  const std::size_t bytes = mkl->cblas_sgemm_pack_get_size(CblasBMatrix, m, m, m);
  std::vector<float> packed(bytes / sizeof(float) + 1);
  mkl->cblas_sgemm_pack(CblasRowMajor, CblasBMatrix, CblasNoTrans, m, m, m, 1.0f, b, m,
                        packed.data());
  return packed;
}
std::vector<double> pack(std::size_t n, const double* b) {
  const MKL_INT m = to_mkl(n);
  const std::size_t bytes = mkl->cblas_dgemm_pack_get_size(CblasBMatrix, m, m, m);
  std::vector<double> packed(bytes / sizeof(double) + 1);
  mkl->cblas_dgemm_pack(CblasRowMajor, CblasBMatrix, CblasNoTrans, m, m, m, 1.0, b, m,
                        packed.data());
  return packed;
}
void gemm_packed(std::size_t n, const float* a, const std::vector<float>& b, float* c) {
  const MKL_INT m = to_mkl(n);
  mkl->cblas_sgemm_compute(CblasRowMajor, CblasNoTrans, CblasPacked, m, m, m, a, m, b.data(), m,
                           0.0f, c, m);
}
void gemm_packed(std::size_t n, const double* a, const std::vector<double>& b, double* c) {
  const MKL_INT m = to_mkl(n);
  mkl->cblas_dgemm_compute(CblasRowMajor, CblasNoTrans, CblasPacked, m, m, m, a, m, b.data(), m,
                           0.0, c, m);
}

template <class T>
void register_type() {
  add_dot<T>("mkl", [](std::size_t n, const T* x, const T* y) { return dot(n, x, y); });
  add_axpy<T>("mkl", [](std::size_t n, T a, const T* x, T* y) { axpy(n, a, x, y); });
  add_scal<T>("mkl", [](std::size_t n, T a, T* x) { scal(n, a, x); });
  add_reduction<T>("asum", "mkl", [](std::size_t n, const T* x) { return asum(n, x); });
  add_reduction<T>("nrm2", "mkl", [](std::size_t n, const T* x) { return nrm2(n, x); });
  add_reduction<T>("iamax", "mkl", [](std::size_t n, const T* x) { return iamax(n, x); });
  add_gemm<T>("mkl", [](std::size_t n, const T* a, const T* b, T* c) { gemm(n, a, b, c); });
  const auto pack_b = [](std::size_t n, const T* b) { return pack(n, b); };
  add_gemm_packed<T>("mkl", pack_b, [](std::size_t n, const T* a, const std::vector<T>& b, T* c) {
    gemm_packed(n, a, b, c);
  });
  add_pack_b<T>("mkl", pack_b);
}

}  // namespace

PeerStatus register_mkl() {
  static Mkl loaded;
  const std::string error = load(loaded);
  if (!error.empty()) return {"mkl", false, error};
  mkl = &loaded;
  mkl->MKL_Set_Num_Threads(static_cast<int>(threads()));
  register_type<float>();
  register_type<double>();
  add_math<float>("exp", "mkl",
                  [](std::size_t n, const float* x, float* y) { mkl->vsExp(to_mkl(n), x, y); });
  add_math<float>("log", "mkl",
                  [](std::size_t n, const float* x, float* y) { mkl->vsLn(to_mkl(n), x, y); });
  add_math<float>("tanh", "mkl",
                  [](std::size_t n, const float* x, float* y) { mkl->vsTanh(to_mkl(n), x, y); });
  char version[256] = {};
  mkl->MKL_Get_Version_String(version, static_cast<int>(sizeof version));
  return {"mkl", true,
          std::string(version) + ", " + std::to_string(threads()) +
              (threads() == 1 ? " thread" : " threads") + ", vs* in the default (HA) mode"};
}

}  // namespace coheriq_bench
