// The kernels domain for engine authors: its candidate classes and candidate functions.
//
// Baseline code, types only. Engines (built-in or plugins) include this to name what they
// override; the signature of each tag is the contract an override must match (a mismatch does
// not compile). Internal candidates differ from the public API where the engine needs baseline
// help: gemm gets a workspace sized by gemm_workspace (ISA code never allocates), and packing is
// split into packed_bytes + pack_b so the baseline owns PackedMatrix's memory.
#pragma once

#include <coheriq/domain.hpp>
#include <coheriq/kernels.hpp>

#include <cstddef>
#include <string_view>
#include <vector>

namespace coheriq::kernels {

namespace cand {

using coheriq::candidate;
using coheriq::touches;

// ------------------------------ Candidate classes
struct packed_f32 : coheriq::candidate_class {
  static constexpr std::string_view name = "PackedMatrix<float>";
};
struct packed_f64 : coheriq::candidate_class {
  static constexpr std::string_view name = "PackedMatrix<double>";
};

#define COHERIQ_KERNELS_PER_TYPE(T, S)                                                             \
  struct dot_##S : candidate<T(std::size_t, const T*, const T*)> {                                 \
    static constexpr std::string_view name = "dot." #S;                                            \
  };                                                                                               \
  struct axpy_##S : candidate<void(std::size_t, T, const T*, T*)> {                                \
    static constexpr std::string_view name = "axpy." #S;                                           \
  };                                                                                               \
  struct scal_##S : candidate<void(std::size_t, T, T*)> {                                          \
    static constexpr std::string_view name = "scal." #S;                                           \
  };                                                                                               \
  struct sum_##S : candidate<T(std::size_t, const T*)> {                                           \
    static constexpr std::string_view name = "sum." #S;                                            \
  };                                                                                               \
  struct asum_##S : candidate<T(std::size_t, const T*)> {                                          \
    static constexpr std::string_view name = "asum." #S;                                           \
  };                                                                                               \
  struct nrm2_##S : candidate<T(std::size_t, const T*)> {                                          \
    static constexpr std::string_view name = "nrm2." #S;                                           \
  };                                                                                               \
  struct iamax_##S : candidate<std::size_t(std::size_t, const T*)> {                               \
    static constexpr std::string_view name = "iamax." #S;                                          \
  };                                                                                               \
  /* bytes of workspace gemm_##S needs for these sizes (0 allowed) */                              \
  struct gemm_workspace_##S : candidate<std::size_t(std::size_t, std::size_t, std::size_t)> {      \
    static constexpr std::string_view name = "gemm_workspace." #S;                                 \
  };                                                                                               \
  /* C = alpha op(A) op(B) + beta C; workspace: 64-byte aligned, gemm_workspace bytes */           \
  struct gemm_##S                                                                                  \
      : candidate<void(Trans, Trans, std::size_t, std::size_t, std::size_t, T, const T*,           \
                       std::size_t, const T*, std::size_t, T, T*, std::size_t, void*)> {           \
    static constexpr std::string_view name = "gemm." #S;                                           \
  };                                                                                               \
  /* bytes of a packed op(B) of k x n in this engine's layout */                                   \
  struct packed_bytes_##S                                                                          \
      : candidate<std::size_t(std::size_t, std::size_t), touches<packed_##S>> {                    \
    static constexpr std::string_view name = "packed_bytes." #S;                                   \
  };                                                                                               \
  /* packs op(B) (k x n) into `packed` (64-byte aligned, packed_bytes long) */                     \
  struct pack_b_##S                                                                                \
      : candidate<void(Trans, std::size_t, std::size_t, const T*, std::size_t, void*),             \
                  touches<packed_##S>> {                                                           \
    static constexpr std::string_view name = "pack_b." #S;                                         \
  };                                                                                               \
  /* C = alpha op(A) B + beta C with B packed by pack_b */                                         \
  struct gemm_packed_##S : candidate<void(Trans, std::size_t, std::size_t, std::size_t, T,         \
                                          const T*, std::size_t, const void*, T, T*, std::size_t), \
                                     touches<packed_##S>> {                                        \
    static constexpr std::string_view name = "gemm_packed." #S;                                    \
  };

COHERIQ_KERNELS_PER_TYPE(float, f32)
COHERIQ_KERNELS_PER_TYPE(double, f64)
#undef COHERIQ_KERNELS_PER_TYPE

// ------------------------------ Vector math (f32 only)
#define COHERIQ_KERNELS_UNARY(op)                                        \
  struct op##_f32 : candidate<void(std::size_t, const float*, float*)> { \
    static constexpr std::string_view name = #op ".f32";                 \
  };
COHERIQ_KERNELS_UNARY(exp)
COHERIQ_KERNELS_UNARY(log)
COHERIQ_KERNELS_UNARY(tanh)
COHERIQ_KERNELS_UNARY(sigmoid)
COHERIQ_KERNELS_UNARY(softmax)
#undef COHERIQ_KERNELS_UNARY

}  // namespace cand

// The domain, as coheriq sees it.
struct Domain {
  static constexpr std::string_view name = domain_name;
  static constexpr std::string_view env_var = "COHERIQ_ENGINE";
  static constexpr std::string_view abi = "coheriq.kernels/1";
  using classes = coheriq::list<cand::packed_f32, cand::packed_f64>;
  using candidates = coheriq::list<
      cand::dot_f32, cand::dot_f64, cand::axpy_f32, cand::axpy_f64, cand::scal_f32, cand::scal_f64,
      cand::sum_f32, cand::sum_f64, cand::asum_f32, cand::asum_f64, cand::nrm2_f32, cand::nrm2_f64,
      cand::iamax_f32, cand::iamax_f64, cand::exp_f32, cand::log_f32, cand::tanh_f32,
      cand::sigmoid_f32, cand::softmax_f32, cand::gemm_workspace_f32, cand::gemm_workspace_f64,
      cand::gemm_f32, cand::gemm_f64, cand::packed_bytes_f32, cand::packed_bytes_f64,
      cand::pack_b_f32, cand::pack_b_f64, cand::gemm_packed_f32, cand::gemm_packed_f64>;
  static const coheriq::OverrideTable& reference();           // src/reference
  static std::vector<coheriq::EngineSpec> builtin_engines();  // the generated registry
};

}  // namespace coheriq::kernels
