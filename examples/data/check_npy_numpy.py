"""ctest sinter.example.npy_numpy: sinter's .npy/.npz files against NumPy.
    check_npy_numpy.py <npy_roundtrip program> <points.npy> <work dir>
1. The example reads points.npy (NumPy's) and writes radii.npy, unit.npy and
   points.npz; NumPy reads them and compares with its own computation
   (points.npz's copy of the points bit for bit).
2. Back: NumPy writes the points big-endian, Fortran-ordered, as format
   version 3.0; the example reads that file, and its radii must equal the
   first run's bit for bit.
Exit code 0 when everything matches, 1 otherwise.
"""
import os
import subprocess
import sys

import numpy as np


def run(program, points, out):
    os.makedirs(out, exist_ok=True)
    subprocess.run([program, points, out], check=True)
    return (np.load(os.path.join(out, "radii.npy")), np.load(os.path.join(out, "unit.npy")),
            np.load(os.path.join(out, "points.npz")))


def main():
    program, points_path, work = sys.argv[1:4]
    points = np.load(points_path)
    radii, unit, npz = run(program, points_path, os.path.join(work, "c"))
    ref = np.sqrt((points * points).sum(axis=1))
    ok = radii.dtype == np.float64 and radii.shape == ref.shape
    ok = ok and np.allclose(radii, ref, rtol=1e-15, atol=0)
    ok = ok and np.allclose(unit, points / radii[:, None], rtol=1e-15, atol=0)
    ok = ok and sorted(npz.files) == ["points", "radii"]
    ok = ok and npz["points"].tobytes() == points.tobytes() and npz["radii"].tobytes() == radii.tobytes()
    print("sinter -> NumPy:", "OK" if ok else "MISMATCH")

    back = os.path.join(work, "points_be_fortran_v3.npy")
    with open(back, "wb") as f:
        np.lib.format.write_array(f, np.asfortranarray(points.astype(">f8")), version=(3, 0))
    radii2, unit2, _ = run(program, back, os.path.join(work, "f"))
    ok2 = radii2.tobytes() == radii.tobytes() and unit2.tobytes() == unit.tobytes()
    print("NumPy (big-endian, Fortran order, version 3.0) -> sinter:", "OK" if ok2 else "MISMATCH")
    return 0 if ok and ok2 else 1


if __name__ == "__main__":
    sys.exit(main())
