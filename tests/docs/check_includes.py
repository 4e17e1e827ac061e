#!/usr/bin/env python3
"""Check the include graph of include/sinter: no cycles, no upward includes.

Usage: check_includes.py <include/sinter dir>

Reads every `#include "..."` of every .hpp and .inl under the directory,
resolves it against the including file's folder, and fails (exit status 1,
one line per problem) on
  * an include from one layer into a layer it may not know (LAYERS below,
    the rule of docs/design.md's layer table),
  * an include of policy/cuda/* from outside that folder (the device is
    reached through policy/cuda.hpp or the contract, policy/backend.hpp), and
  * any cycle between headers (each cycle printed once, as a path).
Every header must fall in a layer; an include that resolves to no file
under the directory is reported too.
"""
import fnmatch
import os
import re
import sys

# (layer, path patterns relative to include/sinter, layers it may include).
# The first layer whose pattern matches a header is its layer; a layer may
# always include its own headers. Mirrors docs/design.md's layer table.
# "dir/*" is everything under dir/ (sub-folders too); "*.hpp" the files of
# include/sinter itself; anything else one file.
LAYERS = [
    ("config", ["config.hpp"], []),
    ("core", ["core/*"], ["config"]),
    ("io", ["io/*"], ["config", "core"]),
    ("contract", ["policy/backend.hpp", "policy/host_memory.hpp"], ["config", "core"]),
    ("cuda", ["policy/cuda.hpp", "policy/cuda/*"], ["config", "core", "contract"]),
    ("host", ["policy/*"], ["config", "core", "contract"]),
    ("reduce", ["reduce/*"], ["config", "core", "contract", "host", "cuda"]),
    ("linalg", ["linalg/*"], ["config", "core", "contract"]),
    ("sort", ["sort/*"], ["config", "core", "contract", "host", "cuda", "reduce"]),
    ("scan", ["scan/*"], ["config", "core", "contract", "host", "cuda", "reduce"]),
    ("third_party", ["third_party/*"], []),
    ("top", ["*.hpp"], ["config", "core", "io", "contract", "cuda", "host", "reduce", "linalg", "sort",
             "scan", "third_party", "mpi"]),
    # sinter::mpi (optional, needs <mpi.h>): below the front end's mpi.hpp, above the engines.
    ("mpi", ["mpi/*"], ["config", "core", "contract", "host", "reduce", "top"]),
]

INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*"([^"]+)"', re.M)


def matches(rel, pattern):
    if pattern.endswith("/*"):
        return rel.startswith(pattern[:-1])
    if "*" in pattern:
        return "/" not in rel and fnmatch.fnmatchcase(rel, pattern)
    return rel == pattern


def layer_of(rel):
    for name, patterns, _ in LAYERS:
        if any(matches(rel, p) for p in patterns):
            return name
    return None


def read_graph(root):
    """{header: [(line, included header or unresolved text)]}, paths relative to root."""
    graph = {}
    for base, _, names in os.walk(root):
        for name in sorted(names):
            if not name.endswith((".hpp", ".inl")):
                continue
            path = os.path.join(base, name)
            rel = os.path.relpath(path, root).replace(os.sep, "/")
            with open(path, encoding="utf-8") as f:
                text = f.read()
            edges = []
            for m in INCLUDE.finditer(text):
                line = text.count("\n", 0, m.start()) + 1
                target = os.path.normpath(os.path.join(base, m.group(1)))
                trel = os.path.relpath(target, root).replace(os.sep, "/")
                edges.append((line, trel if os.path.isfile(target) else None, m.group(1)))
            graph[rel] = edges
    return graph


def cycles(graph):
    """Each elementary cycle found by a depth-first search, once (as a list of headers)."""
    found, seen_keys = [], set()
    state = {}  # 1 on the stack, 2 done
    stack = []

    def visit(h):
        state[h] = 1
        stack.append(h)
        for _, t, _ in graph.get(h, []):
            if t is None:
                continue
            if state.get(t) == 1:
                cyc = stack[stack.index(t):]
                k = min(range(len(cyc)), key=lambda i: cyc[i])
                key = tuple(cyc[k:] + cyc[:k])
                if key not in seen_keys:
                    seen_keys.add(key)
                    found.append(list(key))
            elif t not in state:
                visit(t)
        stack.pop()
        state[h] = 2

    for h in sorted(graph):
        if h not in state:
            visit(h)
    return found


def main(argv):
    if len(argv) != 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    root = argv[1]
    graph = read_graph(root)
    allowed = {name: set(may) | {name} for name, _, may in LAYERS}
    problems = []
    for h in sorted(graph):
        lh = layer_of(h)
        if lh is None:
            problems.append(f"{h}: in no layer of check_includes.py's LAYERS")
            continue
        for line, t, text in graph[h]:
            if t is None:
                problems.append(f"{h}:{line}: includes \"{text}\", which is not a file under {root}")
                continue
            lt = layer_of(t)
            if lt not in allowed[lh]:
                problems.append(f"{h}:{line}: upward include: layer {lh} includes {t} (layer {lt})")
            elif t.startswith("policy/cuda/") and not h.startswith("policy/cuda"):
                problems.append(f"{h}:{line}: includes {t}; outside policy/cuda/ include policy/cuda.hpp "
                                "(the device's specialisations) or the contract, policy/backend.hpp")
    for cyc in cycles(graph):
        problems.append("include cycle: " + " -> ".join(cyc + [cyc[0]]))
    for p in problems:
        print(p)
    if problems:
        print("check_includes: move what both sides need into a header of the lower layer "
              "(docs/design.md, Layers)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
