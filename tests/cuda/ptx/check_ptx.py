#!/usr/bin/env python3
"""The PTX fusion proof: no GPU needed.

For each `// @case` of ptx_cases.cu, compile the case to PTX (nvcc -ptx;
the cases without a `kind` together, in one compile: check_together) and
check what the generated code does, per expression (ptx_checks.py: one kernel,
its vector loads and stores per step and their widths, no spills, registers;
the reduce, scatter and scan kinds' own checks).
Prints a markdown table. --write-table DOC rewrites the generated block of
DOC (docs/ptx_proof.md: between its BEGIN and END ptx-table comments) with
it; --check-table DOC fails when that block differs from the run (ctest
does, so the document cannot go stale; a table from another nvcc version is
reported, not compared). Exit status 1 if any case fails or the table
differs, 2 on a usage or tool error.

  python3 check_ptx.py --nvcc nvcc --include include [--write-table docs/ptx_proof.md]
                       [--check-table docs/ptx_proof.md] [--table out.md] [--jobs 2]
"""
import argparse
import concurrent.futures
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

from ptx_checks import PTXAS_ENTRY_RE, analyse
from ptx_parse import ENTRY_RE
from ptx_table import block, compare_block, table, write_block

HERE = os.path.dirname(os.path.abspath(__file__))
ARCH = "sm_90"

CASE_RE = re.compile(r"^\s*#(?:el)?if\s+SINTER_PTX_CASE\s*==\s*(\d+)")
EXPECT_RE = re.compile(r"^\s*//\s*@case\s+(.*)$")


def parse_cases(source):
    """[(number, {expr, loads, stores, max_regs?, distinct?})] in file order."""
    cases, current = [], None
    with open(source, encoding="utf-8") as f:
        for line in f:
            m = CASE_RE.match(line)
            if m:
                current = int(m.group(1))
                continue
            m = EXPECT_RE.match(line)
            if m and current is not None:
                fields = {}
                for part in m.group(1).split("|"):
                    key, _, value = part.strip().partition("=")
                    fields[key.strip()] = value.strip()
                for key in ("loads", "stores", "max_regs", "distinct", "dedup"):
                    if key in fields:
                        fields[key] = int(fields[key])
                fields["vector_bytes"] = {int(x) for x in fields.get("vector_bytes", "16").split(",")}
                if fields.get("path", "vector") not in ("vector", "strided"):
                    raise SystemExit(f"{source}: case {current}: path must be vector or strided")
                if "expr" not in fields or "loads" not in fields or "stores" not in fields:
                    raise SystemExit(f"{source}: case {current}: @case needs expr, loads, stores")
                cases.append((current, fields))
                current = None
    return cases


