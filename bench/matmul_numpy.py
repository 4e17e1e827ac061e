#!/usr/bin/env python3
"""NumPy's figures for bench_matmul.cpp's cases (issue 62): square float32
and float64 GEMM at 256, 1024 and 4096 (C = A @ B into a preallocated C), and
y = relu(x @ w + b) at 4096x1024 . 1024x1024 float32 in NumPy's three
steps (np.matmul, then +, then np.maximum, each into a preallocated
array), beside NumPy's bare GEMM and its one-expression form. One BLAS
thread, as the C++ cases (OPENBLAS_NUM_THREADS=1 is set before NumPy loads
its OpenBLAS). Median of 5 runs, in ms, of the process's CPU time
(time.process_time: on a loaded machine wall time counts other processes'
turns; with one BLAS thread CPU time is this work's time).

usage: python3 bench/matmul_numpy.py
"""
import os
import time

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
import numpy as np  # noqa: E402


def median_ms(f, reps=5):
    f()
    t = []
    for _ in range(reps):
        t0 = time.process_time()
        f()
        t.append((time.process_time() - t0) * 1e3)
    return sorted(t)[len(t) // 2]


def main():
    rng = np.random.default_rng(1)
    print(f"numpy {np.__version__}, OPENBLAS_NUM_THREADS={os.environ['OPENBLAS_NUM_THREADS']}")
    for dt in (np.float32, np.float64):
        for n in (256, 1024, 4096):
            a = rng.uniform(-1, 1, (n, n)).astype(dt)
            b = rng.uniform(-1, 1, (n, n)).astype(dt)
            c = np.empty((n, n), dt)
            ms = median_ms(lambda: np.matmul(a, b, out=c), 5 if n < 4096 else 3)
            print(f"gemm/{np.dtype(dt).name}/{n}/numpy  {ms:9.2f} ms  {2 * n**3 / ms / 1e6:6.2f} GFLOP/s")
    x = rng.uniform(-1, 1, (4096, 1024)).astype(np.float32)
    w = rng.uniform(-1, 1, (1024, 1024)).astype(np.float32)
    bias = rng.uniform(-1, 1, 1024).astype(np.float32)
    y = np.empty((4096, 1024), np.float32)

    def three_step():
        np.matmul(x, w, out=y)
        np.add(y, bias, out=y)
        np.maximum(y, 0, out=y)

    def expression():
        return np.maximum(x @ w + bias, 0)

    print(f"mlp/numpy_gemm_only   {median_ms(lambda: np.matmul(x, w, out=y)):9.2f} ms")
    print(f"mlp/numpy_three_step  {median_ms(three_step):9.2f} ms")
    print(f"mlp/numpy_expression  {median_ms(expression):9.2f} ms")


if __name__ == "__main__":
    main()
