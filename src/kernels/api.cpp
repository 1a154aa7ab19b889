// The public kernel functions of <coheriq/kernels.hpp>: validate, then forward to the engine in
// effect with coheriq::call (one pointer load and one indirect call once the domain is locked).
//
// Arguments are checked before the first coheriq::call, so a rejected call changes nothing and
// does not lock the domain. Baseline code: it owns every allocation the engines need.
#include <coheriq/kernels.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <new>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>

#include "kernels/candidates.hpp"
#include "kernels/packed_access.hpp"
#include "kernels/pool.hpp"

namespace coheriq::kernels {
namespace {

// Registers the domain when the program links this file, so that coheriq::domains() lists it
// before any kernel runs. Materializing only reads constant tables: no engine code runs.
[[maybe_unused]] const bool kDomainMaterialized = (coheriq::materialize<Domain>(), true);

// ------------------------------ Argument checks

std::string_view name_of(Trans t) { return t == Trans::N ? "Trans::N" : "Trans::T"; }

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
// named as the operand dimension it is (`trans` says how the operand is stored, when it may be
// transposed).
struct Stored {
  std::string_view matrix;
  std::string_view rows_name;
  std::size_t rows;
  std::string_view cols_name;
  std::size_t cols;
  std::string_view ld_name;
  std::size_t ld;
  std::optional<Trans> trans;
};

// op(A) is m x k: stored m x k for Trans::N, k x m for Trans::T.
Stored stored_a(std::optional<Trans> ta, std::size_t m, std::size_t k, std::size_t lda) {
  if (ta == Trans::T) return {"A", "k", k, "m", m, "lda", lda, ta};
  return {"A", "m", m, "k", k, "lda", lda, ta};
}
// op(B) is k x n: stored k x n for Trans::N, n x k for Trans::T.
Stored stored_b(std::optional<Trans> tb, std::size_t k, std::size_t n, std::size_t ldb) {
  if (tb == Trans::T) return {"B", "n", n, "k", k, "ldb", ldb, tb};
  return {"B", "k", k, "n", n, "ldb", ldb, tb};
}
Stored stored_c(std::size_t m, std::size_t n, std::size_t ldc) {
  return {"C", "m", m, "n", n, "ldc", ldc, std::nullopt};
}

// The leading dimension must hold a row of the matrix as stored, and the matrix must fit in
// memory. (A packed matrix holds k·n elements, no more than B spans: pack_b's allocation is
// covered too.)
void check_matrix(std::string_view function, const Stored& s, std::size_t element_bytes) {
  const auto with_trans = [&] {
    return s.trans ? " for " + std::string(name_of(*s.trans)) : std::string();
  };
  const std::string ld_name(s.ld_name);
  if (s.ld < s.cols) {
    throw_invalid(function, ld_name + " = " + std::to_string(s.ld) + " is smaller than a row of " +
                                std::string(s.matrix) + " (" + std::string(s.cols_name) + " = " +
                                std::to_string(s.cols) + with_trans() + "); pass " + ld_name +
                                " >= " + std::to_string(s.cols));
  }
  if (!fits(s.rows, s.ld, s.cols, element_bytes)) {
    throw_too_large(function, s.matrix,
                    std::string(s.rows_name) + " = " + std::to_string(s.rows) + " rows of " +
                        std::string(s.cols_name) + " = " + std::to_string(s.cols) + " elements" +
                        with_trans() + ", " + ld_name + " = " + std::to_string(s.ld) + " apart",
                    std::string(s.rows_name) + ", " + std::string(s.cols_name) + " and " + ld_name);
  }
}

template <class T>
void check_gemm(Trans ta, Trans tb, std::size_t m, std::size_t n, std::size_t k, std::size_t lda,
                std::size_t ldb, std::size_t ldc) {
  check_matrix("gemm", stored_a(ta, m, k, lda), sizeof(T));
  check_matrix("gemm", stored_b(tb, k, n, ldb), sizeof(T));
  check_matrix("gemm", stored_c(m, n, ldc), sizeof(T));
}

// ------------------------------ Candidates per element type

template <class T>
struct Candidates;
template <>
struct Candidates<float> {
  using gemm_workspace = cand::gemm_workspace_f32;
  using gemm = cand::gemm_f32;
  using packed_bytes = cand::packed_bytes_f32;
  using pack_b = cand::pack_b_f32;
  using gemm_packed = cand::gemm_packed_f32;
};
template <>
struct Candidates<double> {
  using gemm_workspace = cand::gemm_workspace_f64;
  using gemm = cand::gemm_f64;
  using packed_bytes = cand::packed_bytes_f64;
  using pack_b = cand::pack_b_f64;
  using gemm_packed = cand::gemm_packed_f64;
};

// ------------------------------ GEMM workspace

// gemm's scratch memory, owned by baseline code because ISA code never allocates. One buffer per
// thread (products may run on several threads at once), 64-byte aligned, grown on demand and
// kept until the thread exits, so repeated products of one size allocate once.
//
// The block itself is trivially destructible thread-local storage, valid for the whole life of
// the thread; a separate guard frees the buffer when the thread's thread_local objects are
// destroyed. A gemm that runs after that (from a later thread_local destructor, or from a static
// destructor after the main thread's) gets a buffer of its own for that call.
constexpr std::align_val_t kWorkspaceAlignment{64};

struct WorkspaceBlock {
  enum class State : unsigned char { unused, cached, released };
  void* data;
  std::size_t capacity;
  State state;
};
thread_local WorkspaceBlock workspace_block{nullptr, 0, WorkspaceBlock::State::unused};

void release_workspace(void* data) noexcept {
  if (data != nullptr) ::operator delete(data, kWorkspaceAlignment);
}

struct WorkspaceGuard {
  ~WorkspaceGuard() {
    release_workspace(workspace_block.data);
    workspace_block = {nullptr, 0, WorkspaceBlock::State::released};
  }
};

class GemmWorkspace {
 public:
  explicit GemmWorkspace(std::size_t bytes) {
    WorkspaceBlock& b = workspace_block;
    if (b.state == WorkspaceBlock::State::released) {
      if (bytes != 0) data_ = owned_ = ::operator new(bytes, kWorkspaceAlignment);
      return;
    }
    if (b.state == WorkspaceBlock::State::unused) {
      thread_local WorkspaceGuard guard;  // registers the release at thread exit
      b.state = WorkspaceBlock::State::cached;
    }
    if (bytes > b.capacity) {
      void* grown = ::operator new(bytes, kWorkspaceAlignment);  // on bad_alloc the old one stays
      release_workspace(b.data);
      b.data = grown;
      b.capacity = bytes;
    }
    data_ = b.data;
  }
  GemmWorkspace(const GemmWorkspace&) = delete;
  GemmWorkspace& operator=(const GemmWorkspace&) = delete;
  ~GemmWorkspace() { release_workspace(owned_); }

