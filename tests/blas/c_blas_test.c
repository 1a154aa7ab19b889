/* A C program using <cblas.h> and the Fortran symbols, linked to libcoheriq_blas directly (no
 * system BLAS on its link line): results against naive loops in double, and the library's own
 * error messages when the process has no xerbla_ / cblas_xerbla of its own.
 *   c_blas_test              the checks; exit 0 when all pass
 *   c_blas_test fortran-error  sgemm_ with m = -1: the reference xerbla's message, then returns
 *   c_blas_test cblas-error    cblas_sgemm with a bad layout: the reference message, exit(-1) */
#include <cblas.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

float sdot_(const int* n, const float* x, const int* incx, const float* y, const int* incy);
int idamax_(const int* n, const double* x, const int* incx);
void sgemm_(const char* ta, const char* tb, const int* m, const int* n, const int* k,
            const float* alpha, const float* a, const int* lda, const float* b, const int* ldb,
            const float* beta, float* c, const int* ldc, size_t, size_t);

static int failures = 0;
#define CHECK(cond, ...)                                     \
  do {                                                       \
    if (!(cond)) {                                           \
      ++failures;                                            \
      fprintf(stderr, "FAILED %s:%d: ", __FILE__, __LINE__); \
      fprintf(stderr, __VA_ARGS__);                          \
      fprintf(stderr, "\n");                                 \
    }                                                        \
  } while (0)

static double value(int i) { return (double)((i * 37) % 23 - 11) / 8.0; }

/* op(X)(i, j) of a matrix stored in `row` layout (1: row-major) with leading dimension ld. */
static double get(const float* x, int row, int trans, int ld, int i, int j) {
  if (trans) {
    int t = i;
    i = j;
    j = t;
  }
  return row ? x[(size_t)i * ld + j] : x[(size_t)j * ld + i];
}

static void check_gemm(int row, int ta, int tb, int m, int n, int k) {
  const int a_rows = ta ? k : m, a_cols = ta ? m : k, b_rows = tb ? n : k, b_cols = tb ? k : n;
  const int lda = (row ? a_cols : a_rows) + 2, ldb = (row ? b_cols : b_rows) + 1,
            ldc = (row ? n : m) + 3;
  const size_t sa = (size_t)lda * (row ? a_rows : a_cols),
               sb = (size_t)ldb * (row ? b_rows : b_cols), sc = (size_t)ldc * (row ? m : n);
  float* a = malloc(sa * sizeof *a);
  float* b = malloc(sb * sizeof *b);
  float* c = malloc(sc * sizeof *c);
  float* c0 = malloc(sc * sizeof *c0);
  for (size_t i = 0; i < sa; ++i) a[i] = (float)value((int)i);
  for (size_t i = 0; i < sb; ++i) b[i] = (float)value((int)i + 5);
  for (size_t i = 0; i < sc; ++i) c[i] = c0[i] = (float)value((int)i + 9);
  cblas_sgemm(row ? CblasRowMajor : CblasColMajor, ta ? CblasTrans : CblasNoTrans,
              tb ? CblasTrans : CblasNoTrans, m, n, k, 0.5f, a, lda, b, ldb, -2.0f, c, ldc);
  int bad = 0;
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < n; ++j) {
      double want = -2.0 * (row ? c0[(size_t)i * ldc + j] : c0[(size_t)j * ldc + i]);
      double scale = fabs(want);
      for (int l = 0; l < k; ++l) {
        const double p = 0.5 * get(a, row, ta, lda, i, l) * get(b, row, tb, ldb, l, j);
        want += p;
        scale += fabs(p);
      }
      const double got = row ? c[(size_t)i * ldc + j] : c[(size_t)j * ldc + i];
      if (fabs(got - want) > 2.0 * (k + 2) * 1.2e-7 * scale) ++bad;
    }
  }
  CHECK(bad == 0, "cblas_sgemm row %d ta %d tb %d %dx%dx%d: %d elements off", row, ta, tb, m, n, k,
        bad);
  free(a);
  free(b);
  free(c);
  free(c0);
}

