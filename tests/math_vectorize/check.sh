#!/bin/sh
# Usage: tests/math_vectorize/check.sh <compiler> [flags...]
# Compiles loops.cpp at -O3 with -fopt-info-vec-optimized and fails (exit 1),
# naming each function, unless GCC reports every loop in it vectorised.
# Default maths flags only: no -ffast-math, -fmath-errno stays on.
set -u
if [ $# -lt 1 ]; then echo "usage: $0 <compiler> [flags...]" >&2; exit 2; fi
cxx=$1; shift
here=$(cd "$(dirname "$0")" && pwd)
inc=$(cd "$here/../../include" && pwd)
src=$here/loops.cpp
log=$(mktemp) || exit 2
trap 'rm -f "$log"' EXIT
if ! "$cxx" -std=c++20 -O3 "$@" -I"$inc" -fopt-info-vec-optimized -c "$src" -o /dev/null >"$log" 2>&1; then
  cat "$log" >&2; echo "FAIL: loops.cpp does not compile" >&2; exit 1
fi
status=0; n=0; ok=0
lineno=0
while IFS= read -r line; do
  lineno=$((lineno + 1))
  case $line in
    void\ *) ;;
    *) continue ;;
  esac
  name=${line#void }; name=${name%%(*}
  n=$((n + 1))
  if grep -q "loops.cpp:$lineno:[0-9]*: optimized: loop vectorized" "$log"; then
    ok=$((ok + 1))
  else
    echo "NOT VECTORISED: $name (loops.cpp:$lineno)"; status=1
  fi
done <"$src"
echo "$ok/$n loops vectorised ($cxx $*)"
exit $status
