// Argument errors, netlib CBLAS's protocol (measured on Debian's libblas.so.3: docs/blas.md):
//
// - A Fortran routine reports to xerbla_(name, info) and returns after it.
// - A CBLAS function reports its own checks (layout, characters) to cblas_xerbla(info,
//   "cblas_...", form, value), numbered in its own argument list, and leaves the rest to the
//   Fortran routine it calls: for a row-major call that is the equivalent column-major call, so
//   xerbla_ receives that call's name and number. While a CBLAS call reports, CBLAS_CallFromC is
//   1 and RowMajorStrg says the layout.
// - netlib's xerbla_ passes a CBLAS call's error on to cblas_xerbla as info + 1 (the layout
//   comes first) under "cblas_" + the lower-case name; netlib's cblas_xerbla, like netlib's CBLAS
//   testers' own, swaps a row-major call's numbers back to its argument list, prints and exits.
//
// xerbla_, xerbla_array_, cblas_xerbla and lsame_ are defined here as netlib defines them, and
// weak, so that an application's own (linked statically too) replaces them; this library calls
// them through the PLT (position-independent, default visibility), so the application's
// definition, or the first one the dynamic linker finds, serves. RowMajorStrg and
// CBLAS_CallFromC are weak as well: a program that defines its own (netlib's CBLAS testers do)
// and this library then use one variable.
#include "blas/errors.hpp"

#include <cctype>
#include <cstdarg>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>

extern "C" {

__attribute__((weak)) int RowMajorStrg = 0;
__attribute__((weak)) int CBLAS_CallFromC = 0;

// netlib's cblas_xerbla: a row-major call's parameter number (of the column-major call netlib
// made) swapped back to the CBLAS argument list, the message, exit(-1).
__attribute__((weak)) void cblas_xerbla(int info, const char* rout, const char* form, ...) {
  if (RowMajorStrg != 0) {
    // Pairs of numbers that a row-major call swaps, by routine (netlib's table).
    const auto swap = [&](int a, int b) {
      if (info == a) {
        info = b;
      } else if (info == b) {
        info = a;
      }
    };
    if (std::strstr(rout, "gemm") != nullptr) {
      swap(4, 5);
      swap(9, 11);
    } else if (std::strstr(rout, "symm") != nullptr || std::strstr(rout, "hemm") != nullptr) {
      swap(4, 5);
    } else if (std::strstr(rout, "trmm") != nullptr || std::strstr(rout, "trsm") != nullptr) {
      swap(6, 7);
    } else if (std::strstr(rout, "gemv") != nullptr) {
      swap(3, 4);
    } else if (std::strstr(rout, "gbmv") != nullptr) {
      swap(3, 4);
      swap(5, 6);
    } else if (std::strstr(rout, "ger") != nullptr) {
      swap(2, 3);
      swap(6, 8);
    } else if ((std::strstr(rout, "her2") != nullptr || std::strstr(rout, "hpr2") != nullptr) &&
               std::strstr(rout, "her2k") == nullptr) {
      swap(6, 8);
    }
  }
  if (info != 0) std::fprintf(stderr, "Parameter %d to routine %s was incorrect\n", info, rout);
  std::va_list args;
  va_start(args, form);
  std::vfprintf(stderr, form, args);
  va_end(args);
  std::exit(-1);
}

// netlib CBLAS's xerbla_: a CBLAS call's error goes on to cblas_xerbla; a Fortran call's is
// printed (with netlib xerbla.f's text) and the routine returns, as Debian's libblas3 does
// (xerbla.f itself stops).
__attribute__((weak)) void xerbla_(const char* srname, const int* info, std::size_t srname_len) {
  if (CBLAS_CallFromC != 0) {
    char rout[48] = "cblas_";
    const std::size_t n = srname_len < 32 ? srname_len : 32;
    for (std::size_t i = 0; i < n; ++i) {
      rout[6 + i] = static_cast<char>(std::tolower(static_cast<unsigned char>(srname[i])));
    }
    rout[6 + n] = '\0';
    return cblas_xerbla(*info + 1, rout, "");
  }
  std::fprintf(stderr, " ** On entry to %.*s parameter number %d had an illegal value\n",
               static_cast<int>(srname_len), srname, *info);
}

// LAPACK's way to report a name held in an array of characters (from C callers): the name,
// blank-padded to 32 characters, to xerbla_.
__attribute__((weak)) void xerbla_array_(const char* srname_array, const int* srname_len,
                                         const int* info, std::size_t) {
  char name[32];
  std::memset(name, ' ', sizeof name);
  const int n = *srname_len < 32 ? *srname_len : 32;
  for (int i = 0; i < n; ++i) name[i] = srname_array[i];
  xerbla_(name, info, sizeof name);
}

// LOGICAL FUNCTION LSAME(CA, CB): the letters equal regardless of case.
__attribute__((weak)) int lsame_(const char* ca, const char* cb, std::size_t, std::size_t) {
  return std::toupper(static_cast<unsigned char>(*ca)) ==
         std::toupper(static_cast<unsigned char>(*cb));
}

}  // extern "C"

