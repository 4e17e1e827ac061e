#!/usr/bin/env python3
"""Run sinter's Google Benchmark suite and report it as markdown tables and plots.

    python3 bench/run.py --build build-bench [--out bench/results] [--repetitions 3]
                         [--min-time 0.05] [--filter REGEX]
    python3 bench/run.py --only-tables bench/results/bench_*.json [--out DIR]

Runs <build>/bench/{bench_stream,bench_babel,bench_math,bench_layout} (those
that exist, in that order), one at a time, each writing <out>/<name>.json, then
writes <out>/results.md (machine, command lines, STREAM reference, one table
per dtype and kernel, the Targets summary, which also counts the misses that
hold over every pairing of repetitions: "beyond the spread") and
<out>/gbps_<dtype>.png.
--only-tables regenerates results.md and the plots from existing JSON files
without running anything.

Benchmark naming contract (what the C++ programs register):
    <kernel>/<dtype>/<impl>/<n>      e.g. triad/f32/sinter_host/1048576
n is the element count; every benchmark sets bytes_per_second (each input read
once, each output written once). bench_stream registers stream_copy and
stream_triad with impl in {store_1t, store_2t, nt_1t, nt_2t}. Anything Google
Benchmark appends after the fourth component (/real_time, /threads:2, ...) is
ignored.

Bandwidth is the median over the repetitions of each benchmark, as GB/s of
wall-clock time (1 GB = 1e9 bytes). Google Benchmark divides bytes by CPU time
of the main thread unless the benchmark uses UseRealTime(), which overstates
multi-threaded runs whose main thread sleeps; this script converts such rates
to wall-clock time (bytes_per_second * cpu_time / real_time).

Standard library only, plus matplotlib for the plots (optional).
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import os
import platform
import re
import shlex
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

# ---------------------------------------------------------------------------
# Configuration: what is run, how it is classified, what the targets are.
# ---------------------------------------------------------------------------

EXECUTABLES = ["bench_stream", "bench_babel", "bench_math", "bench_layout"]

# Implementation columns, in this order; impls not listed here follow, sorted.
IMPLS = ["sinter_host", "sinter_par", "hand", "hand_omp", "unfused", "eigen",
         "eigen_tensor", "eigen_tensor_pool", "xtensor"]
SERIAL_PEERS = ["hand", "eigen", "eigen_tensor", "xtensor"]
PARALLEL_PEERS = ["hand_omp", "eigen_tensor_pool"]

# Kernel classification. Every kernel not in COMPUTE_BOUND is memory-bound;
# MEMORY_BOUND only documents the ones the suite is known to have.
COMPUTE_BOUND = ["exp_add", "tanh_chain", "black_scholes"]
MEMORY_BOUND = ["copy", "mul", "add", "triad", "dot", "sum_sq_diff",
                "row_broadcast", "strided"]

# STREAM reference (bench_stream).
STREAM_KERNELS = ["stream_copy", "stream_triad"]
STREAM_IMPLS = ["store_1t", "store_2t", "nt_1t", "nt_2t"]
R1_KEY = ("stream_triad", "nt_1t")  # R1: NT triad, 1 thread, largest n
R2_KEY = ("stream_triad", "nt_2t")  # R2: NT triad, 2 threads, largest n

DTYPES = ["f32", "f64"]  # table order; other dtypes follow, sorted

# Targets.
TARGET_A_MIN_N = 4096      # (a) host >= best serial peer for n >= this
TARGET_A_RATIO = 1.0
TARGET_B_OF_R1 = 0.95      # (b) memory-bound at largest n: host >= 95% of R1
TARGET_B_VS_HAND = 1.15    #     and host / hand >= 1.15
TARGET_C_MIN_N = 2 ** 20   # (c) compute-bound, n >= 2^20: par / host >= 1.8,
TARGET_C_SPEEDUP = 1.8     #     par >= eigen_tensor_pool; par >= host at every n
TARGET_D_N = 1024          # (d) at n = 1024: host >= best of all impls / 1.2
TARGET_D_SLACK = 1.2

NOISY_CV = 0.05            # repetitions whose CV exceeds this are listed

DASH = "–"


def is_compute_bound(kernel: str) -> bool:
    return kernel in COMPUTE_BOUND


# ---------------------------------------------------------------------------
# Parsing Google Benchmark JSON.
# ---------------------------------------------------------------------------

class Result:
    """One benchmark (kernel, dtype, impl, n) after aggregation."""

    def __init__(self) -> None:
        self.samples: list[float] = []   # wall-clock bytes/s, one per repetition
        self.skip_message: str | None = None
        self.aggregate_median: float | None = None
        self.order = (0, 0, 0)

    @property
    def gbps(self) -> float | None:
        if self.samples:
            return statistics.median(self.samples) / 1e9
        if self.aggregate_median is not None:
            return self.aggregate_median / 1e9
        return None

    @property
    def cv(self) -> float | None:
        if len(self.samples) < 2:
            return None
        mean = statistics.fmean(self.samples)
        return statistics.stdev(self.samples) / mean if mean > 0 else None


def load_json(path: Path) -> dict | None:
    text = path.read_text(errors="replace")
    if not text.strip():
        return None
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        # Google Benchmark may print bare nan / inf for a degenerate counter.
        fixed = re.sub(r'(?<=[:\[,\s])(-?)(nan|inf)(?=[,\]\s}])',
                       lambda m: "null", text, flags=re.IGNORECASE)
        return json.loads(fixed)


def parse_name(name: str) -> tuple[str, str, str, int, bool] | None:
    """(kernel, dtype, impl, n, rates_are_wall_clock) or None if off-contract."""
    parts = name.split("/")
    if len(parts) < 4:
        return None
    kernel, dtype, impl, n = parts[:4]
    try:
        n_value = int(n)
    except ValueError:
        return None
    wall = any(p in ("real_time", "manual_time") for p in parts[4:])
    return kernel, dtype, impl, n_value, wall


def wall_rate(entry: dict, wall: bool) -> float | None:
    bps = entry.get("bytes_per_second")
    if bps is None or not isinstance(bps, (int, float)) or not math.isfinite(bps):
        return None
    if wall:
        return float(bps)
    cpu, real = entry.get("cpu_time"), entry.get("real_time")
    if isinstance(cpu, (int, float)) and isinstance(real, (int, float)) and cpu > 0 and real > 0:
        return float(bps) * cpu / real
    return float(bps)


def is_skipped(entry: dict) -> str | None:
    if entry.get("error_occurred"):
        return entry.get("error_message") or "error"
    skipped = entry.get("skipped")
    if skipped and skipped not in ("NotSkipped", "false"):
        return entry.get("skip_message") or entry.get("error_message") or "skipped"
    return None


def collect(json_paths: list[Path]) -> tuple[dict, list[dict], list[str]]:
    """results[(kernel, dtype, impl, n)] = Result; contexts; ignored names."""
    results: dict[tuple[str, str, str, int], Result] = {}
    contexts: list[dict] = []
    ignored: list[str] = []
    for file_index, path in enumerate(json_paths):
        data = load_json(path)
        if data is None:
            print(f"run.py: {path} is empty (no benchmark matched?)", file=sys.stderr)
            continue
        ctx = dict(data.get("context", {}))
        ctx["_file"] = str(path)
        contexts.append(ctx)
        for entry in data.get("benchmarks", []):
            run_name = entry.get("run_name") or entry.get("name", "")
            if entry.get("run_type") == "aggregate" and "run_name" not in entry:
                run_name = re.sub(r"_(mean|median|stddev|cv)$", "", run_name)
            parsed = parse_name(run_name)
            if parsed is None:
                ignored.append(entry.get("name", "?"))
                continue
            kernel, dtype, impl, n, wall = parsed
            # The aggregates' names lack the suffixes; take them from "name".
            name_parsed = parse_name(entry.get("name", ""))
            if name_parsed is not None:
                wall = wall or name_parsed[4]
            res = results.setdefault((kernel, dtype, impl, n), Result())
            order = (file_index, entry.get("family_index", 0),
                     entry.get("per_family_instance_index", 0))
            if res.order == (0, 0, 0) or order < res.order:
                res.order = order
            skip = is_skipped(entry)
            if skip is not None:
                res.skip_message = skip
                continue
            if entry.get("run_type", "iteration") == "iteration":
                rate = wall_rate(entry, wall)
                if rate is None:
                    res.skip_message = res.skip_message or "no bytes_per_second"
                else:
                    res.samples.append(rate)
            elif entry.get("aggregate_name") == "median":
                rate = wall_rate(entry, wall)
                if rate is not None:
                    res.aggregate_median = rate
    return results, contexts, sorted(set(ignored))


# ---------------------------------------------------------------------------
# Machine description.
# ---------------------------------------------------------------------------

def run_text(cmd: list[str]) -> str:
    try:
        return subprocess.run(cmd, capture_output=True, text=True, check=False,
                              timeout=30).stdout
    except (OSError, subprocess.TimeoutExpired):
        return ""


def cmake_cache(build: Path) -> dict[str, str]:
    cache = {}
    path = build / "CMakeCache.txt"
    if path.exists():
        for line in path.read_text(errors="replace").splitlines():
            m = re.match(r"^([A-Za-z0-9_]+):[A-Z]+=(.*)$", line)
            if m:
                cache[m.group(1)] = m.group(2)
    return cache


def machine_info(build: Path | None) -> dict:
    info: dict = {}
    lscpu = run_text(["lscpu"])
    fields = {}
    for line in lscpu.splitlines():
        if ":" in line:
            key, value = line.split(":", 1)
            fields[key.strip()] = value.strip()
    info["cpu"] = fields.get("Model name", platform.processor() or "unknown")
    sockets = fields.get("Socket(s)", "?")
    cores = fields.get("Core(s) per socket", "?")
    tpc = fields.get("Thread(s) per core", "?")
    info["cores"] = (f"{fields.get('CPU(s)', os.cpu_count())} logical CPUs "
                     f"({sockets} socket(s) x {cores} core(s) x {tpc} thread(s))")
    caches = []
    table = run_text(["lscpu", "-C"]).splitlines()
    if len(table) > 1 and table[0].split()[:3] == ["NAME", "ONE-SIZE", "ALL-SIZE"]:
        for row in table[1:]:
            cols = row.split()
            if len(cols) >= 3:
                caches.append(f"{cols[0]} {cols[1]} per instance ({cols[2]} total)")
    else:
        for key in ("L1d cache", "L1i cache", "L2 cache", "L3 cache"):
            if key in fields:
                caches.append(f"{key.split()[0]} {fields[key]}")
    info["caches"] = "; ".join(caches) or "unknown"
    if fields.get("Hypervisor vendor"):
        info["cpu"] += f" (virtualised: {fields['Hypervisor vendor']})"
    cache = cmake_cache(build) if build else {}
    cxx = cache.get("CMAKE_CXX_COMPILER") or shutil.which("g++") or "g++"
    version = run_text([cxx, "--version"]).splitlines()
    info["compiler"] = f"{cxx}: {version[0] if version else 'unknown'}"
    build_type = cache.get("CMAKE_BUILD_TYPE", "")
    if cache:
        flags = " ".join(x for x in (cache.get("CMAKE_CXX_FLAGS", ""),
                                     cache.get(f"CMAKE_CXX_FLAGS_{build_type.upper()}", ""))
                         if x)
        info["build"] = (f"CMAKE_BUILD_TYPE={build_type or '(empty)'}, flags '{flags}', "
                         f"SINTER_BENCH_NATIVE={cache.get('SINTER_BENCH_NATIVE', 'OFF')}")
    info["os"] = platform.platform()
    info["date"] = datetime.datetime.now().astimezone().isoformat(timespec="seconds")
    try:
        info["load_average"] = " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        pass
    return info


def info_from_contexts(contexts: list[dict]) -> dict:
    info: dict = {}
    if not contexts:
        return info
    ctx = contexts[0]
    info["date"] = ctx.get("date", "unknown")
    info["cores"] = f"{ctx.get('num_cpus', '?')} CPUs at {ctx.get('mhz_per_cpu', '?')} MHz"
    info["caches"] = "; ".join(
        f"L{c.get('level')} {c.get('type')} {c.get('size', 0) // 1024} KiB"
        f" (shared by {c.get('num_sharing')})" for c in ctx.get("caches", []))
    info["host"] = ctx.get("host_name", "?")
    return info


# ---------------------------------------------------------------------------
# Formatting helpers.
# ---------------------------------------------------------------------------

def fmt_n(n: int) -> str:
    if n > 0 and n & (n - 1) == 0:
        return f"2^{n.bit_length() - 1}"
    return str(n)


def fmt_gbps(v: float | None) -> str:
    return DASH if v is None else f"{v:.1f}"


def fmt_ratio(r: float | None, bold_below: float | None = 1.0) -> str:
    if r is None:
        return DASH
    text = f"{r:.2f}"
    if bold_below is not None and r < bold_below:
        if float(text) >= bold_below:  # 0.997 would print as 1.00
            text = f"{r:.3f}"
        return f"**{text}**"
    return text


def fmt_pct(r: float | None, bold_below: float | None = None) -> str:
    if r is None:
        return DASH
    text = f"{100 * r:.1f}%"
    if bold_below is not None and r < bold_below:
        return f"**{text}**"
    return text


def ratio(a: float | None, b: float | None) -> float | None:
    if a is None or b is None or b <= 0:
        return None
    return a / b


def impl_order(impls) -> list[str]:
    known = [i for i in IMPLS if i in impls]
    return known + sorted(i for i in impls if i not in IMPLS)


def dtype_order(dtypes) -> list[str]:
    return [d for d in DTYPES if d in dtypes] + sorted(d for d in dtypes if d not in DTYPES)


def md_table(header: list[str], rows: list[list[str]], right_from: int = 0) -> list[str]:
    align = ["---:" if i >= right_from else "---" for i in range(len(header))]
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(align) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return lines


# ---------------------------------------------------------------------------
# Analysis.
# ---------------------------------------------------------------------------

class Data:
    def __init__(self, results: dict) -> None:
        self.results = results
        self.gbps = {k: r.gbps for k, r in results.items()}
        order: dict[tuple[str, str], tuple] = {}
        for (kernel, dtype, impl, n), res in results.items():
            key = (dtype, kernel)
            order[key] = min(order.get(key, res.order), res.order)
        self.order = order

    def dtypes(self) -> list[str]:
        return dtype_order({d for (_, d, _, _) in self.results})

    def kernels(self, dtype: str, stream: bool = False) -> list[str]:
        ks = {k for (k, d, _, _) in self.results if d == dtype
              and (k in STREAM_KERNELS) == stream}
        if stream:
            return sorted(ks, key=lambda k: (STREAM_KERNELS.index(k), k))
        return sorted(ks, key=lambda k: (self.order[(dtype, k)], k))

    def impls(self, dtype: str, kernel: str) -> list[str]:
        return impl_order({i for (k, d, i, _) in self.results if d == dtype and k == kernel})

    def sizes(self, dtype: str, kernel: str) -> list[int]:
        return sorted({n for (k, d, _, n) in self.results if d == dtype and k == kernel})

    def get(self, kernel: str, dtype: str, impl: str, n: int) -> float | None:
        return self.gbps.get((kernel, dtype, impl, n))

    def spread(self, kernel: str, dtype: str, impl: str, n: int) -> tuple[float | None, float | None]:
        """The slowest and the fastest repetition, GB/s (the median twice
        where the repetitions are not in the JSON)."""
        res = self.results.get((kernel, dtype, impl, n))
        if res is None:
            return None, None
        if res.samples:
            return min(res.samples) / 1e9, max(res.samples) / 1e9
        return res.gbps, res.gbps

    def best(self, kernel, dtype, impls, n) -> tuple[float | None, str | None]:
        vals = [(self.get(kernel, dtype, i, n), i) for i in impls]
        vals = [(v, i) for v, i in vals if v is not None]
        if not vals:
            return None, None
        return max(vals)

    def reference_cell(self, key: tuple[str, str]) -> tuple[str, int] | None:
        """(dtype, n) of a reference bandwidth: its largest measured n, f64 first."""
        kernel, impl = key
        for dtype in ["f64"] + [d for d in self.dtypes() if d != "f64"]:
            sizes = [n for n in self.sizes(dtype, kernel)
                     if self.get(kernel, dtype, impl, n) is not None]
            if sizes:
                return dtype, max(sizes)
        return None

    def reference(self, key: tuple[str, str]) -> tuple[float | None, str]:
        cell = self.reference_cell(key)
        if cell is None:
            return None, "not measured"
        (kernel, impl), (dtype, n) = key, cell
        return self.get(kernel, dtype, impl, n), f"{kernel}/{dtype}/{impl}/{fmt_n(n)}"


class Check:
    """One target over its cells. Each cell has its ratio of medians and its
    best case: sinter's fastest repetition against the other side's slowest.
    A miss whose best case misses too is "beyond the spread": no pairing of
    the repetitions meets the target."""

    def __init__(self, label: str, text: str, threshold: float, unit: str = "x") -> None:
        self.label, self.text, self.threshold, self.unit = label, text, threshold, unit
        self.cases: list[tuple[float, str]] = []
        self.best_cases: list[float | None] = []
        self.missing: list[str] = []

    def add(self, value: float | None, where: str, best_case: float | None = None) -> None:
        if value is None:
            self.missing.append(where)
        else:
            self.cases.append((value, where))
            self.best_cases.append(best_case)

    def clear_miss_cells(self) -> list[tuple[float, float, str]]:
        """(ratio, best case, where) of the misses beyond the spread, worst first."""
        return sorted((v, b, where) for (v, where), b in zip(self.cases, self.best_cases)
                      if v < self.threshold and b is not None and b < self.threshold)

    def clear_misses(self) -> int:
        return len(self.clear_miss_cells())

    def fmt(self, value: float) -> str:
        return fmt_pct(value) if self.unit == "%" else f"{value:.3f}"

    def row(self) -> list[str]:
        if not self.cases:
            status, worst = "N/A", "no data"
        else:
            misses = [c for c in self.cases if c[0] < self.threshold]
            status = (f"**MISS** ({len(misses)} of {len(self.cases)})" if misses
                      else f"PASS ({len(self.cases)} cases)")
            value, where = min(self.cases)
            worst = f"{self.fmt(value)}: {where}"
        if self.missing:
            worst += f" ({len(self.missing)} not measured)"
        clear = str(self.clear_misses()) if self.cases else DASH
        return [self.label, self.text, status, clear, worst]


def evaluate_targets(data: Data, r1: float | None) -> list[Check]:
    cell = data.reference_cell(R1_KEY)
    r1_slowest = data.spread(R1_KEY[0], cell[0], R1_KEY[1], cell[1])[0] if cell else None
    a = Check("(a)", f"sinter_host / best serial peer ({', '.join(SERIAL_PEERS)}) "
              f">= {TARGET_A_RATIO:.2f}, every kernel, n >= {TARGET_A_MIN_N}", TARGET_A_RATIO)
    b1 = Check("(b1)", f"memory-bound kernels, largest n: sinter_host >= "
               f"{100 * TARGET_B_OF_R1:.0f}% of R1 (NT triad 1t)", TARGET_B_OF_R1, "%")
    b2 = Check("(b2)", f"memory-bound kernels, largest n: sinter_host / hand >= "
               f"{TARGET_B_VS_HAND:.2f}", TARGET_B_VS_HAND)
    c1 = Check("(c1)", f"compute-bound kernels, n >= {fmt_n(TARGET_C_MIN_N)}: "
               f"sinter_par / sinter_host >= {TARGET_C_SPEEDUP:.1f}", TARGET_C_SPEEDUP)
    c2 = Check("(c2)", f"compute-bound kernels, n >= {fmt_n(TARGET_C_MIN_N)}: "
               "sinter_par / eigen_tensor_pool >= 1.00", 1.0)
    c3 = Check("(c3)", "compute-bound kernels, every n: sinter_par / sinter_host >= 1.00 "
               "(no tolerance)", 1.0)
    d = Check("(d)", f"n = {TARGET_D_N}: sinter_host >= best of all impls / {TARGET_D_SLACK} "
              f"(ratio host / best >= {1 / TARGET_D_SLACK:.3f})", 1 / TARGET_D_SLACK)
    for dtype in data.dtypes():
        for kernel in data.kernels(dtype):
            impls = data.impls(dtype, kernel)
            sizes = data.sizes(dtype, kernel)
            g = lambda impl, n: data.get(kernel, dtype, impl, n)  # noqa: E731
            tag = lambda n: f"{kernel} {dtype} n={fmt_n(n)}"  # noqa: E731
            # best case of num / den: num's fastest repetition, den's slowest
            bc = lambda num, den, n: ratio(data.spread(kernel, dtype, num, n)[1],  # noqa: E731
                                           data.spread(kernel, dtype, den, n)[0])
            for n in sizes:
                host, par = g("sinter_host", n), g("sinter_par", n)
                if n >= TARGET_A_MIN_N and any(p in impls for p in SERIAL_PEERS):
                    peer, who = data.best(kernel, dtype, SERIAL_PEERS, n)
                    a.add(ratio(host, peer), f"{tag(n)} vs {who}",
                          bc("sinter_host", who, n) if who else None)
                if is_compute_bound(kernel) and "sinter_par" in impls:
                    if n >= TARGET_C_MIN_N:
                        c1.add(ratio(par, host), tag(n), bc("sinter_par", "sinter_host", n))
                        if "eigen_tensor_pool" in impls:
                            c2.add(ratio(par, g("eigen_tensor_pool", n)), tag(n),
                                   bc("sinter_par", "eigen_tensor_pool", n))
                    c3.add(ratio(par, host), tag(n), bc("sinter_par", "sinter_host", n))
                if n == TARGET_D_N:
                    others = [i for i in impls if i != "sinter_host"]
                    if others:
                        best, who = data.best(kernel, dtype, others, n)
                        d.add(ratio(host, best), f"{tag(n)} vs {who}",
                              bc("sinter_host", who, n) if who else None)
            if sizes and not is_compute_bound(kernel):
                n = sizes[-1]
                if r1 is not None:
                    b1.add(ratio(g("sinter_host", n), r1), tag(n),
                           ratio(data.spread(kernel, dtype, "sinter_host", n)[1], r1_slowest))
                if "hand" in impls:
                    b2.add(ratio(g("sinter_host", n), g("hand", n)), tag(n), bc("sinter_host", "hand", n))
    return [a, b1, b2, c1, c2, c3, d]


def target_a_for_each(data: Data) -> list[list[str]]:
    """Target (a)'s rule applied to every serial implementation in turn: over
    the cells (a) checks, how often the implementation is at least as fast
    as the best of the others, and its median ratio to that best, for the
    memory-bound and the compute-bound kernels apart. Where implementations
    run level, the fastest of four noisy medians sets the bar, so even the
    usual leader meets the rule only in part of the cells: this table says
    how far (a)'s misses are sinter's and how far the rule's."""
    everyone = ["sinter_host"] + SERIAL_PEERS
    ratios: dict[tuple[bool, str], list[float]] = {}
    for dtype in data.dtypes():
        for kernel in data.kernels(dtype):
            for n in data.sizes(dtype, kernel):
                if n < TARGET_A_MIN_N:
                    continue
                for impl in everyone:
                    best, _ = data.best(kernel, dtype, [i for i in everyone if i != impl], n)
                    r = ratio(data.get(kernel, dtype, impl, n), best)
                    if r is not None:
                        ratios.setdefault((is_compute_bound(kernel), impl), []).append(r)
    rows = []
    for compute in (False, True):
        for impl in everyone:
            rs = ratios.get((compute, impl))
            if rs:
                rows.append(["compute-bound" if compute else "memory-bound", impl,
                             f"{sum(r >= TARGET_A_RATIO for r in rs)} of {len(rs)}",
                             f"{statistics.median(rs):.3f}", f"{min(rs):.3f}"])
    return rows


