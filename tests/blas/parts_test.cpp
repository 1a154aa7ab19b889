// A part agrees with the whole: an element's bits do not depend on the shape of the call that
// computes it. LAPACK relies on it: its ?GGEV3 test (xeigtst? with ?gd.in) computes eigenvalues
// twice, once updating only the active part of the matrices (eigenvalues only) and once the whole
// (with vectors), and requires equal bits. A kernel that takes a short call, a narrow block or a
// row's tail another way (an unfused loop where the vector code fuses, fewer accumulators, a
// different product for small sizes) breaks it on the matrices where those bits matter.
//
// For ?axpy (contiguous and strided), ?ger / ?geru / ?gerc, ?gemv and ?gemm of every type, under
// the engine in effect: the call on a part (a run of a vector; rows of y for gemv N, columns for T
// and C; a block of A for ger; a block of C for gemm, the depth whole) against the same part of
// the call on the whole, bit for bit. The sizes cross the kernels' blocks (4 rows of gemv, a
// vector's lanes) and the level-2 rows that are short for the reference loops (20 and 40).
#include <doctest/doctest.h>

#include <complex>
#include <cstddef>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "libraries.hpp"

namespace {

using coheriq::blas_testing::kComplex;
using coheriq::blas_testing::ours;
using coheriq::blas_testing::routine_name;
using coheriq::blas_testing::symbol;

template <class T>
using Axpy = void (*)(const int*, const T*, const T*, const int*, T*, const int*);
template <class T>
using Ger = void (*)(const int*, const int*, const T*, const T*, const int*, const T*, const int*,
                     T*, const int*);
template <class T>
using Gemv = void (*)(const char*, const int*, const int*, const T*, const T*, const int*, const T*,
                      const int*, const T*, T*, const int*, std::size_t);
template <class T>
using Gemm = void (*)(const char*, const char*, const int*, const int*, const int*, const T*,
                      const T*, const int*, const T*, const int*, const T*, T*, const int*,
                      std::size_t, std::size_t);

template <class T>
struct Values {
  explicit Values(unsigned seed) : random(seed) {}
  T next() {
    if constexpr (kComplex<T>) {
      const auto re = uniform(random);
      return T(re, uniform(random));
    } else {
      return T(uniform(random));
    }
  }
  std::vector<T> vector(std::size_t n) {
    std::vector<T> v(n);
    for (T& e : v) e = next();
    return v;
  }
  int below(int n) { return std::uniform_int_distribution<int>(0, n - 1)(random); }
  std::mt19937 random;
  std::uniform_real_distribution<coheriq::blas_testing::real_t<T>> uniform{-1, 1};
};

// Whether the columns [j0, j0 + n) of rows [i0, i0 + m) of two column-major matrices (leading
// dimension ld) hold the same bits.
template <class T>
bool same_block(const std::vector<T>& a, const std::vector<T>& b, int ld, int i0, int j0, int m,
                int n) {
  for (int j = j0; j < j0 + n; ++j) {
    const std::size_t at = std::size_t(j) * ld + i0;
    if (std::memcmp(a.data() + at, b.data() + at, std::size_t(m) * sizeof(T)) != 0) return false;
  }
  return true;
}

constexpr int kTrials = 60;

TEST_CASE_TEMPLATE("a part of a vector or matrix gets the bits the call on the whole gives it", T,
                   float, double, std::complex<float>, std::complex<double>) {
  const auto axpy = symbol<Axpy<T>>(ours(), routine_name<T>("axpy", false).c_str());
  const std::string ger_name = routine_name<T>(kComplex<T> ? "gerc" : "ger", false);
  const auto ger = symbol<Ger<T>>(ours(), ger_name.c_str());
  const auto gemv = symbol<Gemv<T>>(ours(), routine_name<T>("gemv", false).c_str());
  const auto gemm = symbol<Gemm<T>>(ours(), routine_name<T>("gemm", false).c_str());
  Values<T> values(29);

  SUBCASE("axpy") {
    for (int inc : {1, 2}) {
      const int n = 100;
      for (int trial = 0; trial < kTrials; ++trial) {
        const int start = values.below(n), len = 1 + values.below(n - start);
        const T alpha = values.next();
        const auto x = values.vector(std::size_t(n) * inc);
        const auto y = values.vector(std::size_t(n) * inc);
        auto whole = y, part = y;
        axpy(&n, &alpha, x.data(), &inc, whole.data(), &inc);
        const std::size_t at = std::size_t(start) * inc;
        axpy(&len, &alpha, x.data() + at, &inc, part.data() + at, &inc);
        CHECK_MESSAGE(std::memcmp(whole.data() + at, part.data() + at,
                                  std::size_t(len) * inc * sizeof(T)) == 0,
                      routine_name<T>("axpy", false), " inc ", inc, ": elements ", start, " to ",
                      start + len - 1);
      }
    }
  }
  SUBCASE("ger") {
    const int M = 48, N = 48, one = 1;
    for (int trial = 0; trial < kTrials; ++trial) {
      const int i0 = values.below(M), j0 = values.below(N);
      const int m = 1 + values.below(M - i0), n = 1 + values.below(N - j0);
      const T alpha = values.next();
      const auto x = values.vector(M), y = values.vector(N), a = values.vector(std::size_t(M) * N);
      auto whole = a, part = a;
      ger(&M, &N, &alpha, x.data(), &one, y.data(), &one, whole.data(), &M);
      ger(&m, &n, &alpha, x.data() + i0, &one, y.data() + j0, &one,
          part.data() + std::size_t(j0) * M + i0, &M);
      CHECK_MESSAGE(same_block(whole, part, M, i0, j0, m, n), ger_name, ": rows ", i0, " + ", m,
                    ", columns ", j0, " + ", n);
    }
  }
  SUBCASE("gemv") {
    const int M = 48, N = 48, one = 1;
    for (const char* trans : {"N", "T", "C"}) {
      for (int trial = 0; trial < kTrials; ++trial) {
        // N: a run of rows (y's elements); T and C: a run of columns (again y's elements).
        const bool rows = trans[0] == 'N';
        const int count = rows ? M : N;
        const int start = values.below(count), len = 1 + values.below(count - start);
        const T alpha = values.next(), beta = values.next();
        const auto a = values.vector(std::size_t(M) * N);
        const auto x = values.vector(rows ? N : M), y = values.vector(count);
        auto whole = y, part = y;
        gemv(trans, &M, &N, &alpha, a.data(), &M, x.data(), &one, &beta, whole.data(), &one, 1);
        if (rows) {
          gemv(trans, &len, &N, &alpha, a.data() + start, &M, x.data(), &one, &beta,
               part.data() + start, &one, 1);
        } else {
          gemv(trans, &M, &len, &alpha, a.data() + std::size_t(start) * M, &M, x.data(), &one,
               &beta, part.data() + start, &one, 1);
        }
        CHECK_MESSAGE(std::memcmp(whole.data() + start, part.data() + start,
                                  std::size_t(len) * sizeof(T)) == 0,
                      routine_name<T>("gemv", false), " ", std::string(trans), ": elements ", start,
                      " to ", start + len - 1);
      }
    }
  }
  SUBCASE("gemm") {
    const int M = 40, N = 40;
    for (const char* ta : {"N", "T", "C"}) {
      for (const char* tb : {"N", "C"}) {
        for (int trial = 0; trial < kTrials / 4; ++trial) {
          const int k = 1 + values.below(40);
          const int i0 = values.below(M), j0 = values.below(N);
          const int m = 1 + values.below(M - i0), n = 1 + values.below(N - j0);
          const T alpha = values.next(), beta = values.next();
          const bool at = ta[0] != 'N', bt = tb[0] != 'N';
          const int lda = at ? k : M, ldb = bt ? N : k;
          const auto a = values.vector(std::size_t(lda) * (at ? M : k));
          const auto b = values.vector(std::size_t(ldb) * (bt ? k : N));
          const auto c = values.vector(std::size_t(M) * N);
          auto whole = c, part = c;
          gemm(ta, tb, &M, &N, &k, &alpha, a.data(), &lda, b.data(), &ldb, &beta, whole.data(), &M,
               1, 1);
          // Rows i0.. of op(A) and columns j0.. of op(B).
          const T* a_part = a.data() + (at ? std::size_t(i0) * lda : std::size_t(i0));
          const T* b_part = b.data() + (bt ? std::size_t(j0) : std::size_t(j0) * ldb);
          gemm(ta, tb, &m, &n, &k, &alpha, a_part, &lda, b_part, &ldb, &beta,
               part.data() + std::size_t(j0) * M + i0, &M, 1, 1);
          CHECK_MESSAGE(same_block(whole, part, M, i0, j0, m, n), routine_name<T>("gemm", false),
                        " ", std::string(ta) + tb, " k ", k, ": rows ", i0, " + ", m, ", columns ",
                        j0, " + ", n);
        }
      }
    }
  }
}

}  // namespace
