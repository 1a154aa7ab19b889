// sve at a vector length set by the process itself: prctl(PR_SVE_SET_VL) before the kernels
// domain's first use, then the sve engine's PackedMatrix layouts must name the length its code
// runs at (the largest power of two of the one set: a 384-bit SVE runs 256-bit vectors; panels of
// 2 vectors of it), and its packed and unpacked GEMMs must agree with a plain double-precision
// product and bitwise with each other. The emulator matrix covers lengths qemu sets from outside
// (-cpu max,sve-default-vector-length=...); this one reaches those it does not list, from
// inside one binary, as a program would on hardware.
//   coheriq_sve_length BITS    exit 0 when all holds, 1 otherwise (the reason on stderr), 77
//                              when this host cannot set BITS (not aarch64 Linux with SVE)
#include <coheriq/coheriq.hpp>
#include <coheriq/kernels.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#if defined(__aarch64__) && defined(__linux__)
#include <sys/auxv.h>
#include <sys/prctl.h>
#endif

namespace ck = coheriq::kernels;

namespace {

// Sets the SVE vector length of this thread (and of the threads it starts) to `bits`; returns
// the length now in effect, 0 when the host has no SVE or refuses.
std::size_t set_vector_bits(std::size_t bits) {
#if defined(__aarch64__) && defined(__linux__) && defined(HWCAP_SVE) && defined(PR_SVE_SET_VL)
  if ((getauxval(AT_HWCAP) & HWCAP_SVE) == 0) return 0;
  // No PR_SVE_VL_INHERIT (across exec: not needed, and qemu-user refuses it); threads started
  // later, the pool's, take this thread's length.
  const int vl = prctl(PR_SVE_SET_VL, static_cast<unsigned long>(bits / 8));
  return vl < 0 ? 0 : static_cast<std::size_t>(vl & PR_SVE_VL_LEN_MASK) * 8;
#else
  (void)bits;
  return 0;
#endif
}

template <class T>
bool check_gemm(std::size_t panel) {
  // n: two whole panels and an edge; k: two k-blocks (sve's KC is 256).
  const std::size_t m = 11, n = 2 * panel + 5, k = 300;
  std::vector<T> a(m * k), b(k * n), c(m * n, T(0)), c_packed(m * n, T(0));
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = T(static_cast<double>(i % 13) * 0.125 - 0.75);
  for (std::size_t i = 0; i < b.size(); ++i) b[i] = T(static_cast<double>(i % 7) * 0.25 - 0.5);
  ck::gemm(ck::Trans::N, ck::Trans::N, m, n, k, T(1), a.data(), k, b.data(), n, T(0), c.data(), n);
  const ck::PackedMatrix<T> packed = ck::pack_b(ck::Trans::N, k, n, b.data(), n);
  ck::gemm(ck::Trans::N, m, n, k, T(1), a.data(), k, packed, T(0), c_packed.data(), n);
  if (std::memcmp(c.data(), c_packed.data(), c.size() * sizeof(T)) != 0) {
    std::fprintf(stderr, "FAIL: packed and unpacked gemm differ\n");
    return false;
  }
  for (std::size_t i = 0; i < m; ++i) {
    for (std::size_t j = 0; j < n; ++j) {
      double want = 0;
      for (std::size_t p = 0; p < k; ++p) want += double(a[i * k + p]) * double(b[p * n + j]);
      // The products are exact multiples of 1/32 and the sums stay small: exact in f32 and f64.
      if (double(c[i * n + j]) != want) {
        std::fprintf(stderr, "FAIL: gemm C(%zu, %zu) = %g, expected %g\n", i, j,
                     double(c[i * n + j]), want);
        return false;
      }
    }
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s BITS\n", argv[0]);
    return 2;
  }
  const std::size_t bits = std::strtoull(argv[1], nullptr, 10);
  const std::size_t set = set_vector_bits(bits);
  if (set == 0) {
    std::printf(
        "skipped: this host cannot set an SVE vector length (not aarch64 Linux with "
        "SVE)\n");
    return 77;
  }
  if (set != bits) {
    std::fprintf(stderr, "FAIL: asked for %zu-bit vectors, the kernel set %zu\n", bits, set);
    return 1;
  }
  // The layouts, as the descriptor names them (its first use builds it, after the prctl), with
  // the length Highway's code runs at: the largest power of two of the one set.
  std::size_t used = 128;
  while (used * 2 <= bits) used *= 2;
  bool ok = true;
  for (const coheriq::EngineInfo& e : coheriq::engines(ck::domain_name)) {
    if (e.name != "sve") continue;
    for (const auto& l : e.layouts) {
      const std::size_t columns = l.candidate_class == "PackedMatrix<float>"    ? used / 16
                                  : l.candidate_class == "PackedMatrix<double>" ? used / 32
                                                                                : 0;
      if (columns == 0) continue;
      const std::string want = "sve (" + std::to_string(used) +
                               "-bit vectors): " + std::to_string(columns) + "-column panels";
      std::printf("%s: %s\n", l.candidate_class.c_str(), l.name.c_str());
      if (l.name.rfind(want, 0) != 0) {
        std::fprintf(stderr, "FAIL: layout of %s is '%s', expected it to start with '%s'\n",
                     l.candidate_class.c_str(), l.name.c_str(), want.c_str());
        ok = false;
      }
    }
  }
  ck::enable_engine("sve");
  ok = check_gemm<float>(used / 16) && ok;
  ok = check_gemm<double>(used / 32) && ok;
  if (ok)
    std::printf("sve at %zu bits (%zu-bit vectors used): layouts and gemm hold\n", bits, used);
  return ok ? 0 : 1;
}