namespace coheriq::blas {
namespace {

// The globals for the duration of one CBLAS report, cleared also when the handler throws.
class CblasReport {
 public:
  explicit CblasReport(bool row_major) {
    CBLAS_CallFromC = 1;
    RowMajorStrg = row_major ? 1 : 0;
  }
  CblasReport(const CblasReport&) = delete;
  CblasReport& operator=(const CblasReport&) = delete;
  ~CblasReport() {
    CBLAS_CallFromC = 0;
    RowMajorStrg = 0;
  }
};

// "sgemv" -> "SGEMV " (the Fortran routine's name, blank-padded to 6 as the reference's).
struct FortranName {
  explicit FortranName(const char* routine) {
    std::size_t n = 0;
    for (; routine[n] != '\0' && n < sizeof text; ++n) {
      text[n] = static_cast<char>(std::toupper(static_cast<unsigned char>(routine[n])));
    }
    for (; n < 6; ++n) text[n] = ' ';
    length = n;
  }
  char text[16] = {};
  std::size_t length = 0;
};

struct CblasName {
  explicit CblasName(const char* routine) { std::snprintf(text, sizeof text, "cblas_%s", routine); }
  char text[32] = {};
};

// netlib's message for an invalid character argument, by the argument's name in the table.
const char* illegal_format(const char* name) {
  if (std::strcmp(name, "transa") == 0) return "Illegal TransA setting, %d\n";
  if (std::strcmp(name, "transb") == 0) return "Illegal TransB setting, %d\n";
  if (std::strcmp(name, "trans") == 0) return "Illegal Trans setting, %d\n";
  if (std::strcmp(name, "uplo") == 0) return "Illegal Uplo setting, %d\n";
  if (std::strcmp(name, "side") == 0) return "Illegal Side setting, %d\n";
  return "Illegal Diag setting, %d\n";
}

}  // namespace

void report_fortran_error(const char* routine, int info) {
  const FortranName name(routine);
  xerbla_(name.text, &info, name.length);
}

void report_layout(const char* routine, int layout) {
  const CblasReport report(false);
  cblas_xerbla(1, CblasName(routine).text, "Illegal layout setting, %d\n", layout);
}

void report_cblas_own_error(const char* routine, int info, const char* message) {
  const CblasReport report(false);
  cblas_xerbla(info, CblasName(routine).text, info == 0 ? "%s\n" : "%s", message);
}

bool report_cblas_checks(const char* routine, bool row_major,
                         std::initializer_list<CblasCheck> checks) {
  int position = 1;
  for (const CblasCheck& check : checks) {
    ++position;
    if (check.valid) continue;
    const int number = row_major && check.row_major_number != 0 ? check.row_major_number : position;
    const CblasReport report(row_major);
    cblas_xerbla(number, CblasName(routine).text, illegal_format(check.name), check.value);
    return true;
  }
  return false;
}

void report_cblas_error(const char* routine, bool row_major, int info) {
  const CblasReport report(row_major);
  report_fortran_error(routine, info);
}

}  // namespace coheriq::blas
