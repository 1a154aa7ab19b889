#!/usr/bin/env bash
# usage: consumer.sh package|pkg-config|subdirectory CONSUMER_DIR BUILD_DIR PREFIX_OR_SOURCE ENGINES
#   ENGINES: the built-in engines of the build the consumer uses, comma-separated (reference
#   first): the build under test's (package, pkg-config), or the ones subdirectory mode builds.
#   The consumer must list exactly these, and run each one the host supports (consumer/main.cpp).
set -euo pipefail
if [ $# -ne 5 ]; then
  echo "coheriq: consumer.sh: usage: consumer.sh package|pkg-config|subdirectory CONSUMER_DIR" \
    "BUILD_DIR PREFIX_OR_SOURCE ENGINES" >&2
  exit 2
fi
mode=$1 src=$2 build=$3 where=$4 engines=$5
rm -rf "$build"
# A cross build (tests/packaging/CMakeLists.txt sets these): the consumer is built with the same
# toolchain and run through the emulator, or it would prove nothing about the target's package.
toolchain=${COHERIQ_CONSUMER_TOOLCHAIN:-}
cxx=${COHERIQ_CONSUMER_CXX:-g++}
cc=${COHERIQ_CONSUMER_CC:-gcc}
multiarch=${COHERIQ_CONSUMER_MULTIARCH:-x86_64-linux-gnu}
read -r -a emulator <<<"${COHERIQ_CONSUMER_EMULATOR:-}"
cmake_cross=()
if [ -n "$toolchain" ]; then
  cmake_cross=(-DCMAKE_TOOLCHAIN_FILE="$toolchain")
fi

# The consumer once without an engine, then once per built-in engine (one process each: enabling
# is one-way).
run_consumer() {
  local program=$1 engine
  "${emulator[@]}" "$program" "$engines"
  IFS=, read -r -a list <<<"$engines"
  for engine in "${list[@]}"; do
    "${emulator[@]}" "$program" "$engines" "$engine"
  done
}

case "$mode" in
  package)
    cmake -S "$src" -B "$build" -G Ninja -DCMAKE_PREFIX_PATH="$where" -DCMAKE_BUILD_TYPE=Release \
      "${cmake_cross[@]}"
    cmake --build "$build"
    run_consumer "$build/consumer"
    ;;
  pkg-config)
    mkdir -p "$build"
    export PKG_CONFIG_PATH="$where/lib/pkgconfig:$where/lib/$multiarch/pkgconfig"
    echo "pkg-config --cflags --libs coheriq: $(pkg-config --cflags --libs coheriq)"
    cp "$src/main.cpp" "$build/app.cpp"
    cd "$build"
    # Exactly the command README.md gives, no --static: only static libraries are installed, so
    # Libs must carry everything they need (cmake/CoheriqInstall.cmake).
    # shellcheck disable=SC2046
    "$cxx" -std=c++17 app.cpp $(pkg-config --cflags --libs coheriq)
    run_consumer ./a.out
    # --static must work as well (it adds Libs.private, empty for a static coheriq).
    # shellcheck disable=SC2046
    "$cxx" -std=c++17 app.cpp -o app_static $(pkg-config --cflags --libs --static coheriq)
    "${emulator[@]}" ./app_static "$engines"
    # A C program with the plain C compiler: coheriq.pc carries the C++ runtime and libm.
    cp "$src/app.c" app.c
    # shellcheck disable=SC2046
    "$cc" -std=c99 app.c -o app_c $(pkg-config --cflags --libs coheriq)
    "${emulator[@]}" ./app_c
    "${emulator[@]}" ./app_c auto
    # shellcheck disable=SC2046
    "$cc" -std=c99 app.c -o app_c_static $(pkg-config --cflags --libs --static coheriq)
    "${emulator[@]}" ./app_c_static auto
    ;;
  subdirectory)
    # The engines the caller names (one of the build under test, tests/packaging). At -O0: this
    # checks the shared build inside another project, not its speed (the consumer runs one dot
    # of 1001 elements per engine), and -O0 compiles the library in about 60% of -O1's time (the
    # avx2 engine's TU 30 s of CPU against 49 on a Zen 3 guest). Warnings are not errors here.
    cmake -S "$src" -B "$build" -G Ninja -DCOHERIQ_CONSUMER_MODE=subdirectory \
      -DCOHERIQ_SOURCE_DIR="$where" -DBUILD_SHARED_LIBS=ON -DCMAKE_BUILD_TYPE=Release \
      "-DCMAKE_CXX_FLAGS_RELEASE=-O0 -DNDEBUG" "${cmake_cross[@]}" \
      "-DCOHERIQ_ENGINES=$(tr , ';' <<<"${engines#reference}" | sed 's/^;//')"
    cmake --build "$build"
    run_consumer "$build/consumer"
    ;;
  *)
    echo "coheriq: consumer.sh: unknown mode '$mode' (package, pkg-config, subdirectory)" >&2
    exit 2
    ;;
esac
