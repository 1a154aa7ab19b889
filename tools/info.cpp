#include "info.hpp"

#include <coheriq/coheriq.hpp>
#include <coheriq/kernels.hpp>

#include <algorithm>
#include <cstdio>
#include <exception>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/text.hpp"
#include "output.hpp"

namespace coheriq::tool {
namespace {

using coheriq::detail::join;
using nlohmann::json;

struct DomainReport {
  std::string name;
  DomainStatus status;
  std::string status_error;  // the env var's error, if it has one
  std::vector<EngineInfo> engines;
};

std::vector<DomainReport> gather() {
  // Calling into the kernels API materializes its domain (never locks). Its errors, if its
  // environment variable is malformed, are reported per domain below.
  try {
    (void)coheriq::kernels::active_engine();
  } catch (const coheriq::Error&) {
  }
  std::vector<DomainReport> out;
  for (const std::string& d : coheriq::domains()) {
    DomainReport r;
    r.name = d;
    try {
      r.status = coheriq::status(d);
    } catch (const coheriq::Error& e) {
      r.status.domain = d;
      r.status_error = e.what();
    }
    r.engines = coheriq::engines(d);
    out.push_back(std::move(r));
  }
  return out;
}

json to_json(const HostInfo& h, const std::vector<DomainReport>& domains) {
  json j;
  j["host"] = {{"arch", h.arch},           {"brand", h.brand},       {"vendor", h.vendor},
               {"family", h.family},       {"model", h.model},       {"vector_bits", h.vector_bits},
               {"l1d_bytes", h.l1d_bytes}, {"l2_bytes", h.l2_bytes}, {"features", h.features},
               {"disabled", h.disabled}};
  j["domains"] = json::array();
  for (const DomainReport& d : domains) {
    json jd = {{"name", d.name},
               {"env_var", d.status.env_var},
               {"abi", d.status.abi},
               {"state", d.status.state},
               {"engine", d.status.engine},
               {"reason", d.status.reason},
               {"locked_by", d.status.locked_by},
               {"reproducible_env_var", d.status.reproducible_env_var},
               {"reproducible", d.status.reproducible},
               {"candidates", d.status.candidates},
               {"classes", d.status.classes}};
    if (!d.status_error.empty()) jd["error"] = d.status_error;
    jd["engines"] = json::array();
    for (const EngineInfo& e : d.engines) {
      json je = {{"name", e.name},
                 {"description", e.description},
                 {"bases", e.bases},
                 {"mro", e.mro},
                 {"required_features", e.required_features},
                 {"missing_features", e.missing_features},
                 {"missing_host", e.missing_host},
                 {"supported", e.supported},
                 {"reproducible", e.reproducible},
                 {"priority", e.priority},
                 {"origin", e.origin}};
      je["providers"] = json::object();
      for (const auto& p : e.providers) je["providers"][p.candidate] = p.engine;
      je["layouts"] = json::object();
      for (const auto& l : e.layouts) {
        je["layouts"][l.candidate_class] = {{"engine", l.engine}, {"name", l.name}};
      }
      if (!e.error.empty()) je["error"] = e.error;
      jd["engines"].push_back(std::move(je));
    }
    j["domains"].push_back(std::move(jd));
  }
  return j;
}

// Every piece of text below may come from a manifest or a plugin path: shown() escapes it.
std::string joined(const std::vector<std::string>& v, const char* sep = ", ") {
  std::vector<std::string> items;
  for (const std::string& item : v) items.push_back(shown(item));
  return join(items, sep);
}

std::string pad(std::string s, std::size_t width) {
  const std::size_t w = display_width(s);
  if (w < width) s.append(width - w, ' ');
  return s;
}

// "32 KiB", "1 MiB", or "unknown" for 0.
std::string bytes_text(std::size_t bytes) {
  if (bytes == 0) return "unknown";
  if (bytes % (std::size_t{1} << 20) == 0) return std::to_string(bytes >> 20) + " MiB";
  if (bytes % 1024 == 0) return std::to_string(bytes >> 10) + " KiB";
  return std::to_string(bytes) + " B";
}

void print_host(const HostInfo& h) {
  std::cout << "host: " << (h.brand.empty() ? "unknown CPU" : shown(h.brand)) << " ("
            << shown(h.arch) << ")\n";
  std::cout << "cpu: vendor " << (h.vendor.empty() ? "unknown" : shown(h.vendor)) << ", family "
            << h.family << ", model " << h.model << "; per core: L1d " << bytes_text(h.l1d_bytes)
            << ", L2 " << bytes_text(h.l2_bytes) << "; vector length: "
            << (h.vector_bits == 0 ? std::string("fixed by the ISA")
                                   : std::to_string(h.vector_bits) + " bits (scalable)")
            << "\n";
  std::cout << "features: " << joined(h.features, " ") << "\n";
  if (!h.disabled.empty()) {
    std::cout << "disabled by COHERIQ_DISABLE_CPU_FEATURES: " << joined(h.disabled, " ") << "\n";
  }
}

void print_text(const HostInfo& h, const std::vector<DomainReport>& domains) {
  print_host(h);
  for (const DomainReport& d : domains) {
    std::cout << "\ndomain " << shown(d.name);
    if (!d.status.env_var.empty()) std::cout << " (env var " << shown(d.status.env_var) << ")";
    std::cout << "\n";
    if (!d.status.abi.empty()) std::cout << "  abi: " << shown(d.status.abi) << "\n";
    if (!d.status_error.empty()) {
      std::cout << "  selection: error: " << shown(d.status_error) << "\n";
    } else {
      std::cout << "  selection: " << shown(d.status.engine) << " (" << shown(d.status.reason)
                << "; " << shown(d.status.state) << ")\n";
      if (!d.status.reproducible_env_var.empty()) {
        std::cout << "  reproducible mode: "
                  << (d.status.reproducible ? "on: every engine marked 'reproducible' gives the "
                                              "same bits"
                                            : "off")
                  << " (" << shown(d.status.reproducible_env_var) << ")\n";
      }
    }
    // Column widths from the contents, so a long name or plugin path never runs into the next
    // column.
    std::size_t width = 8, origin_width = 9;
    for (const EngineInfo& e : d.engines) {
      width = std::max(width, display_width(shown(e.name)) + 2);
      origin_width = std::max(origin_width, display_width(shown(e.origin)) + 2);
    }
    std::cout << "  engines, highest priority first:\n";
    for (const EngineInfo& e : d.engines) {
      std::cout << "    " << pad(shown(e.name), width)
                << pad(e.supported ? "supported" : "unsupported", 13)
                << (d.status.reproducible_env_var.empty() ? ""
                    : e.reproducible                      ? "reproducible  "
                                                          : "fast only     ")
                << "priority " << pad(std::to_string(e.priority), 5)
                << pad(shown(e.origin), origin_width) << "mro: " << joined(e.mro, " -> ") << "\n";
      if (!e.description.empty()) std::cout << "      " << shown(e.description) << "\n";
      if (!e.missing_features.empty()) {
        std::cout << "      missing: " << joined(e.missing_features) << "\n";
      }
      if (!e.missing_host.empty()) {
        std::cout << "      missing host properties: " << joined(e.missing_host, "; ") << "\n";
      }
      if (!e.error.empty()) std::cout << "      error: " << shown(e.error) << "\n";
      for (const auto& l : e.layouts) {
        std::cout << "      layout of " << shown(l.candidate_class) << ": " << shown(l.name)
                  << " (from " << shown(l.engine) << ")\n";
      }
    }
    // Which engine provides each candidate, under each engine.
    std::size_t first = 10;
    for (const std::string& c : d.status.candidates) {
      first = std::max(first, display_width(shown(c)) + 2);
    }
    std::cout << "  providers (row: candidate, column: engine enabled):\n    " << pad("", first);
    for (const EngineInfo& e : d.engines) std::cout << pad(shown(e.name), width);
    std::cout << "\n";
    for (std::size_t k = 0; k < d.status.candidates.size(); ++k) {
      std::cout << "    " << pad(shown(d.status.candidates[k]), first);
      for (const EngineInfo& e : d.engines) {
        std::cout << pad(k < e.providers.size() ? shown(e.providers[k].engine) : "-", width);
      }
      std::cout << "\n";
    }
  }
}

}  // namespace

int run_info(bool json_output) {
  try {
    const HostInfo h = coheriq::host();
    const std::vector<DomainReport> domains = gather();
    if (json_output) {
      std::cout << dump_json(to_json(h, domains)) << "\n";
    } else {
      print_text(h, domains);
    }
    return 0;
  } catch (const coheriq::Error& e) {
    std::cerr << shown(e.what()) << "\n";
    return 1;
  } catch (const std::exception& e) {
    // Nothing else is expected; an exception must still end as a message, never an abort.
    std::cerr << "coheriq: info: " << shown(e.what()) << "\n";
    return 1;
  }
}

}  // namespace coheriq::tool
