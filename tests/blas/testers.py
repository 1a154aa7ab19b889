"""Runs one of netlib's test programs over the reference BLAS and over Coheriq, and compares.

Usage:
  testers.py --reference-blas LIB --coheriq LIB [--preload] [--lapack LIB] [--mode blas|lapack]
             [--emulator 'qemu-aarch64|-L|/'] [--sizes "N1 N2 ..."] PROGRAM [INPUT]

The programs are Debian's: netlib's BLAS and CBLAS testers (libblas-test: xblat2s, xdcblat3,
...) in mode blas, LAPACK's test programs (liblapack-test: xlintsts, xeigtstd, ...) in mode
lapack. Each runs twice, in a scratch directory (the programs write their summaries there) with
INPUT on stdin and LD_LIBRARY_PATH led by a folder of its own:
  reference  libblas.so.3 -> the reference BLAS (and liblapack.so.3 -> LIB of --lapack)
  Coheriq    libblas.so.3 -> libcoheriq_blas (the only BLAS of the process), or with --preload
             the reference's folder and libcoheriq_blas in LD_PRELOAD, in front of it
--sizes replaces the values of N of a BLAS tester's INPUT (its "VALUES OF N" lines), so that
the level-3 testers reach orders the blocked routines take (netlib's inputs stop at 9; the
testers take up to 65). The dynamic loader's own trace (LD_TRACE_LOADED_OBJECTS) shows that each run maps the libraries
it should. The reference run must be clean itself, or it cannot judge.

Passes (exit 0) when the Coheriq run exits 0 and
  mode blas:   prints no line reporting a failure (FAIL, SUSPECT, FATAL, or netlib's '*****'
               error lines: a wrong error exit, a wrong result) and as many PASS lines as the
               reference run;
  mode lapack: runs as many tests as the reference run and reports no failure the reference
               run does not report (tests over their threshold, illegal-value reports, INFO
               errors: what LAPACK's own lapack_testing.py counts), except lines matching a
               --known pattern (cases docs/blas.md explains), which are allowed, not required.
Exits 77 (a skip, with the reason) when COHERIQ_ENGINE names an engine this host cannot run.
With --emulator (a cross build: the target's programs and libraries, Debian's arm64 packages
through multiarch), every run goes through that command, '|'-separated as the suite passes it.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

BLAS_BAD = re.compile(r"FAIL|SUSPECT|FATAL|\*\*\*\*\*|AddressSanitizer|runtime error:")
# What the library prints before it aborts when the host cannot run COHERIQ_ENGINE's engine.
UNSUPPORTED = re.compile(r"coheriq: .*(is supported on this host|not supported on this host)")


def folder(scratch, name, blas, lapack):
    path = os.path.join(scratch, name)
    os.mkdir(path)
    os.symlink(os.path.abspath(blas), os.path.join(path, "libblas.so.3"))
    if lapack:
        os.symlink(os.path.abspath(lapack), os.path.join(path, "liblapack.so.3"))
    return path


def environment(library_dir, preload):
    env = dict(os.environ)
    env["LD_LIBRARY_PATH"] = library_dir + (
        ":" + env["LD_LIBRARY_PATH"] if env.get("LD_LIBRARY_PATH") else "")
    env.pop("LD_PRELOAD", None)
    preload = [p for p in preload if p]
    if preload:
        env["LD_PRELOAD"] = " ".join(preload)
    return env


def mapped(command, env, emulated):
    """The real paths of the libraries the dynamic loader maps for `command` under `env`."""
    if emulated:
        # The target's loader traces, not the host's loading the emulator: qemu-user's -E sets
        # the variable for the program alone.
        command = command[:1] + ["-E", "LD_TRACE_LOADED_OBJECTS=1"] + command[1:]
        trace = env
    else:
        trace = dict(env, LD_TRACE_LOADED_OBJECTS="1")
    out = subprocess.run(command, env=trace, capture_output=True, text=True, check=False)
    return {os.path.realpath(p) for p in re.findall(r"(/\S+)", out.stdout)}, out.stdout


def run(command, stdin_path, env, timeout):
    """Everything one run printed or wrote, and its exit code."""
    with tempfile.TemporaryDirectory(prefix="coheriq-tester-") as scratch:
        stdin = open(stdin_path, "rb") if stdin_path else subprocess.DEVNULL
        try:
            done = subprocess.run(command, stdin=stdin, cwd=scratch, env=env, timeout=timeout,
                                  capture_output=True, text=True, errors="replace", check=False)
        finally:
            if stdin_path:
                stdin.close()
        text = done.stdout + done.stderr
        for name in sorted(os.listdir(scratch)):
            with open(os.path.join(scratch, name), errors="replace") as f:
                text += f"\n===== {name}\n" + f.read()
        return text, done.returncode


def with_sizes(input_path, sizes, scratch):
    """A copy of a BLAS tester's input in `scratch` with `sizes` as its values of N."""
    with open(input_path) as f:
        lines = f.read().splitlines()
    at = next((i for i, line in enumerate(lines) if "NUMBER OF VALUES OF N" in line), None)
    if at is None or at + 1 >= len(lines) or "VALUES OF N" not in lines[at + 1]:
        sys.exit(f"coheriq: {input_path} has no 'NUMBER OF VALUES OF N' line followed by its values")
    lines[at] = f"{len(sizes):<18}NUMBER OF VALUES OF N"
    lines[at + 1] = f"{' '.join(sizes):<18}VALUES OF N"
    path = os.path.join(scratch, os.path.basename(input_path))
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    return path


