#!/usr/bin/env bash
# recipes.docs.<page>: builds and runs the code blocks of one page, as a newcomer copies them into
# a clean directory, against the prefix packaging.install made (docs/testing.md, "recipes").
# Blocks are taken by name (doc_blocks.py get); at the end every block of the page must have been
# taken, be marked skip (the reason is printed) or be sample output (doc_blocks.py check).
# usage: doc_pages.sh PAGE SOURCE_DIR PREFIX WORK_DIR
set -euo pipefail
page=$1 src=$2 prefix=$3 work=$4
for v in $(env | sed -n 's/^\(COHERIQ_[A-Z_]*\)=.*/\1/p'); do unset "$v"; done
rm -rf "$work"
mkdir -p "$work"
cd "$work"
export DOC_BLOCKS_USED=$work/used
: >"$DOC_BLOCKS_USED"
blocks() { python3 "$src/tests/recipes/doc_blocks.py" get "$@"; }
# A shell block runs as a script of its own, echoed, stopping at its first failing line.
run_block() {
  local doc=$1 name=$2
  blocks "$doc" "$name" >"$name.sh"
  echo "--- $doc: $name"
  bash -exo pipefail "$name.sh"
}
# The pages' compile lines are the reader's; the project's own rule is checked beside them, in
# one compiler run per page: the blocks compile warnings-free.
warnings_free() {
  echo "--- warnings: $*"
  # shellcheck disable=SC2046
  g++ -std=c++17 -fsyntax-only -Wall -Wextra -Werror $(pkg-config --cflags coheriq) "$@"
}
# What the blocks call the installed prefix ($P), found as the README says.
export P=$prefix PATH=$prefix/bin:$PATH PKG_CONFIG_PATH=$prefix/lib/pkgconfig
# Skipped (exit 77, ctest's skip) on a host that cannot run the engine a page's blocks name.
needs_engine() {
  if ! coheriq info --json | python3 -c "import json, sys; sys.exit(0 if any(
      e['name'] == '$1' and e['supported'] for d in json.load(sys.stdin)['domains']
      for e in d['engines']) else 1)"; then
    echo "SKIPPED: the blocks of $page run engine $1, which this host does not support"
    exit 77
  fi
}
# A CMake block of two lines (find_package, target_link_libraries) in a whole project.
cmake_project() {
  local target=$1 sources=$2
  printf 'cmake_minimum_required(VERSION 3.22)\nproject(%s LANGUAGES CXX)\n' "$target"
  printf 'add_executable(%s %s)\n' "$target" "$sources"
  cat
}

