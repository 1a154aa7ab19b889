#include "info.hpp"

#include <coheriq/coheriq.hpp>
#include <coheriq/kernels.hpp>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace coheriq::tool {
namespace {

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
  j["host"] = {
      {"arch", h.arch}, {"brand", h.brand}, {"features", h.features}, {"disabled", h.disabled}};
  j["domains"] = json::array();
  for (const DomainReport& d : domains) {
    json jd = {{"name", d.name},
               {"env_var", d.status.env_var},
               {"state", d.status.state},
               {"engine", d.status.engine},
               {"reason", d.status.reason},
               {"locked_by", d.status.locked_by},
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
                 {"supported", e.supported},
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

std::string joined(const std::vector<std::string>& v, const char* sep = ", ") {
  std::string s;
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? sep : "") + v[i];
  return s;
}

std::string pad(std::string s, std::size_t width) {
  if (s.size() < width) s.append(width - s.size(), ' ');
  return s;
}

void print_text(const HostInfo& h, const std::vector<DomainReport>& domains) {
  std::cout << "host: " << (h.brand.empty() ? "unknown CPU" : h.brand) << " (" << h.arch << ")\n";
  std::cout << "features: " << joined(h.features, " ") << "\n";
  if (!h.disabled.empty()) {
    std::cout << "disabled by COHERIQ_DISABLE_CPU_FEATURES: " << joined(h.disabled, " ") << "\n";
  }
  for (const DomainReport& d : domains) {
    std::cout << "\ndomain " << d.name;
    if (!d.status.env_var.empty()) std::cout << " (env var " << d.status.env_var << ")";
    std::cout << "\n";
    if (!d.status_error.empty()) {
      std::cout << "  selection: error: " << d.status_error << "\n";
    } else {
      std::cout << "  selection: " << d.status.engine << " (" << d.status.reason << "; "
                << d.status.state << ")\n";
    }
    std::size_t width = 8;
    for (const EngineInfo& e : d.engines) width = std::max(width, e.name.size() + 2);
    std::cout << "  engines, highest priority first:\n";
    for (const EngineInfo& e : d.engines) {
      std::cout << "    " << pad(e.name, width)
                << pad(e.supported ? "supported" : "unsupported", 13) << "priority "
                << pad(std::to_string(e.priority), 5) << pad(e.origin, 9)
                << "mro: " << joined(e.mro, " -> ") << "\n";
      if (!e.description.empty()) std::cout << "      " << e.description << "\n";
      if (!e.missing_features.empty()) {
        std::cout << "      missing: " << joined(e.missing_features) << "\n";
      }
      if (!e.error.empty()) std::cout << "      error: " << e.error << "\n";
      for (const auto& l : e.layouts) {
        std::cout << "      layout of " << l.candidate_class << ": " << l.name << " (from "
                  << l.engine << ")\n";
      }
    }
    // Which engine provides each candidate, under each engine.
    std::size_t first = 10;
    for (const std::string& c : d.status.candidates) first = std::max(first, c.size() + 2);
    std::cout << "  providers (row: candidate, column: engine enabled):\n    " << pad("", first);
    for (const EngineInfo& e : d.engines) std::cout << pad(e.name, width);
    std::cout << "\n";
    for (std::size_t k = 0; k < d.status.candidates.size(); ++k) {
      std::cout << "    " << pad(d.status.candidates[k], first);
      for (const EngineInfo& e : d.engines) {
        std::cout << pad(k < e.providers.size() ? e.providers[k].engine : "-", width);
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
      std::cout << to_json(h, domains).dump(2) << "\n";
    } else {
      print_text(h, domains);
    }
    return 0;
  } catch (const coheriq::Error& e) {
    std::cerr << e.what() << "\n";
    return 1;
  }
}

}  // namespace coheriq::tool
