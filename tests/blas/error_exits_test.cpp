// Every argument error of every level-2 and level-3 routine, Fortran and CBLAS in both layouts,
// against the reference BLAS (Debian's libblas3) loaded in the same process: both libraries are
// opened with dlopen(RTLD_LOCAL) and report to this program's xerbla_ and cblas_xerbla, which
// record the handler, the routine's name, the parameter number and netlib CBLAS's globals of the
// library that called. The calls are expanded from the table of routines
// (src/blas/routines.hpp): a valid call (n = 4, every character argument at a valid letter)
// made invalid in one argument at a time (a letter 'X' or CBLAS value 0, a dimension -1, a
// leading dimension or band width 0, an increment 0), and an invalid layout. Wherever the
// reference reports, libcoheriq_blas must report the same and write nothing; wherever it does
// not (netlib's row-major complex routines check the increment of their own conjugated copy),
// neither may libcoheriq_blas.
#include <dlfcn.h>
#include <doctest/doctest.h>

#include <complex>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "blas/kinds.hpp"
#include "blas/preprocessor.hpp"
#include "blas/routines.hpp"

namespace {

struct Report {
  int calls = 0;
  bool cblas = false;
  std::string routine;  // trailing blanks removed
  int info = 0;
  int row_major = -1;
  int from_c = -1;
  // The same report (netlib's cblas_sgemv and cblas_ctrmm go on after an invalid TransA or Diag
  // in column-major, with an uninitialized letter, and may report a second time: the first counts).
  bool same(const Report& o) const {
    return (calls > 0) == (o.calls > 0) && cblas == o.cblas && routine == o.routine &&
           info == o.info && row_major == o.row_major && from_c == o.from_c;
  }
  std::string describe() const {
    if (calls == 0) return "no report";
    return std::string(cblas ? "cblas_xerbla " : "xerbla_ ") + routine + " " +
           std::to_string(info) + ", RowMajorStrg " + std::to_string(row_major) +
           ", CBLAS_CallFromC " + std::to_string(from_c);
  }
};
Report report;
const int* current_row_major = nullptr;
const int* current_from_c = nullptr;

void record(bool cblas, std::string routine, int info) {
  if (++report.calls > 1) return;  // the first report counts
  while (!routine.empty() && routine.back() == ' ') routine.pop_back();
  report.cblas = cblas;
  report.routine = routine;
  report.info = info;
  report.row_major = *current_row_major;
  report.from_c = *current_from_c;
}

}  // namespace

extern "C" void xerbla_(const char* srname, const int* info, std::size_t len) {
  record(false, std::string(srname, len), *info);
}
extern "C" void cblas_xerbla(int info, const char* routine, const char*, ...) {
  record(true, routine, info);
}

namespace {

namespace kind = coheriq::blas::kind;
using coheriq::blas::cdouble;
using coheriq::blas::cfloat;

void* open_library(const char* path) {
  void* handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    std::fprintf(stderr, "coheriq: cannot load %s: %s\n", path, dlerror());
    std::abort();
  }
  return handle;
}

struct Library {
  explicit Library(const char* path)
      : handle(open_library(path)),
        row_major(static_cast<const int*>(dlsym(handle, "RowMajorStrg"))),
        from_c(static_cast<const int*>(dlsym(handle, "CBLAS_CallFromC"))) {
    if (row_major == nullptr || from_c == nullptr) std::abort();
  }
  void* handle;
  const int* row_major;
  const int* from_c;
};

// The arguments of one call and every array they point to (compared after an error).
struct Call {
  int n = 4, one = 1, band = 1;
  int layout = coheriq::blas::kColMajor;
  int bad = -1;  // the argument made invalid (0-based), -1: none
  bool cblas = false;
  std::vector<std::vector<unsigned char>> arrays;
  std::vector<std::vector<unsigned char>> before;  // the arrays just before the call

  template <class T>
  T* array() {
    arrays.emplace_back(64 * sizeof(T));
    for (std::size_t i = 0; i < arrays.back().size(); ++i) {
      arrays.back()[i] = static_cast<unsigned char>(i * 37 + 11);
    }
    return reinterpret_cast<T*>(arrays.back().data());
  }
};

