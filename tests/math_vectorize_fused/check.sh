#!/bin/sh
# Usage: tests/math_vectorize_fused/check.sh <compiler> [flags...]
# Compiles fused.cpp once per case at -O3 with -fopt-info-vec-optimized and
# fails (exit 1), naming the case, unless GCC reports the contiguous loop of
# policy/host_loop.hpp (store_range, behind run_linear) vectorised. Default maths flags only.
set -u
if [ $# -lt 1 ]; then echo "usage: $0 <compiler> [flags...]" >&2; exit 2; fi
cxx=$1; shift
here=$(cd "$(dirname "$0")" && pwd)
inc=$(cd "$here/../../include" && pwd)
loop_line=$(grep -n 'o\[i\] = convert<T>(c.load(i));' "$inc/sinter/policy/host_loop.hpp" | head -1 | cut -d: -f1)
log=$(mktemp) || exit 2
trap 'rm -f "$log"' EXIT
status=0
for c in 1 2 3 4 5 6 7; do
  what=$(grep "^#.*if CASE == $c " "$here/fused.cpp" | sed 's|.*// ||')
  if ! "$cxx" -std=c++20 -O3 "$@" -I"$inc" -DCASE=$c -fopt-info-vec-optimized -c "$here/fused.cpp" -o /dev/null >"$log" 2>&1; then
    cat "$log" >&2; echo "FAIL: case $c does not compile" >&2; status=1; continue
  fi
  if grep -q "host_loop.hpp:$loop_line:[0-9]*: optimized: loop vectorized" "$log"; then
    echo "vectorised: case $c ($what)"
  else
    echo "NOT VECTORISED: case $c ($what)"; status=1
  fi
done
exit $status
