#include "kernels/layout_name.hpp"

#if defined(__aarch64__) && defined(__linux__)
#include <sys/auxv.h>
#include <sys/prctl.h>
#endif

namespace coheriq::kernels {

std::size_t scalable_vector_bits() {
#if defined(__aarch64__) && defined(__linux__) && defined(HWCAP_SVE) && defined(PR_SVE_GET_VL)
  if ((getauxval(AT_HWCAP) & HWCAP_SVE) == 0) return 0;
  const int vl = prctl(PR_SVE_GET_VL);
  if (vl <= 0) return 0;
  // Highway's SVE code uses the largest power of two of the length (a 384-bit SVE runs 256-bit
  // vectors): that is the length the kernels and their layouts have.
  const std::size_t bits = static_cast<std::size_t>(vl & PR_SVE_VL_LEN_MASK) * 8;
  std::size_t pow2 = 128;
  while (pow2 * 2 <= bits) pow2 *= 2;
  return bits < 128 ? 0 : pow2;
#else
  return 0;
#endif
}

std::string gemm_layout_name(std::string_view engine, const GemmTuning& tuning) {
  std::string name(engine);
  std::string columns = std::to_string(tuning.nr);  // of a panel
  if (tuning.scalable) {
    // The panels are as many vectors wide at every length: a layout per vector length. The
    // length is read when the descriptor is built, once per process (the kernels read it at
    // each call, so a process must not change it after the domain's first use).
    const std::size_t bits = scalable_vector_bits();
    if (bits == 0) {
      name += " (no scalable vectors on this host)";
      columns += " x VL/128";
    } else {
      name += " (" + std::to_string(bits) + "-bit vectors)";
      columns = std::to_string(tuning.nr * bits / 128);
    }
  }
  return name + ": " + columns + "-column panels, even k-blocks of at most " +
         std::to_string(tuning.kc) + ", 64-byte aligned";
}

}  // namespace coheriq::kernels
