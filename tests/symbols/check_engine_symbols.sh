#!/usr/bin/env bash
# usage: check_engine_symbols.sh ENGINE OBJECT...
# Passes when every external symbol the engine's objects define lies in coheriq::kernels::ENGINE::
# and they are its two override tables: its kernels, and its kernels in the reproducible mode.
set -euo pipefail
engine=$1
shift
[ $# -gt 0 ] || { echo "coheriq: check_engine_symbols.sh: no object files given" >&2; exit 2; }
want="coheriq::kernels::${engine}::overrides"
want_mode="coheriq::kernels::${engine}::reproducible_overrides"
defined=$(nm -C --defined-only --extern-only "$@" | awk 'NF >= 3 { $1 = ""; sub(/^ /, ""); print }')
echo "external symbols defined by the ${engine} kernels:"
echo "${defined:-  (none)}" | sed 's/^/  /'
bad=$(echo "$defined" | awk -v want="$want" -v mode="$want_mode" \
  'NF && substr($0, 3) != want && substr($0, 3) != mode')
if [ -n "$bad" ]; then
  echo "FAIL: the ${engine} kernels TU defines external symbols other than ${want} and" \
    "${want_mode}:" >&2
  echo "$bad" | sed 's/^/  /' >&2
  echo "Give them internal linkage (anonymous namespace) or move them to baseline code." >&2
  exit 1
fi
for table in "$want" "$want_mode"; do
  echo "$defined" | grep -qxF "D $table" || { echo "FAIL: ${table} is not defined" >&2; exit 1; }
done
echo "ok: ${engine} exports only ${want} and ${want_mode}"
