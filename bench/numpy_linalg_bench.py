#!/usr/bin/env python3
"""numpy.linalg end to end, single-threaded: Coheriq as libblas.so.3 under the reference LAPACK,
against numpy over OpenBLAS with its own LAPACK (docs/performance.md, "numpy.linalg end to end").

usage: bench/numpy_linalg_bench.py <build dir> [--repeat R] [--only NAME,...]
       (needs coheriq_blas built, and /usr/bin/python3 with numpy: scripts/deps.sh --tests)

Each routine is timed in three processes of Debian's numpy, which loads libblas.so.3 and
liblapack.so.3 by those names:
  openblas      as installed: OpenBLAS's BLAS and its LAPACK (the alternatives' choice);
  coheriq       libblas.so.3 -> libcoheriq_blas.so, liblapack.so.3 -> the reference LAPACK;
  ref-lapack    libblas.so.3 -> OpenBLAS, liblapack.so.3 -> the reference LAPACK: what the
                reference LAPACK's algorithms give on OpenBLAS's BLAS, so that a routine where
                `coheriq` trails `openblas` shows whether the BLAS or the LAPACK is the gap.
The two redirected runs get a folder on LD_LIBRARY_PATH with the two links; each process prints
which libraries it mapped, and the script fails when a run did not map the ones it names.
Every process runs with OPENBLAS_NUM_THREADS=1 and COHERIQ_NUM_THREADS=1, and without
OPENBLAS_CORETYPE / OPENBLAS_L2_SIZE, so OpenBLAS chooses its kernels for this CPU itself (the
variables are removed for these processes only). A time is the best of R calls (default 3) in CPU
time of the calling thread (time.thread_time): other processes' time slices do not count.
Sizes: f64, n = 2048 (svd 1024); solve has one right-hand side, lstsq a square system.
"""
import argparse
import os
import subprocess
import sys
import tempfile

from blas_bench import NUMPY_PYTHON, environment as blas_bench_environment

MULTIARCH = "/usr/lib/x86_64-linux-gnu"
OPENBLAS_BLAS = f"{MULTIARCH}/openblas-pthread/libblas.so.3"
REFERENCE_LAPACK = f"{MULTIARCH}/lapack/liblapack.so.3"

# name, n, the call (a: n x n general, s: n x n symmetric positive definite, b: n x 1).
ROUTINES = [
    ("solve", 2048, "np.linalg.solve(a, b)"),
    ("inv", 2048, "np.linalg.inv(a)"),
    ("cholesky", 2048, "np.linalg.cholesky(s)"),
    ("eigh", 2048, "np.linalg.eigh(s)"),
    ("svd", 1024, "np.linalg.svd(a)"),
    ("lstsq", 2048, "np.linalg.lstsq(a, b, rcond=None)"),
]

TIMER = r"""
import sys, time
import numpy as np
n, repeat, call = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
rng = np.random.default_rng(1)
a = rng.uniform(-1, 1, (n, n))
s = a @ a.T + n * np.eye(n)
b = rng.uniform(-1, 1, (n, 1))
code = compile(call, "<call>", "eval")
eval(code)
best = 1e30
for _ in range(repeat):
    t0 = time.thread_time()
    eval(code)
    best = min(best, time.thread_time() - t0)
with open("/proc/self/maps") as maps:
    mapped = sorted({line.split()[-1] for line in maps
                     if "libblas" in line or "liblapack" in line or "openblas" in line
                     or "coheriq" in line})
print(best)
print(" ".join(mapped))
"""


def environment(folder=None):
    """blas_bench.py's (one thread each, OpenBLAS at its own kernel choice), with `folder` as the
    only library path."""
    env = blas_bench_environment()
    env.pop("LD_LIBRARY_PATH", None)
    if folder:
        env["LD_LIBRARY_PATH"] = folder
    return env


def seconds(n, repeat, call, folder, expect):
    run = subprocess.run([NUMPY_PYTHON, "-c", TIMER, str(n), str(repeat), call],
                         env=environment(folder), capture_output=True, text=True, timeout=3600)
    if run.returncode != 0:
        sys.exit(f"coheriq: numpy_linalg_bench.py: {call} failed:\n{run.stderr[-3000:]}")
    best, mapped = run.stdout.strip().splitlines()
    real = {os.path.realpath(p) for p in mapped.split()}
    missing = [p for p in expect if os.path.realpath(p) not in real]
    if missing:
        sys.exit(f"coheriq: numpy_linalg_bench.py: the run of {call} did not map "
                 f"{', '.join(missing)} (mapped: {mapped})")
    return float(best)


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("build")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--only", type=lambda v: set(v.split(",")), default=None)
    args = parser.parse_args()
    repeat, only = args.repeat, args.only
    library = os.path.join(args.build, "src", "blas", "libcoheriq_blas.so")
    for path in (library, NUMPY_PYTHON, OPENBLAS_BLAS, REFERENCE_LAPACK):
        if not os.path.exists(path):
            print(f"coheriq: numpy_linalg_bench.py: {path} is missing; build coheriq_blas and run "
                  "scripts/deps.sh --tests (python3-numpy, libopenblas0-pthread, liblapack3)")
            return 1
    with tempfile.TemporaryDirectory(prefix="coheriq-numpy-bench-") as scratch:
        folders = {}
        for name, blas in (("coheriq", library), ("ref-lapack", OPENBLAS_BLAS)):
            folder = os.path.join(scratch, name)
            os.mkdir(folder)
            os.symlink(os.path.abspath(blas), os.path.join(folder, "libblas.so.3"))
            os.symlink(REFERENCE_LAPACK, os.path.join(folder, "liblapack.so.3"))
            folders[name] = (folder, [blas, REFERENCE_LAPACK])
        print("f64, 1 thread each; seconds of thread CPU time, best of", repeat)
        print("ratio = openblas / coheriq (> 1: Coheriq's run is faster); "
              "ref-lapack / coheriq: the same LAPACK on OpenBLAS's BLAS")
        print(f"{'routine':10} {'n':>5} {'openblas':>9} {'coheriq':>9} {'ref-lapack':>10} "
              f"{'ratio':>6} {'vs ref-lapack':>13}")
        for name, n, call in ROUTINES:
            if only and name not in only:
                continue
            openblas = seconds(n, repeat, call, None, [OPENBLAS_BLAS])
            ours = seconds(n, repeat, call, *folders["coheriq"])
            ref_lapack = seconds(n, repeat, call, *folders["ref-lapack"])
            print(f"{name:10} {n:5} {openblas:9.3f} {ours:9.3f} {ref_lapack:10.3f} "
                  f"{openblas / ours:6.2f} {ref_lapack / ours:13.2f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
