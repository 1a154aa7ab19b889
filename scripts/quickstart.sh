#!/usr/bin/env bash
# The main job: installs what is missing, builds, shows `coheriq info` and a quick comparison of
# the engines this host supports.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
cmake --preset default >/dev/null
cmake --build --preset default --target coheriq_cli kernels_bench
./build/default/tools/coheriq info
./build/default/tools/coheriq bench --quick --engines all
