#!/usr/bin/env bash
# Installs every Debian package the build and the benchmarks need; with --tests also what only
# the test suite uses (Chromium, to render the bench chart, and the aarch64 cross build); with
# --aarch64 the aarch64 cross build alone (the cross compiler, the arm64 libraries through
# Debian's multiarch, qemu-user to run them). Idempotent, and fast when everything is there
# already (one dpkg query, no apt-get call).
set -euo pipefail

packages=(
  cmake ninja-build g++ pkg-config
  libhwy-dev libcpu-features-dev                   # engines (build time only)
  doctest-dev libbenchmark-dev                     # tests and benchmarks
  nlohmann-json3-dev libcli11-dev                  # the coheriq command
  libopenblas-dev libblis-dev libeigen3-dev libsleef-dev libxsmm-dev libdnnl-dev  # benchmark peers
  qemu-user                                        # emulated older CPUs (ISA hygiene)
  clang libclang-rt-14-dev                         # fuzzing, sanitizers
  binutils                                         # nm for the engine symbol check
  openmpi-bin libopenmpi-dev                       # the MPI component (coheriq::mpi), its tests
)
# The aarch64 cross build (docs/toolchain.md): the arm64 copies of the compiled libraries; the
# header-only ones (doctest, nlohmann-json, CLI11, Eigen) are Multi-Arch: foreign and serve both.
aarch64=(
  g++-aarch64-linux-gnu qemu-user
  libhwy-dev:arm64 libcpu-features-dev:arm64 libbenchmark-dev:arm64
  libopenblas-dev:arm64 libsleef-dev:arm64
)
# What the aarch64 suite runs its BLAS library under (tests/blas): the reference BLAS and
# netlib's testers, arm64 builds.
aarch64_tests=(libblas3:arm64 libblas-test:arm64)
for arg in "$@"; do
  case "$arg" in
    # --tests: the bench chart; exit-time gemm; tests/blas (reference BLAS and its netlib test
    # programs, Fortran, numpy); aarch64
    --tests) packages+=(chromium valgrind libblas3 libblas-test liblapack3 liblapack-test gfortran
                        python3-numpy python3-scipy python3-pytest python3-hypothesis "${aarch64[@]}"
                        "${aarch64_tests[@]}") ;;
    --aarch64) packages+=("${aarch64[@]}") ;;
    *) echo "coheriq: scripts/deps.sh: unknown option '$arg' (--tests, --aarch64)" >&2; exit 2 ;;
  esac
done

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ "${#missing[@]}" -eq 0 ]; then
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "coheriq: these packages are missing: ${missing[*]}; run scripts/deps.sh as root" >&2
  exit 1
fi
echo "coheriq: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
case " ${missing[*]}" in
  *:arm64*)
    if ! dpkg --print-foreign-architectures | grep -qx arm64; then
      dpkg --add-architecture arm64
    fi
    ;;
esac
apt-get update -q >/dev/null
apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
