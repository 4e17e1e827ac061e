#!/usr/bin/env python3
"""Issue 58's benchmark: sinter's maths kernels without -march, beside NumPy.

    python3 bench/fast_by_default.py [--src DIR] [--work DIR] [--rounds 3]
        [--sizes 16,20,24] [--builds no-march,x86-64-v3,native]
        [--isa avx2,...] [--first-calls 20] [--out FILE.md]
    python3 bench/fast_by_default.py --only-tables WORK/raw.json

Builds bench_math and bench_first_call three ways with CMake (Release, no
-march; CMAKE_CXX_FLAGS=-march=x86-64-v3; CMAKE_CXX_FLAGS=-march=native),
each in WORK/<build>, then runs, round after round in a random order per
round: each build's bench_math (sinter_host, one thread; the no-march build
also runs `hand`, the libm loop) on exp_add, tanh_chain and black_scholes,
float and double, at 2^16, 2^20 and 2^24 elements (--sizes); NumPy (+ SciPy's
erfc) and numexpr (one thread) on the same kernels; and, one fresh process
per sample, the first and later calls of row softmax at 4096 x 1024 float
(bench_first_call, host and par, and NumPy). Prints the two markdown tables
(medians over rounds, min-max in brackets; ratios are taken within a round)
and the targets; writes WORK/raw.json. --isa L adds the no-march build run
with SINTER_ISA=L (run-time dispatch forced to a level; ignored by builds
without dispatch).

The driver is standard library only; the NumPy side runs this file again
(--worker) in the same Python, which needs numpy, numexpr and scipy.
"""
from __future__ import annotations

import argparse, json, os, platform, random, shlex, statistics, subprocess, sys, time
from pathlib import Path

BUILDS = {"no-march": "", "x86-64-v3": "-march=x86-64-v3", "native": "-march=native"}
KERNELS = ["exp_add", "tanh_chain", "black_scholes"]
DTYPES = ["f32", "f64"]
TARGET_NATIVE, TARGET_NUMPY, TARGET_FIRST = 1.25, 2.0, 1.3
TARGETS = ("exp_add|tanh_chain|black_scholes", "sinter_host")

# ---- the NumPy side (runs in a worker process) --------------------------------


def numpy_kernels():
    import numpy as np, numexpr as ne
    from scipy.special import erfc
    r, v, rs2 = 0.02, 0.3, 0.70710678118654752440

    def exp_add(x, c):
        a, b = x
        return [np.exp(a + b) * c["two"]], [ne.evaluate("exp(a + b) * two", local_dict=dict(a=a, b=b, **c))]

    def tanh_chain(x, c):
        a, b, cc = x
        d = dict(a=a, b=b, cc=cc, **c)
        return ([np.tanh(a * c["half"] + b) * cc - np.sqrt(np.abs(a))],
                [ne.evaluate("tanh(a * half + b) * cc - sqrt(abs(a))", local_dict=d)])

    def bs_numpy(x, c):  # bench_math.cpp's black_scholes, written in NumPy
        s, k, t = x
        vs = np.sqrt(t) * c["v"]
        d1 = (np.log(s / k) + t * c["hr"]) / vs
        d2 = d1 - vs
        ke = k * np.exp(t * c["mr"])
        h, q = c["half"], c["c"]
        return [s * h * erfc(d1 * -q) - ke * h * erfc(d2 * -q), ke * h * erfc(d2 * q) - s * h * erfc(d1 * q)]

    def bs_numexpr(x, c):  # numexpr has no erfc: SciPy's between two evaluations
        s, k, t = x
        d = dict(s=s, k=k, t=t, **c)
        d["d1"] = ne.evaluate("(log(s / k) + t * hr) / (sqrt(t) * v)", local_dict=d)
        d["d2"] = ne.evaluate("d1 - sqrt(t) * v", local_dict=d)
        d["ke"] = ne.evaluate("k * exp(t * mr)", local_dict=d)
        for name, arg in (("e1m", "d1 * mc"), ("e2m", "d2 * mc"), ("e2", "d2 * c"), ("e1", "d1 * c")):
            d[name] = erfc(ne.evaluate(arg, local_dict=d))
        return [ne.evaluate("s * half * e1m - ke * half * e2m", local_dict=d),
                ne.evaluate("ke * half * e2 - s * half * e1", local_dict=d)]

    def bs(x, c):
        return bs_numpy(x, c), bs_numexpr(x, c)

    def bs_ref(x):
        s, k, t = (a.astype(np.float64) for a in x)
        vs = v * np.sqrt(t)
        d1 = (np.log(s / k) + (r + 0.5 * v * v) * t) / vs
        d2, ke = d1 - vs, k * np.exp(-r * t)
        return [s * 0.5 * erfc(-d1 * rs2) - ke * 0.5 * erfc(-d2 * rs2), ke * 0.5 * erfc(d2 * rs2) - s * 0.5 * erfc(d1 * rs2)]

    # kernel: (input ranges as in bench_math.cpp, both implementations, double reference, f32/f64 tolerance)
    f64 = lambda x: [a.astype(np.float64) for a in x]
    return {
        "exp_add": ([(0.5, 1.5)] * 2, exp_add, lambda x: [np.exp(sum(f64(x))) * 2], (2e-5, 1e-12)),
        "tanh_chain": ([(-1.5, 1.5)] * 3, tanh_chain,
                       lambda x: [np.tanh(f64(x)[0] * 0.5 + f64(x)[1]) * f64(x)[2] - np.sqrt(np.abs(f64(x)[0]))], (2e-5, 1e-12)),
        "black_scholes": ([(5, 30), (1, 100), (0.25, 10)], bs, bs_ref, (2e-4, 1e-11)),
    }, dict(r=r, v=v, rs2=rs2)


