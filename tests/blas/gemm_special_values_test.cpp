// sgemm_ / dgemm_ and their CBLAS siblings against the reference BLAS (Debian's libblas3) on
// random small products full of special values: 20,000 calls per routine, alpha and beta drawn
// from 0, ±1, ±Inf, NaN and ordinary values, A, B and C with zeros, infinities and NaNs scattered
// in. Every element of C (its padding included) must be in the same class as the reference's
// (the same NaN-ness, the same infinity) and, when finite, within the reference's own rounding
// bound. Both libraries are loaded in this process with dlopen(RTLD_LOCAL).
//
// What this pins down is where the reference multiplies by alpha: into each element of op(B)
// when op(A) = A (so alpha = Inf and a zero of B give NaN in the whole column), into each
// finished sum when op(A) = Aᵀ (so k = 0 gives alpha·0, NaN for a non-finite alpha).
#include <dlfcn.h>
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace {

void* open_library(const char* path) {
  void* handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    std::fprintf(stderr, "coheriq: cannot load %s: %s\n", path, dlerror());
    std::abort();
  }
  return handle;
}

template <class F>
F symbol(void* library, const std::string& name) {
  void* p = dlsym(library, name.c_str());
  if (p == nullptr) {
    std::fprintf(stderr, "coheriq: %s is missing from a BLAS library under test\n", name.c_str());
    std::abort();
  }
  return reinterpret_cast<F>(p);
}

template <class T>
using FGemm = void (*)(const char*, const char*, const int*, const int*, const int*, const T*,
                       const T*, const int*, const T*, const int*, const T*, T*, const int*,
                       std::size_t, std::size_t);
template <class T>
using CGemm = void (*)(int, int, int, int, int, int, T, const T*, int, const T*, int, T, T*, int);

constexpr int kRowMajor = 101, kColMajor = 102;
constexpr int kTransposes[] = {111, 112, 113};  // NoTrans, Trans, ConjTrans

template <class T>
struct Values {
  static constexpr T inf = std::numeric_limits<T>::infinity();
  static constexpr T nan = std::numeric_limits<T>::quiet_NaN();
};

// alpha and beta: the special values often, an ordinary one otherwise.
template <class T>
T scalar(std::mt19937& random) {
  const T special[] = {T(0), T(1), T(-1), Values<T>::inf, -Values<T>::inf, Values<T>::nan};
  const auto pick = random() % 10;
  if (pick < 6) return special[pick];
  return std::uniform_real_distribution<T>(T(-2), T(2))(random);
}

// A matrix element: mostly ordinary, with zeros (both signs), infinities and NaNs mixed in.
template <class T>
T element(std::mt19937& random) {
  switch (random() % 16) {
    case 0:
    case 1:
      return T(0);
    case 2:
      return T(-0.0);
    case 3:
      return Values<T>::inf;
    case 4:
      return -Values<T>::inf;
    case 5:
      return Values<T>::nan;
    default:
      return std::uniform_real_distribution<T>(T(-2), T(2))(random);
  }
}

// 0: NaN, 1: +Inf, 2: -Inf, 3: finite.
template <class T>
int kind(T v) {
  if (std::isnan(v)) return 0;
  if (std::isinf(v)) return v > 0 ? 1 : 2;
  return 3;
}

struct Call {
  int api;  // 0: Fortran, 1: CBLAS column-major, 2: CBLAS row-major
  int ta, tb, m, n, k;
};

template <class T>
class Fuzz {
 public:
  Fuzz() : ours_(open_library(COHERIQ_BLAS_LIBRARY)), ref_(open_library(COHERIQ_REFERENCE_BLAS)) {
    const std::string p = sizeof(T) == 4 ? "s" : "d";
    f_ours_ = symbol<FGemm<T>>(ours_, p + "gemm_");
    f_ref_ = symbol<FGemm<T>>(ref_, p + "gemm_");
    c_ours_ = symbol<CGemm<T>>(ours_, "cblas_" + p + "gemm");
    c_ref_ = symbol<CGemm<T>>(ref_, "cblas_" + p + "gemm");
  }

