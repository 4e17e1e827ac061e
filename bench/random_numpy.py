#!/usr/bin/env python3
"""NumPy's Generator filling arrays, the peer of bench_random.cpp (issue 59).

Times Generator(PCG64) and Generator(Philox) filling preallocated float32
and float64 arrays of 2^16, 2^20 and 2^24 elements with `random` (uniform
[0, 1)) and `standard_normal` (ziggurat), one thread, the cases interleaved
in random order round after round; prints the median ns per element of
each case as a markdown table (and JSON with --json FILE), by the wall
clock or, with --clock cpu, by the process's CPU time (on a machine shared
with other work, the fairer measure of one thread).

With --sinter FILE (bench_random's --benchmark_out JSON, run with
repetitions and --benchmark_report_aggregates_only=true) it also prints
issue 59's targets against that run: uniform float fill on host against
std::mt19937 and a plain store at 2^24, fused noise-add against
materialise-then-add, and the normal fill against NumPy's faster bit
generator on one core.

  python3 bench/random_numpy.py --rounds 15
  python3 bench/random_numpy.py --rounds 15 --sinter /tmp/bench_random.json

Needs numpy (pip install numpy); --sinter alone with --numpy-json needs
only the standard library.
"""
import argparse
import json
import random
import statistics
import sys
import time

SIZES = (1 << 16, 1 << 20, 1 << 24)


def time_numpy(rounds, seed, clock):
    import numpy as np

    gens = {"pcg64": np.random.Generator(np.random.PCG64(seed)),
            "philox": np.random.Generator(np.random.Philox(seed))}
    bufs = {(dt, n): np.empty(n, dtype=dt) for dt in ("float32", "float64") for n in SIZES}
    cases = [(g, kind, dt, n) for g in gens for kind in ("uniform", "normal")
             for dt in ("float32", "float64") for n in SIZES]
    times = {c: [] for c in cases}
    order = list(cases)
    shuffle = random.Random(seed)
    for _ in range(rounds):
        shuffle.shuffle(order)
        for c in order:
            g, kind, dt, n = c
            out = bufs[(dt, n)]
            fill = gens[g].random if kind == "uniform" else gens[g].standard_normal
            reps = max(1, (1 << 22) // n)  # about 4M elements a sample
            t0 = clock()
            for _ in range(reps):
                fill(dtype=dt, out=out)
            times[c].append((clock() - t0) / (reps * n) * 1e9)
    ver = np.__version__
    return ver, {"/".join([g, kind, "f32" if dt == "float32" else "f64", str(n)]): statistics.median(v)
                 for (g, kind, dt, n), v in times.items()}


def sinter_medians(path, key):
    """ns per element of each bench_random case (key: real_time or cpu_time)."""
    with open(path) as f:
        data = json.load(f)
    out = {}
    for b in data["benchmarks"]:
        if b.get("aggregate_name") != "median":
            continue
        name = b["run_name"].removesuffix("/real_time")
        n = int(name.rsplit("/", 1)[1])
        unit = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}[b["time_unit"]]
        out[name] = b[key] * unit / n
    return out


def targets(s, np_ns, clock):
    n = 1 << 24
    rows = []

    def row(what, ratio, goal):
        rows.append(f"| {what} | {ratio:.2f} | {goal} | {'met' if ratio >= goal else 'missed'} |")

    uh = s.get(f"fill/uniform/f32/sinter_host/{n}")
    mt = s.get(f"fill/uniform/f32/mt19937/{n}")
    if uh and mt:
        row("uniform f32 fill, host / mt19937 + uniform_real_distribution, 2^24", mt / uh, 10)
    stores = [s[k] for k in (f"fill/store/f32/sinter_host/{n}", f"fill/store/f32/hand/{n}") if k in s]
    if uh and stores:
        row("uniform f32 fill, host / the faster plain store (bandwidth), 2^24", min(stores) / uh, 0.5)
    for dt in ("f32", "f64"):
        # Google Benchmark's CPU time is the calling thread's: not par's.
        for pol in ("host", "par") if clock == "real" else ("host",):
            for m in SIZES:
                f = s.get(f"noise_add/{dt}/fused_{pol}/{m}")
                u = s.get(f"noise_add/{dt}/materialise_{pol}/{m}")
                if f and u:
                    row(f"noise-add {dt} {pol}, fused / materialise-then-add, {m}", u / f, 1.5)
    for dt in ("f32", "f64"):
        for m in SIZES:
            h = s.get(f"fill/normal/{dt}/sinter_host/{m}")
            peers = [np_ns[k] for k in (f"pcg64/normal/{dt}/{m}", f"philox/normal/{dt}/{m}") if k in np_ns]
            if h and peers:
                row(f"normal {dt} fill, host / NumPy's faster Generator, {m}", min(peers) / h, 3)
    print("| target | ratio | goal | |\n|---|---:|---:|---|")
    print("\n".join(rows))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=15, help="rounds of every case (medians reported)")
    ap.add_argument("--seed", type=int, default=59)
    ap.add_argument("--clock", choices=("real", "cpu"), default="real",
                    help="wall clock (default) or the process's CPU time, for NumPy and sinter alike")
    ap.add_argument("--json", help="write the NumPy medians (ns per element) here")
    ap.add_argument("--numpy-json", help="read NumPy medians from this file instead of timing")
    ap.add_argument("--sinter", help="bench_random's JSON: print issue 59's targets")
    a = ap.parse_args()
    if a.numpy_json:
        with open(a.numpy_json) as f:
            saved = json.load(f)
        ver, med = saved["numpy"], saved["ns_per_element"]
        a.clock = saved.get("clock", a.clock)  # the saved medians' clock, for sinter's too
    else:
        ver, med = time_numpy(a.rounds, a.seed, time.perf_counter if a.clock == "real" else time.process_time)
        if a.json:
            with open(a.json, "w") as f:
                json.dump({"numpy": ver, "clock": a.clock, "ns_per_element": med}, f, indent=1)
    print(f"NumPy {ver}, median ns per element ({a.clock} time), one thread\n")
    print("| bit generator | fill | dtype | " + " | ".join(f"2^{n.bit_length() - 1}" for n in SIZES) + " |")
    print("|---|---|---|" + "---:|" * len(SIZES))
    for g in ("pcg64", "philox"):
        for kind in ("uniform", "normal"):
            for dt in ("f32", "f64"):
                cells = " | ".join(f"{med[f'{g}/{kind}/{dt}/{n}']:.3f}" for n in SIZES)
                print(f"| {g} | {kind} | {dt} | {cells} |")
    if a.sinter:
        print()
        targets(sinter_medians(a.sinter, a.clock + "_time"), med, a.clock)
    return 0


if __name__ == "__main__":
    sys.exit(main())
