// The public kernel functions of <coheriq/kernels.hpp>: validate, then forward to the engine in
// effect with coheriq::call (one pointer load and one indirect call once the domain is locked).
//
// Arguments are checked before the first coheriq::call, so a rejected call changes nothing and
// does not lock the domain. The GEMMs are then run by the driver (gemm_driver.cpp: workspace,
// threads, the cut of C). Baseline code: it and the driver own every allocation the engines need.
#include <coheriq/kernels.hpp>

#include <algorithm>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <new>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>

#include "kernels/candidates.hpp"
#include "kernels/gemm_driver.hpp"
#include "kernels/packed_access.hpp"

namespace coheriq::kernels {
namespace {

// Registers the domain when the program links this file, so that coheriq::domains() lists it
// before any kernel runs. Materializing only reads constant tables: no engine code runs.
[[maybe_unused]] const bool kDomainMaterialized = (coheriq::materialize<Domain>(), true);

// ------------------------------ Argument checks

std::string_view name_of(Trans t) { return t == Trans::N ? "Trans::N" : "Trans::T"; }
std::string_view name_of(Op op) {
  switch (op) {
    case Op::N:
      return "Op::N";
    case Op::T:
      return "Op::T";
    case Op::C:
      return "Op::C";
    case Op::Conj:
      return "Op::Conj";
  }
  return "Op(?)";
}

[[noreturn]] void throw_invalid(std::string_view function, const std::string& what) {
  throw std::invalid_argument("coheriq: " + std::string(function) + ": " + what);
}

// No array is larger than PTRDIFF_MAX bytes (pointer differences must be representable, and
// malloc refuses more), so sizes that describe a larger one cannot be right. Rejecting them
// before any work also keeps every offset computed from them (rows·ld, i·inc) from overflowing.
constexpr std::size_t kMaxArrayBytes = static_cast<std::size_t>(PTRDIFF_MAX);

// Whether an array argument fits in memory: it spans (rows − 1)·ld + cols elements of
// `element_bytes` (a matrix: rows of cols elements, ld apart; a strided vector: n rows of 1,
// |inc| apart), none when rows or cols is 0.
bool fits(std::size_t rows, std::size_t ld, std::size_t cols, std::size_t element_bytes) {
  if (rows == 0 || cols == 0) return true;
  std::size_t elements = 0;
  const bool overflow = __builtin_mul_overflow(rows - 1, ld, &elements) ||
                        __builtin_add_overflow(elements, cols, &elements);
  return !overflow && elements <= kMaxArrayBytes / element_bytes;
}

// `argument` (its `shape`, "n = 5 elements") does not fit in memory; `sizes` are the arguments
// that say so.
[[noreturn]] void throw_too_large(std::string_view function, std::string_view argument,
                                  const std::string& shape, const std::string& sizes) {
  const std::string name(argument);
  throw_invalid(function, name + " (" + shape +
                              ") spans more bytes than an array can hold (PTRDIFF_MAX); pass the " +
                              sizes + " of " + name + " as allocated");
}

// ------------------------------ Vectors

// The vectors of a BLAS-1 or vector-math call in the order the candidate list passes them:
// after n, each vector's pointer, followed by its increment in the _strided kernels, with
// scalars (axpy's and scal's a) in between. Vectors are x, then y. Each must fit in memory.
constexpr std::string_view kVectorNames[] = {"x", "y"};
constexpr std::string_view kIncrementNames[] = {"incx", "incy"};

void check_vectors(std::string_view, std::size_t, std::size_t) {}
template <class T, class... Rest>
void check_vectors(std::string_view function, std::size_t n, std::size_t vector, const T*,
                   std::ptrdiff_t inc, const Rest&... rest);
template <class T, class... Rest>
void check_vectors(std::string_view function, std::size_t n, std::size_t vector, const T*,
                   const Rest&... rest);
template <class Scalar, class... Rest, std::enable_if_t<std::is_arithmetic_v<Scalar>, int> = 0>
void check_vectors(std::string_view function, std::size_t n, std::size_t vector, Scalar,
                   const Rest&... rest) {
  check_vectors(function, n, vector, rest...);
}
template <class R, class... Rest>
void check_vectors(std::string_view function, std::size_t n, std::size_t vector, std::complex<R>,
                   const Rest&... rest) {
  check_vectors(function, n, vector, rest...);
}
// A complex dot's result (one element, last).
template <class R>
void check_vectors(std::string_view, std::size_t, std::size_t, std::complex<R>*) {}

// Vector `vector` (0: x, 1: y) of n elements does not fit in memory; `inc` is its increment in
// the _strided kernels. Out of line: the checks below stay a compare on the kernels' path.
[[noreturn]] void throw_vector_too_large(std::string_view function, std::size_t vector,
                                         std::size_t n, std::optional<std::ptrdiff_t> inc) {
  const std::string count = "n = " + std::to_string(n) + " elements";
  if (!inc) throw_too_large(function, kVectorNames[vector], count, "n");
  const std::string inc_name(kIncrementNames[vector]);
  throw_too_large(function, kVectorNames[vector],
                  count + ", " + inc_name + " = " + std::to_string(*inc) + " apart",
                  "n and " + inc_name);
}

// A strided vector: n elements |inc| apart.
template <class T, class... Rest>
void check_vectors(std::string_view function, std::size_t n, std::size_t vector, const T*,
                   std::ptrdiff_t inc, const Rest&... rest) {
  // |inc| in std::size_t: exact for every ptrdiff_t, PTRDIFF_MIN included.
  const std::size_t apart =
      inc < 0 ? std::size_t{0} - static_cast<std::size_t>(inc) : static_cast<std::size_t>(inc);
  if (!fits(n, apart, 1, sizeof(T))) throw_vector_too_large(function, vector, n, inc);
  check_vectors(function, n, vector + 1, rest...);
}

// A contiguous vector: n elements.
template <class T, class... Rest>
void check_vectors(std::string_view function, std::size_t n, std::size_t vector, const T*,
                   const Rest&... rest) {
  if (!fits(n, 1, 1, sizeof(T))) throw_vector_too_large(function, vector, n, std::nullopt);
  check_vectors(function, n, vector + 1, rest...);
}

// check_vectors for the function `name`, called with the candidate list's arguments:
// VectorCheck{"dot"}(n, x, y).
struct VectorCheck {
  std::string_view name;
  template <class... Args>
  void operator()(std::size_t n, const Args&... args) const {
    check_vectors(name, n, 0, args...);
  }
};

// ------------------------------ Matrices

// A matrix argument as stored: `rows` rows of `cols` elements, `ld` elements apart, each count
// named as the operand dimension it is (`how` names the Trans or Op it is stored for, when the
// operand may be transposed: "Trans::T").
struct Stored {
  std::string_view matrix;
  std::string_view rows_name;
  std::size_t rows;
  std::string_view cols_name;
  std::size_t cols;
  std::string_view ld_name;
  std::size_t ld;
  std::string_view how;
};

// op(A) is m x k: stored m x k for Trans::N, k x m for Trans::T.
Stored stored_a(std::optional<Trans> ta, std::size_t m, std::size_t k, std::size_t lda) {
  const std::string_view how = ta ? name_of(*ta) : std::string_view();
  if (ta == Trans::T) return {"A", "k", k, "m", m, "lda", lda, how};
  return {"A", "m", m, "k", k, "lda", lda, how};
}
// op(B) is k x n: stored k x n for Trans::N, n x k for Trans::T.
Stored stored_b(std::optional<Trans> tb, std::size_t k, std::size_t n, std::size_t ldb) {
  const std::string_view how = tb ? name_of(*tb) : std::string_view();
  if (tb == Trans::T) return {"B", "n", n, "k", k, "ldb", ldb, how};
  return {"B", "k", k, "n", n, "ldb", ldb, how};
}
Stored stored_c(std::size_t m, std::size_t n, std::size_t ldc) {
  return {"C", "m", m, "n", n, "ldc", ldc, {}};
}
// op(X) (rows x cols, its dimensions named) of a BLAS-3 call: stored as it is for Op::N and
// Op::Conj, transposed for Op::T and Op::C.
Stored stored_op(std::string_view matrix, Op op, std::string_view rows_name, std::size_t rows,
                 std::string_view cols_name, std::size_t cols, std::string_view ld_name,
                 std::size_t ld) {
  if (op == Op::T || op == Op::C)
    return {matrix, cols_name, cols, rows_name, rows, ld_name, ld, name_of(op)};
  return {matrix, rows_name, rows, cols_name, cols, ld_name, ld, name_of(op)};
}

// The leading dimension must hold a row of the matrix as stored, and the matrix must fit in
// memory. (A packed matrix holds k·n elements, no more than B spans: pack_b's allocation is
// covered too.)
// A passing check builds no string: gemm of order 8 runs in tens of nanoseconds, and three names
// built per call were a quarter of it (perf, small_nn_call.f32/8). The message is built out of
// line (report_matrix); check_matrix is the two tests (holds).
[[gnu::cold, gnu::noinline]] void report_matrix(std::string_view function, const Stored& s,
                                                std::size_t element_bytes) {
  const auto with_trans = [&] {
    return s.how.empty() ? std::string() : " for " + std::string(s.how);
  };
  if (s.ld < s.cols) {
    const std::string ld_name(s.ld_name);
    throw_invalid(function, ld_name + " = " + std::to_string(s.ld) + " is smaller than a row of " +
                                std::string(s.matrix) + " (" + std::string(s.cols_name) + " = " +
                                std::to_string(s.cols) + with_trans() + "); pass " + ld_name +
                                " >= " + std::to_string(s.cols));
  }
  if (!fits(s.rows, s.ld, s.cols, element_bytes)) {
    const std::string ld_name(s.ld_name);
    throw_too_large(function, s.matrix,
                    std::string(s.rows_name) + " = " + std::to_string(s.rows) + " rows of " +
                        std::string(s.cols_name) + " = " + std::to_string(s.cols) + " elements" +
                        with_trans() + ", " + ld_name + " = " + std::to_string(s.ld) + " apart",
                    std::string(s.rows_name) + ", " + std::string(s.cols_name) + " and " + ld_name);
  }
}
bool holds(const Stored& s, std::size_t element_bytes) {
  return s.ld >= s.cols && fits(s.rows, s.ld, s.cols, element_bytes);
}
void check_matrix(std::string_view function, const Stored& s, std::size_t element_bytes) {
  if (!holds(s, element_bytes)) report_matrix(function, s, element_bytes);
}

// The error of a gemm whose operands check_gemm found not to hold; out of line, so that the
// passing checks, inline in each caller, save no registers and build no frame (a sixth of a
// call of an order-4 product when they shared one).
template <class T>
[[gnu::noinline, gnu::cold]] void report_gemm(Trans ta, Trans tb, std::size_t m, std::size_t n,
                                              std::size_t k, std::size_t lda, std::size_t ldb,
                                              std::size_t ldc, std::string_view function) {
  check_matrix(function, stored_a(ta, m, k, lda), sizeof(T));
  check_matrix(function, stored_b(tb, k, n, ldb), sizeof(T));
  check_matrix(function, stored_c(m, n, ldc), sizeof(T));
}

template <class T>
inline void check_gemm(Trans ta, Trans tb, std::size_t m, std::size_t n, std::size_t k,
                       std::size_t lda, std::size_t ldb, std::size_t ldc,
                       std::string_view function = "gemm") {
  // The three tests on values only (no Stored reaches memory when they pass).
  if (holds(stored_a(ta, m, k, lda), sizeof(T)) && holds(stored_b(tb, k, n, ldb), sizeof(T)) &&
      holds(stored_c(m, n, ldc), sizeof(T))) {
    return;
  }
  report_gemm<T>(ta, tb, m, n, k, lda, ldb, ldc, function);
}

// A strided batch: each operand's `batch` matrices, `stride` elements apart, must fit in memory
// together, and the C_i must not overlap: one after the other (stride_c at least a C's span), or
// interleaved by rows (all of them side by side within one row's ldc).
template <class T>
void check_batch_strided(Trans ta, Trans tb, std::size_t m, std::size_t n, std::size_t k,
                         std::size_t lda, std::size_t stride_a, std::size_t ldb,
                         std::size_t stride_b, std::size_t ldc, std::size_t stride_c,
                         std::size_t batch) {
  constexpr std::string_view function = "gemm_batch_strided";
  check_gemm<T>(ta, tb, m, n, k, lda, ldb, ldc, function);
  if (batch == 0) return;
  const auto span_of = [](const Stored& s) {
    return s.rows == 0 || s.cols == 0 ? std::size_t{0} : (s.rows - 1) * s.ld + s.cols;
  };
  const auto check_span = [&](const Stored& s, std::string_view stride_name, std::size_t stride) {
    if (fits(batch, stride, span_of(s), sizeof(T))) return;
    const std::string name(stride_name);
    throw_too_large(function, s.matrix,
                    "batch = " + std::to_string(batch) + " matrices " + name + " = " +
                        std::to_string(stride) + " elements apart",
                    "batch and " + name);
  };
  check_span(stored_a(ta, m, k, lda), "stride_a", stride_a);
  check_span(stored_b(tb, k, n, ldb), "stride_b", stride_b);
  const Stored c = stored_c(m, n, ldc);
  check_span(c, "stride_c", stride_c);
  const std::size_t span_c = span_of(c);
  if (batch == 1 || span_c == 0) return;
  const bool apart = stride_c >= span_c;
  const bool interleaved = stride_c >= n && (batch - 1) * stride_c + n <= ldc;
  if (!apart && !interleaved) {
    throw_invalid(function, "stride_c = " + std::to_string(stride_c) +
                                " makes C_0 and C_1 overlap (each C is " + std::to_string(span_c) +
                                " elements: m = " + std::to_string(m) + " rows of n = " +
                                std::to_string(n) + ", ldc = " + std::to_string(ldc) +
                                " apart); pass stride_c >= " + std::to_string(span_c) +
                                ", or interleave the rows with (batch - 1)·stride_c + n <= ldc");
  }
}

// The pointer-array batch: the arrays themselves must be there when products are.
template <class T>
void check_batch(Trans ta, Trans tb, std::size_t m, std::size_t n, std::size_t k, std::size_t lda,
                 const void* A, std::size_t ldb, const void* B, std::size_t ldc, const void* C,
                 std::size_t batch) {
  constexpr std::string_view function = "gemm_batch";
  check_gemm<T>(ta, tb, m, n, k, lda, ldb, ldc, function);
  if (batch == 0 || m == 0 || n == 0) return;
  const auto check_array = [&](const void* array, std::string_view name, bool read) {
    if (array != nullptr || !read) return;
    throw_invalid(function, std::string(name) +
                                " is a null pointer array with batch = " + std::to_string(batch) +
                                "; pass " + std::to_string(batch) + " pointers, one per product");
  };
  check_array(A, "A", k != 0);
  check_array(B, "B", k != 0);
  check_array(C, "C", true);
}

// A (m x k), B (k x n) and C (m x n) of a reduced-precision GEMM (no transposes), of element
// types TA, TB and TC.
template <class TA, class TB, class TC>
void check_reduced(std::string_view function, std::size_t m, std::size_t n, std::size_t k,
                   std::size_t lda, std::size_t ldb, std::size_t ldc) {
  check_matrix(function, stored_a(std::nullopt, m, k, lda), sizeof(TA));
  check_matrix(function, stored_b(std::nullopt, k, n, ldb), sizeof(TB));
  check_matrix(function, stored_c(m, n, ldc), sizeof(TC));
}

// ------------------------------ BLAS-2

// A vector of `count` elements |inc| apart (count named `count_name`) must fit in memory.
void check_vector(std::string_view function, std::string_view vector, std::string_view inc_name,
                  std::string_view count_name, std::size_t count, std::ptrdiff_t inc,
                  std::size_t element_bytes) {
  const std::size_t apart =
      inc < 0 ? std::size_t{0} - static_cast<std::size_t>(inc) : static_cast<std::size_t>(inc);
  if (fits(count, apart, 1, element_bytes)) return;
  const std::string inc_text(inc_name), count_text(count_name);
  throw_too_large(function, vector,
                  count_text + " = " + std::to_string(count) + " elements, " + inc_text + " = " +
                      std::to_string(inc) + " apart",
                  count_text + " and " + inc_text);
}

template <class T>
void gemv_checked(Trans op, std::size_t m, std::size_t n, T alpha, const T* A, std::size_t lda,
                  const T* x, std::ptrdiff_t incx, T beta, T* y, std::ptrdiff_t incy) {
  if (incy == 0) throw_invalid("gemv", "incy = 0: y is written, pass a nonzero incy");
  check_matrix("gemv", {"A", "m", m, "n", n, "lda", lda, {}}, sizeof(T));
  const bool t = op == Trans::T;
  check_vector("gemv", "x", "incx", t ? "m" : "n", t ? m : n, incx, sizeof(T));
  check_vector("gemv", "y", "incy", t ? "n" : "m", t ? n : m, incy, sizeof(T));
  driver::gemv(op, m, n, alpha, A, lda, x, incx, beta, y, incy);
}

template <class T>
void ger_checked(std::size_t m, std::size_t n, T alpha, const T* x, std::ptrdiff_t incx, const T* y,
                 std::ptrdiff_t incy, T* A, std::size_t lda) {
  check_matrix("ger", {"A", "m", m, "n", n, "lda", lda, {}}, sizeof(T));
  check_vector("ger", "x", "incx", "m", m, incx, sizeof(T));
  check_vector("ger", "y", "incy", "n", n, incy, sizeof(T));
  coheriq::call<Domain, typename Blas2Candidates<T>::ger>(m, n, alpha, x, incx, y, incy, A, lda);
}

// ------------------------------ BLAS-2 on Op, Uplo and Diag, and BLAS-3

// The checks of such a function `name`, called with the table's arguments (MatrixCheck{"trsm"}
// (side, uplo, ...)), one overload per shape of call. Every matrix must hold its rows in its
// leading dimension and fit in memory, as every vector must; a written vector needs a nonzero
// increment; the rank updates and hemv take the Op the BLAS routine takes.
struct MatrixCheck {
  std::string_view name;

