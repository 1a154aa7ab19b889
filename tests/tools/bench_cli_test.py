#!/usr/bin/env python3
"""Tests of `coheriq bench`, one check per ctest entry (see CMakeLists.txt).

Nothing here asserts a measured value: the checks recompute what the command derives (medians,
speedups) from the raw Google Benchmark samples it saved, and compare with what it printed.

Usage: bench_cli_test.py --coheriq PATH --work DIR CHECK
Exit codes: 0 pass, 1 fail, 77 skipped (the reason is printed).
"""

import argparse
import json
import os
import platform
import re
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
import zlib

SKIP = 77
SVG_NS = "{http://www.w3.org/2000/svg}"
HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.dirname(os.path.dirname(HERE))


class Failure(Exception):
    pass


def prerequisite_missing(reason):
    """A check that cannot run here: skipped with the reason, or failed when CI=true (in CI a
    missing prerequisite is an error, not a quietly smaller test suite)."""
    print(f"SKIP: {reason}")
    if os.environ.get("CI") == "true":
        print("FAIL: CI=true, where a missing prerequisite is an error")
        return 1
    return SKIP


def check(condition, message):
    if not condition:
        raise Failure(message)


# What runs the programs of the build (--emulator: a cross build's CMAKE_CROSSCOMPILING_EMULATOR,
# e.g. qemu-aarch64 -L /), and the real kernels_bench (--kernels-bench), set by main().
EMULATOR = []
KERNELS_BENCH = ""


def clean_env(env_extra=None):
    """The caller's environment without the variables that change what the command does. Under
    an emulator, the command's real kernels_bench children go through it too (qemu-user cannot
    exec a binary of the guest by itself); a stand-in (a Python script) runs natively."""
    env = {k: v for k, v in os.environ.items()
           if not (k.startswith("COHERIQ_") or k.startswith("FAKE_BENCH_") or
                   k == "OPENBLAS_THREAD_TIMEOUT")}
    extra = env_extra or {}
    if EMULATOR and "COHERIQ_BENCH_LAUNCHER" not in extra and \
            extra.get("COHERIQ_KERNELS_BENCH", KERNELS_BENCH) == KERNELS_BENCH:
        env["COHERIQ_BENCH_LAUNCHER"] = " ".join(EMULATOR)
    env.update(extra)
    return env


def run(args, cmd, env_extra=None, timeout=600, prefix=None, binary=None, **kwargs):
    argv = (prefix or EMULATOR) + [binary or args.coheriq] + cmd
    kwargs.setdefault("capture_output", True)
    proc = subprocess.run(argv, env=clean_env(env_extra), text=True, timeout=timeout, **kwargs)
    print("$ " + " ".join((prefix or []) + ["coheriq"] + cmd) + f"  -> exit {proc.returncode}")
    return proc


def fake_bench(args):
    """An executable copy of fake_kernels_bench.py in the work directory, put in place by a
    rename: the checks share the directory and ctest runs them in parallel, and a copy written
    in place could be read half-written by a run another check starts (tools.bench.sigint once
    saw its run end before it started, under qemu in CI's aarch64 stage)."""
    os.makedirs(args.work, exist_ok=True)
    path = os.path.join(args.work, "fake_kernels_bench")
    staging = f"{path}.{os.getpid()}"
    shutil.copy(os.path.join(HERE, "fake_kernels_bench.py"), staging)
    os.chmod(staging, 0o755)
    os.replace(staging, path)
    return path


def close(a, b, rel=1e-9):
    return abs(a - b) <= rel * max(abs(a), abs(b))


def median(values):
    v = sorted(values)
    mid = len(v) // 2
    return v[mid] if len(v) % 2 else (v[mid - 1] + v[mid]) / 2


UNIT_NS = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}


def size_label(traits, kernel, n):
    """As the command labels a size: from the kernel's traits in kernels_bench's JSON context."""
    if "size=order" in traits.get("coheriq_kernel:" + kernel, "").split():
        return str(n)
    if n >= 1 << 20 and n % (1 << 20) == 0:
        return f"{n >> 20}M"
    if n >= 1024 and n % 1024 == 0:
        return f"{n >> 10}K"
    return str(n)


def best_supported_engine(args):
    """The first supported engine of `coheriq info --json` (engines are listed by priority)."""
    proc = run(args, ["info", "--json"])
    check(proc.returncode == 0, f"coheriq info --json failed: {proc.stderr}")
    info = json.loads(proc.stdout)
    domain = next(d for d in info["domains"] if d["name"] == "coheriq.kernels")
    return next(e["name"] for e in domain["engines"] if e["supported"]), domain


# ------------------------------ checks


