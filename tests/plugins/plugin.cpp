// Test plugin for the kernels domain: overrides sum.f32 with a sum that counts its calls, so the
// tests can tell it ran. PLUGIN_NAME and PLUGIN_ABI are set per build (a matching and a
// mismatching ABI).
#include <coheriq/kernels_domain.hpp>

namespace {

float sum(std::size_t n, const float* x) {
  float s = 0;
  for (std::size_t i = 0; i < n; ++i) s += x[i];
  return s + 1000.0f;  // recognizably this plugin's answer
}

constexpr coheriq::Override overrides[] = {
    coheriq::implement<coheriq::kernels::cand::sum_f32, &sum>()};
constexpr coheriq::OverrideTable table = coheriq::table_of(overrides);

struct Domain {
  static constexpr std::string_view abi = PLUGIN_ABI;
};

}  // namespace

COHERIQ_PLUGIN_ENGINE(Domain, PLUGIN_NAME, table);