  // One random call through both libraries; the number of elements of C that differ.
  std::size_t run(std::mt19937& random, Call& call) {
    call = Call{static_cast<int>(random() % 3), kTransposes[random() % 3],
                kTransposes[random() % 3],      static_cast<int>(random() % 6),
                static_cast<int>(random() % 6), static_cast<int>(random() % 5)};
    const bool row = call.api == 2;
    const bool trans_a = call.ta != 111, trans_b = call.tb != 111;
    // Stored rows and columns in the call's layout; leading dimensions with one spare.
    const int a_rows = trans_a ? call.k : call.m, a_cols = trans_a ? call.m : call.k;
    const int b_rows = trans_b ? call.n : call.k, b_cols = trans_b ? call.k : call.n;
    const auto ld = [&](int rows, int cols) { return std::max(1, row ? cols : rows) + 1; };
    lda_ = ld(a_rows, a_cols);
    ldb_ = ld(b_rows, b_cols);
    ldc_ = ld(call.m, call.n);
    const auto size = [&](int rows, int cols, int ldim) {
      return static_cast<std::size_t>(std::max(1, row ? rows : cols)) * ldim;
    };
    A_.resize(size(a_rows, a_cols, lda_));
    B_.resize(size(b_rows, b_cols, ldb_));
    C_.resize(size(call.m, call.n, ldc_));
    for (T& v : A_) v = element<T>(random);
    for (T& v : B_) v = element<T>(random);
    for (T& v : C_) v = element<T>(random);
    alpha_ = scalar<T>(random);
    beta_ = scalar<T>(random);
    std::vector<T> mine = C_, theirs = C_;
    if (call.api == 0) {
      const char ta = "NTC"[call.ta - 111], tb = "NTC"[call.tb - 111];
      f_ours_(&ta, &tb, &call.m, &call.n, &call.k, &alpha_, A_.data(), &lda_, B_.data(), &ldb_,
              &beta_, mine.data(), &ldc_, 1, 1);
      f_ref_(&ta, &tb, &call.m, &call.n, &call.k, &alpha_, A_.data(), &lda_, B_.data(), &ldb_,
             &beta_, theirs.data(), &ldc_, 1, 1);
    } else {
      const int layout = row ? kRowMajor : kColMajor;
      c_ours_(layout, call.ta, call.tb, call.m, call.n, call.k, alpha_, A_.data(), lda_, B_.data(),
              ldb_, beta_, mine.data(), ldc_);
      c_ref_(layout, call.ta, call.tb, call.m, call.n, call.k, alpha_, A_.data(), lda_, B_.data(),
             ldb_, beta_, theirs.data(), ldc_);
    }
    std::size_t bad = 0;
    for (std::size_t p = 0; p < C_.size(); ++p) {
      const int major = static_cast<int>(p) / ldc_, minor = static_cast<int>(p) % ldc_;
      const int i = row ? major : minor, j = row ? minor : major;
      if (i >= call.m || j >= call.n) {  // padding: untouched, bit for bit
        if (std::memcmp(&mine[p], &C_[p], sizeof(T)) != 0) ++bad;
      } else if (kind(mine[p]) != kind(theirs[p])) {
        ++bad;
      } else if (kind(mine[p]) == 3 && !(std::fabs(double(mine[p]) - double(theirs[p])) <=
                                         bound(call, p, i, j, row, trans_a, trans_b))) {
        ++bad;
      }
    }
    return bad;
  }

  T alpha() const { return alpha_; }
  T beta() const { return beta_; }

 private:
  // The reference's in-order rounding bound for element p of C: 2(k + 2)·eps·(|beta·c| +
  // Σ|alpha·a·b|), over the finite terms (both sides' finite results have only finite terms).
  double bound(const Call& call, std::size_t p, int i, int j, bool row, bool trans_a,
               bool trans_b) const {
    double scale = beta_ == T(0) ? 0.0 : std::fabs(double(beta_) * double(C_[p]));
    if (!std::isfinite(scale)) scale = 0.0;
    const auto at = [&](const std::vector<T>& x, int ldx, int r, int c) {
      return double(row ? x[std::size_t(r) * ldx + c] : x[std::size_t(c) * ldx + r]);
    };
    for (int l = 0; l < call.k && alpha_ != T(0); ++l) {
      const double a = trans_a ? at(A_, lda_, l, i) : at(A_, lda_, i, l);
      const double b = trans_b ? at(B_, ldb_, j, l) : at(B_, ldb_, l, j);
      const double term = std::fabs(double(alpha_) * a * b);
      if (std::isfinite(term)) scale += term;
    }
    return 2.0 * (call.k + 2) * double(std::numeric_limits<T>::epsilon()) * scale;
  }

  void* ours_;
  void* ref_;
  FGemm<T> f_ours_, f_ref_;
  CGemm<T> c_ours_, c_ref_;
  std::vector<T> A_, B_, C_;
  int lda_ = 1, ldb_ = 1, ldc_ = 1;
  T alpha_{}, beta_{};
};

TEST_CASE_TEMPLATE("gemm with special values agrees with the reference in 20,000 random calls", T,
                   float, double) {
  Fuzz<T> fuzz;
  std::mt19937 random(sizeof(T) == 4 ? 2024 : 1974);
  constexpr int kCalls = 20000;
  int differing = 0, shown = 0;
  for (int c = 0; c < kCalls; ++c) {
    Call call{};
    const std::size_t bad = fuzz.run(random, call);
    if (bad == 0) continue;
    ++differing;
    if (shown++ < 10) {
      MESSAGE("call ", c, ": api ", call.api, " ta ", call.ta, " tb ", call.tb, " m n k ", call.m,
              " ", call.n, " ", call.k, " alpha ", fuzz.alpha(), " beta ", fuzz.beta(), ": ", bad,
              " elements differ");
    }
  }
  CHECK_MESSAGE(differing == 0, differing, " of ", kCalls, " calls differ from the reference");
}

}  // namespace