def check_quick(args):
    """The reference and the best engine on dot: table, JSON structure, speedups recomputed."""
    os.makedirs(args.work, exist_ok=True)
    json_path = os.path.join(args.work, "quick.json")
    svg_path = os.path.join(args.work, "quick.svg")
    for path in (json_path, svg_path):
        if os.path.exists(path):
            os.remove(path)
    best, _ = best_supported_engine(args)
    engines_arg = "reference" if best == "reference" else f"reference,{best}"
    proc = run(args, ["bench", "--quick", "--kernels", "dot", "--engines", engines_arg,
                      "--json", json_path, "--chart", svg_path])
    print(proc.stdout)
    check(proc.returncode == 0, f"exit {proc.returncode}: {proc.stderr}")

    # Progress went to stderr, never to stdout.
    check("engine 1 of" in proc.stderr, "no progress line on stderr")
    check("elapsed" not in proc.stdout, "progress leaked into stdout")

    data = json.load(open(json_path))
    for key in ("context", "benchmarks", "coheriq_bench", "runs"):
        check(key in data, f"JSON lacks '{key}'")
    summary = data["coheriq_bench"]
    expected_engines = ["reference"] if best == "reference" else ["reference", best]
    check(summary["engines"] == expected_engines,
          f"engines {summary['engines']} != {expected_engines}")
    check(summary["host"]["auto_engine"] == best, "host.auto_engine is not the best engine")

    # Each run keeps Google Benchmark's own format, and ran the engine it claims.
    runs = data["runs"]
    check({r["engine"] for r in runs} == set(expected_engines), "a run per engine")
    samples = {}  # (kernel, size, column) -> per-repetition cpu times in ns
    for r in runs:
        out = r["output"]
        check("context" in out and "benchmarks" in out, "run output is not Google Benchmark JSON")
        check(out["context"]["coheriq_engine"] == r["engine"],
              f"run for {r['engine']} reports engine {out['context']['coheriq_engine']}")
        for b in out["benchmarks"]:
            for field in ("name", "run_name", "run_type", "cpu_time", "real_time", "time_unit",
                          "iterations"):
                check(field in b, f"benchmark entry lacks '{field}': {b.get('name')}")
            if b["run_type"] != "iteration":
                continue
            kernel, size, impl = b["run_name"].split("/")
            column = r["engine"] if impl == "coheriq" else impl
            if impl == "stream":
                continue
            samples.setdefault((kernel, int(size), column), []).append(
                b["cpu_time"] * UNIT_NS[b["time_unit"]])

    # The peers ran once, in the process of auto's engine (the one the last column compares
    # them with), and in no other run.
    check(summary["peers_run"] == best, f"peers ran with {summary['peers_run']}, not {best}")
    for r in runs:
        impls = {b["run_name"].split("/")[2] for b in r["output"]["benchmarks"]}
        foreign = impls - {"coheriq", "stream", "peak"}
        check(bool(foreign) == (r["engine"] == best) or not summary["peers"],
              f"run {r['engine']} ran peers {sorted(foreign)}; they belong to {best}'s run")

    # compare.py-style readers: one "benchmarks" list, coheriq's rows named after the engine.
    merged = {b["run_name"] for b in data["benchmarks"]}
    for engine in expected_engines:
        check(any(n.endswith("/" + engine) for n in merged), f"no merged row for {engine}")
    check(not any(n.endswith("/coheriq") for n in merged), "merged rows still say coheriq")

    rows = summary["rows"]
    # `--kernels dot` is the dot family: every element type (f32, f64, and u8s8, bf16).
    kernels = {r["kernel"] for r in rows}
    check(kernels >= {"dot.f32", "dot.f64"} and all(k.startswith("dot.") for k in kernels),
          f"rows are {[r['kernel'] for r in rows]}, not dot only")
    for row in rows:
        cells = row["cells"]
        for engine in expected_engines:
            check(engine in cells, f"{row['kernel']}/{row['size']}: no {engine} cell")
        ref = cells["reference"]["time_ns"]
        for column, cell in cells.items():
            raw = samples.get((row["kernel"], row["size"], column))
            check(raw, f"no raw samples for {row['kernel']}/{row['size']}/{column}")
            check(len(raw) == cell["repetitions"], "repetitions differ from the raw samples")
            check(close(median(raw), cell["time_ns"]),
                  f"{row['kernel']}/{row['size']}/{column}: time_ns {cell['time_ns']} is not "
                  f"the median of {raw}")
            check(close(cell["speedup"], ref / cell["time_ns"]),
                  f"{row['kernel']}/{row['size']}/{column}: speedup {cell['speedup']} != "
                  f"{ref} / {cell['time_ns']}")

    # The printed table: a host line, a header naming every column, and per row the speedup
    # column equal to the ratio in the JSON (to the three digits printed).
    lines = proc.stdout.splitlines()
    host_line = next((l for l in lines if l.startswith("host: ")), None)
    check(host_line is not None, "no host line")
    check(f"auto selects {best}" in host_line, "the host line does not name auto's engine")
    header = next((l for l in lines if l.startswith("kernel ")), None)
    check(header is not None, "no table header")
    columns = header.split()[2:]
    peers = [p["name"] for p in summary["peers"]]
    check(columns[:len(expected_engines)] == expected_engines, f"header columns {columns}")
    check(columns[len(expected_engines):len(expected_engines) + len(peers)] == peers,
          f"peer columns {columns} != {peers}")
    for row in rows:
        label = size_label(data["context"], row["kernel"], row["size"])
        prefix = re.compile(rf"^{re.escape(row['kernel'])}\s+{label}\s")
        line = next((l for l in lines if prefix.match(l)), None)
        check(line is not None, f"no table line for {row['kernel']} {row['size']}")
        ratios = [float(t[:-1]) for t in line.split() if re.fullmatch(r"[0-9.]+x", t)]
        # A peer without this kernel (no reduced-precision peer exists) prints "-", no ratio.
        present = expected_engines + [p for p in peers if p in row["cells"]]
        for i, column in enumerate(present):
            expected = row["cells"][column]["speedup"]
            check(abs(ratios[i] - expected) <= 0.006 * expected + 0.0006,
                  f"{row['kernel']} {row['size']} {column}: printed {ratios[i]}x, JSON "
                  f"{expected:.4f}x")
    print(f"quick: {len(rows)} rows, columns {expected_engines + peers}: speedups match the JSON")


