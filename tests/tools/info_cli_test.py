#!/usr/bin/env python3
"""Tests of `coheriq info`, one check per ctest entry (see CMakeLists.txt).

The manifests written here name libraries that do not exist: listing engines never loads a
plugin, so their text (description, directory) reaches the report without any library.

Usage: info_cli_test.py --coheriq PATH --work DIR CHECK
Exit codes: 0 pass, 1 fail.
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys


class Failure(Exception):
    pass


def check(condition, message):
    if not condition:
        raise Failure(message)


def run(args, cmd, engine_path=None, env_extra=None, **kwargs):
    env = {k: v for k, v in os.environ.items() if not k.startswith("COHERIQ_")}
    if engine_path is not None:
        env["COHERIQ_ENGINE_PATH"] = engine_path
    env.update(env_extra or {})
    if "stdout" not in kwargs:
        kwargs.setdefault("capture_output", True)
    proc = subprocess.run(args.emulator.split() + [args.coheriq] + cmd, env=env, timeout=120,
                          **kwargs)
    print("$ coheriq " + " ".join(cmd) + f"  -> exit {proc.returncode}")
    return proc


def plugin_dir(args, name_bytes, manifests):
    """A fresh directory (its name given as bytes) holding `manifests`: name -> description."""
    base = os.path.join(os.fsencode(args.work), b"plugins")
    path = os.path.join(base, name_bytes)
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path)
    for name, description in manifests.items():
        with open(os.path.join(path, name.encode() + b".coheriq-engine"), "wb") as f:
            f.write(b"domain = coheriq.kernels\nname = " + name.encode() +
                    b"\nlibrary = libdoes_not_exist_" + name.encode() +
                    b".so\nabi = coheriq.kernels/2\ndescription = " + description + b"\n")
    return path


LATIN1 = b"caf\xe9"                          # not UTF-8
ANSI = b"\x1b[31mred\x1b[0m and a bell \x07"  # control bytes for a terminal


def kernels_domain(report):
    return next(d for d in report["domains"] if d["name"] == "coheriq.kernels")


def check_latin1_json(args):
    """A Latin-1 byte in a manifest description and in the plugin directory's name: --json
    exits 0 and prints valid UTF-8 JSON, with the bytes shown as \\xe9."""
    path = plugin_dir(args, b"dir-" + LATIN1, {"latin": b"desc " + LATIN1 + b" " + ANSI})
    proc = run(args, ["info", "--json"], engine_path=path)
    check(proc.returncode == 0, f"exit {proc.returncode}: {proc.stderr!r}")
    text = proc.stdout.decode("utf-8")  # raises on invalid UTF-8
    engine = next(e for e in kernels_domain(json.loads(text))["engines"] if e["name"] == "latin")
    # The manifest parser refuses the line (the engine is then unusable, the reason names it), or
    # the description is shown escaped: either way no raw byte and no abort.
    shown = engine["description"] + " " + engine.get("error", "")
    check("caf\\xe9" in shown or "unusable" in shown, f"description {engine['description']!r}")
    check(not re.search(r"[\x00-\x08\x0b-\x1f\x7f]", text), "a control byte reached the JSON")
    check("dir-caf\\xe9" in engine["origin"], f"origin {engine['origin']!r}")
    print(f"latin1-json: valid UTF-8; description {engine['description']!r}")


def check_escape_text(args):
    """Text output escapes control bytes (ANSI) and invalid UTF-8 from a manifest."""
    path = plugin_dir(args, b"dir-" + LATIN1, {"latin": b"desc " + LATIN1 + b" " + ANSI})
    proc = run(args, ["info"], engine_path=path)
    check(proc.returncode == 0, f"exit {proc.returncode}: {proc.stderr!r}")
    out = proc.stdout
    out.decode("utf-8")
    check(not re.search(rb"[\x00-\x08\x0b-\x1f\x7f]", out), "a control byte reached the output")
    # One backslash, or two when the library escaped the text already (shown again, escaped).
    check(re.search(rb"desc caf\\{1,2}xe9 \\{1,2}x1b\[31mred\\{1,2}x1b\[0m and a bell "
                    rb"\\{1,2}x07", out), "the description is not shown escaped")
    check(re.search(rb"dir-caf\\{1,2}xe9/latin\.coheriq-engine", out),
          "the origin is not shown escaped")
    print("escape-text: no control byte, no invalid UTF-8")


def check_columns(args):
    """A long plugin origin widens its column instead of running into the next one."""
    path = plugin_dir(args, b"a-rather-long-directory-name-for-plugin-engines-" + b"x" * 40,
                      {"long_origin": b"an engine whose manifest lives deep"})
    proc = run(args, ["info"], engine_path=path)
    check(proc.returncode == 0, f"exit {proc.returncode}: {proc.stderr!r}")
    lines = proc.stdout.decode().splitlines()
    start = lines.index(next(l for l in lines if l.startswith("domain coheriq.kernels")))
    engine_lines = [l for l in lines[start:] if re.match(r"^    \S+\s+(un)?supported ", l)]
    check(any("long_origin" in l for l in engine_lines), "the plugin engine is not listed")
    columns = {l.index("mro: ") for l in engine_lines}
    check(len(columns) == 1, f"'mro:' at columns {sorted(columns)}:\n" + "\n".join(engine_lines))
    for l in engine_lines:
        check(l[:l.index("mro: ")].endswith("  "), f"no gap before mro: {l}")
    print("\n".join(engine_lines))
    print("columns: every 'mro:' in one column, after a gap")


def check_host_fields(args):
    """The host's vendor, family, model, caches and vector length (text and JSON), and each
    engine's missing host properties next to its missing features."""
    proc = run(args, ["info", "--json"])
    check(proc.returncode == 0, f"exit {proc.returncode}")
    report = json.loads(proc.stdout)
    host = report["host"]
    for key, kind in [("vendor", str), ("family", int), ("model", int), ("vector_bits", int),
                      ("l1d_bytes", int), ("l2_bytes", int)]:
        check(isinstance(host.get(key), kind), f"host.{key} is {host.get(key)!r}")
    engines = kernels_domain(report)["engines"]
    for e in engines:
        check(isinstance(e.get("missing_host"), list), f"{e['name']}: no missing_host list")
    text = run(args, ["info"]).stdout.decode()
    vendor = host["vendor"] or "unknown"
    check(re.search(rf"^cpu: vendor {re.escape(vendor)}, family {host['family']}, model "
                    rf"{host['model']}; per core: L1d .*, L2 .*; vector length: ", text, re.M),
          "no cpu line with vendor, family, model, caches and vector length")
    for e in engines:
        if e["missing_host"]:
            check("missing host properties: " + "; ".join(e["missing_host"]) in text,
                  f"{e['name']}: missing host properties not shown")
    print(f"host-fields: {dict((k, host[k]) for k in ('vendor', 'family', 'model'))}")


