// The blocked level-3 BLAS (level3.hpp): trsm, trmm, syrk, syr2k, symm, and for the complex types
// herk, her2k and hemm, written once for float, double, std::complex<float> and
// std::complex<double>. Each is blocked so that the bulk of the work is one "gemm of blocks"
// (gemm_blocks: k::gemm for real types, the complex gemm of complex_gemm.hpp, one real GEMM on
// the complex operands, for complex ones), and so runs on the engine in effect and its thread pool,
// bitwise the same for every thread count, as GEMM is; trsm's diagonal blocks run the
// reference's row form (the engine's trsm_rows kernel for real types, its complex axpy for
// complex ones); trmm is one pass of the engine's trmm_packed (GEMM's loops over op(A)'s
// triangle, each k-block packed once; trmm_1m for complex types, the same pass on the 1m
// method), the real symm one of its symm_packed (A packed from its triangle); a rank update (syrk,
// herk; syr2k and her2k: one per term) is one triangle GEMM (gemmt) of C's triangle. Each function
// has the row-major signature of its kr:: kernel (src/reference/blas.hpp), which is also the
// candidate's.
//
// The reference's semantics hold (docs/kernels.md): alpha == 0, a small problem, or a non-finite
// value (either part of a complex) in alpha or an operand the routine reads runs the kr:: loop,
// which has the reference's zero skips (GEMM multiplies every zero, so an Inf or NaN would
// spread differently); beta == 0 reaches GEMM as beta == 0, which does not read C; Unit
// diagonals and the triangle outside `uplo` are never written and their values never used (GEMM
// sees only blocks off the diagonal; trmm's and the real symm's packing loads the square of A's
// storage and replaces what lies off the triangle before it is used); a Hermitian matrix's
// diagonal is taken as real and herk's and her2k's diagonal of C is left real, as the reference
// leaves it. The choices and their figures:
// docs/decisions.md, "The real level 3 on GEMM" and "The complex level 3 on GEMM".
#include "kernels/level3.hpp"

#include <coheriq/kernels.hpp>

#include <algorithm>
#include <complex>
#include <cstddef>
#include <exception>
#include <mutex>

#include "kernels/candidates.hpp"
#include "kernels/complex_gemm.hpp"
#include "kernels/gemm_driver.hpp"
#include "kernels/level3_support.hpp"
#include "kernels/pool.hpp"
#include "reference/blas.hpp"
#include "reference/blas_rows.hpp"