int main(int argc, char** argv) {
  float x[64], y[64];
  for (int i = 0; i < 64; ++i) {
    x[i] = (float)value(i);
    y[i] = (float)value(i + 3);
  }
  if (argc > 1 && strcmp(argv[1], "fortran-error") == 0) {
    const int m = -1, n = 2, k = 2, ld = 2;
    const float one = 1.0f;
    float c[4] = {1, 2, 3, 4};
    sgemm_("N", "N", &m, &n, &k, &one, x, &ld, y, &ld, &one, c, &ld, 1, 1);
    printf("returned, c untouched: %d\n", c[0] == 1 && c[3] == 4);
    return 0;
  }
  if (argc > 1 && strcmp(argv[1], "cblas-error") == 0) {
    float c[4] = {0};
    cblas_sgemm((enum CBLAS_ORDER)7, CblasNoTrans, CblasNoTrans, 2, 2, 2, 1.0f, x, 2, y, 2, 0.0f, c,
                2);
    printf("returned\n");
    return 0;
  }

  /* dot with negative and mixed increments: element i of x at the far end for incx < 0. */
  {
    double want = 0;
    for (int i = 0; i < 20; ++i) want += (double)x[(19 - i) * 2] * y[i * 3];
    const float got = cblas_sdot(20, x, -2, y, 3);
    CHECK(fabs(got - want) < 1e-5, "cblas_sdot incx -2: %g vs %g", got, want);
    const int n = 20, incx = -2, incy = 3;
    CHECK(sdot_(&n, x, &incx, y, &incy) == got, "sdot_ differs from cblas_sdot");
  }
  /* axpy, scal, asum, nrm2 with increments; i?amax 0-based in CBLAS, 1-based in Fortran. */
  {
    float z[64];
    memcpy(z, y, sizeof z);
    cblas_saxpy(10, 2.0f, x, 3, z, -2);
    int bad = 0;
    for (int i = 0; i < 10; ++i)
      bad += fabsf(z[(9 - i) * 2] - (y[(9 - i) * 2] + 2.0f * x[i * 3])) > 1e-6f;
    for (int i = 1; i < 20; i += 2) bad += z[i] != y[i];
    CHECK(bad == 0, "cblas_saxpy: %d elements off", bad);
    memcpy(z, x, sizeof z);
    cblas_sscal(16, -3.0f, z, 4);
    bad = 0;
    for (int i = 0; i < 64; ++i) bad += z[i] != (i % 4 == 0 ? -3.0f * x[i] : x[i]);
    CHECK(bad == 0, "cblas_sscal: %d elements off", bad);
    double asum = 0, sumsq = 0;
    for (int i = 0; i < 21; ++i) {
      asum += fabs(x[i * 3]);
      sumsq += (double)x[i * 3] * x[i * 3];
    }
    CHECK(fabs(cblas_sasum(21, x, 3) - asum) < 1e-5, "cblas_sasum");
    CHECK(fabs(cblas_snrm2(21, x, 3) - sqrt(sumsq)) < 1e-5, "cblas_snrm2");
    double d[9] = {1, -7, 3, 7, 2, -7, 0, 1, 5};
    CHECK(cblas_idamax(9, d, 1) == 1, "cblas_idamax: %zu", (size_t)cblas_idamax(9, d, 1));
    const int n = 9, inc = 1;
    CHECK(idamax_(&n, d, &inc) == 2, "idamax_ is 1-based");
    CHECK(cblas_idamax(0, d, 1) == 0 && cblas_idamax(3, d, 0) == 0, "cblas_idamax quick returns");
    CHECK(cblas_ddot(0, d, 1, d, 1) == 0.0, "n == 0 dot");
  }
  /* gemm: both layouts, every transpose, odd sizes, padded leading dimensions. */
  for (int row = 0; row < 2; ++row) {
    for (int ta = 0; ta < 2; ++ta) {
      for (int tb = 0; tb < 2; ++tb) {
        check_gemm(row, ta, tb, 7, 5, 3);
        check_gemm(row, ta, tb, 33, 17, 65);
      }
    }
  }
  if (failures == 0) printf("c_blas_test: all checks passed\n");
  return failures == 0 ? 0 : 1;
}