// Storage for the values the arguments point to, so that both libraries see equal calls.
struct Values {
  int ints[16] = {};
  char letters[16] = {};
  int next = 0;  // the index of the next argument made
};

// Argument `index` (kind K, named `name`) of a Fortran (cblas = false) or CBLAS call.
// (Arguments are made left to right: the calls list them in braces.)
template <class K, class T>
auto argument(Call& c, Values& v, const char* routine, const char* name) {
  const int index = v.next++;
  const bool bad = index == c.bad;
  const bool band = std::strstr(routine, "bmv") != nullptr || std::strstr(routine, "bsv");
  using F = typename K::template fortran<T>;
  if constexpr (std::is_same_v<F, const char*>) {
    // A valid letter: the first of the argument's letters (N, U, L, N).
    const char valid = std::strcmp(name, "uplo") == 0   ? 'U'
                       : std::strcmp(name, "side") == 0 ? 'L'
                                                        : 'N';
    v.letters[index] = bad ? 'X' : valid;
    const int cblas = bad                              ? 0
                      : valid == 'U'                   ? coheriq::blas::kUpper
                      : valid == 'L'                   ? coheriq::blas::kLeft
                      : std::strcmp(name, "diag") == 0 ? coheriq::blas::kNonUnit
                                                       : coheriq::blas::kNoTrans;
    return std::make_pair(&v.letters[index], cblas);
  } else if constexpr (std::is_same_v<F, const int*>) {
    int value = c.n;
    if (std::is_same_v<K, kind::INC>) value = bad ? 0 : 1;
    if (std::is_same_v<K, kind::DIM>) value = bad ? -1 : (band && name[0] == 'k') ? c.band : c.n;
    if (std::is_same_v<K, kind::LD> || std::is_same_v<K, kind::BAND_LD>) value = bad ? 0 : c.n;
    v.ints[index] = value;
    return std::make_pair(&v.ints[index], value);
  } else {
    using V = std::remove_const_t<std::remove_pointer_t<F>>;
    V* p = c.array<V>();
    *p = V(1);
    using C = typename K::template cblas<T>;
    if constexpr (std::is_pointer_v<C>) {
      return std::make_pair(p, static_cast<C>(p));
    } else {
      return std::make_pair(p, C(*p));
    }
  }
}

// Whether argument `index` of kind K can be made invalid.
template <class K>
constexpr bool checkable() {
  return !std::is_same_v<K, kind::IN> && !std::is_same_v<K, kind::OUT> &&
         !std::is_same_v<K, kind::SCALAR> && !std::is_same_v<K, kind::REAL>;
}

struct Routine {
  std::string name;
  std::vector<bool> checkable;
  // Calls the routine's Fortran (cblas = false) or CBLAS entry of `library`, argument c.bad
  // invalid.
  void (*call)(void* library, Call& c);
};
std::vector<Routine>& routines() {
  static std::vector<Routine> all;
  return all;
}
struct Registration {
  Registration(const char* name, std::vector<bool> checkable, void (*call)(void*, Call&)) {
    routines().push_back({name, std::move(checkable), call});
  }
};

}  // namespace

