// One static copy of coheriq::kernels in a shared library of its own (tests/framework: built
// twice, as libcoheriq_static_copy_a.so and _b.so, each linking coheriq::kernels statically).
// static_copy_run registers a probe engine of this copy on `base` (whose sum.f32 answers this
// copy's marker, so the caller can tell whose slots ran), enables it, calls the kernels, and
// reports what this copy sees.
#include <coheriq/coheriq.hpp>
#include <coheriq/engine.hpp>
#include <coheriq/kernels.hpp>
#include <coheriq/kernels_domain.hpp>

#include <cstddef>
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>

namespace {

namespace k = coheriq::kernels;

// The copy's marker: sum.f32 of the probe engine returns it whatever the input.
float probe_sum(std::size_t, const float*) { return STATIC_COPY_MARKER; }

constexpr coheriq::Override overrides[] = {coheriq::implement<k::cand::sum_f32, &probe_sum>()};
constexpr coheriq::OverrideTable table = coheriq::table_of(overrides);

// The engines this copy lists whose name starts with "probe_": its own only.
std::string probes() {
  std::string s;
  for (const coheriq::EngineInfo& e : coheriq::engines(k::domain_name)) {
    if (e.name.rfind("probe_", 0) == 0) s += (s.empty() ? "" : ",") + e.name;
  }
  return s;
}

std::string mro_of(const std::string& engine) {
  for (const coheriq::EngineInfo& e : coheriq::engines(k::domain_name)) {
    if (e.name != engine) continue;
    std::string s;
    for (const std::string& m : e.mro) s += (s.empty() ? "" : ">") + m;
    return s;
  }
  return "?";
}

std::string report() {
  const float x[3] = {1.0f, 2.0f, 3.0f};
  const double y[3] = {1.0, 2.0, 3.0};
  char sums[96];
  // sum.f32 is the probe's (the marker); sum.f64 comes from the base engine (6).
  std::snprintf(sums, sizeof sums, "sum.f32=%g sum.f64=%g", static_cast<double>(k::sum(3, x)),
                k::sum(3, y));
  const std::string active = k::active_engine();
  return "active=" + active + " mro=" + mro_of(active) + " " + sums + " probes=" + probes() +
         " locked=" + (coheriq::is_locked(k::domain_name) ? "yes" : "no");
}

void copy_out(const std::string& text, char* out, std::size_t size) {
  std::snprintf(out, size, "%s", text.c_str());
}

}  // namespace

// Registers and enables probe_<copy> on `base` ("" for the highest-priority engine this host
// supports), then reports. 0 on success; 1 with the error in `out`.
extern "C" __attribute__((visibility("default"))) int static_copy_run(const char* base, char* out,
                                                                      std::size_t size) {
  try {
    std::string on = base;
    if (on.empty()) {
      for (const coheriq::EngineInfo& e : coheriq::engines(k::domain_name)) {
        if (e.supported) {
          on = e.name;
          break;
        }
      }
    }
    coheriq::EngineSpec spec;
    spec.domain = std::string(k::domain_name);
    spec.name = STATIC_COPY_ENGINE;
    spec.bases = {on};
    spec.overrides = &table;
    coheriq::register_engine(spec);
    k::enable_engine(STATIC_COPY_ENGINE);
    copy_out(report(), out, size);
    return 0;
  } catch (const std::exception& e) {
    copy_out(e.what(), out, size);
    return 1;
  }
}

// What this copy sees now, without changing anything.
extern "C" __attribute__((visibility("default"))) int static_copy_report(char* out,
                                                                         std::size_t size) {
  try {
    copy_out(report(), out, size);
    return 0;
  } catch (const std::exception& e) {
    copy_out(e.what(), out, size);
    return 1;
  }
}
