"""The PTX proof's table (check_ptx.py) and its generated block in docs/ptx_proof.md.

The block sits between BEGIN and END marker comments in the document;
check_ptx.py --write-table rewrites it, --check-table fails when it differs
from the run (only when the document's nvcc version is the one running: the
counts and registers are nvcc's).
"""
import difflib
import re

INDEX_WIDTHS = 2  # the kernel body is instantiated for uint32 and int64 indices
BEGIN = "<!-- BEGIN ptx-table"
END = "<!-- END ptx-table -->"
NVCC_RE = re.compile(r"^Result \(nvcc ([^,]+), ")


def widths_text(widths):
    return ", ".join(f"{w} ({b} B)" for w, b in sorted(widths.items()))


def loops_text(loops):
    """[(2, 0), (1, 3)] -> "2, 1+3g"."""
    return ", ".join(f"{u}+{g}g" if g else str(u) for u, g in loops)


def scalar_loads_text(c):
    return str(c["sld"]) + (f" (+{c['gld']} generic)" if c["gld"] else "")


def table(rows):
    """The markdown table of [(number, expectation, counts or None, problems)]."""
    head = ("| # | expression | path at run time | kernels | vector loads | vector stores "
            "| vector widths | scalar ld.global | registers | spills "
            "| dedup kernel: vector loads per step (per loop) | dedup registers |")
    lines = [head, "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for number, exp, c, problems in rows:
        if c is None:
            lines.append(f"| {number} | {exp['expr']} | | error | | | | | | | | |")
            continue
        if exp.get("kind") == "scatter":
            mark = " **FAIL**" if problems else ""
            updates = c["loop_ld"] // exp["loads"]
            lines.append(
                f"| {number} | {exp['expr']}{mark} | sinter's scatter kernel | {c['entries']} | {c['loop_ld']} global "
                f"loads in {c['loops']} loops ({updates} updates × {exp['loads']}) | {c['writes']} global stores or "
                f"atomics in loops ({exp['stores']} per update) | none | {scalar_loads_text(c)} | {c['regs']} | "
                f"{c['spills']} | | |")
            continue
        if exp.get("kind") == "scan":
            mark = " **FAIL**" if problems else ""
            lines.append(
                f"| {number} | {exp['expr']}{mark} | CUB's scan kernels | {c['entries']} (CUB; "
                f"{c['passes']} elementwise passes) | at least {c['scan_ld']} global loads in each of {c['scan_kernels']} scan kernels "
                f"(≥ {exp['loads']} leaves) | CUB's | {widths_text(c['widths']) or 'none'} | {scalar_loads_text(c)} "
                f"| {c['regs']} | {c['spills']} | | |")
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


def block(md, nvcc_version, arch):
    """The text between the markers: the nvcc line and the table."""
    return f"Result (nvcc {nvcc_version}, {arch}):\n\n{md}\n"


def split_doc(path):
    """(before, block, after) of the document; raises ValueError without markers."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    b = text.find(BEGIN)
    e = text.find(END, b if b >= 0 else 0)
    if b < 0 or e < 0:
        raise ValueError(f"{path}: no '{BEGIN} ... -->' and '{END}' lines around the table")
    b = text.index("\n", b) + 1
    return text[:b], text[b:e], text[e:]


def write_block(path, new):
    before, _, after = split_doc(path)
    with open(path, "w", encoding="utf-8") as f:
        f.write(before + new + after)


def compare_block(path, new, nvcc_version):
    """(ok, message): the document's block against this run's."""
    _, old, _ = split_doc(path)
    m = NVCC_RE.match(old)
    if m and m.group(1) != nvcc_version:
        return True, (f"{path}: its table is from nvcc {m.group(1)}, this is nvcc {nvcc_version}: "
                      "not compared (the counts and registers are nvcc's)")
    if old == new:
        return True, f"{path}: the table matches this run"
    diff = difflib.unified_diff(old.splitlines(), new.splitlines(), path, "this run", lineterm="", n=0)
    return False, f"{path}: the table differs from this run:\n" + "\n".join(diff)