# ---------------------------------------------------------------------------
# Markdown.
# ---------------------------------------------------------------------------

def write_markdown(path: Path, data: Data, info: dict, commands: list[str],
                   notes: list[str], contexts: list[dict], ignored: list[str]) -> None:
    r1, r1_src = data.reference(R1_KEY)
    r2, r2_src = data.reference(R2_KEY)
    out: list[str] = ["# sinter benchmark results", ""]
    out.append("## Machine and commands")
    out.append("")
    labels = [("date", "Date"), ("host", "Host"), ("cpu", "CPU"), ("cores", "Cores"),
              ("caches", "Caches"), ("compiler", "Compiler"), ("build", "Build"),
              ("os", "OS"), ("load_average", "Load average at start")]
    for key, label in labels:
        if info.get(key):
            out.append(f"- **{label}**: {info[key]}")
    build_types = sorted({c.get("library_build_type", "?") for c in contexts})
    if build_types:
        out.append(f"- **Google Benchmark library build type** (as it reports itself): "
                   f"{', '.join(build_types)}")
    out.append("")
    if commands:
        out.append("```sh")
        out += commands
        out.append("```")
        out.append("")
    out += [f"> {n}" for n in notes]
    if notes:
        out.append("")
    out.append("GB/s = 1e9 bytes per second of wall-clock time, minimum traffic (each "
               "input read once, each output written once), median of the repetitions. "
               f"{DASH} = skipped or not measured. **Bold**: a ratio below 1.00 (or "
               f"below {100 * TARGET_B_OF_R1:.0f}% of NT triad for a memory-bound kernel). "
               "\"best serial peer\" = max of "
               f"{{{', '.join(SERIAL_PEERS)}}}, \"best parallel peer\" = max of "
               f"{{{', '.join(PARALLEL_PEERS)}}}. Compute-bound kernels: "
               f"{', '.join(COMPUTE_BOUND)}; every other kernel counts as memory-bound.")
    out.append("")

    # STREAM reference.
    out.append("## STREAM reference")
    out.append("")
    any_stream = False
    for dtype in data.dtypes():
        for kernel in data.kernels(dtype, stream=True):
            any_stream = True
            impls = [i for i in STREAM_IMPLS if i in data.impls(dtype, kernel)]
            impls += [i for i in data.impls(dtype, kernel) if i not in impls]
            out.append(f"### {kernel} ({dtype}), GB/s")
            out.append("")
            rows = [[fmt_n(n)] + [fmt_gbps(data.get(kernel, dtype, i, n)) for i in impls]
                    for n in data.sizes(dtype, kernel)]
            out += md_table(["n"] + impls, rows, right_from=1)
            out.append("")
    if not any_stream:
        out.append("bench_stream was not run: no reference bandwidth.")
        out.append("")
    out.append(f"- **R1** (NT triad, 1 thread, largest n) = {fmt_gbps(r1)} GB/s ({r1_src})")
    out.append(f"- **R2** (NT triad, 2 threads, largest n) = {fmt_gbps(r2)} GB/s ({r2_src})")
    out.append("")

    # Per-kernel tables.
    for dtype in data.dtypes():
        kernels = data.kernels(dtype)
        if not kernels:
            continue
        out.append(f"## {dtype}")
        out.append("")
        for kernel in kernels:
            impls = data.impls(dtype, kernel)
            sizes = data.sizes(dtype, kernel)
            kind = "compute-bound" if is_compute_bound(kernel) else "memory-bound"
            out.append(f"### {kernel} ({dtype}, {kind}), GB/s")
            out.append("")
            header = (["n"] + impls + ["host / best serial peer", "par / host",
                                       "par / best parallel peer",
                                       "host % of NT triad 1t", "par % of NT triad 2t"])
            rows = []
            for n in sizes:
                g = lambda impl: data.get(kernel, dtype, impl, n)  # noqa: E731
                host, par = g("sinter_host"), g("sinter_par")
                serial, _ = data.best(kernel, dtype, SERIAL_PEERS, n)
                parallel, _ = data.best(kernel, dtype, PARALLEL_PEERS, n)
                row = [fmt_n(n)] + [fmt_gbps(g(i)) for i in impls]
                row += [fmt_ratio(ratio(host, serial)), fmt_ratio(ratio(par, host)),
                        fmt_ratio(ratio(par, parallel))]
                if n == sizes[-1]:
                    row += [fmt_pct(ratio(host, r1),
                                    None if is_compute_bound(kernel) else TARGET_B_OF_R1),
                            fmt_pct(ratio(par, r2))]
                else:
                    row += ["", ""]
                rows.append(row)
            out += md_table(header, rows, right_from=1)
            out.append("")

    # Targets.
    out.append("## Targets")
    out.append("")
    checks = evaluate_targets(data, r1)
    out += md_table(["check", "requirement", "result", "misses beyond the spread", "worst case"],
                    [c.row() for c in checks], right_from=5)
    out.append("")
    out.append("A miss is beyond the spread when even sinter's fastest repetition "
               "against the other side's slowest (for (b1), R1's slowest) misses the target. "
               "Those misses (ratio of medians, best case):")
    out.append("")
    for c in checks:
        cells = c.clear_miss_cells()
        if cells:
            out.append(f"- {c.label}: " + "; ".join(f"{where} {c.fmt(v)} ({c.fmt(b)})" for v, b, where in cells))
    out.append("")
    each = target_a_for_each(data)
    if each:
        out.append("Target (a)'s rule applied to each serial implementation in turn "
                   f"(n >= {TARGET_A_MIN_N}; its GB/s against the best of the other four, medians):")
        out.append("")
        out += md_table(["kernels", "implementation", f"cells at >= {TARGET_A_RATIO:.2f}", "median ratio", "lowest"],
                        each, right_from=2)
        out.append("")

    # Noise.
    noisy = sorted(((r.cv, k) for k, r in data.results.items()
                    if r.cv is not None and r.cv > NOISY_CV), reverse=True)
    if noisy:
        out.append("## Noisy measurements")
        out.append("")
        out.append(f"{len(noisy)} benchmark(s) vary by more than {100 * NOISY_CV:.0f}% "
                   "(coefficient of variation over the repetitions); the worst:")
        out.append("")
        for cv, (kernel, dtype, impl, n) in noisy[:10]:
            out.append(f"- {kernel}/{dtype}/{impl}/{n}: CV {100 * cv:.1f}%")
        out.append("")
    skipped = sorted(k for k, r in data.results.items() if r.gbps is None)
    if skipped:
        out.append(f"Skipped: {len(skipped)} benchmark(s), e.g. "
                   + "; ".join(f"{'/'.join(map(str, k))} ({data.results[k].skip_message})"
                               for k in skipped[:5]) + ".")
        out.append("")
    if ignored:
        out.append(f"Ignored (name not `<kernel>/<dtype>/<impl>/<n>`): "
                   + ", ".join(f"`{x}`" for x in ignored[:10])
                   + (" ..." if len(ignored) > 10 else ""))
        out.append("")
    path.write_text("\n".join(out))
    print(f"run.py: wrote {path}")
    for c in checks:
        label, _, status, clear, worst = c.row()
        print(f"  {label}  {status}  {clear} beyond the spread  {worst}".replace("**", ""))


