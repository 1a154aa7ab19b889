#include "core/messages.hpp"

#include <cstdlib>

#include "core/core.hpp"

namespace coheriq::detail {

std::string engine_of(const DomainCore& d, std::string_view engine) {
  return "engine " + quoted(engine) + " of domain '" + d.name + "'";
}

std::string known_engines(DomainCore& d, bool with_auto) {
  std::string s = "known engines: " + join(d.engine_names());
  if (with_auto) s += " (or 'auto')";
  if (!d.broken_manifests.empty()) {
    std::vector<std::string> broken;
    for (const std::string& m : d.broken_manifests) broken.push_back(printable(m, 500));
    s += "; plugin manifests that could not be read: " + join(broken, "; ");
  }
  const char* path = std::getenv("COHERIQ_ENGINE_PATH");
  s += "; plugin engines are found through COHERIQ_ENGINE_PATH (";
  s += path == nullptr ? std::string("unset") : "now " + quoted(path);
  s += ") and the install's engine directory";
  return s;
}

std::string host_supports(DomainCore& d) {
  const std::vector<std::string> supported = supported_engines(d);
  return "Engines this host supports: " +
         (supported.empty() ? std::string("none") : join(supported));
}

std::string missing_of(const Composition& c) {
  std::vector<std::string> missing = c.missing;
  missing.insert(missing.end(), c.missing_host.begin(), c.missing_host.end());
  return join(missing);
}

}  // namespace coheriq::detail