  // symv
  template <class T>
  void operator()(Uplo, std::size_t n, T, const T*, std::size_t lda, const T*, std::ptrdiff_t incx,
                  T, T*, std::ptrdiff_t incy) const {
    check_symmetric_product<T>(n, lda, incx, incy);
  }
  // hemv: op N or Conj
  template <class T>
  void operator()(Uplo, Op op, std::size_t n, T, const T*, std::size_t lda, const T*,
                  std::ptrdiff_t incx, T, T*, std::ptrdiff_t incy) const {
    if (op != Op::N && op != Op::Conj) {
      throw_invalid(name, "op = " + std::string(name_of(op)) + " is not an op " +
                              std::string(name) + " takes; pass Op::N or Op::Conj");
    }
    check_symmetric_product<T>(n, lda, incx, incy);
  }
  // trmv, trsv: any op
  template <class T>
  void operator()(Uplo, Op, Diag, std::size_t n, const T*, std::size_t lda, T*,
                  std::ptrdiff_t incx) const {
    if (incx == 0) throw_invalid(name, "incx = 0: x is written, pass a nonzero incx");
    check_matrix(name, {"A", "n", n, "n", n, "lda", lda, {}}, sizeof(T));
    check_vector(name, "x", "incx", "n", n, incx, sizeof(T));
  }
  template <class T>
  void check_symmetric_product(std::size_t n, std::size_t lda, std::ptrdiff_t incx,
                               std::ptrdiff_t incy) const {
    if (incy == 0) throw_invalid(name, "incy = 0: y is written, pass a nonzero incy");
    check_matrix(name, {"A", "n", n, "n", n, "lda", lda, {}}, sizeof(T));
    check_vector(name, "x", "incx", "n", n, incx, sizeof(T));
    check_vector(name, "y", "incy", "n", n, incy, sizeof(T));
  }

