// How libcoheriq_blas reports argument errors: netlib CBLAS's protocol (src/blas/errors.cpp,
// docs/blas.md "Argument errors").
#pragma once

#include <initializer_list>

namespace coheriq::blas {

// A Fortran routine's argument `info` (1-based) is invalid: xerbla_("SGEMV ", info); the routine
// then returns. `routine` is the lower-case name ("sgemv").
void report_fortran_error(const char* routine, int info);

// A CBLAS function's layout is invalid: cblas_xerbla(1, "cblas_sgemv", ...).
void report_layout(const char* routine, int layout);

// One argument of a CBLAS call as its own checks see it: only characters are checked (`valid`
// is true for everything else); `row_major_number` is netlib's number for an invalid value in a
// row-major call when it is not the argument's position (0: the position).
struct CblasCheck {
  bool valid;
  int row_major_number;
  const char* name;
  int value;
};
// Reports the first invalid argument of a CBLAS call to cblas_xerbla, numbered from 2 (the
// layout is 1); true when there was one.
bool report_cblas_checks(const char* routine, bool row_major,
                         std::initializer_list<CblasCheck> checks);

// A CBLAS function with no Fortran routine behind it ("sgemm_batch_strided": its name without
// cblas_) rejects its argument `info`, numbered in its own list (the layout is 1):
// cblas_xerbla(info, routine, ...) with CBLAS_CallFromC = 1. info 0: an error no single argument
// holds, `message` saying what it is.
void report_cblas_own_error(const char* routine, int info, const char* message);

// The Fortran call a CBLAS call makes (its column-major equivalent) rejects its argument `info`:
// xerbla_ with that routine's name and number, CBLAS_CallFromC = 1 and RowMajorStrg as the layout
// while it runs.
void report_cblas_error(const char* routine, bool row_major, int info);

}  // namespace coheriq::blas
