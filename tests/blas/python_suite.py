"""Runs a Python package's own linear-algebra tests (numpy's or scipy's, Debian's builds, which
call libblas.so.3 and liblapack.so.3) over the reference BLAS and over Coheriq, and compares.

Usage: python_suite.py --reference-blas LIB --coheriq LIB --lapack LIB TESTS_DIR

Both runs use the reference LAPACK (--lapack) and pytest, at the same time, each with its own
folder first on LD_LIBRARY_PATH (libblas.so.3 -> the reference BLAS or libcoheriq_blas,
liblapack.so.3 -> LIB). Passes when every test that passes over the reference BLAS passes over
Coheriq, and the Coheriq run loaded libcoheriq_blas (its /proc/self/maps says so).
"""
import argparse
import os
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ElementTree

# Imported before the tests by both runs (PYTHONPATH): records which libblas.so.3 the process
# mapped once numpy has loaded it.
PROBE = """
import atexit, numpy, os
def _report():
    with open("/proc/self/maps") as maps:
        libraries = sorted({line.split()[-1] for line in maps if "blas" in line})
    with open(os.environ["COHERIQ_SUITE_MAPS"], "w") as out:
        out.write("\\n".join(libraries))
atexit.register(_report)
"""


def outcomes(junit):
    """{test id: 'passed' | 'failed' | 'skipped'} from pytest's JUnit XML."""
    result = {}
    for case in ElementTree.parse(junit).getroot().iter("testcase"):
        name = case.get("classname", "") + "::" + case.get("name", "")
        if case.find("failure") is not None or case.find("error") is not None:
            result[name] = "failed"
        elif case.find("skipped") is not None:
            result[name] = "skipped"
        else:
            result[name] = "passed"
    return result


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--reference-blas", required=True)
    parser.add_argument("--coheriq", required=True)
    parser.add_argument("--lapack", required=True)
    parser.add_argument("tests")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="coheriq-python-suite-") as scratch:
        with open(os.path.join(scratch, "sitecustomize.py"), "w") as probe:
            probe.write(PROBE)
        runs = {}
        for name, blas in (("reference", args.reference_blas), ("coheriq", args.coheriq)):
            folder = os.path.join(scratch, name)
            os.mkdir(folder)
            os.symlink(os.path.abspath(blas), os.path.join(folder, "libblas.so.3"))
            os.symlink(os.path.abspath(args.lapack), os.path.join(folder, "liblapack.so.3"))
            env = dict(os.environ, LD_LIBRARY_PATH=folder, PYTHONPATH=scratch,
                       COHERIQ_SUITE_MAPS=os.path.join(folder, "maps.txt"),
                       PYTHONDONTWRITEBYTECODE="1")
            if name == "reference":
                env.pop("COHERIQ_ENGINE", None)
            junit = os.path.join(folder, "junit.xml")
            command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                       f"--junitxml={junit}", args.tests]
            runs[name] = (subprocess.Popen(command, env=env, cwd=folder,
                                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                           text=True), junit, folder)
        results = {}
        for name, (process, junit, folder) in runs.items():
            output, _ = process.communicate()
            tail = output.strip().splitlines()[-1] if output.strip() else "(no output)"
            print(f"{name}: {tail}")
            if not os.path.exists(junit):
                print(output[-5000:])
                sys.exit(f"coheriq: the {name} run of {args.tests} produced no results")
            with open(os.path.join(folder, "maps.txt")) as maps:
                mapped = maps.read().split()
            print(f"{name}: libraries mapped: {' '.join(mapped)}")
            results[name] = outcomes(junit)
            if name == "coheriq" and os.path.realpath(args.coheriq) not in {
                    os.path.realpath(p) for p in mapped}:
                sys.exit("coheriq: the Coheriq run did not map libcoheriq_blas")
    reference, coheriq = results["reference"], results["coheriq"]
    regressions = sorted(t for t, r in reference.items() if r == "passed" and
                         coheriq.get(t) != "passed")
    passed = {name: sum(1 for r in result.values() if r == "passed")
              for name, result in results.items()}
    print(f"coheriq: {args.tests}: {passed['coheriq']} passed over Coheriq, "
          f"{passed['reference']} over the reference BLAS")
    if regressions:
        print(f"coheriq: {len(regressions)} tests pass over the reference BLAS only:")
        for test in regressions[:50]:
            print(f"  {test}: {coheriq.get(test, 'not run')}")
        sys.exit(1)


if __name__ == "__main__":
    main()
