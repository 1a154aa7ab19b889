// A C++ program whose xerbla_ and cblas_xerbla throw, to turn BLAS argument errors into
// exceptions (as with the reference BLAS and OpenBLAS, where the exception reaches the caller),
// linked to libcoheriq_blas directly. Every error exit of ?gemm_ and cblas_?gemm must deliver
// the exception to the caller with the reference's routine name and parameter number, write
// nothing, and leave netlib CBLAS's globals cleared; a valid call afterwards still works.
#include <doctest/doctest.h>

#include <cstddef>
#include <cstring>
#include <string>
#include <vector>

extern "C" {
extern int RowMajorStrg;
extern int CBLAS_CallFromC;
void sgemm_(const char*, const char*, const int*, const int*, const int*, const float*,
            const float*, const int*, const float*, const int*, const float*, float*, const int*,
            std::size_t, std::size_t);
void cblas_sgemm(int, int, int, int, int, int, float, const float*, int, const float*, int, float,
                 float*, int);
void cblas_dgemm(int, int, int, int, int, int, double, const double*, int, const double*, int,
                 double, double*, int);
}

namespace {

struct BlasError {
  std::string routine;
  int info;
  bool cblas;     // thrown by cblas_xerbla
  int row_major;  // RowMajorStrg when the handler ran
  int from_c;     // CBLAS_CallFromC when the handler ran
};

}  // namespace

extern "C" void xerbla_(const char* srname, const int* info, std::size_t len) {
  std::string name(srname, len);
  while (!name.empty() && name.back() == ' ') name.pop_back();
  throw BlasError{name, *info, false, RowMajorStrg, CBLAS_CallFromC};
}

extern "C" void cblas_xerbla(int info, const char* rout, const char*, ...) {
  throw BlasError{rout, info, true, RowMajorStrg, CBLAS_CallFromC};
}

namespace {

constexpr int kRowMajor = 101, kColMajor = 102, kNoTrans = 111;

// Runs `call`, which must throw `want`; C must be untouched and the globals cleared after it.
template <class Call>
void expect_error(const char* what, Call call, const BlasError& want) {
  std::vector<float> before(64, 3.0f);
  std::vector<float> c = before;
  bool thrown = false;
  try {
    call(c.data());
  } catch (const BlasError& e) {
    thrown = true;
    CHECK_MESSAGE(e.routine == want.routine, what, ": routine ", e.routine);
    CHECK_MESSAGE(e.info == want.info, what, ": parameter ", e.info, ", want ", want.info);
    CHECK_MESSAGE(e.cblas == want.cblas, what, ": thrown by the wrong handler");
    CHECK_MESSAGE(e.row_major == want.row_major, what, ": RowMajorStrg ", e.row_major);
    CHECK_MESSAGE(e.from_c == want.from_c, what, ": CBLAS_CallFromC ", e.from_c);
  }
  CHECK_MESSAGE(thrown, what, ": the handler's exception did not reach the caller");
  CHECK_MESSAGE(c == before, what, ": C was written");
  CHECK_MESSAGE(RowMajorStrg == 0, what, ": RowMajorStrg left set");
  CHECK_MESSAGE(CBLAS_CallFromC == 0, what, ": CBLAS_CallFromC left set");
}

TEST_CASE("an application's throwing xerbla_ and cblas_xerbla reach the caller") {
  const std::vector<float> A(64, 1.0f), B(64, 2.0f);
  const std::vector<double> Ad(64, 1.0), Bd(64, 2.0);
  const float one = 1.0f;
  // Fortran: xerbla_ with the Fortran name and number.
  expect_error("sgemm_ m < 0",
               [&](float* C) {
                 const int m = -1, n = 2, k = 2, ld = 2;
                 sgemm_("N", "N", &m, &n, &k, &one, A.data(), &ld, B.data(), &ld, &one, C, &ld, 1,
                        1);
               },
               {"SGEMM", 3, false, 0, 0});
  expect_error("sgemm_ transa",
               [&](float* C) {
                 const int m = 2, n = 2, k = 2, ld = 2;
                 sgemm_("X", "N", &m, &n, &k, &one, A.data(), &ld, B.data(), &ld, &one, C, &ld, 1,
                        1);
               },
               {"SGEMM", 1, false, 0, 0});
  // CBLAS column-major: the Fortran routine's check, its number, CBLAS_CallFromC set.
  expect_error("cblas_sgemm column-major M < 0",
               [&](float* C) {
                 cblas_sgemm(kColMajor, kNoTrans, kNoTrans, -1, 2, 2, 1, A.data(), 2, B.data(), 2,
                             1, C, 2);
               },
               {"SGEMM", 3, false, 0, 1});
  // Row-major: the column-major call's numbers (M is its N, 4; lda its ldb, 10), RowMajorStrg 1.
  expect_error("cblas_sgemm row-major M < 0",
               [&](float* C) {
                 cblas_sgemm(kRowMajor, kNoTrans, kNoTrans, -1, 2, 2, 1, A.data(), 2, B.data(), 2,
                             1, C, 2);
               },
               {"SGEMM", 4, false, 1, 1});
  expect_error("cblas_sgemm row-major lda",
               [&](float* C) {
                 cblas_sgemm(kRowMajor, kNoTrans, kNoTrans, 4, 5, 3, 1, A.data(), 2, B.data(), 5, 1,
                             C, 5);
               },
               {"SGEMM", 10, false, 1, 1});
  expect_error("cblas_dgemm row-major ldc",
               [&](float* C) {
                 std::vector<double> c(64);
                 cblas_dgemm(kRowMajor, kNoTrans, kNoTrans, 4, 5, 3, 1, Ad.data(), 3, Bd.data(), 5,
                             1, c.data(), 4);
                 C[0] = float(c[0]);  // not reached
               },
               {"DGEMM", 13, false, 1, 1});
  // The CBLAS function's own checks: cblas_xerbla with CBLAS numbers.
  expect_error("cblas_sgemm layout",
               [&](float* C) {
                 cblas_sgemm(7, kNoTrans, kNoTrans, 2, 2, 2, 1, A.data(), 2, B.data(), 2, 1, C, 2);
               },
               {"cblas_sgemm", 1, true, 0, 1});
  expect_error("cblas_sgemm row-major TransA",
               [&](float* C) {
                 cblas_sgemm(kRowMajor, 99, kNoTrans, 2, 2, 2, 1, A.data(), 2, B.data(), 2, 1, C,
                             2);
               },
               {"cblas_sgemm", 2, true, 1, 1});
  // A valid call after all that.
  std::vector<float> C(4, 0.0f);
  cblas_sgemm(kColMajor, kNoTrans, kNoTrans, 2, 2, 2, 1, A.data(), 2, B.data(), 2, 0, C.data(), 2);
  CHECK(C == std::vector<float>(4, 4.0f));
}

}  // namespace
