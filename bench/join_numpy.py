#!/usr/bin/env python3
"""NumPy's figures for bench_join.cpp's cases (issue 60): concatenate of two
2^23-float arrays into a preallocated output, and take of 2^22 random int64
indices from a 2^24-float array. Median of 5 runs each, in ms.

usage: python3 bench/join_numpy.py
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
    half = 1 << 23
    a = rng.integers(0, 1000, half).astype(np.float32)
    b = rng.integers(0, 1000, half).astype(np.float32)
    out = np.empty(2 * half, np.float32)
    x = rng.integers(0, 1000, 1 << 24).astype(np.float32)
    idx = rng.integers(0, 1 << 24, 1 << 22).astype(np.int64)
    got = np.empty(1 << 22, np.float32)
    print(f"numpy {np.__version__}")
    print(f"concatenate/numpy  {median_ms(lambda: np.concatenate((a, b), out=out)):8.2f} ms")
    print(f"take/numpy         {median_ms(lambda: np.take(x, idx, out=got)):8.2f} ms")


if __name__ == "__main__":
    main()
