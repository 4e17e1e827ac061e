"""Checks of examples/python/sinter_numpy.cpp, run by ctest (python3, NumPy).

Usage: test_sinter_numpy.py <folder holding the built sinter_numpy module>

Values against math.sqrt per element (the standard library, an independent
reference); zero copies (the result's data pointer is sinter's buffer, and
one allocation of exactly the result's bytes is all a call makes; writes
through a strided view land in the caller's array); lifetimes (the result
outlives the call, deleting it gives sinter's memory back); strided and
negative-stride inputs; the same through DLPack (np.from_dlpack).
"""
import gc
import math
import sys

sys.path.insert(0, sys.argv[1])
import numpy as np  # noqa: E402
import sinter_numpy as sn  # noqa: E402

failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print("FAIL:", what)


def reference(a, b, s):
    return [math.sqrt(x * x + y * y) * s for x, y in zip(a.tolist(), b.tolist())]


def close(got, want):
    return len(got) == len(want) and all(abs(g - w) <= 1e-15 * abs(w) for g, w in zip(got, want))


def data_pointer(x):
    return x.__array_interface__["data"][0]


rng = np.random.default_rng(7)
base_a = rng.standard_normal(3 * 1009 + 5)
base_b = rng.standard_normal(3 * 1009 + 5)

# Contiguous, strided, reversed, and reversed with a step: read in place.
for name, a, b in [("contiguous", base_a[:1009], base_b[:1009]),
                   ("step 3", base_a[::3], base_b[1::3]),
                   ("reversed", base_a[::-1], base_b[::-1]),
                   ("reversed step 2", base_a[-2::-2], base_b[::2][: len(base_a[-2::-2])])]:
    n = len(a)
    gc.collect()
    bytes0, allocs0 = sn.host_bytes_in_use(), sn.allocations()
    r = sn.hypot_scaled(a, b, 0.5)
    check(close(r.tolist(), reference(a, b, 0.5)), f"{name}: values")
    check(sn.allocations() - allocs0 == 1, f"{name}: one allocation (the result), inputs not copied")
    check(sn.host_bytes_in_use() - bytes0 == 8 * n, f"{name}: sinter holds exactly the result's bytes")
    check(r.flags["C_CONTIGUOUS"] and not r.flags["OWNDATA"], f"{name}: result is sinter's buffer")
    check(r.base is not None, f"{name}: a capsule keeps the sinter array")
    del r
    gc.collect()
    check(sn.host_bytes_in_use() == bytes0, f"{name}: deleting the result frees sinter's memory")

# The result outlives the call and the inputs.
a, b = base_a[:100].copy(), base_b[:100].copy()
want = reference(a, b, 2.0)
r = sn.hypot_scaled(a, b, 2.0)
del a, b
gc.collect()
check(close(r.tolist(), want), "result outlives its inputs")
view = r[10:20]  # a NumPy view of sinter memory keeps it too
del r
gc.collect()
check(close(view.tolist(), want[10:20]), "a NumPy view keeps sinter's buffer alive")
del view

# Writes land in the caller's array, through negative strides: no copy in.
a = np.arange(10, dtype=np.float64)
sn.scale_inplace(a[::-2], 10.0)
check(a.tolist() == [0, 10, 2, 30, 4, 50, 6, 70, 8, 90], "scale_inplace writes in place through a[::-2]")

# Wrong dtype: a TypeError, never a silent converting copy.
try:
    sn.hypot_scaled(np.zeros(3, np.float32), np.zeros(3), 1.0)
    check(False, "float32 input rejected")
except TypeError:
    pass

# DLPack both ways: NumPy's __dlpack__ in, sinter's __dlpack__ out.
for name, a, b in [("dlpack contiguous", base_a[:501], base_b[:501]),
                   ("dlpack step 3", base_a[::3], base_b[1::3])]:
    gc.collect()
    bytes0 = sn.host_bytes_in_use()
    res = sn.hypot_dlpack(a, b, 0.25)
    out = np.from_dlpack(res)
    check(data_pointer(out) == res.data_pointer, f"{name}: np.from_dlpack shares sinter's buffer")
    # NumPy 2 asks for DLPack 1.x (the versioned struct), NumPy 1 for the legacy one.
    want_kind = "versioned" if int(np.__version__.split(".")[0]) >= 2 else "legacy"
    check(res.exported == want_kind, f"{name}: {res.exported} export, {want_kind} expected")
    check(close(out.tolist(), reference(a, b, 0.25)), f"{name}: values")
    check(sn.host_bytes_in_use() - bytes0 == 8 * len(a), f"{name}: no copy either way")
    del res
    gc.collect()
    check(close(out[:3].tolist(), reference(a, b, 0.25)[:3]), f"{name}: the NumPy array keeps the tensor")
    del out
    gc.collect()
    check(sn.host_bytes_in_use() == bytes0, f"{name}: the deleter ran: memory back")

print("numpy", np.__version__, ":", "FAILED " + str(len(failures)) if failures else "all passed")
sys.exit(1 if failures else 0)
