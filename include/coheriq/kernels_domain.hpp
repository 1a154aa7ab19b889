// The kernels domain for engine authors: its candidate classes and candidate functions.
//
// Baseline code, types only. Engines (built-in or plugins) include this to name what they
// override; the signature of each tag is the contract an override must match (a mismatch does
// not compile). Internal candidates differ from the public API where the engine needs baseline
// help: gemm gets a workspace sized by gemm_workspace (ISA code never allocates; where that is 0
// bytes, gemm gets a null pointer), and packing is split into packed_bytes + pack_b so the
// baseline owns PackedMatrix's memory.
#pragma once

#include <coheriq/domain.hpp>
#include <coheriq/kernels.hpp>
#include <coheriq/kernels_table.hpp>

#include <cstddef>
#include <cstdint>
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
// The packed B of the reduced-precision GEMMs: built in the workspace of one call (no public
// object holds it), in whatever groups the engine's instructions read (VNNI: 4 bytes of k per
// column; bf16 dot products: pairs). The workspace size and the GEMM touch it, so the coherence
// rule keeps both from one engine.
struct packed_u8s8 : coheriq::candidate_class {
  static constexpr std::string_view name = "gemm_u8s8s32 packed B";
};
struct packed_bf16 : coheriq::candidate_class {
  static constexpr std::string_view name = "gemm_bf16 packed B";
};

// ------------------------------ Candidate tags
// One per row of the candidate list (coheriq/kernels_table.hpp): cand::op_S, named "op.S".
#define COHERIQ_KERNELS_TAG(op, S, impl, touched, R, params, args) \
  struct op##_##S : candidate<R params, touched> {                 \
    static constexpr std::string_view name = #op "." #S;           \
  };
COHERIQ_KERNELS_CANDIDATES(COHERIQ_KERNELS_TAG)
#undef COHERIQ_KERNELS_TAG

}  // namespace cand

// The domain, as coheriq sees it.
struct Domain {
  static constexpr std::string_view name = domain_name;
  static constexpr std::string_view env_var = "COHERIQ_ENGINE";
  // The reproducible mode (coheriq::kernels::enable_reproducible; src/kernels/reproducible.hpp).
  static constexpr std::string_view reproducible_env_var = "COHERIQ_REPRODUCIBLE";
  static constexpr std::string_view abi = "coheriq.kernels/2";
  using classes =
      coheriq::list<cand::packed_f32, cand::packed_f64, cand::packed_u8s8, cand::packed_bf16>;
#define COHERIQ_KERNELS_TAG_NAME(op, S, impl, touched, R, params, args) , cand::op##_##S
  using candidates =
      coheriq::list_tail<coheriq::list<void COHERIQ_KERNELS_CANDIDATES(COHERIQ_KERNELS_TAG_NAME)>>;
#undef COHERIQ_KERNELS_TAG_NAME
  static const coheriq::OverrideTable& reference();  // src/reference
  // src/reference: the reference engine in the reproducible mode.
  static const coheriq::OverrideTable& reference_reproducible();
  static std::vector<coheriq::EngineSpec> builtin_engines();  // the generated registry
  // COHERIQ_NUM_THREADS, checked at the first use (src/kernels/threads.cpp).
  static void check_settings();
};

}  // namespace coheriq::kernels