case "$page" in
  readme)
    doc=$src/README.md
    needs_engine avx2
    blocks "$doc" readme-app >app.cpp
    warnings_free app.cpp
    run_block "$doc" readme-pkg-config
    run_block "$doc" readme-run
    blocks "$doc" readme-cmake >CMakeLists.txt
    run_block "$doc" readme-cmake-build
    ;;
  user-guide)
    doc=$src/docs/user-guide.md
    blocks "$doc" guide-quick-start >quick.cpp
    # The introspection block is statements: its includes, then the rest in a main().
    blocks "$doc" guide-introspection >fragment.cpp
    { grep '^#include' fragment.cpp; echo 'int main() {'; grep -v '^#include' fragment.cpp
      echo '}'; } >introspection.cpp
    # "Or leave the code alone, drop the call": the same program without the enable_engine line.
    grep -v 'enable_engine(' quick.cpp >outside.cpp
    warnings_free quick.cpp outside.cpp introspection.cpp
    # One CMake project for the three programs: the page's two lines link the first.
    blocks "$doc" guide-cmake | cmake_project app outside.cpp >CMakeLists.txt
    for program in quick introspection; do
      printf 'add_executable(%s %s.cpp)\n' $program $program
      printf 'target_link_libraries(%s PRIVATE coheriq::kernels)\n' $program
    done >>CMakeLists.txt
    cmake -S . -B build -G Ninja -DCMAKE_PREFIX_PATH="$P" >/dev/null
    cmake --build build >/dev/null
    cp build/app build/quick build/introspection .
    ./introspection
    ./quick
    run_block "$doc" guide-outside | tee outside.log
    tail -n 1 outside.log | grep -q " on reference$"  # nothing chosen: the reference
    run_block "$doc" guide-host-override
    ;;
  domain-guide)
    doc=$src/docs/domain-guide.md
    blocks "$doc" domain-candidates domain-class-tags domain-struct >text_domain.hpp
    blocks "$doc" domain-public-header >text.hpp
    blocks "$doc" domain-reference domain-forward domain-materialize domain-shortcuts \
      domain-class >text.cpp
    blocks "$doc" domain-engine >bitmap_engine.cpp
    blocks "$doc" domain-main >main.cpp
    warnings_free -I. text.cpp bitmap_engine.cpp main.cpp
    run_block "$doc" domain-run
    ;;
  engine-guide)
    doc=$src/docs/engine-guide.md
    needs_engine avx2
    blocks "$doc" engine-table >my_engine.cpp
    blocks "$doc" engine-descriptor >my_engine_descriptor.cpp
    blocks "$doc" engine-static-main >main.cpp
    warnings_free -mavx2 -mfma my_engine.cpp my_engine_descriptor.cpp main.cpp
    run_block "$doc" engine-static-build
    # The plugin: the same ISA file with the macro at its end, its manifest, any program.
    blocks "$doc" engine-table plugin-macro >my_engine.cpp
    warnings_free -mavx2 -mfma my_engine.cpp
    blocks "$doc" plugin-manifest >example_dot.coheriq-engine
    blocks "$src/README.md" readme-app >app.cpp
    # shellcheck disable=SC2046
    g++ -std=c++17 app.cpp -o my_job $(pkg-config --cflags --libs coheriq)
    run_block "$doc" plugin-build 2>&1 | tee plugin.log
    grep -q "locked to example_dot" plugin.log
    ;;
  blas)
    doc=$src/docs/blas.md
    blocks "$doc" blas-fortran >solver.f90
    blocks "$doc" blas-c >app.c
    gcc -std=c99 -fsyntax-only -Wall -Wextra -Werror app.c
    run_block "$doc" blas-preload 2>&1 | tee preload.log
    # The preload took the calls (the log lines of "Which engine runs"), not the system's BLAS.
    grep -q "coheriq: libcoheriq_blas:" preload.log
    run_block "$doc" blas-link
    ;;
  cluster)
    doc=$src/docs/cluster.md
    if ! command -v mpirun >/dev/null || [ ! -e "$P/lib/cmake/coheriq/coheriqMpiTargets.cmake" ]; then
      echo "SKIPPED: no MPI (mpirun, or the installed coheriq::mpi component)"
      exit 77
    fi
    blocks "$doc" cluster-program >main.cpp
    blocks "$doc" cluster-cmake | cmake_project app main.cpp >CMakeLists.txt
    # As root in a container, and on fewer cores than ranks, OpenMPI needs these (the block says so).
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    export OMPI_MCA_rmaps_base_oversubscribe=1
    run_block "$doc" cluster-run 2>&1 | tee run.log
    grep -q "on 2 ranks" run.log
    ;;
  api)
    # api.md's C API example (its other blocks are declarations, checked by the compiler).
    doc=$src/docs/api.md
    blocks "$doc" capi-example >app.c
    # shellcheck disable=SC2046
    gcc -std=c99 -fsyntax-only -Wall -Wextra -Werror $(pkg-config --cflags coheriq) app.c
    run_block "$doc" capi-build
    exit 0
    ;;
  *)
    echo "coheriq: doc_pages.sh: unknown page '$page'" >&2
    exit 2
    ;;
esac
python3 "$src/tests/recipes/doc_blocks.py" check "$doc"