def run(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        lines = (r.stdout + r.stderr).splitlines()
        more = f"\n... ({len(lines) - 20} more lines)" if len(lines) > 20 else ""
        raise RuntimeError(" ".join(cmd) + "\n" + "\n".join(lines[:20]) + more)
    return r.stdout + r.stderr


def compile_ptx(args, workdir, name, source, defines):
    """(PTX text, ptxas -v output) of one nvcc -ptx compile."""
    ptx_path = os.path.join(workdir, f"{name}.ptx")
    run([args.nvcc, "-ptx", f"-arch={ARCH}", "-std=c++20", "--extended-lambda",
         f"-I{args.include}"] + defines + [source, "-o", ptx_path])
    with open(ptx_path, encoding="utf-8") as f:
        text = f.read()
    info = run([args.ptxas, f"-arch={ARCH}", "-v", "-warn-spills", ptx_path,
                "-o", os.path.join(workdir, f"{name}.cubin")])
    return text, info


def check_case(number, exp, args, workdir):
    t0 = time.monotonic()
    text, info = compile_ptx(args, workdir, f"case{number}", args.source, [f"-DSINTER_PTX_CASE={number}"])
    return analyse(exp, text, info, time.monotonic() - t0)


def template_args(demangled, name):
    """"a, b<c>, d" of `...name<a, b<c>, d>(...)`, or None."""
    at = demangled.find(name + "<")
    if at < 0:
        return None
    start = at + len(name)
    depth = 0
    for i in range(start, len(demangled)):
        depth += {"<": 1, ">": -1}.get(demangled[i], 0)
        if depth == 0:
            return demangled[start + 1:i]
    return None


def check_together(numbered, args, workdir):
    """The cases without a kind in one nvcc compile: ptx_cases.cu included once
    per case with SINTER_PTX_MARK; each case's text is the PTX header and the
    kernels whose template arguments are its marker kernel's (the ones a
    compile of the case alone holds), its ptxas output theirs.
    {number: (counts, problems)}."""
    t0 = time.monotonic()
    source = os.path.join(workdir, "together.cu")
    with open(source, "w", encoding="utf-8") as f:
        f.write("#define SINTER_PTX_MARK 1\n")
        for number, _ in numbered:
            f.write(f"#undef SINTER_PTX_CASE\n#define SINTER_PTX_CASE {number}\n#include \"{args.source}\"\n")
    text, info = compile_ptx(args, workdir, "together", source, [])
    lines = text.splitlines(keepends=True)
    starts = [i for i, line in enumerate(lines) if ENTRY_RE.match(line)]
    header = "".join(lines[:starts[0]]) if starts else text
    blocks = {}  # mangled name -> its lines up to the next .entry
    for k, i in enumerate(starts):
        name = re.search(r"\.entry\s+(\w+)", lines[i]).group(1)
        blocks[name] = "".join(lines[i:starts[k + 1] if k + 1 < len(starts) else len(lines)])
    names = list(blocks)
    demangled = run(["c++filt"] + names).splitlines() if names else []
    if len(demangled) != len(names):
        raise RuntimeError("c++filt: cannot demangle the kernel names")
    pinfo, name = {}, None  # ptxas output per entry
    for line in info.splitlines(keepends=True):
        m = PTXAS_ENTRY_RE.search(line)
        if m:
            name = m.group(1)
        if name:
            pinfo[name] = pinfo.get(name, "") + line
    markers, kernels = {}, {}
    for mangled, readable in zip(names, demangled):
        marker = template_args(readable, "sinter_ptx_case_marker")
        if marker is not None:
            number, _, rest = marker.partition(", ")
            markers[int(number)] = rest
            continue
        for kernel in ("fused_kernel", "fused_dedup_kernel"):
            targs = template_args(readable, "cuda_detail::" + kernel)
            if targs is not None:
                kernels.setdefault(targs, []).append(mangled)
    seconds = (time.monotonic() - t0) / max(1, len(numbered))
    out = {}
    for number, exp in numbered:
        mine = kernels.get(markers.get(number), []) if number in markers else []
        mine = [n for n in names if n in mine]  # file order
        case_text = header + "".join(blocks[n] for n in mine)
        case_info = "".join(pinfo.get(n, "") for n in mine)
        out[number] = analyse(exp, case_text, case_info, seconds)
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--nvcc", default="nvcc", help="nvcc to use (default: nvcc on PATH)")
    p.add_argument("--ptxas", help="ptxas to use (default: next to nvcc, else on PATH)")
    p.add_argument("--include", required=True, help="sinter's include directory")
    p.add_argument("--source", default=os.path.join(HERE, "ptx_cases.cu"))
    p.add_argument("--table", help="also write the markdown table to this file")
    p.add_argument("--write-table", metavar="DOC", help="rewrite DOC's generated table block")
    p.add_argument("--check-table", metavar="DOC", help="fail when DOC's generated table block differs")
    p.add_argument("--jobs", type=int, default=2, help="parallel compiles (at most 2)")
    p.add_argument("--case", type=int, action="append", help="only these cases")
    args = p.parse_args()

    args.nvcc = shutil.which(args.nvcc) or args.nvcc
    if not os.path.isfile(args.nvcc):
        print(f"check_ptx: nvcc not found: {args.nvcc}", file=sys.stderr)
        return 2
    if not args.ptxas:
        beside = os.path.join(os.path.dirname(args.nvcc), "ptxas")
        args.ptxas = beside if os.path.isfile(beside) else (shutil.which("ptxas") or "ptxas")
    cases = parse_cases(args.source)
    if args.case:
        cases = [cs for cs in cases if cs[0] in args.case]
    if not cases:
        print("check_ptx: no cases", file=sys.stderr)
        return 2
    if args.case and (args.write_table or args.check_table):
        print("check_ptx: --write-table and --check-table need every case (no --case)", file=sys.stderr)
        return 2
    try:
        version = re.search(r"release [\d.]+, V([\d.]+)", run([args.nvcc, "--version"])).group(1)
    except (RuntimeError, AttributeError):
        print(f"check_ptx: cannot read the version of {args.nvcc}", file=sys.stderr)
        return 2

    rows, failed = [], 0
    t0 = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="sinter_ptx_") as work, \
            concurrent.futures.ThreadPoolExecutor(max_workers=max(1, min(2, args.jobs))) as pool:
        # The cases without a kind (sinter's fused kernels) in one compile: each
        # compile parses sinter and CUB again. The others run CUB's or the
        # scatter kernels, whose names do not say which case instantiated them.
        simple = [(n, e) for n, e in cases if "kind" not in e]
        together = pool.submit(check_together, simple, args, work) if len(simple) > 1 else None
        futures = [(n, e, None if together and "kind" not in e else pool.submit(check_case, n, e, args, work))
                   for n, e in cases]
        for number, exp, fut in futures:
            try:
                c, problems = fut.result() if fut else together.result()[number]
            except RuntimeError as err:
                c, problems = None, [f"compile failed:\n{err}"]
            rows.append((number, exp, c, problems))
            if problems:
                failed += 1
                for pr in problems:
                    print(f"FAIL case {number} ({exp['expr']}): {pr}", file=sys.stderr)

    md = table(rows)
    print(md, end="")
    compile_s = sum(c["seconds"] for _, _, c, _ in rows if c)
    print(f"{len(rows) - failed}/{len(rows)} cases pass ({time.monotonic() - t0:.1f} s; "
          f"{compile_s:.1f} s of nvcc + ptxas over the cases, "
          f"nvcc -ptx -arch={ARCH}, ptxas -v -warn-spills)")
    if args.table:
        with open(args.table, "w", encoding="utf-8") as f:
            f.write(md)
    generated = block(md, version, ARCH)
    try:
        if args.check_table:
            ok, message = compare_block(args.check_table, generated, version)
            print(message, file=sys.stdout if ok else sys.stderr)
            if not ok:
                print(f"check_ptx: regenerate it: python3 {sys.argv[0]} --nvcc {args.nvcc} "
                      f"--include {args.include} --write-table {args.check_table}", file=sys.stderr)
                failed += 1
        if args.write_table:
            if failed:
                print(f"check_ptx: {args.write_table} not written: cases fail", file=sys.stderr)
            else:
                write_block(args.write_table, generated)
                print(f"wrote the table of {args.write_table}")
    except (OSError, ValueError) as err:
        print(f"check_ptx: {err}", file=sys.stderr)
        return 2
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
