// Every routine of the BLAS (netlib LAPACK 3.11's, as Debian's libblas3 defines them), one row
// each. libcoheriq_blas expands this table into its Fortran and CBLAS entry points, their
// argument checks and error numbers (src/blas/blas.cpp) and into its list of exported symbols
// (src/blas/exports.cpp), so a routine's interface is written here and nowhere else.
//
// Level 2 and 3: X(stem, types, row_major, arguments...)
//   stem        the name without its type letter: s, d, c or z + stem is the Fortran routine
//               (sgemv_) and cblas_ + that the CBLAS function, which takes the layout first
//   types       ((letter, T), ...): the types it exists in
//   row_major   statements turning a row-major CBLAS call's arguments (held as the Fortran
//               routine's, characters as netlib's column-major letters) into those of the
//               column-major Fortran call netlib CBLAS makes for it: its argument checks, and
//               so the parameter numbers reported, are that call's. `routine` is the name
//               reported (netlib's row-major cblas_?gerc calls ?geru).
//   arguments   (kind, name[, extra]) in the Fortran order (src/blas/kinds.hpp): each one's
//               Fortran and CBLAS parameter and its check come from its kind; the check's
//               number is its position (the CBLAS function's own checks, of its layout and
//               characters, count the layout as 1). extra: a leading dimension's rows.
// The computation is col::stem<T> and row::stem<T> (src/blas/layer.hpp).
//
// Level 1: X(stem, function, types, result, arguments...), no layout and no checks; the
// computation is l1::function<T>. result: VOID, T, REAL (real_t<T>), DOUBLE, INDEX (Fortran: the
// 1-based int; CBLAS: the 0-based size_t) or COMPLEX (Fortran: returned as gfortran returns a
// COMPLEX function's value; CBLAS: cblas_<name>_sub with the result through a last pointer).
//
// Only macros: src/blas/exports.cpp runs this file through the preprocessor alone.
#pragma once

#define COHERIQ_BLAS_SD (s, float), (d, double)
#define COHERIQ_BLAS_CZ (c, cfloat), (z, cdouble)
#define COHERIQ_BLAS_SDCZ COHERIQ_BLAS_SD, COHERIQ_BLAS_CZ
// s, d, sc, dz: the real-valued results of ?asum and ?nrm2 (scasum, dznrm2, ...)
#define COHERIQ_BLAS_REALNAMES (s, float), (d, double), (sc, cfloat), (dz, cdouble)

