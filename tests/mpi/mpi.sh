#!/usr/bin/env bash
# The MPI tests (tests/mpi/CMakeLists.txt runs one subcommand per ctest entry). Every mpirun is
# bounded by `timeout`, so a rank that hangs fails the test instead of stalling CI.
#
# usage: mpi.sh solver SOLVER PROBE NP DIR   the solver on NP ranks: twice bitwise identical,
#                                            agrees with 1 rank, engine = the host's best
#        mpi.sh solver-reproducible SOLVER PROBE DIR
#                                            COHERIQ_REPRODUCIBLE=1: the solver on 2 ranks, one
#                                            without avx512f, = on 2 alike ranks, bitwise
#        mpi.sh heterogeneous PROBE DIR      one rank without avx512f: both on avx2, report
#        mpi.sh refusal PROBE DIR            COHERIQ_ENGINE=avx512, one rank lacks it: all fail
#        mpi.sh locked PROBE DIR             a rank used the kernels already: all fail, alike
#        mpi.sh mismatch PROBE DIR           COHERIQ_ENGINE differs between ranks: all fail
#        mpi.sh plugin PROBE DIR             a plugin fails to load everywhere: alike, or passed over
#        mpi.sh reproducible.off PROBE DIR   COHERIQ_REPRODUCIBLE unset, empty, 0: one engine, as before
#        mpi.sh reproducible.mismatch PROBE DIR
#                                            the mode on some ranks only, or malformed: all fail
#        mpi.sh reproducible.heterogeneous PROBE DIR
#                                            the mode on, one rank without avx512f: each rank its
#                                            best engine, the same bits; lists, refusals, a lock
#        mpi.sh threads PROBE DIR            the node's CPUs shared, unless set explicitly
#        mpi.sh info INFO DIR                coheriq-mpi-info: report, refusal, usage
#        mpi.sh runtime-free LIB...          no MPI symbol or library in the runtime
#        mpi.sh consumer SRC BUILD PREFIX    find_package(coheriq COMPONENTS mpi) after install
set -euo pipefail
MPIRUN=(timeout -k 5 60 mpirun --allow-run-as-root --oversubscribe --bind-to none)
fail() {
  echo "coheriq: mpi.sh $mode: $*" >&2
  exit 1
}
# The line of rank R of the last run.
line() { cat "$dir/rank.$1" 2>/dev/null || echo "(rank $1 wrote nothing)"; }
fresh() { rm -rf "$dir" && mkdir -p "$dir"; }
# Every rank 0..N-1 failed with the same error class and message (each line is "error <class>
# state=<state after the call> <message>"); prints "<class> <message>".
same_error_everywhere() {
  local n=$1 first r
  first=$(line 0 | sed 's/ state=[a-z]* / /')
  [[ $first == "error "* ]] || fail "rank 0 did not fail: $first"
  for ((r = 1; r < n; r++)); do
    [ "$(line "$r" | sed 's/ state=[a-z]* / /')" = "$first" ] ||
      fail "rank $r failed differently: $(line "$r") vs $(line 0)"
  done
  echo "${first#error }"
}
# The state of rank R's domain after the failed call.
state_of() { line "$1" | sed -n 's/^error [A-Za-z]* state=\([a-z]*\) .*/\1/p'; }
# The tests of the reproducible mode need the kernels domain to offer it: they fail otherwise.
require_reproducible_mode() {
  "$1" offers-reproducible || fail "the kernels domain does not offer the reproducible mode"
}
# A test of a heterogeneous job needs a host where disabling avx512f changes the engine.
require_avx512() {
  if ! "$1" supports avx512; then
    echo "skipped: this host does not support avx512: disabling avx512f on one rank would"
    echo "change nothing"
    exit 77
  fi
}

