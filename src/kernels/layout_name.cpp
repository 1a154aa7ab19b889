#include "kernels/layout_name.hpp"

namespace coheriq::kernels {

std::string gemm_layout_name(std::string_view engine, const GemmTuning& tuning) {
  return std::string(engine) + ": " + std::to_string(tuning.nr) +
         "-column panels, even k-blocks of at most " + std::to_string(tuning.kc) +
         ", 64-byte aligned";
}

}  // namespace coheriq::kernels
