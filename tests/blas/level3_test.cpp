// The real level-3 routines on the kernels domain's GEMM (src/blas/level3.hpp) against the
// system's reference BLAS, both loaded in this process (libraries.hpp): ?trsm, ?trmm, ?syrk,
// ?syr2k and ?symm in s and d, Fortran and row-major CBLAS, every side, uplo, trans and diag, at
// orders around the blocked form's base block (32) and its splits, odd sizes and leading
// dimensions larger than needed. What neither may touch is poisoned: A's other triangle and a
// Unit diagonal hold NaN (never read), C's other triangle a sentinel (never written). Special
// values (NaN and Inf in A and B, and in alpha for ?syrk and ?syr2k; alpha == 0 with NaN
// operands; beta == 0 with NaN in C) must give the reference's NaNs and infinities element by
// element. (A non-finite alpha in ?trsm, ?trmm and ?symm runs the reference engine's loops,
// whose NaNs differ from the reference's in places: not claimed, docs/blas.md.)
//
// With --threads-child the program prints a hash of every routine's result at an order above
// GEMM's threading threshold; the "bitwise the same for every thread count" case runs it under
// COHERIQ_NUM_THREADS = 1, 2, 3 and 7 and compares.
#include <doctest/doctest.h>
#include <unistd.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "libraries.hpp"

