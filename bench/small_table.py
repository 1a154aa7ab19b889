#!/usr/bin/env python3
"""Markdown tables of the small group (docs/performance.md, "Small and batched GEMM against
LIBXSMM, OpenBLAS and Eigen") from kernels_bench runs, each run one process (coheriq and the
peers measured in the same minutes):

    env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE COHERIQ_ENGINE=zen5 taskset -c 1 \\
      build/default/bench/kernels_bench --benchmark_filter='^(small|fma_peak)' \\
      --benchmark_min_time=0.05 --benchmark_repetitions=5 \\
      --benchmark_enable_random_interleaving=true --benchmark_out=run1.json
    python3 bench/small_table.py run1.json [run2.json ...]

For each shape and type: the number of products in the batch, coheriq's GFLOP/s through
gemm_batch_strided and its share of the FMA peak measured in the same run (the widest vectors of
the type), then, per peer, peer time / coheriq time for the batched call, one gemm call per
product and the plan per product ("batch / call / plan"; above 1: coheriq is faster). With
several runs each figure is the median of the runs' ratios, the range after it when the runs
differ by more than 10%. Every figure is computed from the medians of the repetitions in the
files; nothing is typed in.
"""

import argparse
import json
import re
import statistics

NAME = re.compile(r"^(small_n[nt](?:_\d+x\d+x\d+)?)(?:_(call|plan))?\.(f32|f64)/(\d+)/(\w+)$")
PEAK = re.compile(r"^fma_peak\.(f32|f64)/(\d+)/peak$")
PEERS = ["libxsmm", "openblas", "eigen"]
VARIANTS = ["batch", "call", "plan"]


def medians(path):
    """{name: (median cpu time in ns, median flops, products, registration index)} of one
    kernels_bench JSON file (repetitions may be interleaved: the index keeps the harness's
    order)."""
    data = json.load(open(path))
    samples = {}
    for b in data["benchmarks"]:
        if b.get("run_type", "iteration") != "iteration" or b.get("error_occurred"):
            continue
        scale = {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}[b.get("time_unit", "ns")]
        name = b.get("run_name", b["name"])
        samples.setdefault(name, []).append((b["cpu_time"] * scale, b.get("flops", 0.0),
                                             b.get("batch", 0), b.get("family_index", 0)))
    return {n: (statistics.median(x[0] for x in s), statistics.median(x[1] for x in s),
                int(s[0][2]), s[0][3]) for n, s in samples.items()}


def parse(run):
    """cells[(kernel, type, size)][(variant, impl)] = (ns, flops); peaks[type] = flops."""
    cells, peaks = {}, {}
    for name, value in run.items():
        m = PEAK.match(name)
        if m:
            bits = int(m.group(2))
            if bits >= peaks.get(m.group(1), (0, 0))[0]:
                peaks[m.group(1)] = (bits, value[1])
            continue
        m = NAME.match(name)
        if m:
            kernel, variant, type_, size, impl = m.groups()
            cells.setdefault((kernel, type_, int(size)), {})[(variant or "batch", impl)] = value
    return cells, {t: f for t, (_, f) in peaks.items()}


def summary(values):
    values = [v for v in values if v is not None]
    if not values:
        return "-"
    mid = statistics.median(values)
    text = f"{mid:.2f}"
    if len(values) > 1 and (max(values) - min(values)) > 0.1 * mid:
        text += f" ({min(values):.2f}-{max(values):.2f})"
    return text


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("json_files", nargs="+")
    args = parser.parse_args()
    runs = [parse(medians(path)) for path in args.json_files]
    first = {}  # each row's earliest registration index: the harness's order of the shapes
    for cells, _ in runs:
        for key, row in cells.items():
            first[key] = min([first.get(key, 1 << 30)] + [value[3] for value in row.values()])
    keys = sorted(first, key=first.get)
    for type_ in ("f32", "f64"):
        lines = []
        for kernel, t, size in keys:
            if t != type_:
                continue
            shape = kernel[len("small_nn_"):] if "x" in kernel else f"{size}x{size}x{size}"
            label = f"{kernel[6:8]} {shape}"
            batch, gflops, peak, ratios = 0, [], [], {p: {v: [] for v in VARIANTS} for p in PEERS}
            for cells, peaks in runs:
                row = cells.get((kernel, t, size), {})
                batch = max([batch] + [value[2] for value in row.values()])
                mine = row.get(("batch", "coheriq"))
                if mine:
                    gflops.append(mine[1] / 1e9)
                    if peaks.get(t):
                        peak.append(100 * mine[1] / peaks[t])
                for p in PEERS:
                    theirs = row.get(("batch", p))
                    for v in VARIANTS:
                        ours = row.get((v, "coheriq"))
                        ratios[p][v].append(theirs[0] / ours[0] if theirs and ours else None)
            shown = summary(gflops)
            if peak:
                shown += f" ({statistics.median(peak):.0f}%)"
            line = [label, str(batch), shown]
            for p in PEERS:
                line.append(" / ".join(summary(ratios[p][v]) for v in VARIANTS))
            lines.append(line)
        if not lines:
            continue
        header = ["shape (m x n x k)", "products", "coheriq batch GFLOP/s (% of peak)"] + [
            f"{p} / coheriq: batch / call / plan" for p in PEERS]
        print(f"\n#### {type_}\n")
        print("| " + " | ".join(header) + " |")
        print("|" + "---|" * len(header))
        for line in lines:
            print("| " + " | ".join(line) + " |")


if __name__ == "__main__":
    main()
