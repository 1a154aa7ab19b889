// The public kernel functions of <coheriq/kernels.hpp>: validate, then forward to the engine in
// effect with coheriq::call (one pointer load and one indirect call once the domain is locked).
//
// Arguments are checked before the first coheriq::call, so a rejected call changes nothing and
// does not lock the domain. Baseline code: it owns every allocation the engines need.
#include <coheriq/kernels.hpp>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <new>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>

#include "kernels/candidates.hpp"
#include "kernels/packed_access.hpp"

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

// A leading dimension must hold a row of the matrix as stored: `row_name` = `row` elements
// (`trans` says which operand dimension that is, when the matrix may be transposed).
void check_ld(std::string_view function, std::string_view ld_name, std::size_t ld,
              std::string_view matrix, std::string_view row_name, std::size_t row,
              std::optional<Trans> trans) {
  if (ld >= row) return;
  std::string what = std::string(ld_name) + " = " + std::to_string(ld) +
                     " is smaller than a row of " + std::string(matrix) + " (" +
                     std::string(row_name) + " = " + std::to_string(row);
  if (trans) what += " for " + std::string(name_of(*trans));
  what += "); pass " + std::string(ld_name) + " >= " + std::to_string(row);
  throw_invalid(function, what);
}

// op(A) is m x k: stored m x k for Trans::N, k x m for Trans::T.
void check_lda(std::string_view function, Trans ta, std::size_t m, std::size_t k, std::size_t lda) {
  if (ta == Trans::N) {
    check_ld(function, "lda", lda, "A", "k", k, ta);
  } else {
    check_ld(function, "lda", lda, "A", "m", m, ta);
  }
}

// op(B) is k x n: stored k x n for Trans::N, n x k for Trans::T.
void check_ldb(std::string_view function, Trans tb, std::size_t k, std::size_t n, std::size_t ldb) {
  if (tb == Trans::N) {
    check_ld(function, "ldb", ldb, "B", "n", n, tb);
  } else {
    check_ld(function, "ldb", ldb, "B", "k", k, tb);
  }
}

void check_ldc(std::string_view function, std::size_t n, std::size_t ldc) {
  check_ld(function, "ldc", ldc, "C", "n", n, std::nullopt);
}

// A packed matrix is packed_bytes(k, n) long; engines may pad, but k·n elements must at least
// be addressable, or packed_bytes would wrap around and pack_b write past the allocation.
template <class T>
void check_packable(std::size_t k, std::size_t n) {
  if (n != 0 && k > std::numeric_limits<std::size_t>::max() / sizeof(T) / n) {
    throw_invalid("pack_b", "k = " + std::to_string(k) + " and n = " + std::to_string(n) +
                                " give more bytes than std::size_t can count; pack a smaller B");
  }
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

// ------------------------------ GEMM, pack_b and packed GEMM, for T = float or double

template <class T>
void gemm_checked(Trans ta, Trans tb, std::size_t m, std::size_t n, std::size_t k, T alpha,
                  const T* A, std::size_t lda, const T* B, std::size_t ldb, T beta, T* C,
                  std::size_t ldc) {
  check_lda("gemm", ta, m, k, lda);
  check_ldb("gemm", tb, k, n, ldb);
  check_ldc("gemm", n, ldc);
  const std::size_t bytes = coheriq::call<Domain, typename Candidates<T>::gemm_workspace>(m, n, k);
  const GemmWorkspace workspace(bytes);
  coheriq::call<Domain, typename Candidates<T>::gemm>(ta, tb, m, n, k, alpha, A, lda, B, ldb, beta,
                                                      C, ldc, workspace.data());
}

template <class T>
PackedMatrix<T> pack_b_checked(Trans tb, std::size_t k, std::size_t n, const T* B,
                               std::size_t ldb) {
  check_ldb("pack_b", tb, k, n, ldb);
  check_packable<T>(k, n);
  // The PackedMatrix is this call's first use (it names the lock), not packed_bytes.
  coheriq::use_class<Domain, typename PackedAccess<T>::candidate_class>();
  const std::size_t bytes = coheriq::call<Domain, typename Candidates<T>::packed_bytes>(k, n);
  PackedMatrix<T> packed = PackedAccess<T>::allocate(k, n, bytes);
  coheriq::call<Domain, typename Candidates<T>::pack_b>(tb, k, n, B, ldb,
                                                        PackedAccess<T>::data(packed));
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
  check_lda("gemm", ta, m, k, lda);
  check_ldc("gemm", n, ldc);
  coheriq::call<Domain, typename Candidates<T>::gemm_packed>(
      ta, m, n, k, alpha, A, lda, PackedAccess<T>::data(B), beta, C, ldc);
}

// ------------------------------ Reduced-precision GEMMs (no transposes; B is k x n)

void check_reduced(std::string_view function, std::size_t n, std::size_t k, std::size_t lda,
                   std::size_t ldb, std::size_t ldc) {
  check_ld(function, "lda", lda, "A", "k", k, std::nullopt);
  check_ld(function, "ldb", ldb, "B", "n", n, std::nullopt);
  check_ldc(function, n, ldc);
}

}  // namespace

// ------------------------------ Engine selection

void enable_engine(std::string_view engine) { coheriq::enable_engine<Domain>(engine); }

std::string active_engine() { return coheriq::active_engine<Domain>(); }

// ------------------------------ BLAS-1 and vector math: forwarded as they are

#define COHERIQ_KERNELS_FORWARD(op, S, impl, touched, R, params, args) \
  R op params { return coheriq::call<Domain, cand::op##_##S> args; }
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
  return coheriq::call<Domain, cand::dot_u8s8>(n, x, y);
}
float dot_bf16(std::size_t n, const bfloat16* x, const bfloat16* y) {
  return coheriq::call<Domain, cand::dot_bf16>(n, x, y);
}

void gemm_u8s8s32(std::size_t m, std::size_t n, std::size_t k, const std::uint8_t* A,
                  std::size_t lda, const std::int8_t* B, std::size_t ldb, std::int32_t* C,
                  std::size_t ldc) {
  check_reduced("gemm_u8s8s32", n, k, lda, ldb, ldc);
  const GemmWorkspace workspace(coheriq::call<Domain, cand::gemm_workspace_u8s8s32>(m, n, k));
  coheriq::call<Domain, cand::gemm_u8s8s32>(m, n, k, A, lda, B, ldb, C, ldc, workspace.data());
}
void gemm_bf16(std::size_t m, std::size_t n, std::size_t k, float alpha, const bfloat16* A,
               std::size_t lda, const bfloat16* B, std::size_t ldb, float beta, float* C,
               std::size_t ldc) {
  check_reduced("gemm_bf16", n, k, lda, ldb, ldc);
  const GemmWorkspace workspace(coheriq::call<Domain, cand::gemm_workspace_bf16>(m, n, k));
  coheriq::call<Domain, cand::gemm_bf16>(m, n, k, alpha, A, lda, B, ldb, beta, C, ldc,
                                         workspace.data());
}

}  // namespace coheriq::kernels
