// Every Fortran BLAS routine of libcoheriq_blas against the reference BLAS (Debian's libblas3,
// netlib's Fortran compiled by gfortran) at one mid size, in one run: both libraries loaded in
// this process (dlopen, RTLD_LOCAL), each routine timed on each alternately, in CPU time of this
// thread. Prints the reference's time over Coheriq's per routine (above 1: Coheriq is faster).
//
//   blas_routines_bench <libcoheriq_blas.so> [reference libblas.so.3 [routines]]
//
// routines: an ECMAScript regular expression the Fortran names must match ('z(dot|gemv)'), all
// of them when absent.
//
// The calls are expanded from the table of routines (src/blas/routines.hpp) with one choice of
// arguments per kind: N (no transpose), Upper, Left, a unit diagonal (so that repeated solves
// stay finite), unit increments, alpha = beta = 1, band width 32, every array filled with
// values of the order of 1/n², and the sizes below. Run with COHERIQ_NUM_THREADS=1 for a
// single-thread comparison (bench/blas_bench.py's rules; docs/performance.md).
#include <dlfcn.h>
#include <time.h>

#include <algorithm>
#include <complex>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <regex>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "dl_library.hpp"

#include "blas/kinds.hpp"
#include "blas/preprocessor.hpp"
#include "blas/routines.hpp"

namespace {

namespace kind = coheriq::blas::kind;
using coheriq::blas::cdouble;
using coheriq::blas::cfloat;

constexpr int kLevel1 = 1 << 18;  // elements
constexpr int kLevel2 = 1000;     // n x n
constexpr int kLevel3 = 256;      // n x n
constexpr int kBand = 32;         // band routines' k, kl, ku

// The arrays and scalars of one call, large enough for any routine of the table.
struct Operands {
  explicit Operands(int level) : n(level == 1 ? kLevel1 : level == 2 ? kLevel2 : kLevel3) {}
  int n;
  int one = 1;
  int band = kBand;
  int band_ld = 2 * kBand + 1;
  char letters[4] = {'N', 'U', 'L', 'U'};  // transpose, uplo, side, diag
  std::vector<std::vector<unsigned char>> arrays;

  // A fresh array of n² (level 1: n) elements of T, filled with 1/n²-sized values.
  template <class T>
  T* array() {
    const std::size_t count = n == kLevel1 ? std::size_t(n) : std::size_t(n) * std::size_t(n);
    arrays.emplace_back(count * sizeof(T));
    T* data = reinterpret_cast<T*>(arrays.back().data());
    const double scale = 1.0 / (double(n) * double(n));
    for (std::size_t i = 0; i < count; ++i) {
      const double v = scale * (1.0 + double((i * 7919) % 101) / 101.0);
      if constexpr (coheriq::blas::is_complex_v<T>) {
        data[i] = T(typename T::value_type(v), typename T::value_type(v / 2));
      } else {
        data[i] = T(v);
      }
    }
    return data;
  }
};

// The Fortran argument of kind K named `name` of `routine`.
template <class K, class T>
typename K::template fortran<T> argument(Operands& o, const char* routine, const char* name) {
  using A = typename K::template fortran<T>;
  if constexpr (std::is_same_v<A, const char*>) {
    if (std::strncmp(name, "trans", 5) == 0) return &o.letters[0];
    if (std::strcmp(name, "uplo") == 0) return &o.letters[1];
    if (std::strcmp(name, "side") == 0) return &o.letters[2];
    return &o.letters[3];
  } else if constexpr (std::is_same_v<K, kind::BAND_LD>) {
    return &o.band_ld;
  } else if constexpr (std::is_same_v<A, const int*>) {
    // Dimensions are n, increments 1; a band routine's k, kl and ku are its band.
    const bool band = std::strstr(routine, "bmv") != nullptr || std::strstr(routine, "bsv");
    if (name[0] == 'i') return &o.one;
    if (band && name[0] == 'k') return &o.band;
    return &o.n;
  } else if constexpr (std::is_pointer_v<A>) {
    using V = std::remove_const_t<std::remove_pointer_t<A>>;
    V* p = o.array<V>();
    if constexpr (std::is_same_v<K, kind::SCALAR> || std::is_same_v<K, kind::REAL>) *p = V(1);
    return p;
  }
}

// A routine: `make` builds its arguments once (arrays in `o`) and returns the call.
struct Routine {
  std::string name;
  int level;
  std::function<void()> (*make)(void* function, Operands& o);
};
std::vector<Routine>& routines() {
  static std::vector<Routine> all;
  return all;
}
struct Registration {
  Registration(const char* name, int level, std::function<void()> (*make)(void*, Operands&)) {
    routines().push_back({name, level, make});
  }
};

double thread_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

// Seconds per call: the best of 3 rounds of at least 20 ms each.
double time_call(const Routine& r, void* function, Operands& o) {
  const std::function<void()> call = r.make(function, o);
  call();  // warm: pages, caches, the engine
  double best = 1e30;
  for (int round = 0; round < 3; ++round) {
    int calls = 0;
    const double start = thread_seconds();
    double elapsed = 0;
    do {
      call();
      ++calls;
      elapsed = thread_seconds() - start;
    } while (elapsed < 0.02);
    best = std::min(best, elapsed / calls);
  }
  return best;
}

using coheriq::bench::open_library;

}  // namespace

