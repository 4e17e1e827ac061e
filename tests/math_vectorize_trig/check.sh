#!/bin/sh
# Usage: check.sh <compiler> [flags...]
# Compiles loops.cpp with -O3 -fopt-info-vec-optimized (plus the given flags)
# and fails, naming the function, unless GCC reports every loop vectorised.
set -u
if [ $# -lt 1 ]; then
  echo "usage: $0 <compiler> [flags...]" >&2
  exit 2
fi
cxx=$1
shift
here=$(cd "$(dirname "$0")" && pwd)
src=$here/loops.cpp
inc=$here/../../include
report=$("$cxx" -std=c++20 -O3 "$@" -fopt-info-vec-optimized -I"$inc" -c "$src" -o /dev/null 2>&1)
status=$?
if [ $status -ne 0 ]; then
  printf '%s\n' "$report" >&2
  echo "check.sh: compilation failed" >&2
  exit 1
fi
fail=0
total=0
# Each loop's line carries a `// loop: <name>` marker.
for line in $(grep -n 'sm::.*// loop: ' "$src" | cut -d: -f1); do
  total=$((total + 1))
  name=$(sed -n "${line}p" "$src" | sed 's|.*// loop: ||')
  if printf '%s\n' "$report" | grep -q "loops.cpp:${line}:[0-9]*: optimized: loop vectorized"; then
    width=$(printf '%s\n' "$report" | grep "loops.cpp:${line}:[0-9]*: optimized: loop vectorized" |
            sed -n 's/.*using \([0-9]*\) byte vectors.*/\1/p' | sort -n | tail -1)
    echo "vectorised     $name (${width:-?} byte vectors)"
  else
    echo "NOT VECTORISED $name" >&2
    fail=1
  fi
done
if [ $total -eq 0 ]; then
  echo "check.sh: no loops found" >&2
  exit 1
fi
exit $fail
