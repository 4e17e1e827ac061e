#!/usr/bin/env python3
"""NumPy's figures for bench_npy.cpp's cases (issue 63): np.save of a
2^24-float32 array (the file removed before each save, outside the timing,
as the C++ bench does), np.save of a * 2 + 1 (the expression computed
first: NumPy has no lazy form), and np.load. Median of 5 runs each, in ms.

usage: python3 bench/npy_numpy.py
"""
import os
import tempfile
import time

import numpy as np


def median_ms(f, before=lambda: None, reps=5):
    before()
    f()
    t = []
    for _ in range(reps):
        before()
        t0 = time.perf_counter()
        f()
        t.append((time.perf_counter() - t0) * 1e3)
    return sorted(t)[len(t) // 2]


def main():
    path = os.path.join(os.environ.get("TMPDIR", tempfile.gettempdir()), "sinter_bench_npy_numpy.npy")
    a = np.arange(1 << 24, dtype=np.float32) * np.float32(0.5)

    def remove():
        if os.path.exists(path):
            os.remove(path)

    print("save/numpy            %8.2f ms" % median_ms(lambda: np.save(path, a), remove))
    print("save/numpy_expression %8.2f ms" % median_ms(lambda: np.save(path, a * 2 + 1), remove))
    np.save(path, a)
    assert (np.load(path) == a).all()
    print("load/numpy            %8.2f ms" % median_ms(lambda: np.load(path)))
    remove()


if __name__ == "__main__":
    main()