def check_auto_past_broken_plugin(args):
    """COHERIQ_ENGINE=auto beside a plugin of the highest priority whose library does not load:
    the selection `coheriq info` reports is what the run locks to (the plugin's library is
    probed, as the first use loads it), not the broken plugin; the plugin is listed unusable."""
    base = os.path.join(args.work, "plugins")
    path = os.path.join(base, "broken-zzz")
    empty = os.path.join(base, "empty")
    for d in (path, empty):
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
    with open(os.path.join(path, "zzz.coheriq-engine"), "w") as f:
        f.write("domain = coheriq.kernels\nname = zzz\nlibrary = libzzz_not_there.so\n"
                "abi = coheriq.kernels/2\npriority = 100000\n")

    def selection(engine_path):
        env = {"COHERIQ_ENGINE": "auto"}
        proc = run(args, ["info", "--json"], engine_path=engine_path, env_extra=env)
        check(proc.returncode == 0, f"exit {proc.returncode}: {proc.stderr!r}")
        return kernels_domain(json.loads(proc.stdout))

    without = selection(empty)["engine"]
    domain = selection(path)
    print(f"auto without the plugin: {without}; beside it: {domain['engine']}")
    check(domain["engine"] == without, f"info reports {domain['engine']!r}, auto locks to {without!r}")
    zzz = next(e for e in domain["engines"] if e["name"] == "zzz")
    check(not zzz["supported"] and "libzzz_not_there.so" in zzz.get("error", ""),
          f"the broken plugin is not listed unusable with its reason: {zzz}")
    proc = run(args, ["info"], engine_path=path, env_extra={"COHERIQ_ENGINE": "auto"})
    text = proc.stdout.decode()
    check(f"selection: {without} (COHERIQ_ENGINE=auto; open)" in text, "text selection line")
    print("auto-past-broken-plugin: the reported selection is the run's")