# ---------------------------------------------------------------------------
# Plots.
# ---------------------------------------------------------------------------

COLORS = {
    "sinter_host": "#1f77b4", "sinter_par": "#d62728", "hand": "#000000",
    "hand_omp": "#7f7f7f", "unfused": "#8c564b", "eigen": "#2ca02c",
    "eigen_tensor": "#bcbd22", "eigen_tensor_pool": "#17becf", "xtensor": "#9467bd",
    "store_1t": "#ff7f0e", "store_2t": "#ffbb78", "nt_1t": "#e377c2", "nt_2t": "#f7b6d2",
}
EXTRA_COLORS = ["#393b79", "#637939", "#8c6d31", "#843c39", "#7b4173", "#3182bd"]


def write_plots(out_dir: Path, data: Data, reps_note: str) -> list[Path]:
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        from matplotlib.ticker import FuncFormatter, FixedLocator, NullLocator
    except ImportError:
        print("run.py: matplotlib is missing, no plots: pip install matplotlib",
              file=sys.stderr)
        return []
    r1, _ = data.reference(R1_KEY)
    r2, _ = data.reference(R2_KEY)
    written = []
    extra: dict[str, str] = {}
    for dtype in data.dtypes():
        kernels = data.kernels(dtype) + data.kernels(dtype, stream=True)
        if not kernels:
            continue
        ncols = min(4, len(kernels))
        nrows = math.ceil(len(kernels) / ncols)
        legend_rows = math.ceil((len(IMPLS) + 2) / 8)  # estimate, fixed below
        height = 3.4 * nrows + 1.0 + 0.3 * legend_rows
        fig, axes = plt.subplots(nrows, ncols, figsize=(16, height), dpi=100,
                                 squeeze=False)
        handles: dict[str, object] = {}
        for ax, kernel in zip(axes.flat, kernels):
            sizes = data.sizes(dtype, kernel)
            ymax = 0.0
            for impl in data.impls(dtype, kernel) if kernel not in STREAM_KERNELS else \
                    [i for i in STREAM_IMPLS if i in data.impls(dtype, kernel)] + \
                    [i for i in data.impls(dtype, kernel) if i not in STREAM_IMPLS]:
                pts = [(n, data.get(kernel, dtype, impl, n)) for n in sizes]
                if all(v is None for _, v in pts):
                    continue
                # A skipped size breaks the line (NaN) rather than bridging it.
                pts = [(n, math.nan if v is None else v) for n, v in pts]
                if impl not in COLORS and impl not in extra:
                    extra[impl] = EXTRA_COLORS[len(extra) % len(EXTRA_COLORS)]
                color = COLORS.get(impl) or extra[impl]
                thick = impl.startswith("sinter")
                (line,) = ax.plot([p[0] for p in pts], [p[1] for p in pts],
                                  color=color, lw=3.2 if thick else 1.4,
                                  marker="o" if thick else ".", ms=5 if thick else 4,
                                  ls="--" if impl.endswith(("_omp", "_pool", "_2t")) else "-",
                                  zorder=3 if thick else 2, label=impl)
                handles.setdefault(impl, line)
                ymax = max([ymax] + [v for _, v in pts if not math.isnan(v)])
            ymax = ymax * 1.08 or 1.0
            data_max = ymax
            off_scale = []
            for value, label, color, x in ((r1, "NT triad 1t", "#444444", 0.01),
                                           (r2, "NT triad 2t", "#aa4444", 0.99)):
                if value is None:
                    continue
                if value <= 1.5 * data_max:
                    line = ax.axhline(value, ls="--", lw=1.2, color=color, zorder=1,
                                      label=f"{label} ({value:.1f} GB/s)")
                    handles.setdefault(label, line)
                    ax.text(x, value, f" {label} ", transform=ax.get_yaxis_transform(),
                            va="bottom", ha="left" if x < 0.5 else "right", fontsize=8,
                            color=color)
                    ymax = max(ymax, value * 1.08)
                else:
                    off_scale.append(f"{label} {value:.0f}")
            if off_scale:
                ymax *= 1.12  # room for the note above the lines
                ax.text(0.99, 0.98, "off scale: " + ", ".join(off_scale) + " GB/s",
                        transform=ax.transAxes, ha="right", va="top", fontsize=8,
                        color="#444444")
            ax.set_ylim(0, ymax)
            ax.set_xscale("log", base=2)
            exps = sorted({int(round(math.log2(n))) for n in sizes if n > 0})
            if exps:
                span = exps[-1] - exps[0] + 1
                step = 1 if span <= 8 else 2 if span <= 16 else 3
                ticks = [2.0 ** e for e in range(exps[0], exps[-1] + 1, step)]
                ax.xaxis.set_major_locator(FixedLocator(ticks))
                ax.xaxis.set_minor_locator(NullLocator())
                ax.xaxis.set_major_formatter(
                    FuncFormatter(lambda x, _: f"$2^{{{int(round(math.log2(x)))}}}$"))
                lo, hi = 2.0 ** exps[0], 2.0 ** exps[-1]
                ax.set_xlim(lo / 1.3, hi * 1.3)
            kind = ("STREAM" if kernel in STREAM_KERNELS
                    else "compute-bound" if is_compute_bound(kernel) else "memory-bound")
            ax.set_title(f"{kernel} ({kind})", fontsize=12)
            ax.grid(True, which="major", alpha=0.3)
            ax.tick_params(labelsize=9)
        for ax in axes.flat[len(kernels):]:
            ax.set_visible(False)
        for row in axes:
            row[0].set_ylabel("GB/s")
        for c in range(ncols):  # last visible row of each column gets the x label
            for r in range(nrows - 1, -1, -1):
                if axes[r][c].get_visible():
                    axes[r][c].set_xlabel("n (elements)")
                    break
        order = impl_order([h for h in handles if h not in STREAM_IMPLS
                            and not h.startswith("NT triad")])
        order += [h for h in STREAM_IMPLS if h in handles]
        order += [h for h in handles if h.startswith("NT triad")]
        fig.suptitle(f"sinter benchmarks, {dtype}: GB/s vs n ({reps_note})",
                     fontsize=14, y=1.0 - 0.12 / height, va="top")
        rows = math.ceil(len(order) / 8)
        ncol = math.ceil(len(order) / rows)
        # matplotlib fills legend columns first: reorder so it reads by rows.
        grid = [order[i:i + ncol] for i in range(0, len(order), ncol)]
        by_rows = [r[c] for c in range(ncol) for r in grid if c < len(r)]
        legend = fig.legend([handles[h] for h in by_rows],
                            [handles[h].get_label() for h in by_rows],
                            loc="upper center", ncol=ncol, fontsize=10, frameon=False,
                            bbox_to_anchor=(0.5, 1.0 - 0.45 / height))
        fig.canvas.draw()
        bottom = legend.get_window_extent().transformed(fig.transFigure.inverted()).y0
        fig.tight_layout(rect=(0, 0, 1, bottom - 0.05 / height))
        # tight_layout leaves a wide margin under a figure legend: close it.
        fig.canvas.draw()
        inverse = fig.transFigure.inverted()
        titles_top = max(inverse.transform(ax.title.get_window_extent().corners())[:, 1].max()
                         for ax in axes.flat if ax.get_visible())
        fig.subplots_adjust(top=fig.subplotpars.top + (bottom - 0.08 / height - titles_top))
        path = out_dir / f"gbps_{dtype}.png"
        fig.savefig(path)
        plt.close(fig)
        written.append(path)
        print(f"run.py: wrote {path}")
    return written


