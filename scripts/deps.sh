#!/usr/bin/env bash
# Installs every Debian package the build and the benchmarks need; with --tests also what only
# the test suite uses (Chromium, to render the bench chart). Idempotent, and fast when everything
# is there already (one dpkg query, no apt-get call).
set -euo pipefail

packages=(
  cmake ninja-build g++ pkg-config
  libhwy-dev libcpu-features-dev libxsimd-dev      # engines (build time only)
  doctest-dev libbenchmark-dev                     # tests and benchmarks
  nlohmann-json3-dev libcli11-dev                  # the coheriq command
  libopenblas-dev libeigen3-dev libsleef-dev       # benchmark peers
  qemu-user                                        # emulated older CPUs (ISA hygiene)
  clang libclang-rt-14-dev                         # fuzzing, sanitizers
  binutils                                         # nm for the engine symbol check
  openmpi-bin libopenmpi-dev                       # the MPI component (coheriq::mpi), its tests
)
if [ "${1:-}" = "--tests" ]; then
  packages+=(chromium valgrind)  # renders the bench chart in a test; checks exit-time gemm
  packages+=(libblas3 gfortran python3-numpy)  # tests/blas: reference BLAS, Fortran, numpy
fi

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
apt-get update -q >/dev/null
apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
