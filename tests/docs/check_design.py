#!/usr/bin/env python3
"""Check that docs/design.md's layer table names every header, exactly.

Usage: check_design.py <include/sinter dir> <docs/design.md>

Every include/sinter/**/*.hpp and *.inl must appear in the table under
"## Layers" by its path relative to include/sinter (`core/shape.hpp`,
`array.hpp`), and every header path the table names must exist. The page
quotes no timings either (check_comments.py's patterns, applied to every
line): measurements go to the journal, docs/journal/.
Exit status 1 with one line per problem.
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_comments import TIMING  # noqa: E402


def headers(root):
    found = set()
    for base, _, names in os.walk(root):
        for name in names:
            if name.endswith((".hpp", ".inl")):
                rel = os.path.relpath(os.path.join(base, name), root)
                found.add(rel.replace(os.sep, "/"))
    return found


def layer_table(text):
    m = re.search(r"^## Layers\n(.*?)(?=^## )", text, re.M | re.S)
    return m.group(1) if m else ""


def main(argv):
    if len(argv) != 3:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    root, design = argv[1], argv[2]
    with open(design, encoding="utf-8") as f:
        text = f.read()
    table = layer_table(text)
    if not table:
        print(f"{design}: no '## Layers' section")
        return 1
    # header paths as the table writes them: `policy/cuda/launch.hpp`
    named = set(re.findall(r"(?<![\w./-])((?:[\w-]+/)*[\w-]+\.(?:hpp|inl))\b", table))
    have = headers(root)
    problems = [f"{design}: the layer table does not name {p}" for p in sorted(have - named)]
    problems += [f"{design}: the layer table names {p}, which is not in {root}" for p in sorted(named - have)]
    for n, line in enumerate(text.splitlines(), 1):
        if TIMING.search(line):
            problems.append(f"{design}:{n}: quotes a timing: {line.strip()}")
    for p in problems:
        print(p)
    if problems:
        print("check_design: write each header's path relative to include/sinter "
              "in docs/design.md's layer table", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