  void* data() const { return data_; }

 private:
  void* data_ = nullptr;
  void* owned_ = nullptr;  // this call's own buffer, after the thread's was released
};

// ------------------------------ Threads for GEMM

// A product runs on several threads by cutting C into blocks, rows or columns, one per thread,
// each computed with the full k. Blocks of rows share one op(B) that the team packs first, in
// parts (pack_b), and multiply by it (gemm_packed); blocks of columns call the engine's gemm on
// their columns, each packing all of op(A) for itself. An engine computes every element of C from
// its row of op(A) and column of op(B) in an order that depends only on k, the same in gemm and
// gemm_packed (docs/engine-guide.md), so C is bitwise the same for every thread count and every way
// of cutting it.
//
// Below kParallelMinWork<T> multiply-adds (m·n·k) a product stays on the calling thread. Two
// threads gain when the product takes longer on one than twice the time L until a sleeping
// worker starts its part (the caller does its half meanwhile). Measured on the Zen 5 2-vCPU
// host (docs/kernels.md): L = 28 us median (a region of two 20 us parts took 48 us); 2L = 56 us
// is 192^3 multiply-adds at 240 GFLOP/s (f32, avx512) and 152^3 at 120 GFLOP/s (f64).
template <class T>
constexpr double kParallelMinWork = sizeof(T) == 4 ? 192.0 * 192.0 * 192.0 : 152.0 * 152.0 * 152.0;
// A block is at least this many rows or columns, so that each thread has whole register tiles.
constexpr std::size_t kMinBlock = 32;
// Column blocks start at multiples of this, so that the x86 engines' panels (NR 32, 16 or 8)
// are never split between two threads. A matter of speed only: each column block packs its own
// B and every element is summed in an order that depends only on k, so an NR that does not
// divide it (neon's 12, sve's 2 vectors of the run-time length, up to 128) costs an edge tile
// per block, never a different result. (Packed B is cut by rows only.)
constexpr std::size_t kColumnGrain = 32;
// A tall or square product is cut by columns too once it is this wide per thread beyond the
// first (n >= kColumnsPerExtraThread * (threads - 1)). Blocks of columns pack op(A) once per
// block, threads - 1 extra copies of m·k, against (n / threads)·m·k multiply-adds per block: a
// cost that shrinks as n grows. Blocks of rows pack nothing twice, but gemm_packed packs A one
// micro-panel at a time and so streams the whole B k-block per MR rows, from L3 once it
// outgrows L2: a cost that grows with n. Measured on the 2-vCPU Zen 5 host, 2 threads, the two
// cuts alternated (docs/decisions.md): columns 3-10% ahead for f64 from n = 768 (768^3, 1024^3,
// 2048^3, 2048 x 1024 x 1024, 1024 x 768 x 1024; f32 0-4%), rows 2-5% ahead at n = 512 and 25%
// at n = 128 (m = 2048 and 4096).
constexpr std::size_t kColumnsPerExtraThread = 768;

// How C is cut: `parts` blocks of rows (by_rows) or columns over `extent`, the first ones
// starting at multiples of `grain`.
struct GemmSplit {
  bool by_rows;
  std::size_t extent;
  std::size_t parts;
  std::size_t grain;