def worker_maths(a) -> list:
    import numpy as np, numexpr as ne
    ne.set_num_threads(a.numexpr_threads)
    kernels, p = numpy_kernels()
    rng = np.random.default_rng(a.seed)
    out = []
    cases = [(k, d, 1 << e) for k in KERNELS for d in DTYPES for e in log2s(a)]
    random.shuffle(cases)
    for kernel, dtype, n in cases:
        ranges, impls, ref, tol = kernels[kernel]
        T = np.float32 if dtype == "f32" else np.float64
        x = [rng.uniform(lo, hi, n).astype(T) for lo, hi in ranges]
        c = {key: T(val) for key, val in dict(two=2, half=0.5, v=p["v"], hr=p["r"] + 0.5 * p["v"] ** 2, mr=-p["r"],
                                                c=p["rs2"], mc=-p["rs2"]).items()}
        idx = np.linspace(0, n - 1, 64).astype(np.int64)
        want = ref([e[idx] for e in x])
        for which in random.sample([0, 1], 2):
            call = lambda: impls(x, c)[which]
            got = call()  # warm-up, and the check
            t_tol = tol[0] if dtype == "f32" else tol[1]
            err = ""
            for g, w in zip(got, want):
                if g.dtype != T or not np.all(np.abs(g[idx] - w) <= t_tol * (1 + np.abs(w))):
                    err = f"wrong result ({g.dtype})"
            iters, t0 = 0, time.perf_counter()
            while True:
                call()
                iters += 1
                el = time.perf_counter() - t0
                if el >= a.min_time:
                    break
            out.append(dict(kernel=kernel, dtype=dtype, n=n, col=["NumPy", "numexpr"][which],
                            ns=el / iters / n * 1e9, error=err))
    return out


def worker_softmax(a) -> dict:
    import resource
    import numpy as np
    x = np.random.default_rng(1).uniform(-4, 4, (4096, 1024)).astype(np.float32)

    def softmax(m):
        e = np.exp(m - m.max(axis=1, keepdims=True))
        return e / e.sum(axis=1, keepdims=True)
    ms, faults = [], []
    for _ in range(a.first_calls):
        f0, t0 = resource.getrusage(resource.RUSAGE_SELF).ru_minflt, time.perf_counter()
        y = softmax(x)
        ms.append((time.perf_counter() - t0) * 1e3)
        faults.append(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - f0)
    del y
    return dict(policy="numpy", first_ms=ms[0], steady_ms=statistics.median(ms[1:]), faults_first=faults[0],
                faults_steady=statistics.median(faults[1:]), cpu=f"numpy {np.__version__}")

# ---- building and running ------------------------------------------------------


def sh(cmd, env=None, check=True) -> subprocess.CompletedProcess:
    p = subprocess.run(cmd, env=env, text=True, capture_output=True)
    if check and p.returncode != 0:
        sys.exit(f"fast_by_default: {shlex.join(cmd)} failed ({p.returncode}):\n{p.stdout[-3000:]}\n{p.stderr[-3000:]}")
    return p