#define COHERIQ_BLAS_LEVEL1(X)                                                                     \
  X(dot, dot, (COHERIQ_BLAS_SD), T, (INT, n), (IN, x), (INT, incx), (IN, y), (INT, incy))          \
  X(dotu, dotu, (COHERIQ_BLAS_CZ), COMPLEX, (INT, n), (IN, x), (INT, incx), (IN, y), (INT, incy))  \
  X(dotc, dotc, (COHERIQ_BLAS_CZ), COMPLEX, (INT, n), (IN, x), (INT, incx), (IN, y), (INT, incy))  \
  X(dot, sdsdot, ((sds, float)), T, (INT, n), (SCALAR, sb), (IN, x), (INT, incx), (IN, y),         \
    (INT, incy))                                                                                   \
  X(dot, dsdot, ((ds, float)), DOUBLE, (INT, n), (IN, x), (INT, incx), (IN, y), (INT, incy))       \
  X(axpy, axpy, (COHERIQ_BLAS_SDCZ), VOID, (INT, n), (SCALAR, alpha), (IN, x), (INT, incx),        \
    (OUT, y), (INT, incy))                                                                         \
  X(scal, scal, (COHERIQ_BLAS_SDCZ), VOID, (INT, n), (SCALAR, alpha), (OUT, x), (INT, incx))       \
  X(scal, scal_real, ((cs, cfloat), (zd, cdouble)), VOID, (INT, n), (REAL, alpha), (OUT, x),       \
    (INT, incx))                                                                                   \
  X(copy, copy, (COHERIQ_BLAS_SDCZ), VOID, (INT, n), (IN, x), (INT, incx), (OUT, y), (INT, incy))  \
  X(swap, swap, (COHERIQ_BLAS_SDCZ), VOID, (INT, n), (OUT, x), (INT, incx), (OUT, y), (INT, incy)) \
  X(asum, asum, (COHERIQ_BLAS_REALNAMES), REAL, (INT, n), (IN, x), (INT, incx))                    \
  X(nrm2, nrm2, (COHERIQ_BLAS_REALNAMES), REAL, (INT, n), (IN, x), (INT, incx))                    \
  X(amax, iamax, ((is, float), (id, double), (ic, cfloat), (iz, cdouble)), INDEX, (INT, n),        \
    (IN, x), (INT, incx))                                                                          \
  X(rot, rot, (COHERIQ_BLAS_SD), VOID, (INT, n), (OUT, x), (INT, incx), (OUT, y), (INT, incy),     \
    (SCALAR, c), (SCALAR, s))                                                                      \
  X(rot, rot, ((cs, cfloat), (zd, cdouble)), VOID, (INT, n), (OUT, x), (INT, incx), (OUT, y),      \
    (INT, incy), (REAL, c), (REAL, s))                                                             \
  X(rotm, rotm, (COHERIQ_BLAS_SD), VOID, (INT, n), (OUT, x), (INT, incx), (OUT, y), (INT, incy),   \
    (IN, param))                                                                                   \
  X(rotg, rotg, (COHERIQ_BLAS_SDCZ), VOID, (OUT, a), (OUT, b), (REAL_OUT, c), (OUT, s))            \
  X(rotmg, rotmg, (COHERIQ_BLAS_SD), VOID, (OUT, d1), (OUT, d2), (OUT, x1), (SCALAR, y1),          \
    (OUT, param))                                                                                  \
  X(cabs1, cabs1, ((s, cfloat), (d, cdouble)), REAL, (IN, z))

