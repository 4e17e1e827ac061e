"""The PTX proof's reading of PTX (check_ptx.py): kernels, global loads and
stores, loops, and the vector loads of each vector loop split by the
control-flow graph into unconditional and guarded ones.
"""
import re

# An instruction's opcode: optional predicate, then ld/st with its qualifiers.
MEM_RE = re.compile(r"^\s*(?:@!?%\w+\s+)?((?:ld|st)(?:\.[\w:]+)+)\s")
ENTRY_RE = re.compile(r"^\s*(?:\.visible\s+|\.weak\s+)?\.entry\s")
EMPTY_KERNEL_RE = re.compile(r"_ZN3cub\w*EmptyKernel")
LABEL_RE = re.compile(r"^(\$\w+):")
BRA_RE = re.compile(r"^\s*(?:@!?%\w+\s+)?bra(?:\.uni)?\s+(\$\w+);")
BRANCH_RE = re.compile(r"^\s*(@!?%\w+\s+)?bra(?:\.uni)?\s+(\$\w+);")
END_RE = re.compile(r"^\s*(?:@!?%\w+\s+)?(?:ret|exit);")
PRED_RE = re.compile(r"^\s*@!?%\w+\s")
STATE_SPACES = {"global", "local", "shared", "param", "const", "tex"}


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