mode=${1:-}
shift || true
case "$mode" in
  solver)
    solver=$1 probe=$2 np=$3 dir=$4
    fresh
    best=$("$probe" best)
    "${MPIRUN[@]}" -np 1 "$solver" --save "$dir/one-rank" >"$dir/np1.out"
    for run in a b; do
      "${MPIRUN[@]}" -np "$np" "$solver" --compare "$dir/one-rank" >"$dir/$run.out" ||
        fail "the solver on $np ranks failed (run $run): $(cat "$dir/$run.out")"
      cat "$dir/$run.out"
    done
    grep -q "ranks=$np engine=$best " "$dir/a.out" ||
      fail "expected ranks=$np engine=$best (the host's best engine): $(grep mpi-solver: "$dir/a.out")"
    rows=$(grep -cE "^[0-9]+ .* $best " "$dir/a.out" || true)
    [ "$rows" = "$np" ] || fail "the report has $rows rows on $best, expected $np"
    sum_a=$(grep -o 'checksum=[0-9a-f]*' "$dir/a.out")
    sum_b=$(grep -o 'checksum=[0-9a-f]*' "$dir/b.out")
    [ -n "$sum_a" ] && [ "$sum_a" = "$sum_b" ] ||
      fail "two runs on $np ranks differ: $sum_a vs $sum_b (they must be bitwise identical)"
    grep -q "agrees with $dir/one-rank" "$dir/a.out" || fail "no comparison with one rank"
    ;;
  solver-reproducible)
    # The issue's promise: in the mode, a heterogeneous job computes the same bits as a
    # homogeneous one of the same rank count.
    solver=$1 probe=$2 dir=$3
    require_reproducible_mode "$probe"
    require_avx512 "$probe"
    fresh
    best=$(COHERIQ_REPRODUCIBLE=1 "$probe" best-reproducible) || fail "no engine honours the mode"
    older=$(COHERIQ_REPRODUCIBLE=1 COHERIQ_DISABLE_CPU_FEATURES=avx512f "$probe" best-reproducible) ||
      fail "no engine honours the mode without avx512f"
    [ "$best" != "$older" ] ||
      fail "the best engine in the mode is $best with and without avx512f: the job is not heterogeneous"
    "${MPIRUN[@]}" -np 2 -x COHERIQ_REPRODUCIBLE=1 "$solver" >"$dir/same.out" ||
      fail "the homogeneous run failed: $(cat "$dir/same.out")"
    cat "$dir/same.out"
    "${MPIRUN[@]}" -np 1 -x COHERIQ_REPRODUCIBLE=1 "$solver" \
      : -np 1 -x COHERIQ_REPRODUCIBLE=1 -x COHERIQ_DISABLE_CPU_FEATURES=avx512f "$solver" \
      >"$dir/mixed.out" || fail "the heterogeneous run failed: $(cat "$dir/mixed.out")"
    cat "$dir/mixed.out"
    grep -qE "^0 .* $best .*" "$dir/mixed.out" && grep -qE "^1 .* $older .*\(disabled: avx512f\)" "$dir/mixed.out" ||
      fail "the heterogeneous run did not run $best on rank 0 and $older on rank 1"
    grep -q '^reproducible mode: on (COHERIQ_REPRODUCIBLE=1): each rank runs its own engine' "$dir/mixed.out" ||
      fail "the report does not say that the mode is on"
    sum_same=$(grep -o 'checksum=[0-9a-f]*' "$dir/same.out")
    sum_mixed=$(grep -o 'checksum=[0-9a-f]*' "$dir/mixed.out")
    [ -n "$sum_same" ] && [ "$sum_same" = "$sum_mixed" ] ||
      fail "in the reproducible mode, $best on both ranks gave $sum_same and $best with $older gave $sum_mixed (they must be bitwise identical)"
    echo "both runs: $sum_same"
    ;;
  heterogeneous)
    probe=$1 dir=$2
    if ! "$probe" supports avx512; then
      echo "skipped: this host does not support avx512: disabling avx512f on one rank would"
      echo "change nothing (the refusal test covers avx512 on such hosts)"
      exit 77
    fi
    for setting in unset auto; do
      fresh
      env=()
      [ "$setting" = auto ] && env=(-x COHERIQ_ENGINE=auto)
      "${MPIRUN[@]}" -np 1 "${env[@]}" -x COHERIQ_DISABLE_CPU_FEATURES=avx512f "$probe" common "$dir" \
        : -np 1 "${env[@]}" "$probe" common "$dir" >"$dir/report" ||
        fail "COHERIQ_ENGINE $setting: the job failed: $(line 0) / $(line 1)"
      cat "$dir/report"
      for r in 0 1; do
        [ "$(line $r)" = "ok avx2 avx2" ] || fail "COHERIQ_ENGINE $setting: rank $r: $(line $r)"
      done
      grep -qE '^0 .* avx2 .* avx2,reference .*\(disabled: avx512f\)' "$dir/report" ||
        fail "the report does not show rank 0 without avx512f"
      grep -qE '^1 .* avx2 .*[ ,]avx512,avx2,reference .*\+avx512f' "$dir/report" ||
        fail "the report does not show rank 1 with avx512f"
    done
    ;;
  refusal)
    probe=$1 dir=$2
    fresh
    start=$(date +%s)
    code=0
    "${MPIRUN[@]}" -np 1 -x COHERIQ_ENGINE=avx512 "$probe" common "$dir" \
      : -np 1 -x COHERIQ_ENGINE=avx512 -x COHERIQ_DISABLE_CPU_FEATURES=avx512f "$probe" common "$dir" \
      : -np 1 -x COHERIQ_ENGINE=avx512 "$probe" common "$dir" >/dev/null 2>&1 || code=$?
    elapsed=$(($(date +%s) - start))
    [ "$code" -ne 0 ] || fail "the job exited 0"
    [ "$code" -ne 124 ] && [ "$code" -ne 137 ] || fail "the job hung (timeout)"
    [ "$elapsed" -le 10 ] || fail "the job took ${elapsed}s to fail"
    message=$(same_error_everywhere 3)
    echo "exit $code after ${elapsed}s; every rank: $message"
    [[ $message == "UnsupportedEngineError coheriq: "* ]] || fail "not an UnsupportedEngineError"
    for r in 0 1 2; do
      [ "$(state_of $r)" = open ] || fail "rank $r changed its domain: $(line $r)"
    done
    if "$probe" supports avx512; then
      host=$(hostname)
      [[ $message == *"'avx512': missing avx512f on rank 1 on host $host (supported on ranks 0,2 on host $host)"* ]] ||
        fail "the message does not name rank 1 and its host: $message"
    else
      [[ $message == *"'avx512': missing "*" on ranks 0-2 on host "* ]] ||
        fail "the message does not name every rank: $message"
    fi
    ;;
  locked)
    probe=$1 dir=$2
    fresh
    code=0
    "${MPIRUN[@]}" -np 2 "$probe" common "$dir" --lock 1 >/dev/null 2>&1 || code=$?
    [ "$code" -ne 0 ] && [ "$code" -ne 124 ] || fail "exit $code, expected a failure"
    message=$(same_error_everywhere 2)
    echo "every rank: $message"
    [[ $message == "EngineLockedError coheriq: "*"'reference' is locked by the first use of dot.f64 on rank 1 on host "* ]] ||
      fail "not the locked rank's error: $message"
    [ "$(state_of 0)" = open ] && [ "$(state_of 1)" = locked ] ||
      fail "rank 0 changed its domain, or rank 1 lost its lock: $(line 0) / $(line 1)"
    ;;
  mismatch)
    probe=$1 dir=$2
    fresh
    code=0
    "${MPIRUN[@]}" -np 1 -x COHERIQ_ENGINE=avx2 "$probe" common "$dir" \
      : -np 1 -x COHERIQ_ENGINE=reference "$probe" common "$dir" >/dev/null 2>&1 || code=$?
    [ "$code" -ne 0 ] && [ "$code" -ne 124 ] || fail "exit $code, expected a failure"
    message=$(same_error_everywhere 2)
    echo "every rank: $message"
    [[ $message == *"COHERIQ_ENGINE differs between ranks: 'avx2' on rank 0 on host "*"; 'reference' on rank 1 on host "* ]] ||
      fail "the message does not name both values and ranks: $message"
    # Values that mean the same agree: auto, unset and empty; a name with and without blanks.
    best=$("$probe" best)
    fresh
    "${MPIRUN[@]}" -np 1 -x COHERIQ_ENGINE=auto "$probe" common "$dir" : -np 1 "$probe" common "$dir" \
      : -np 1 -x COHERIQ_ENGINE= "$probe" common "$dir" >/dev/null ||
      fail "auto, unset, empty: $(line 0)"
    for r in 0 1 2; do
      [ "$(line $r)" = "ok $best $best" ] || fail "auto, unset, empty: rank $r: $(line $r)"
    done
    fresh
    "${MPIRUN[@]}" -np 1 -x "COHERIQ_ENGINE= reference" "$probe" common "$dir" \
      : -np 1 -x COHERIQ_ENGINE=reference "$probe" common "$dir" >/dev/null ||
      fail "' reference' and 'reference': $(line 0)"
    for r in 0 1; do
      [ "$(line $r)" = "ok reference reference" ] || fail "blanks: rank $r: $(line $r)"
    done
    ;;
  plugin)
    # A plugin that every rank lists as supported but whose library is missing: enabling fails
    # on every rank (the second step of the call). Named alone: every rank fails alike; under
    # auto: passed over, as the library's own auto does.
    probe=$1 dir=$2
    plugins=$dir.plugins
    rm -rf "$plugins" && mkdir -p "$plugins"
    cat >"$plugins/broken.coheriq-engine" <<MANIFEST