// A complex row-major ?gemv or ?gbmv with ConjTrans (M > 0) and the Hermitian level-2 routines
// (N > 0): netlib copies x conjugated and passes its increment as 1.
#define COHERIQ_BLAS_LEVEL2(X)                                                                     \
  X(gemv, (COHERIQ_BLAS_SDCZ),                                                                     \
    (if (is_complex_v<T> && transa == 'C' && m > 0) incx = 1; transa = to_t(transa);               \
     std::swap(m, n);),                                                                            \
    (TRANS, transa), (DIM, m), (DIM, n), (SCALAR, alpha), (IN, a), (LD, lda, m), (IN, x),          \
    (INC, incx), (SCALAR, beta), (OUT, y), (INC, incy))                                            \
  X(gbmv, (COHERIQ_BLAS_SDCZ),                                                                     \
    (if (is_complex_v<T> && transa == 'C' && m > 0) incx = 1; transa = to_t(transa);               \
     std::swap(m, n); std::swap(kl, ku);),                                                         \
    (TRANS, transa), (DIM, m), (DIM, n), (DIM, kl), (DIM, ku), (SCALAR, alpha), (IN, a),           \
    (BAND_LD, lda, kl + ku + 1), (IN, x), (INC, incx), (SCALAR, beta), (OUT, y), (INC, incy))      \
  X(symv, (COHERIQ_BLAS_SD), (uplo = flip_uplo(uplo);), (UPLO, uplo), (DIM, n), (SCALAR, alpha),   \
    (IN, a), (LD, lda, n), (IN, x), (INC, incx), (SCALAR, beta), (OUT, y), (INC, incy))            \
  X(hemv, (COHERIQ_BLAS_CZ), (uplo = flip_uplo(uplo); if (n > 0) incx = 1;), (UPLO, uplo),         \
    (DIM, n), (SCALAR, alpha), (IN, a), (LD, lda, n), (IN, x), (INC, incx), (SCALAR, beta),        \
    (OUT, y), (INC, incy))                                                                         \
  X(sbmv, (COHERIQ_BLAS_SD), (uplo = flip_uplo(uplo);), (UPLO, uplo), (DIM, n), (DIM, k),          \
    (SCALAR, alpha), (IN, a), (BAND_LD, lda, k + 1), (IN, x), (INC, incx), (SCALAR, beta),         \
    (OUT, y), (INC, incy))                                                                         \
  X(hbmv, (COHERIQ_BLAS_CZ), (uplo = flip_uplo(uplo); if (n > 0) incx = 1;), (UPLO, uplo),         \
    (DIM, n), (DIM, k), (SCALAR, alpha), (IN, a), (BAND_LD, lda, k + 1), (IN, x), (INC, incx),     \
    (SCALAR, beta), (OUT, y), (INC, incy))                                                         \
  X(spmv, (COHERIQ_BLAS_SD), (uplo = flip_uplo(uplo);), (UPLO, uplo), (DIM, n), (SCALAR, alpha),   \
    (IN, ap), (IN, x), (INC, incx), (SCALAR, beta), (OUT, y), (INC, incy))                         \
  X(hpmv, (COHERIQ_BLAS_CZ), (uplo = flip_uplo(uplo); if (n > 0) incx = 1;), (UPLO, uplo),         \
    (DIM, n), (SCALAR, alpha), (IN, ap), (IN, x), (INC, incx), (SCALAR, beta), (OUT, y),           \
    (INC, incy))                                                                                   \
  X(trmv, (COHERIQ_BLAS_SDCZ), (uplo = flip_uplo(uplo); transa = to_t(transa);), (UPLO, uplo),     \
    (TRANS, transa), (DIAG, diag), (DIM, n), (IN, a), (LD, lda, n), (OUT, x), (INC, incx))         \
  X(tbmv, (COHERIQ_BLAS_SDCZ), (uplo = flip_uplo(uplo); transa = to_t(transa);), (UPLO, uplo),     \
    (TRANS, transa), (DIAG, diag), (DIM, n), (DIM, k), (IN, a), (BAND_LD, lda, k + 1), (OUT, x),   \
    (INC, incx))                                                                                   \
  X(tpmv, (COHERIQ_BLAS_SDCZ), (uplo = flip_uplo(uplo); transa = to_t(transa);), (UPLO, uplo),     \
    (TRANS, transa), (DIAG, diag), (DIM, n), (IN, ap), (OUT, x), (INC, incx))                      \
  X(trsv, (COHERIQ_BLAS_SDCZ), (uplo = flip_uplo(uplo); transa = to_t(transa);), (UPLO, uplo),     \
    (TRANS, transa), (DIAG, diag), (DIM, n), (IN, a), (LD, lda, n), (OUT, x), (INC, incx))         \
  X(tbsv, (COHERIQ_BLAS_SDCZ), (uplo = flip_uplo(uplo); transa = to_t(transa);), (UPLO, uplo),     \
    (TRANS, transa), (DIAG, diag), (DIM, n), (DIM, k), (IN, a), (BAND_LD, lda, k + 1), (OUT, x),   \
    (INC, incx))                                                                                   \
  X(tpsv, (COHERIQ_BLAS_SDCZ), (uplo = flip_uplo(uplo); transa = to_t(transa);), (UPLO, uplo),     \
    (TRANS, transa), (DIAG, diag), (DIM, n), (IN, ap), (OUT, x), (INC, incx))                      \
  X(ger, (COHERIQ_BLAS_SD), (std::swap(m, n); std::swap(incx, incy);), (DIM, m), (DIM, n),         \
    (SCALAR, alpha), (IN, x), (INC, incx), (IN, y), (INC, incy), (OUT, a), (LD, lda, m))           \
  X(geru, (COHERIQ_BLAS_CZ), (std::swap(m, n); std::swap(incx, incy);), (DIM, m), (DIM, n),        \
    (SCALAR, alpha), (IN, x), (INC, incx), (IN, y), (INC, incy), (OUT, a), (LD, lda, m))           \
  X(gerc, (COHERIQ_BLAS_CZ),                                                                       \
    (if (n > 0) incy = 1; std::swap(m, n); std::swap(incx, incy); routine = as_geru(routine);),    \
    (DIM, m), (DIM, n), (SCALAR, alpha), (IN, x), (INC, incx), (IN, y), (INC, incy), (OUT, a),     \
    (LD, lda, m))                                                                                  \
  X(syr, (COHERIQ_BLAS_SD), (uplo = flip_uplo(uplo);), (UPLO, uplo), (DIM, n), (SCALAR, alpha),    \
    (IN, x), (INC, incx), (OUT, a), (LD, lda, n))                                                  \
  X(her, (COHERIQ_BLAS_CZ), (uplo = flip_uplo(uplo); if (n > 0) incx = 1;), (UPLO, uplo),          \
    (DIM, n), (REAL, alpha), (IN, x), (INC, incx), (OUT, a), (LD, lda, n))                         \
  X(spr, (COHERIQ_BLAS_SD), (uplo = flip_uplo(uplo);), (UPLO, uplo), (DIM, n), (SCALAR, alpha),    \
    (IN, x), (INC, incx), (OUT, ap))                                                               \
  X(hpr, (COHERIQ_BLAS_CZ), (uplo = flip_uplo(uplo); if (n > 0) incx = 1;), (UPLO, uplo),          \
    (DIM, n), (REAL, alpha), (IN, x), (INC, incx), (OUT, ap))                                      \
  X(syr2, (COHERIQ_BLAS_SD), (uplo = flip_uplo(uplo);), (UPLO, uplo), (DIM, n), (SCALAR, alpha),   \
    (IN, x), (INC, incx), (IN, y), (INC, incy), (OUT, a), (LD, lda, n))                            \
  X(her2, (COHERIQ_BLAS_CZ),                                                                       \
    (uplo = flip_uplo(uplo); if (n > 0) incx = incy = 1; std::swap(incx, incy);), (UPLO, uplo),    \
    (DIM, n), (SCALAR, alpha), (IN, x), (INC, incx), (IN, y), (INC, incy), (OUT, a), (LD, lda, n)) \
  X(spr2, (COHERIQ_BLAS_SD), (uplo = flip_uplo(uplo);), (UPLO, uplo), (DIM, n), (SCALAR, alpha),   \
    (IN, x), (INC, incx), (IN, y), (INC, incy), (OUT, ap))                                         \
  X(hpr2, (COHERIQ_BLAS_CZ),                                                                       \
    (uplo = flip_uplo(uplo); if (n > 0) incx = incy = 1; std::swap(incx, incy);), (UPLO, uplo),    \
    (DIM, n), (SCALAR, alpha), (IN, x), (INC, incx), (IN, y), (INC, incy), (OUT, ap))