def build(a, name: str, flags: str) -> dict:
    d = Path(a.work) / name
    sh(["cmake", "-S", a.src, "-B", str(d), "-DCMAKE_BUILD_TYPE=Release", f"-DCMAKE_CXX_FLAGS={flags}",
        "-DSINTER_BUILD_BENCHMARKS=ON", "-DSINTER_BUILD_TESTS=OFF", "-DSINTER_BUILD_EXAMPLES=OFF",
        "-DSINTER_INSTALL=OFF", "-DSINTER_CUDA=OFF", "-DSINTER_BENCH_NATIVE=OFF"]
       + [f"-DCMAKE_DISABLE_FIND_PACKAGE_{p}=ON" for p in ("Eigen3", "xtensor", "xsimd", "OpenMP")])
    t0 = time.time()
    sh(["cmake", "--build", str(d), "-j", str(a.jobs), "--target", "sinter_bench_bench_math", "sinter_bench_bench_first_call"])
    cmd = next((e["command"] for e in json.loads((d / "compile_commands.json").read_text())
                if e["file"].endswith("bench_math.cpp")), "?")
    return dict(dir=str(d / "bench"), flags=flags, command=cmd, build_s=round(time.time() - t0))


def log2s(a) -> list:
    return sorted({int(s) for s in a.sizes.split(",")})


def gbench(a, exe: str, impls: str, env_extra: dict) -> list:
    ks = log2s(a)  # suite.hpp registers 2^min, 2^(min+2), ..; the filter keeps ours
    env = dict(os.environ, SINTER_BENCH_MIN_LOG2=str(ks[0]), SINTER_BENCH_MAX_LOG2=str(ks[-1]), **env_extra)
    sizes = "|".join(str(1 << k) for k in ks)
    p = sh([exe, f"--benchmark_filter=^({TARGETS[0]})/f(32|64)/({impls})/({sizes})/", "--benchmark_repetitions=1",
            "--benchmark_enable_random_interleaving=true", f"--benchmark_min_time={a.min_time}",
            "--benchmark_format=json"], env=env)
    out = []
    for b in json.loads(p.stdout)["benchmarks"]:
        kernel, dtype, impl, n = b["name"].split("/")[:4]
        scale = {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}[b.get("time_unit", "ns")]
        out.append(dict(kernel=kernel, dtype=dtype, n=int(n), impl=impl, ns=b.get("real_time", 0) * scale / int(n),
                        error=b.get("error_message", "") if b.get("error_occurred") else ""))
    return out


def run_job(a, job, builds) -> tuple:
    kind, col = job
    me = [sys.executable, os.path.abspath(__file__)]
    common = ["--sizes", a.sizes, "--min-time", str(a.min_time)]
    if kind == "maths" and col == "python":
        rows = json.loads(sh(me + ["--worker", "maths", "--numexpr-threads", str(a.numexpr_threads)] + common).stdout)
        return [("maths", r["kernel"], r["dtype"], r["n"], r["col"], r["ns"], r["error"]) for r in rows]
    if kind == "maths":
        b, _, isa = col.partition(" SINTER_ISA=")
        impls = TARGETS[1] + ("|hand" if col == "no-march" else "")
        rows = gbench(a, str(Path(builds[b]["dir"]) / "bench_math"), impls, {"SINTER_ISA": isa} if isa else {})
        return [("maths", r["kernel"], r["dtype"], r["n"], "libm loop" if r["impl"] == "hand" else col, r["ns"], r["error"])
                for r in rows]
    b, _, policy = col.rpartition(" ")
    if col == "NumPy":
        r = json.loads(sh(me + ["--worker", "softmax", "--first-calls", str(a.first_calls)]).stdout)
    else:
        r = json.loads(sh([str(Path(builds[b]["dir"]) / "bench_first_call"), policy, str(a.first_calls)]).stdout)
    return [("first", col, k, r[k]) for k in ("first_ms", "steady_ms", "faults_first", "faults_steady", "cpu")]

# ---- tables -------------------------------------------------------------------


def fmt(v: float) -> str:
    return f"{v:.3g}" if v < 100 else f"{v:.0f}"


def cell(xs: list) -> str:
    if not xs:
        return "–"
    return fmt(statistics.median(xs)) + (f" ({fmt(min(xs))}–{fmt(max(xs))})" if len(xs) > 1 else "")


