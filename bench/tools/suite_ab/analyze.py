#!/usr/bin/env python3
"""Medians of suite_ab's runs (see run.sh): analyze.py OUT_DIR [-v].

Prints the number of cells, the median and geometric mean of new/old
(real time), the cells slower beyond the spread (every run of the new
version slower than every run of the old) and, with -v, every cell."""
import collections
import glob
import json
import statistics
import sys

out = sys.argv[1]
d = collections.defaultdict(lambda: collections.defaultdict(list))
for f in glob.glob(f"{out}/runs/*.json"):
    r, v, b = f.split('/')[-1][:-5].split('_')
    for x in json.load(open(f))['benchmarks']:
        if x.get('run_type') != 'aggregate':
            d[x['name']][v].append(x['real_time'])
rows = []
for name, vv in sorted(d.items()):
    if vv['old'] and vv['new']:
        mo, mn = statistics.median(vv['old']), statistics.median(vv['new'])
        rows.append((name, mo, mn, mn / mo, min(vv['new']) > max(vv['old']), max(vv['new']) < min(vv['old'])))
ratios = [r[3] for r in rows]
print(f"cells {len(rows)}; new/old median {statistics.median(ratios):.3f}, geometric mean {statistics.geometric_mean(ratios):.3f}")
print(f"slower beyond the spread: {sum(r[4] for r in rows)}; faster beyond the spread: {sum(r[5] for r in rows)}")
for r in rows:
    if r[4] or '-v' in sys.argv:
        print(f"{r[0]:64s} old {r[1]:13.1f} new {r[2]:13.1f} {r[3]:.3f} {'SLOWER' if r[4] else ''}{'faster' if r[5] else ''}")