// ------------------------------ One registration per routine of the table

#define BENCH_PARAMETER_TYPE(K, name, ...) , COHERIQ_KIND(K)::fortran<T>
#define BENCH_ARGUMENT(K, name, ...) , argument<COHERIQ_KIND(K), T>(o, routine, #name)
#define BENCH_23(letter, Type, stem, mapping, ...)                                                 \
  namespace bench_##letter##stem {                                                                 \
    using T = Type;                                                                                \
    /* Called without the hidden lengths: CHARACTER*1 dummies never read them. */                  \
    using Function = void (*)(COHERIQ_TAIL(~COHERIQ_FOR_EACH(BENCH_PARAMETER_TYPE, __VA_ARGS__))); \
    std::function<void()> make(void* f, Operands& o) {                                             \
      [[maybe_unused]] const char* routine = #letter #stem;                                        \
      auto args = std::make_tuple(COHERIQ_TAIL(~COHERIQ_FOR_EACH(BENCH_ARGUMENT, __VA_ARGS__)));   \
      return [f, args] { std::apply(reinterpret_cast<Function>(f), args); };                       \
    }                                                                                              \
    const Registration registration(#letter #stem "_", level, make);                               \
  }
#define BENCH_1(letter, Type, stem, fn, result, ...)                                             \
  namespace bench_##letter##stem {                                                               \
    using T = Type;                                                                              \
    using Function = COHERIQ_FORTRAN_RESULT_##result (*)(                                        \
        COHERIQ_TAIL(~COHERIQ_FOR_EACH(BENCH_PARAMETER_TYPE, __VA_ARGS__)));                     \
    std::function<void()> make(void* f, Operands& o) {                                           \
      [[maybe_unused]] const char* routine = #letter #stem;                                      \
      auto args = std::make_tuple(COHERIQ_TAIL(~COHERIQ_FOR_EACH(BENCH_ARGUMENT, __VA_ARGS__))); \
      return [f, args] { std::apply(reinterpret_cast<Function>(f), args); };                     \
    }                                                                                            \
    const Registration registration(#letter #stem "_", 1, make);                                 \
  }
#define BENCH_ROW_1(stem, fn, types, result, ...) \
  COHERIQ_ROW_1(BENCH_1, stem, fn, types, result, __VA_ARGS__)
#define BENCH_ROW_23(stem, types, mapping, ...) \
  COHERIQ_ROW_23(BENCH_23, stem, types, mapping, __VA_ARGS__)

COHERIQ_BLAS_LEVEL1(BENCH_ROW_1)
namespace {
constexpr int level = 2;
COHERIQ_BLAS_LEVEL2(BENCH_ROW_23)
}  // namespace
namespace level3 {
constexpr int level = 3;
COHERIQ_BLAS_LEVEL3(BENCH_ROW_23)
}  // namespace level3

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr,
                 "usage: blas_routines_bench <libcoheriq_blas.so> [libblas.so.3 [routines]]\n");
    return 2;
  }
  void* ours = open_library(argv[1]);
  void* reference =
      open_library(argc > 2 ? argv[2] : "/usr/lib/x86_64-linux-gnu/blas/libblas.so.3");
  std::printf("%-9s %5s %14s %14s %9s\n", "routine", "size", "reference us", "coheriq us",
              "ref/ours");
  const std::regex only(argc > 3 ? argv[3] : ".*");
  int slower = 0, timed = 0;
  for (const Routine& r : routines()) {
    if (!std::regex_search(r.name, only)) continue;
    ++timed;
    void* mine = dlsym(ours, r.name.c_str());
    void* theirs = dlsym(reference, r.name.c_str());
    if (mine == nullptr || theirs == nullptr) {
      std::fprintf(stderr, "coheriq: %s is missing from a library\n", r.name.c_str());
      return 1;
    }
    Operands a(r.level), b(r.level);
    const double t_ref = time_call(r, theirs, a);
    const double t_ours = time_call(r, mine, b);
    const double ratio = t_ref / t_ours;
    if (ratio < 1.0) ++slower;
    std::printf("%-9s %5d %14.2f %14.2f %9.2f%s\n", r.name.c_str(), a.n, t_ref * 1e6, t_ours * 1e6,
                ratio, ratio < 1.0 ? "  slower" : "");
  }
  std::printf("%d routines, %d slower than the reference BLAS\n", timed, slower);
  return 0;
}
