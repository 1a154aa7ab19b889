// oneDNN (2.6, Debian's libdnnl-dev), the GEMM peer with JIT-generated kernels: sgemm through
// dnnl_sgemm, the u8·s8 -> s32 product through dnnl_gemm_u8s8s32 (zero offsets, alpha 1, beta
// 0, a fixed C offset of 0), and the bf16 product through a matmul primitive (bf16 source and
// weights, f32 destination, plain row-major), created once per order outside the timer as its
// users keep a primitive. oneDNN has no f64 GEMM, so the f64 rows have no oneDNN column.
//
// Every product is checked before it is timed (harness.hpp, reduced_mismatch). Without VNNI,
// oneDNN 2.6's u8s8s32 kernels add pairs of u8·s8 products in saturating 16-bit lanes
// (vpmaddubsw): with operands over their full ranges the result is not the product, and those
// rows fail with the first wrong element instead of being timed. Its bf16 matmul needs AVX-512.
//
// Its ISA follows the engine whose process it shares (peer_may_use, as LIBXSMM's): the JIT is held
// back with dnnl_set_max_cpu_isa to what that engine runs, so under avx512 oneDNN uses no VNNI or
// BF16 instruction and under avx2 no AVX-512. Threads: Debian builds it on OpenMP, so the harness's
// threads() is given to the OpenMP runtime it loaded (omp_set_num_threads).
#include <omp.h>
#include <oneapi/dnnl/dnnl.h>
#include <oneapi/dnnl/dnnl_version.h>
#include <oneapi/dnnl/dnnl.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>

#include "../harness.hpp"
#include "peers.hpp"

namespace coheriq_bench {
namespace {

void check(dnnl_status_t status, const char* what) {
  if (status != dnnl_success) {
    throw std::runtime_error(std::string("oneDNN ") + what + " failed (status " +
                             std::to_string(static_cast<int>(status)) + ")");
  }
}

// The widest ISA the engine in effect lets a peer use, as oneDNN names it; and its name.
struct IsaChoice {
  dnnl_cpu_isa_t isa;
  const char* name;
};
IsaChoice engine_isa() {
  if (!peer_may_use("avx2")) return {dnnl_cpu_isa_sse41, "sse41"};
  if (!peer_may_use("avx512f")) return {dnnl_cpu_isa_avx2, "avx2"};
  if (peer_may_use("avx512_bf16")) return {dnnl_cpu_isa_avx512_core_bf16, "avx512_core_bf16"};
  if (peer_may_use("avx512vnni")) return {dnnl_cpu_isa_avx512_core_vnni, "avx512_core_vnni"};
  return {dnnl_cpu_isa_avx512_core, "avx512_core"};
}

const char* isa_name(dnnl_cpu_isa_t isa) {
  switch (isa) {
    case dnnl_cpu_isa_sse41:
      return "sse41";
    case dnnl_cpu_isa_avx:
      return "avx";
    case dnnl_cpu_isa_avx2:
      return "avx2";
    case dnnl_cpu_isa_avx2_vnni:
      return "avx2_vnni";
    case dnnl_cpu_isa_avx512_core:
      return "avx512_core";
    case dnnl_cpu_isa_avx512_core_vnni:
      return "avx512_core_vnni";
    case dnnl_cpu_isa_avx512_core_bf16:
      return "avx512_core_bf16";
    case dnnl_cpu_isa_avx512_core_amx:
      return "avx512_core_amx";
    default:
      return "another ISA";
  }
}

// The bf16 product as a matmul primitive for one order: made once, executed per call.
class Bf16Matmul {
 public:
  explicit Bf16Matmul(std::size_t n)
      : engine_(dnnl::engine::kind::cpu, 0),
        stream_(engine_),
        a_(md(n, dnnl::memory::data_type::bf16)),
        b_(md(n, dnnl::memory::data_type::bf16)),
        c_(md(n, dnnl::memory::data_type::f32)),
        primitive_(dnnl::matmul::primitive_desc(dnnl::matmul::desc(a_, b_, c_), engine_)) {}

  void operator()(const Bf16Bits* a, const Bf16Bits* b, float* c) {
    // The memory objects wrap the caller's buffers (no copy); oneDNN's API takes them non-const.
    dnnl::memory am(a_, engine_, const_cast<Bf16Bits*>(a));
    dnnl::memory bm(b_, engine_, const_cast<Bf16Bits*>(b));
    dnnl::memory cm(c_, engine_, c);
    primitive_.execute(stream_, {{DNNL_ARG_SRC, am}, {DNNL_ARG_WEIGHTS, bm}, {DNNL_ARG_DST, cm}});
    stream_.wait();
  }

 private:
  static dnnl::memory::desc md(std::size_t n, dnnl::memory::data_type type) {
    const auto d = static_cast<dnnl::memory::dim>(n);
    return dnnl::memory::desc({d, d}, type, dnnl::memory::format_tag::ab);
  }
  dnnl::engine engine_;
  dnnl::stream stream_;
  dnnl::memory::desc a_, b_, c_;
  dnnl::matmul primitive_;
};

}  // namespace

PeerStatus register_onednn() {
  const IsaChoice allowed = engine_isa();
  // Fails when oneDNN has already generated code (not here: nothing of it ran before), or when
  // this build of it ignores the setting; the ISA it reports below says what it runs either way.
  (void)dnnl_set_max_cpu_isa(allowed.isa);
  omp_set_num_threads(static_cast<int>(threads()));

  add_gemm<float>("onednn", [](std::size_t n, const float* a, const float* b, float* c) {
    const auto d = static_cast<dnnl_dim_t>(n);
    check(dnnl_sgemm('N', 'N', d, d, d, 1.0f, a, d, b, d, 0.0f, c, d), "dnnl_sgemm");
  });
  add_reduced_gemm<std::uint8_t, std::int8_t, std::int32_t>("u8s8s32", "onednn", [](std::size_t n) {
    return [n](const std::uint8_t* a, const std::int8_t* b, std::int32_t* c) {
      const auto d = static_cast<dnnl_dim_t>(n);
      const std::int32_t offset = 0;
      check(dnnl_gemm_u8s8s32('N', 'N', 'F', d, d, d, 1.0f, a, d, 0, b, d, 0, 0.0f, c, d, &offset),
            "dnnl_gemm_u8s8s32");
    };
  });
  add_reduced_gemm<Bf16Bits, Bf16Bits, float>("bf16", "onednn", [](std::size_t n) {
    std::shared_ptr<Bf16Matmul> matmul;  // shared by the copies made of the callable
    try {
      matmul = std::make_shared<Bf16Matmul>(n);
    } catch (const dnnl::error& e) {
      // oneDNN 2.6 has bf16 matmul kernels for AVX-512 only.
      throw std::runtime_error(std::string("oneDNN has no bf16 matmul for ") +
                               isa_name(dnnl_get_effective_cpu_isa()) + " (" + e.what() + ")");
    }
    return [matmul](const Bf16Bits* a, const Bf16Bits* b, float* c) { (*matmul)(a, b, c); };
  });

  const dnnl_version_t* version = dnnl_version();
  return {"onednn", true,
          std::to_string(version->major) + "." + std::to_string(version->minor) + "." +
              std::to_string(version->patch) + ", JIT kernels for " +
              isa_name(dnnl_get_effective_cpu_isa()) + " (held to the engine's " + allowed.name +
              "), " + std::to_string(threads()) + (threads() == 1 ? " thread" : " threads") +
              "; sgemm, u8s8s32 and bf16 (matmul) only"};
}

}  // namespace coheriq_bench
