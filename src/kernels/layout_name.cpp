#include "kernels/layout_name.hpp"

#include "core/host.hpp"

namespace coheriq::kernels {

std::size_t scalable_vector_bits() {
  // Highway's SVE code uses the largest power of two of the length (a 384-bit SVE runs 256-bit
  // vectors): that is the length the kernels and their layouts have.
  const std::size_t bits = detail::sve_vector_bits();
  if (bits < 128) return 0;
  std::size_t pow2 = 128;
  while (pow2 * 2 <= bits) pow2 *= 2;
  return pow2;
}

std::string gemm_layout_name(std::string_view engine, const GemmTuning& blocking) {
  std::string name(engine);
  std::string columns = std::to_string(blocking.nr);  // of a panel
  if (blocking.scalable) {
    // The panels are as many vectors wide at every length: a layout per vector length. The
    // length is read when the descriptor is built, once per process (the kernels read it at
    // each call, so a process must not change it after the domain's first use).
    const std::size_t bits = scalable_vector_bits();
    if (bits == 0) {
      name += " (no scalable vectors on this host)";
      columns += " x VL/128";
    } else {
      name += " (" + std::to_string(bits) + "-bit vectors)";
      columns = std::to_string(blocking.nr * bits / 128);
    }
  }
  return name + ": " + columns + "-column panels, even k-blocks of at most " +
         std::to_string(blocking.kc) + ", 64-byte aligned";
}

}  // namespace coheriq::kernels