namespace coheriq::kernels::level3 {

namespace k = coheriq::kernels;
namespace kr = coheriq::kernels::reference::blas;
using std::size_t;

// Triangles and diagonal blocks of at most kBlock rows (kComplexBlock for complex types) are the
// base blocks of trsm (a whole problem of at most kBlock rows, trsm or trmm, runs the kr:: loop);
// the rank updates and symm/hemm take GEMM from order kSmall (below it the kr:: loops are as fast);
// every routine keeps the kr:: loop when its other dimension is below kMinOther. Measured for the
// real types and kept for the complex ones but kComplexBlock: docs/decisions.md.
inline constexpr size_t kBlock = 32;
// Complex base blocks are smaller: chosen when their row operations were the reference engine's
// scalar loops (a smaller block left more of the work to GEMM); their axpy is the engine's
// complex kernel now, and the block was not measured again.
inline constexpr size_t kComplexBlock = 8;
template <class T>
inline constexpr size_t kBaseBlock = is_complex_v<T> ? kComplexBlock : kBlock;
inline constexpr size_t kSmall = 12;
inline constexpr size_t kMinOther = 8;
// A rank update on threads cuts its triangle into diagonal parts of at least this order (each one
// triangle GEMM, gemmt, per term); one of this order or less runs on the calling thread.
inline constexpr size_t kRankBlock = 64;
// Complex symm and hemm expand their matrix into rows of this many bytes at most per GEMM.
inline constexpr size_t kPanelBytes = size_t{4} << 20;

// ------------------------------ Helpers

// The gemm of blocks every routine below is made of: C := alpha·op(A)·op(B) + beta·C, the engine's
// real GEMM for float and double (C and Conj are T and N there), the complex gemm (one real GEMM
// on the complex operands) for the complex types.
template <class T>
void gemm_blocks(Op opa, Op opb, size_t m, size_t n, size_t k, T alpha, const T* a, size_t lda,
                 const T* b, size_t ldb, T beta, T* c, size_t ldc) {
  if constexpr (is_complex_v<T>) {
    // The routine scanned its operands once: a block goes straight to the product (of any size:
    // complex_gemm.hpp says why), but for C := beta·C, which the product does not take.
    if (m == 0 || n == 0) return;
    if (k == 0 || alpha == T(0)) {
      kr::gemm(opa, opb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
    } else {
      real_product(opa, opb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
    }
  } else {
    k::gemm(trans(opa), trans(opb), m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
  }
}

// The row operations of the complex base blocks (the real ones are kernels: trsm_rows, and one
// GEMM for trmm): the engine's complex axpy, and the reference engine's scaling loop (the
// reference's textbook product).
template <class T>
void scale_row(size_t n, T alpha, T* x) {
  kr::scal(n, alpha, x, 1);
}
template <class T>
void add_row(size_t n, T alpha, const T* x, T* y) {
  k::axpy_strided(n, alpha, x, 1, y, 1);
}

// Where a recursion splits n rows: about half, on a multiple of 16 when that leaves both parts.
inline size_t split(size_t n) {
  const size_t half = (n / 2 + 15) / 16 * 16;
  return half < n ? half : n / 2;
}

// ------------------------------ Threads

// Every GEMM call below runs on the pool by itself; what no GEMM call can cut is the rest, the
// base blocks and the order in which a recursion waits for them (a trsm's halves one after the
// other). So a call large enough for threads (driver::threads_for_work) is cut here too: trsm
// and trmm into slices of B's columns (Left) or rows (Right), independent problems of the same
// routine, and a rank update into the diagonal parts of its recursion, which write disjoint
// blocks of C. Inside a slice or part the calls run on its thread (a team of one: pool.hpp).
// Each element of a result is computed as the whole call computes it (GEMM's element does not
// depend on the block it is in, the row operations are elementwise, the rank update's recursion
// is the same), so the results stay bitwise the same for every thread count.

// The threads for `work` multiply-adds of T (a complex one is four real ones).
template <class T>
size_t threads_for(double work) {
  return driver::threads_for_work<real_t<T>>(is_complex_v<T> ? 4 * work : work);
}

// Runs part(p) for p in [0, parts) on the team, then rethrows on the calling thread the first
// exception a part threw (a workspace that could not be allocated); the other parts finish.
template <class Part>
void run_parts(pool::Team& team, size_t parts, Part part) {
  std::mutex failure_mutex;
  std::exception_ptr failure;
  auto guarded = [&](size_t p) noexcept {
    try {
      part(p);
    } catch (...) {
      const std::lock_guard<std::mutex> lock(failure_mutex);
      if (!failure) failure = std::current_exception();
    }
  };
  team.run(parts, guarded);
  if (failure) std::rethrow_exception(failure);
}

// A triangular or symmetric routine's `other` extent (B's and C's columns on the Left, rows on
// the Right) in slices of at least kMinSlice (or `min_slice`), starting on multiples of
// kSliceGrain: slice(lo, hi, scratch), with `scratch_count` elements of scratch each. One slice,
// on the calling thread, when the call is too small for threads or too narrow to cut (its GEMMs
// may then still take threads; a one-pass routine's pass does not).
inline constexpr size_t kMinSlice = 64;
// The real trmm's and symm's slices (one pass each, whose packing is the same for any width) may
// be thinner.
inline constexpr size_t kMinPassSlice = 32;
inline constexpr size_t kSliceGrain = 16;
// The slices' multiply-adds count twice against GEMM's threshold (driver::threads_for_work): at
// the orders near it (LAPACK's panels of 64) the base blocks and the thin GEMMs beside them run
// at about half GEMM's rate (dtrsm of order 64: 12 G multiply-adds/s, dgemm 25, one Zen 3 core),
// so a call takes as long as a GEMM of twice its work, and a second thread pays off as early.
inline constexpr double kSliceWorkWeight = 2.0;
template <class T, class Slice>
void in_slices(size_t order, size_t other, size_t scratch_count, size_t min_slice, Slice slice) {
  const double work = kSliceWorkWeight * 0.5 * static_cast<double>(order) *
                      static_cast<double>(order) * static_cast<double>(other);
  pool::Team team(std::min(threads_for<T>(work), other / min_slice));
  const size_t parts = team.size();
  Workspace<T> scratch(std::max<size_t>(scratch_count, 1) * parts);
  if (parts <= 1) return slice(0, other, scratch.get());
  run_parts(team, parts, [&](size_t p) {
    slice(driver::block_begin(other, parts, kSliceGrain, p),
          driver::block_begin(other, parts, kSliceGrain, p + 1), scratch.get() + p * scratch_count);
  });
}
template <class T, class Slice>
void in_slices(size_t order, size_t other, size_t scratch_count, Slice slice) {
  in_slices<T>(order, other, scratch_count, kMinSlice, slice);
}

// ------------------------------ trsm, trmm

// op(A) of a triangular routine: where its element (r, c) is in storage, its value (conjugated
// for C and Conj), and whether it is lower.
template <class T>
struct Triangular {
  Uplo uplo;
  Op op;
  Diag diag;
  const T* a;
  size_t lda;
  bool t = transposes(op);
  bool lower = (uplo == Uplo::Lower) != t;

  const T* at(size_t r, size_t c) const { return t ? a + c * lda + r : a + r * lda + c; }
  T value(size_t r, size_t c) const {
    return kernels::reference::conj_if(kr::conjugates(op), *at(r, c));
  }
};

// The base blocks: the reference's row form (kr::trsm's order of operations and zero skips) on
// op(A)'s diagonal block at r0. For real types the solve is the engine's trsm_rows kernel
// (kernels_table.hpp: the row form with each element's operations in a fixed order, a strip of B's
// columns in registers at a time); for complex types each row operation is the engine's complex
// axpy or the reference engine's scaling, and the reference's division. Rows of B are b + i·ldb, i
// < m, each n long.
template <class T>
void solve_rows(const Triangular<T>& A, size_t r0, size_t m, size_t n, T alpha, T* b, size_t ldb) {
  if constexpr (!is_complex_v<T>) {
    using Rows = typename Blas3BlockCandidates<T>::trsm_rows;
    coheriq::call<Domain, Rows>(A.uplo, trans(A.t), A.diag, m, n, alpha, A.at(r0, r0), A.lda, b,
                                ldb);
  } else {
    for (size_t step = 0; step < m; ++step) {
      const size_t i = A.lower ? step : m - 1 - step;
      T* bi = b + i * ldb;
      if (alpha != T(1)) scale_row(n, alpha, bi);
      const size_t lo = A.lower ? 0 : i + 1, hi = A.lower ? i : m;
      for (size_t l = lo; l < hi; ++l) {
        const T t = A.value(r0 + i, r0 + l);
        if (t != T(0)) add_row(n, -t, b + l * ldb, bi);
      }
      if (A.diag == Diag::NonUnit) {
        const T d = A.value(r0 + i, r0 + i);
        for (size_t j = 0; j < n; ++j) bi[j] = kernels::reference::div(bi[j], d);
      }
    }
  }
}
// The Right-side base block, columns [c0, c0 + n) of B (n <= kBlock): X·op(A) = (op(A)ᵀ·Xᵀ)ᵀ, so
// chunks of rows of B are transposed into `scratch` (kBlock x kChunk), done as Left-side rows
// with op(A) transposed (N <-> T, C <-> Conj), and transposed back.
inline constexpr size_t kChunk = 128;
template <class T, class Rows>
void by_transposes(const Triangular<T>& A, size_t c0, size_t n, size_t m, T alpha, T* b, size_t ldb,
                   T* scratch, Rows rows) {
  const Triangular<T> At{A.uplo, kr::transposed(A.op), A.diag, A.a, A.lda};
  for (size_t i0 = 0; i0 < m; i0 += kChunk) {
    const size_t count = std::min(kChunk, m - i0);
    T* block = b + i0 * ldb + c0;
    for (size_t i = 0; i < count; ++i)
      for (size_t j = 0; j < n; ++j) scratch[j * count + i] = block[i * ldb + j];
    rows(At, c0, n, count, alpha, scratch, count);
    for (size_t i = 0; i < count; ++i)
      for (size_t j = 0; j < n; ++j) block[i * ldb + j] = scratch[j * count + i];
  }
}

// Rows [r0, r0 + m) of B := op(A)⁻¹·alpha·B, with op(A)'s diagonal block there: the half that
// depends on nothing first, then the other half's right-hand side less its product with it.
template <class T>
void solve_left(const Triangular<T>& A, size_t r0, size_t m, size_t n, T alpha, T* b, size_t ldb) {
  if (m <= kBaseBlock<T>) return solve_rows(A, r0, m, n, alpha, b + r0 * ldb, ldb);
  const size_t m1 = split(m), m2 = m - m1, r1 = r0 + m1;
  if (A.lower) {
    solve_left(A, r0, m1, n, alpha, b, ldb);
    gemm_blocks(A.op, Op::N, m2, n, m1, T(-1), A.at(r1, r0), A.lda, b + r0 * ldb, ldb, alpha,
                b + r1 * ldb, ldb);
    solve_left(A, r1, m2, n, T(1), b, ldb);
  } else {
    solve_left(A, r1, m2, n, alpha, b, ldb);
    gemm_blocks(A.op, Op::N, m1, n, m2, T(-1), A.at(r0, r1), A.lda, b + r1 * ldb, ldb, alpha,
                b + r0 * ldb, ldb);
    solve_left(A, r0, m1, n, T(1), b, ldb);
  }
}
// Columns [c0, c0 + n) of B := alpha·B·op(A)⁻¹.
template <class T>
void solve_right(const Triangular<T>& A, size_t c0, size_t n, size_t m, T alpha, T* b, size_t ldb,
                 T* scratch) {
  if (n <= kBaseBlock<T>) return by_transposes(A, c0, n, m, alpha, b, ldb, scratch, solve_rows<T>);
  const size_t n1 = split(n), n2 = n - n1, c1 = c0 + n1;
  if (A.lower) {  // [X1·A11 + X2·A21, X2·A22] = alpha·[B1, B2]
    solve_right(A, c1, n2, m, alpha, b, ldb, scratch);
    gemm_blocks(Op::N, A.op, m, n1, n2, T(-1), b + c1, ldb, A.at(c1, c0), A.lda, alpha, b + c0,
                ldb);
    solve_right(A, c0, n1, m, T(1), b, ldb, scratch);
  } else {  // [X1·A11, X1·A12 + X2·A22] = alpha·[B1, B2]
    solve_right(A, c0, n1, m, alpha, b, ldb, scratch);
    gemm_blocks(Op::N, A.op, m, n2, n1, T(-1), b + c0, ldb, A.at(c0, c1), A.lda, alpha, b + c1,
                ldb);
    solve_right(A, c1, n2, m, T(1), b, ldb, scratch);
  }
}

// Whether a triangular call goes to the blocked form: big enough, alpha != 0, everything it reads
// finite (A's triangle and B, both O(n²) next to the O(n³) product).
template <class T>
bool blocked_triangular(Side side, Uplo uplo, Diag diag, size_t m, size_t n, T alpha, const T* a,
                        size_t lda, const T* b, size_t ldb) {
  const size_t order = side == Side::Left ? m : n, other = side == Side::Left ? n : m;
  return order > kBlock && other >= kMinOther && alpha != T(0) && finite_scalar(alpha) &&
         finite_triangle(uplo, diag, order, a, lda) && finite_matrix(m, n, b, ldb);
}

template <class T>
void trsm(Side side, Uplo uplo, Op op, Diag diag, size_t m, size_t n, T alpha, const T* a,
          size_t lda, T* b, size_t ldb) {
  if (blocked_triangular(side, uplo, diag, m, n, alpha, a, lda, b, ldb)) {
    const Triangular<T> A{uplo, op, diag, a, lda};
    if (side == Side::Left) {
      return in_slices<T>(m, n, 0, [&](size_t lo, size_t hi, T*) {
        solve_left(A, 0, m, hi - lo, alpha, b + lo, ldb);
      });
    }
    return in_slices<T>(n, m, kBlock * kChunk, [&](size_t lo, size_t hi, T* scratch) {
      solve_right(A, 0, n, hi - lo, alpha, b + lo * ldb, ldb, scratch);
    });
  }
  kr::trsm(side, uplo, op, diag, m, n, alpha, a, lda, b, ldb);
}
template <class T>
void trmm(Side side, Uplo uplo, Op op, Diag diag, size_t m, size_t n, T alpha, const T* a,
          size_t lda, T* b, size_t ldb) {
  if (blocked_triangular(side, uplo, diag, m, n, alpha, a, lda, b, ldb)) {
    // One pass of the engine's trmm_packed (trmm_1m for complex types, on the 1m method) a
    // slice: GEMM's loops over op(A)'s triangle, each k-block packed once (its own slices are
    // thinner than a recursion's: a pass cannot be cut among threads the way GEMM calls are).
    const auto pass = [&](size_t rows, size_t cols, T* slice) {
      if constexpr (is_complex_v<T>) {
        driver::trmm_1m(side, uplo, op, diag, rows, cols, alpha, a, lda, slice, ldb);
      } else {
        driver::trmm_packed(side, uplo, trans(op), diag, rows, cols, alpha, a, lda, slice, ldb);
      }
    };
    if (side == Side::Left) {
      return in_slices<T>(m, n, 0, kMinPassSlice,
                          [&](size_t lo, size_t hi, T*) { pass(m, hi - lo, b + lo); });
    }
    return in_slices<T>(n, m, 0, kMinPassSlice,
                        [&](size_t lo, size_t hi, T*) { pass(hi - lo, n, b + lo * ldb); });
  }
  kr::trmm(side, uplo, op, diag, m, n, alpha, a, lda, b, ldb);
}

// ------------------------------ syrk, syr2k, herk, her2k

// op(M) of a rank update: row i of op(M) (n x k) is row i of M (N) or column i (T, C).
template <class T>
struct Operand {
  const T* m;
  size_t ld;
  bool t;
  const T* row(size_t i) const { return t ? m + i : m + i * ld; }
};

// The update C := alpha·op(A)·op(B)' (+ alpha2·op(B)·op(A)' when `two`) + beta·C on C's `uplo`
// triangle, ' being ᵀ (syrk, syr2k: alpha2 = alpha) or ᴴ (`hermitian`: herk, her2k, alpha2 =
// conj(alpha), beta real, C's diagonal kept real).
template <class T>
struct RankUpdate {
  bool two, hermitian;
  Uplo uplo;
  Operand<T> a, b;
  size_t k;
  T alpha, alpha2, beta;
  T* c;
  size_t ldc;

  // How op(X) and op(Y)' enter a GEMM as stored blocks of X and Y.
  Op first(const Operand<T>& x) const { return x.t ? (hermitian ? Op::C : Op::T) : Op::N; }
  Op second(const Operand<T>& y) const { return y.t ? Op::N : (hermitian ? Op::C : Op::T); }

  // C's block (rows i0.., columns j0..) := s·op(X)_I·op(Y)_J' + beta_c·C.
  void product(const Operand<T>& x, const Operand<T>& y, size_t rows, size_t cols, size_t i0,
               size_t j0, T s, T beta_c) const {
    gemm_blocks(first(x), second(y), rows, cols, k, s, x.row(i0), x.ld, y.row(j0), y.ld, beta_c,
                c + i0 * ldc + j0, ldc);
  }

  // The `uplo` triangle of C's diagonal block [i0, i0 + n) := s·op(X)_I·op(Y)_I' + beta_c·C, by
  // the engine's triangle GEMM (gemmt: gemm's packed loops, packing once, the tiles off the
  // triangle skipped, as BLIS computes a rank update), each element as GEMM computes it; a complex
  // one on elements two reals wide, as the complex gemm computes it (real_triangle_product, which
  // keeps a Hermitian diagonal real as the reference does).
  void triangle(const Operand<T>& x, const Operand<T>& y, size_t i0, size_t n, T s,
                T beta_c) const {
    T* const block = c + i0 * ldc + i0;
    if constexpr (is_complex_v<T>) {
      real_triangle_product(hermitian, uplo, first(x), second(y), n, k, s, x.row(i0), x.ld,
                            y.row(i0), y.ld, beta_c, block, ldc);
    } else {
      driver::gemmt(uplo, trans(first(x)), trans(second(y)), n, 1, k, s, x.row(i0), x.ld, y.row(i0),
                    y.ld, beta_c, block, ldc);
    }
  }

  // C's `uplo` triangle on [i0, i0 + n): the first term with beta, then the second added, as the
  // blocks between halves (below) form them, so every element has the same bits in either.
  void diagonal(size_t i0, size_t n) const {
    triangle(a, b, i0, n, alpha, beta);
    if (two) triangle(b, a, i0, n, alpha2, T(1));
  }

  // The block of C between the two diagonal halves of [i0, i0 + n) split at i1, by GEMM.
  // Lower: rows [i1, i0 + n) x columns [i0, i1); Upper: the transposed block.
  void between(size_t i0, size_t n, size_t i1) const {
    const size_t n1 = i1 - i0, n2 = n - n1;
    const size_t rows = uplo == Uplo::Lower ? n2 : n1, cols = uplo == Uplo::Lower ? n1 : n2;
    const size_t r0 = uplo == Uplo::Lower ? i1 : i0, c0 = uplo == Uplo::Lower ? i0 : i1;
    product(a, b, rows, cols, r0, c0, alpha, beta);
    if (two) product(b, a, rows, cols, r0, c0, alpha2, T(1));
  }

  // The recursion's top `levels` levels: their blocks between halves (each GEMM on the pool),
  // and the diagonal triangles below them appended to `parts` (each [i0, i0 + n)).
  void top(size_t i0, size_t n, size_t levels, size_t (*parts)[2], size_t& count) const {
    if (levels == 0 || n <= kRankBlock) {
      parts[count][0] = i0;
      parts[count][1] = n;
      ++count;
      return;
    }
    const size_t i1 = i0 + split(n);
    top(i0, i1 - i0, levels - 1, parts, count);
    between(i0, n, i1);
    top(i1, i0 + n - i1, levels - 1, parts, count);
  }
};

// Whether a rank update goes to the blocked form: big enough, alpha != 0, alpha and the operands
// finite (C need not be: beta·C is formed as the reference forms it).
template <class T>
bool blocked_rank(Op op, size_t n, size_t k, T alpha, const T* a, size_t lda, const T* b,
                  size_t ldb) {
  const bool t = transposes(op);
  const size_t rows = t ? k : n, cols = t ? n : k;
  return n >= kSmall && k >= kMinOther && alpha != T(0) && finite_scalar(alpha) &&
         finite_matrix(rows, cols, a, lda) && (b == nullptr || finite_matrix(rows, cols, b, ldb));
}

template <class T>
void rank_update(bool two, bool hermitian, Uplo uplo, Op op, size_t n, size_t k, T alpha,
                 const T* a, size_t lda, const T* b, size_t ldb, T beta, T* c, size_t ldc) {
  const bool t = transposes(op);
  const T alpha2 = kernels::reference::conj_if(hermitian, alpha);
  const RankUpdate<T> update{two,   hermitian, uplo, {a, lda, t}, {b, ldb, t}, k,
                             alpha, alpha2,    beta, c,           ldc};
  const double work = 0.5 * static_cast<double>(n) * static_cast<double>(n) *
                      static_cast<double>(k) * (two ? 2 : 1);
  const size_t threads = threads_for<T>(work);
  if (threads <= 1 || n <= kRankBlock) return update.diagonal(0, n);
  // Threads: the top levels first, each GEMM between halves on the pool, until there are at
  // least two diagonal parts a thread (at most kMostParts), then the parts on a team.
  constexpr size_t kMostLevels = 4, kMostParts = size_t{1} << kMostLevels;
  size_t levels = 1;
  while (levels < kMostLevels && (size_t{1} << levels) < 2 * threads) ++levels;
  size_t parts[kMostParts][2];
  size_t count = 0;
  update.top(0, n, levels, parts, count);
  pool::Team team(std::min(threads, count));
  run_parts(team, count, [&](size_t p) { update.diagonal(parts[p][0], parts[p][1]); });
}

template <class T>
void syrk(Uplo uplo, Op op, size_t n, size_t k, T alpha, const T* a, size_t lda, T beta, T* c,
          size_t ldc) {
  if (blocked_rank<T>(op, n, k, alpha, a, lda, nullptr, 0))
    return rank_update(false, false, uplo, op, n, k, alpha, a, lda, a, lda, beta, c, ldc);
  kr::syrk(uplo, op, n, k, alpha, a, lda, beta, c, ldc);
}
template <class T>
void syr2k(Uplo uplo, Op op, size_t n, size_t k, T alpha, const T* a, size_t lda, const T* b,
           size_t ldb, T beta, T* c, size_t ldc) {
  if (blocked_rank(op, n, k, alpha, a, lda, b, ldb))
    return rank_update(true, false, uplo, op, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
  kr::syr2k(uplo, op, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}
template <class T>
void herk(Uplo uplo, Op op, size_t n, size_t k, real_t<T> alpha, const T* a, size_t lda,
          real_t<T> beta, T* c, size_t ldc) {
  if (blocked_rank<T>(op, n, k, T(alpha), a, lda, nullptr, 0))
    return rank_update(false, true, uplo, op, n, k, T(alpha), a, lda, a, lda, T(beta), c, ldc);
  kr::herk(uplo, op, n, k, alpha, a, lda, beta, c, ldc);
}
template <class T>
void her2k(Uplo uplo, Op op, size_t n, size_t k, T alpha, const T* a, size_t lda, const T* b,
           size_t ldb, real_t<T> beta, T* c, size_t ldc) {
  if (blocked_rank(op, n, k, alpha, a, lda, b, ldb))
    return rank_update(true, true, uplo, op, n, k, alpha, a, lda, b, ldb, T(beta), c, ldc);
  kr::her2k(uplo, op, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

// ------------------------------ symm, hemm

// The block of rows [r0, r0 + rows) and columns [c0, c0 + cols) of the symmetric (or
// `hermitian`) matrix given by A's `uplo` triangle, in full (`cols` apart): the mirrored elements
// conjugated and the diagonal's imaginary part taken as zero when Hermitian, as the reference
// takes them.
template <class T>
void expand_block(bool hermitian, Uplo uplo, const T* a, size_t lda, size_t r0, size_t rows,
                  size_t c0, size_t cols, T* out) {
  using kernels::reference::conj_if;
  // Stored in row i: j >= i (Upper) or j <= i (Lower), copied row by row; the rest is A(j, i) of
  // row j, a column of A, copied in square tiles, each row of a tile's output from one column of
  // A (a read kTile rows long, written along the output's row). Element by element along the
  // rows of the output, each element was on a line of its own (20% of an ssymm at n = 256 in
  // `perf`); tiles read along rows of A and written down the output's columns, with a test per
  // element, took 1.4 ms at n = 1024 (f32 and f64), these 0.37-0.40 ms (docs/decisions.md).
  const bool upper = uplo == Uplo::Upper;
  const size_t c1 = c0 + cols;
  for (size_t i = r0; i < r0 + rows; ++i) {
    const size_t lo = upper ? std::max(i, c0) : c0, hi = upper ? c1 : std::min(i + 1, c1);
    if (lo < hi) std::copy(a + i * lda + lo, a + i * lda + hi, out + (i - r0) * cols + lo - c0);
  }
  constexpr size_t kTile = 8;
  for (size_t i0 = r0; i0 < r0 + rows; i0 += kTile) {
    const size_t i1 = std::min(r0 + rows, i0 + kTile);
    // The mirrored columns of these rows: j < i (Upper) or j > i (Lower), some i of the tile.
    const size_t j_begin = upper ? c0 : std::max(c0, i0 + 1);
    const size_t j_end = upper ? std::min(c1, i1 - 1) : c1;
    for (size_t j0 = j_begin; j0 < j_end; j0 += kTile) {
      const size_t j1 = std::min(j_end, j0 + kTile);
      for (size_t i = i0; i < i1; ++i) {
        const size_t lo = upper ? j0 : std::max(j0, i + 1), hi = upper ? std::min(j1, i) : j1;
        T* row = out + (i - r0) * cols;
        for (size_t j = lo; j < hi; ++j) row[j - c0] = conj_if(hermitian, a[j * lda + i]);
      }
    }
  }
  if (hermitian) {
    for (size_t i = std::max(r0, c0); i < std::min(r0 + rows, c1); ++i)
      out[(i - r0) * cols + i - c0] = T(kernels::reference::real_part(a[i * lda + i]));
  }
}

// C := alpha·A·B + beta·C (Left) or alpha·B·A + beta·C (Right): panels of A expanded in full, each
// the operand of one GEMM as stored (Left: rows J of A give those rows of C; Right: columns J of
// A give those columns of C). Columns of A for the Right side rather than its rows J transposed
// (A(J, :)ᵀ = A(:, J), A(J, :)ᴴ when Hermitian): the same values in the same order of sums, so
// the same bits, and GEMM packs an operand as stored faster than a transposed one (column-major
// ?symm L at n = 1024, this Right: 0.91-1.00 of the time for s, 0.95-1.03 for d, c and z on a
// Zen 5 guest). The complex types' form (the real ones are one pass of the engine's symm_packed).
template <class T>
void symmetric_product(bool hermitian, Side side, Uplo uplo, size_t m, size_t n, T alpha,
                       const T* a, size_t lda, const T* b, size_t ldb, T beta, T* c, size_t ldc) {
  const size_t order = side == Side::Left ? m : n;
  const size_t panel = std::min(order, std::max(kPanelBytes / sizeof(T) / order, kBlock));
  Workspace<T> expanded(panel * order);
  T* const x = expanded.get();
  for (size_t p0 = 0; p0 < order; p0 += panel) {
    const size_t count = std::min(panel, order - p0);
    if (side == Side::Left) {
      expand_block(hermitian, uplo, a, lda, p0, count, 0, order, x);
      gemm_blocks(Op::N, Op::N, count, n, m, alpha, x, m, b, ldb, beta, c + p0 * ldc, ldc);
    } else {
      expand_block(hermitian, uplo, a, lda, 0, order, p0, count, x);
      gemm_blocks(Op::N, Op::N, m, count, n, alpha, b, ldb, x, count, beta, c + p0, ldc);
    }
  }
}

// Whether a symmetric or Hermitian product goes to the blocked forms: big enough, alpha != 0,
// everything it reads finite (A's triangle and B).
template <class T>
bool symmetric_blocked(Side side, Uplo uplo, size_t m, size_t n, T alpha, const T* a, size_t lda,
                       const T* b, size_t ldb) {
  const size_t order = side == Side::Left ? m : n, other = side == Side::Left ? n : m;
  return order >= kSmall && other >= kMinOther && alpha != T(0) && finite_scalar(alpha) &&
         finite_triangle(uplo, Diag::NonUnit, order, a, lda) && finite_matrix(m, n, b, ldb);
}

template <class T>
void symm(Side side, Uplo uplo, size_t m, size_t n, T alpha, const T* a, size_t lda, const T* b,
          size_t ldb, T beta, T* c, size_t ldc) {
  if (!symmetric_blocked(side, uplo, m, n, alpha, a, lda, b, ldb)) {
    return kr::symm(side, uplo, m, n, alpha, a, lda, b, ldb, beta, c, ldc);
  }
  if constexpr (is_complex_v<T>) {
    symmetric_product(false, side, uplo, m, n, alpha, a, lda, b, ldb, beta, c, ldc);
  } else {
    // One pass of the engine's symm_packed a slice of C's columns (Left) or rows (Right): GEMM's
    // loops with A packed from its triangle, no expanded copy of it. (in_slices counts the work
    // of half a square twice: a symm's whole square, once.)
    const size_t order = side == Side::Left ? m : n, other = side == Side::Left ? n : m;
    in_slices<T>(order, other, 0, kMinPassSlice, [&](size_t lo, size_t hi, T*) {
      if (side == Side::Left) {
        driver::symm_packed(side, uplo, m, hi - lo, alpha, a, lda, b + lo, ldb, beta, c + lo, ldc);
      } else {
        driver::symm_packed(side, uplo, hi - lo, n, alpha, a, lda, b + lo * ldb, ldb, beta,
                            c + lo * ldc, ldc);
      }
    });
  }
}
template <class T>
void hemm(Side side, Uplo uplo, size_t m, size_t n, T alpha, const T* a, size_t lda, const T* b,
          size_t ldb, T beta, T* c, size_t ldc) {
  if (!symmetric_blocked(side, uplo, m, n, alpha, a, lda, b, ldb)) {
    return kr::hemm(side, uplo, m, n, alpha, a, lda, b, ldb, beta, c, ldc);
  }
  symmetric_product(true, side, uplo, m, n, alpha, a, lda, b, ldb, beta, c, ldc);
}

#define COHERIQ_LEVEL3_INSTANTIATE(T)                                                             \
  template void trsm<T>(Side, Uplo, Op, Diag, size_t, size_t, T, const T*, size_t, T*, size_t);   \
  template void trmm<T>(Side, Uplo, Op, Diag, size_t, size_t, T, const T*, size_t, T*, size_t);   \
  template void syrk<T>(Uplo, Op, size_t, size_t, T, const T*, size_t, T, T*, size_t);            \
  template void syr2k<T>(Uplo, Op, size_t, size_t, T, const T*, size_t, const T*, size_t, T, T*,  \
                         size_t);                                                                 \
  template void symm<T>(Side, Uplo, size_t, size_t, T, const T*, size_t, const T*, size_t, T, T*, \
                        size_t);
COHERIQ_LEVEL3_INSTANTIATE(float)
COHERIQ_LEVEL3_INSTANTIATE(double)
COHERIQ_LEVEL3_INSTANTIATE(std::complex<float>)
COHERIQ_LEVEL3_INSTANTIATE(std::complex<double>)
#undef COHERIQ_LEVEL3_INSTANTIATE
#define COHERIQ_LEVEL3_INSTANTIATE_COMPLEX(T)                                                     \
  template void hemm<T>(Side, Uplo, size_t, size_t, T, const T*, size_t, const T*, size_t, T, T*, \
                        size_t);                                                                  \
  template void herk<T>(Uplo, Op, size_t, size_t, real_t<T>, const T*, size_t, real_t<T>, T*,     \
                        size_t);                                                                  \
  template void her2k<T>(Uplo, Op, size_t, size_t, T, const T*, size_t, const T*, size_t,         \
                         real_t<T>, T*, size_t);                                                  \
  template void gemm<T>(Op, Op, size_t, size_t, size_t, T, const T*, size_t, const T*, size_t, T, \
                        T*, size_t);
COHERIQ_LEVEL3_INSTANTIATE_COMPLEX(std::complex<float>)
COHERIQ_LEVEL3_INSTANTIATE_COMPLEX(std::complex<double>)
#undef COHERIQ_LEVEL3_INSTANTIATE_COMPLEX

}  // namespace coheriq::kernels::level3
