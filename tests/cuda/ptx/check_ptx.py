#!/usr/bin/env python3
"""The PTX fusion proof: no GPU needed.

For each `// @case` of ptx_cases.cu, compile the case to PTX (nvcc -ptx) and
check what the generated code does, per expression:
  - exactly one kernel (.entry);
  - on the vector path, the stated number of vector loads (ld.global.v2/.v4)
    and vector stores per step, present once per index width (the kernel
    holds a 32-bit and a 64-bit index version, so twice the stated count);
  - every vector global load and store is 16 bytes wide (v4 of 32-bit
    elements, v2 of 64-bit; half and bfloat16 move 8 elements as v4.u32),
    unless the case lists other sizes with `vector_bytes=8,16`;
  - the scalar ld.global count (head/tail and strided loops) is
    reported, not checked;
  - ptxas -v -warn-spills: no spill, and at most max_regs registers where the
    case states a ceiling.
A case states `path=strided` when its operands take the strided path at run
time (broadcast, strided views): its vector loop is compiled, and counted,
but never runs; the table's "path at run time" column says so.
A case states `dedup=N` when two of its memory leaves have one type: then
the file also holds the dedup kernel (fused_dedup_kernel, launched only when
the host finds an array used twice). In each kernel, the vector loads of a
vector loop (a loop holding a vector store) are split by the control-flow
graph: *unconditional* when their block dominates the loop's back edge (they
run on every step), *guarded* otherwise (a branch skips them: the dedup
kernel's repeated leaves). The fused kernel must have no guarded load and
no vector load outside a vector loop. For the dedup kernel, over its vector
loops (nvcc may unswitch a loop into copies, one per outcome of a guard),
the fewest loads per step (a loop's unconditional loads) must be at most N,
the number of leaves that are the first of their type (fewer when a repeat
simplifies the expression: `x > y ? x - y : 0` with y = x loads nothing),
and the most (unconditional + guarded) the case's `loads`.
Reduction cases (`kind=reduce`) run CUB's kernels instead (several .entry,
CUB's own load widths), so they check the loops: in every kernel, the
instructions inside a loop (between a label and a backward branch to it)
hold global loads, a multiple of `loads` of them (each element reads each
input once), and at most `stores` global stores (0: no intermediate array;
CUB writes one partial per block after its loop).
Prints a markdown table (and writes it with --table); exit status 1 if any
case fails, 2 on a usage or tool error.

  python3 check_ptx.py --nvcc nvcc --include include [--table out.md] [--jobs 2]
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

HERE = os.path.dirname(os.path.abspath(__file__))
ARCH = "sm_90"
INDEX_WIDTHS = 2  # the kernel body is instantiated for uint32 and int64 indices

CASE_RE = re.compile(r"^\s*#(?:el)?if\s+SINTER_PTX_CASE\s*==\s*(\d+)")
EXPECT_RE = re.compile(r"^\s*//\s*@case\s+(.*)$")
# An instruction's opcode: optional predicate, then ld/st with its qualifiers.
MEM_RE = re.compile(r"^\s*(?:@!?%\w+\s+)?((?:ld|st)(?:\.[\w:]+)+)\s")
ENTRY_RE = re.compile(r"^\s*(?:\.visible\s+|\.weak\s+)?\.entry\s")
EMPTY_KERNEL_RE = re.compile(r"_ZN3cub\w*EmptyKernel")
LABEL_RE = re.compile(r"^(\$\w+):")
BRA_RE = re.compile(r"^\s*(?:@!?%\w+\s+)?bra(?:\.uni)?\s+(\$\w+);")
REGS_RE = re.compile(r"Used (\d+) registers")
PTXAS_ENTRY_RE = re.compile(r"Compiling entry function '(\w+)'")
BRANCH_RE = re.compile(r"^\s*(@!?%\w+\s+)?bra(?:\.uni)?\s+(\$\w+);")
END_RE = re.compile(r"^\s*(?:@!?%\w+\s+)?(?:ret|exit);")
PRED_RE = re.compile(r"^\s*@!?%\w+\s")
FUSED_RE = re.compile(r"fused_kernel")
DEDUP_RE = re.compile(r"fused_dedup_kernel")
SPILL_RE = re.compile(r"(\d+) bytes spill stores, (\d+) bytes spill loads")
STACK_RE = re.compile(r"(\d+) bytes stack frame")
STATE_SPACES = {"global", "local", "shared", "param", "const", "tex"}


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


def access_bytes(vec, typ):
    """Bytes moved by one access: v4 of .f32 is 16, v2 of .u64 is 16."""
    lanes = int(vec[1:]) if vec else 1
    bits = re.search(r"(\d+)$", typ)
    return lanes * int(bits.group(1)) // 8 if bits else 0


def count_ptx(ptx):
    """Kernels, and global memory accesses split into vector and scalar.

    sld/sst: scalar ld.global/st.global; gld/gst: scalar generic-space
    accesses (none in sinter's kernels; reported if nvcc ever emits them).
    widths: {"v4.f32": 16, ...}, the vector access shapes and their bytes."""
    out = {"entries": 0, "vld": 0, "vst": 0, "sld": 0, "sst": 0, "gld": 0, "gst": 0, "widths": {}}
    for line in ptx.splitlines():
        if ENTRY_RE.match(line):
            # CUB's EmptyKernel (it queries the PTX version) is emitted in every
            # file that includes CUB (sinter/reduce/cuda.hpp does): no code, not a pass.
            if not EMPTY_KERNEL_RE.search(line):
                out["entries"] += 1
            continue
        m = MEM_RE.match(line)
        if not m:
            continue
        parts = m.group(1).split(".")
        op, quals = parts[0], parts[1:]
        space = next((q for q in quals if q in STATE_SPACES), "generic")
        if space not in ("global", "generic"):
            continue
        vec = next((q for q in quals if re.fullmatch(r"v\d+", q)), None)
        if vec:
            out["vld" if op == "ld" else "vst"] += 1
            out["widths"][f"{vec}.{quals[-1]}"] = access_bytes(vec, quals[-1])
        elif space == "global":
            out["sld" if op == "ld" else "sst"] += 1
        else:
            out["gld" if op == "ld" else "gst"] += 1
    return out


def widths_text(widths):
    return ", ".join(f"{w} ({b} B)" for w, b in sorted(widths.items()))


def count_loops(ptx):
    """Global loads and stores inside loops (label .. backward branch), all kernels."""
    out = {"loop_ld": 0, "loop_st": 0, "loops": 0}
    kernels, cur = [], None
    for line in ptx.splitlines():
        if ENTRY_RE.match(line):
            cur = []
            kernels.append(cur)
        elif cur is not None:
            cur.append(line)
    for body in kernels:
        labels, loops = {}, []
        for i, line in enumerate(body):
            m = LABEL_RE.match(line)
            if m:
                labels[m.group(1)] = i
                continue
            m = BRA_RE.match(line)
            if m and m.group(1) in labels:  # defined above: a backward branch
                loops.append((labels[m.group(1)], i))
        inside = set()
        for a, b in loops:
            inside.update(range(a, b + 1))
        out["loops"] += len(loops)
        for i in sorted(inside):
            m = MEM_RE.match(body[i])
            if not m:
                continue
            parts = m.group(1).split(".")
            space = next((q for q in parts[1:] if q in STATE_SPACES), "generic")
            if space in ("global", "generic"):
                out["loop_ld" if parts[0] == "ld" else "loop_st"] += 1
    return out


def kernel_bodies(ptx):
    """{kernel name: [lines of its body]} for every .entry."""
    out, cur = {}, None
    for line in ptx.splitlines():
        if ENTRY_RE.match(line):
            name = re.search(r"\.entry\s+(\w+)", line).group(1)
            cur = out.setdefault(name, [])
        elif cur is not None:
            cur.append(line)
    return out


def vector_loops(body):
    """The vector loops of one kernel: [(unconditional, guarded)] vector loads.

    Basic blocks start at a label and after a branch; a loop is a back edge
    (a branch to a block that dominates it) with its natural body; a vector
    loop holds a vector store. A vector load is unconditional when its block
    dominates the back edge's block (it runs on every iteration) and is not
    predicated; guarded otherwise. Also returns the vector loads outside any
    vector loop."""
    blocks, cur = [], []
    for line in body:
        if LABEL_RE.match(line) and cur:
            blocks.append(cur)
            cur = []
        cur.append(line)
        if BRANCH_RE.match(line) or END_RE.match(line):
            blocks.append(cur)
            cur = []
    if cur:
        blocks.append(cur)
    label_at = {}
    for b, lines in enumerate(blocks):
        m = LABEL_RE.match(lines[0])
        if m:
            label_at[m.group(1)] = b
    succ = []
    for b, lines in enumerate(blocks):
        last = next((x for x in reversed(lines) if x.strip()), "")
        m = BRANCH_RE.match(last)
        nxt = [b + 1] if b + 1 < len(blocks) else []
        if m:
            target = [label_at[m.group(2)]] if m.group(2) in label_at else []
            succ.append(target + (nxt if m.group(1) else []))
        elif END_RE.match(last) and not PRED_RE.match(last):
            succ.append([])
        else:
            succ.append(nxt)
    reach, stack = {0}, [0]
    while stack:
        for t in succ[stack.pop()]:
            if t not in reach:
                reach.add(t)
                stack.append(t)
    pred = [[] for _ in blocks]
    for b, ss in enumerate(succ):
        for t in ss:
            if b in reach:  # code after an unconditional branch: no edge
                pred[t].append(b)
    dom = [reach.copy() if b in reach else {b} for b in range(len(blocks))]
    dom[0] = {0}
    changed = True
    while changed:
        changed = False
        for b in sorted(reach - {0}):
            ps = [dom[p] for p in pred[b]]
            new = (set.intersection(*ps) if ps else set()) | {b}
            if new != dom[b]:
                dom[b], changed = new, True

    def vloads(lines):
        """(unpredicated, predicated) global or generic vector loads."""
        n_unc = n_pred = 0
        for x in lines:
            m = MEM_RE.match(x)
            if not m:
                continue
            parts = m.group(1).split(".")
            space = next((q for q in parts[1:] if q in STATE_SPACES), "generic")
            if parts[0] == "ld" and space in ("global", "generic") and \
                    any(re.fullmatch(r"v\d+", q) for q in parts[1:]):
                if PRED_RE.match(x):
                    n_pred += 1
                else:
                    n_unc += 1
        return n_unc, n_pred

    loops, inside = [], set()
    for latch, ss in enumerate(succ):
        for head in ss:
            if head not in dom[latch]:
                continue  # not a back edge
            body_blocks, stack = {head, latch}, [latch]
            while stack:
                b = stack.pop()
                if b == head:
                    continue
                for p in pred[b]:
                    if p not in body_blocks:
                        body_blocks.add(p)
                        stack.append(p)
            if not any(re.search(r"^\s*(?:@!?%\w+\s+)?st\.global\.v\d", x) for b in body_blocks for x in blocks[b]):
                continue
            unc = grd = 0
            for b in body_blocks:
                u, pr = vloads(blocks[b])
                if b in dom[latch]:
                    unc, grd = unc + u, grd + pr
                else:
                    grd += u + pr
            loops.append((unc, grd))
            inside |= body_blocks
    outside = sum(sum(vloads(blocks[b])) for b in range(len(blocks)) if b not in inside)
    return loops, outside


def loops_text(loops):
    """[(2, 0), (1, 3)] -> "2, 1+3g"."""
    return ", ".join(f"{u}+{g}g" if g else str(u) for u, g in loops)


def run(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        lines = (r.stdout + r.stderr).splitlines()
        more = f"\n... ({len(lines) - 20} more lines)" if len(lines) > 20 else ""
        raise RuntimeError(" ".join(cmd) + "\n" + "\n".join(lines[:20]) + more)
    return r.stdout + r.stderr


def check_case(number, exp, args, workdir):
    ptx_path = os.path.join(workdir, f"case{number}.ptx")
    t0 = time.monotonic()
    run([args.nvcc, "-ptx", f"-arch={ARCH}", "-std=c++20", "--extended-lambda",
         f"-I{args.include}", f"-DSINTER_PTX_CASE={number}", args.source, "-o", ptx_path])
    with open(ptx_path, encoding="utf-8") as f:
        text = f.read()
    c = count_ptx(text)
    c.update(count_loops(text))
    info = run([args.ptxas, f"-arch={ARCH}", "-v", "-warn-spills", ptx_path,
                "-o", os.path.join(workdir, f"case{number}.cubin")])
    regs = [int(x) for x in REGS_RE.findall(info)]
    spills = sum(int(s) + int(l) for s, l in SPILL_RE.findall(info))
    c["regs"] = max(regs) if regs else -1
    # per kernel: ptxas names each entry, then reports its registers
    kregs, name = {}, None
    for line in info.splitlines():
        m = PTXAS_ENTRY_RE.search(line)
        if m:
            name = m.group(1)
        m = REGS_RE.search(line)
        if m and name:
            kregs[name] = int(m.group(1))
    c["spills"] = spills
    # A stack frame is not a spill: CUDA's sinf/cosf keep the Payne-Hanek
    # reduction of huge arguments in a local array. Reported, not failed.
    c["stack"] = max((int(x) for x in STACK_RE.findall(info)), default=0)
    c["seconds"] = time.monotonic() - t0

    problems = []
    bodies = kernel_bodies(text)
    fused = [k for k in bodies if FUSED_RE.search(k)]
    dedup = [k for k in bodies if DEDUP_RE.search(k)]
    if fused:
        f = count_ptx("\n".join(bodies[fused[0]]))
        # the columns describe the fused kernel; widths and spills cover both
        c["vld"], c["vst"], c["sld"], c["gld"] = f["vld"], f["vst"], f["sld"], f["gld"]
        c["regs"] = kregs.get(fused[0], -1)
        c["vloops"], c["outside"] = vector_loops(bodies[fused[0]])
    if dedup:
        c["dedup_loops"], c["dedup_outside"] = vector_loops(bodies[dedup[0]])
        c["dedup_regs"] = kregs.get(dedup[0], -1)
    if exp.get("kind") == "reduce":
        if c["loop_ld"] == 0 or c["loop_ld"] % exp["loads"]:
            problems.append(f"{c['loop_ld']} global loads in loops, expected a non-zero multiple of {exp['loads']}")
        if c["loop_st"] > exp["stores"]:
            problems.append(f"{c['loop_st']} global stores in loops, expected at most {exp['stores']}")
        if c["spills"] or "spilled" in info:
            problems.append(f"{c['spills']} bytes of register spills")
        return c, problems
    want_entries = 2 if "dedup" in exp else 1
    if c["entries"] != want_entries or len(fused) != 1 or len(dedup) != want_entries - 1:
        problems.append(f"{c['entries']} kernels ({len(fused)} fused, {len(dedup)} dedup), expected 1 fused"
                        + (" and 1 dedup" if "dedup" in exp else " and no dedup"))
    if c["vld"] != exp["loads"] * INDEX_WIDTHS:
        problems.append(f"{c['vld']} vector loads, expected {exp['loads']} x {INDEX_WIDTHS}")
    if fused and (any(g for _, g in c["vloops"]) or c["outside"]):
        problems.append(f"fused kernel: vector loads guarded or outside a vector loop: "
                        f"{loops_text(c['vloops'])}, {c['outside']} outside")
    if dedup:
        loops = c["dedup_loops"]
        fewest = min((u for u, _ in loops), default=-1)
        most = max((u + g for u, g in loops), default=-1)
        c["dedup_range"] = (fewest, most)
        if not 0 <= fewest <= exp["dedup"] or most != exp["loads"] or c["dedup_outside"]:
            problems.append(f"dedup kernel: {fewest}..{most} vector loads per step ({loops_text(loops)}; "
                            f"{c['dedup_outside']} outside a vector loop), expected at most {exp['dedup']}"
                            f"..{exp['loads']}")
        if "max_regs" in exp and c["dedup_regs"] > exp["max_regs"]:
            problems.append(f"dedup kernel: {c['dedup_regs']} registers, expected at most {exp['max_regs']}")
    if c["vst"] != exp["stores"] * INDEX_WIDTHS:
        problems.append(f"{c['vst']} vector stores, expected {exp['stores']} x {INDEX_WIDTHS}")
    wrong = {w: b for w, b in c["widths"].items() if b not in exp["vector_bytes"]}
    if wrong:
        want = " or ".join(str(b) for b in sorted(exp["vector_bytes"]))
        problems.append(f"vector accesses not {want} bytes wide: {widths_text(wrong)}")
    if c["spills"] or "spilled" in info:
        problems.append(f"{c['spills']} bytes of register spills")
    if c["regs"] < 0:
        problems.append("ptxas reported no register count")
    if "max_regs" in exp and c["regs"] > exp["max_regs"]:
        problems.append(f"{c['regs']} registers, expected at most {exp['max_regs']}")
    return c, problems


def scalar_loads_text(c):
    return str(c["sld"]) + (f" (+{c['gld']} generic)" if c["gld"] else "")


def table(rows):
    head = ("| # | expression | path at run time | kernels | vector loads | vector stores "
            "| vector widths | scalar ld.global | registers | spills "
            "| dedup kernel: vector loads per step (per loop) | dedup registers |")
    lines = [head, "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for number, exp, c, problems in rows:
        if c is None:
            lines.append(f"| {number} | {exp['expr']} | | error | | | | | | | | |")
            continue
        if exp.get("kind") == "reduce":
            mark = " **FAIL**" if problems else ""
            lines.append(
                f"| {number} | {exp['expr']}{mark} | CUB's kernels | {c['entries']} (CUB) | {c['loop_ld']} global "
                f"loads in {c['loops']} loops (multiple of {exp['loads']}) | {c['loop_st']} global stores in loops "
                f"| CUB's: {widths_text(c['widths']) or 'none'} | {scalar_loads_text(c)} | {c['regs']} | "
                f"{c['spills']} | | |")
            continue
        eq = lambda got, want: "=" if got == want * INDEX_WIDTHS else "≠"
        loads = f"{c['vld']} {eq(c['vld'], exp['loads'])} {exp['loads']}×2"
        if exp.get("distinct", exp["loads"]) != exp["loads"]:
            loads += (f" ({exp['distinct']} distinct inputs: then the dedup kernel runs, "
                      f"{exp['distinct']} per step)")
        regs = str(c["regs"]) + (f" (≤ {exp['max_regs']})" if "max_regs" in exp else "")
        mark = " **FAIL**" if problems else ""
        spills = str(c["spills"]) + (f" ({c['stack']} B stack)" if c["stack"] else "")
        path = ("**strided** (vector loop compiled, not run)" if exp.get("path") == "strided"
                else "vector")
        if "dedup_loops" in c:
            fewest = min((u for u, _ in c["dedup_loops"]), default=0)
            most = max((u + g for u, g in c["dedup_loops"]), default=0)
            dd = f"{fewest}..{most} ({loops_text(c['dedup_loops'])})"
            dregs = str(c["dedup_regs"])
            kernels = f"{c['entries']} (1 + dedup)"
        else:
            dd, dregs, kernels = "none (no two leaves of one type)", "", str(c["entries"])
        lines.append(
            f"| {number} | {exp['expr']}{mark} | {path} | {kernels} | {loads} | "
            f"{c['vst']} {eq(c['vst'], exp['stores'])} {exp['stores']}×2 | {widths_text(c['widths'])} | "
            f"{scalar_loads_text(c)} | {regs} | {spills} | {dd} | {dregs} |")
    return "\n".join(lines) + "\n"


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--nvcc", default="nvcc", help="nvcc to use (default: nvcc on PATH)")
    p.add_argument("--ptxas", help="ptxas to use (default: next to nvcc, else on PATH)")
    p.add_argument("--include", required=True, help="sinter's include directory")
    p.add_argument("--source", default=os.path.join(HERE, "ptx_cases.cu"))
    p.add_argument("--table", help="also write the markdown table to this file")
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

    rows, failed = [], 0
    t0 = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="sinter_ptx_") as work, \
            concurrent.futures.ThreadPoolExecutor(max_workers=max(1, min(2, args.jobs))) as pool:
        futures = [(n, e, pool.submit(check_case, n, e, args, work)) for n, e in cases]
        for number, exp, fut in futures:
            try:
                c, problems = fut.result()
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
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
