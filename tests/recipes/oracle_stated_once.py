#!/usr/bin/env python3
"""The docs say once what the test oracle is (docs/testing.md, "The test oracle") and agree with
it: the pages that describe testing link that section, and none calls the reference engine the
oracle (it is the reference implementation, under test like every engine).

Usage: oracle_stated_once.py SOURCE_DIR. Exit 0 pass, 1 fail (each problem printed).
"""

import pathlib
import re
import sys

# Pages that say how engines are tested: each must link the one statement.
LINKING = ["README.md", "docs/design.md", "docs/kernels.md", "docs/engine-guide.md",
           "docs/domain-guide.md", "docs/adding-a-kernel.md"]
# Logs of what was decided or measured, in the words of their time.
LOGS = {"docs/decisions.md", "docs/performance.md"}
# The reference engine called the oracle, in any of the forms the pages used.
CONTRADICTIONS = [
    r"\breference\b[^.;]{0,40}\bis (also )?the oracle",
    r"\bthe oracle of every (other )?test",
    r"\(scalar, the oracle\)",
    r"\boracle engines are tested against",
    r"\bagainst the reference engine\b",
    r"\bcompared with the reference engine's functions",
]


def main():
    root = pathlib.Path(sys.argv[1])
    problems = []
    testing = (root / "docs/testing.md").read_text()
    if len(re.findall(r"^## The test oracle$", testing, re.M)) != 1:
        problems.append("docs/testing.md: no single '## The test oracle' section")
    for page in LINKING:
        if "testing.md#the-test-oracle" not in (root / page).read_text():
            problems.append(f"{page}: does not link testing.md#the-test-oracle")
    pages = [root / "README.md"] + sorted((root / "docs").glob("*.md"))
    for path in pages:
        rel = path.relative_to(root).as_posix()
        if rel in LOGS:
            continue
        text = " ".join(path.read_text().split())  # sentences across line breaks
        for pattern in CONTRADICTIONS:
            for m in re.finditer(pattern, text, re.I):
                problems.append(f"{rel}: calls the reference engine the oracle: '{m.group(0)}'")
    for p in problems:
        print("FAIL: " + p)
    if problems:
        return 1
    print(f"the test oracle is stated once (docs/testing.md) and linked from {len(LINKING)} pages; "
          f"{len(pages) - len(LOGS)} pages checked")
    return 0


if __name__ == "__main__":
    sys.exit(main())