namespace {

using coheriq::blas_testing::Pair;

constexpr int kRowMajor = 101;
constexpr int kNoTrans = 111, kTrans = 112, kConjTrans = 113;
constexpr int kUpper = 121, kLower = 122, kNonUnit = 131, kUnit = 132, kLeft = 141, kRight = 142;

template <class T>
std::string name(const char* stem, bool cblas) {
  const char* letter = sizeof(T) == 4 ? "s" : "d";
  return cblas ? std::string("cblas_") + letter + stem : std::string(letter) + stem + "_";
}

// Fortran (column-major; CHARACTER*1 hidden lengths last) and CBLAS signatures.
template <class T>
using FTri = void (*)(const char*, const char*, const char*, const char*, const int*, const int*,
                      const T*, const T*, const int*, T*, const int*, std::size_t, std::size_t,
                      std::size_t, std::size_t);
template <class T>
using CTri = void (*)(int, int, int, int, int, int, int, T, const T*, int, T*, int);
template <class T>
using FSyrk = void (*)(const char*, const char*, const int*, const int*, const T*, const T*,
                       const int*, const T*, T*, const int*, std::size_t, std::size_t);
template <class T>
using CSyrk = void (*)(int, int, int, int, int, T, const T*, int, T, T*, int);
template <class T>
using FSyr2k = void (*)(const char*, const char*, const int*, const int*, const T*, const T*,
                        const int*, const T*, const int*, const T*, T*, const int*, std::size_t,
                        std::size_t);
template <class T>
using CSyr2k = void (*)(int, int, int, int, int, T, const T*, int, const T*, int, T, T*, int);
template <class T>
using FSymm = void (*)(const char*, const char*, const int*, const int*, const T*, const T*,
                       const int*, const T*, const int*, const T*, T*, const int*, std::size_t,
                       std::size_t);
template <class T>
using CSymm = void (*)(int, int, int, int, int, T, const T*, int, const T*, int, T, T*, int);

// A rows x cols matrix stored in `layout` with a leading dimension 3 larger than needed; (i, j)
// is logical, whatever the layout.
template <class T>
struct Matrix {
  Matrix(int r, int c, bool row_major)
      : rows(r),
        cols(c),
        row(row_major),
        ld((row_major ? c : r) + 3),
        data(std::size_t(ld) * std::size_t(row_major ? r : c) + 3,
             std::numeric_limits<T>::quiet_NaN()) {}
  T& operator()(int i, int j) {
    return data[row ? std::size_t(i) * ld + std::size_t(j) : std::size_t(j) * ld + std::size_t(i)];
  }
  int rows, cols;
  bool row;
  int ld;
  std::vector<T> data;
};

// A general matrix of uniform values in [-1, 1].
template <class T>
Matrix<T> general(int r, int c, bool row, std::mt19937& random) {
  Matrix<T> m(r, c, row);
  std::uniform_real_distribution<T> u(T(-1), T(1));
  for (int i = 0; i < r; ++i)
    for (int j = 0; j < c; ++j) m(i, j) = u(random);
  return m;
}
// The `upper` triangle of an order-p matrix, well conditioned (off-diagonal at most 1/p, the
// diagonal in [1, 2]); the other triangle NaN, and the diagonal NaN too when `unit`.
template <class T>
Matrix<T> triangle(int p, bool row, bool upper, bool unit, std::mt19937& random) {
  Matrix<T> m(p, p, row);
  std::uniform_real_distribution<T> u(T(-1), T(1));
  for (int i = 0; i < p; ++i) {
    for (int j = 0; j < p; ++j) {
      if (i == j) {
        m(i, j) = unit ? std::numeric_limits<T>::quiet_NaN() : T(1.5) + u(random) / 2;
      } else if (upper == (j > i)) {
        m(i, j) = u(random) / T(p);
      }
    }
  }
  return m;
}

// Same class element by element (NaN, +Inf, -Inf, finite) and the finite ones within
// tol·(1 + max|ref|); bitwise equal where `exact` says so (C's untouched triangle).
template <class T, class Exact>
void agree(const std::string& what, Matrix<T>& ours, Matrix<T>& ref, double tol, Exact exact) {
  double scale = 1;
  for (int i = 0; i < ref.rows; ++i)
    for (int j = 0; j < ref.cols; ++j)
      if (std::isfinite(ref(i, j))) scale = std::fmax(scale, std::fabs(double(ref(i, j))));
  int reported = 0;
  for (int i = 0; i < ref.rows && reported < 3; ++i) {
    for (int j = 0; j < ref.cols && reported < 3; ++j) {
      const T o = ours(i, j), r = ref(i, j);
      bool ok;
      if (exact(i, j)) {
        ok = std::memcmp(&o, &r, sizeof o) == 0;
      } else if (std::isnan(r) || std::isinf(r)) {
        ok = std::isnan(r) ? std::isnan(o) : o == r;
      } else {
        ok = std::isfinite(o) && std::fabs(double(o) - double(r)) <= tol * scale;
      }
      if (!ok) {
        ++reported;
        FAIL_CHECK(what << ": (" << i << ", " << j << ") is " << o << ", the reference's " << r);
      }
    }
  }
}
template <class T>
void agree(const std::string& what, Matrix<T>& ours, Matrix<T>& ref, double tol) {
  agree(what, ours, ref, tol, [](int, int) { return false; });
}

template <class T>
double tolerance(int p, int q) {
  return 8.0 * double(p + q) * double(std::numeric_limits<T>::epsilon());
}

const char* letter(int v) {
  switch (v) {
    case kUpper:
      return "U";
    case kLower:
      return "L";
    case kLeft:
      return "L";
    case kRight:
      return "R";
    case kNoTrans:
      return "N";
    case kTrans:
      return "T";
    case kConjTrans:
      return "C";
    case kUnit:
      return "U";
    default:
      return "N";
  }
}

constexpr int kOrders[] = {1, 11, 12, 31, 32, 33, 47, 64, 65, 97};
constexpr int kOthers[] = {8, 33};

// One triangular call (trsm or trmm) in both libraries on copies of the same B.
template <class T>
struct TriangularCase {
  const Pair<FTri<T>>& f;
  const Pair<CTri<T>>& c;
  bool cblas_row;
  int side, uplo, trans, diag, m, n;
  T alpha;

