// A downstream program: C++17, links coheriq::kernels without whole-archive, and must see every
// built-in engine of the build that produced the package (the registry is referenced
// explicitly, nothing relies on static constructors), and run each one this host supports.
//
// usage: consumer <built-in engines, comma-separated> [<engine>]
//   Checks that the built-in engines listed are exactly the given ones. With <engine>: enables
//   it and checks a dot product, or, when this host cannot run it, checks that it is refused.
#include <coheriq/coheriq.hpp>
#include <coheriq/kernels.hpp>
#include <coheriq/kernels_domain.hpp>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

namespace {

std::vector<std::string> split(const std::string& list) {
  std::vector<std::string> names;
  std::string::size_type start = 0;
  while (start <= list.size()) {
    const std::string::size_type comma = list.find(',', start);
    const std::string name =
        list.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (!name.empty()) names.push_back(name);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return names;
}

bool contains(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

// dot of 1001 halves and fours: 2002 exactly on every engine. Also through this program's own
// instantiation of the domain's templates (<coheriq/domain.hpp>): with shared libraries that is a
// copy of the slots apart from the library's, which the domain must install the engine into too.
bool dot_is_right() {
  std::vector<double> x(1001, 0.5), y(1001, 4.0);
  const double d = coheriq::kernels::dot(x.size(), x.data(), y.data());
  const double own = coheriq::call<coheriq::kernels::Domain, coheriq::kernels::cand::dot_f64>(
      x.size(), x.data(), y.data());
  std::printf("dot = %g (this program's slot: %g) with engine %s\n", d, own,
              coheriq::kernels::active_engine().c_str());
  return d == 2002.0 && own == 2002.0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || argc > 3) {
    std::fprintf(stderr,
                 "coheriq: consumer: usage: consumer <built-in engines, comma-separated> "
                 "[<engine>]\n");
    return 2;
  }
  const std::vector<std::string> expected = split(argv[1]);
  const std::vector<coheriq::EngineInfo> engines = coheriq::engines(coheriq::kernels::domain_name);
  std::vector<std::string> builtin;
  std::printf("engines:");
  for (const auto& e : engines) {
    std::printf(" %s%s", e.name.c_str(), e.supported ? "" : "(unsupported)");
    if (e.origin == "builtin") builtin.push_back(e.name);
  }
  std::printf("\n");

  bool ok = true;
  for (const std::string& name : expected) {
    if (!contains(builtin, name)) {
      std::fprintf(stderr,
                   "coheriq: consumer: built-in engine '%s' of this build is not listed; its "
                   "registration was lost when linking the installed package\n",
                   name.c_str());
      ok = false;
    }
  }
  for (const std::string& name : builtin) {
    if (!contains(expected, name)) {
      std::fprintf(stderr,
                   "coheriq: consumer: engine '%s' is listed as built in, but the build that "
                   "installed the package did not build it (expected: %s)\n",
                   name.c_str(), argv[1]);
      ok = false;
    }
  }
  if (argc == 2) return ok && dot_is_right() ? 0 : 1;

  const std::string wanted = argv[2];
  const auto info = std::find_if(engines.begin(), engines.end(),
                                 [&](const coheriq::EngineInfo& e) { return e.name == wanted; });
  if (info == engines.end()) {
    std::fprintf(stderr, "coheriq: consumer: engine '%s' is not listed\n", wanted.c_str());
    return 1;
  }
  if (!info->error.empty()) {
    std::fprintf(stderr, "coheriq: consumer: built-in engine '%s' does not compose: %s\n",
                 wanted.c_str(), info->error.c_str());
    return 1;
  }
  if (!info->supported) {
    // Not runnable here: it must be refused, not silently replaced.
    std::string missing;
    for (const std::string& f : info->missing_features) missing += " " + f;
    for (const std::string& h : info->missing_host) missing += " " + h;
    std::printf("engine %s is not supported on this host (missing:%s); checking the refusal\n",
                wanted.c_str(), missing.c_str());
    try {
      coheriq::kernels::enable_engine(wanted);
      (void)dot_is_right();
    } catch (const coheriq::Error& error) {
      std::printf("refused: %s\n", error.what());
      return ok ? 0 : 1;
    }
    std::fprintf(stderr, "coheriq: consumer: engine '%s' is unsupported but was not refused\n",
                 wanted.c_str());
    return 1;
  }
  coheriq::kernels::enable_engine(wanted);
  const bool right = dot_is_right();
  if (coheriq::kernels::active_engine() != wanted) {
    std::fprintf(stderr, "coheriq: consumer: enabled '%s' but '%s' ran\n", wanted.c_str(),
                 coheriq::kernels::active_engine().c_str());
    return 1;
  }
  return ok && right ? 0 : 1;
}
