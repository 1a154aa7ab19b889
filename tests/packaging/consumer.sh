#!/usr/bin/env bash
# usage: consumer.sh package|pkg-config|subdirectory CONSUMER_DIR BUILD_DIR PREFIX_OR_SOURCE
set -euo pipefail
mode=$1 src=$2 build=$3 where=$4
rm -rf "$build"
case "$mode" in
  package)
    cmake -S "$src" -B "$build" -G Ninja -DCMAKE_PREFIX_PATH="$where" -DCMAKE_BUILD_TYPE=Release
    cmake --build "$build"
    "$build/consumer"
    ;;
  pkg-config)
    mkdir -p "$build"
    export PKG_CONFIG_PATH="$where/lib/pkgconfig:$where/lib/x86_64-linux-gnu/pkgconfig"
    flags=$(pkg-config --cflags --libs --static coheriq)
    echo "pkg-config: $flags"
    # shellcheck disable=SC2086
    c++ -std=c++17 -O2 "$src/main.cpp" -o "$build/consumer" $flags
    "$build/consumer"
    ;;
  subdirectory)
    cmake -S "$src" -B "$build" -G Ninja -DCOHERIQ_CONSUMER_MODE=subdirectory \
      -DCOHERIQ_SOURCE_DIR="$where" -DBUILD_SHARED_LIBS=ON -DCMAKE_BUILD_TYPE=Release
    cmake --build "$build"
    "$build/consumer"
    ;;
  *) echo "coheriq: consumer.sh: unknown mode '$mode' (package, pkg-config, subdirectory)" >&2; exit 2 ;;
esac
