// Not compiled: the preprocessor turns this file into libcoheriq_blas.so's version script
// (src/blas/CMakeLists.txt), so that the exported symbols are the table's routines
// (src/blas/routines.hpp), their error handlers and netlib CBLAS's two globals, and nothing of
// the kernels linked inside or of the C++ runtime.
#include "blas/preprocessor.hpp"
#include "blas/routines.hpp"

#define COHERIQ_CBLAS_NAME_VOID(letter, stem) cblas_##letter##stem
#define COHERIQ_CBLAS_NAME_T(letter, stem) cblas_##letter##stem
#define COHERIQ_CBLAS_NAME_REAL(letter, stem) cblas_##letter##stem
#define COHERIQ_CBLAS_NAME_DOUBLE(letter, stem) cblas_##letter##stem
#define COHERIQ_CBLAS_NAME_INDEX(letter, stem) cblas_##letter##stem
#define COHERIQ_CBLAS_NAME_COMPLEX(letter, stem) cblas_##letter##stem##_sub
#define COHERIQ_NAMES_1(letter, T, stem, function, result, ...) \
  letter##stem##_;                                              \
  COHERIQ_CBLAS_NAME_##result(letter, stem);
#define COHERIQ_NAMES_23(letter, T, stem, row_major, ...) \
  letter##stem##_;                                        \
  cblas_##letter##stem;
#define COHERIQ_ROW_NAMES_1(stem, function, types, result, ...) \
  COHERIQ_ROW_1(COHERIQ_NAMES_1, stem, function, types, result, __VA_ARGS__)
#define COHERIQ_ROW_NAMES_23(stem, types, row_major, ...) \
  COHERIQ_ROW_23(COHERIQ_NAMES_23, stem, types, row_major, __VA_ARGS__)

{
global:
  COHERIQ_BLAS_LEVEL1(COHERIQ_ROW_NAMES_1)
  COHERIQ_BLAS_LEVEL2(COHERIQ_ROW_NAMES_23)
  COHERIQ_BLAS_LEVEL3(COHERIQ_ROW_NAMES_23)
  cblas_sgemm_batch_strided;
  cblas_dgemm_batch_strided;
  xerbla_;
  xerbla_array_;
  lsame_;
  cblas_xerbla;
  RowMajorStrg;
  CBLAS_CallFromC;
local:
  *;
};
