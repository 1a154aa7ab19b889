#!/usr/bin/env bash
# usage: check_engine_symbols.sh ENGINE OBJECT...
# Passes when every external symbol the engine's objects define lies in coheriq::kernels::ENGINE::
# and the only one is its override table.
set -euo pipefail
engine=$1
shift
[ $# -gt 0 ] || { echo "coheriq: check_engine_symbols.sh: no object files given" >&2; exit 2; }
want="coheriq::kernels::${engine}::overrides"
defined=$(nm -C --defined-only --extern-only "$@" | awk 'NF >= 3 { $1 = ""; sub(/^ /, ""); print }')
echo "external symbols defined by the ${engine} kernels:"
echo "${defined:-  (none)}" | sed 's/^/  /'
bad=$(echo "$defined" | awk -v want="$want" 'NF && substr($0, 3) != want')
if [ -n "$bad" ]; then
  echo "FAIL: the ${engine} kernels TU defines external symbols other than ${want}:" >&2
  echo "$bad" | sed 's/^/  /' >&2
  echo "Give them internal linkage (anonymous namespace) or move them to baseline code." >&2
  exit 1
fi
echo "$defined" | grep -qF "$want" || { echo "FAIL: ${want} is not defined" >&2; exit 1; }
echo "ok: ${engine} exports only ${want}"
