// The GEMM driver (gemm_driver.hpp): the workspace cache, the thread count and the cut of C, and
// the parallel regions that run the engine's GEMM candidates on the parts.
#include "kernels/gemm_driver.hpp"

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "kernels/candidates.hpp"
#include "kernels/pool.hpp"
#include "kernels/thread_workspace.hpp"
#include "kernels/tuning.hpp"
#include "kernels/tuning_in_effect.hpp"

namespace coheriq::kernels::driver {
namespace {

// ------------------------------ GEMM workspace

// gemm's scratch memory: the thread's own (thread_workspace.hpp), so that products may run on
// several threads at once.
struct GemmSlot;
using GemmWorkspace = ThreadWorkspace<GemmSlot>;

// ------------------------------ Threads for GEMM

// A product runs on several threads by cutting C into blocks, rows or columns, one per thread,
// each computed with the full k. Blocks of rows share one op(B) that the team packs first, in
// parts (pack_b), and multiply by it (gemm_packed); blocks of columns call the engine's gemm on
// their columns, each packing all of op(A) for itself. An engine computes every element of C from
// its row of op(A) and column of op(B) in an order that depends only on k, the same in gemm and
// gemm_packed (docs/engine-guide.md), so C is bitwise the same for every thread count and every way
// of cutting it.
//
// How many threads and which cut are the engine's figures (GemmThreading, kernels/tuning.hpp):
// those of the engine that provides the product, looked up once. The domain locks first (a
// workspace query is a first use), so the engine in effect is fixed when they are read. gemm and
// gemm_packed come from one engine (the PackedMatrix<T> class), so both read gemm's. An atomic,
// not a guarded static: threads that race here store the same address, and a fork during the
// lookup cannot leave the child waiting on a guard. figures_of reads any field of the record
// (kField) for the engine that provides Candidate; gemv reads its GemvThreading the same way.
template <class Candidate, class Workspace, auto kField>
const auto& figures_of() {
  using Figures = std::remove_cvref_t<decltype(std::declval<const Tuning&>().*kField)>;
  static constinit std::atomic<const Figures*> figures{nullptr};
  const Figures* f = figures.load(std::memory_order_acquire);
  if (f == nullptr) {
    (void)coheriq::call<Domain, Workspace>(std::size_t{1}, std::size_t{1}, std::size_t{1});
    f = &(tuning_in_effect(Candidate::name).*kField);
    figures.store(f, std::memory_order_release);
  }
  return *f;
}
template <class Gemm, class Workspace>
const GemmThreading& gemm_threading_of() {
  return figures_of<Gemm, Workspace, &Tuning::gemm_threading>();
}
template <class T>
const GemmThreading& gemm_threading() {
  return gemm_threading_of<typename GemmCandidates<T>::gemm,
                           typename GemmCandidates<T>::gemm_workspace>();
}

// How C is cut: `parts` blocks of rows (by_rows) or columns over `extent`, the first ones
// starting at multiples of `grain`.
struct GemmSplit {
  bool by_rows;
  std::size_t extent;
  std::size_t parts;
  std::size_t grain;

  std::size_t begin(std::size_t part) const { return block_begin(extent, parts, grain, part); }
  std::size_t largest() const {
    std::size_t most = 0;
    for (std::size_t p = 0; p < parts; ++p) most = std::max(most, begin(p + 1) - begin(p));
    return most;
  }
};

// The threads this product of T may use (1: run it on the calling thread). Small products do
// not even read the thread count.
template <class T>
std::size_t gemm_threads(const GemmThreading& t, std::size_t m, std::size_t n, std::size_t k) {
  if (static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(k) <
      t.min_parallel_work.of<T>()) {
    return 1;
  }
  return num_threads();
}

// can_split_columns: the caller can cut C by columns (the unpacked product can, packed B cannot).
// Columns for a wide product (n > m), and for any product wide enough per thread.
inline GemmSplit gemm_split(const GemmThreading& t, std::size_t threads, std::size_t m,
                            std::size_t n, bool can_split_columns) {
  const bool wide = n > m || (threads > 1 && n >= t.columns_per_extra_thread * (threads - 1));
  const bool by_rows = !can_split_columns || !wide;
  const std::size_t extent = by_rows ? m : n;
  const std::size_t parts = std::max<std::size_t>(1, std::min(threads, extent / t.min_block));
  return {by_rows, extent, parts, by_rows ? std::size_t{1} : t.column_grain};
}

// ------------------------------ GEMM and packed GEMM, for T = float or double

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
    coheriq::call<Domain, typename GemmCandidates<T>::gemm_packed>(ta, hi - lo, n, k, alpha, a, lda,
                                                                   packed, beta, C + lo * ldc, ldc);
  };
  team.run(split.parts, block);
}

