#!/usr/bin/env bash
# recipes.build: follows docs/adding-an-engine.md and then docs/adding-a-kernel.md literally in one
# copy of the tree and builds what the two recipe checks run (adding_an_engine.sh,
# adding_a_kernel.sh). One copy for both: the pages touch different files, and a second build of
# the whole tree took as long as the first. The copy builds the engines the pages name (avx2, the
# new avx2_smallcache, avx512; reference is always built): the others' TUs would not change what
# is checked. At -O0: what the checks prove is that the pages' files build, register and pass,
# which takes no optimisation, and the engine TUs compile in 40-50% of -O1's time (the copy: 464
# s of CPU at -O1, 318 at -O0 on a Zen 3 guest; 871 at -O3 on a Sapphire Rapids class host). The
# checks run the quick sizes (COHERIQ_TEST_QUICK=1), as the emulated suites do. -O0 gives up the
# flow analysis behind -Werror's maybe-uninitialized warnings on the pages' few lines (a tuning
# record, a sumsq kernel); docs/decisions.md, "The recipe copy at -O0".
# usage: build_recipes.sh SOURCE_DIR WORK_DIR
set -euo pipefail
src=$1
work=$2
for v in $(env | sed -n 's/^\(COHERIQ_[A-Z_]*\)=.*/\1/p'); do unset "$v"; done

build=$(python3 "$src/tests/recipes/follow_recipe.py" "$src" "$work" \
  "$src/docs/adding-an-engine.md" "$src/docs/adding-a-kernel.md" \
  -- -DCMAKE_BUILD_TYPE=Release "-DCMAKE_CXX_FLAGS_RELEASE=-O0 -DNDEBUG" -DCOHERIQ_WERROR=ON -DCOHERIQ_BUILD_BENCH=OFF \
     -DCOHERIQ_BUILD_EXAMPLES=OFF -DCOHERIQ_BUILD_MPI=OFF "-DCOHERIQ_ENGINES=avx2;avx2_smallcache;avx512" |
  tail -n 1)
cmake --build "$build" --target coheriq_cli coheriq_kernel_tests >/dev/null
echo "built: $build"
