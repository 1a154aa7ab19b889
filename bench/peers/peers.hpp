// The peer libraries kernels_bench measures next to coheriq, each on the harness's threads()
// (1 unless --threads; a peer that cannot use more says so in its detail).
//
// Each register_* function registers the peer's benchmarks (through the harness helpers, so the
// loops are the ones coheriq gets) and says what it registered. A peer found at build time may
// still be unusable at run time (MKL's library missing, no SIMD ISA SLEEF was wrapped for);
// then it registers nothing and says why.
#pragma once

#include <string>

namespace coheriq_bench {

struct PeerStatus {
  std::string name;  // as in benchmark names: "openblas", "blis", "eigen", "libxsmm", "sleef",
                     // "libmvec", "mkl", "onednn"
  bool available = false;
  std::string detail;  // version, ISA, threads; or why it is unavailable
};

PeerStatus register_openblas();
PeerStatus register_blis();
PeerStatus register_eigen();
PeerStatus register_libxsmm();
PeerStatus register_sleef();
PeerStatus register_libmvec();
PeerStatus register_mkl();
PeerStatus register_onednn();

}  // namespace coheriq_bench
