"""Runs one of netlib's BLAS or CBLAS test programs (Debian's libblas-test) over the reference
BLAS and over Coheriq, and compares.

Usage: testers.py --reference-dir DIR --coheriq-dir DIR [--preload LIB] TESTER [INPUT]

Each run happens in a scratch directory (the testers write their summaries there), with INPUT on
stdin. The reference run puts DIR (a folder whose libblas.so.3 is the reference BLAS) first on
LD_LIBRARY_PATH; the Coheriq run puts --coheriq-dir first (a folder whose libblas.so.3 is
libcoheriq_blas) or, with --preload, keeps the reference folder and preloads LIB in front of it.
The dynamic loader's own trace (LD_TRACE_LOADED_OBJECTS) proves which library each run loads.

Passes when the Coheriq run exits 0, prints no line reporting a failure (FAIL, SUSPECT, FATAL,
or netlib's '*****' error lines: a wrong error exit, a wrong result) and as many PASS lines as
the reference run, which must itself be clean.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

BAD = re.compile(r"FAIL|SUSPECT|FATAL|\*\*\*\*\*")
PASS = re.compile(r"PASS")


def environment(library_dir, preload):
    env = dict(os.environ)
    env["LD_LIBRARY_PATH"] = library_dir + (
        ":" + env["LD_LIBRARY_PATH"] if env.get("LD_LIBRARY_PATH") else "")
    env.pop("LD_PRELOAD", None)
    if preload:
        env["LD_PRELOAD"] = preload
    return env


def loaded(tester, env):
    """The libraries the dynamic loader maps for `tester` under `env` (it runs nothing)."""
    trace = dict(env, LD_TRACE_LOADED_OBJECTS="1")
    out = subprocess.run([tester], env=trace, capture_output=True, text=True, check=False)
    return out.stdout


def run(tester, stdin_path, env, timeout):
    """Output of one run (stdout, stderr and every file it wrote), and its exit code."""
    with tempfile.TemporaryDirectory(prefix="coheriq-tester-") as scratch:
        stdin = open(stdin_path, "rb") if stdin_path else subprocess.DEVNULL
        try:
            done = subprocess.run([tester], stdin=stdin, cwd=scratch, env=env, timeout=timeout,
                                  capture_output=True, text=True, errors="replace", check=False)
        finally:
            if stdin_path:
                stdin.close()
        text = done.stdout + done.stderr
        for name in sorted(os.listdir(scratch)):
            with open(os.path.join(scratch, name), errors="replace") as f:
                text += f"\n===== {name}\n" + f.read()
        return text, done.returncode


def summary(text):
    bad = [line for line in text.splitlines() if BAD.search(line)]
    passes = sum(1 for line in text.splitlines() if PASS.search(line))
    return passes, bad


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--reference-dir", required=True)
    parser.add_argument("--coheriq-dir")
    parser.add_argument("--preload")
    parser.add_argument("--timeout", type=float, default=300)
    parser.add_argument("tester")
    parser.add_argument("input", nargs="?")
    args = parser.parse_args()
    if bool(args.coheriq_dir) == bool(args.preload):
        sys.exit("coheriq: testers.py: give exactly one of --coheriq-dir and --preload")
    name = os.path.basename(args.tester)

    reference_env = environment(args.reference_dir, None)
    coheriq_env = (environment(args.reference_dir, args.preload) if args.preload else
                   environment(args.coheriq_dir, None))
    ours = loaded(args.tester, coheriq_env)
    expected = args.preload if args.preload else os.path.join(args.coheriq_dir, "libblas.so.3")
    if os.path.realpath(expected) not in {os.path.realpath(p) for p in
                                          re.findall(r"(/\S+)", ours)}:
        sys.exit(f"coheriq: {name} does not load {expected} under the Coheriq environment; "
                 f"the loader maps:\n{ours}")

    reference_text, reference_code = run(args.tester, args.input, reference_env, args.timeout)
    reference_passes, reference_bad = summary(reference_text)
    if reference_code != 0 or reference_bad or reference_passes == 0:
        sys.exit(f"coheriq: {name} over the reference BLAS is not clean (exit {reference_code}, "
                 f"{reference_passes} PASS lines), so it cannot judge Coheriq:\n"
                 + "\n".join(reference_bad[:20]))

    text, code = run(args.tester, args.input, coheriq_env, args.timeout)
    passes, bad = summary(text)
    print(text)
    print(f"coheriq: {name}: {passes} PASS lines over Coheriq, {reference_passes} over the "
          f"reference BLAS; {len(bad)} failure lines; exit {code}")
    if code != 0 or bad or passes != reference_passes:
        for line in bad[:40]:
            print("  " + line)
        sys.exit(1)


if __name__ == "__main__":
    main()