# ---------------------------------------------------------------------------
# Running.
# ---------------------------------------------------------------------------

def run_suite(args, out_dir: Path) -> tuple[list[Path], list[str], list[str]]:
    bench_dir = Path(args.build) / "bench"
    jsons, commands, notes = [], [], []
    for name in EXECUTABLES:
        exe = bench_dir / name
        json_path = out_dir / f"{name}.json"
        if json_path.exists():
            json_path.unlink()  # never report a stale file
        if not (exe.is_file() and os.access(exe, os.X_OK)):
            print(f"run.py: {exe} not built, skipped", file=sys.stderr)
            notes.append(f"{name}: not built ({exe} missing), not run.")
            continue
        cmd = [str(exe),
               "--benchmark_enable_random_interleaving=true",
               f"--benchmark_repetitions={args.repetitions}",
               f"--benchmark_min_time={args.min_time}",
               "--benchmark_report_aggregates_only=false",
               "--benchmark_format=console",
               f"--benchmark_out={json_path}",
               "--benchmark_out_format=json"]
        if args.filter:
            cmd.append(f"--benchmark_filter={args.filter}")
        commands.append(shlex.join(cmd))
        print(f"run.py: {shlex.join(cmd)}", flush=True)
        log_path = out_dir / f"{name}.txt"
        with open(log_path, "w") as log:
            proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                    text=True, bufsize=1)
            assert proc.stdout is not None
            for line in proc.stdout:
                sys.stdout.write(line)
                log.write(line)
            rc = proc.wait()
        if rc != 0:
            print(f"run.py: {name} exited with status {rc}", file=sys.stderr)
            notes.append(f"{name} exited with status {rc}; its results may be partial.")
        if json_path.exists() and json_path.stat().st_size > 0:
            jsons.append(json_path)
        else:
            notes.append(f"{name}: no JSON written (no benchmark matched the filter?).")
    return jsons, commands, notes


