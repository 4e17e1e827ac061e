#!/bin/bash
# Usage: bench/tools/suite_ab/run.sh OLD_INCLUDE NEW_INCLUDE OUT_DIR [rounds]
# The bench suite's sinter cells (bench_babel, bench_math, bench_layout) for
# two versions of sinter's headers, built alike (-O3, no -march, no peers),
# run alternately (the order flips each round) so slow phases hit both; then
# analyze.py OUT_DIR prints each cell's medians and flags every cell whose
# runs of one version are all slower than all runs of the other.
# Example (headers of an older commit against the working tree):
#   git archive 2c6ab99 include | tar -x -C /tmp/old
#   bench/tools/suite_ab/run.sh /tmp/old/include include /tmp/ab 5
# FILTER (default sinter) and MIN_TIME (0.05) pass to Google Benchmark.
set -eu
old=$1; new=$2; out=$3; rounds=${4:-5}
bench=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$out/runs"
for v in old new; do
  inc=$old; [ $v = new ] && inc=$new
  for b in babel math layout; do
    g++ -std=c++20 -O3 -DNDEBUG -DSINTER_BENCH_HAS_EIGEN=0 -DSINTER_BENCH_HAS_XTENSOR=0 -DSINTER_BENCH_HAS_OPENMP=0 \
        -DSINTER_BENCH_HAS_TBB=0 -Wno-maybe-uninitialized -I"$inc" -I"$bench" "$bench/bench_$b.cpp" \
        -o "$out/${v}_$b" -lbenchmark -pthread
  done
done
for r in $(seq 1 "$rounds"); do
  for b in babel math layout; do
    if [ $((r % 2)) = 1 ]; then order="old new"; else order="new old"; fi
    for v in $order; do
      "$out/${v}_$b" --benchmark_filter="${FILTER:-sinter}" --benchmark_min_time="${MIN_TIME:-0.05}" \
        --benchmark_format=json --benchmark_out="$out/runs/${r}_${v}_$b.json" >/dev/null
    done
  done
done
python3 "$(dirname "$0")/analyze.py" "$out"
