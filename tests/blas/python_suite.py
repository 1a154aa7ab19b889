"""Runs a Python package's own linear-algebra tests (numpy's or scipy's, Debian's builds, which
call libblas.so.3 and liblapack.so.3) over Coheriq, and over the reference BLAS those that did
not pass, and compares.

Usage: python_suite.py --reference-blas LIB --coheriq LIB --lapack LIB TESTS_DIR

Both runs use the reference LAPACK (--lapack) and pytest, each with its own folder first on
LD_LIBRARY_PATH (libblas.so.3 -> libcoheriq_blas or the reference BLAS, liblapack.so.3 -> LIB).
Passes when every test that passes over the reference BLAS passes over Coheriq, and the Coheriq
run loaded libcoheriq_blas (its /proc/self/maps says so). Only the tests that did not pass over
Coheriq (usually a skip and two expected failures) run again over the reference BLAS, by their
node ids: the verdict is the one a whole second run gives, in a few seconds instead of a whole
suite's time. A Coheriq result with no collected test behind it (a module that failed to
import) makes the reference run the whole suite, as before.
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

# A pytest plugin (-p coheriq_node_ids): the absolute node ids of the tests that did not pass
# (a failure or error in any phase, or a skip), which the reference run takes as its arguments.
NODE_IDS = """
import os

_ids, _failed, _called = {}, set(), set()

def pytest_itemcollected(item):
    _ids[item.nodeid] = str(item.path) + item.nodeid[item.nodeid.find("::"):]

def pytest_runtest_logreport(report):
    if report.failed:
        _failed.add(report.nodeid)
    elif report.when == "call" and report.passed:
        _called.add(report.nodeid)

def pytest_sessionfinish(session):
    with open(os.environ["COHERIQ_SUITE_NOT_PASSED"], "w") as out:
        for nodeid, absolute in _ids.items():
            if nodeid in _failed or nodeid not in _called:
                out.write(absolute + "\\n")
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


def run(name, blas, lapack, scratch, tests):
    """pytest over `tests` with `blas` as libblas.so.3: (outcomes, libraries mapped, the file of
    the node ids that did not pass)."""
    folder = os.path.join(scratch, name)
    os.mkdir(folder)
    os.symlink(os.path.abspath(blas), os.path.join(folder, "libblas.so.3"))
    os.symlink(os.path.abspath(lapack), os.path.join(folder, "liblapack.so.3"))
    env = dict(os.environ, LD_LIBRARY_PATH=folder, PYTHONPATH=scratch,
               COHERIQ_SUITE_MAPS=os.path.join(folder, "maps.txt"),
               COHERIQ_SUITE_NOT_PASSED=os.path.join(folder, "not_passed.txt"),
               PYTHONDONTWRITEBYTECODE="1")
    if name == "reference":
        env.pop("COHERIQ_ENGINE", None)
    junit = os.path.join(folder, "junit.xml")
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
               "-p", "coheriq_node_ids", f"--junitxml={junit}", *tests]
    process = subprocess.run(command, env=env, cwd=folder, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True, check=False)
    output = process.stdout
    tail = output.strip().splitlines()[-1] if output.strip() else "(no output)"
    print(f"{name}: {tail}")
    if not os.path.exists(junit):
        print(output[-5000:])
        sys.exit(f"coheriq: the {name} run of {' '.join(tests)} produced no results")
    with open(os.path.join(folder, "maps.txt")) as maps:
        mapped = maps.read().split()
    print(f"{name}: libraries mapped: {' '.join(mapped)}")
    return outcomes(junit), mapped, os.path.join(folder, "not_passed.txt")


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
        with open(os.path.join(scratch, "coheriq_node_ids.py"), "w") as plugin:
            plugin.write(NODE_IDS)
        coheriq, mapped, not_passed_file = run("coheriq", args.coheriq, args.lapack, scratch,
                                                [args.tests])
        if os.path.realpath(args.coheriq) not in {os.path.realpath(p) for p in mapped}:
            sys.exit("coheriq: the Coheriq run did not map libcoheriq_blas")
        with open(not_passed_file) as ids:
            not_passed = ids.read().splitlines()
        if len(not_passed) < sum(1 for r in coheriq.values() if r != "passed"):
            print("coheriq: a result over Coheriq has no collected test behind it: the reference "
                  "BLAS runs the whole suite")
            again = [args.tests]
        else:
            print(f"coheriq: {len(not_passed)} tests did not pass over Coheriq; they run over "
                  "the reference BLAS")
            again = not_passed
        reference = {}
        if again:
            reference, _, _ = run("reference", args.reference_blas, args.lapack, scratch, again)
    regressions = sorted(t for t, r in reference.items() if r == "passed" and
                         coheriq.get(t) != "passed")
    print(f"coheriq: {args.tests}: {sum(1 for r in coheriq.values() if r == 'passed')} passed "
          f"over Coheriq; of the others, {sum(1 for r in reference.values() if r == 'passed')} "
          "pass over the reference BLAS")
    if regressions:
        print(f"coheriq: {len(regressions)} tests pass over the reference BLAS only:")
        for test in regressions[:50]:
            print(f"  {test}: {coheriq.get(test, 'not run')}")
        sys.exit(1)


if __name__ == "__main__":
    main()
