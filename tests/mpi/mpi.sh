#!/usr/bin/env bash
# The MPI tests (tests/mpi/CMakeLists.txt runs one subcommand per ctest entry). Every mpirun is
# bounded by `timeout`, so a rank that hangs fails the test instead of stalling CI.
#
# usage: mpi.sh solver SOLVER PROBE NP DIR   the solver on NP ranks: twice bitwise identical,
#                                            agrees with 1 rank, engine = the host's best
#        mpi.sh heterogeneous PROBE DIR      one rank without avx512f: both on avx2, report
#        mpi.sh refusal PROBE DIR            COHERIQ_ENGINE=avx512, one rank lacks it: all fail
#        mpi.sh locked PROBE DIR             a rank used the kernels already: all fail, alike
#        mpi.sh mismatch PROBE DIR           COHERIQ_ENGINE differs between ranks: all fail
#        mpi.sh plugin PROBE DIR             a plugin fails to load everywhere: alike, or passed over
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
