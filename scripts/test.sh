#!/usr/bin/env bash
# The whole test suite: installs what is missing, then builds and runs each stage.
#   default  Release build (warnings are errors): unit, per-engine kernel, emulator matrix,
#            symbol, tool, example and packaging tests
#   asan     AddressSanitizer + UndefinedBehaviorSanitizer: framework and kernel tests
#   tsan     ThreadSanitizer: the framework tests, activation races included
#   fuzz     libFuzzer (clang) on the parsers of outside input, for a bounded time
#   aarch64  cross build (cmake/toolchains/aarch64-linux-gnu.cmake), its whole suite run under
#            qemu-aarch64 (what cannot run there says why), the aarch64 emulator matrix included
#            (Cortex-A72, A64FX, SVE at 128 to 2048 bits)
# COHERIQ_TEST_STAGES selects stages (default: "default asan tsan fuzz aarch64"). With CI=true (as CI
# services set it) a stage whose prerequisite is missing (qemu, clang, ...) fails at configure
# instead of running fewer tests; every test preset fails when its selection matches no test.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh --tests
jobs=$(nproc)
stages=${COHERIQ_TEST_STAGES:-default asan tsan fuzz aarch64}
failed=()
start=$SECONDS

run_stage() {
  local preset=$1 log
  shift
  echo "=== stage $preset ($((SECONDS - start)) s elapsed)"
  log=$(mktemp)
  if cmake --preset "$preset" "$@" >"$log"; then
    # What this configure left out, and why (with CI=true a missing prerequisite fails instead).
    grep '^-- coheriq:' "$log" || true
    rm -f "$log"
    cmake --build --preset "$preset" -j "$jobs" &&
      ctest --preset "$preset" -j "$jobs" || failed+=("$preset")
  else
    cat "$log"
    rm -f "$log"
    failed+=("$preset")
  fi
}

# The engines this host runs, as the default stage's `coheriq info` lists them ("supported"):
# the sanitizer stage builds only these, since it runs its suites natively and the others' entries
# would only skip (avx512's TU alone is 59 s of CPU under ASan on a Zen 3 guest; docs/decisions.md,
# "A sanitizer stage builds what it runs"). Without that build (no default stage), every engine.
sanitizer_engines() {
  local cli=build/default/tools/coheriq
  if [ -x "$cli" ]; then
    local engines
    engines=$("$cli" info | sed -n 's/^    \([a-z0-9_]*\) \+supported .*/\1/p' | grep -vx reference | paste -sd ';')
    echo "-DCOHERIQ_ENGINES=$engines"
    echo "coheriq: the asan stage builds the engines this host runs: reference${engines:+;$engines}" >&2
  fi
}

for stage in $stages; do
  case "$stage" in
    default) run_stage default ;;
    asan) run_stage asan -DCOHERIQ_BUILD_TOOLS=OFF -DCOHERIQ_BUILD_EXAMPLES=OFF -DCOHERIQ_BUILD_MPI=OFF $(sanitizer_engines) ;;
    tsan) run_stage tsan -DCOHERIQ_ENGINES= -DCOHERIQ_BUILD_TOOLS=OFF -DCOHERIQ_BUILD_EXAMPLES=OFF -DCOHERIQ_BUILD_MPI=OFF ;;
    fuzz) run_stage fuzz ;;
    aarch64) run_stage aarch64 ;;
    *) echo "coheriq: unknown test stage '$stage' (default, asan, tsan, fuzz, aarch64)" >&2; exit 2 ;;
  esac
done

echo "=== test stages done in $((SECONDS - start)) s"
if [ "${#failed[@]}" -gt 0 ]; then
  echo "coheriq: failed stages: ${failed[*]}" >&2
  exit 1
fi
