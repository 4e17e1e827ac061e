"""Writes examples/data/points.npy, the input of examples/npy_roundtrip.cpp:
200 points in 3-D (float64, shape (200, 3)), normal with a fixed seed, as a
prototype in NumPy would have saved them. Run from the repository's root:
    python3 examples/data/make_points.py
"""
import numpy as np

rng = np.random.default_rng(2026)
points = rng.standard_normal((200, 3)) * np.array([1.0, 2.0, 0.5])
np.save("examples/data/points.npy", points)
