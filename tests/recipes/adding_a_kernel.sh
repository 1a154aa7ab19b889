#!/usr/bin/env bash
# recipes.adding-a-kernel: in the copy of the tree where recipes.build followed
# docs/adding-a-kernel.md (build_recipes.sh), runs the new kernel's tests under every engine this
# host supports and checks `coheriq info` lists the new candidate with its own provider in each
# engine the page names (reference, avx2, avx512).
# usage: adding_a_kernel.sh WORK_DIR (build_recipes.sh's)
set -euo pipefail
work=$1
build=$work/build
for v in $(env | sed -n 's/^\(COHERIQ_[A-Z_]*\)=.*/\1/p'); do unset "$v"; done

"$build/tools/coheriq" info --json > "$work/kernel-info.json"
engines=$(python3 - "$work/kernel-info.json" <<'PY'
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
  COHERIQ_TEST_QUICK=1 COHERIQ_ENGINE=$engine "$build/tests/kernels/coheriq_kernel_tests" -tc='sumsq*'
done
