#!/usr/bin/env python3
"""Guest instructions per element of each kernel under each aarch64 engine, counted by qemu-user.

Speed cannot be timed under emulation; instruction counts show that the vector code is real.
qemu logs every translated block (-d in_asm: its instructions) and every block it executes
(-d exec, with nochain so that none is skipped), restricted to the program's own code (-dfilter
over the .text of the non-PIE driver). The count at two sizes, differenced and divided by the
difference in elements, less the same difference for the driver's set-up alone (filling the
inputs), is the kernel's instructions per element (gemm: per multiply-add, n^3).

  tests/emulation/insns_per_element.py BUILD_DIR [KERNEL...]   (a cross build: cmake --preset
                                                               aarch64; default: every kernel)

Prints a Markdown table (docs/performance.md records one). Needs qemu-aarch64 and
aarch64-linux-gnu-readelf; takes about two minutes.
"""
import os
import re
import subprocess
import sys
import tempfile

KERNELS = ["dot.f32", "dot.f64", "axpy.f32", "scal.f32", "sum.f32", "asum.f32", "nrm2.f32",
           "iamax.f32", "exp.f32", "log.f32", "tanh.f32", "sigmoid.f32", "softmax.f32", "gemm.f32",
           "gemm.f64"]
# engine, QEMU_CPU, column title
RUNS = [("reference", "cortex-a72", "reference"), ("neon", "cortex-a72", "neon"),
        ("sve", "max,sve-default-vector-length=16", "sve 128-bit"),
        ("sve", "max,sve-default-vector-length=32", "sve 256-bit"),
        ("sve", "max,sve-default-vector-length=64", "sve 512-bit"),
        ("sve", "max,sve-default-vector-length=256", "sve 2048-bit")]
# gemm: n = 64 and 128, so that sve's panels (2 vectors: 128 f32 columns at 2048 bits) are whole
# at every length; others: (4096, 8192).
GEMM_SIZES = (64, 128)


def text_range(driver):
    out = subprocess.run(["aarch64-linux-gnu-readelf", "-SW", driver], capture_output=True,
                         text=True, check=True).stdout
    for line in out.splitlines():
        f = line.replace("[ ", "[").split()
        if len(f) > 5 and f[1] == ".text":
            return f"0x{f[3]}+0x{f[5]}"
    sys.exit(f"coheriq: no .text section in {driver}; rebuild coheriq_insn_driver")


def count(driver, filt, engine, cpu, kernel, n):
    with tempfile.TemporaryDirectory() as tmp:
        log = os.path.join(tmp, "qemu.log")
        env = dict(os.environ, QEMU_CPU=cpu)
        subprocess.run(["qemu-aarch64", "-L", "/", "-d", "in_asm,exec,nochain", "-dfilter", filt,
                        "-D", log, driver, engine, kernel, str(n)], env=env, check=True,
                       stdout=subprocess.DEVNULL)
        size = {}      # block start -> instructions (its latest translation)
        total = 0
        block, start = 0, None
        with open(log, errors="replace") as f:
            for line in f:
                if line.startswith("Trace "):
                    pc = int(re.search(r"\[[0-9a-f]+/([0-9a-f]+)/", line).group(1), 16)
                    total += size.get(pc, 0)
                elif line.startswith("0x") and ":" in line:
                    if start is None:
                        start = int(line.split(":")[0], 16)
                    block += 1
                elif line.strip() == "" and start is not None:
                    size[start] = block
                    block, start = 0, None
        return total


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    kernels = sys.argv[2:] or KERNELS
    unknown = [k for k in kernels if k not in KERNELS]
    if unknown:
        sys.exit(f"coheriq: unknown kernel(s) {' '.join(unknown)}; kernels: {' '.join(KERNELS)}")
    driver = os.path.join(sys.argv[1], "tests", "emulation", "coheriq_insn_driver")
    if not os.access(driver, os.X_OK):
        sys.exit(f"coheriq: {driver} not found; build it: cmake --build {sys.argv[1]} "
                 "--target coheriq_insn_driver")
    filt = text_range(driver)
    setup = {}
    for sizes, none in (((4096, 8192), "none.f32"), (GEMM_SIZES, "none.gemm")):
        setup[none] = [count(driver, filt, "reference", "cortex-a72", none, n) for n in sizes]
    print("| kernel | " + " | ".join(title for _, _, title in RUNS) + " | reference / neon |")
    print("|---" * (len(RUNS) + 2) + "|")
    for kernel in kernels:
        n1, n2 = GEMM_SIZES if kernel.startswith("gemm") else (4096, 8192)
        per = []
        for engine, cpu, _ in RUNS:
            s1, s2 = setup["none.gemm" if kernel.startswith("gemm") else "none.f32"]
            c1 = count(driver, filt, engine, cpu, kernel, n1) - s1
            c2 = count(driver, filt, engine, cpu, kernel, n2) - s2
            elements = (n2 ** 3 - n1 ** 3) if kernel.startswith("gemm") else (n2 - n1)
            per.append((c2 - c1) / elements)
        ratio = per[0] / per[1] if per[1] else float("inf")
        print(f"| {kernel} | " + " | ".join(f"{p:.2f}" for p in per) + f" | {ratio:.1f}x |")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
