/* The C API's engine and thread settings, one mode per process (tests/blas/CMakeLists.txt):
 *   auto      coheriq_enable_engine takes what COHERIQ_ENGINE takes: 'auto' and lists, with the
 *             variable's errors.
 *   threads   run with COHERIQ_NUM_THREADS malformed: coheriq_num_threads and the first kernel
 *             call return the error and lock nothing; coheriq_set_num_threads refuses more than
 *             4096 threads. */
#include <coheriq/coheriq.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "c_api_check.h"

static const char* domain = COHERIQ_KERNELS_DOMAIN;

static int has(const char* text, const char* part) { return strstr(text, part) != NULL; }

static void check_auto(void) {
  /* What 'auto' picks: the highest-priority engine this host supports. */
  size_t count = 0;
  char best[64] = "";
  CHECK(coheriq_engine_count(domain, &count) == COHERIQ_OK, "engine count");
  for (size_t i = 0; i < count && best[0] == '\0'; ++i) {
    char name[64];
    int supported = 0;
    if (coheriq_engine_name(domain, i, name, sizeof name) == COHERIQ_OK &&
        coheriq_engine_supported(domain, name, &supported) == COHERIQ_OK && supported) {
      strcpy(best, name);
    }
  }
  CHECK(coheriq_enable_engine(domain, "auto,no-such-engine") == COHERIQ_ERROR_UNKNOWN_ENGINE &&
            has(coheriq_last_error(), "'no-such-engine'") &&
            has(coheriq_last_error(), "enable_engine('auto,no-such-engine')"),
        "an unknown name in a list");
  CHECK(coheriq_enable_engine(domain, "reference,,auto") == COHERIQ_ERROR_OTHER &&
            has(coheriq_last_error(), "has an empty engine name"),
        "an empty entry");
  char active[64] = "";
  CHECK(coheriq_active_engine(domain, active, sizeof active) == COHERIQ_OK &&
            strcmp(active, "reference") == 0,
        "nothing changed: %s", active);
  CHECK(coheriq_enable_engine(domain, " auto ") == COHERIQ_OK, "enable auto");
  CHECK(coheriq_active_engine(domain, active, sizeof active) == COHERIQ_OK &&
            strcmp(active, best) == 0,
        "auto chose %s, the best supported is %s", active, best);
  float x[3] = {1, 2, 3}, dot = 0;
  CHECK(coheriq_sdot(3, x, x, &dot) == COHERIQ_OK && dot == 14.0f, "sdot after auto");
  CHECK(coheriq_enable_engine(domain, "auto") == COHERIQ_OK, "auto again, after the lock");
}

static void check_threads(void) {
  size_t n = 0;
  CHECK(coheriq_num_threads(&n) != COHERIQ_OK && has(coheriq_last_error(), "COHERIQ_NUM_THREADS="),
        "coheriq_num_threads returns the variable's error");
  float x[3] = {1, 2, 3}, dot = 0;
  CHECK(coheriq_sdot(3, x, x, &dot) != COHERIQ_OK &&
            has(coheriq_last_error(), "COHERIQ_NUM_THREADS="),
        "the first kernel call returns the variable's error");
  /* Nothing locked: another engine can still be enabled. */
  CHECK(coheriq_enable_engine(domain, "reference") == COHERIQ_OK, "the domain is still open");
  CHECK(coheriq_set_num_threads(SIZE_MAX) == COHERIQ_ERROR_INVALID_ARGUMENT &&
            has(coheriq_last_error(), "n = ") && has(coheriq_last_error(), "4096"),
        "SIZE_MAX threads refused, naming the limit");
  CHECK(coheriq_set_num_threads(4097) == COHERIQ_ERROR_INVALID_ARGUMENT, "4097 threads refused");
  CHECK(coheriq_set_num_threads(2) == COHERIQ_OK, "2 threads");
  CHECK(coheriq_num_threads(&n) == COHERIQ_OK && n == 2, "the explicit count wins: %zu", n);
  CHECK(coheriq_sdot(3, x, x, &dot) == COHERIQ_OK && dot == 14.0f, "sdot with an explicit count");
}

int main(int argc, char** argv) {
  if (argc != 2 || (strcmp(argv[1], "auto") != 0 && strcmp(argv[1], "threads") != 0)) {
    fprintf(stderr, "usage: c_api_settings_test auto|threads\n");
    return 2;
  }
  if (strcmp(argv[1], "auto") == 0) {
    check_auto();
  } else {
    check_threads();
  }
  if (failures != 0) return 1;
  printf("c_api_settings_test %s: all checks passed\n", argv[1]);
  return 0;
}