def check_json_stdout(args):
    """--json - keeps stdout pure JSON; the table goes to stderr; --quiet silences stderr."""
    common = ["bench", "--quick", "--kernels", "dot.f32", "--sizes", "1K", "--engines",
              "reference", "--json", "-"]
    proc = run(args, common)
    check(proc.returncode == 0, f"exit {proc.returncode}: {proc.stderr}")
    data = json.loads(proc.stdout)  # raises when anything else is on stdout
    check(data["coheriq_bench"]["rows"][0]["kernel"] == "dot.f32", "unexpected row")
    check("kernel" in proc.stderr and "host:" in proc.stderr, "the table is not on stderr")
    proc = run(args, common + ["--quiet"])
    check(proc.returncode == 0, f"exit {proc.returncode}: {proc.stderr}")
    json.loads(proc.stdout)
    check(proc.stderr == "", f"--quiet still wrote to stderr: {proc.stderr!r}")
    print("json-stdout: stdout parses as JSON; table on stderr; --quiet is quiet")


def check_unsupported(args):
    """An engine the host lacks features for, named explicitly, is an error naming them. The
    engine and feature are each architecture's own: avx2 on x86-64, neon (asimd) on aarch64."""
    _, domain = best_supported_engine(args)
    names = [e["name"] for e in domain["engines"]]
    engine, feature = next(((e, f) for e, f in (("avx2", "avx2"), ("neon", "asimd"))
                            if e in names), (None, None))
    if engine is None:
        print("SKIP: this build has neither an avx2 nor a neon engine (COHERIQ_ENGINES excludes "
              "them)")
        return SKIP
    proc = run(args, ["bench", "--quick", "--kernels", "dot", "--engines", f"reference,{engine}"],
               {"COHERIQ_DISABLE_CPU_FEATURES": feature})
    print(proc.stderr)
    check(proc.returncode == 1, f"exit {proc.returncode}, expected 1")
    check(f"coheriq: bench: engine {engine} is not supported on this host: missing {feature}" in
          proc.stderr, "the message does not name the engine and its missing feature")
    check(proc.stdout == "", "something was printed on stdout")
    print("unsupported: clear error, exit 1")


def check_unknown(args):
    proc = run(args, ["bench", "--quick", "--engines", "avx9000"])
    print(proc.stderr)
    check(proc.returncode == 2, f"exit {proc.returncode}, expected 2 (bad usage)")
    check("unknown engine 'avx9000'" in proc.stderr, "the message does not name the engine")
    check(re.search(r"known engines: .*reference", proc.stderr), "known engines are not listed")
    print("unknown: clear error listing the known engines, exit 2")


def check_bad_flag(args):
    """Usage errors exit 2 and name what was wrong."""
    cases = [
        (["bench", "--bogus"], "--bogus"),
        (["bench", "--quick", "--engines"], "--engines"),
        (["bench", "--sizes", "12X"], "--sizes"),
        (["bench", "--repetitions", "0"], "--repetitions"),
        (["bench", "--min-time", "nan"], "--min-time: 'nan' is not a finite number"),
        (["bench", "--min-time", "inf"], "--min-time: 'inf' is not a finite number"),
        (["bench", "--min-time", "-0.5"], "--min-time"),
        (["bench", "--engines", "typo"], "unknown engine 'typo'"),
        (["bench", "--kernels", "dot;rm"], "--kernels"),
        (["frobnicate"], "frobnicate"),
        ([], "command is required"),
    ]
    for cmd, named in cases:
        proc = run(args, cmd, binary=args.binary)
        print(proc.stderr.strip())
        check(proc.returncode == 2, f"coheriq {' '.join(cmd)}: exit {proc.returncode}, expected 2")
        check(named in proc.stderr, f"coheriq {' '.join(cmd)}: the message does not name {named}")
        check(proc.stdout == "", f"coheriq {' '.join(cmd)}: usage error printed on stdout")
    proc = run(args, ["bench", "--help"], binary=args.binary)
    check(proc.returncode == 0 and "--engines" in proc.stdout, "bench --help")
    print("bad-flag: exit 2 with the flag named, for every case")


def check_usage_before_lookup(args):
    """Usage errors come before kernels_bench is looked for: a copy of the command where no
    kernels_bench can be found (as in a -DCOHERIQ_BUILD_BENCH=OFF build) still exits 2."""
    lonely = os.path.join(args.work, "lonely")
    os.makedirs(lonely, exist_ok=True)
    binary = os.path.join(lonely, "coheriq")
    shutil.copy(args.coheriq, binary)
    proc = run(args, ["bench", "--quick", "--engines", "reference"], binary=binary)
    check(proc.returncode == 1 and "kernels_bench not found" in proc.stderr,
          f"the copy should not find kernels_bench (exit {proc.returncode}): {proc.stderr}")
    args.binary = binary
    check_bad_flag(args)
    print("usage-before-lookup: exit 2 for bad usage without any kernels_bench")


