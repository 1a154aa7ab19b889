#!/usr/bin/env python3
"""Follows how-tos of docs/ literally: copies the source tree, applies each code block whose first
line names a file and an action (every block of the first page, then of the next, ...), then
configures a build of the copy.

A block applies when its first line is a comment of one of these forms:
    // path/to/file (new file)            -> the block becomes the file
    # path/to/file (append)                -> appended to the file
    # path/to/file (insert after `text`)   -> inserted after the statement on the first line
                                              containing `text`
    # path/to/file (insert before `text`)  -> inserted before the first line containing `text`
Usage: follow_recipe.py SOURCE_DIR WORK_DIR DOC [DOC...] -- cmake configure arguments...
Prints the build directory on the last line of stdout. Exit 1 when a block cannot be applied.
"""
import os
import re
import shutil
import subprocess
import sys

HEADER = re.compile(r"^(?://|#)\s*(\S+)\s+\((new file|append|insert (?:after|before) `([^`]+)`)\)\s*$")


def blocks(doc):
    text = open(doc, encoding="utf-8").read()
    for match in re.finditer(r"^```[a-z]*\n(.*?)^```", text, re.S | re.M):
        lines = match.group(1).splitlines(keepends=True)
        head = HEADER.match(lines[0].rstrip("\n")) if lines else None
        if head:
            yield head.group(1), head.group(2), head.group(3), lines


def copy_tree(source, dest):
    if os.path.exists(dest):
        shutil.rmtree(dest)
    ignore = shutil.ignore_patterns("build", ".git", "__pycache__")
    shutil.copytree(source, dest, ignore=ignore)


def apply(dest, path, action, anchor, lines):
    target = os.path.join(dest, path)
    if action == "new file":
        os.makedirs(os.path.dirname(target), exist_ok=True)
        open(target, "w", encoding="utf-8").writelines(lines)
        return
    if not os.path.exists(target):
        sys.exit(f"coheriq: recipe block for {path}: the file does not exist in the tree")
    content = open(target, encoding="utf-8").read().splitlines(keepends=True)
    body = lines[1:]
    if action == "append":
        content += ["\n"] + body
    else:
        at = next((i for i, l in enumerate(content) if anchor in l), None)
        if at is None:
            sys.exit(f"coheriq: recipe block for {path}: no line contains `{anchor}`")
        if action.startswith("insert before"):
            content[at:at] = body
            open(target, "w", encoding="utf-8").writelines(content)
            return
        # After the whole statement that starts on that line (up to its closing parenthesis).
        depth, end = 0, at
        for end in range(at, len(content)):
            depth += content[end].count("(") - content[end].count(")")
            if depth <= 0:
                break
        content[end + 1:end + 1] = body
    open(target, "w", encoding="utf-8").writelines(content)


def main():
    args = sys.argv[1:]
    split = args.index("--") if "--" in args else len(args)
    if split < 3:
        sys.exit(__doc__)
    source, work, docs = args[0], args[1], args[2:split]
    configure = args[split + 1:]
    tree = os.path.join(work, "src")
    copy_tree(source, tree)
    for doc in docs:
        applied = 0
        for path, action, anchor, lines in blocks(doc):
            apply(tree, path, action, anchor, lines)
            print(f"applied: {path} ({action}) from {os.path.basename(doc)}")
            applied += 1
        if applied == 0:
            sys.exit(f"coheriq: {doc} has no recipe blocks")
    build = os.path.join(work, "build")
    subprocess.run(["cmake", "-S", tree, "-B", build, "-G", "Ninja"] + configure, check=True,
                   stdout=subprocess.DEVNULL)
    print(build)


if __name__ == "__main__":
    main()
