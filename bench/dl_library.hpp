// What the BLAS benchmarks that compare libraries in one process (blas_routines_bench,
// blas_level3_bench) share: loading each library on its own namespace.
#pragma once

#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>

namespace coheriq::bench {

// The library at `path`, loaded RTLD_LOCAL so that two BLAS libraries keep their own symbols;
// exits with the loader's reason when it cannot be loaded.
inline void* open_library(const char* path) {
  void* handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    std::fprintf(stderr, "coheriq: cannot load %s: %s\n", path, dlerror());
    std::exit(1);
  }
  return handle;
}

}  // namespace coheriq::bench