  // trsm, trmm: A is the order of B's `side` dimension.
  template <class T>
  void operator()(Side side, Uplo, Op, Diag, std::size_t m, std::size_t n, T, const T*,
                  std::size_t lda, T*, std::size_t ldb) const {
    const bool left = side == Side::Left;
    const std::string_view order_name = left ? "m" : "n";
    const std::size_t order = left ? m : n;
    check_matrix(name, {"A", order_name, order, order_name, order, "lda", lda, {}}, sizeof(T));
    check_matrix(name, {"B", "m", m, "n", n, "ldb", ldb, {}}, sizeof(T));
  }
  // symm, hemm
  template <class T>
  void operator()(Side side, Uplo, std::size_t m, std::size_t n, T, const T*, std::size_t lda,
                  const T*, std::size_t ldb, T, T*, std::size_t ldc) const {
    const bool left = side == Side::Left;
    const std::string_view order_name = left ? "m" : "n";
    const std::size_t order = left ? m : n;
    check_matrix(name, {"A", order_name, order, order_name, order, "lda", lda, {}}, sizeof(T));
    check_matrix(name, {"B", "m", m, "n", n, "ldb", ldb, {}}, sizeof(T));
    check_matrix(name, stored_c(m, n, ldc), sizeof(T));
  }
  // syrk, herk (alpha and beta real for herk)
  template <class S, class T>
  void operator()(Uplo, Op op, std::size_t n, std::size_t k, S, const T*, std::size_t lda, S, T*,
                  std::size_t ldc) const {
    check_rank_op<T>(op);
    check_matrix(name, stored_op("A", op, "n", n, "k", k, "lda", lda), sizeof(T));
    check_matrix(name, {"C", "n", n, "n", n, "ldc", ldc, {}}, sizeof(T));
  }
  // syr2k, her2k (beta real for her2k)
  template <class S, class R, class T>
  void operator()(Uplo, Op op, std::size_t n, std::size_t k, S, const T*, std::size_t lda, const T*,
                  std::size_t ldb, R, T*, std::size_t ldc) const {
    check_rank_op<T>(op);
    check_matrix(name, stored_op("A", op, "n", n, "k", k, "lda", lda), sizeof(T));
    check_matrix(name, stored_op("B", op, "n", n, "k", k, "ldb", ldb), sizeof(T));
    check_matrix(name, {"C", "n", n, "n", n, "ldc", ldc, {}}, sizeof(T));
  }
  // gemm (complex)
  template <class T>
  void operator()(Op opa, Op opb, std::size_t m, std::size_t n, std::size_t k, T, const T*,
                  std::size_t lda, const T*, std::size_t ldb, T, T*, std::size_t ldc) const {
    check_matrix(name, stored_op("A", opa, "m", m, "k", k, "lda", lda), sizeof(T));
    check_matrix(name, stored_op("B", opb, "k", k, "n", n, "ldb", ldb), sizeof(T));
    check_matrix(name, stored_c(m, n, ldc), sizeof(T));
  }