def check_usage_with_bench(args):
    """Usage errors that need the list of benchmarks are exit 2 as well."""
    env = {"COHERIQ_KERNELS_BENCH": fake_bench(args)}
    for cmd, named in [(["--kernels", "nosuch"], "unknown kernel 'nosuch'"),
                       (["--sizes", "3K"], "--sizes: no benchmark has size 3K"),
                       (["--kernels", "blip", "--sizes", "4K"], "no benchmark matches")]:
        proc = run(args, ["bench", "--engines", "reference"] + cmd, env)
        print(proc.stderr.strip())
        check(proc.returncode == 2, f"{cmd}: exit {proc.returncode}, expected 2")
        check(named in proc.stderr, f"{cmd}: the message does not say {named!r}")
    print("usage-with-bench: exit 2 for unknown kernels and sizes")


def check_traits(args):
    """The tables follow what the benchmark binary says of each kernel, not kernel names: a
    fake binary with made-up kernels gets its sizes labelled and its traffic compared as it
    describes them. The host line's key features are the engines' required features."""
    json_path = os.path.join(args.work, "traits.json")
    proc = run(args, ["bench", "--engines", "reference", "--json", json_path],
               {"COHERIQ_KERNELS_BENCH": fake_bench(args)})
    print(proc.stdout)
    check(proc.returncode == 0, f"exit {proc.returncode}: {proc.stderr}")
    lines = proc.stdout.splitlines()
    check(any(re.match(r"^frob\.f32\s+4096\s", l) for l in lines),
          "frob.f32 (size=order) is not labelled 4096")
    check(any(re.match(r"^blip\.f64\s+2K\s", l) for l in lines),
          "blip.f64 (size=length) is not labelled 2K")
    bandwidth = proc.stdout.split("bandwidth of the cold rows", 1)
    check(len(bandwidth) == 2, "no bandwidth table: frob.f32 (traffic=read1) was not compared")
    check(re.search(r"^frob\.f32\s+4096\s+.*\(\d+%\)", bandwidth[1], re.M),
          "frob.f32 has no fraction of the read1 reference")
    check("blip.f64" not in bandwidth[1].split("throughput")[0],
          "blip.f64 (no traffic) is in the bandwidth table")
    summary = json.load(open(json_path))["coheriq_bench"]
    frob = next(r for r in summary["rows"] if r["kernel"] == "frob.f32")
    # read1 reference: 4096 * 8 bytes in 1000 ns; frob: the same bytes in 400 ns.
    check(close(frob["cells"]["reference"]["fraction_of_stream"], 2.5, 1e-6),
          f"fraction_of_stream {frob['cells']['reference'].get('fraction_of_stream')} != 2.5")

    # The host line: the features the engines require (lowest priority first), those present.
    info = json.loads(run(args, ["info", "--json"]).stdout)
    engines = next(d for d in info["domains"] if d["name"] == "coheriq.kernels")["engines"]
    key = []
    for e in reversed(engines):
        key += [f for f in e["required_features"] if f not in key]
    present = [f for f in key if f in info["host"]["features"]]
    host_line = next(l for l in lines if l.startswith("host: "))
    shown = host_line.split("); ", 1)[1].split(";")[0]
    expected = " ".join(present) if present else "no SIMD features of note"
    check(shown == expected, f"host line features {shown!r} != {expected!r}")

    # bench/summarize.py reads the same traits from the JSON context.
    out = subprocess.run([sys.executable, os.path.join(SOURCE, "bench", "summarize.py"),
                          json_path], capture_output=True, text=True)
    print(out.stdout)
    check(out.returncode == 0, f"summarize.py failed: {out.stderr}")
    check("| frob.f32 | 4096 | 250%" in out.stdout, "summarize.py: frob.f32 not as described")
    print("traits: sizes, bandwidth rows and the host line come from the binary and the engines")


def thread_timeouts(data):
    """What each kernels_bench run of a bench JSON saw of OPENBLAS_THREAD_TIMEOUT (the fake
    reports it in its context; "unset" when absent)."""
    return {r["output"]["context"]["fake_openblas_thread_timeout"] for r in data["runs"]}


