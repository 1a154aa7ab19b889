#!/usr/bin/env python3
"""Markdown tables of docs/performance.md from a `coheriq bench --json FILE` result.

    python3 bench/summarize.py perf.json [--peak-f32-ymm 126 --peak-f32-zmm 231]

Prints (1) each engine against each peer (peer time / engine time: above 1, coheriq is faster),
(2) the cold rows as a fraction of the STREAM-style bandwidth measured in the same run, and
(3) the speed targets of the kernel-library issue, each marked met or not. Every figure is
recomputed from the medians in the JSON; nothing is typed in by hand. How sizes read comes from
the benchmarks' own traits (the JSON context); only the targets (3) name kernels, being targets.
"""

import argparse
import json


def fmt(r):
    return "-" if r is None else (f"{r:.3g}" if r < 1 else f"{r:.2f}" if r < 10 else f"{r:.1f}")


# What kernels_bench says of each kernel (JSON context "coheriq_kernel:<kernel>", e.g.
# "size=order work=cubic"): this script knows no kernel by name to lay out its tables.
TRAITS = {}


def read_traits(context):
    for key, value in context.items():
        if key.startswith("coheriq_kernel:") and isinstance(value, str):
            TRAITS[key[len("coheriq_kernel:"):]] = dict(
                word.split("=", 1) for word in value.split() if "=" in word)


def size_label(kernel, n):
    if TRAITS.get(kernel, {}).get("size") == "order":
        return str(n)
    if n >= 1 << 20 and n % (1 << 20) == 0:
        return f"{n >> 20}M"
    return f"{n >> 10}K" if n >= 1024 and n % 1024 == 0 else str(n)


def time_of(row, column):
    cell = row["cells"].get(column)
    return cell["time_ns"] if cell and cell.get("time_ns") else None


def ratio(row, peer, engine):
    t_peer, t_engine = time_of(row, peer), time_of(row, engine)
    return t_peer / t_engine if t_peer and t_engine else None


def table(header, lines):
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    out += ["| " + " | ".join(line) + " |" for line in lines]
    return "\n".join(out)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("json_file")
    parser.add_argument("--peak-f32-ymm", type=float, default=126.0,
                        help="single-core f32 FMA peak with ymm, GFLOP/s")
    parser.add_argument("--peak-f32-zmm", type=float, default=231.0,
                        help="single-core f32 FMA peak with zmm, GFLOP/s")
    args = parser.parse_args()
    data = json.load(open(args.json_file))
    read_traits(data.get("context", {}))
    summary = data["coheriq_bench"]
    engines = [e for e in summary["engines"] if e != "reference"]
    peers = [p["name"] for p in summary["peers"]]
    rows = summary["rows"]

    # (1) Engines against peers.
    pairs = [(e, p) for e in engines for p in peers]
    lines = []
    for row in rows:
        values = [ratio(row, p, e) for e, p in pairs]
        if any(v is not None for v in values):
            lines.append([row["kernel"], size_label(row["kernel"], row["size"])] +
                         [fmt(v) for v in values])
    print("### Each engine against each peer (peer time / engine time; above 1: coheriq faster)\n")
    print(table(["kernel", "size"] + [f"{e} vs {p}" for e, p in pairs], lines))

    # (2) Bandwidth.
    columns = summary["engines"] + peers
    lines = []
    for row in rows:
        fractions = [row["cells"].get(c, {}).get("fraction_of_stream") for c in columns]
        if any(f is not None for f in fractions):
            lines.append([row["kernel"], size_label(row["kernel"], row["size"])] +
                         ["-" if f is None else f"{100 * f:.0f}%" for f in fractions])
    if lines:
        print("\n### Cold rows: fraction of the STREAM-style bandwidth measured in the same run\n")
        print(table(["kernel", "size"] + columns, lines))

    # (3) The targets.
    def rows_of(kernel, sizes=None):
        return [r for r in rows if r["kernel"] == kernel and (sizes is None or r["size"] in sizes)]

    def gflops(row, column):
        # The benchmark's own flop counter (median rate), not a formula of the kernel.
        flops = row["cells"].get(column, {}).get("flops")
        return flops / 1e9 if flops else None

    checks = []
    if "avx512" in engines:
        for kernel in ("gemm.f32", "gemm.f64"):
            for r in rows_of(kernel):
                v = ratio(r, "openblas", "avx512")
                checks.append((f"avx512 {kernel} n={r['size']} >= OpenBLAS", v, v and v >= 1))
        for r in rows_of("gemm.f32", {1024, 2048}):
            share = gflops(r, "avx512") / args.peak_f32_zmm if gflops(r, "avx512") else None
            checks.append((f"avx512 gemm.f32 n={r['size']} >= 80% of zmm peak "
                           f"({args.peak_f32_zmm:g} GFLOP/s)", share, share and share >= 0.8))
        for base in ("dot", "axpy", "asum", "nrm2"):
            for kernel in (f"{base}.f32", f"{base}.f64"):
                for r in rows_of(kernel):
                    best = [t for t in (time_of(r, "openblas"), time_of(r, "eigen")) if t]
                    v = min(best) / time_of(r, "avx512") if best and time_of(r, "avx512") else None
                    label = f"avx512 {kernel} {size_label(kernel, r['size'])} >= 0.95x best peer"
                    checks.append((label, v, v and v >= 0.95))
                    f = r["cells"].get("avx512", {}).get("fraction_of_stream")
                    if f is not None:
                        checks.append((f"avx512 {kernel} {size_label(kernel, r['size'])} within "
                                       "10% of STREAM-style bandwidth", f, f >= 0.9))
        for kernel in ("exp.f32", "log.f32", "tanh.f32", "sigmoid.f32"):
            for r in rows_of(kernel, {4096}):
                v = ratio(r, "sleef", "avx512")
                if v is not None:
                    checks.append((f"avx512 {kernel} 4K >= 1.2x SLEEF u10", v, v >= 1.2))
                v = ratio(r, "eigen", "avx512")
                checks.append((f"avx512 {kernel} 4K >= Eigen", v, v and v >= 1))
    if "avx2" in engines:
        for r in rows_of("gemm.f32"):
            share = gflops(r, "avx2") / args.peak_f32_ymm if gflops(r, "avx2") else None
            checks.append((f"avx2 gemm.f32 n={r['size']} >= 85% of ymm peak "
                           f"({args.peak_f32_ymm:g} GFLOP/s)", share, share and share >= 0.85))
    for e in engines:
        slower = [f"{r['kernel']} {size_label(r['kernel'], r['size'])} "
                  f"({fmt(r['cells'][e]['speedup'])}x)"
                  for r in rows if e in r["cells"] and (r["cells"][e].get("speedup") or 0) < 1]
        checks.append((f"every kernel under {e} at least as fast as reference",
                       None, not slower, "; slower: " + ", ".join(slower) if slower else ""))

    print("\n### Targets of the kernel-library issue, in this run\n")
    lines = []
    for check in checks:
        label, value, ok = check[:3]
        note = check[3] if len(check) > 3 else ""
        lines.append([label, "-" if value is None else fmt(value), ("met" if ok else "NOT met") + note])
    print(table(["target", "measured", "result"], lines))


if __name__ == "__main__":
    main()