domain = coheriq.kernels
name = broken
bases = reference
priority = 1000
description = a plugin whose library is not there
library = $plugins/libnothere.so
abi = coheriq.kernels/2
overrides = dot.f32
MANIFEST
    fresh
    code=0
    "${MPIRUN[@]}" -np 2 -x COHERIQ_ENGINE_PATH="$plugins" -x COHERIQ_ENGINE=broken \
      "$probe" common "$dir" >/dev/null 2>&1 || code=$?
    [ "$code" -ne 0 ] && [ "$code" -ne 124 ] || fail "exit $code, expected a failure"
    message=$(same_error_everywhere 2)
    echo "every rank: $message"
    [[ $message == "UnsupportedEngineError coheriq: "*"'broken': cannot be enabled (coheriq: plugin engine 'broken'"*"libnothere.so"*") on ranks 0,1 on host "* ]] ||
      fail "not the load failure of every rank: $message"
    [ "$(state_of 0)" = open ] && [ "$(state_of 1)" = open ] || fail "a rank changed its domain"
    best=$(COHERIQ_ENGINE_PATH= "$probe" best)
    fresh
    "${MPIRUN[@]}" -np 2 -x COHERIQ_ENGINE_PATH="$plugins" -x COHERIQ_ENGINE=auto \
      "$probe" common "$dir" >/dev/null || fail "auto failed: $(line 0)"
    for r in 0 1; do
      [ "$(line $r)" = "ok $best $best" ] || fail "auto: rank $r: $(line $r), expected $best"
    done
    ;;
  reproducible.off)
    # With the mode off (unset, empty, 0: the same meaning) nothing changes: one engine for all,
    # the best one every rank supports, and no line about the mode in the report.
    probe=$1 dir=$2
    fresh
    disable=()
    common=$("$probe" best)
    if "$probe" supports avx512; then
      disable=(-x COHERIQ_DISABLE_CPU_FEATURES=avx512f)
      common=$(COHERIQ_DISABLE_CPU_FEATURES=avx512f "$probe" best)
    fi
    "${MPIRUN[@]}" -np 1 "${disable[@]}" "$probe" common "$dir" \
      : -np 1 -x COHERIQ_REPRODUCIBLE= "$probe" common "$dir" \
      : -np 1 -x COHERIQ_REPRODUCIBLE=0 "$probe" common "$dir" \
      >"$dir/report" || fail "unset, empty, 0: the job failed: $(line 0) / $(line 1) / $(line 2)"
    cat "$dir/report"
    for r in 0 1 2; do
      [ "$(line $r)" = "ok $common $common" ] || fail "unset, empty, 0: rank $r: $(line $r), expected $common"
    done
    ! grep -q 'reproducible mode' "$dir/report" || fail "the report speaks of the mode, which is off"
    ;;
  reproducible.mismatch)
    probe=$1 dir=$2
    require_reproducible_mode "$probe"
    fresh
    code=0
    "${MPIRUN[@]}" -np 1 -x COHERIQ_REPRODUCIBLE=1 "$probe" common "$dir" \
      : -np 1 "$probe" common "$dir" \
      : -np 1 -x COHERIQ_REPRODUCIBLE=0 "$probe" common "$dir" >/dev/null 2>&1 || code=$?
    [ "$code" -ne 0 ] && [ "$code" -ne 124 ] || fail "exit $code, expected a failure"
    message=$(same_error_everywhere 3)
    echo "every rank: $message"
    [[ $message == "Error coheriq: "*"the reproducible mode differs between ranks: on (COHERIQ_REPRODUCIBLE='1') on rank 0 on host "*"; off (COHERIQ_REPRODUCIBLE unset) on rank 1 on host "*"; off (COHERIQ_REPRODUCIBLE='0') on rank 2 on host "*"mpirun -x COHERIQ_REPRODUCIBLE=1"* ]] ||
      fail "the message does not name each rank's mode and what to do: $message"
    for r in 0 1 2; do
      [ "$(state_of $r)" = open ] || fail "rank $r changed its domain: $(line $r)"
    done
    # A value that is neither 0 nor 1, on one rank: every rank names it.
    fresh
    code=0
    "${MPIRUN[@]}" -np 1 -x COHERIQ_REPRODUCIBLE=1 "$probe" common "$dir" \
      : -np 1 -x COHERIQ_REPRODUCIBLE=yes "$probe" common "$dir" >/dev/null 2>&1 || code=$?
    [ "$code" -ne 0 ] && [ "$code" -ne 124 ] || fail "malformed: exit $code, expected a failure"
    message=$(same_error_everywhere 2)
    echo "malformed on rank 1, every rank: $message"
    [[ $message == "Error coheriq: "*"some ranks cannot take part: rank 1 on host "*"COHERIQ_REPRODUCIBLE=yes is neither 0 nor 1"* ]] ||
      fail "not rank 1's malformed variable: $message"
    ;;
  reproducible.heterogeneous)
    probe=$1 dir=$2
    require_reproducible_mode "$probe"
    require_avx512 "$probe"
    best=$(COHERIQ_REPRODUCIBLE=1 "$probe" best-reproducible) || fail "no engine honours the mode"
    older=$(COHERIQ_REPRODUCIBLE=1 COHERIQ_DISABLE_CPU_FEATURES=avx512f "$probe" best-reproducible) ||
      fail "no engine honours the mode without avx512f"
    [ "$best" != "$older" ] ||
      fail "the best engine in the mode is $best with and without avx512f: the job is not heterogeneous"
    # Rank 0 without avx512f; each rank runs its own engine and computes the same bits.
    run() {  # run EXPECTED-0 EXPECTED-1 EXTRA-MPIRUN-ARGS...
      local want0=$1 want1=$2
      shift 2
      fresh
      "${MPIRUN[@]}" -np 1 -x COHERIQ_REPRODUCIBLE=1 -x COHERIQ_DISABLE_CPU_FEATURES=avx512f "$@" "$probe" common "$dir" \
        : -np 1 -x COHERIQ_REPRODUCIBLE=1 "$@" "$probe" common "$dir" >"$dir/report" ||
        fail "$*: the job failed: $(line 0) / $(line 1)"
      cat "$dir/report"
      [ "$(line 0)" = "ok $want0 $want0" ] || fail "$*: rank 0: $(line 0), expected $want0"
      [ "$(line 1)" = "ok $want1 $want1" ] || fail "$*: rank 1: $(line 1), expected $want1"
      [ "$(cat "$dir/digest.0")" = "$(cat "$dir/digest.1")" ] ||
        fail "$*: $want0 and $want1 computed different bits: $(cat "$dir/digest.0") vs $(cat "$dir/digest.1")"
      grep -q '^reproducible mode: on (COHERIQ_REPRODUCIBLE=1): each rank runs its own engine' "$dir/report" ||
        fail "$*: the report does not say that the mode is on"
      grep -qE "^0 .* $want0 .*\(disabled: avx512f\)" "$dir/report" && grep -qE "^1 .* $want1 " "$dir/report" ||
        fail "$*: the report does not show each rank's engine"
    }
    run "$older" "$best"                                        # COHERIQ_ENGINE unset
    run "$older" "$best" -x COHERIQ_ENGINE=auto
    run avx2 avx512 -x COHERIQ_ENGINE=avx512,avx2               # the first entry each supports
    # An engine that honours the mode but fails to enable (its library is missing): each rank
    # passes it over and takes its next entry.
    plugins=$dir.plugins
    rm -rf "$plugins" && mkdir -p "$plugins"
    cat >"$plugins/broken.coheriq-engine" <<MANIFEST
