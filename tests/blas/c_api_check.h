/* The C API tests' check: counts a failure and prints where, why, and the library's last error. */
#ifndef COHERIQ_TESTS_BLAS_C_API_CHECK_H_
#define COHERIQ_TESTS_BLAS_C_API_CHECK_H_

#include <coheriq/coheriq.h>
#include <stdio.h>

static int failures = 0;
#define CHECK(cond, ...)                                            \
  do {                                                              \
    if (!(cond)) {                                                  \
      ++failures;                                                   \
      fprintf(stderr, "FAILED %s:%d: ", __FILE__, __LINE__);        \
      fprintf(stderr, __VA_ARGS__);                                 \
      fprintf(stderr, " (last error: %s)\n", coheriq_last_error()); \
    }                                                               \
  } while (0)

#endif
