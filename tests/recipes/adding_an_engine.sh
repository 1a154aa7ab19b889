#!/usr/bin/env bash
# recipes.adding-an-engine: in the copy of the tree where recipes.build followed
# docs/adding-an-engine.md (build_recipes.sh), checks that the example engine is listed with the
# MRO and providers the page promises, and that it passes the GEMM and packing tests where the host
# can run it (a skip, exit 77, elsewhere).
# usage: adding_an_engine.sh WORK_DIR (build_recipes.sh's)
set -euo pipefail
work=$1
build=$work/build
engine=avx2_smallcache
for v in $(env | sed -n 's/^\(COHERIQ_[A-Z_]*\)=.*/\1/p'); do unset "$v"; done

"$build/tools/coheriq" info --json > "$work/engine-info.json"
python3 - "$work/engine-info.json" "$engine" <<'PY'
import json, sys
info = json.load(open(sys.argv[1]))
engine = sys.argv[2]
domain = next(d for d in info["domains"] if d["name"] == "coheriq.kernels")
e = next((e for e in domain["engines"] if e["name"] == engine), None)
if e is None:
    sys.exit(f"FAIL: {engine} is not listed by coheriq info")
if e["mro"] != [engine, "avx2", "reference"]:
    sys.exit(f"FAIL: {engine} has MRO {e['mro']}, expected {engine} -> avx2 -> reference")
providers = e["providers"]
for candidate, want in [("gemm.f32", engine), ("pack_b.f64", engine), ("gemm_packed.f32", engine),
                        ("dot.f32", "avx2"), ("exp.f32", "avx2")]:
    if providers.get(candidate) != want:
        sys.exit(f"FAIL: {candidate} comes from {providers.get(candidate)}, expected {want}")
print(f"ok: {engine} listed, MRO {' -> '.join(e['mro'])}, GEMM its own, the rest from avx2")
PY
if ! "$build/tools/coheriq" info --json | python3 -c "
import json, sys
d = next(d for d in json.load(sys.stdin)['domains'] if d['name'] == 'coheriq.kernels')
e = next(e for e in d['engines'] if e['name'] == '$engine')
sys.exit(0 if e['supported'] else 1)"; then
  echo "skipped: $engine is not supported on this host (it needs the avx2 features), so only its listing was checked"
  exit 77
fi
# The quick sizes: the copy is built at -O0 (build_recipes.sh).
COHERIQ_TEST_QUICK=1 COHERIQ_ENGINE=$engine "$build/tests/kernels/coheriq_kernel_tests" -tc='*gemm*,*pack_b*,*PackedMatrix*'
