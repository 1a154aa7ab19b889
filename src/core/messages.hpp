// The pieces of error text that several parts of the framework say alike, produced in one place
// so that the same fact reads the same way in every message.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace coheriq::detail {

class DomainCore;
struct Composition;

// "engine 'x' of domain 'y'"; `engine` is echoed with printable() (it may come from a caller).
std::string engine_of(const DomainCore& d, std::string_view engine);

// "known engines: a, b, c" in priority order (then "(or 'auto')" with `with_auto`), the manifests
// that could not be read, and where plugin engines are looked for: the remedy of every message
// about an engine name that is not there. Needs mu.
std::string known_engines(DomainCore& d, bool with_auto = false);

// "Engines this host supports: a, b" (or "none"), highest priority first. Needs mu.
std::string host_supports(DomainCore& d);

// What the host lacks for composition `c`, features then host properties: "avx2, vendor ..."
// (empty when nothing is missing).
std::string missing_of(const Composition& c);

}  // namespace coheriq::detail
