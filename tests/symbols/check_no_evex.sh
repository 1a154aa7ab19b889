#!/usr/bin/env bash
# usage: check_no_evex.sh OBJDUMP ENGINE OBJECT...
# Passes when no instruction of the engine's objects is EVEX-encoded (AVX-512's encoding: the
# byte 0x62 first, after any segment or address-size prefix; in 64-bit code that byte starts
# nothing else). An engine whose features stop below AVX-512 (avx2) must hold none: one would be
# SIGILL on every CPU its features admit and AVX-512 lacks. Every function of the objects is
# read, run or not: the reproducible mode's kernels too, which the emulated Haswell suite does
# not call.
set -euo pipefail
objdump=$1
engine=$2
shift 2
[ $# -gt 0 ] || { echo "coheriq: check_no_evex.sh: no object files given" >&2; exit 2; }
# -w: one line per instruction, its bytes whole ("address:<TAB>bytes<TAB>mnemonic").
listing=$("$objdump" -d -w "$@")
instructions=$(grep -c $'^ *[0-9a-f]*:\t' <<<"$listing" || true)
if [ "$instructions" -eq 0 ]; then
  echo "FAIL: $objdump read no instruction in the ${engine} kernels' objects: $*" >&2
  exit 1
fi
found=$(awk -F'\t' '
  NF >= 3 {
    n = split($2, b, " ")
    i = 1
    while (i <= n && b[i] ~ /^(26|2e|36|3e|64|65|67)$/) i++
    if (b[i] == "62") print
  }' <<<"$listing")
count=$(printf '%s' "$found" | grep -c . || true)
if [ "$count" -ne 0 ]; then
  echo "FAIL: the ${engine} kernels hold ${count} EVEX-encoded (AVX-512) instructions, the first" \
    "of them:" >&2
  printf '%s\n' "$found" | sed -n '1,5s/^/  /p' >&2
  echo "The engine's translation units must be compiled with its ISA's flags only" \
    "(cmake/CoheriqEngines.cmake)." >&2
  exit 1
fi
echo "ok: none of the ${engine} kernels' ${instructions} instructions is EVEX-encoded"