// Leading dimensions: rows of A are m or k by transa (gemm), m or n by side (symm, trmm), n or k
// by trans (syrk).
#define COHERIQ_BLAS_LEVEL3(X)                                                                     \
  X(gemm, (COHERIQ_BLAS_SDCZ), (std::swap(transa, transb); std::swap(m, n); std::swap(lda, ldb);), \
    (TRANS, transa), (TRANS_ROW2, transb), (DIM, m), (DIM, n), (DIM, k), (SCALAR, alpha), (IN, a), \
    (LD, lda, transa == 'N' ? m : k), (IN, b), (LD, ldb, transb == 'N' ? k : n), (SCALAR, beta),   \
    (OUT, c), (LD, ldc, m))                                                                        \
  X(symm, (COHERIQ_BLAS_SDCZ), (side = flip_side(side); uplo = flip_uplo(uplo); std::swap(m, n);), \
    (SIDE, side), (UPLO, uplo), (DIM, m), (DIM, n), (SCALAR, alpha), (IN, a),                      \
    (LD, lda, side == 'L' ? m : n), (IN, b), (LD, ldb, m), (SCALAR, beta), (OUT, c), (LD, ldc, m)) \
  X(hemm, (COHERIQ_BLAS_CZ), (side = flip_side(side); uplo = flip_uplo(uplo); std::swap(m, n);),   \
    (SIDE, side), (UPLO, uplo), (DIM, m), (DIM, n), (SCALAR, alpha), (IN, a),                      \
    (LD, lda, side == 'L' ? m : n), (IN, b), (LD, ldb, m), (SCALAR, beta), (OUT, c), (LD, ldc, m)) \
  X(syrk, (COHERIQ_BLAS_SD), (uplo = flip_uplo(uplo); trans = to_t(trans);), (UPLO_ROW3, uplo),    \
    (TRANS, trans), (DIM, n), (DIM, k), (SCALAR, alpha), (IN, a), (LD, lda, trans == 'N' ? n : k), \
    (SCALAR, beta), (OUT, c), (LD, ldc, n))                                                        \
  X(syrk, (COHERIQ_BLAS_CZ), (uplo = flip_uplo(uplo); trans = to_t(trans);), (UPLO_ROW3, uplo),    \
    (TRANS_NT, trans), (DIM, n), (DIM, k), (SCALAR, alpha), (IN, a),                               \
    (LD, lda, trans == 'N' ? n : k), (SCALAR, beta), (OUT, c), (LD, ldc, n))                       \
  X(herk, (COHERIQ_BLAS_CZ), (uplo = flip_uplo(uplo); trans = to_c(trans);), (UPLO_ROW3, uplo),    \
    (TRANS_NC, trans), (DIM, n), (DIM, k), (REAL, alpha), (IN, a),                                 \
    (LD, lda, trans == 'N' ? n : k), (REAL, beta), (OUT, c), (LD, ldc, n))                         \
  X(syr2k, (COHERIQ_BLAS_SD), (uplo = flip_uplo(uplo); trans = to_t(trans);), (UPLO_ROW3, uplo),   \
    (TRANS, trans), (DIM, n), (DIM, k), (SCALAR, alpha), (IN, a), (LD, lda, trans == 'N' ? n : k), \
    (IN, b), (LD, ldb, trans == 'N' ? n : k), (SCALAR, beta), (OUT, c), (LD, ldc, n))              \
  X(syr2k, (COHERIQ_BLAS_CZ), (uplo = flip_uplo(uplo); trans = to_t(trans);), (UPLO_ROW3, uplo),   \
    (TRANS_NT, trans), (DIM, n), (DIM, k), (SCALAR, alpha), (IN, a),                               \
    (LD, lda, trans == 'N' ? n : k), (IN, b), (LD, ldb, trans == 'N' ? n : k), (SCALAR, beta),     \
    (OUT, c), (LD, ldc, n))                                                                        \
  X(her2k, (COHERIQ_BLAS_CZ), (uplo = flip_uplo(uplo); trans = to_c(trans);), (UPLO, uplo),        \
    (TRANS_NC, trans), (DIM, n), (DIM, k), (SCALAR, alpha), (IN, a),                               \
    (LD, lda, trans == 'N' ? n : k), (IN, b), (LD, ldb, trans == 'N' ? n : k), (REAL, beta),       \
    (OUT, c), (LD, ldc, n))                                                                        \
  X(trmm, (COHERIQ_BLAS_SDCZ), (side = flip_side(side); uplo = flip_uplo(uplo); std::swap(m, n);), \
    (SIDE, side), (UPLO, uplo), (TRANS, trans), (DIAG, diag), (DIM, m), (DIM, n), (SCALAR, alpha), \
    (IN, a), (LD, lda, side == 'L' ? m : n), (OUT, b), (LD, ldb, m))                               \
  X(trsm, (COHERIQ_BLAS_SDCZ), (side = flip_side(side); uplo = flip_uplo(uplo); std::swap(m, n);), \
    (SIDE, side), (UPLO, uplo), (TRANS, trans), (DIAG, diag), (DIM, m), (DIM, n), (SCALAR, alpha), \
    (IN, a), (LD, lda, side == 'L' ? m : n), (OUT, b), (LD, ldb, m))