#define ERRORS_PARAMETER_TYPE(K, name, ...) , COHERIQ_KIND(K)::fortran<T>
#define ERRORS_CBLAS_TYPE(K, name, ...) , COHERIQ_KIND(K)::cblas<T>
#define ERRORS_CHECKABLE(K, name, ...) , checkable<COHERIQ_KIND(K)>()
#define ERRORS_ARGUMENT(K, name, ...) , argument<COHERIQ_KIND(K), T>(c, v, routine, #name)
#define ERRORS_23(letter, Type, stem, mapping, ...)                                                \
  namespace errors_##letter##stem {                                                                \
    using T = Type;                                                                                \
    using Fortran = void (*)(COHERIQ_TAIL(~COHERIQ_FOR_EACH(ERRORS_PARAMETER_TYPE, __VA_ARGS__))); \
    using Cblas = void (*)(int COHERIQ_FOR_EACH(ERRORS_CBLAS_TYPE, __VA_ARGS__));                  \
    void call(void* library, Call& c) {                                                            \
      const char* routine = #letter #stem;                                                         \
      Values v;                                                                                    \
      const auto args = std::tuple{                                                                \
          COHERIQ_TAIL(~COHERIQ_FOR_EACH(ERRORS_ARGUMENT, __VA_ARGS__))}; /* in order */           \
      c.before = c.arrays;                                                                         \
      if (!c.cblas) {                                                                              \
        const auto f = reinterpret_cast<Fortran>(dlsym(library, #letter #stem "_"));               \
        std::apply([&](auto... a) { f(a.first...); }, args);                                       \
      } else {                                                                                     \
        const auto f = reinterpret_cast<Cblas>(dlsym(library, "cblas_" #letter #stem));            \
        std::apply([&](auto... a) { f(c.layout, a.second...); }, args);                            \
      }                                                                                            \
    }                                                                                              \
    const Registration registration(                                                               \
        #letter #stem, {COHERIQ_TAIL(~COHERIQ_FOR_EACH(ERRORS_CHECKABLE, __VA_ARGS__))}, call);    \
  }
#define ERRORS_ROW_23(stem, types, mapping, ...) \
  COHERIQ_ROW_23(ERRORS_23, stem, types, mapping, __VA_ARGS__)
namespace {
using coheriq::blas::cdouble;
using coheriq::blas::cfloat;
}  // namespace
COHERIQ_BLAS_LEVEL2(ERRORS_ROW_23)
COHERIQ_BLAS_LEVEL3(ERRORS_ROW_23)

namespace {

// One call through each library: the reports, and whether any array changed.
struct Outcome {
  Report report;
  bool wrote = false;
};
Outcome run(const Routine& r, const Library& library, Call c) {
  report = Report{};
  current_row_major = library.row_major;
  current_from_c = library.from_c;
  r.call(library.handle, c);
  return {report, c.arrays != c.before};
}

}  // namespace

TEST_CASE("every level-2 and level-3 argument error is reported as the reference reports it") {
  const Library ours(COHERIQ_BLAS_LIBRARY), reference(COHERIQ_REFERENCE_BLAS);
  int compared = 0;
  for (const Routine& r : routines()) {
    for (int api = 0; api < 4; ++api) {  // Fortran, CBLAS column-major, row-major, bad layout
      for (int bad = 0; bad < static_cast<int>(r.checkable.size()); ++bad) {
        if (api == 3 && bad > 0) break;
        if (api < 3 && !r.checkable[static_cast<std::size_t>(bad)]) continue;
        Call c;
        c.cblas = api > 0;
        c.layout = api == 1 ? coheriq::blas::kColMajor : api == 2 ? coheriq::blas::kRowMajor : 7;
        c.bad = api == 3 ? -1 : bad;
        const std::string what = r.name +
                                 (api == 0   ? " Fortran"
                                  : api == 1 ? " CBLAS col"
                                  : api == 2 ? " CBLAS row"
                                             : " CBLAS layout") +
                                 " argument " + std::to_string(bad + 1);
        const Outcome want = run(r, reference, c);
        const Outcome got = run(r, ours, c);
        ++compared;
        CHECK_MESSAGE(got.report.same(want.report), what, ": ", got.report.describe(),
                      "; the reference: ", want.report.describe());
        CHECK_MESSAGE(got.report.calls <= 1, what, ": ", got.report.calls, " reports");
        if (got.report.calls > 0) CHECK_MESSAGE(!got.wrote, what, ": wrote on an error");
        CHECK_MESSAGE(*ours.row_major == 0, what, ": RowMajorStrg left set");
        CHECK_MESSAGE(*ours.from_c == 0, what, ": CBLAS_CallFromC left set");
      }
    }
  }
  MESSAGE(compared, " error calls compared");
  CHECK(compared > 1000);
}