  std::size_t begin(std::size_t part) const {
    if (part >= parts) return extent;
    const std::size_t at = extent * part / parts;
    return at / grain * grain;
  }
  std::size_t largest() const {
    std::size_t most = 0;
    for (std::size_t p = 0; p < parts; ++p) most = std::max(most, begin(p + 1) - begin(p));
    return most;
  }
};

// The threads this product may use (1: run it on the calling thread). Small products do not
// even read the thread count.
template <class T>
std::size_t gemm_threads(std::size_t m, std::size_t n, std::size_t k) {
  if (static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(k) <
      kParallelMinWork<T>) {
    return 1;
  }
  return num_threads();
}

// can_split_columns: the caller can cut C by columns (the unpacked product can, packed B cannot).
// Columns for a wide product (n > m), and for any product wide enough per thread.
inline GemmSplit gemm_split(std::size_t threads, std::size_t m, std::size_t n,
                            bool can_split_columns) {
  const bool wide = n > m || (threads > 1 && n >= kColumnsPerExtraThread * (threads - 1));
  const bool by_rows = !can_split_columns || !wide;
  const std::size_t extent = by_rows ? m : n;
  const std::size_t parts = std::max<std::size_t>(1, std::min(threads, extent / kMinBlock));
  return {by_rows, extent, parts, by_rows ? std::size_t{1} : kColumnGrain};
}

// ------------------------------ GEMM, pack_b and packed GEMM, for T = float or double

constexpr std::size_t round_up_64(std::size_t bytes) { return (bytes + 63) / 64 * 64; }

// Blocks of rows of C against op(B) packed in the engine's layout, one gemm_packed call each, on
// the team. The domain is locked (op(B) was packed), so the workers' coheriq::call is a pointer
// load and cannot throw.
template <class T>
void gemm_packed_rows(pool::Team& team, const GemmSplit& split, Trans ta, std::size_t n,
                      std::size_t k, T alpha, const T* A, std::size_t lda, const void* packed,
                      T beta, T* C, std::size_t ldc) {
  auto block = [&](std::size_t part) noexcept {
    const std::size_t lo = split.begin(part), hi = split.begin(part + 1);
    const T* a = ta == Trans::N ? A + lo * lda : A + lo;
    coheriq::call<Domain, typename Candidates<T>::gemm_packed>(ta, hi - lo, n, k, alpha, a, lda,
                                                               packed, beta, C + lo * ldc, ldc);
  };
  team.run(split.parts, block);
}

template <class T>
void gemm_checked(Trans ta, Trans tb, std::size_t m, std::size_t n, std::size_t k, T alpha,
                  const T* A, std::size_t lda, const T* B, std::size_t ldb, T beta, T* C,
                  std::size_t ldc) {
  check_gemm<T>(ta, tb, m, n, k, lda, ldb, ldc);
  using Gemm = typename Candidates<T>::gemm;
  using Workspace = typename Candidates<T>::gemm_workspace;
  // A team only as large as the blocks the product has: a product too thin to cut does not
  // hold the pool while it runs.
  pool::Team team(gemm_split(gemm_threads<T>(m, n, k), m, n, true).parts);
  const GemmSplit split = gemm_split(team.size(), m, n, true);
  if (split.parts <= 1) {
    const std::size_t bytes = coheriq::call<Domain, Workspace>(m, n, k);
    const GemmWorkspace workspace(bytes);
    coheriq::call<Domain, Gemm>(ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc,
                                workspace.data());
    return;
  }
  if (split.by_rows) {
    // Blocks of rows share one packed op(B), packed by the team in parts first (BLIS: the
    // threads share the B panel, each packs its own A); every block would otherwise pack all
    // of B for itself. Allocated before anything runs (a failure changes nothing).
    const GemmWorkspace workspace(
        coheriq::call<Domain, typename Candidates<T>::packed_bytes>(k, n));
    void* const packed = workspace.data();
    // The workers call the engine through coheriq::call: the queries above have locked the
    // domain, so each call is a pointer load and cannot throw.
    auto pack = [&](std::size_t part) noexcept {
      coheriq::call<Domain, typename Candidates<T>::pack_b>(tb, k, n, B, ldb, packed, part,
                                                            split.parts);
    };
    team.run(split.parts, pack);
    gemm_packed_rows(team, split, ta, n, k, alpha, A, lda, packed, beta, C, ldc);
    return;
  }
  // Blocks of columns: each packs its own columns of op(B), and all of op(A) (few rows against
  // the columns, or few threads: kColumnsPerExtraThread), with a workspace of its own.
  const std::size_t stride = round_up_64(coheriq::call<Domain, Workspace>(m, split.largest(), k));
  const GemmWorkspace workspace(stride * split.parts);
  unsigned char* const work = static_cast<unsigned char*>(workspace.data());
  auto block = [&](std::size_t part) noexcept {
    const std::size_t lo = split.begin(part), hi = split.begin(part + 1);
    const T* b = tb == Trans::N ? B + lo : B + lo * ldb;
    coheriq::call<Domain, Gemm>(ta, tb, m, hi - lo, k, alpha, A, lda, b, ldb, beta, C + lo, ldc,
                                work + stride * part);
  };
  team.run(split.parts, block);
}

template <class T>
PackedMatrix<T> pack_b_checked(Trans tb, std::size_t k, std::size_t n, const T* B,
                               std::size_t ldb) {
  check_matrix("pack_b", stored_b(tb, k, n, ldb), sizeof(T));
  // The PackedMatrix is this call's first use (it names the lock), not packed_bytes.
  coheriq::use_class<Domain, typename PackedAccess<T>::candidate_class>();
  const std::size_t bytes = coheriq::call<Domain, typename Candidates<T>::packed_bytes>(k, n);
  PackedMatrix<T> packed = PackedAccess<T>::allocate(k, n, bytes);
  coheriq::call<Domain, typename Candidates<T>::pack_b>(tb, k, n, B, ldb,
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
  using GemmPacked = typename Candidates<T>::gemm_packed;
  const void* packed = PackedAccess<T>::data(B);
  // Packed B is cut only by rows of C: a block of columns is not a packed matrix of its own.
  pool::Team team(gemm_split(gemm_threads<T>(m, n, k), m, n, false).parts);
  const GemmSplit split = gemm_split(team.size(), m, n, false);
  if (split.parts <= 1) {
    coheriq::call<Domain, GemmPacked>(ta, m, n, k, alpha, A, lda, packed, beta, C, ldc);
    return;
  }
  gemm_packed_rows(team, split, ta, n, k, alpha, A, lda, packed, beta, C, ldc);
}

// ------------------------------ Reduced-precision GEMMs (no transposes; B is k x n)

// Runs a product of m rows of C in blocks of rows on the pool (threshold as for f32 gemm), each
// block with its own workspace of workspace_bytes(rows) bytes: block(lo, hi, work) computes rows
// [lo, hi) with the full k, so the result does not depend on the thread count. The first
// workspace query locks the domain before any worker calls the engine.
template <class WorkspaceBytes, class Block>
void gemm_by_rows(std::size_t m, std::size_t n, std::size_t k, WorkspaceBytes workspace_bytes,
                  Block block) {
  pool::Team team(gemm_split(gemm_threads<float>(m, n, k), m, n, false).parts);
  const GemmSplit split = gemm_split(team.size(), m, n, false);
  if (split.parts <= 1) {
    const GemmWorkspace workspace(workspace_bytes(m));
    block(std::size_t{0}, m, workspace.data());
    return;
  }
  const std::size_t stride = round_up_64(workspace_bytes(split.largest()));
  const GemmWorkspace workspace(stride * split.parts);
  unsigned char* const work = static_cast<unsigned char*>(workspace.data());
  auto part = [&](std::size_t p) noexcept {
    block(split.begin(p), split.begin(p + 1), work + stride * p);
  };
  team.run(split.parts, part);
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

}  // namespace

// ------------------------------ Engine selection

void enable_engine(std::string_view engine) { coheriq::enable_engine<Domain>(engine); }

std::string active_engine() { return coheriq::active_engine<Domain>(); }

// ------------------------------ BLAS-1 and vector math: sizes checked, then forwarded

#define COHERIQ_KERNELS_FORWARD(op, S, impl, touched, R, params, args) \
  R op params {                                                        \
    VectorCheck{#op} args;                                             \
    return coheriq::call<Domain, cand::op##_##S> args;                 \
  }
COHERIQ_KERNELS_PUBLIC(COHERIQ_KERNELS_FORWARD)
#undef COHERIQ_KERNELS_FORWARD

// ------------------------------ GEMM

void gemm(Trans ta, Trans tb, std::size_t m, std::size_t n, std::size_t k, float alpha,
          const float* A, std::size_t lda, const float* B, std::size_t ldb, float beta, float* C,
          std::size_t ldc) {
  gemm_checked(ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}
void gemm(Trans ta, Trans tb, std::size_t m, std::size_t n, std::size_t k, double alpha,
          const double* A, std::size_t lda, const double* B, std::size_t ldb, double beta,
          double* C, std::size_t ldc) {
  gemm_checked(ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}

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
  gemm_by_rows(
      m, n, k,
      [&](std::size_t rows) {
        return coheriq::call<Domain, cand::gemm_workspace_u8s8s32>(rows, n, k);
      },
      [&](std::size_t lo, std::size_t hi, void* work) noexcept {
        coheriq::call<Domain, cand::gemm_u8s8s32>(hi - lo, n, k, A + lo * lda, lda, B, ldb,
                                                  C + lo * ldc, ldc, work);
      });
}
void gemm_bf16(std::size_t m, std::size_t n, std::size_t k, float alpha, const bfloat16* A,
               std::size_t lda, const bfloat16* B, std::size_t ldb, float beta, float* C,
               std::size_t ldc) {
  check_reduced<bfloat16, bfloat16, float>("gemm_bf16", m, n, k, lda, ldb, ldc);
  gemm_by_rows(
      m, n, k,
      [&](std::size_t rows) {
        return coheriq::call<Domain, cand::gemm_workspace_bf16>(rows, n, k);
      },
      [&](std::size_t lo, std::size_t hi, void* work) noexcept {
        coheriq::call<Domain, cand::gemm_bf16>(hi - lo, n, k, alpha, A + lo * lda, lda, B, ldb,
                                               beta, C + lo * ldc, ldc, work);
      });
}

}  // namespace coheriq::kernels
