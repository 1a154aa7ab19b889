// The public API of <coheriq/coheriq.hpp> and register_engine: find the domain, take its lock,
// and hand over to the part of the framework that does the job.
#include "core/core.hpp"

namespace coheriq {

using detail::DomainCore;

void enable_engine(std::string_view domain, std::string_view engine) {
  DomainCore& d = detail::find_domain(domain);
  std::lock_guard<std::mutex> guard(d.mu);
  detail::enable(d, engine);
}

std::string active_engine(std::string_view domain) {
  DomainCore& d = detail::find_domain(domain);
  std::lock_guard<std::mutex> guard(d.mu);
  return detail::selection(d).engine;
}

void enable_reproducible(std::string_view domain) {
  DomainCore& d = detail::find_domain(domain);
  std::lock_guard<std::mutex> guard(d.mu);
  detail::enable_reproducible(d);
}

bool reproducible(std::string_view domain) {
  DomainCore& d = detail::find_domain(domain);
  std::lock_guard<std::mutex> guard(d.mu);
  return detail::reproducible_mode(d);
}

bool is_locked(std::string_view domain) {
  return detail::find_domain(domain).locked.load(std::memory_order_acquire);
}

std::vector<std::string> domains() { return detail::domain_names(); }

DomainStatus status(std::string_view domain) {
  DomainCore& d = detail::find_domain(domain);
  std::lock_guard<std::mutex> guard(d.mu);
  return detail::domain_status(d);
}

std::vector<EngineInfo> engines(std::string_view domain) {
  DomainCore& d = detail::find_domain(domain);
  std::lock_guard<std::mutex> guard(d.mu);
  return detail::engine_infos(d);
}

void register_engine(const EngineSpec& spec) {
  DomainCore& d = detail::find_domain(spec.domain);
  std::lock_guard<std::mutex> guard(d.mu);
  d.add(detail::make_engine(d, spec, "static"));
}

}  // namespace coheriq
