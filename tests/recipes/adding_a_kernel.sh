#!/usr/bin/env bash
# recipes.adding-a-kernel: follows docs/adding-a-kernel.md literally in a copy of the tree, then
# runs the new kernel's tests under every engine this host supports and checks `coheriq info`
# lists the new candidate with a provider in every engine. The copy builds the engines the page
# names (reference, avx2, avx512): the others' TUs would not change what is checked.
# usage: adding_a_kernel.sh SOURCE_DIR WORK_DIR
set -euo pipefail
src=$1
work=$2
for v in $(env | sed -n 's/^\(COHERIQ_[A-Z_]*\)=.*/\1/p'); do unset "$v"; done

build=$(python3 "$src/tests/recipes/follow_recipe.py" "$src/docs/adding-a-kernel.md" "$src" "$work" \
  -- -DCMAKE_BUILD_TYPE=Release -DCOHERIQ_WERROR=ON -DCOHERIQ_BUILD_BENCH=OFF \
     -DCOHERIQ_BUILD_EXAMPLES=OFF -DCOHERIQ_BUILD_MPI=OFF "-DCOHERIQ_ENGINES=avx2;avx512" |
  tail -n 1)
cmake --build "$build" --target coheriq_cli coheriq_kernel_tests >/dev/null

"$build/tools/coheriq" info --json > "$work/info.json"
engines=$(python3 - "$work/info.json" <<'PY'
import json, sys
d = next(d for d in json.load(open(sys.argv[1]))["domains"] if d["name"] == "coheriq.kernels")
for c in ("sumsq.f32", "sumsq.f64"):
    if c not in d["candidates"]:
        sys.exit(f"FAIL: {c} is not a candidate of the domain")
for e in d["engines"]:
    want = e["name"] if e["name"] in ("reference", "avx2", "avx512") else None
    got = e["providers"].get("sumsq.f32")
    if want and got != want:
        sys.exit(f"FAIL: sumsq.f32 under {e['name']} comes from {got}, expected {want}")
print(" ".join(e["name"] for e in d["engines"] if e["supported"]))
PY
)
echo "engines supported here: $engines"
for engine in $engines; do
  COHERIQ_ENGINE=$engine "$build/tests/kernels/coheriq_kernel_tests" -tc='sumsq*'
done
