"""The PTX proof's checks of one case (check_ptx.py compiles, this judges):
from its PTX text and ptxas -v output, per expression:
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
Scatter cases (`kind=scatter`: put, scatter_add) check sinter's own
scatter kernel: inside its grid-stride loop (unrolled or not), `loads`
global loads per update and `stores` global stores or atomics per update,
no spills and no stack.
Scan cases (`kind=scan`: cumsum and its family on CUB's DeviceScan and
DeviceScanByKey) check that no elementwise pass (fused_kernel) is compiled
for the input, and that each scan kernel itself holds at least `loads`
global loads (the leaves, read through the transform iterator); spills in
CUB's kernels are reported, not failed.
"""
import re

from ptx_parse import count_loops, count_ptx, kernel_bodies, vector_loops
from ptx_table import INDEX_WIDTHS, loops_text, widths_text

REGS_RE = re.compile(r"Used (\d+) registers")
PTXAS_ENTRY_RE = re.compile(r"Compiling entry function '(\w+)'")
FUSED_RE = re.compile(r"fused_kernel")
DEDUP_RE = re.compile(r"fused_dedup_kernel")
SPILL_RE = re.compile(r"(\d+) bytes spill stores, (\d+) bytes spill loads")
STACK_RE = re.compile(r"(\d+) bytes stack frame")
ATOM_RE = re.compile(r"^\s*(?:@!?%\w+\s+)?(?:atom|red)\.global\.")


def analyse(exp, text, info, seconds):
    """(counts, problems) of one case from its PTX text and ptxas -v output."""
    c = count_ptx(text)
    c.update(count_loops(text))
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
    c["seconds"] = seconds

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
    if exp.get("kind") == "scatter":
        return c, check_scatter(exp, bodies, kregs, c)
    if exp.get("kind") == "scan":
        return c, check_scan(exp, bodies, kregs, c)
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



def check_scatter(exp, bodies, kregs, c):
    """The scatter kernel's loop: loads and writes per update (fills c)."""
    names = [k for k in bodies if "scatter_kernel" in k]
    if len(names) != 1:
        return [f"{len(names)} scatter kernels, expected 1"]
    body = bodies[names[0]]
    loops = count_loops("\n".join([".entry k("] + body))
    labels = {}
    inside = set()
    for i, line in enumerate(body):  # the loops' lines, as count_loops finds them
        m = re.match(r"^(\$\w+):", line)
        if m:
            labels[m.group(1)] = i
        m = re.match(r"^\s*(?:@!?%\w+\s+)?bra(?:\.uni)?\s+(\$\w+);", line)
        if m and m.group(1) in labels:
            inside.update(range(labels[m.group(1)], i + 1))
    atoms = sum(1 for i in inside if ATOM_RE.match(body[i]))
    c["loop_ld"], c["loops"] = loops["loop_ld"], loops["loops"]
    c["writes"] = loops["loop_st"] + atoms
    c["regs"] = kregs.get(names[0], -1)
    problems = []
    if c["loop_ld"] == 0 or c["loop_ld"] % exp["loads"]:
        problems.append(f"{c['loop_ld']} global loads in loops, expected a non-zero multiple of {exp['loads']}")
    elif c["writes"] != c["loop_ld"] // exp["loads"] * exp["stores"]:
        problems.append(f"{c['writes']} global stores or atomics in loops, expected {exp['stores']} per update")
    if c["spills"] or c["stack"]:
        problems.append(f"{c['spills']} bytes of register spills, {c['stack']} bytes of stack")
    return problems


def check_scan(exp, bodies, kregs, c):
    """No pass materialises the scan's input; the scan kernels read the leaves."""
    scans = [k for k in bodies if "DeviceScanKernel" in k or "DeviceScanByKeyKernel" in k]
    c["scan_kernels"] = len(scans)
    c["scan_ld"] = min((count_ptx("\n".join(bodies[k]))["sld"] + count_ptx("\n".join(bodies[k]))["vld"]
                        for k in scans), default=0)
    c["regs"] = max((kregs.get(k, -1) for k in scans), default=-1)
    problems = []
    c["passes"] = sum(1 for k in bodies if FUSED_RE.search(k))
    if c["passes"]:
        problems.append("an elementwise pass (fused_kernel) is compiled: the input is materialised")
    if not scans:
        problems.append("no CUB scan kernel")
    elif c["scan_ld"] < exp["loads"]:
        problems.append(f"a scan kernel holds {c['scan_ld']} global loads, expected at least {exp['loads']}")
    return problems