def check_write_error(args):
    """A write error on stdout (a full disk) is exit 1 with a message, not a silent 0."""
    if not os.path.exists("/dev/full"):
        print("SKIP: no /dev/full on this system")
        return 77
    for cmd in (["info"], ["info", "--json"]):
        with open("/dev/full", "w") as full:
            proc = run(args, cmd, stdout=full, stderr=subprocess.PIPE)
        print(proc.stderr.decode().strip())
        check(proc.returncode == 1, f"{cmd}: exit {proc.returncode}, expected 1")
        check(b"coheriq: cannot write to stdout" in proc.stderr, f"{cmd}: no message")
    print("write-error: exit 1 with a message")

def check_abi(args):
    """The domain's `abi` (what a plugin's manifest must say) is printed by info and info --json,
    and a manifest with another `abi` is refused naming both values and the line to write."""
    proc = run(args, ["info", "--json"])
    check(proc.returncode == 0, f"exit {proc.returncode}")
    abi = kernels_domain(json.loads(proc.stdout)).get("abi", "")
    check(re.fullmatch(r"coheriq\.kernels/\d+", abi), f"--json: abi {abi!r}")
    text = run(args, ["info"]).stdout.decode()
    check(re.search(rf"^domain coheriq\.kernels .*\n  abi: {re.escape(abi)}$", text, re.M),
          "no 'abi:' line under the kernels domain")
    path = os.path.join(args.work, "plugins", "wrong-abi")
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path)
    with open(os.path.join(path, "old_abi.coheriq-engine"), "w") as f:
        f.write("domain = coheriq.kernels\nname = old_abi\nlibrary = libold_abi.so\n"
                "abi = coheriq.kernels/0\n")
    proc = run(args, ["info", "--json"], engine_path=path)
    engine = next(e for e in kernels_domain(json.loads(proc.stdout))["engines"]
                  if e["name"] == "old_abi")
    error = engine.get("error", "")
    print(f"abi: {abi}; a manifest with abi = coheriq.kernels/0: {error}")
    check(not engine["supported"], "the engine of a manifest with another abi is supported")
    check("abi = coheriq.kernels/0" in error and f"set 'abi = {abi}' in the manifest" in error,
          "the refusal does not name the manifest's abi and the line to write")


def check_reproducible_layouts(args):
    """The PackedMatrix layouts' names follow the mode: the engine's own k-blocks with the mode
    off, the domain's (at most 256) with COHERIQ_REPRODUCIBLE=1, and the panels alike."""
    names = {}
    for mode in ("0", "1"):
        proc = run(args, ["info", "--json"], env_extra={"COHERIQ_REPRODUCIBLE": mode})
        check(proc.returncode == 0, f"COHERIQ_REPRODUCIBLE={mode}: exit {proc.returncode}")
        domain = kernels_domain(json.loads(proc.stdout))
        names[mode] = {(e["name"], cls): layout["name"] for e in domain["engines"]
                       for cls, layout in e.get("layouts", {}).items()
                       if cls.startswith("PackedMatrix<") and layout["engine"] != "reference"}
    check(names["0"], "no engine of this host defines a PackedMatrix layout")
    check(names["0"].keys() == names["1"].keys(), "the mode changes which layouts are listed")
    for key, off in sorted(names["0"].items()):
        on = names["1"][key]
        print(f"{key[0]} {key[1]}:\n  off: {off}\n  on:  {on}")
        check(on.endswith("even k-blocks of at most 256, 64-byte aligned"),
              f"{key}: in the mode {on!r}")
        check(off.split(", even k-blocks")[0] == on.split(", even k-blocks")[0],
              f"{key}: the panels differ between the modes")
    print("reproducible-layouts: k-blocks of at most 256 named in the mode")


CHECKS = {
    "latin1-json": check_latin1_json,
    "escape-text": check_escape_text,
    "columns": check_columns,
    "host-fields": check_host_fields,
    "write-error": check_write_error,
    "auto-past-broken-plugin": check_auto_past_broken_plugin,
    "abi": check_abi,
    "reproducible-layouts": check_reproducible_layouts,
}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--coheriq", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--emulator", default="",
                        help="what runs the build's programs (words separated by blanks)")
    parser.add_argument("check", choices=sorted(CHECKS))
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)
    try:
        return CHECKS[args.check](args) or 0
    except Failure as e:
        print(f"FAIL: {e}")
        return 1


if __name__ == "__main__":
    sys.exit(main())