  std::string what() const {
    return f.name + (cblas_row ? " (CBLAS row-major)" : "") + " side " + letter(side) + " uplo " +
           letter(uplo) + " trans " + letter(trans) + " diag " + letter(diag) + " m " +
           std::to_string(m) + " n " + std::to_string(n) + " alpha " + std::to_string(alpha);
  }
  void run(Matrix<T>& a, const Matrix<T>& b, double tol) const {
    Matrix<T> ours = b, ref = b;
    if (cblas_row) {
      c.ours(kRowMajor, side, uplo, trans, diag, m, n, alpha, a.data.data(), a.ld, ours.data.data(),
             ours.ld);
      c.ref(kRowMajor, side, uplo, trans, diag, m, n, alpha, a.data.data(), a.ld, ref.data.data(),
            ref.ld);
    } else {
      f.ours(letter(side), letter(uplo), letter(trans), letter(diag), &m, &n, &alpha, a.data.data(),
             &a.ld, ours.data.data(), &ours.ld, 1, 1, 1, 1);
      f.ref(letter(side), letter(uplo), letter(trans), letter(diag), &m, &n, &alpha, a.data.data(),
            &a.ld, ref.data.data(), &ref.ld, 1, 1, 1, 1);
    }
    agree(what(), ours, ref, tol);
  }
};

template <class T>
void triangular_routine(const char* stem) {
  const Pair<FTri<T>> f(name<T>(stem, false));
  const Pair<CTri<T>> c(name<T>(stem, true));
  std::mt19937 random(11);
  for (const bool row : {false, true}) {
    for (const int side : {kLeft, kRight})
      for (const int uplo : {kUpper, kLower})
        for (const int trans : {kNoTrans, kTrans, kConjTrans})
          for (const int diag : {kNonUnit, kUnit})
            for (const int p : kOrders)
              for (const int q : kOthers) {
                const int m = side == kLeft ? p : q, n = side == kLeft ? q : p;
                Matrix<T> a = triangle<T>(p, row, uplo == kUpper, diag == kUnit, random);
                const Matrix<T> b = general<T>(m, n, row, random);
                const TriangularCase<T> call{f, c, row, side, uplo, trans, diag, m, n, T(0.7)};
                call.run(a, b, tolerance<T>(p, q));
              }
  }
  // A Right side with more rows of B than one transposed chunk (128) of the base blocks.
  for (const int uplo : {kUpper, kLower})
    for (const int trans : {kNoTrans, kTrans}) {
      Matrix<T> a = triangle<T>(40, false, uplo == kUpper, false, random);
      const Matrix<T> b = general<T>(600, 40, false, random);
      const TriangularCase<T> call{f, c, false, kRight, uplo, trans, kNonUnit, 600, 40, T(0.7)};
      call.run(a, b, tolerance<T>(40, 600));
    }
  // Special values at an order the blocked form takes: the reference's NaNs and infinities.
  const T inf = std::numeric_limits<T>::infinity(), nan = std::numeric_limits<T>::quiet_NaN();
  for (const int side : {kLeft, kRight})
    for (const int uplo : {kUpper, kLower})
      for (const int trans : {kNoTrans, kTrans})
        for (int special = 0; special < 5; ++special) {
          const int p = 65, q = 33, m = side == kLeft ? p : q, n = side == kLeft ? q : p;
          Matrix<T> a = triangle<T>(p, false, uplo == kUpper, false, random);
          Matrix<T> b = general<T>(m, n, false, random);
          T alpha = T(1);
          if (special == 0) b(m / 2, n / 3) = nan;
          if (special == 1) b(m / 3, n / 2) = -inf;
          if (special == 2) a(uplo == kUpper ? 3 : p - 3, uplo == kUpper ? p - 3 : 3) = inf;
          if (special == 3) b(0, 0) = inf;  // row and column 0: every solve and product uses them
          if (special == 4) {               // alpha == 0 reads neither A nor B
            alpha = T(0);
            for (T& v : a.data) v = nan;
            b(1, 1) = nan;
          }
          const TriangularCase<T> call{f, c, false, side, uplo, trans, kNonUnit, m, n, alpha};
          INFO("special case " << special);
          call.run(a, b, tolerance<T>(p, q));
        }
}

TEST_CASE_TEMPLATE("trsm agrees with the reference BLAS around the base block", T, float, double) {
  triangular_routine<T>("trsm");
}
TEST_CASE_TEMPLATE("trmm agrees with the reference BLAS around the base block", T, float, double) {
  triangular_routine<T>("trmm");
}

// syrk and syr2k: C's other triangle must keep its sentinel, bit for bit.
template <class T>
void rank_routine(bool two) {
  const Pair<FSyrk<T>> fk(name<T>("syrk", false));
  const Pair<CSyrk<T>> ck(name<T>("syrk", true));
  const Pair<FSyr2k<T>> f2(name<T>("syr2k", false));
  const Pair<CSyr2k<T>> c2(name<T>("syr2k", true));
  const std::string routine = two ? f2.name : fk.name;
  std::mt19937 random(13);
  const T nan = std::numeric_limits<T>::quiet_NaN(), inf = std::numeric_limits<T>::infinity();
  for (const bool row : {false, true}) {
    for (const int uplo : {kUpper, kLower})
      for (const int trans : {kNoTrans, kTrans, kConjTrans})
        for (const int n : kOrders)
          for (const int k : kOthers)
            for (int special = 0; special < (n == 65 && k == 33 && !row ? 6 : 1); ++special) {
              const bool t = trans != kNoTrans;
              Matrix<T> a = general<T>(t ? k : n, t ? n : k, row, random);
              Matrix<T> b = general<T>(t ? k : n, t ? n : k, row, random);
              Matrix<T> c = general<T>(n, n, row, random);
              const auto outside = [&](int i, int j) { return uplo == kUpper ? j < i : j > i; };
              for (int i = 0; i < n; ++i)
                for (int j = 0; j < n; ++j)
                  if (outside(i, j)) c(i, j) = T(1234.5);
              T alpha = T(0.7), beta = T(1.3);
              if (special == 1) a(a.rows / 2, a.cols / 3) = nan;
              if (special == 2) b(b.rows / 3, b.cols / 2) = inf;
              if (special == 3) alpha = inf;
              if (special == 4) {  // alpha == 0 reads neither A nor B
                alpha = T(0);
                for (T& v : a.data) v = nan;
                for (T& v : b.data) v = nan;
              }
              if (special == 5) {  // beta == 0 does not read C
                beta = T(0);
                for (int i = 0; i < n; ++i)
                  for (int j = 0; j < n; ++j)
                    if (!outside(i, j)) c(i, j) = nan;
              }
              Matrix<T> ours = c, ref = c;
              const int layout = kRowMajor;
              if (two && row) {
                c2.ours(layout, uplo, trans, n, k, alpha, a.data.data(), a.ld, b.data.data(), b.ld,
                        beta, ours.data.data(), ours.ld);
                c2.ref(layout, uplo, trans, n, k, alpha, a.data.data(), a.ld, b.data.data(), b.ld,
                       beta, ref.data.data(), ref.ld);
              } else if (two) {
                f2.ours(letter(uplo), letter(trans), &n, &k, &alpha, a.data.data(), &a.ld,
                        b.data.data(), &b.ld, &beta, ours.data.data(), &ours.ld, 1, 1);
                f2.ref(letter(uplo), letter(trans), &n, &k, &alpha, a.data.data(), &a.ld,
                       b.data.data(), &b.ld, &beta, ref.data.data(), &ref.ld, 1, 1);
              } else if (row) {
                ck.ours(layout, uplo, trans, n, k, alpha, a.data.data(), a.ld, beta,
                        ours.data.data(), ours.ld);
                ck.ref(layout, uplo, trans, n, k, alpha, a.data.data(), a.ld, beta, ref.data.data(),
                       ref.ld);
              } else {
                fk.ours(letter(uplo), letter(trans), &n, &k, &alpha, a.data.data(), &a.ld, &beta,
                        ours.data.data(), &ours.ld, 1, 1);
                fk.ref(letter(uplo), letter(trans), &n, &k, &alpha, a.data.data(), &a.ld, &beta,
                       ref.data.data(), &ref.ld, 1, 1);
              }
              agree(routine + (row ? " (CBLAS row-major)" : "") + " uplo " + letter(uplo) +
                        " trans " + letter(trans) + " n " + std::to_string(n) + " k " +
                        std::to_string(k) + " special " + std::to_string(special),
                    ours, ref, tolerance<T>(n, k), outside);
            }
  }
}

TEST_CASE_TEMPLATE("syrk agrees with the reference BLAS around the base block", T, float, double) {
  rank_routine<T>(false);
}
TEST_CASE_TEMPLATE("syr2k agrees with the reference BLAS around the base block", T, float, double) {
  rank_routine<T>(true);
}

// 1100: the symmetric matrix is expanded in more than one panel of 4 MiB.
constexpr int kSymmOrders[] = {1, 11, 12, 31, 32, 33, 47, 64, 65, 97, 1100};

TEST_CASE_TEMPLATE("symm agrees with the reference BLAS around the base block", T, float, double) {
  const Pair<FSymm<T>> f(name<T>("symm", false));
  const Pair<CSymm<T>> c(name<T>("symm", true));
  std::mt19937 random(17);
  const T nan = std::numeric_limits<T>::quiet_NaN(), inf = std::numeric_limits<T>::infinity();
  for (const bool row : {false, true})
    for (const int side : {kLeft, kRight})
      for (const int uplo : {kUpper, kLower})
        for (const int p : kSymmOrders)
          for (const int q : kOthers)
            for (int special = 0; special < (p == 65 && q == 33 && !row ? 6 : 1); ++special) {
              if (p == 1100 && q != 8) continue;
              const int m = side == kLeft ? p : q, n = side == kLeft ? q : p;
              Matrix<T> a = triangle<T>(p, row, uplo == kUpper, false, random);
              Matrix<T> b = general<T>(m, n, row, random);
              Matrix<T> cm = general<T>(m, n, row, random);
              T alpha = T(0.7), beta = T(1.3);
              if (special == 1) b(m / 2, n / 3) = nan;
              if (special == 2) a(uplo == kUpper ? 2 : p - 2, uplo == kUpper ? p - 2 : 2) = -inf;
              if (special == 3) b(0, 0) = -inf;
              if (special == 4) {
                alpha = T(0);
                for (T& v : a.data) v = nan;
                for (T& v : b.data) v = nan;
              }
              if (special == 5) {
                beta = T(0);
                for (T& v : cm.data) v = nan;
              }
              Matrix<T> ours = cm, ref = cm;
              if (row) {
                c.ours(kRowMajor, side, uplo, m, n, alpha, a.data.data(), a.ld, b.data.data(), b.ld,
                       beta, ours.data.data(), ours.ld);
                c.ref(kRowMajor, side, uplo, m, n, alpha, a.data.data(), a.ld, b.data.data(), b.ld,
                      beta, ref.data.data(), ref.ld);
              } else {
                f.ours(letter(side), letter(uplo), &m, &n, &alpha, a.data.data(), &a.ld,
                       b.data.data(), &b.ld, &beta, ours.data.data(), &ours.ld, 1, 1);
                f.ref(letter(side), letter(uplo), &m, &n, &alpha, a.data.data(), &a.ld,
                      b.data.data(), &b.ld, &beta, ref.data.data(), &ref.ld, 1, 1);
              }
              agree(f.name + (row ? " (CBLAS row-major)" : "") + " side " + letter(side) +
                        " uplo " + letter(uplo) + " m " + std::to_string(m) + " n " +
                        std::to_string(n) + " special " + std::to_string(special),
                    ours, ref, tolerance<T>(p, q));
            }
}

// ------------------------------ Threads

// FNV-1a over the bytes of a result.
template <class T>
std::uint64_t hash(const std::vector<T>& v, std::uint64_t h = 1469598103934665603ull) {
  const auto* bytes = reinterpret_cast<const unsigned char*>(v.data());
  for (std::size_t i = 0; i < v.size() * sizeof(T); ++i) h = (h ^ bytes[i]) * 1099511628211ull;
  return h;
}

// Every routine once per side/uplo/trans at order 320 (above GEMM's threading threshold for both
// types, 192³ and 152³ multiply-adds, in its largest blocks), through the Fortran entry points.
template <class T>
std::uint64_t results_hash() {
  const Pair<FTri<T>> trsm(name<T>("trsm", false)), trmm(name<T>("trmm", false));
  const Pair<FSyrk<T>> syrk(name<T>("syrk", false));
  const Pair<FSyr2k<T>> syr2k(name<T>("syr2k", false));
  const Pair<FSymm<T>> symm(name<T>("symm", false));
  const int p = 320;
  std::mt19937 random(19);
  std::uint64_t h = 1469598103934665603ull;
  const T alpha = T(0.7), beta = T(1.3);
  for (const char* side : {"L", "R"})
    for (const char* uplo : {"U", "L"})
      for (const char* trans : {"N", "T"}) {
        Matrix<T> a = triangle<T>(p, false, *uplo == 'U', false, random);
        Matrix<T> b = general<T>(p, p, false, random);
        Matrix<T> c = general<T>(p, p, false, random);
        Matrix<T> g = general<T>(p, p, false, random);
        for (const auto* routine : {&trsm, &trmm}) {
          Matrix<T> x = b;
          routine->ours(side, uplo, trans, "N", &p, &p, &alpha, a.data.data(), &a.ld, x.data.data(),
                        &x.ld, 1, 1, 1, 1);
          h = hash(x.data, h);
        }
        Matrix<T> x = c;
        syrk.ours(uplo, trans, &p, &p, &alpha, b.data.data(), &b.ld, &beta, x.data.data(), &x.ld, 1,
                  1);
        h = hash(x.data, h);
        x = c;
        syr2k.ours(uplo, trans, &p, &p, &alpha, g.data.data(), &g.ld, b.data.data(), &b.ld, &beta,
                   x.data.data(), &x.ld, 1, 1);
        h = hash(x.data, h);
        for (T& v : a.data)
          if (std::isnan(v)) v = T(0);  // symm reads one triangle; the other stays unread
        x = c;
        symm.ours(side, uplo, &p, &p, &alpha, a.data.data(), &a.ld, b.data.data(), &b.ld, &beta,
                  x.data.data(), &x.ld, 1, 1);
        h = hash(x.data, h);
      }
  return h;
}

std::string child_output(int threads) {
  char self[4096] = {};
  if (readlink("/proc/self/exe", self, sizeof self - 1) <= 0) return "no /proc/self/exe";
  const std::string command =
      "COHERIQ_NUM_THREADS=" + std::to_string(threads) + " '" + self + "' --threads-child 2>&1";
  std::string out;
  if (FILE* pipe = popen(command.c_str(), "r")) {
    char buffer[256];
    while (std::fgets(buffer, sizeof buffer, pipe)) out += buffer;
    if (pclose(pipe) != 0) out += " (exit status not 0)";
  }
  return out;
}

TEST_CASE("level-3 results are bitwise the same for 1, 2, 3 and 7 threads") {
  const std::string one = child_output(1);
  INFO("1 thread: " << one);
  REQUIRE(one.rfind("hashes ", 0) == 0);
  for (const int threads : {2, 3, 7}) CHECK_MESSAGE(child_output(threads) == one, threads);
}

}  // namespace

// The child of the threads case: the hashes, before doctest's main sees the argument.
struct ThreadsChild {
  ThreadsChild() {
    const char* cmdline = "/proc/self/cmdline";
    FILE* f = std::fopen(cmdline, "rb");
    if (f == nullptr) return;
    char buffer[4096];
    const std::size_t size = std::fread(buffer, 1, sizeof buffer - 1, f);
    std::fclose(f);
    buffer[size] = 0;
    const std::string args(buffer, size);
    if (args.find(std::string("--threads-child") + '\0') == std::string::npos) return;
    std::printf("hashes %016llx %016llx\n", static_cast<unsigned long long>(results_hash<float>()),
                static_cast<unsigned long long>(results_hash<double>()));
    std::exit(0);
  }
};
const ThreadsChild threads_child;
