// The level-3 routines (?gemm, ?symm, ?syrk, ?syr2k, ?trmm, ?trsm in s, d, c and z; ?hemm,
// ?herk, ?her2k in c and z) of several BLAS libraries at one order n, in one process (dlopen,
// RTLD_LOCAL), in wall time (the libraries' threads count): per routine, one warm-up call of each
// library, then `reps` rounds of one call of each library in turn, and each library's best call.
// Rounds rather than one library's calls after the other's: on a shared host whose speed drifts
// over seconds, a slow spell then slows every library of the routine alike. Prints milliseconds
// per call and, per library after the first, its time over the first's (above 1: the first,
// libcoheriq_blas, is faster).
//
//   blas_level3_bench n reps <libcoheriq_blas.so> <libblas.so.3> [<libopenblas.so.0> ...]
//
// Fortran calls, column-major, order n for every dimension: Left, Upper, no transpose, Unit
// diagonal, alpha = beta = 1 (complex: real parts, imaginary parts 0), every array of values of the
// order of 1/n² (so repeated in-place solves and products stay finite and normal), the same arrays
// for every library. Set the thread counts outside (COHERIQ_NUM_THREADS, OPENBLAS_NUM_THREADS;
// docs/performance/blas-routines.md).
#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <complex>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <type_traits>
#include <vector>

#include "dl_library.hpp"

#include "reference/scalar.hpp"

