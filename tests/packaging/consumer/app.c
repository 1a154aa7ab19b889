/* A downstream C program: the C API, linked with exactly
 *   gcc app.c $(pkg-config --cflags --libs coheriq)
 * (tests/packaging/consumer.sh), so coheriq.pc must carry what C needs besides the libraries
 * (the C++ runtime and libm). usage: app [<engine list>], e.g. app auto. */
#include <coheriq/coheriq.h>
#include <stdio.h>

int main(int argc, char** argv) {
  if (argc > 1 && coheriq_enable_engine(COHERIQ_KERNELS_DOMAIN, argv[1]) != COHERIQ_OK) {
    fprintf(stderr, "%s\n", coheriq_last_error());
    return 1;
  }
  float x[5] = {1, 2, 3, 4, 5}, y[5] = {1, 1, 1, 1, 1}, dot = 0, e[2] = {0, 1}, out[2];
  char engine[64];
  if (coheriq_sdot(5, x, y, &dot) != COHERIQ_OK || coheriq_vsexp(2, e, out) != COHERIQ_OK ||
      coheriq_active_engine(COHERIQ_KERNELS_DOMAIN, engine, sizeof engine) != COHERIQ_OK) {
    fprintf(stderr, "%s\n", coheriq_last_error());
    return 1;
  }
  printf("C consumer: sdot = %g, exp(1) = %g, engine %s\n", dot, out[1], engine);
  return dot == 15.0f && out[0] == 1.0f && out[1] > 2.718f && out[1] < 2.719f ? 0 : 1;
}