def main() -> int:
    parser = argparse.ArgumentParser(
        description="Run sinter's Google Benchmark suite; write results.md and plots.")
    parser.add_argument("--build", help="CMake build directory (executables in <build>/bench)")
    parser.add_argument("--out", default=str(Path(__file__).resolve().parent / "results"),
                        help="output directory (default: bench/results)")
    parser.add_argument("--repetitions", type=int, default=3)
    parser.add_argument("--min-time", default="0.05",
                        help="seconds per repetition (Google Benchmark 1.7: a plain number)")
    parser.add_argument("--filter", help="--benchmark_filter regex passed to every program")
    parser.add_argument("--only-tables", nargs="+", metavar="JSON",
                        help="regenerate the outputs from these JSON files; run nothing")
    args = parser.parse_args()
    out_dir = Path(args.out)
    out_dir.mkdir(parents=True, exist_ok=True)

    if args.only_tables:
        jsons = [Path(p) for p in args.only_tables]
        missing = [p for p in jsons if not p.is_file()]
        if missing:
            parser.error(f"no such file: {', '.join(map(str, missing))}")
        meta_path = jsons[0].parent / "machine.json"
        if meta_path.is_file():
            meta = json.loads(meta_path.read_text())
            info, commands, notes = meta["info"], meta["commands"], meta["notes"]
            notes = notes + [f"Tables regenerated with --only-tables from {len(jsons)} file(s)."]
        else:
            info, commands = None, []
            notes = ["Regenerated with --only-tables; no machine.json next to the JSON "
                     "files, so the machine comes from Google Benchmark's context and the "
                     "command lines are unknown."]
        reps_note = "median of the repetitions"
    else:
        if not args.build:
            parser.error("--build is required unless --only-tables is given")
        if args.repetitions < 1:
            parser.error("--repetitions must be at least 1")
        info = machine_info(Path(args.build))
        info["run"] = shlex.join([sys.executable] + sys.argv)
        jsons, commands, notes = run_suite(args, out_dir)
        commands = [f"# {info['run']}"] + commands
        (out_dir / "machine.json").write_text(
            json.dumps({"info": info, "commands": commands, "notes": notes}, indent=2))
        reps_note = f"median of {args.repetitions}"

    results, contexts, ignored = collect(jsons)
    if info is None:
        info = info_from_contexts(contexts)
    if not results:
        print("run.py: no results to report", file=sys.stderr)
    data = Data(results)
    write_markdown(out_dir / "results.md", data, info, commands, notes, contexts, ignored)
    write_plots(out_dir, data, reps_note)
    return 0


if __name__ == "__main__":
    sys.exit(main())
