// Two static copies of coheriq::kernels in one process: usage
//   coheriq_static_copies local|global LIB_A LIB_B
// dlopens both libraries (static_copy.cpp, each linking coheriq::kernels statically) with
// RTLD_LOCAL (how Python loads extensions) or RTLD_GLOBAL, and has each enable an engine of its
// own: A's probe on the reference, B's on the best engine this host supports. Each must report
// its own engine, list only its own probe, and run its own kernels (the probe's sum.f32 answers
// the copy's marker); A must be unchanged after B locked. Prints "static copies: ok".
#include <dlfcn.h>

#include <cstddef>
#include <cstdio>
#include <cstring>
#include <string>

namespace {

using Run = int (*)(const char*, char*, std::size_t);
using Report = int (*)(char*, std::size_t);

struct Copy {
  const char* label;
  Run run;
  Report report;
};

bool failed = false;

void expect(bool ok, const char* label, const std::string& what, const std::string& got) {
  std::printf("%s: %s\n", label, got.c_str());
  if (!ok) {
    std::printf("  FAIL: expected %s\n", what.c_str());
    failed = true;
  }
}

bool starts_with(const std::string& s, const std::string& prefix) {
  return s.compare(0, prefix.size(), prefix) == 0;
}

bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

Copy open_copy(const char* label, const char* path, int mode) {
  void* lib = dlopen(path, RTLD_NOW | mode);
  if (lib == nullptr) {
    std::printf("%s: dlopen: %s\n", label, dlerror());
    return {label, nullptr, nullptr};
  }
  return {label, reinterpret_cast<Run>(dlsym(lib, "static_copy_run")),
          reinterpret_cast<Report>(dlsym(lib, "static_copy_report"))};
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4 || (std::strcmp(argv[1], "local") != 0 && std::strcmp(argv[1], "global") != 0)) {
    std::fprintf(stderr, "usage: coheriq_static_copies local|global LIB_A LIB_B\n");
    return 2;
  }
  const int mode = std::strcmp(argv[1], "local") == 0 ? RTLD_LOCAL : RTLD_GLOBAL;
  // Both loaded before either runs, as an interpreter imports two extensions.
  const Copy a = open_copy("A", argv[2], mode);
  const Copy b = open_copy("B", argv[3], mode);
  if (a.run == nullptr || a.report == nullptr || b.run == nullptr || b.report == nullptr) {
    std::printf("FAIL: a library or its functions could not be loaded\n");
    return 1;
  }

  char text[4096];
  const std::string a_own =
      "active=probe_a mro=probe_a>reference sum.f32=1 sum.f64=6 "
      "probes=probe_a locked=yes";
  int status = a.run("reference", text, sizeof text);
  expect(status == 0 && text == a_own, "A enables probe_a on reference", a_own, text);

  status = b.run("", text, sizeof text);
  const std::string got_b = text;
  expect(status == 0 && starts_with(got_b, "active=probe_b mro=probe_b>") &&
             contains(got_b, " sum.f32=2 sum.f64=6 probes=probe_b locked=yes"),
         "B enables probe_b on the best engine",
         "active=probe_b mro=probe_b>(best)>...>reference sum.f32=2 sum.f64=6 probes=probe_b "
         "locked=yes",
         got_b);

  status = a.report(text, sizeof text);
  expect(status == 0 && text == a_own, "A after B", a_own, text);
  status = b.report(text, sizeof text);
  expect(status == 0 && text == got_b, "B after A", "the same as B reported", text);

  if (failed) return 1;
  std::printf("static copies: ok\n");
  return 0;
}
