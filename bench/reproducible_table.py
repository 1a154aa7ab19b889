#!/usr/bin/env python3
"""The reproducible mode's cost: each kernel's speed with the mode on over its speed with it off.

The mode is settled once per process, so the two cannot share one process: this runs the kernels
benchmark alternately with COHERIQ_REPRODUCIBLE=0 and =1, `--rounds` times each (interleaved, so
that a noisy neighbour hits both alike), takes each row's median time per mode and prints
off-time / on-time (1.00: no cost; 0.90: the mode takes 11% longer). The engine is the
environment's COHERIQ_ENGINE (the benchmark's own default otherwise).

    env COHERIQ_ENGINE=zen5 taskset -c 1 python3 bench/reproducible_table.py \\
        --bench build/default/bench/kernels_bench [--rounds 3] [--filter REGEX]
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

DEFAULT_FILTER = (
    r"^((dot|sum|asum|nrm2|iamax|axpy|scal)\.(f32|f64)/(1024|65536|16777216)"
    r"|gemm\.(f32|f64)/(256|1024|2048)|gemv_[nt]\.(f32|f64)/(1024|4096)"
    r"|softmax\.(f32|f64)/(4096|65536)|(exp|tanh)\.f32/65536"
    r"|small_nn\.(f32|f64)/(8|32|64))/coheriq$"
)


def run(bench, regex, mode, min_time):
    env = dict(os.environ, COHERIQ_REPRODUCIBLE=mode)
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        subprocess.run(
            [bench, f"--benchmark_filter={regex}", f"--benchmark_min_time={min_time}",
             f"--benchmark_out={out.name}", "--benchmark_out_format=json"],
            env=env, check=True, stdout=subprocess.DEVNULL)
        with open(out.name) as f:
            rows = json.load(f)["benchmarks"]
    return {r["name"]: r["real_time"] for r in rows if r.get("run_type") == "iteration"}


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--bench", default="build/default/bench/kernels_bench")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--filter", default=DEFAULT_FILTER)
    p.add_argument("--min-time", default="0.1")
    args = p.parse_args()
    times = {"0": {}, "1": {}}
    for _ in range(args.rounds):
        for mode in ("0", "1"):
            for name, t in run(args.bench, args.filter, mode, args.min_time).items():
                times[mode].setdefault(name, []).append(t)
    names = [n for n in times["0"] if n in times["1"]]
    if not names:
        sys.exit("coheriq: reproducible_table.py: no benchmark matched --filter; check the regex")
    width = max(len(n) for n in names)
    print(f"{'kernel':<{width}}  off/on  (median of {args.rounds} interleaved runs each)")
    for n in names:
        off = statistics.median(times["0"][n])
        on = statistics.median(times["1"][n])
        print(f"{n:<{width}}  {off / on:5.2f}")


if __name__ == "__main__":
    main()
