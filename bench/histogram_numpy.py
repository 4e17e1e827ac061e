#!/usr/bin/env python3
"""NumPy's figures for bench_histogram.cpp's cases (issue 61): np.histogram
of 2^24 uniform float32 values into 64 and 4096 equal bins of [0, 1), of
exp(x) into 64 bins of [1, e], and np.unique of 2^22 int32 in [0, 1000).
Median of 5 runs each, in ms.

usage: python3 bench/histogram_numpy.py
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
    x = rng.random(1 << 24, dtype=np.float32)
    u = rng.integers(0, 1000, 1 << 22).astype(np.int32)
    print(f"numpy {np.__version__}")
    for bins in (64, 4096):
        ms = median_ms(lambda: np.histogram(x, bins, (0.0, 1.0)))
        print(f"hist/numpy/{bins:<5}      {ms:8.2f} ms")
    print(f"hist_exp64/numpy      {median_ms(lambda: np.histogram(np.exp(x), 64, (1.0, np.e))):8.2f} ms")
    print(f"unique/numpy          {median_ms(lambda: np.unique(u)):8.2f} ms")


if __name__ == "__main__":
    main()
