#include "core/messages.hpp"

#include "core/core.hpp"

namespace coheriq::detail {

std::string engine_of(const DomainCore& d, std::string_view engine) {
  return "engine '" + printable(engine) + "' of domain '" + d.name + "'";
}

std::string known_engines(DomainCore& d) { return "known engines: " + join(d.engine_names()); }

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