// run(team, split) for a product of m x n x k multiply-adds of T by a packed op(B): cut only by
// rows of C (a block of columns is not a packed matrix of its own), on a team as large as the cut.
template <class T, class Run>
void by_rows_of_packed(std::size_t m, std::size_t n, std::size_t k, Run run) {
  const GemmThreading& threading = gemm_threading<T>();
  pool::Team team(gemm_split(threading, gemm_threads<T>(threading, m, n, k), m, n, false).parts);
  run(team, gemm_split(threading, team.size(), m, n, false));
}

// The product on the calling thread, in a workspace of its own; inline in gemm, whose small
// products take this path alone (its own frame was an eighth of an order-4 product's call).
template <class T>
[[gnu::always_inline]] inline void gemm_on_this_thread(Trans ta, Trans tb, std::size_t m,
                                                       std::size_t n, std::size_t k, T alpha,
                                                       const T* A, std::size_t lda, const T* B,
                                                       std::size_t ldb, T beta, T* C,
                                                       std::size_t ldc) {
  using Gemm = typename GemmCandidates<T>::gemm;
  const std::size_t bytes =
      coheriq::call<Domain, typename GemmCandidates<T>::gemm_workspace>(m, n, k);
  // A product that needs no workspace (a small one) does not reach the thread's cache (a tenth
  // of an order-4 product's call).
  if (bytes == 0) {
    return coheriq::call<Domain, Gemm>(ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc,
                                       nullptr);
  }
  const GemmWorkspace workspace(bytes);
  coheriq::call<Domain, Gemm>(ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc,
                              workspace.data());
}

// The product on a team of up to `wanted` threads, cut as `threading` says.
template <class T>
[[gnu::noinline]] void gemm_on_team(const GemmThreading& threading, std::size_t wanted, Trans ta,
                                    Trans tb, std::size_t m, std::size_t n, std::size_t k, T alpha,
                                    const T* A, std::size_t lda, const T* B, std::size_t ldb,
                                    T beta, T* C, std::size_t ldc) {
  pool::Team team(wanted);
  const GemmSplit split = gemm_split(threading, team.size(), m, n, true);
  if (split.parts <= 1) {
    return gemm_on_this_thread(ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
  }
  if (split.by_rows) {
    // Blocks of rows share one packed op(B), packed by the team in parts first (BLIS: the
    // threads share the B panel, each packs its own A); every block would otherwise pack all
    // of B for itself. Allocated before anything runs (a failure changes nothing).
    const GemmWorkspace workspace(
        coheriq::call<Domain, typename GemmCandidates<T>::packed_bytes>(k, n));
    void* const packed = workspace.data();
    // The workers call the engine through coheriq::call: the queries above have locked the
    // domain, so each call is a pointer load and cannot throw.
    auto pack = [&](std::size_t part) noexcept {
      coheriq::call<Domain, typename GemmCandidates<T>::pack_b>(tb, k, n, B, ldb, packed, part,
                                                                split.parts);
    };
    team.run(split.parts, pack);
    gemm_packed_rows(team, split, ta, n, k, alpha, A, lda, packed, beta, C, ldc);
    return;
  }
  // Blocks of columns: each packs its own columns of op(B), and all of op(A) (few rows against
  // the columns, or few threads: columns_per_extra_thread), with a workspace of its own.
  const std::size_t stride = round_up_64(
      coheriq::call<Domain, typename GemmCandidates<T>::gemm_workspace>(m, split.largest(), k));
  const GemmWorkspace workspace(stride * split.parts);
  unsigned char* const work = static_cast<unsigned char*>(workspace.data());
  auto block = [&](std::size_t part) noexcept {
    const std::size_t lo = split.begin(part), hi = split.begin(part + 1);
    const T* b = tb == Trans::N ? B + lo : B + lo * ldb;
    coheriq::call<Domain, typename GemmCandidates<T>::gemm>(
        ta, tb, m, hi - lo, k, alpha, A, lda, b, ldb, beta, C + lo, ldc, work + stride * part);
  };
  team.run(split.parts, block);
}

}  // namespace