def check_threads(args):
    """--threads N reaches every kernels_bench run, the header and the JSON say the count, the
    times are wall-clock (rates rescaled from Google Benchmark's per-cpu-second), and a cubic
    row is shown as a fraction of the widest FMA peak of its type times the threads. Without
    the flag the header says one thread, and no --threads is passed."""
    fake = {"COHERIQ_KERNELS_BENCH": fake_bench(args)}
    json_path = os.path.join(args.work, "threads.json")
    proc = run(args, ["bench", "--engines", "reference", "--threads", "2", "--json", json_path],
               fake)
    print(proc.stdout)
    check(proc.returncode == 0, f"exit {proc.returncode}: {proc.stderr}")
    check("threads: 2 (coheriq and the peers that can; times are wall-clock)" in proc.stdout,
          "the header does not say 2 threads")
    data = json.load(open(json_path))
    check(all("--threads=2" in r["arguments"] for r in data["runs"]),
          "a kernels_bench run did not get --threads=2")
    summary = data["coheriq_bench"]
    check(summary["settings"]["threads"] == 2, "settings.threads is not 2")
    check(summary["settings"]["time"].startswith("real_time"), "settings.time is not real_time")
    grind = next(r for r in summary["rows"] if r["kernel"] == "grind.f64")["cells"]["reference"]
    check(close(grind["time_ns"], 400.0 * 1.01, 1e-6), f"time_ns {grind['time_ns']}: not wall")
    # 2 * 64^3 flops in 404 ns, against the 512-bit f64 peak (100 GFLOP/s) times 2 threads.
    expected = 2 * 64 ** 3 / 404e-9 / 200e9
    check(close(grind["fraction_of_peak"], expected, 1e-6),
          f"fraction_of_peak {grind.get('fraction_of_peak')} != {expected}")
    check(close(summary["peak"]["reference"]["f64/512"]["flops"], 100e9, 1e-9),
          "the peak is not in the JSON")
    roof = proc.stdout.split("gemm as % of the FMA peak", 1)
    check(len(roof) == 2 and "one core x 2 threads" in roof[1].splitlines()[0],
          "no peak table for 2 threads")
    check(re.search(rf"^grind\.f64\s+64\s+{round(100 * expected)}%", roof[1], re.M),
          f"grind.f64 is not shown as {round(100 * expected)}% of the peak")
    check("f64 ymm 50.0 f64 zmm 100.0 GFLOP/s" in roof[1], "the peaks are not printed")
    # OpenBLAS's workers told to sleep right after a call, unless the user said otherwise.
    timeouts = thread_timeouts(data)
    check(timeouts == {"4"}, f"OPENBLAS_THREAD_TIMEOUT in the runs: {timeouts}, not 4")
    proc = run(args, ["bench", "--engines", "reference", "--threads", "2", "--json", json_path],
               dict(fake, OPENBLAS_THREAD_TIMEOUT="9"))
    check(proc.returncode == 0, f"exit {proc.returncode}: {proc.stderr}")
    timeouts = thread_timeouts(json.load(open(json_path)))
    check(timeouts == {"9"}, f"the user's OPENBLAS_THREAD_TIMEOUT=9 became {timeouts}")

    proc = run(args, ["bench", "--engines", "reference", "--json", json_path], fake)
    check(proc.returncode == 0, f"exit {proc.returncode}: {proc.stderr}")
    check("threads: 1 (coheriq and every peer single-threaded" in proc.stdout,
          "without --threads the header does not say one thread")
    data = json.load(open(json_path))
    check(not any(a.startswith("--threads") for r in data["runs"] for a in r["arguments"]),
          "--threads passed without the flag")
    check(data["coheriq_bench"]["settings"]["threads"] == 1, "settings.threads is not 1")
    timeouts = thread_timeouts(data)
    check(timeouts == {"unset"}, f"OPENBLAS_THREAD_TIMEOUT set on one thread: {timeouts}")
    proc = run(args, ["bench", "--threads", "0"], fake)
    check(proc.returncode == 2 and "--threads" in proc.stderr, "--threads 0 is not a usage error")
    print("threads: flag passed, header, JSON, wall-clock times, the peak fraction and "
          "OpenBLAS's thread timeout")


def check_describe_all(args):
    """kernels_bench describes every kernel it lists (size kind, traffic, work), so the command
    lays out each one as it is rather than as a default. (The STREAM-style references and the
    FMA peaks are the machine's limits, not kernels.)"""
    if not args.kernels_bench:
        return prerequisite_missing("kernels_bench is not built (libbenchmark-dev)")
    for quick in ([], ["--quick"]):
        proc = subprocess.run(EMULATOR + [args.kernels_bench, "--benchmark_list_tests=true",
                                          "--describe"] +
                              quick, env=clean_env({"COHERIQ_ENGINE": "reference"}),
                              capture_output=True, text=True, timeout=120)
        check(proc.returncode == 0, f"kernels_bench --describe: exit {proc.returncode}")
        described, listed = {}, set()
        for line in proc.stdout.splitlines():
            if line.startswith("@kernel "):
                _, kernel, traits = line.split(" ", 2)
                described[kernel] = dict(w.split("=", 1) for w in traits.split())
            elif line.count("/") == 2 and not line.endswith(("/stream", "/peak")):
                listed.add(line.split("/")[0])
        check(listed, "no benchmark listed")
        check(listed <= set(described), f"not described: {sorted(listed - set(described))}")
        for kernel, traits in described.items():
            check(traits.get("size") in ("length", "order"), f"{kernel}: size {traits}")
            check(traits.get("work") in ("linear", "quadratic", "cubic"), f"{kernel}: {traits}")
            check(traits.get("traffic", "read1") in ("read1", "read2", "scale", "triad"),
                  f"{kernel}: traffic {traits}")
    print(f"describe-all: {len(described)} kernels described, every listed one among them")


def check_eigen_builds_separate(args):
    """The Eigen peer's builds for different ISAs share no external symbol: were one shared (an
    inline Eigen template instantiated by two builds), the linker would keep one copy for all,
    and the baseline build could run AVX-512 code on a CPU without it."""
    objects = [o for o in args.eigen_objects.split(";") if o]
    if len(objects) < 2:
        print(f"SKIP: {len(objects)} Eigen build(s) in this configuration: nothing to compare")
        return SKIP
    nm = shutil.which("nm")
    if nm is None:
        return prerequisite_missing("nm is not installed (binutils)")
    owners = {}
    for obj in objects:
        out = subprocess.run([nm, "--defined-only", "--extern-only", obj], capture_output=True,
                             text=True, check=True).stdout
        for line in out.splitlines():
            symbol = line.split()[-1]
            if symbol.startswith("DW.ref."):  # the personality routine's reference: the same
                continue
            owners.setdefault(symbol, []).append(obj)
    shared = {s: o for s, o in owners.items() if len(o) > 1}
    check(not shared, f"{len(shared)} symbols defined by several Eigen builds, e.g. "
                      f"{sorted(shared)[:3]}")
    print(f"eigen-builds-separate: {len(objects)} builds, {len(owners)} external symbols, "
          "none shared")


