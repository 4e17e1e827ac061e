#!/usr/bin/env python3
"""Fail when a code comment under the given folder quotes a timing.

Usage: check_comments.py <include dir or file>...

Code comments give the reason; measurements (times, bandwidths, speed-up
ratios, cycle counts, the bench machine they ran on) belong in the dated
journal, docs/journal/code-notes.md, which a comment may point to.
Accuracy bounds (ulp) and sizes (bytes, KiB, elements) are not timings.
A comment's pointer `docs/<file>.md#<anchor>` must name a heading of that
file (the docs folder beside the include folder given).
Exit status 1 with one "file:line: text" per offending comment line.
"""
import os
import re
import sys

# a number that is not an exponent or part of a name (2^-51 s, x2s)
NUM = r"(?<![\w.^])(?<!\^-)\d+(?:\.\d+)?"
RANGE = NUM + r"(?:\s*(?:-|–|->|to)\s*" + NUM + r")?"
TIMING = re.compile(
    "|".join([
        # a number and a unit of time, bandwidth or cycles: 48 ns, 7.39-7.49 s
        RANGE + r"\s*(?:ns|us|µs|ms|sec|seconds?|minutes?|hours?|"
        r"[GMK]i?B/s|cycles?)(?![\w/])",
        RANGE + r"\s+s(?![\w/])",
        # a speed-up ratio: 1.4x faster, 2-8% faster, 4.5x as long
        RANGE + r"\s*(?:x|×|%)\s+(?:faster|slower|as long|longer|"
        r"shorter|more time|less time|the time)\b",
        # a speed against a peer: 0.87-0.90 of the hand loop, 0.55 of Eigen
        RANGE + r"\s+of (?:Eigen|xtensor|NumPy|the hand loop|a hand loop|"
        r"the old loop)",
        # a bench machine named as where something ran
        r"\bon (?:an? |the )?(?:AMD |Intel )?(?:EPYC |Xeon |Ryzen )?"
        r"(?:Zen ?\d|Xeon|EPYC)\b",
        r"\b(?:Zen ?\d|Xeon|EPYC)\b[^.;]*\b(?:ran|took|faster|slower)\b",
    ]))

POINTER = re.compile(r"\b(docs/[\w/.-]+\.md)#([\w-]+)")

EXTS = (".hpp", ".h", ".inl", ".cuh", ".cpp", ".cu")


def comments(text):
    """Yield (line number, comment text) for each line holding a comment."""
    i, n, line = 0, len(text), 1
    while i < n:
        c = text[i]
        if c == "\n":
            line += 1
            i += 1
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            yield line, text[i:j]
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            for k, part in enumerate(text[i:j].split("\n")):
                yield line + k, part
            line += text.count("\n", i, j)
            i = j
        elif c in "\"'":
            # a string or character literal (a digit separator 1'000 is
            # preceded by a digit: skip it)
            if c == "'" and i > 0 and text[i - 1].isalnum():
                i += 1
                continue
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            i = j + 1
        else:
            i += 1


def files(paths):
    for p in paths:
        if os.path.isfile(p):
            yield p
        for root, _, names in os.walk(p):
            for name in sorted(names):
                if name.endswith(EXTS):
                    yield os.path.join(root, name)


def anchors(path):
    """The GitHub anchors of a Markdown file's headings (None if no file)."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError:
        return None
    out = set()
    for m in re.finditer(r"^#+\s+(.*?)\s*$", text, re.M):
        slug = re.sub(r"[^\w\- ]", "", m.group(1).lower()).replace(" ", "-")
        out.add(slug)
    return out


def main(argv):
    if len(argv) < 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    bad = 0
    cache = {}
    for path in files(argv[1:]):
        root = os.path.dirname(os.path.abspath(argv[1].rstrip("/")))
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for line, comment in comments(text):
            if TIMING.search(comment):
                print(f"{path}:{line}: {comment.strip()}")
                bad += 1
            for doc, anchor in POINTER.findall(comment):
                if doc not in cache:
                    cache[doc] = anchors(os.path.join(root, doc))
                if cache[doc] is not None and anchor not in cache[doc]:
                    print(f"{path}:{line}: {doc} has no heading #{anchor}")
                    bad += 1
    if bad:
        print(f"check_comments: {bad} problem(s): move timings to "
              "docs/journal/code-notes.md and keep the reason in the "
              "comment; point to headings that exist", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
