// Enabling an engine from a global constructor of the application, before anything of the
// domain ran. The typed API (coheriq::enable_engine<Domain>, and a domain's own shortcut such as
// coheriq::kernels::enable_engine) materializes the domain first, so it works there. The generic,
// name-based API sees only domains that materialized, and C++ does not order a domain's own
// registration before the application's constructors: its error says to use the typed API.
#include <coheriq/domain.hpp>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "shapes.hpp"

namespace {

int failures = 0;

void check(bool ok, const std::string& what) {
  if (!ok) {
    std::fprintf(stderr, "global_constructor: %s\n", what.c_str());
    ++failures;
  }
}

struct EnableAtStartUp {
  EnableAtStartUp() {
    try {
      coheriq::enable_engine(shapes::domain, "left");
      check(false, "the generic enable_engine found a domain nothing materialized");
    } catch (const coheriq::UnknownDomainError& e) {
      const std::string message = e.what();
      check(message.find("enable_engine<Domain>") != std::string::npos,
            "the UnknownDomainError does not say to use the typed API: " + message);
    }
    coheriq::enable_engine<shapes::Domain>("left");
    const auto names = coheriq::domains();
    check(names.size() == 1 && names[0] == shapes::domain,
          "domains() does not list test.shapes after enable_engine<Domain>");
  }
} enable_at_start_up;

}  // namespace

int main() {
  check(coheriq::status(shapes::domain).engine == "left", "left is not in effect");
  check(shapes::perimeter(1, 1).engine == "left", "perimeter did not run left's kernel");
  if (failures == 0) std::printf("global_constructor: ok\n");
  return failures == 0 ? 0 : 1;
}
