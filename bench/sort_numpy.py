#!/usr/bin/env python3
"""NumPy's figures for bench_sort.cpp's cases (issue 61): np.sort and
np.argsort (default kind, and kind="stable") of 2^20 and 2^24 float32,
int32 and int64 keys, uniform random ("rand") and nearly sorted ("near":
sorted, then 1% of the positions swapped with random others). Each run
sorts a fresh copy, as the C++ columns do. Median of 3 runs, in ms; the
process CPU time beside it (a loaded machine stretches wall time).

usage: python3 bench/sort_numpy.py
"""
import time

import numpy as np


def median_ms(f, reps=3):
    f()
    wall, cpu = [], []
    for _ in range(reps):
        t0, c0 = time.perf_counter(), time.process_time()
        f()
        wall.append((time.perf_counter() - t0) * 1e3)
        cpu.append((time.process_time() - c0) * 1e3)
    return sorted(wall)[len(wall) // 2], sorted(cpu)[len(cpu) // 2]


def keys(dtype, n, near, rng):
    if dtype == np.float32:
        v = rng.uniform(-1e6, 1e6, n).astype(np.float32)
    else:
        v = rng.integers(np.iinfo(dtype).min, np.iinfo(dtype).max, n, dtype=dtype, endpoint=True)
    if near:
        v.sort()
        i = rng.integers(0, n, n // 100)
        j = rng.integers(0, n, n // 100)
        v[i], v[j] = v[j], v[i].copy()
    return v


def main():
    rng = np.random.default_rng(42)
    print(f"numpy {np.__version__}")
    for n, tag in ((1 << 20, "2^20"), (1 << 24, "2^24")):
        for near in (False, True):
            for dtype, name in ((np.float32, "f32"), (np.int32, "i32"), (np.int64, "i64")):
                v = keys(dtype, n, near, rng)
                case = f"{name}/{tag}/{'near' if near else 'rand'}"
                for what, f in (("sort", lambda: np.sort(v)),
                                ("sort_stable", lambda: np.sort(v, kind="stable")),
                                ("argsort", lambda: np.argsort(v)),
                                ("argsort_stable", lambda: np.argsort(v, kind="stable"))):
                    wall, cpu = median_ms(f)
                    print(f"{what}/{case}/numpy  {wall:9.1f} ms wall  {cpu:9.1f} ms cpu")


if __name__ == "__main__":
    main()
