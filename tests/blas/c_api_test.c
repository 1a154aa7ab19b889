/* The C API <coheriq/coheriq.h> from C99: engines and their support, the kernels against naive
 * loops, and errors as status codes with a thread-local message and nothing changed. */
#include <coheriq/coheriq.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

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
  if (failures == 0) printf("c_api_test: all checks passed\n");
  return failures == 0 ? 0 : 1;
}
