// The kinds of BLAS arguments, and what each means in every place a routine's interface is
// expanded (src/blas/routines.hpp: a routine is one row naming its arguments' kinds).
//
// An argument exists in five forms:
//   fortran<T>   its Fortran parameter (gfortran: everything by reference)
//   cblas<T>     its CBLAS parameter (<cblas.h>: scalars by value, complex ones by pointer)
//   value<T>     the CBLAS parameter's value (a complex scalar read through its pointer)
//   canonical<T> its value in the Fortran routine's terms, which the argument checks read: a
//                character argument is its upper-case letter; a CBLAS call's enum becomes the
//                letter netlib CBLAS passes for a column-major call (a row-major call's row
//                then rewrites them, as netlib does)
//   compute<T>   what the computation receives (src/blas/layer.hpp): characters become the
//                kernels' enums (Op, Uplo, Side, Diag), the rest is the canonical value
// and has a check: the Fortran routine's (check) and, for character arguments, the CBLAS
// function's own (valid_enum), numbered by position in the row.
#pragma once

#include <cctype>
#include <complex>
#include <cstddef>
#include <type_traits>

#include "reference/blas.hpp"

namespace coheriq::blas {

using kernels::Diag;
using kernels::Op;
using kernels::Side;
using kernels::Uplo;
using kernels::reference::is_complex_v;
using kernels::reference::real_t;

using cfloat = std::complex<float>;
using cdouble = std::complex<double>;

// Whether op(A) is A's transpose (T, or C: conjugated too).
inline bool transposes(Op op) { return op == Op::T || op == Op::C; }

// <cblas.h>'s enums, passed as int.
enum CblasValue : int {
  kRowMajor = 101,
  kColMajor = 102,
  kNoTrans = 111,
  kTrans = 112,
  kConjTrans = 113,
  kUpper = 121,
  kLower = 122,
  kNonUnit = 131,
  kUnit = 132,
  kLeft = 141,
  kRight = 142,
};

inline char upper(char c) { return static_cast<char>(std::toupper(static_cast<unsigned char>(c))); }

namespace kind {

// ------------------------------ Characters

template <class Enum, int kRowMajorNumber>
struct Character {
  template <class T>
  using fortran = const char*;
  template <class T>
  using cblas = int;
  template <class T>
  using value = int;
  template <class T>
  using canonical = char;
  template <class T>
  using compute = Enum;
  static constexpr int row_major_number = kRowMajorNumber;
  static char from_fortran(const char* c) { return upper(*c); }
  static int from_cblas(int v) { return v; }
};

// Two letters L0 and L1 (Fortran) for the CBLAS values E0 and E1 (the column-major mapping) and
// the kernels' V0 and V1. kRowMajorNumber: the parameter number netlib CBLAS reports for an
// invalid value in a row-major call when it is not the argument's position (0: its position).
template <class Enum, char L0, char L1, int E0, int E1, Enum V0, Enum V1, int kRowMajorNumber = 0>
struct Letter : Character<Enum, kRowMajorNumber> {
  static bool valid_enum(int v) { return v == E0 || v == E1; }
  // 0 for an invalid value, which the CBLAS check reports before any Fortran check runs.
  static char from_cblas_value(int v) { return v == E0 ? L0 : v == E1 ? L1 : 0; }
  static bool check(char c) { return c == L0 || c == L1; }
  static Enum to_compute(char c) { return c == L0 ? V0 : V1; }
  static Enum to_compute_enum(int v) { return v == E0 ? V0 : V1; }
};

// Transposes: every CBLAS function accepts its three values itself and leaves the rest to its
// Fortran routine, which accepts N, T and C or a subset (complex ?syrk: N, T; ?herk: N, C).
template <bool kT, bool kC, int kRowMajorNumber = 0>
struct Transpose : Character<Op, kRowMajorNumber> {
  static bool valid_enum(int v) { return v == kNoTrans || v == kTrans || v == kConjTrans; }
  static char from_cblas_value(int v) {
    return v == kNoTrans ? 'N' : v == kTrans ? 'T' : v == kConjTrans ? 'C' : 0;
  }
  static bool check(char c) { return c == 'N' || (kT && c == 'T') || (kC && c == 'C'); }
  static Op to_compute(char c) { return c == 'N' ? Op::N : c == 'T' ? Op::T : Op::C; }
  static Op to_compute_enum(int v) { return v == kNoTrans ? Op::N : v == kTrans ? Op::T : Op::C; }
};
using TRANS = Transpose<true, true>;
using TRANS_NT = Transpose<true, false>;
using TRANS_NC = Transpose<false, true>;
using TRANS_ROW2 = Transpose<true, true, 2>;  // cblas_?gemm's TransB: 2 in row-major
using UPLO = Letter<Uplo, 'U', 'L', kUpper, kLower, Uplo::Upper, Uplo::Lower>;
// cblas_?syrk, ?herk and ?syr2k report a row-major Uplo as parameter 3.
using UPLO_ROW3 = Letter<Uplo, 'U', 'L', kUpper, kLower, Uplo::Upper, Uplo::Lower, 3>;
using SIDE = Letter<Side, 'L', 'R', kLeft, kRight, Side::Left, Side::Right>;
using DIAG = Letter<Diag, 'N', 'U', kNonUnit, kUnit, Diag::NonUnit, Diag::Unit>;

// ------------------------------ Everything else

// Shared by the kinds that are not characters: no CBLAS-level check, the value a CBLAS call
// passes is the canonical value, which is what computes, and no check unless a kind has one.
struct NotALetter {
  static constexpr int row_major_number = 0;
  template <class V>
  static bool valid_enum(V) {
    return true;
  }
  template <class V>
  static V from_cblas_value(V v) {
    return v;
  }
  template <class V>
  static V to_compute(V v) {
    return v;
  }
  template <class V>
  static V to_compute_enum(V v) {
    return v;
  }
  template <class V>
  static bool check(V) {
    return true;
  }
};

// An integer: a dimension (checked >= 0), an increment (checked != 0), a leading dimension
// (checked >= max(1, rows)) or band width (>= its minimum), or unchecked (level 1).
struct Int : NotALetter {
  template <class T>
  using fortran = const int*;
  template <class T>
  using cblas = int;
  template <class T>
  using value = int;
  template <class T>
  using canonical = int;
  template <class T>
  using compute = int;
  static int from_fortran(const int* v) { return *v; }
  static int from_cblas(int v) { return v; }
};
struct DIM : Int {
  static bool check(int v) { return v >= 0; }
};
struct INC : Int {
  static bool check(int v) { return v != 0; }
};
struct LD : Int {
  static bool check(int ld, int rows) { return ld >= (rows > 1 ? rows : 1); }
};
struct BAND_LD : Int {
  static bool check(int ld, int minimum) { return ld >= minimum; }
};
struct INT : Int {};  // level 1: no check (n <= 0 does nothing; any increment)

// Something passed through as it is in both interfaces.
template <template <class> class Type>
struct Same : NotALetter {
  template <class T>
  using fortran = Type<T>;
  template <class T>
  using cblas = Type<T>;
  template <class T>
  using value = Type<T>;
  template <class T>
  using canonical = Type<T>;
  template <class T>
  using compute = Type<T>;
  template <class V>
  static V from_fortran(V v) {
    return v;
  }
  template <class V>
  static V from_cblas(V v) {
    return v;
  }
};
template <class T>
using const_pointer = const T*;
template <class T>
using pointer = T*;
template <class T>
using real_pointer = real_t<T>*;
using IN = Same<const_pointer>;       // an array (or complex scalar) read
using OUT = Same<pointer>;            // an array (or scalar) written
using REAL_OUT = Same<real_pointer>;  // a real scalar written (?rotg's c)

// A scalar: Fortran passes it by reference; CBLAS by value when real, by pointer when complex.
template <template <class> class Type>
struct Scalar : NotALetter {
  template <class T>
  using fortran = const Type<T>*;
  template <class T>
  using cblas = std::conditional_t<is_complex_v<Type<T>>, const Type<T>*, Type<T>>;
  template <class T>
  using value = Type<T>;
  template <class T>
  using canonical = Type<T>;
  template <class T>
  using compute = Type<T>;
  template <class V>
  static V from_fortran(const V* v) {
    return *v;
  }
  template <class V>
  static V from_cblas(V v) {
    return v;
  }
  template <class V>
  static V from_cblas(const V* v) {
    return *v;
  }
};
template <class T>
using itself = T;
using SCALAR = Scalar<itself>;  // T
using REAL = Scalar<real_t>;    // the real type of T (herk's alpha and beta, csscal's alpha)

}  // namespace kind

// ------------------------------ Results of the level-1 functions (routines.hpp's result kinds)

// gfortran returns a COMPLEX function's value as C returns a complex number: a struct of two
// reals is returned the same way on x86-64 (xmm0, or xmm0 and xmm1) and AArch64 (s0/s1, d0/d1).
struct FortranComplexFloat {
  float re, im;
};
struct FortranComplexDouble {
  double re, im;
};
template <class T>
using FortranComplex =
    std::conditional_t<std::is_same_v<T, cfloat>, FortranComplexFloat, FortranComplexDouble>;

}  // namespace coheriq::blas

