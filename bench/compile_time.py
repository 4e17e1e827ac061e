#!/usr/bin/env python3
"""Compile-time benchmark: sinter vs Eigen vs xtensor.

    python3 bench/compile_time.py [--repetitions 3] [--native] [--out FILE]
                                  [--cxx g++] [--libs sinter,eigen,xtensor]

Compiles bench/compile_time/<lib>_20.cpp (the same 20 element-wise
expressions, one function each, in each library) and, as a baseline, a
translation unit holding only that file's #include lines, N times each, one
compile at a time (the repetitions are interleaved across libraries so that
a change in machine load hits every library alike). Reports, as a markdown
table on stdout (and in --out if given), the min and median wall seconds,
the per-expression cost (20-expression time - header-only time) / 20, the
CPU time, the peak memory of the compiler and the object size, then the
ratios sinter / Eigen and sinter / xtensor.

Target (from the issue): the 20-expression TU compiles no slower than the same
code written with Eigen.

Standard library only.
"""

from __future__ import annotations

import argparse
import datetime
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
SOURCES = HERE / "compile_time"
INCLUDE = HERE.parent / "include"
EIGEN_INCLUDE = "/usr/include/eigen3"
EXPRESSIONS = 20

LIBRARIES = {
    "sinter": {"source": "sinter_20.cpp", "defines": []},
    "eigen": {"source": "eigen_20.cpp", "defines": []},
    "xtensor": {"source": "xtensor_20.cpp", "defines": ["-DXTENSOR_USE_XSIMD"]},
}


def flags(args, lib: str) -> list[str]:
    # The same flags for every library; no -Werror: this measures time, and
    # GCC 12 warns inside Eigen's AVX-512 code at -march=native (unused
    # variables, -Wmaybe-uninitialized in avx512fintrin.h), which is not ours
    # to fix.
    f = ["-std=c++20", "-O2", "-c", "-Wall", "-Wextra",
         f"-I{args.include}", "-isystem", EIGEN_INCLUDE]
    f += LIBRARIES[lib]["defines"]
    if args.native:
        f.append("-march=native")
    return f


def header_only(source: Path, dest: Path) -> Path:
    """A TU with only the #include lines of `source`."""
    lines = [line for line in source.read_text().splitlines()
             if line.lstrip().startswith("#include")]
    dest.write_text(f"// Header-only baseline of {source.name}.\n" + "\n".join(lines) + "\n")
    return dest


