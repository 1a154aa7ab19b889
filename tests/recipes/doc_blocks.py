#!/usr/bin/env python3
"""The code blocks of a guide, by name, for the tests that build and run them (docs/testing.md,
"recipes").

Every fenced block of a page this checks is one of:
  - named: the line before its fence is `<!-- doc-test: NAME -->`; a test takes it by name
    (`get`) and builds or runs it;
  - skipped: `<!-- doc-test: NAME skip: why -->`; the page also says so to the reader when the block
    is partial; `check` prints the name and the reason;
  - sample output: fenced as ```text; nothing to run.
A block that is none of these (no marker, or a marker no test took) fails `check`: a new block
cannot go untested by accident.

usage: doc_blocks.py get PAGE NAME [NAME...]   the blocks, concatenated (recorded in $DOC_BLOCKS_USED)
       doc_blocks.py check PAGE [PAGE...]       every block accounted for (reads $DOC_BLOCKS_USED)
"""
import os
import re
import sys

MARKER = re.compile(r"^<!-- doc-test: ([a-z0-9-]+)(?: skip: (.+?))? -->$")


def blocks(page):
    """(name, skip reason or None, language, text, line) for every fenced block of the page."""
    lines = open(page, encoding="utf-8").read().splitlines(keepends=True)
    out, i = [], 0
    while i < len(lines):
        fence = re.match(r"^(\s*)```(\S*)\s*$", lines[i])
        if not fence:
            i += 1
            continue
        indent, language, start = fence.group(1), fence.group(2), i
        i += 1
        body = []
        while i < len(lines) and lines[i].strip() != "```":
            body.append(lines[i][len(indent):] if lines[i].startswith(indent) else lines[i])
            i += 1
        i += 1
        marker = MARKER.match(lines[start - 1].strip()) if start > 0 else None
        name, skip = (marker.group(1), marker.group(2)) if marker else (None, None)
        out.append((name, skip, language, "".join(body), start + 1))
    return out


def main():
    if len(sys.argv) < 3 or sys.argv[1] not in ("get", "check"):
        sys.exit(__doc__)
    used_file = os.environ.get("DOC_BLOCKS_USED", "")
    if sys.argv[1] == "get":
        page, names = sys.argv[2], sys.argv[3:]
        by_name = {b[0]: b for b in blocks(page) if b[0]}
        for name in names:
            if name not in by_name:
                sys.exit(f"coheriq: doc_blocks.py: {page} has no block named '{name}'; mark it "
                         f"with <!-- doc-test: {name} --> on the line before its fence")
            if by_name[name][1]:
                sys.exit(f"coheriq: doc_blocks.py: block '{name}' of {page} is marked skip")
            sys.stdout.write(by_name[name][3])
            if used_file:
                with open(used_file, "a", encoding="utf-8") as f:
                    f.write(f"{os.path.basename(page)} {name}\n")
        return 0
    used = set()
    if used_file and os.path.exists(used_file):
        used = set(open(used_file, encoding="utf-8").read().split("\n"))
    failures = []
    for page in sys.argv[2:]:
        base = os.path.basename(page)
        counts = {"run": 0, "skipped": 0, "output": 0}
        for name, skip, language, _, line in blocks(page):
            where = f"{base}:{line}"
            if skip:
                print(f"skipped: {where} '{name}': {skip}")
                counts["skipped"] += 1
            elif name and f"{base} {name}" in used:
                counts["run"] += 1
            elif name:
                failures.append(f"{where}: block '{name}' is named but no test took it")
            elif language == "text":
                counts["output"] += 1
            else:
                failures.append(f"{where}: a ```{language} block with no doc-test marker: name "
                                "it and build or run it in a test, mark it skip with the reason, "
                                "or fence sample output as ```text")
        total = sum(counts.values())
        print(f"{base}: {total} blocks: {counts['run']} built or run, {counts['skipped']} "
              f"skipped, {counts['output']} sample output")
    for f in failures:
        print(f"coheriq: {f}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
