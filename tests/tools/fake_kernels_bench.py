#!/usr/bin/env python3
"""A stand-in for kernels_bench, speaking the protocol `coheriq bench` uses with it.

Its kernels are made up ("frob", "blip"), so a test can tell whether the command lays out its
tables from what the binary says of each kernel (size kind, traffic) or from kernel names it
knows. It also fails or hangs on request, for the tests of failed and interrupted runs:
  FAKE_BENCH_FAIL=1      a measuring run exits 1
  FAKE_BENCH_SLEEP=S     a measuring run sleeps S seconds first (writing its pid to
                         FAKE_BENCH_PIDFILE when set)
  FAKE_BENCH_IGNORE_SIGINT=1  a measuring run ignores SIGINT (a benchmark the command must kill)
With --threads=N it reports as kernels_bench does then: context coheriq_threads and
coheriq_time=real_time, the benchmark thread's cpu time below the wall-clock time, and rates
per cpu second (Google Benchmark's); the peaks keep cpu time equal to wall-clock time.
"""

import json
import os
import re
import signal
import sys
import time

TRAITS = {
    "frob.f32": "size=order work=linear traffic=read1",  # a matrix size, compared with read1
    "blip.f64": "size=length work=linear",               # a vector length, no STREAM reference
    "grind.f64": "size=order work=cubic",                # compared with the f64 FMA peak
}
NAMES = ["frob.f32/4096/coheriq", "blip.f64/2048/coheriq", "grind.f64/64/coheriq",
         "stream_read1.f64/4096/stream", "fma_peak.f64/256/peak", "fma_peak.f64/512/peak"]
# The FMA peaks, flops per second; grind does 2 * 64^3 flops per call.
PEAK = {"256": 50e9, "512": 100e9}


def main(argv):
    options = dict(a.split("=", 1) if "=" in a else (a, "") for a in argv[1:])
    if "--benchmark_list_tests" in options:
        if "--describe" in options:
            for kernel, traits in TRAITS.items():
                print(f"@kernel {kernel} {traits}")
        print("\n".join(NAMES))
        return 0
    if os.environ.get("FAKE_BENCH_IGNORE_SIGINT"):
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    if os.environ.get("FAKE_BENCH_PIDFILE"):
        with open(os.environ["FAKE_BENCH_PIDFILE"], "w") as f:
            f.write(str(os.getpid()))
    time.sleep(float(os.environ.get("FAKE_BENCH_SLEEP", "0")))
    if os.environ.get("FAKE_BENCH_FAIL"):
        print("fake kernels_bench: failing as asked", file=sys.stderr)
        return 1
    engine = os.environ.get("COHERIQ_ENGINE", "")
    selected = re.compile(options["--benchmark_filter"].replace("[.]", r"\."))
    repetitions = int(options.get("--benchmark_repetitions", "1"))
    threads = options.get("--threads")
    context = {"coheriq_engine": engine, "peers_skipped": "",
               # What the command set for OpenBLAS's workers (--threads N): for the test to see.
               "fake_openblas_thread_timeout": os.environ.get("OPENBLAS_THREAD_TIMEOUT", "unset")}
    if threads is not None:
        context.update({"coheriq_threads": threads, "coheriq_time": "real_time"})
    context.update({"coheriq_kernel:" + k: v for k, v in TRAITS.items()})
    benchmarks = []
    for name in NAMES:
        if not selected.match(name):
            continue
        kernel, size, impl = name.split("/")
        ns = 1000.0 if impl == "stream" else (400.0 if engine == "reference" else 100.0)
        for r in range(repetitions):
            t = ns * (1 + 0.01 * r)
            cpu = t * 0.5 if threads is not None and impl != "peak" else t
            entry = {"name": name, "run_name": name, "run_type": "iteration",
                     "repetitions": repetitions, "repetition_index": r,
                     "iterations": 1000, "real_time": t, "cpu_time": cpu, "time_unit": "ns"}
            if impl == "peak":
                entry["flops"] = PEAK[size]
            elif kernel.startswith("grind"):
                entry["flops"] = 2 * int(size) ** 3 / (cpu * 1e-9)
            else:
                entry["bytes_per_second"] = int(size) * 8 / (cpu * 1e-9)
            benchmarks.append(entry)
        print(f"{name} {ns} ns")
    with open(options["--benchmark_out"], "w") as f:
        json.dump({"context": context, "benchmarks": benchmarks}, f)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
