#!/usr/bin/env python3
"""NumPy's roll, isclose, allclose and pad, the peer of bench_rearrange.cpp (issue 60).

Times np.roll(a, 12345), np.isclose(a, b), np.allclose(a, b, rtol=1e-3) and
np.pad(a, 1, mode="edge") on float32 arrays of 2^20 and 2^24 elements, one
thread, the cases interleaved in random order round after round; prints the
median ns per element of each as a markdown table (JSON with --json FILE),
by the wall clock or, with --clock cpu, by the process's CPU time (on a
machine shared with other work, the fairer measure of one thread; sinter's
figures are then its JSON's cpu_time, host rows only being meaningful).
NumPy's isclose makes temporaries (x - y, abs, rtol * abs(y), the masks);
roll and pad allocate their result.

With --sinter FILE (bench_rearrange's --benchmark_out JSON, run with
repetitions and --benchmark_report_aggregates_only=true) it also prints
issue 60's targets: roll and pad on host within 1.2x of the hand loop, and
isclose on host at least 3x NumPy's.

  python3 bench/rearrange_numpy.py --rounds 9 --clock cpu --sinter /tmp/r.json

Needs numpy (pip install numpy).
"""
import argparse
import json
import random
import statistics
import sys
import time

SIZES = (1 << 20, 1 << 24)


def numpy_times(rounds, clock):
    import numpy as np

    rng = np.random.default_rng(7)
    cases = {}
    for n in SIZES:
        a = rng.uniform(-100, 100, n).astype(np.float32)
        b = (a * (1 + rng.uniform(-2e-4, 2e-4, n))).astype(np.float32)
        cases[f"roll/numpy/{n}"] = (n, lambda a=a: np.roll(a, 12345))
        cases[f"isclose/numpy/{n}"] = (n, lambda a=a, b=b: np.isclose(a, b))
        cases[f"allclose/numpy/{n}"] = (n, lambda a=a, b=b: np.allclose(a, b, rtol=1e-3))
        cases[f"pad/numpy/{n}"] = (n, lambda a=a: np.pad(a, 1, mode="edge"))
    samples = {k: [] for k in cases}
    names = list(cases)
    for _ in range(rounds):
        random.shuffle(names)
        for k in names:
            n, f = cases[k]
            t = clock()
            f()
            samples[k].append((clock() - t) * 1e9 / n)
    return {k: statistics.median(v) for k, v in samples.items()}


def sinter_times(path, field):
    """Median ns per element of each case of a Google Benchmark JSON file."""
    with open(path) as f:
        doc = json.load(f)
    out = {}
    for b in doc["benchmarks"]:
        name = b.get("run_name", b["name"]).removesuffix("/real_time")
        if b.get("aggregate_name", "median") != "median":
            continue
        n = int(name.rsplit("/", 1)[1])
        unit = {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}[b.get("time_unit", "ns")]
        out[name] = b[field] * unit / n
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rounds", type=int, default=9)
    p.add_argument("--json", help="write NumPy's medians here")
    p.add_argument("--sinter", help="bench_rearrange's --benchmark_out JSON")
    p.add_argument("--clock", choices=("wall", "cpu"), default="wall")
    args = p.parse_args()
    t = numpy_times(args.rounds, time.perf_counter if args.clock == "wall" else time.process_time)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(t, f, indent=1)
    print("| case | NumPy ns/element |\n|---|---:|")
    for k, v in t.items():
        print(f"| {k} | {v:.3f} |")
    if not args.sinter:
        return 0
    s = sinter_times(args.sinter, "real_time" if args.clock == "wall" else "cpu_time")
    print("\n| target | n | sinter ns/el | against ns/el | ratio | goal | met |\n|---|---:|---:|---:|---:|---|---|")
    for n in SIZES:
        rows = [
            ("roll host vs hand", f"roll/sinter_host/{n}", f"roll/hand/{n}", s, "<= 1.2"),
            ("pad host vs hand", f"pad/sinter_host/{n}", f"pad/hand/{n}", s, "<= 1.2"),
            ("isclose host vs hand", f"isclose/sinter_host/{n}", f"isclose/hand/{n}", s, "<= 1.2"),
        ]
        for label, mine, other, src, goal in rows:
            if mine in s and other in src:
                r = s[mine] / src[other]
                print(f"| {label} | {n} | {s[mine]:.3f} | {src[other]:.3f} | {r:.2f} | {goal} | {'yes' if r <= 1.2 else 'no'} |")
        for op in ("isclose", "allclose", "roll"):
            mine = f"{op}/sinter_host/{n}"
            if mine in s:
                r = t[f"{op}/numpy/{n}"] / s[mine]
                goal = ">= 3x NumPy" if op == "isclose" else "(faster than NumPy)"
                met = "yes" if r >= (3 if op == "isclose" else 1) else "no"
                print(f"| {op} host vs NumPy | {n} | {s[mine]:.3f} | {t[f'{op}/numpy/{n}']:.3f} | {r:.2f}x | {goal} | {met} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
