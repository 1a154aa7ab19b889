#!/usr/bin/env python3
"""The drop-in's benchmarks in one run, single-threaded, in CPU time of the calling thread
(docs/performance.md, "The BLAS drop-in").

usage: bench/blas_bench.py <build dir>   (needs coheriq_blas and blas_bench built)

1. numpy float32 matmul, n = 1024 and 2048, with Debian's numpy (/usr/bin/python3, OpenBLAS
   behind libblas.so.3) as it is and with LD_PRELOAD=libcoheriq_blas.so;
2. bench/blas_bench.cpp: cblas_sdot incx = 2 against OpenBLAS, contiguous CBLAS against the
   C++ API.
Every child runs with OPENBLAS_NUM_THREADS=1 and COHERIQ_NUM_THREADS=1 (the same thread count on
both sides), and without OPENBLAS_CORETYPE / OPENBLAS_L2_SIZE, so OpenBLAS picks its kernels for
this CPU itself (those variables are removed for these commands only).
"""
import os
import subprocess
import sys

NUMPY_PYTHON = "/usr/bin/python3"
OPENBLAS = "/usr/lib/x86_64-linux-gnu/openblas-pthread/libopenblas.so.0"

MATMUL = r"""
import sys, time
import numpy as np
n = int(sys.argv[1])
rng = np.random.default_rng(1)
a = rng.uniform(-1, 1, (n, n)).astype(np.float32)
b = rng.uniform(-1, 1, (n, n)).astype(np.float32)
a @ b
best = 1e30
for _ in range(7):
    t0 = time.thread_time()  # CPU time of this thread: other processes' time slices do not count
    a @ b
    best = min(best, time.thread_time() - t0)
print(best)
"""


def environment(preload=None):
    env = {k: v for k, v in os.environ.items()
           if k not in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE", "LD_PRELOAD", "COHERIQ_ENGINE")}
    env.update(OPENBLAS_NUM_THREADS="1", COHERIQ_NUM_THREADS="1")
    if preload:
        env.update(LD_PRELOAD=preload, COHERIQ_LOG="info")
    return env


def matmul_seconds(n, preload=None):
    run = subprocess.run([NUMPY_PYTHON, "-c", MATMUL, str(n)], env=environment(preload),
                         capture_output=True, text=True, check=True, timeout=600)
    engine = ""
    for line in run.stderr.splitlines():
        if "locked to" in line:
            engine = line.split("locked to ")[1].split()[0]
    return float(run.stdout.strip()), engine


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    build = sys.argv[1]
    library = os.path.join(build, "src", "blas", "libcoheriq_blas.so")
    bench = os.path.join(build, "bench", "blas_bench")
    for path in (library, bench, NUMPY_PYTHON, OPENBLAS):
        if not os.path.exists(path):
            print(f"coheriq: blas_bench.py: {path} is missing; build coheriq_blas and blas_bench, "
                  "and run scripts/deps.sh --tests (python3-numpy)")
            return 1
    print("single thread on both sides (OPENBLAS_NUM_THREADS=1, COHERIQ_NUM_THREADS=1)")
    print("ratio = OpenBLAS time / libcoheriq_blas time (> 1: the preload is faster)")
    for n in (1024, 2048):
        plain, _ = matmul_seconds(n)
        preloaded, engine = matmul_seconds(n, library)
        gflops = 2 * n**3 / 1e9
        print(f"numpy float32 matmul n={n}: OpenBLAS {gflops / plain:7.1f} GFLOP/s, "
              f"libcoheriq_blas ({engine}) {gflops / preloaded:7.1f} GFLOP/s, "
              f"ratio {plain / preloaded:.3f}")
    sys.stdout.flush()
    return subprocess.run([bench, library, OPENBLAS], env=environment(), timeout=600).returncode


if __name__ == "__main__":
    sys.exit(main())
