#!/usr/bin/env python3
"""NumPy's figures for bench_scan.cpp's cases (issue 61): cumsum of 2^24
float32 values into a preallocated output, and cumsum(exp(x) * w) (the
expression materialised first, as NumPy does). Median of 5 runs each, in ms.

usage: python3 bench/scan_numpy.py
"""
import time

import numpy as np


def median_ms(f, reps=5):
    f()
    t = []
    for _ in range(reps):
        t0 = time.perf_counter()
        f()
        t.append((time.perf_counter() - t0) * 1e3)
    return sorted(t)[len(t) // 2]


def main():
    rng = np.random.default_rng(1)
    n = 1 << 24
    x = rng.random(n, dtype=np.float32)
    w = rng.random(n, dtype=np.float32)
    out = np.empty(n, np.float32)
    print(f"numpy {np.__version__}")
    print(f"cumsum/numpy       {median_ms(lambda: np.cumsum(x, out=out)):8.2f} ms")
    print(f"cumsum_expr/numpy  {median_ms(lambda: np.cumsum(np.exp(x) * w, out=out)):8.2f} ms")


if __name__ == "__main__":
    main()