def compile_once(cmd: list[str]) -> tuple[float, float, int]:
    """(wall seconds, user+sys CPU seconds, peak RSS in KiB) of one compile."""
    with tempfile.TemporaryFile() as log:
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT)
        # wait4 gives the rusage of g++ and of its waited-for children (cc1plus, as).
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        proc.returncode = code = os.waitstatus_to_exitcode(status)
        if code != 0:
            log.seek(0)
            sys.stderr.write(f"compile failed ({code}): {shlex.join(cmd)}\n")
            sys.stderr.write(log.read().decode(errors="replace"))
            sys.exit(1)
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repetitions", "-n", type=int, default=3)
    parser.add_argument("--native", action="store_true", help="add -march=native")
    parser.add_argument("--out", help="also write the markdown to this file")
    parser.add_argument("--cxx", default=os.environ.get("CXX", "g++"))
    parser.add_argument("--include", default=str(INCLUDE), help="sinter's include directory")
    parser.add_argument("--libs", default=",".join(LIBRARIES),
                        help="comma-separated subset of " + ",".join(LIBRARIES))
    args = parser.parse_args()
    libs = [x for x in args.libs.split(",") if x]
    for lib in libs:
        if lib not in LIBRARIES:
            parser.error(f"unknown library {lib!r}")
    if args.repetitions < 1:
        parser.error("--repetitions must be at least 1")

    version = subprocess.run([args.cxx, "--version"], capture_output=True,
                             text=True).stdout.splitlines()
    load_before = os.getloadavg()
    samples: dict[tuple[str, str], list[tuple[float, float, int]]] = {}
    sizes: dict[tuple[str, str], int] = {}
    commands: dict[tuple[str, str], str] = {}
    with tempfile.TemporaryDirectory(prefix="sinter_compile_time_") as tmp:
        tmpdir = Path(tmp)
        units = {}
        for lib in libs:
            source = SOURCES / LIBRARIES[lib]["source"]
            units[(lib, "headers")] = header_only(source, tmpdir / f"{lib}_headers.cpp")
            units[(lib, "20")] = source
        for rep in range(args.repetitions):
            for lib in libs:
                for kind in ("headers", "20"):
                    obj = tmpdir / f"{lib}_{kind}.o"
                    cmd = [args.cxx] + flags(args, lib) + [str(units[(lib, kind)]), "-o", str(obj)]
                    commands[(lib, kind)] = shlex.join(cmd)
                    result = compile_once(cmd)
                    samples.setdefault((lib, kind), []).append(result)
                    sizes[(lib, kind)] = obj.stat().st_size
                    print(f"[{rep + 1}/{args.repetitions}] {lib:8s} {kind:8s} "
                          f"{result[0]:6.2f} s wall, {result[1]:6.2f} s CPU, "
                          f"{result[2] / 1024:5.0f} MiB", file=sys.stderr, flush=True)
    load_after = os.getloadavg()

    def stat(lib: str, kind: str, fn, field: int = 0) -> float:
        return fn([s[field] for s in samples[(lib, kind)]])

    out = ["## Compile time: 20 element-wise expressions", ""]
    out.append(f"- Date: {datetime.datetime.now().astimezone().isoformat(timespec='seconds')}")
    out.append(f"- Compiler: {version[0] if version else args.cxx}")
    out.append(f"- Flags: `{' '.join(flags(args, 'sinter'))}` "
               "(xtensor also `-DXTENSOR_USE_XSIMD`)")
    out.append(f"- {args.repetitions} compile(s) of each TU, one at a time, interleaved; "
               f"load average {load_before[0]:.2f} before, {load_after[0]:.2f} after "
               f"({os.cpu_count()} CPUs)")
    out.append("- Header-only TU: the #include lines of the 20-expression TU, nothing else. "
               f"Per expression = (20-expression time - header-only time) / {EXPRESSIONS}.")
    out.append("")
    header = ["library", "header only, s (min / median)", "20 expressions, s (min / median)",
              "per expression, ms (min / median)", "CPU s, 20 expr. (min)",
              "peak RSS, MiB", "object, KiB"]
    rows = []
    per_expr: dict[str, tuple[float, float]] = {}
    for lib in libs:
        h_min, h_med = stat(lib, "headers", min), stat(lib, "headers", statistics.median)
        t_min, t_med = stat(lib, "20", min), stat(lib, "20", statistics.median)
        per_expr[lib] = ((t_min - h_min) / EXPRESSIONS, (t_med - h_med) / EXPRESSIONS)
        rows.append([lib, f"{h_min:.2f} / {h_med:.2f}", f"{t_min:.2f} / {t_med:.2f}",
                     f"{1000 * per_expr[lib][0]:.0f} / {1000 * per_expr[lib][1]:.0f}",
                     f"{stat(lib, '20', min, 1):.2f}",
                     f"{stat(lib, '20', max, 2) / 1024:.0f}",
                     f"{sizes[(lib, '20')] / 1024:.0f}"])
    out.append("| " + " | ".join(header) + " |")
    out.append("|---|" + "---:|" * (len(header) - 1))
    out += ["| " + " | ".join(r) + " |" for r in rows]
    out.append("")

    if "sinter" in libs:
        for peer in [x for x in libs if x != "sinter"]:
            def r(kind: str, fn) -> float:
                return stat("sinter", kind, fn) / stat(peer, kind, fn)
            pe = [per_expr["sinter"][i] / per_expr[peer][i] if per_expr[peer][i] > 0
                  else float("nan") for i in (0, 1)]
            out.append(f"- sinter / {peer}: 20-expression TU {r('20', min):.2f}x (min), "
                       f"{r('20', statistics.median):.2f}x (median); header only "
                       f"{r('headers', min):.2f}x / {r('headers', statistics.median):.2f}x; "
                       f"per expression {pe[0]:.2f}x / {pe[1]:.2f}x")
        if "eigen" in libs:
            ratio = stat("sinter", "20", statistics.median) / stat("eigen", "20", statistics.median)
            verdict = "PASS" if ratio <= 1.0 else "MISS"
            out.append(f"- Target \"the 20-expression TU compiles no slower than the same code "
                       f"with Eigen\": **{verdict}** (sinter / Eigen = {ratio:.2f}, medians)")
        out.append("")
    out.append("Commands (one repetition):")
    out.append("")
    out.append("```sh")
    out += [commands[(lib, kind)] for lib in libs for kind in ("headers", "20")]
    out.append("```")
    text = "\n".join(out) + "\n"
    sys.stdout.write(text)
    if args.out:
        Path(args.out).write_text(text)
        print(f"compile_time.py: wrote {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