def check_no_partial_output(args):
    """A run that fails writes no --json or --chart file, and leaves an existing one as it was."""
    json_path = os.path.join(args.work, "failed.json")
    svg_path = os.path.join(args.work, "failed.svg")
    kept = os.path.join(args.work, "kept.svg")
    with open(kept, "w") as f:
        f.write("old chart")
    for path in (json_path, svg_path):
        if os.path.exists(path):
            os.remove(path)
    fake = fake_bench(args)
    cases = [(["--engines", "typo"], {}, 2),
             (["--engines", "reference"], {"COHERIQ_KERNELS_BENCH": fake, "FAKE_BENCH_FAIL": "1"},
              1),
             (["--engines", "reference"], {"COHERIQ_KERNELS_BENCH": "/bin/false"}, 1)]
    for cmd, env, code in cases:
        for chart in (svg_path, kept):
            proc = run(args, ["bench"] + cmd + ["--json", json_path, "--chart", chart], env)
            print(proc.stderr.strip())
            check(proc.returncode == code, f"{cmd}: exit {proc.returncode}, expected {code}")
            check(not os.path.exists(json_path), f"{cmd}: left {json_path}")
            check(not os.path.exists(svg_path), f"{cmd}: left {svg_path}")
            check(open(kept).read() == "old chart", f"{cmd}: changed the existing chart")
    check(not [f for f in os.listdir(args.work) if ".coheriq-" in f], "a temporary file is left")
    print("no-partial-output: failed runs write nothing")


def process_state(pid):
    """A process's state and signal masks from /proc, for a failure message."""
    try:
        with open(f"/proc/{pid}/status") as f:
            fields = dict(line.split(":", 1) for line in f if ":" in line)
    except OSError:
        return f"{pid}: gone"
    return f"{pid}: " + ", ".join(f"{k} {fields[k].strip()}" for k in
                                  ("Name", "State", "SigPnd", "ShdPnd", "SigBlk", "SigIgn", "SigCgt")
                                  if k in fields)