domain = coheriq.kernels
name = broken
bases = reference
priority = 1000
description = a plugin whose library is not there
library = $plugins/libnothere.so
abi = coheriq.kernels/2
overrides = dot.f32
reproducible = yes
MANIFEST
    run "$older" "$best" -x COHERIQ_ENGINE_PATH="$plugins" -x COHERIQ_ENGINE=broken,auto
    # Named alone, an engine rank 0 lacks: every rank fails, naming rank 0; nothing changed.
    fresh
    code=0
    "${MPIRUN[@]}" -np 1 -x COHERIQ_REPRODUCIBLE=1 -x COHERIQ_DISABLE_CPU_FEATURES=avx512f -x COHERIQ_ENGINE=avx512 "$probe" common "$dir" \
      : -np 1 -x COHERIQ_REPRODUCIBLE=1 -x COHERIQ_ENGINE=avx512 "$probe" common "$dir" >/dev/null 2>&1 || code=$?
    [ "$code" -ne 0 ] && [ "$code" -ne 124 ] || fail "avx512 on rank 0: exit $code, expected a failure"
    message=$(same_error_everywhere 2)
    echo "every rank: $message"
    [[ $message == "UnsupportedEngineError coheriq: "*"COHERIQ_ENGINE=avx512, in the reproducible mode"*"no entry is supported on rank 0 on host "*"'avx512': missing avx512f on rank 0 on host "* ]] ||
      fail "not rank 0's missing avx512f: $message"
    [ "$(state_of 0)" = open ] && [ "$(state_of 1)" = open ] || fail "a rank changed its domain"
    # A typo fails on every rank, although rank 1 would never reach it.
    fresh
    code=0
    "${MPIRUN[@]}" -np 2 -x COHERIQ_REPRODUCIBLE=1 -x COHERIQ_ENGINE=avx2,avx2x "$probe" common "$dir" >/dev/null 2>&1 || code=$?
    [ "$code" -ne 0 ] && [ "$code" -ne 124 ] || fail "a typo: exit $code, expected a failure"
    message=$(same_error_everywhere 2)
    [[ $message == "UnknownEngineError coheriq: "*"names 'avx2x'"* ]] || fail "not the typo: $message"
    # A rank that used the kernels before the call: locked on another engine than its choice.
    fresh
    code=0
    "${MPIRUN[@]}" -np 2 -x COHERIQ_REPRODUCIBLE=1 "$probe" common "$dir" --lock 1 >/dev/null 2>&1 || code=$?
    [ "$code" -ne 0 ] && [ "$code" -ne 124 ] || fail "a lock: exit $code, expected a failure"
    message=$(same_error_everywhere 2)
    echo "every rank: $message"
    [[ $message == "EngineLockedError coheriq: "*"in the reproducible mode each rank runs its own choice"*"'reference' is locked by the first use of dot.f64 instead of '$best' on rank 1 on host "* ]] ||
      fail "not the locked rank's error: $message"
    ;;
  threads)
    probe=$1 dir=$2
    check() {  # check NP EXPECTED-THREADS-FORMULA EXTRA-ARGS...
      local np=$1 want=$2 r cpus got
      shift 2
      fresh
      "${MPIRUN[@]}" -np "$np" "$@" >/dev/null || fail "np $np $*: the job failed"
      for ((r = 0; r < np; r++)); do
        read -r _ got _ cpus _ node rest <"$dir/rank.$r" || fail "np $np: rank $r wrote nothing"
        [ "$node" = "$np" ] && [ -z "${rest:-}" ] || fail "np $np: rank $r: $(line $r)"
        expected=$((want == 0 ? (cpus / np > 1 ? cpus / np : 1) : want))
        [ "$got" = "$expected" ] ||
          fail "np $np $*: rank $r has $got threads, expected $expected ($(line $r))"
        echo "np $np ${*:2}: rank $r: $(line $r)"
      done
    }
    check 1 0 "$probe" threads "$dir"                            # all CPUs of the mask
    check 2 0 "$probe" threads "$dir"                            # shared by two ranks
    check 3 0 "$probe" threads "$dir"
    check 2 3 -x COHERIQ_NUM_THREADS=3 "$probe" threads "$dir"   # explicit: the variable
    check 2 5 "$probe" threads "$dir" --set 5                    # explicit: set_num_threads
    # A malformed COHERIQ_NUM_THREADS on one rank: every rank fails with its message.
    fresh
    code=0
    "${MPIRUN[@]}" -np 1 -x COHERIQ_NUM_THREADS=x "$probe" threads "$dir" \
      : -np 1 "$probe" threads "$dir" >/dev/null 2>&1 || code=$?
    [ "$code" -ne 0 ] && [ "$code" -ne 124 ] || fail "malformed: exit $code, expected a failure"
    message=$(same_error_everywhere 2)
    echo "malformed on rank 0, every rank: $message"
    [[ $message == "Error coheriq: share_node_threads: "*"rank 0 on host "*"COHERIQ_NUM_THREADS='x'"* ]] ||
      fail "not rank 0's malformed variable: $message"
    ;;
  info)
    info=$1 dir=$2
    fresh
    "${MPIRUN[@]}" -np 2 "$info" >"$dir/out" || fail "exit $?: $(cat "$dir/out")"
    cat "$dir/out"
    grep -q '^coheriq: domain coheriq.kernels on 2 ranks, 1 node$' "$dir/out" || fail "no header"
    [ "$(grep -cE '^[01] ' "$dir/out")" = 2 ] || fail "not one row per rank"
    code=0
    "${MPIRUN[@]}" -np 2 -x COHERIQ_ENGINE=no_such "$info" >"$dir/out" 2>"$dir/err" || code=$?
    [ "$code" -ne 0 ] || fail "an unknown engine exited 0"
    grep -q "^coheriq: enable_common_engine(domain 'coheriq.kernels'): COHERIQ_ENGINE=no_such names 'no_such'" "$dir/err" ||
      fail "no message on stderr: $(cat "$dir/err")"
    [ "$(grep -c '^coheriq: enable_common_engine' "$dir/err")" = 1 ] || fail "not printed once"
    code=0
    "${MPIRUN[@]}" -np 1 "$info" --bogus >/dev/null 2>"$dir/err" || code=$?
    [ "$code" = 2 ] || fail "a usage error exited $code, not 2"
    grep -q "coheriq: coheriq-mpi-info: unknown argument '--bogus'" "$dir/err" ||
      fail "usage error not reported: $(cat "$dir/err")"
    "$info" --help | grep -q '^usage: mpirun \[...\] coheriq-mpi-info' || fail "no --help"
    ;;
  runtime-free)
    # The runtime (libcoheriq, the kernels, the coheriq command) must work on a node without MPI.
    for f in "$@"; do
      if grep -qE ' U (MPI_|PMPI_|ompi_)' <(nm -u "$f" 2>/dev/null | sed 's/^ */ /'); then
        fail "$f references MPI: $(nm -u "$f" | grep -E '(MPI_|ompi_)' | head -3 | tr '\n' ' ')"
      fi
      if [ -x "$f" ] && ldd "$f" 2>/dev/null | grep -q 'libmpi'; then
        fail "$f links $(ldd "$f" | grep libmpi)"
      fi
      echo "$f: no MPI"
    done
    ;;
  consumer)
    src=$1 build=$2 prefix=$3
    rm -rf "$build"
    cmake -S "$src" -B "$build" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release
    cmake --build "$build"
    "${MPIRUN[@]}" -np 2 "$build/mpi_consumer"
    "$prefix/bin/coheriq-mpi-info" >/dev/null  # installed, and runs as a singleton
    ;;
  *)
    echo "coheriq: mpi.sh: unknown mode '$mode'; see the usage at the top of tests/mpi/mpi.sh" >&2
    exit 2
    ;;
esac