  // The rank updates' op: N or T for syrk and syr2k (C too for real data, where it is T), N or
  // C for herk and her2k, as the BLAS routines take them.
  template <class T>
  void check_rank_op(Op op) const {
    const bool hermitian = name == "herk" || name == "her2k";
    const bool real = std::is_floating_point_v<T>;
    const bool taken =
        op == Op::N || op == (hermitian ? Op::C : Op::T) || (real && !hermitian && op == Op::C);
    if (taken) return;
    throw_invalid(name, "op = " + std::string(name_of(op)) + " is not an op " + std::string(name) +
                            " takes; pass Op::N or " + (hermitian ? "Op::C" : "Op::T"));
  }
};

// ------------------------------ pack_b and the packed GEMM's own checks, for T = float or double

template <class T>
PackedMatrix<T> pack_b_checked(Trans tb, std::size_t k, std::size_t n, const T* B,
                               std::size_t ldb) {
  check_matrix("pack_b", stored_b(tb, k, n, ldb), sizeof(T));
  // The PackedMatrix is this call's first use (it names the lock), not packed_bytes.
  coheriq::use_class<Domain, typename PackedAccess<T>::candidate_class>();
  const std::size_t bytes = coheriq::call<Domain, typename GemmCandidates<T>::packed_bytes>(k, n);
  PackedMatrix<T> packed = PackedAccess<T>::allocate(k, n, bytes);
  coheriq::call<Domain, typename GemmCandidates<T>::pack_b>(tb, k, n, B, ldb,
                                                            PackedAccess<T>::data(packed), 0, 1);
  return packed;
}

template <class T>
void gemm_packed_checked(Trans ta, std::size_t m, std::size_t n, std::size_t k, T alpha, const T* A,
                         std::size_t lda, const PackedMatrix<T>& B, T beta, T* C, std::size_t ldc) {
  if (k != B.rows()) {
    throw_invalid("gemm", "k = " + std::to_string(k) +
                              " differs from B.rows() = " + std::to_string(B.rows()) +
                              " of the PackedMatrix; pass k = " + std::to_string(B.rows()) +
                              ", the k it was packed with");
  }
  if (n != B.cols()) {
    throw_invalid("gemm", "n = " + std::to_string(n) +
                              " differs from B.cols() = " + std::to_string(B.cols()) +
                              " of the PackedMatrix; pass n = " + std::to_string(B.cols()) +
                              ", the n it was packed with");
  }
  check_matrix("gemm", stored_a(ta, m, k, lda), sizeof(T));
  check_matrix("gemm", stored_c(m, n, ldc), sizeof(T));
  driver::gemm_packed(ta, m, n, k, alpha, A, lda, PackedAccess<T>::data(B), beta, C, ldc);
}

}  // namespace

// ------------------------------ Engine selection

void enable_engine(std::string_view engine) { coheriq::enable_engine<Domain>(engine); }

std::string active_engine() { return coheriq::active_engine<Domain>(); }

void enable_reproducible() { coheriq::enable_reproducible<Domain>(); }

bool reproducible() { return coheriq::reproducible<Domain>(); }

// ------------------------------ BLAS-1 and vector math: sizes checked, then forwarded

#define COHERIQ_KERNELS_FORWARD(op, S, impl, touched, R, params, args) \
  R op params {                                                        \
    VectorCheck{#op} args;                                             \
    return coheriq::call<Domain, cand::op##_##S> args;                 \
  }
COHERIQ_KERNELS_PUBLIC(COHERIQ_KERNELS_FORWARD)
#undef COHERIQ_KERNELS_FORWARD

// ------------------------------ BLAS-2: checked, then forwarded

void gemv(Trans op, std::size_t m, std::size_t n, float alpha, const float* A, std::size_t lda,
          const float* x, std::ptrdiff_t incx, float beta, float* y, std::ptrdiff_t incy) {
  gemv_checked(op, m, n, alpha, A, lda, x, incx, beta, y, incy);
}
void gemv(Trans op, std::size_t m, std::size_t n, double alpha, const double* A, std::size_t lda,
          const double* x, std::ptrdiff_t incx, double beta, double* y, std::ptrdiff_t incy) {
  gemv_checked(op, m, n, alpha, A, lda, x, incx, beta, y, incy);
}
void ger(std::size_t m, std::size_t n, float alpha, const float* x, std::ptrdiff_t incx,
         const float* y, std::ptrdiff_t incy, float* A, std::size_t lda) {
  ger_checked(m, n, alpha, x, incx, y, incy, A, lda);
}
void ger(std::size_t m, std::size_t n, double alpha, const double* x, std::ptrdiff_t incx,
         const double* y, std::ptrdiff_t incy, double* A, std::size_t lda) {
  ger_checked(m, n, alpha, x, incx, y, incy, A, lda);
}

// ------------------------------ BLAS-2 on Op, Uplo and Diag, and BLAS-3: checked, then forwarded

#define COHERIQ_KERNELS_MATRIX_FORWARD(op, S, impl, touched, R, params, args) \
  R op params {                                                               \
    MatrixCheck{#op} args;                                                    \
    return coheriq::call<Domain, cand::op##_##S> args;                        \
  }
COHERIQ_KERNELS_BLAS2_CHECKED(COHERIQ_KERNELS_MATRIX_FORWARD)
COHERIQ_KERNELS_BLAS3(COHERIQ_KERNELS_MATRIX_FORWARD)
#undef COHERIQ_KERNELS_MATRIX_FORWARD

// ------------------------------ GEMM: checked, then run by the driver (gemm_driver.cpp)

void gemm(Trans ta, Trans tb, std::size_t m, std::size_t n, std::size_t k, float alpha,
          const float* A, std::size_t lda, const float* B, std::size_t ldb, float beta, float* C,
          std::size_t ldc) {
  check_gemm<float>(ta, tb, m, n, k, lda, ldb, ldc);
  driver::gemm(ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}
void gemm(Trans ta, Trans tb, std::size_t m, std::size_t n, std::size_t k, double alpha,
          const double* A, std::size_t lda, const double* B, std::size_t ldb, double beta,
          double* C, std::size_t ldc) {
  check_gemm<double>(ta, tb, m, n, k, lda, ldb, ldc);
  driver::gemm(ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}

// ------------------------------ Batches and plans

#define COHERIQ_KERNELS_BATCHES(T)                                                                \
  void gemm_batch_strided(Trans ta, Trans tb, std::size_t m, std::size_t n, std::size_t k,        \
                          T alpha, const T* A, std::size_t lda, std::size_t stride_a, const T* B, \
                          std::size_t ldb, std::size_t stride_b, T beta, T* C, std::size_t ldc,   \
                          std::size_t stride_c, std::size_t batch) {                              \
    check_batch_strided<T>(ta, tb, m, n, k, lda, stride_a, ldb, stride_b, ldc, stride_c, batch);  \
    driver::gemm_batch_strided(ta, tb, m, n, k, alpha, A, lda, stride_a, B, ldb, stride_b, beta,  \
                               C, ldc, stride_c, batch);                                          \
  }                                                                                               \
  void gemm_batch(Trans ta, Trans tb, std::size_t m, std::size_t n, std::size_t k, T alpha,       \
                  const T* const* A, std::size_t lda, const T* const* B, std::size_t ldb, T beta, \
                  T* const* C, std::size_t ldc, std::size_t batch) {                              \
    check_batch<T>(ta, tb, m, n, k, lda, A, ldb, B, ldc, C, batch);                               \
    driver::gemm_batch(ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc, batch);              \
  }
COHERIQ_KERNELS_BATCHES(float)
COHERIQ_KERNELS_BATCHES(double)
#undef COHERIQ_KERNELS_BATCHES

template <class T>
GemmPlan<T>::GemmPlan(Trans ta, Trans tb, std::size_t m, std::size_t n, std::size_t k, T alpha,
                      std::size_t lda, std::size_t ldb, T beta, std::size_t ldc)
    : ta_(ta),
      tb_(tb),
      m_(m),
      n_(n),
      k_(k),
      alpha_(alpha),
      beta_(beta),
      lda_(lda),
      ldb_(ldb),
      ldc_(ldc) {
  check_gemm<T>(ta, tb, m, n, k, lda, ldb, ldc, "GemmPlan");
  using Candidates = GemmCandidates<T>;
  // The driver's question locks the domain: the engine's functions are then fixed for the
  // process, and read from their slots once.
  small_ = driver::gemm_runs_alone<T>(m, n, k);
  kernel_ =
      coheriq::detail::slot<Domain, typename Candidates::gemm>::fn.load(std::memory_order_acquire);
  planned_ = nullptr;
  if (small_ &&
      coheriq::call<Domain, typename Candidates::gemm_plan>(ta, tb, m, n, k, lda, engine_plan_)) {
    planned_ = coheriq::detail::slot<Domain, typename Candidates::gemm_planned>::fn.load(
        std::memory_order_acquire);
  }
}

template <class T>
void GemmPlan<T>::operator()(const T* A, const T* B, T* C) const {
  if (planned_ != nullptr) {
    planned_(engine_plan_, k_, alpha_, A, B, ldb_, beta_, C, ldc_);
  } else if (small_) {
    kernel_(ta_, tb_, m_, n_, k_, alpha_, A, lda_, B, ldb_, beta_, C, ldc_, nullptr);
  } else {
    driver::gemm(ta_, tb_, m_, n_, k_, alpha_, A, lda_, B, ldb_, beta_, C, ldc_);
  }
}

template class GemmPlan<float>;
template class GemmPlan<double>;

PackedMatrix<float> pack_b(Trans tb, std::size_t k, std::size_t n, const float* B,
                           std::size_t ldb) {
  return pack_b_checked(tb, k, n, B, ldb);
}
PackedMatrix<double> pack_b(Trans tb, std::size_t k, std::size_t n, const double* B,
                            std::size_t ldb) {
  return pack_b_checked(tb, k, n, B, ldb);
}

void gemm(Trans ta, std::size_t m, std::size_t n, std::size_t k, float alpha, const float* A,
          std::size_t lda, const PackedMatrix<float>& B, float beta, float* C, std::size_t ldc) {
  gemm_packed_checked(ta, m, n, k, alpha, A, lda, B, beta, C, ldc);
}
void gemm(Trans ta, std::size_t m, std::size_t n, std::size_t k, double alpha, const double* A,
          std::size_t lda, const PackedMatrix<double>& B, double beta, double* C, std::size_t ldc) {
  gemm_packed_checked(ta, m, n, k, alpha, A, lda, B, beta, C, ldc);
}

// ------------------------------ Reduced precision

std::int32_t dot_u8s8(std::size_t n, const std::uint8_t* x, const std::int8_t* y) {
  VectorCheck{"dot_u8s8"}(n, x, y);
  return coheriq::call<Domain, cand::dot_u8s8>(n, x, y);
}
float dot_bf16(std::size_t n, const bfloat16* x, const bfloat16* y) {
  VectorCheck{"dot_bf16"}(n, x, y);
  return coheriq::call<Domain, cand::dot_bf16>(n, x, y);
}

void gemm_u8s8s32(std::size_t m, std::size_t n, std::size_t k, const std::uint8_t* A,
                  std::size_t lda, const std::int8_t* B, std::size_t ldb, std::int32_t* C,
                  std::size_t ldc) {
  check_reduced<std::uint8_t, std::int8_t, std::int32_t>("gemm_u8s8s32", m, n, k, lda, ldb, ldc);
  driver::gemm_u8s8s32(m, n, k, A, lda, B, ldb, C, ldc);
}
void gemm_bf16(std::size_t m, std::size_t n, std::size_t k, float alpha, const bfloat16* A,
               std::size_t lda, const bfloat16* B, std::size_t ldb, float beta, float* C,
               std::size_t ldc) {
  check_reduced<bfloat16, bfloat16, float>("gemm_bf16", m, n, k, lda, ldb, ldc);
  driver::gemm_bf16(m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}

}  // namespace coheriq::kernels