/* The C API <coheriq/coheriq.h> from C99: engines and their support, the kernels against naive
 * loops, and errors as status codes with a thread-local message and nothing changed: NULL arrays,
 * sizes no array can have and untrusted names are reported, never a signal. (Every function
 * against the C++ API, under every engine: tests/kernels/capi_test.cpp.) */
#include <coheriq/coheriq.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c_api_check.h"

/* `call` failed with COHERIQ_ERROR_INVALID_ARGUMENT and a message that starts with `prefix`. */
#define CHECK_INVALID(call, prefix)                                                               \
  do {                                                                                            \
    const int status_ = (call);                                                                   \
    CHECK(status_ == COHERIQ_ERROR_INVALID_ARGUMENT &&                                            \
              strncmp(coheriq_last_error(), prefix, strlen(prefix)) == 0,                         \
          "%s: status %d, expected INVALID_ARGUMENT and a message starting '%s'", #call, status_, \
          prefix);                                                                                \
  } while (0)

/* Every kernel given NULL for an array it would read or write (n > 0): an argument error naming
 * the function and the array, and nothing written. The GEMMs are large enough for the thread
 * pool, whose workers would be the ones to touch the memory. */
static void null_arrays(void) {
  float xs[4] = {1, 2, 3, 4}, ys[4] = {5, 6, 7, 8}, rs = -1, rsz[4] = {9, 9, 9, 9};
  double xd[4] = {1, 2, 3, 4}, yd[4] = {5, 6, 7, 8}, rd = -1, rdz[4] = {9, 9, 9, 9};
  size_t ri = 99;
  CHECK_INVALID(coheriq_sdot(4, NULL, ys, &rs), "coheriq: coheriq_sdot: x is NULL with n = 4");
  CHECK_INVALID(coheriq_ddot(4, xd, NULL, &rd), "coheriq: coheriq_ddot: y is NULL with n = 4");
  CHECK_INVALID(coheriq_sdot_strided(4, xs, 1, NULL, -1, &rs),
                "coheriq: coheriq_sdot_strided: y is NULL");
  CHECK_INVALID(coheriq_ddot_strided(4, NULL, 2, yd, 1, &rd),
                "coheriq: coheriq_ddot_strided: x is NULL");
  CHECK_INVALID(coheriq_saxpy(4, 2.0f, NULL, ys), "coheriq: coheriq_saxpy: x is NULL");
  CHECK_INVALID(coheriq_daxpy(4, 2.0, xd, NULL), "coheriq: coheriq_daxpy: y is NULL");
  CHECK_INVALID(coheriq_saxpy_strided(4, 2.0f, xs, 1, NULL, 1),
                "coheriq: coheriq_saxpy_strided: y is NULL");
  CHECK_INVALID(coheriq_daxpy_strided(4, 2.0, NULL, -1, yd, 1),
                "coheriq: coheriq_daxpy_strided: x is NULL");
  CHECK_INVALID(coheriq_sscal(4, 2.0f, NULL), "coheriq: coheriq_sscal: x is NULL");
  CHECK_INVALID(coheriq_dscal(4, 2.0, NULL), "coheriq: coheriq_dscal: x is NULL");
  CHECK_INVALID(coheriq_sscal_strided(4, 2.0f, NULL, 3),
                "coheriq: coheriq_sscal_strided: x is NULL");
  CHECK_INVALID(coheriq_dscal_strided(4, 2.0, NULL, 0),
                "coheriq: coheriq_dscal_strided: x is NULL");
  CHECK_INVALID(coheriq_ssum(4, NULL, &rs), "coheriq: coheriq_ssum: x is NULL");
  CHECK_INVALID(coheriq_dsum(4, NULL, &rd), "coheriq: coheriq_dsum: x is NULL");
  CHECK_INVALID(coheriq_sasum(4, NULL, &rs), "coheriq: coheriq_sasum: x is NULL");
  CHECK_INVALID(coheriq_dasum(4, NULL, &rd), "coheriq: coheriq_dasum: x is NULL");
  CHECK_INVALID(coheriq_snrm2(4, NULL, &rs), "coheriq: coheriq_snrm2: x is NULL");
  CHECK_INVALID(coheriq_dnrm2(4, NULL, &rd), "coheriq: coheriq_dnrm2: x is NULL");
  CHECK_INVALID(coheriq_isamax(4, NULL, &ri), "coheriq: coheriq_isamax: x is NULL");
  CHECK_INVALID(coheriq_idamax(4, NULL, &ri), "coheriq: coheriq_idamax: x is NULL");
  CHECK_INVALID(coheriq_sasum_strided(4, NULL, 2, &rs),
                "coheriq: coheriq_sasum_strided: x is NULL");
  CHECK_INVALID(coheriq_dasum_strided(4, NULL, -2, &rd),
                "coheriq: coheriq_dasum_strided: x is NULL");
  CHECK_INVALID(coheriq_snrm2_strided(4, NULL, 1, &rs),
                "coheriq: coheriq_snrm2_strided: x is NULL");
  CHECK_INVALID(coheriq_dnrm2_strided(4, NULL, 1, &rd),
                "coheriq: coheriq_dnrm2_strided: x is NULL");
  CHECK_INVALID(coheriq_isamax_strided(4, NULL, 1, &ri),
                "coheriq: coheriq_isamax_strided: x is NULL");
  CHECK_INVALID(coheriq_idamax_strided(4, NULL, -1, &ri),
                "coheriq: coheriq_idamax_strided: x is NULL");
  /* The vector math: each array NULL in turn, named as this header names it. */
#define NULL_UNARY(fn, x, y)                                    \
  CHECK_INVALID(fn(4, NULL, y), "coheriq: " #fn ": x is NULL"); \
  CHECK_INVALID(fn(4, x, NULL), "coheriq: " #fn ": y is NULL")
#define NULL_UNARY_BOTH(op)           \
  NULL_UNARY(coheriq_vs##op, xs, ys); \
  NULL_UNARY(coheriq_vd##op, xd, yd)
  NULL_UNARY_BOTH(exp);
  NULL_UNARY_BOTH(exp2);
  NULL_UNARY_BOTH(expm1);
  NULL_UNARY_BOTH(log);
  NULL_UNARY_BOTH(log2);
  NULL_UNARY_BOTH(log10);
  NULL_UNARY_BOTH(log1p);
  NULL_UNARY_BOTH(sqrt);
  NULL_UNARY_BOTH(cbrt);
  NULL_UNARY_BOTH(sin);
  NULL_UNARY_BOTH(cos);
  NULL_UNARY_BOTH(tan);
  NULL_UNARY_BOTH(asin);
  NULL_UNARY_BOTH(acos);
  NULL_UNARY_BOTH(atan);
  NULL_UNARY_BOTH(sinh);
  NULL_UNARY_BOTH(cosh);
  NULL_UNARY(coheriq_vserf, xs, ys);
  NULL_UNARY(coheriq_vserfc, xs, ys);
  NULL_UNARY(coheriq_vstanh, xs, ys);
  NULL_UNARY(coheriq_vssigmoid, xs, ys);
  NULL_UNARY(coheriq_vssoftmax, xs, ys);
#undef NULL_UNARY_BOTH
#undef NULL_UNARY
  /* pow(x, y) and atan2(y, x): the inputs under C's names, in C's order. */
  CHECK_INVALID(coheriq_vspow(4, NULL, ys, rsz), "coheriq: coheriq_vspow: x is NULL");
  CHECK_INVALID(coheriq_vspow(4, xs, NULL, rsz), "coheriq: coheriq_vspow: y is NULL");
  CHECK_INVALID(coheriq_vspow(4, xs, ys, NULL), "coheriq: coheriq_vspow: z is NULL");
  CHECK_INVALID(coheriq_vdpow(4, NULL, yd, rdz), "coheriq: coheriq_vdpow: x is NULL");
  CHECK_INVALID(coheriq_vdpow(4, xd, NULL, rdz), "coheriq: coheriq_vdpow: y is NULL");
  CHECK_INVALID(coheriq_vdpow(4, xd, yd, NULL), "coheriq: coheriq_vdpow: z is NULL");
  CHECK_INVALID(coheriq_vsatan2(4, NULL, xs, rsz), "coheriq: coheriq_vsatan2: y is NULL");
  CHECK_INVALID(coheriq_vsatan2(4, ys, NULL, rsz), "coheriq: coheriq_vsatan2: x is NULL");
  CHECK_INVALID(coheriq_vsatan2(4, ys, xs, NULL), "coheriq: coheriq_vsatan2: z is NULL");
  CHECK_INVALID(coheriq_vdatan2(4, NULL, xd, rdz), "coheriq: coheriq_vdatan2: y is NULL");
  CHECK_INVALID(coheriq_vdatan2(4, yd, NULL, rdz), "coheriq: coheriq_vdatan2: x is NULL");
  CHECK_INVALID(coheriq_vdatan2(4, yd, xd, NULL), "coheriq: coheriq_vdatan2: z is NULL");
  CHECK(rs == -1 && rd == -1 && ri == 99 && ys[0] == 5 && yd[0] == 5 && xs[0] == 1 && xd[0] == 1 &&
            rsz[0] == 9 && rdz[0] == 9,
        "a rejected call wrote a result or an array");

  /* n == 0 reads nothing: NULL is fine there. */
  CHECK(coheriq_sdot(0, NULL, NULL, &rs) == COHERIQ_OK && rs == 0, "sdot of n = 0 with NULL");
  CHECK(coheriq_daxpy_strided(0, 1.0, NULL, 5, NULL, -5) == COHERIQ_OK, "daxpy_strided n = 0");
  CHECK(coheriq_vssoftmax(0, NULL, NULL) == COHERIQ_OK, "vssoftmax n = 0");

  enum { N = 300 }; /* N^3 is above the size that goes parallel (docs/kernels.md, Threads) */
  float* a = calloc(N * N, sizeof(float));
  float* b = calloc(N * N, sizeof(float));
  float* c = malloc(N * N * sizeof(float));
  double* ad = calloc(N * N, sizeof(double));
  double* bd = calloc(N * N, sizeof(double));
  double* cd = malloc(N * N * sizeof(double));
  CHECK(a && b && c && ad && bd && cd, "allocating the GEMM operands");
  if (!(a && b && c && ad && bd && cd)) return;
  for (int i = 0; i < N * N; ++i) c[i] = 7, cd[i] = 7;
  const int T = COHERIQ_TRANS, NT = COHERIQ_NO_TRANS;
  CHECK_INVALID(coheriq_sgemm(NT, NT, N, N, N, 1, NULL, N, b, N, 0, c, N),
                "coheriq: coheriq_sgemm: A is NULL with m = 300, n = 300, k = 300");
  CHECK_INVALID(coheriq_sgemm(T, NT, N, N, N, 1, a, N, NULL, N, 0, c, N),
                "coheriq: coheriq_sgemm: B is NULL");
  CHECK_INVALID(coheriq_sgemm(NT, T, N, N, N, 1, a, N, b, N, 0, NULL, N),
                "coheriq: coheriq_sgemm: C is NULL");
  CHECK_INVALID(coheriq_dgemm(T, T, N, N, N, 1, NULL, N, bd, N, 1, cd, N),
                "coheriq: coheriq_dgemm: A is NULL");
  CHECK_INVALID(coheriq_dgemm(NT, NT, N, N, N, 1, ad, N, NULL, N, 1, cd, N),
                "coheriq: coheriq_dgemm: B is NULL");
  CHECK_INVALID(coheriq_dgemm(NT, NT, N, N, 1, 1, ad, N, bd, N, 1, NULL, N),
                "coheriq: coheriq_dgemm: C is NULL");
  /* k == 0 reads neither A nor B (C = beta C); m == 0 or n == 0 touches nothing. */
  CHECK(
      coheriq_dgemm(NT, NT, 2, 2, 0, 1, NULL, 0, NULL, 2, 0.5, cd, 2) == COHERIQ_OK && cd[0] == 3.5,
      "dgemm k = 0 with NULL A and B");
  CHECK(coheriq_sgemm(NT, NT, 0, 5, 5, 1, NULL, 5, NULL, 5, 0, NULL, 5) == COHERIQ_OK,
        "sgemm m = 0 with NULL");
  for (int i = 0; i < 4; ++i) cd[i] = 7;
  for (int i = 0; i < N * N; ++i) {
    if (c[i] != 7 || cd[i] != 7) {
      CHECK(0, "a rejected gemm wrote C[%d]", i);
      break;
    }
  }
  free(a), free(b), free(c), free(ad), free(bd), free(cd);
}

/* Sizes that describe an array larger than any (PTRDIFF_MAX bytes), with small valid arrays
 * behind them: rejected before any element is touched, naming the sizes. The GEMM ones go
 * parallel by their size, so without the check a pool worker would fault. */
static void impossible_sizes(void) {
  float a[16] = {0}, b[16] = {0}, c[16], r = -1;
  double x[16] = {0}, rd = -1;
  for (int i = 0; i < 16; ++i) c[i] = 7;
  const int NT = COHERIQ_NO_TRANS, T = COHERIQ_TRANS;
  CHECK_INVALID(coheriq_sgemm(NT, NT, SIZE_MAX, 1, 1, 1, a, 1, b, 1, 0, c, 1),
                "coheriq: coheriq_sgemm: A (m = 18446744073709551615 rows of k = 1 elements");
  CHECK(strstr(coheriq_last_error(), "pass the m, k and lda of A as allocated") != NULL,
        "the message says what to pass: %s", coheriq_last_error());
  /* m * ldc overflows size_t; A and B are small enough. */
  CHECK_INVALID(coheriq_sgemm(NT, NT, (size_t)1 << 40, 2, 1, 1, a, 1, b, 2, 0, c, (size_t)1 << 30),
                "coheriq: coheriq_sgemm: C (m = 1099511627776 rows of n = 2 elements, "
                "ldc = 1073741824 apart) spans more bytes than an array can hold");
  /* (m - 1) * ldc fits in size_t, but not in PTRDIFF_MAX bytes. */
  CHECK_INVALID(coheriq_dgemm(T, NT, 3, 2, 2, 1, (const double*)a, 3, (const double*)b, 2, 0,
                              (double*)c, (size_t)1 << 61),
                "coheriq: coheriq_dgemm: C (m = 3 rows");
  CHECK_INVALID(coheriq_sgemm(NT, T, 2, SIZE_MAX / 2, 1, 1, a, 1, b, 1, 0, c, SIZE_MAX / 2),
                "coheriq: coheriq_sgemm: B (n = 9223372036854775807 rows of k = 1 elements for "
                "Trans::T");
  for (int i = 0; i < 16; ++i) CHECK(c[i] == 7, "a rejected gemm wrote C[%d]", i);
  /* Vectors: n past the address space, and an increment that overflows the offsets. */
  CHECK_INVALID(coheriq_ssum(SIZE_MAX, a, &r),
                "coheriq: coheriq_ssum: x (n = 18446744073709551615");
  CHECK_INVALID(coheriq_dasum((size_t)1 << 60, x, &rd), "coheriq: coheriq_dasum: x (n = ");
  CHECK_INVALID(coheriq_saxpy_strided(3, 1, a, 1, b, PTRDIFF_MIN),
                "coheriq: coheriq_saxpy_strided: y (n = 3 elements, incy = -9223372036854775808");
  CHECK(strstr(coheriq_last_error(), "pass the n and incy of y as allocated") != NULL,
        "the message says what to pass: %s", coheriq_last_error());
  CHECK_INVALID(coheriq_dnrm2_strided(5, x, PTRDIFF_MAX / 4, &rd),
                "coheriq: coheriq_dnrm2_strided: x (n = 5 elements, incx = ");
  CHECK(r == -1 && rd == -1 && b[0] == 0, "a rejected call wrote a result");
}

/* A name the caller passes is echoed escaped and cut (the one printable() of the library): a
 * 1 MiB name with a terminal's OSC sequence, BEL and a byte that is not UTF-8 gives a short
 * message with none of them raw. */
static void untrusted_names(void) {
  const size_t size = (size_t)1 << 20;
  char* name = malloc(size + 1);
  CHECK(name != NULL, "allocating the name");
  if (name == NULL) return;
  memset(name, 'n', size);
  memcpy(name, "\x1b]0;pwned\x07\xfe", 11);
  name[size] = '\0';
  int supported = 42;
  for (int which = 0; which < 2; ++which) {
    /* which 0: an unknown engine in the kernels domain; 1: an unknown domain. */
    const char* domain = which == 0 ? COHERIQ_KERNELS_DOMAIN : name;
    const int status = coheriq_engine_supported(domain, name, &supported);
    const char* message = coheriq_last_error();
    CHECK(status == (which == 0 ? COHERIQ_ERROR_UNKNOWN_ENGINE : COHERIQ_ERROR_UNKNOWN_DOMAIN),
          "engine_supported with a 1 MiB name (%d): status %d", which, status);
    CHECK(strlen(message) < 2048, "the message is cut: %zu bytes", strlen(message));
    CHECK(strpbrk(message, "\x1b\x07\xfe") == NULL, "no raw ESC, BEL or 0xFE in the message");
    CHECK(strstr(message, "\\x1b]0;pwned\\x07\\xfe") != NULL, "the bytes shown escaped: %s",
          message);
    CHECK(strstr(message, "more bytes)") != NULL, "the cut is said: %.300s", message);
  }
  /* The domain is locked by now: refused as another engine, the name echoed all the same. */
  CHECK(coheriq_enable_engine(COHERIQ_KERNELS_DOMAIN, name) != COHERIQ_OK,
        "enable_engine with a 1 MiB name");
  CHECK(
      strlen(coheriq_last_error()) < 4096 && strpbrk(coheriq_last_error(), "\x1b\x07\xfe") == NULL,
      "enable_engine's message is cut and escaped");
  CHECK(supported == 42, "a failed call wrote its result");
  free(name);
}

/* Another thread's failure does not show in this thread's message, and the reverse. */
static void* fail_in_thread(void* seen) {
  const int status = coheriq_enable_engine("no.such.domain.thread", "x");
  strncpy((char*)seen, coheriq_last_error(), 255);
  return status == COHERIQ_ERROR_UNKNOWN_DOMAIN ? seen : NULL;
}

int main(void) {
  {
    char seen[256] = "";
    pthread_t thread;
    void* result = NULL;
    CHECK(pthread_create(&thread, NULL, fail_in_thread, seen) == 0 &&
              pthread_join(thread, &result) == 0 && result == seen,
          "the thread's call failed as it should");
    CHECK(strstr(seen, "no.such.domain.thread") != NULL, "the thread saw its own message");
    CHECK(strcmp(coheriq_last_error(), "") == 0, "main's message is still empty: %s",
          coheriq_last_error());
  }
  const char* domain = COHERIQ_KERNELS_DOMAIN;
  size_t count = 0;
  CHECK(coheriq_engine_count(domain, &count) == COHERIQ_OK && count >= 1, "engine count");
  /* Enable the highest-priority engine this host supports (what 'auto' picks). */
  char chosen[64] = "";
  for (size_t i = 0; i < count; ++i) {
    char name[64];
    int supported = 0;
    CHECK(coheriq_engine_name(domain, i, name, sizeof name) == COHERIQ_OK, "engine %zu name", i);
    CHECK(coheriq_engine_supported(domain, name, &supported) == COHERIQ_OK, "supported %s", name);
    if (supported && chosen[0] == '\0') strcpy(chosen, name);
  }
  CHECK(coheriq_enable_engine(domain, "no-such-engine") == COHERIQ_ERROR_UNKNOWN_ENGINE, "unknown");
  CHECK(strstr(coheriq_last_error(), "no-such-engine") != NULL, "message names the engine");
  CHECK(coheriq_enable_engine(domain, chosen) == COHERIQ_OK, "enable %s", chosen);
  CHECK(coheriq_enable_engine(domain, "reference") == COHERIQ_ERROR_ENGINE_LOCKED ||
            strcmp(chosen, "reference") == 0,
        "a second engine");
  char active[64];
  CHECK(coheriq_active_engine(domain, active, sizeof active) == COHERIQ_OK &&
            strcmp(active, chosen) == 0,
        "active engine %s, enabled %s", active, chosen);
  printf("c_api_test: engine %s\n", active);

  /* Errors: a code, a message starting with "coheriq:", and nothing written. */
  char tiny[2] = {'x', 'y'};
  CHECK(coheriq_active_engine(domain, tiny, sizeof tiny) == COHERIQ_ERROR_BUFFER_TOO_SMALL &&
            tiny[0] == 'x',
        "small buffer");
  CHECK(strncmp(coheriq_last_error(), "coheriq:", 8) == 0, "message prefix");
  CHECK(coheriq_enable_engine("no.such.domain", "reference") == COHERIQ_ERROR_UNKNOWN_DOMAIN,
        "unknown domain");
  CHECK(strstr(coheriq_last_error(), "no.such.domain") != NULL, "message names the domain");
  float a[6] = {1, 2, 3, 4, 5, 6}, b[6] = {1, 0, 0, 1, 1, 1}, c[4] = {9, 9, 9, 9};
  CHECK(coheriq_sgemm(COHERIQ_NO_TRANS, COHERIQ_NO_TRANS, 2, 2, 3, 1.0f, a, 2, b, 2, 0.0f, c, 2) ==
                COHERIQ_ERROR_INVALID_ARGUMENT &&
            c[0] == 9,
        "lda < k");
  CHECK(strstr(coheriq_last_error(), "lda") != NULL, "message names lda");
  CHECK(coheriq_sgemm(5, COHERIQ_NO_TRANS, 2, 2, 3, 1.0f, a, 3, b, 2, 0.0f, c, 2) ==
            COHERIQ_ERROR_INVALID_ARGUMENT,
        "bad transpose");

  /* Kernels. */
  CHECK(coheriq_sgemm(COHERIQ_NO_TRANS, COHERIQ_NO_TRANS, 2, 2, 3, 1.0f, a, 3, b, 2, 0.0f, c, 2) ==
                COHERIQ_OK &&
            c[0] == 4 && c[1] == 5 && c[2] == 10 && c[3] == 11,
        "sgemm %g %g %g %g", c[0], c[1], c[2], c[3]);
  float dot = 0;
  CHECK(coheriq_sdot(6, a, b, &dot) == COHERIQ_OK && dot == 1 + 4 + 5 + 6, "sdot %g", dot);
  CHECK(
      coheriq_sdot_strided(3, a + 4, -2, b, 2, &dot) == COHERIQ_OK && dot == 5 * 1 + 3 * 0 + 1 * 1,
      "sdot_strided %g", dot);
  double x[5] = {1, -4, 2, 4, 0}, asum = 0, nrm = 0;
  size_t imax = 9;
  CHECK(coheriq_dasum(5, x, &asum) == COHERIQ_OK && asum == 11, "dasum");
  CHECK(coheriq_dnrm2(5, x, &nrm) == COHERIQ_OK && fabs(nrm - sqrt(37.0)) < 1e-15, "dnrm2");
  CHECK(coheriq_idamax(5, x, &imax) == COHERIQ_OK && imax == 1, "idamax %zu", imax);
  CHECK(coheriq_idamax(5, x, NULL) == COHERIQ_ERROR_INVALID_ARGUMENT, "null result");
  CHECK(coheriq_daxpy(5, 2.0, x, x) == COHERIQ_OK && x[1] == -12, "daxpy in place");
  float e[3] = {0, 1, -1}, ey[3];
  CHECK(coheriq_vsexp(3, e, ey) == COHERIQ_OK && ey[0] == 1 && fabsf(ey[1] - 2.7182817f) < 1e-6f,
        "vsexp");
  float s[3];
  CHECK(coheriq_vssoftmax(3, e, s) == COHERIQ_OK && fabsf(s[0] + s[1] + s[2] - 1) < 1e-6f,
        "vssoftmax");
  size_t threads = 0;
  CHECK(coheriq_num_threads(&threads) == COHERIQ_OK && threads >= 1, "num_threads");

  null_arrays();
  impossible_sizes();
  untrusted_names();
  if (failures == 0) printf("c_api_test: all checks passed\n");
  return failures == 0 ? 0 : 1;
}