namespace {

using coheriq::bench::open_library;

using coheriq::kernels::reference::real_t;

template <class T>
std::vector<T> filled(int n) {
  std::vector<T> v(std::size_t(n) * std::size_t(n));
  const double scale = 1.0 / (double(n) * double(n));
  for (std::size_t i = 0; i < v.size(); ++i)
    v[i] = T(real_t<T>(scale * (1.0 + double((i * 7919) % 101) / 101)));
  return v;
}

// One routine's call on the library `lib`, with operands a, b, c of order n.
template <class T>
std::function<void()> call(const std::string& routine, void* lib, int& n, std::vector<T>& a,
                           std::vector<T>& b, std::vector<T>& c, T& one, real_t<T>& one_real) {
  void* f = dlsym(lib, routine.c_str());
  if (f == nullptr) {
    std::fprintf(stderr, "coheriq: %s is missing from a library\n", routine.c_str());
    std::exit(1);
  }
  const std::string stem = routine.substr(1);
  using Tri = void (*)(const char*, const char*, const char*, const char*, const int*, const int*,
                       const T*, const T*, const int*, T*, const int*, std::size_t, std::size_t,
                       std::size_t, std::size_t);
  using Gemm = void (*)(const char*, const char*, const int*, const int*, const int*, const T*,
                        const T*, const int*, const T*, const int*, const T*, T*, const int*,
                        std::size_t, std::size_t);
  using Symm =
      void (*)(const char*, const char*, const int*, const int*, const T*, const T*, const int*,
               const T*, const int*, const T*, T*, const int*, std::size_t, std::size_t);
  using Syrk = void (*)(const char*, const char*, const int*, const int*, const T*, const T*,
                        const int*, const T*, T*, const int*, std::size_t, std::size_t);
  using Syr2k =
      void (*)(const char*, const char*, const int*, const int*, const T*, const T*, const int*,
               const T*, const int*, const T*, T*, const int*, std::size_t, std::size_t);
  using R = real_t<T>;
  using Herk = void (*)(const char*, const char*, const int*, const int*, const R*, const T*,
                        const int*, const R*, T*, const int*, std::size_t, std::size_t);
  using Her2k =
      void (*)(const char*, const char*, const int*, const int*, const T*, const T*, const int*,
               const T*, const int*, const R*, T*, const int*, std::size_t, std::size_t);
  if (stem == "trsm_" || stem == "trmm_") {
    return [&, f] {
      reinterpret_cast<Tri>(f)("L", "U", "N", "U", &n, &n, &one, a.data(), &n, b.data(), &n, 1, 1,
                               1, 1);
    };
  }
  if (stem == "gemm_") {
    return [&, f] {
      reinterpret_cast<Gemm>(f)("N", "N", &n, &n, &n, &one, a.data(), &n, b.data(), &n, &one,
                                c.data(), &n, 1, 1);
    };
  }
  if (stem == "herk_") {
    return [&, f] {
      reinterpret_cast<Herk>(f)("U", "N", &n, &n, &one_real, a.data(), &n, &one_real, c.data(), &n,
                                1, 1);
    };
  }
  if (stem == "her2k_") {
    return [&, f] {
      reinterpret_cast<Her2k>(f)("U", "N", &n, &n, &one, a.data(), &n, b.data(), &n, &one_real,
                                 c.data(), &n, 1, 1);
    };
  }
  if (stem == "symm_" || stem == "hemm_") {
    return [&, f] {
      reinterpret_cast<Symm>(f)("L", "U", &n, &n, &one, a.data(), &n, b.data(), &n, &one, c.data(),
                                &n, 1, 1);
    };
  }
  if (stem == "syrk_") {
    return [&, f] {
      reinterpret_cast<Syrk>(f)("U", "N", &n, &n, &one, a.data(), &n, &one, c.data(), &n, 1, 1);
    };
  }
  return [&, f] {
    reinterpret_cast<Syr2k>(f)("U", "N", &n, &n, &one, a.data(), &n, b.data(), &n, &one, c.data(),
                               &n, 1, 1);
  };
}

// The best of `reps` rounds of one call of each function in turn, after one warm-up call each.
std::vector<double> best_seconds(const std::vector<std::function<void()>>& calls, int reps) {
  for (const auto& f : calls) f();
  std::vector<double> best(calls.size(), 1e30);
  for (int r = 0; r < reps; ++r) {
    for (std::size_t i = 0; i < calls.size(); ++i) {
      const auto start = std::chrono::steady_clock::now();
      calls[i]();
      best[i] = std::min(
          best[i], std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
  }
  return best;
}

template <class T>
void run(const char* letter, int n, int reps, const std::vector<void*>& libs) {
  std::vector<const char*> stems{"gemm_", "symm_", "syrk_", "syr2k_", "trmm_", "trsm_"};
  if (!std::is_same_v<T, real_t<T>>) stems.insert(stems.end(), {"hemm_", "herk_", "her2k_"});
  for (const char* stem : stems) {
    const std::string routine = std::string(letter) + stem;
    // Each library its own operands (in-place routines change B), filled alike.
    struct Operands {
      std::vector<T> a, b, c;
    };
    std::vector<Operands> operands(libs.size(), Operands{filled<T>(n), filled<T>(n), filled<T>(n)});
    T one = T(1);
    real_t<T> one_real = 1;
    std::vector<std::function<void()>> calls;
    for (std::size_t i = 0; i < libs.size(); ++i) {
      calls.push_back(
          call<T>(routine, libs[i], n, operands[i].a, operands[i].b, operands[i].c, one, one_real));
    }
    const std::vector<double> times = best_seconds(calls, reps);
    std::printf("%-8s %5d", routine.c_str(), n);
    for (double t : times) std::printf(" %11.2f", t * 1e3);
    for (std::size_t i = 1; i < times.size(); ++i) std::printf(" %8.2f", times[i] / times[0]);
    std::printf("\n");
    std::fflush(stdout);
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 5) {
    std::fprintf(stderr,
                 "usage: blas_level3_bench n reps <libcoheriq_blas.so> <libblas.so.3> "
                 "[more libraries]\n");
    return 2;
  }
  const int n = std::atoi(argv[1]), reps = std::atoi(argv[2]);
  std::vector<void*> libs;
  std::printf("%-8s %5s", "routine", "n");
  for (int i = 3; i < argc; ++i) {
    libs.push_back(open_library(argv[i]));
    std::string label = argv[i];
    label = label.substr(label.rfind('/') + 1);
    std::printf(" %11.11s", (label + " ms").c_str());
  }
  for (int i = 4; i < argc; ++i) std::printf("  lib%d/1st", i - 2);
  std::printf("\n");
  run<float>("s", n, reps, libs);
  run<double>("d", n, reps, libs);
  run<std::complex<float>>("c", n, reps, libs);
  run<std::complex<double>>("z", n, reps, libs);
  return 0;
}