template <class T>
void gemm(Trans ta, Trans tb, std::size_t m, std::size_t n, std::size_t k, T alpha, const T* A,
          std::size_t lda, const T* B, std::size_t ldb, T beta, T* C, std::size_t ldc) {
  // A team only as large as the blocks the product has: a product too thin to cut does not
  // hold the pool while it runs, nor build a team, nor keep its arguments in a frame that the
  // team's code needs (a small product's call is tens of nanoseconds).
  const GemmThreading& threading = gemm_threading<T>();
  const std::size_t wanted =
      gemm_split(threading, gemm_threads<T>(threading, m, n, k), m, n, true).parts;
  if (wanted <= 1) return gemm_on_this_thread(ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
  gemm_on_team(threading, wanted, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}

template <class T>
void gemm_packed(Trans ta, std::size_t m, std::size_t n, std::size_t k, T alpha, const T* A,
                 std::size_t lda, const void* packed, T beta, T* C, std::size_t ldc) {
  using GemmPacked = typename GemmCandidates<T>::gemm_packed;
  by_rows_of_packed<T>(m, n, k, [&](pool::Team& team, const GemmSplit& split) {
    if (split.parts <= 1) {
      coheriq::call<Domain, GemmPacked>(ta, m, n, k, alpha, A, lda, packed, beta, C, ldc);
      return;
    }
    gemm_packed_rows(team, split, ta, n, k, alpha, A, lda, packed, beta, C, ldc);
  });
}

template <class T>
void gemmt(Uplo uplo, Trans ta, Trans tb, std::size_t n, std::size_t width, std::size_t k, T alpha,
           const T* A, std::size_t lda, const T* B, std::size_t ldb, T beta, T* C,
           std::size_t ldc) {
  using Candidates = GemmCandidates<T>;
  const GemmWorkspace workspace(
      coheriq::call<Domain, typename Candidates::gemmt_workspace>(n, width, k));
  coheriq::call<Domain, typename Candidates::gemmt>(uplo, ta, tb, n, width, k, alpha, A, lda, B,
                                                    ldb, beta, C, ldc, workspace.data());
}
template void gemmt<float>(Uplo, Trans, Trans, std::size_t, std::size_t, std::size_t, float,
                           const float*, std::size_t, const float*, std::size_t, float, float*,
                           std::size_t);
template void gemmt<double>(Uplo, Trans, Trans, std::size_t, std::size_t, std::size_t, double,
                            const double*, std::size_t, const double*, std::size_t, double, double*,
                            std::size_t);

template <class T>
std::size_t packed_bytes(std::size_t k, std::size_t n) {
  return coheriq::call<Domain, typename GemmCandidates<T>::packed_bytes>(k, n);
}
template std::size_t packed_bytes<float>(std::size_t, std::size_t);
template std::size_t packed_bytes<double>(std::size_t, std::size_t);

template <class T>
void pack_b_1m(Op op, bool conj_a, std::size_t k, std::size_t n, std::complex<T> alpha,
               const std::complex<T>* B, std::size_t ldb, void* packed) {
  coheriq::call<Domain, typename GemmCandidates<T>::pack_b_1m>(
      op, conj_a, k, n, alpha.real(), alpha.imag(), reinterpret_cast<const T*>(B), ldb, packed);
}
template void pack_b_1m<float>(Op, bool, std::size_t, std::size_t, std::complex<float>,
                               const std::complex<float>*, std::size_t, void*);
template void pack_b_1m<double>(Op, bool, std::size_t, std::size_t, std::complex<double>,
                                const std::complex<double>*, std::size_t, void*);

template <class T>
void gemm_1m(Trans ta, std::size_t m, std::size_t n, std::size_t k, const std::complex<T>* A,
             std::size_t lda, const void* packed, T beta, std::complex<T>* C, std::size_t ldc) {
  using Candidates = GemmCandidates<T>;
  // As gemm_packed: by rows of C, which share the packed B'; each block packs its rows of A' in a
  // workspace of its own.
  by_rows_of_packed<T>(m, 2 * n, 2 * k, [&](pool::Team& team, const GemmSplit& split) {
    const std::size_t stride = round_up_64(
        coheriq::call<Domain, typename Candidates::gemm_1m_workspace>(split.largest(), k));
    const GemmWorkspace workspace(stride * split.parts);
    unsigned char* const work = static_cast<unsigned char*>(workspace.data());
    // The domain is locked (the queries above), so the workers' calls cannot throw.
    auto block = [&](std::size_t part) noexcept {
      const std::size_t lo = split.begin(part), hi = split.begin(part + 1);
      const std::complex<T>* a = ta == Trans::N ? A + lo * lda : A + lo;
      coheriq::call<Domain, typename Candidates::gemm_1m>(
          ta, hi - lo, n, k, reinterpret_cast<const T*>(a), lda, packed, beta,
          reinterpret_cast<T*>(C + lo * ldc), ldc, work + stride * part);
    };
    if (split.parts <= 1) return block(0);
    team.run(split.parts, block);
  });
}
template void gemm_1m<float>(Trans, std::size_t, std::size_t, std::size_t,
                             const std::complex<float>*, std::size_t, const void*, float,
                             std::complex<float>*, std::size_t);
template void gemm_1m<double>(Trans, std::size_t, std::size_t, std::size_t,
                              const std::complex<double>*, std::size_t, const void*, double,
                              std::complex<double>*, std::size_t);

template <class T>
void gemmt_1m(Uplo uplo, Trans ta, std::size_t n, std::size_t k, const std::complex<T>* A,
              std::size_t lda, const void* packed, T beta, std::complex<T>* C, std::size_t ldc) {
  using Candidates = GemmCandidates<T>;
  const GemmWorkspace workspace(
      coheriq::call<Domain, typename Candidates::gemm_1m_workspace>(n, k));
  coheriq::call<Domain, typename Candidates::gemmt_1m>(
      uplo, ta, n, k, reinterpret_cast<const T*>(A), lda, packed, beta, reinterpret_cast<T*>(C),
      ldc, workspace.data());
}
template void gemmt_1m<float>(Uplo, Trans, std::size_t, std::size_t, const std::complex<float>*,
                              std::size_t, const void*, float, std::complex<float>*, std::size_t);
template void gemmt_1m<double>(Uplo, Trans, std::size_t, std::size_t, const std::complex<double>*,
                               std::size_t, const void*, double, std::complex<double>*,
                               std::size_t);

template <class T>
void symm_packed(Side side, Uplo uplo, std::size_t m, std::size_t n, T alpha, const T* A,
                 std::size_t lda, const T* B, std::size_t ldb, T beta, T* C, std::size_t ldc) {
  using Candidates = GemmCandidates<T>;
  const GemmWorkspace workspace(
      coheriq::call<Domain, typename Candidates::symm_packed_workspace>(side, m, n));
  coheriq::call<Domain, typename Candidates::symm_packed>(side, uplo, m, n, alpha, A, lda, B, ldb,
                                                          beta, C, ldc, workspace.data());
}
template void symm_packed<float>(Side, Uplo, std::size_t, std::size_t, float, const float*,
                                 std::size_t, const float*, std::size_t, float, float*,
                                 std::size_t);
template void symm_packed<double>(Side, Uplo, std::size_t, std::size_t, double, const double*,
                                  std::size_t, const double*, std::size_t, double, double*,
                                  std::size_t);

template <class T>
void trmm_packed(Side side, Uplo uplo, Trans ta, Diag diag, std::size_t m, std::size_t n, T alpha,
                 const T* A, std::size_t lda, T* B, std::size_t ldb) {
  using Candidates = GemmCandidates<T>;
  const GemmWorkspace workspace(
      coheriq::call<Domain, typename Candidates::trmm_packed_workspace>(side, m, n));
  coheriq::call<Domain, typename Candidates::trmm_packed>(side, uplo, ta, diag, m, n, alpha, A, lda,
                                                          B, ldb, workspace.data());
}
template void trmm_packed<float>(Side, Uplo, Trans, Diag, std::size_t, std::size_t, float,
                                 const float*, std::size_t, float*, std::size_t);
template void trmm_packed<double>(Side, Uplo, Trans, Diag, std::size_t, std::size_t, double,
                                  const double*, std::size_t, double*, std::size_t);

template <class T>
void trmm_1m(Side side, Uplo uplo, Op op, Diag diag, std::size_t m, std::size_t n,
             std::complex<T> alpha, const std::complex<T>* A, std::size_t lda, std::complex<T>* B,
             std::size_t ldb) {
  using Candidates = GemmCandidates<T>;
  const GemmWorkspace workspace(
      coheriq::call<Domain, typename Candidates::trmm_1m_workspace>(side, m, n));
  coheriq::call<Domain, typename Candidates::trmm_1m>(
      side, uplo, op, diag, m, n, alpha.real(), alpha.imag(), reinterpret_cast<const T*>(A), lda,
      reinterpret_cast<T*>(B), ldb, workspace.data());
}
template void trmm_1m<float>(Side, Uplo, Op, Diag, std::size_t, std::size_t, std::complex<float>,
                             const std::complex<float>*, std::size_t, std::complex<float>*,
                             std::size_t);
template void trmm_1m<double>(Side, Uplo, Op, Diag, std::size_t, std::size_t, std::complex<double>,
                              const std::complex<double>*, std::size_t, std::complex<double>*,
                              std::size_t);

template <class T>
bool gemm_runs_alone(std::size_t m, std::size_t n, std::size_t k) {
  // Below the work that threads take, whatever the thread count is now or later.
  const double work = static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(k);
  return work < gemm_threading<T>().min_parallel_work.template of<T>() &&
         coheriq::call<Domain, typename GemmCandidates<T>::gemm_workspace>(m, n, k) == 0;
}
template bool gemm_runs_alone<float>(std::size_t, std::size_t, std::size_t);
template bool gemm_runs_alone<double>(std::size_t, std::size_t, std::size_t);

// ------------------------------ gemv on the pool

// The record of the engine that provides gemv (its lookup locks the domain: the workers'
// coheriq::call below cannot throw).
template <class T>
const GemvThreading& gemv_threading() {
  return figures_of<typename Blas2Candidates<T>::gemv, typename GemmCandidates<T>::gemm_workspace,
                    &Tuning::gemv_threading>();
}

// Blocks of y, each the engine's gemv on its rows of A (Trans::N) or its columns (Trans::T) with
// the whole x: an element of y is computed as one call computes it (an engine's gemv computes
// y_i from row or column i alone, in an order that does not depend on where a block of rows
// starts when it starts at a multiple of the grain: docs/engine-guide.md), so y is bitwise the
// same for every thread count. A is streamed once either way; two cores read it at close to
// twice one core's bandwidth here (docs/performance.md).
template <class T>
void gemv(Trans op, std::size_t m, std::size_t n, T alpha, const T* A, std::size_t lda, const T* x,
          std::ptrdiff_t incx, T beta, T* y, std::ptrdiff_t incy) {
  using Gemv = typename Blas2Candidates<T>::gemv;
  const GemvThreading& t = gemv_threading<T>();
  const std::size_t extent = op == Trans::N ? m : n;
  const double bytes = static_cast<double>(m) * static_cast<double>(n) * sizeof(T);
  const std::size_t wanted =
      bytes < static_cast<double>(t.min_parallel_bytes)
          ? 1
          : std::min(num_threads(), extent / std::max<std::size_t>(t.min_block, 1));
  pool::Team team(wanted);
  const std::size_t parts = team.size();
  if (parts <= 1) {
    coheriq::call<Domain, Gemv>(op, m, n, alpha, A, lda, x, incx, beta, y, incy);
    return;
  }
  const std::size_t grain = std::max<std::size_t>(t.grain, 1);
  auto block = [&](std::size_t p) noexcept {
    const std::size_t lo = block_begin(extent, parts, grain, p);
    const std::size_t hi = block_begin(extent, parts, grain, p + 1);
    T* y_lo = y + static_cast<std::ptrdiff_t>(lo) * incy;  // element lo, for either sign of incy
    if (op == Trans::N) {
      coheriq::call<Domain, Gemv>(op, hi - lo, n, alpha, A + lo * lda, lda, x, incx, beta, y_lo,
                                  incy);
    } else {
      coheriq::call<Domain, Gemv>(op, m, hi - lo, alpha, A + lo, lda, x, incx, beta, y_lo, incy);
    }
  };
  team.run(parts, block);
}
template void gemv<float>(Trans, std::size_t, std::size_t, float, const float*, std::size_t,
                          const float*, std::ptrdiff_t, float, float*, std::ptrdiff_t);
template void gemv<double>(Trans, std::size_t, std::size_t, double, const double*, std::size_t,
                           const double*, std::ptrdiff_t, double, double*, std::ptrdiff_t);

template <class T>
std::size_t threads_for_work(double work) {
  return work < gemm_threading<T>().min_parallel_work.template of<T>() ? 1 : num_threads();
}
template std::size_t threads_for_work<float>(double);
template std::size_t threads_for_work<double>(double);

namespace {

// A batch runs in contiguous runs of products, one run per thread, each one call of the engine's
// batch candidate (run(lo, hi, work)) with a workspace of its own, gemm's for the shape. Every
// product is computed whole on one thread, as gemm computes it, so the batch gives the same bits
// for every thread count. Fewer products than threads, each large enough for threads of its
// own: one product after the other, each on the team (gemm(i)).
template <class T, class Run, class Gemm>
void gemm_batches(std::size_t m, std::size_t n, std::size_t k, std::size_t batch, Run run,
                  Gemm gemm) {
  using Workspace = typename GemmCandidates<T>::gemm_workspace;
  const GemmThreading& threading = gemm_threading<T>();
  const double work = static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(k);
  const std::size_t threads =
      work * static_cast<double>(batch) < threading.min_parallel_work.template of<T>()
          ? 1
          : num_threads();
  if (batch < threads && work >= threading.min_parallel_work.template of<T>()) {
    for (std::size_t i = 0; i < batch; ++i) gemm(i);
    return;
  }
  const std::size_t bytes = coheriq::call<Domain, Workspace>(m, n, k);
  pool::Team team(std::min(threads, batch));
  if (team.size() <= 1) {
    const GemmWorkspace workspace(bytes);
    run(std::size_t{0}, batch, workspace.data());
    return;
  }
  const std::size_t parts = team.size();
  const std::size_t stride = round_up_64(bytes);
  const GemmWorkspace workspace(stride * parts);
  unsigned char* const base = static_cast<unsigned char*>(workspace.data());
  auto part = [&](std::size_t p) noexcept {
    run(batch * p / parts, batch * (p + 1) / parts, base + stride * p);
  };
  team.run(parts, part);
}

}  // namespace

template <class T>
void gemm_batch_strided(Trans ta, Trans tb, std::size_t m, std::size_t n, std::size_t k, T alpha,
                        const T* A, std::size_t lda, std::size_t stride_a, const T* B,
                        std::size_t ldb, std::size_t stride_b, T beta, T* C, std::size_t ldc,
                        std::size_t stride_c, std::size_t batch) {
  gemm_batches<T>(
      m, n, k, batch,
      [&](std::size_t lo, std::size_t hi, void* work) noexcept {
        coheriq::call<Domain, typename GemmCandidates<T>::gemm_batch_strided>(
            ta, tb, m, n, k, alpha, A + lo * stride_a, lda, stride_a, B + lo * stride_b, ldb,
            stride_b, beta, C + lo * stride_c, ldc, stride_c, hi - lo, work);
      },
      [&](std::size_t i) {
        gemm(ta, tb, m, n, k, alpha, A + i * stride_a, lda, B + i * stride_b, ldb, beta,
             C + i * stride_c, ldc);
      });
}

template <class T>
void gemm_batch(Trans ta, Trans tb, std::size_t m, std::size_t n, std::size_t k, T alpha,
                const T* const* A, std::size_t lda, const T* const* B, std::size_t ldb, T beta,
                T* const* C, std::size_t ldc, std::size_t batch) {
  gemm_batches<T>(
      m, n, k, batch,
      [&](std::size_t lo, std::size_t hi, void* work) noexcept {
        coheriq::call<Domain, typename GemmCandidates<T>::gemm_batch>(
            ta, tb, m, n, k, alpha, A + lo, lda, B + lo, ldb, beta, C + lo, ldc, hi - lo, work);
      },
      [&](std::size_t i) { gemm(ta, tb, m, n, k, alpha, A[i], lda, B[i], ldb, beta, C[i], ldc); });
}

template void gemm<float>(Trans, Trans, std::size_t, std::size_t, std::size_t, float, const float*,
                          std::size_t, const float*, std::size_t, float, float*, std::size_t);
template void gemm<double>(Trans, Trans, std::size_t, std::size_t, std::size_t, double,
                           const double*, std::size_t, const double*, std::size_t, double, double*,
                           std::size_t);
#define COHERIQ_DRIVER_BATCHES(T)                                                                 \
  template void gemm_batch_strided<T>(Trans, Trans, std::size_t, std::size_t, std::size_t, T,     \
                                      const T*, std::size_t, std::size_t, const T*, std::size_t,  \
                                      std::size_t, T, T*, std::size_t, std::size_t, std::size_t); \
  template void gemm_batch<T>(Trans, Trans, std::size_t, std::size_t, std::size_t, T,             \
                              const T* const*, std::size_t, const T* const*, std::size_t, T,      \
                              T* const*, std::size_t, std::size_t);
COHERIQ_DRIVER_BATCHES(float)
COHERIQ_DRIVER_BATCHES(double)
#undef COHERIQ_DRIVER_BATCHES
template void gemm_packed<float>(Trans, std::size_t, std::size_t, std::size_t, float, const float*,
                                 std::size_t, const void*, float, float*, std::size_t);
template void gemm_packed<double>(Trans, std::size_t, std::size_t, std::size_t, double,
                                  const double*, std::size_t, const void*, double, double*,
                                  std::size_t);

namespace {

// ------------------------------ Reduced-precision GEMMs (no transposes; B is k x n)

// Runs a product of m rows of C in blocks of rows on the pool (the figures of the engine that
// provides Gemm, the f32 threshold), each block with its own workspace of workspace_bytes(rows)
// bytes: block(lo, hi, work) computes rows [lo, hi) with the full k, so the result does not
// depend on the thread count. The domain is locked before any worker calls the engine.
template <class Gemm, class Workspace, class WorkspaceBytes, class Block>
void gemm_by_rows(std::size_t m, std::size_t n, std::size_t k, WorkspaceBytes workspace_bytes,
                  Block block) {
  const GemmThreading& threading = gemm_threading_of<Gemm, Workspace>();
  pool::Team team(
      gemm_split(threading, gemm_threads<float>(threading, m, n, k), m, n, false).parts);
  const GemmSplit split = gemm_split(threading, team.size(), m, n, false);
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

}  // namespace

void gemm_u8s8s32(std::size_t m, std::size_t n, std::size_t k, const std::uint8_t* A,
                  std::size_t lda, const std::int8_t* B, std::size_t ldb, std::int32_t* C,
                  std::size_t ldc) {
  gemm_by_rows<cand::gemm_u8s8s32, cand::gemm_workspace_u8s8s32>(
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
  gemm_by_rows<cand::gemm_bf16, cand::gemm_workspace_bf16>(
      m, n, k,
      [&](std::size_t rows) {
        return coheriq::call<Domain, cand::gemm_workspace_bf16>(rows, n, k);
      },
      [&](std::size_t lo, std::size_t hi, void* work) noexcept {
        coheriq::call<Domain, cand::gemm_bf16>(hi - lo, n, k, alpha, A + lo * lda, lda, B, ldb,
                                               beta, C + lo * ldc, ldc, work);
      });
}

}  // namespace coheriq::kernels::driver
