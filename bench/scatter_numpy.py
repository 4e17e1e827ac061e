#!/usr/bin/env python3
"""NumPy's figures for bench_scatter.cpp's cases (issue 60): np.put and
np.add.at of 2^22 random int64 indices (with repeats) into a 2^24-float32
array, values 2^22 float32. Median of 5 runs each, in ms.

usage: python3 bench/scatter_numpy.py
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
    x = rng.integers(0, 1000, 1 << 24).astype(np.float32)
    idx = rng.integers(0, 1 << 24, 1 << 22).astype(np.int64)
    v = (rng.integers(0, 1000, 1 << 22) * 0.001).astype(np.float32)
    print(f"numpy {np.__version__}")
    print(f"put/numpy          {median_ms(lambda: np.put(x, idx, v)):8.2f} ms")
    print(f"scatter_add/numpy  {median_ms(lambda: np.add.at(x, idx, v)):8.2f} ms")


if __name__ == "__main__":
    main()
