// LIBXSMM (1.17), the small group's reference point: for each shape, libxsmm_smmdispatch or
// libxsmm_dmmdispatch generates (JIT) a kernel for the host once, outside the timer, and the
// benchmark calls it per product, column-major (its layout), alpha = beta = 1, no prefetch
// arguments (the three-pointer call). Its ISA follows the engine whose process it shares
// (peer_may_use): under an engine without AVX-512 it generates AVX2 code, as Eigen is built.
//
// Debian ships LIBXSMM as static archives only: libxsmm.a is linked into kernels_bench
// (bench/CMakeLists.txt). It exports libxsmm_* names only, so nothing in it can answer for
// another library's symbols; its BLAS fallback (libxsmm_gemm for shapes it does not generate,
// never called here) needs sgemm_ and dgemm_, which the OpenBLAS peer's library provides, or
// libxsmmnoblas's stubs when OpenBLAS is left out.
#include <libxsmm.h>

#include <cstddef>
#include <stdexcept>
#include <string>

#include "../harness.hpp"
#include "peers.hpp"

namespace coheriq_bench {
namespace {

libxsmm_smmfunction dispatch(const SmallProblem& p, const float*) {
  const libxsmm_blasint lda = libxsmm_blasint(p.lda()), ldb = libxsmm_blasint(p.ldb()),
                        ldc = libxsmm_blasint(p.ldc());
  const float one = 1;
  const int flags = p.trans_b ? LIBXSMM_GEMM_FLAG_TRANS_B : LIBXSMM_GEMM_FLAG_NONE;
  const int prefetch = LIBXSMM_GEMM_PREFETCH_NONE;
  return libxsmm_smmdispatch(libxsmm_blasint(p.m), libxsmm_blasint(p.n), libxsmm_blasint(p.k), &lda,
                             &ldb, &ldc, &one, &one, &flags, &prefetch);
}
libxsmm_dmmfunction dispatch(const SmallProblem& p, const double*) {
  const libxsmm_blasint lda = libxsmm_blasint(p.lda()), ldb = libxsmm_blasint(p.ldb()),
                        ldc = libxsmm_blasint(p.ldc());
  const double one = 1;
  const int flags = p.trans_b ? LIBXSMM_GEMM_FLAG_TRANS_B : LIBXSMM_GEMM_FLAG_NONE;
  const int prefetch = LIBXSMM_GEMM_PREFETCH_NONE;
  return libxsmm_dmmdispatch(libxsmm_blasint(p.m), libxsmm_blasint(p.n), libxsmm_blasint(p.k), &lda,
                             &ldb, &ldc, &one, &one, &flags, &prefetch);
}

template <class T>
void register_type() {
  add_small_peer<T>("libxsmm", [](const SmallProblem& p) {
    const auto kernel = dispatch(p, static_cast<const T*>(nullptr));
    if (kernel == nullptr) {
      // A shape or flag its generator does not take: the row fails with this rather than
      // timing LIBXSMM's BLAS fallback.
      throw std::runtime_error("LIBXSMM dispatched no kernel for " + small_kernel(p, "") + " " +
                               std::to_string(p.m) + "x" + std::to_string(p.n) + "x" +
                               std::to_string(p.k));
    }
    return [kernel](const T* a, const T* b, T* c) { kernel(a, b, c); };
  });
}

}  // namespace

PeerStatus register_libxsmm() {
  libxsmm_init();
  const int host = libxsmm_get_target_archid();
  const std::string found = libxsmm_get_target_arch();
  if (host >= LIBXSMM_X86_AVX2 && !peer_may_use("avx2")) {
    libxsmm_set_target_arch("wsm");  // SSE4.2
  } else if (host >= LIBXSMM_X86_AVX512 && !peer_may_use("avx512f")) {
    libxsmm_set_target_arch("hsw");  // AVX2 and FMA
  }
  const int target = libxsmm_get_target_archid();
  const std::string arch = libxsmm_get_target_arch();
  if (target < LIBXSMM_X86_SSE3) {
    return {"libxsmm", false,
            std::string(LIBXSMM_VERSION) + " generates no code for this CPU (target " + arch + ")"};
  }
  register_type<float>();
  register_type<double>();
  return {
      "libxsmm", true,
      std::string(LIBXSMM_VERSION) + ", JIT kernels for " + arch +
          (arch != found ? " (the host's " + found + " held back to the engine's ISA)" : "") +
          (threads() > 1 ? ", 1 thread whatever --threads (a kernel per product)" : ", 1 thread")};
}

}  // namespace coheriq_bench