def ratio_cell(num: dict, den: dict, target: float, at_most: bool, misses: list, label: str) -> str:
    rounds = sorted(set(num) & set(den))
    if not rounds:
        return "–"
    rs = [num[r] / den[r] for r in rounds]
    m = statistics.median(rs)
    miss = m > target if at_most else m < target
    beyond = (min(num.values()) / max(den.values()) > target) if at_most else (max(num.values()) / min(den.values()) < target)
    if miss:
        misses.append((label, m, beyond))
    return f"{'**' if miss else ''}{m:.2f}{' ✗' if miss else ''}{'**' if miss else ''} ({min(rs):.2f}–{max(rs):.2f})"


def tables(raw: dict) -> str:
    cols = raw["columns"]
    samples: dict = {}
    errors = set()
    for rnd, rows in enumerate(raw["rounds"]):
        for row in rows:
            if row[0] == "maths":
                _, kernel, dtype, n, col, ns, err = row
                if err:
                    errors.add(f"{kernel}/{dtype}/{n} {col}: {err}")
                    continue
                samples.setdefault((kernel, dtype, n, col), {})[rnd] = ns
            else:
                samples.setdefault(("first", row[1], row[2]), {})[rnd] = row[3]
    out = [f"Machine: {raw['machine']}; load average {raw['load_before']:.1f} before, {raw.get('load_after', 0):.1f} after; "
           f"{len(raw['rounds'])} rounds; commit {raw['commit']}; {raw['python']}.", ""]
    for b, info in raw["builds"].items():
        said = f"; sinter says: {info['cpu']}" if "cpu" in info else ""
        out.append(f"- {b}: `{info['command']}`{said}")
    out += ["", "ns per element, median over rounds (min–max); sinter_host and NumPy/numexpr on one thread; ratios "
            f"within each round, target no-march / native ≤ {TARGET_NATIVE}, NumPy / no-march ≥ {TARGET_NUMPY}; "
            "✗ a miss.", ""]
    ns_cols = [c for c in cols if c not in ("NumPy", "numexpr")] + ["NumPy", "numexpr"]
    out.append("| kernel | dtype | n | " + " | ".join(ns_cols) + " | no-march / native | NumPy / no-march |")
    out.append("|---|---|---|" + "---|" * (len(ns_cols) + 2))
    misses: list = []
    ns_all = sorted({k[2] for k in samples if k[0] != "first"})
    for kernel in KERNELS:
        for dtype in DTYPES:
            for n in ns_all:
                get = lambda c: samples.get((kernel, dtype, n, c), {})
                label = f"{kernel}/{dtype}/2^{n.bit_length() - 1}"
                out.append(f"| {kernel} | {dtype} | 2^{n.bit_length() - 1} | "
                           + " | ".join(cell(list(get(c).values())) for c in ns_cols)
                           + " | " + ratio_cell(get("no-march"), get("native"), TARGET_NATIVE, True, misses, label + " vs native")
                           + " | " + ratio_cell(get("NumPy"), get("no-march"), TARGET_NUMPY, False, misses, label + " vs NumPy") + " |")
    order = [c for b in raw["builds"] for c in (f"{b} host", f"{b} par")] + ["NumPy"]
    first_cols = sorted({k[1] for k in samples if k[0] == "first"}, key=lambda c: order.index(c) if c in order else 99)
    if first_cols:
        out += ["", f"Row softmax, 4096 x 1024 float, fresh arrays: first call and steady state in ms (target first / "
                f"steady ≤ {TARGET_FIRST}); minor page faults per call; one fresh process per round.", "",
                "| build | first | steady | first / steady | faults first | faults steady |", "|---|---|---|---|---|---|"]
        for c in first_cols:
            g = lambda k: samples.get(("first", c, k), {})
            out.append(f"| {c} | {cell(list(g('first_ms').values()))} | {cell(list(g('steady_ms').values()))} | "
                       + ratio_cell(g("first_ms"), g("steady_ms"), TARGET_FIRST, True, misses, f"first call {c}")
                       + f" | {cell(list(g('faults_first').values()))} | {cell(list(g('faults_steady').values()))} |")
    out += ["", f"Targets: {len(misses)} misses ({sum(b for *_, b in misses)} beyond the spread: missed even by the "
            "best pairing of rounds)."]
    out += [f"- {lbl}: {m:.2f}{' (beyond the spread)' if b else ''}" for lbl, m, b in misses]
    out += [f"- ERROR {e}" for e in sorted(errors)]
    return "\n".join(out) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    root = Path(__file__).resolve().parent.parent
    ap.add_argument("--src", default=str(root), help="the sinter source tree to build (default: this checkout)")
    ap.add_argument("--work", default="/tmp/sinter-fast-by-default", help="build directories and raw.json")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--sizes", default="16,20,24", help="log2 of the element counts (even numbers: the suite's steps)")
    ap.add_argument("--min-time", type=float, default=0.05, help="seconds per timed cell and round")
    ap.add_argument("--builds", default=",".join(BUILDS))
    ap.add_argument("--isa", default="", help="also run the no-march build with SINTER_ISA=<each level>")
    ap.add_argument("--first-calls", type=int, default=20, help="softmax calls per process (0: no first-call table)")
    ap.add_argument("--numexpr-threads", type=int, default=1)
    ap.add_argument("--no-python", action="store_true", help="sinter only")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=None, help="the order of the jobs (default: from the clock)")
    ap.add_argument("--commit", help="what --src is, for the table (default: its git HEAD)")
    ap.add_argument("--out", help="also write the tables to this file")
    ap.add_argument("--only-tables", help="print the tables of a saved raw.json; run nothing")
    ap.add_argument("--worker", choices=["maths", "softmax"], help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.worker:
        print(json.dumps(worker_maths(a) if a.worker == "maths" else worker_softmax(a)))
        return
    if a.only_tables:
        print(tables(json.loads(Path(a.only_tables).read_text())), end="")
        return
    random.seed(a.seed)
    Path(a.work).mkdir(parents=True, exist_ok=True)
    names = [b for b in a.builds.split(",") if b]
    builds = {}
    for b in names:
        print(f"fast_by_default: building {b} ...", file=sys.stderr, flush=True)
        builds[b] = build(a, b, BUILDS[b])
    if "no-march" in builds:
        for lvl in filter(None, a.isa.split(",")):
            builds[f"no-march SINTER_ISA={lvl}"] = dict(builds["no-march"])
    jobs = [("maths", b) for b in builds]
    cols = [c for b in builds for c in ([b, "libm loop"] if b == "no-march" else [b])]
    if not a.no_python:
        jobs.append(("maths", "python"))
        cols += ["NumPy", "numexpr"]
    if a.first_calls:
        jobs += [("first", f"{b} {p}") for b in names for p in ("host", "par")]
        jobs += [("first", "NumPy")] if not a.no_python else []
    py = "(no Python side)"
    if not a.no_python:
        py = sh([sys.executable, "-c", "import numpy, numexpr, scipy; print(f'NumPy {numpy.__version__}, "
                 "numexpr {numexpr.__version__}, SciPy {scipy.__version__}')"]).stdout.strip()
    commit = a.commit or sh(["git", "-C", a.src, "rev-parse", "--short", "HEAD"], check=False).stdout.strip() or "?"
    raw = dict(columns=cols, builds=builds, rounds=[], python=py, commit=commit, load_before=os.getloadavg()[0],
               machine=f"{cpu_name()}, {os.cpu_count()} cores, {platform.platform()}", command=shlex.join(sys.argv))
    for rnd in range(a.rounds):
        random.shuffle(jobs)
        rows: list = []
        for job in jobs:
            print(f"fast_by_default: round {rnd + 1}/{a.rounds}: {job[0]} {job[1]}", file=sys.stderr, flush=True)
            rows += run_job(a, job, builds)
        for row in rows:
            if row[0] == "first" and row[2] == "cpu" and row[1].rpartition(" ")[0] in builds:
                builds[row[1].rpartition(" ")[0]]["cpu"] = row[3]
        raw["rounds"].append([r for r in rows if not (r[0] == "first" and r[2] == "cpu")])
        raw["load_after"] = os.getloadavg()[0]
        (Path(a.work) / "raw.json").write_text(json.dumps(raw, indent=1))
    text = tables(raw)
    print(text, end="")
    if a.out:
        Path(a.out).parent.mkdir(parents=True, exist_ok=True)
        Path(a.out).write_text(f"Command: `{raw['command']}`\n\n" + text)


def cpu_name() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "?"


if __name__ == "__main__":
    main()
