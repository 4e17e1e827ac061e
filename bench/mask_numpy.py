#!/usr/bin/env python3
"""NumPy's figures for bench_mask.cpp's cases (issue 60): x[m] with a 50%
random bool mask from a 2^24-float array, and np.exp(x)[x > 0] (x uniform
in [-1, 1), so half the elements). Median of 5 runs each, in ms.

usage: python3 bench/mask_numpy.py
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
    x = rng.uniform(-1, 1, n).astype(np.float32)
    m = rng.integers(0, 2, n).astype(bool)
    print(f"numpy {np.__version__}")
    print(f"compress/numpy  {median_ms(lambda: x[m]):8.2f} ms")
    print(f"expr/numpy      {median_ms(lambda: np.exp(x)[x > 0]):8.2f} ms")


if __name__ == "__main__":
    main()
