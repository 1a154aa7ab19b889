// An application using numlib (a static library on top of the static coheriq::kernels), which
// also brings its own engine: `app_tuned`, linked into the program and registered with one call.
#include <coheriq/coheriq.hpp>
#include <coheriq/kernels_domain.hpp>

#include <cmath>
#include <cstdio>

#include "numlib.hpp"

namespace {

namespace cand = coheriq::kernels::cand;

// The application's own scal for doubles (say, tuned for its data); everything else it inherits.
void scal(std::size_t n, double a, double* x) {
  for (std::size_t i = 0; i < n; ++i) x[i] *= a;
}

constexpr coheriq::Override overrides[] = {coheriq::implement<cand::scal_f64, &scal>()};
constexpr coheriq::OverrideTable table = coheriq::table_of(overrides);

coheriq::EngineSpec app_engine() {
  coheriq::EngineSpec e;
  e.domain = std::string(coheriq::kernels::domain_name);
  e.name = "app_tuned";
  e.description = "the application's own scal, on top of the reference";
  e.priority = 1;
  e.overrides = &table;
  return e;
}

}  // namespace

int main() {
  coheriq::register_engine(app_engine());  // before the first use
  coheriq::enable_engine(coheriq::kernels::domain_name, "app_tuned");

  std::vector<double> v = {3e200, 4e200};
  const double length = numlib::normalize(v);
  const auto c = numlib::matmul({1, 2, 3, 4}, {5, 6, 7, 8}, 2, 2, 2);

  for (const coheriq::EngineInfo& e : coheriq::engines(coheriq::kernels::domain_name)) {
    if (e.name != "app_tuned") continue;
    for (const auto& p : e.providers) {
      if (p.candidate == "scal.f64" || p.candidate == "nrm2.f64") {
        std::printf("%s from %s\n", p.candidate.c_str(), p.engine.c_str());
      }
    }
  }
  std::printf("length %g -> (%g, %g); c = [%g %g; %g %g]; engine %s\n", length, v[0], v[1], c[0],
              c[1], c[2], c[3], coheriq::active_engine(coheriq::kernels::domain_name).c_str());
  const bool ok = std::fabs(length / 5e200 - 1) < 1e-15 && std::fabs(v[0] - 0.6) < 1e-15 &&
                  c[0] == 19 && c[3] == 50;
  return ok ? 0 : 1;
}