// A kind by its name in the table.
#define COHERIQ_KIND(K) ::coheriq::blas::kind::K
// Fortran's hidden CHARACTER lengths, one per character argument, at the end.
#define COHERIQ_HIDDEN_LENGTH(K, name, ...) COHERIQ_HIDDEN_LENGTH_##K
#define COHERIQ_HIDDEN_LENGTH_TRANS , std::size_t
#define COHERIQ_HIDDEN_LENGTH_TRANS_NT , std::size_t
#define COHERIQ_HIDDEN_LENGTH_TRANS_NC , std::size_t
#define COHERIQ_HIDDEN_LENGTH_TRANS_ROW2 , std::size_t
#define COHERIQ_HIDDEN_LENGTH_UPLO , std::size_t
#define COHERIQ_HIDDEN_LENGTH_UPLO_ROW3 , std::size_t
#define COHERIQ_HIDDEN_LENGTH_SIDE , std::size_t
#define COHERIQ_HIDDEN_LENGTH_DIAG , std::size_t
#define COHERIQ_HIDDEN_LENGTH_DIM
#define COHERIQ_HIDDEN_LENGTH_INC
#define COHERIQ_HIDDEN_LENGTH_LD
#define COHERIQ_HIDDEN_LENGTH_BAND_LD
#define COHERIQ_HIDDEN_LENGTH_SCALAR
#define COHERIQ_HIDDEN_LENGTH_REAL
#define COHERIQ_HIDDEN_LENGTH_IN
#define COHERIQ_HIDDEN_LENGTH_OUT
#define COHERIQ_HIDDEN_LENGTH_REAL_OUT
#define COHERIQ_HIDDEN_LENGTH_INT
// The Fortran function's result type by result kind (T is the routine's type).
#define COHERIQ_FORTRAN_RESULT_VOID void
#define COHERIQ_FORTRAN_RESULT_T T
#define COHERIQ_FORTRAN_RESULT_REAL ::coheriq::blas::real_t<T>
#define COHERIQ_FORTRAN_RESULT_DOUBLE double
#define COHERIQ_FORTRAN_RESULT_INDEX int
#define COHERIQ_FORTRAN_RESULT_COMPLEX ::coheriq::blas::FortranComplex<T>