def interrupt_run(args, name, extra_env, within):
    """Starts a bench whose benchmark process sleeps, sends the command SIGINT once the process
    runs, and checks that the command ends within `within` seconds, by SIGINT, with the
    benchmark process ended, the temporary directory removed and no output written."""
    tmp = os.path.join(args.work, f"{name}-tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(tmp)
    pidfile = os.path.join(args.work, f"{name}-child.pid")
    if os.path.exists(pidfile):
        os.remove(pidfile)
    chart = os.path.join(args.work, f"{name}.svg")
    if os.path.exists(chart):
        os.remove(chart)
    env = clean_env(dict({"COHERIQ_KERNELS_BENCH": fake_bench(args), "FAKE_BENCH_SLEEP": "60",
                          "FAKE_BENCH_PIDFILE": pidfile, "TMPDIR": tmp}, **extra_env))
    proc = subprocess.Popen(EMULATOR + [args.coheriq, "bench", "--engines", "reference",
                                        "--chart", chart],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 30
    while not (os.path.exists(pidfile) and os.path.getsize(pidfile) > 0 and os.listdir(tmp)):
        if proc.poll() is not None:
            _, err = proc.communicate()
            raise Failure(f"the run ended (exit {proc.returncode}) before it started: {err.strip()}")
        check(time.time() < deadline, "the run did not start within 30 s")
        time.sleep(0.05)
    child = int(open(pidfile).read())
    check(len(os.listdir(tmp)) == 1, f"expected one temporary directory: {os.listdir(tmp)}")
    start = time.time()
    proc.send_signal(signal.SIGINT)
    try:
        out, err = proc.communicate(timeout=within)
    except subprocess.TimeoutExpired:
        # What a hang looked like, for the log: the command's and the benchmark's signal state.
        state = f"command {process_state(proc.pid)}; benchmark {process_state(child)}"
        proc.kill()
        proc.communicate()
        raise Failure(f"the command did not end within {within} s of SIGINT ({state})")
    print(err.strip())
    print(f"{name}: ended {time.time() - start:.2f} s after SIGINT")
    check(proc.returncode == -signal.SIGINT, f"exit {proc.returncode}, expected death by SIGINT")
    check(os.listdir(tmp) == [], f"left behind: {os.listdir(tmp)}")
    check(not os.path.exists(f"/proc/{child}"), f"the benchmark process {child} still runs")
    check(not os.path.exists(chart), "a chart was written")
    check("interrupted by SIGINT" in err, "no message about the interrupt")


def check_sigint(args):
    """SIGINT (Ctrl-C) during a run ends the benchmark process, removes the temporary directory,
    writes no output, and the command ends by SIGINT."""
    interrupt_run(args, "sigint", {}, within=20)
    print("sigint: child ended, temporary directory removed, no output, died by SIGINT")


def check_sigint_ignored(args):
    """A benchmark process that ignores SIGINT cannot keep the command waiting: the command
    forwards the signal again, then kills the process after its grace period (5 s), and ends
    as after any interrupt."""
    interrupt_run(args, "sigint-ignored", {"FAKE_BENCH_IGNORE_SIGINT": "1"}, within=20)
    print("sigint-ignored: child killed after the grace period, died by SIGINT")


def check_emulated(args, cpu, expect_avx2):
    """The whole bench, the benchmark processes included, under an emulated older CPU: no
    SIGILL, the widest Eigen build that CPU runs, and a peer it cannot run skipped with why."""
    if platform.machine() not in ("x86_64", "AMD64") or EMULATOR:
        print("SKIP: emulating x86-64 CPUs is for x86-64 builds on x86-64 hosts (this host is "
              f"{platform.machine()}, the build runs through '{' '.join(EMULATOR) or 'nothing'}')")
        return SKIP
    qemu = shutil.which("qemu-x86_64")
    if qemu is None:
        return prerequisite_missing("qemu-x86_64 is not installed (apt-get install qemu-user, "
                                    "or scripts/deps.sh --tests)")
    if not args.kernels_bench:
        return prerequisite_missing("kernels_bench is not built (libbenchmark-dev)")
    launcher = [qemu, "-cpu", cpu]
    env = {"COHERIQ_BENCH_LAUNCHER": " ".join(launcher), "COHERIQ_KERNELS_BENCH": args.kernels_bench}
    # OpenBLAS told to use kernels the emulated CPU lacks (or left to choose): must be skipped
    # with the reason, never run.
    if not expect_avx2:
        env["OPENBLAS_CORETYPE"] = "Haswell"
    json_path = os.path.join(args.work, f"emulated-{cpu.split(',')[0]}.json")
    info = run(args, ["info", "--json"], env, prefix=launcher)
    check(info.returncode == 0, f"coheriq info under {cpu}: {info.stderr}")
    domain = next(d for d in json.loads(info.stdout)["domains"] if d["name"] == "coheriq.kernels")
    supported = [e["name"] for e in reversed(domain["engines"]) if e["supported"]]
    environment = clean_env(env)
    if expect_avx2:
        environment.pop("OPENBLAS_CORETYPE", None)  # OpenBLAS chooses for the emulated CPU
    proc = subprocess.run(launcher + [args.coheriq, "bench", "--quick", "--engines", "all",
                                      "--kernels", "dot.f32,exp.f32", "--sizes", "1K,4K",
                                      "--repetitions", "1", "--min-time", "0.001",
                                      "--json", json_path],
                          env=environment, capture_output=True, text=True, timeout=300)
    print(proc.stdout)
    print(proc.stderr[-3000:])
    check(proc.returncode == 0, f"exit {proc.returncode} under {cpu}")
    summary = json.load(open(json_path))["coheriq_bench"]
    check(summary["engines"] == supported, f"engines {summary['engines']} != {supported}")
    check(("avx2" in supported) == expect_avx2 and "avx512" not in supported,
          f"{cpu}: unexpected supported engines {supported}")
    data = json.load(open(json_path))
    for r in data["runs"]:
        check(r["arguments"][:len(launcher)] == launcher,
              f"run {r['engine']} was not started through the launcher: {r['arguments'][:3]}")
    peers = {p["name"]: p["detail"] for p in summary["peers"]}
    if "eigen" in peers:
        build = "avx2 build" if expect_avx2 else "baseline build"
        check(build in peers["eigen"], f"eigen under {cpu}: {peers['eigen']} (expected {build})")
    built_with_openblas = not re.search(r"openblas: (cblas|left out)", summary["peers_skipped"])
    if not expect_avx2 and built_with_openblas:
        check("openblas" not in peers and re.search(r"openblas \(.*lacks avx2",
                                                     summary["peers_skipped"]),
              f"openblas with forced Haswell kernels not skipped: {summary['peers_skipped']}")
        check("peers skipped: openblas" in proc.stdout, "the table does not say openblas skipped")
    for row in summary["rows"]:
        for column, cell in row["cells"].items():
            check(cell["time_ns"], f"{row['kernel']} {column}: no time under {cpu}")
    print(f"emulated {cpu}: engines {supported}, peers {sorted(peers)}, no SIGILL")


def load_quick_outputs(args):
    svg_path = os.path.join(args.work, "quick.svg")
    json_path = os.path.join(args.work, "quick.json")
    check(os.path.exists(svg_path) and os.path.exists(json_path),
          "the quick fixture's outputs are missing (run tools.bench.quick first)")
    return svg_path, json.load(open(json_path))["coheriq_bench"]


def check_svg_wellformed(args):
    """The chart parses as XML, and holds one bar per measured speedup, with a legend."""
    svg_path, summary = load_quick_outputs(args)
    root = ET.parse(svg_path).getroot()  # raises on malformed XML
    check(root.tag == SVG_NS + "svg", f"root element is {root.tag}")
    check(float(root.get("width")) > 0 and float(root.get("height")) > 0, "no size")
    texts = ["".join(t.itertext()) for t in root.iter(SVG_NS + "text")]
    check(any("speedup over the reference engine" in t for t in texts), "no title")
    check(any("1x = reference" in t for t in texts), "no 1x line label")
    series = ([e for e in summary["engines"] if e != "reference"] +
              [p["name"] for p in summary["peers"]])
    for name in series:
        check(any(t.startswith(name) for t in texts), f"legend lacks {name}")
    bars = [r for r in root.iter(SVG_NS + "rect") if r.find(SVG_NS + "title") is not None]
    expected = sum(1 for row in summary["rows"] for c in series
                   if c in row["cells"] and row["cells"][c]["speedup"])
    check(len(bars) == expected, f"{len(bars)} bars, expected {expected}")
    for bar in bars:
        check(float(bar.get("width")) > 0, "a bar has no width")
    print(f"svg-wellformed: {len(bars)} bars for {len(series)} series")


def find_chromium():
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        path = shutil.which(name)
        if path:
            return path
    return None


def read_png(path):
    """Decodes an 8-bit, non-interlaced RGB or RGBA PNG into (width, height, rows of pixels)."""
    data = open(path, "rb").read()
    check(data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG")
    pos, idat, header = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        chunk = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", chunk)
        elif kind == b"IDAT":
            idat += chunk
        pos += 12 + length
    width, height, depth, color, _, _, interlace = header
    check(depth == 8 and color in (2, 6) and interlace == 0, f"unsupported PNG {header}")
    bpp = 3 if color == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows, prev = [], bytearray(stride)
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append([tuple(line[i:i + 3]) for i in range(0, stride, bpp)])
        prev = line
    return width, height, rows


def check_svg_render(args):
    """Headless Chromium renders the chart: the screenshot shows the bars in their colours."""
    chromium = find_chromium()
    if chromium is None:
        return prerequisite_missing("chromium is not installed (apt-get install chromium, or "
                                    "scripts/deps.sh --tests)")
    svg_path, summary = load_quick_outputs(args)
    root = ET.parse(svg_path).getroot()
    width, height = int(float(root.get("width"))), int(float(root.get("height")))
    png_path = os.path.join(args.work, "quick.png")
    if os.path.exists(png_path):
        os.remove(png_path)
    with tempfile.TemporaryDirectory() as profile:
        proc = subprocess.run(
            [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
             "--no-first-run", "--disable-background-networking", "--disable-component-update",
             "--disable-sync", f"--user-data-dir={profile}", "--hide-scrollbars",
             f"--window-size={width},{height}", f"--screenshot={png_path}",
             "file://" + os.path.abspath(svg_path)],
            capture_output=True, text=True, timeout=180)
    check(os.path.exists(png_path), f"no screenshot (exit {proc.returncode}): {proc.stderr}")
    w, h, pixels = read_png(png_path)
    check((w, h) == (width, height), f"screenshot is {w}x{h}, window {width}x{height}")
    colours = {}
    for row in pixels:
        for p in row:
            colours[p] = colours.get(p, 0) + 1
    # Every series colour of the chart must cover a visible area (its legend swatch and bars).
    fills = {r.get("fill") for r in root.iter(SVG_NS + "rect")
             if r.find(SVG_NS + "title") is not None}
    for fill in fills:
        rgb = tuple(int(fill[i:i + 2], 16) for i in (1, 3, 5))
        count = sum(n for c, n in colours.items() if max(abs(c[k] - rgb[k]) for k in range(3)) <= 8)
        check(count >= 200, f"colour {fill} covers {count} pixels: bars did not render")
    dark = sum(n for c, n in colours.items() if max(c) < 80)
    check(dark >= 500, f"only {dark} dark pixels: no text rendered")
    print(f"svg-render: {w}x{h} screenshot, {len(fills)} series colours and text visible "
          f"({png_path})")


CHECKS = {
    "quick": check_quick,
    "json-stdout": check_json_stdout,
    "unsupported": check_unsupported,
    "unknown": check_unknown,
    "bad-flag": check_bad_flag,
    "svg-wellformed": check_svg_wellformed,
    "svg-render": check_svg_render,
    "usage-before-lookup": check_usage_before_lookup,
    "usage-with-bench": check_usage_with_bench,
    "traits": check_traits,
    "threads": check_threads,
    "describe-all": check_describe_all,
    "eigen-builds-separate": check_eigen_builds_separate,
    "no-partial-output": check_no_partial_output,
    "sigint": check_sigint,
    "sigint-ignored": check_sigint_ignored,
    "emulated-nehalem": lambda args: check_emulated(args, "Nehalem", False),
    "emulated-haswell": lambda args: check_emulated(
        args, "Haswell,-pcid,-x2apic,-tsc-deadline,-hle,-rtm,-invpcid", True),
}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--coheriq", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--kernels-bench", default="", help="the real kernels_bench, if built")
    parser.add_argument("--eigen-objects", default="",
                        help="the object files of the Eigen peer's builds, ';'-separated")
    parser.add_argument("--emulator", default="",
                        help="what runs the build's programs (words separated by blanks)")
    parser.add_argument("check", choices=sorted(CHECKS))
    args = parser.parse_args()
    args.binary = None
    global EMULATOR, KERNELS_BENCH
    EMULATOR = args.emulator.split()
    KERNELS_BENCH = args.kernels_bench
    os.makedirs(args.work, exist_ok=True)
    try:
        return CHECKS[args.check](args) or 0
    except Failure as e:
        print(f"FAIL: {e}")
        return 1


if __name__ == "__main__":
    sys.exit(main())
