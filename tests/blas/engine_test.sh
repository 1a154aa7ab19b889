#!/bin/sh
# Runs a BLAS test program under the engine COHERIQ_ENGINE names:
#   sh engine_test.sh <program> [arguments...]
# The library stops a program whose COHERIQ_ENGINE the host cannot run (zen5 on an Intel host)
# at its first call, with "coheriq: <routine>: COHERIQ_ENGINE=<engine>: no engine in the list is
# supported on this host (...)" and SIGABRT; that is a skip (exit 77, ctest's SKIP_RETURN_CODE),
# said as such. Any other outcome is the program's own.
out=$(mktemp) || exit 1
"$@" >"$out" 2>&1
code=$?
cat "$out"
if [ "$code" -ne 0 ] && [ -n "$COHERIQ_ENGINE" ] &&
  grep -q "COHERIQ_ENGINE=$COHERIQ_ENGINE: no engine in the list is supported on this host" "$out"; then
  rm -f "$out"
  echo "SKIPPED: this host cannot run the engine $COHERIQ_ENGINE (the message above)"
  exit 77
fi
rm -f "$out"
exit "$code"