def blas_summary(text):
    lines = text.splitlines()
    return {"PASS lines": sum(1 for line in lines if "PASS" in line)}, [
        line for line in lines if BLAS_BAD.search(line)], []


# A LAPACK tester's threshold, and a line reporting one test's ratio (xeigtst?: "result 21 is
# 53.77", xlintst?: "test( 3) = 1.2E+02", "ratio = ...").
THRESHOLD = re.compile(r"test ratio is less than\s+([0-9.]+)")
RATIO = re.compile(r"(?:result\s+\d+\s+is|test\s*\(\s*\d+\s*\)\s*=|ratio\s*=)\s*"
                   r"([0-9.]+(?:[EeDd][-+]?\d+)?)\s*$")
# How far over its threshold a ratio may tip (docs/blas.md, "Tipped ratios").
TIP_FACTOR = 2.0


def lapack_summary(text):
    counts = {"tests run": 0, "over the threshold": 0, "illegal-value reports": 0,
              "INFO errors": 0}
    bad, accepted = [], []  # accepted: the lines of sections whose failures all tipped
    threshold = None
    tipped, untipped = [], 0  # the ratio lines since the last summary line
    for line in text.splitlines():
        found = THRESHOLD.search(line)
        if found:
            threshold = float(found.group(1))
        ratio = RATIO.search(line)
        if ratio and threshold:
            value = float(ratio.group(1).replace("D", "E").replace("d", "e"))
            if threshold <= value < TIP_FACTOR * threshold:
                tipped.append(line.strip())
            elif value >= threshold:
                untipped += 1
        for run_count in re.findall(r"\(\s*(\d+) tests run\)", line):
            counts["tests run"] += int(run_count)
        failed = re.search(r"(\d+) out of\s+(\d+) tests failed", line)
        if failed:
            counts["over the threshold"] += int(failed.group(1))
            counts["tests run"] += int(failed.group(2))
            if untipped == 0 and len(tipped) == int(failed.group(1)):
                # Every failure of this section tipped its threshold by less than TIP_FACTOR.
                accepted.extend(tipped + [line.strip()])
                failed = None
            tipped, untipped = [], 0
        if "illegal" in line or "Illegal" in line:
            counts["illegal-value reports"] += 1
        if " INFO" in line:
            counts["INFO errors"] += 1
        if failed or "illegal" in line or "Illegal" in line or " INFO" in line or (
                "Failure in" in line):
            bad.append(line.strip())
    return counts, bad, accepted


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--reference-blas", required=True)
    parser.add_argument("--coheriq", required=True)
    parser.add_argument("--preload", action="store_true")
    parser.add_argument("--runtime", help="a sanitizer runtime the Coheriq run preloads first "
                        "(an instrumented libcoheriq_blas in Debian's uninstrumented programs)")
    parser.add_argument("--lapack")
    parser.add_argument("--mode", choices=("blas", "lapack"), default="blas")
    parser.add_argument("--known", action="append", default=[],
                        help="mode lapack: a failure line allowed (a regular expression)")
    parser.add_argument("--emulator", default="",
                        help="what runs the target's programs, '|'-separated (a cross build)")
    parser.add_argument("--timeout", type=float, default=600)
    parser.add_argument("--sizes", help="mode blas: the values of N to put in INPUT")
    parser.add_argument("program")
    parser.add_argument("input", nargs="?")
    args = parser.parse_args()
    name = os.path.basename(args.program) + (
        " < " + os.path.basename(args.input) if args.input else "")
    summary = blas_summary if args.mode == "blas" else lapack_summary
    command = [part for part in args.emulator.split("|") if part] + [args.program]

    with tempfile.TemporaryDirectory(prefix="coheriq-blas-folders-") as scratch:
        reference_dir = folder(scratch, "reference", args.reference_blas, args.lapack)
        reference_env = environment(reference_dir, [])
        if args.preload:
            coheriq_env = environment(reference_dir, [args.runtime, args.coheriq])
        else:
            coheriq_env = environment(folder(scratch, "coheriq", args.coheriq, args.lapack),
                                      [args.runtime])
        if args.runtime:
            # The testers and the Fortran runtime leak by design; the library's errors stay fatal.
            coheriq_env["ASAN_OPTIONS"] = "detect_leaks=0"
        reference_env.pop("COHERIQ_ENGINE", None)

        for env, wanted, what in ((reference_env, args.reference_blas, "the reference BLAS"),
                                  (coheriq_env, args.coheriq, "libcoheriq_blas")):
            paths, trace = mapped(command, env, bool(args.emulator))
            if os.path.realpath(args.coheriq) in paths and env is reference_env:
                sys.exit(f"coheriq: {name}: the reference run maps libcoheriq_blas:\n{trace}")
            if os.path.realpath(wanted) not in paths:
                sys.exit(f"coheriq: {name} does not map {what} ({wanted}); the loader maps:\n"
                         f"{trace}")

        if args.sizes:
            args.input = with_sizes(args.input, args.sizes.split(), scratch)
        reference_text, reference_code = run(command, args.input, reference_env, args.timeout)
        reference_counts, reference_bad, _ = summary(reference_text)
        if reference_code != 0 or (args.mode == "blas" and (
                reference_bad or reference_counts["PASS lines"] == 0)):
            sys.exit(f"coheriq: {name} over the reference BLAS is not clean (exit "
                     f"{reference_code}, {reference_counts}), so it cannot judge Coheriq:\n"
                     + "\n".join(reference_bad[:20]) + "\n" + reference_text[-2000:])

        text, code = run(command, args.input, coheriq_env, args.timeout)
    counts, bad, tipped = summary(text)
    unsupported = UNSUPPORTED.search(text)
    if code != 0 and unsupported and os.environ.get("COHERIQ_ENGINE"):
        print(f"SKIP: {name}: this host cannot run COHERIQ_ENGINE={os.environ['COHERIQ_ENGINE']}: "
              f"{unsupported.group(0)}")
        sys.exit(77)
    print(text[-20000:])
    print(f"coheriq: {name}: over Coheriq {counts}; over the reference BLAS {reference_counts}; "
          f"exit {code}")
    if args.mode == "blas":
        passed = code == 0 and not bad and counts == reference_counts
    else:
        known = [line for line in bad if any(re.search(k, line) for k in args.known)]
        bad = [line for line in bad if line not in reference_bad and line not in known]
        for line in known:
            print(f"coheriq: {name}: known (docs/blas.md): {line}")
        for line in tipped:
            print(f"coheriq: {name}: tipped, less than {TIP_FACTOR:g}x its threshold "
                  f"(docs/blas.md): {line}")
        # A known failure may stop the rest of its run (an INFO error): fewer tests then.
        passed = code == 0 and not bad and (
            counts["tests run"] == reference_counts["tests run"] or known)
    if not passed:
        for line in bad[:40]:
            print("  " + line)
        for line in reference_bad[:40]:
            print("  (reference) " + line)
        sys.exit(1)


if __name__ == "__main__":
    main()
