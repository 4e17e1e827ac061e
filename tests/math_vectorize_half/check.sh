#!/bin/sh
# Usage: tests/math_vectorize_half/check.sh <compiler> [flags...]
# Compiles each probe of probes.cpp alone with -fopt-info-vec-optimized and
# fails, naming it, unless GCC reports its loop vectorised: the bulk
# conversions at -O2 and -O3, without -march and with -march=native (where
# the compiler takes it); the plain loops at -O3. Default maths flags
# (-ftrapping-math on), which made the half loops branch before.
set -u
if [ $# -lt 1 ]; then echo "usage: $0 <compiler> [flags...]" >&2; exit 2; fi
cxx=$1; shift
here=$(cd "$(dirname "$0")" && pwd)
inc=$(cd "$here/../../include" && pwd)
src=$here/probes.cpp
native=""
if echo 'int main() {}' | "$cxx" -march=native -x c++ -c - -o /dev/null 2>/dev/null; then native="-march=native"; fi
status=0; n=0; ok=0
probe() {  # probe <name> <flags...>
  name=$1; shift
  n=$((n + 1))
  report=$("$cxx" -std=c++20 "$@" -I"$inc" -DPROBE_"$name" -fopt-info-vec-optimized -c "$src" -o /dev/null 2>&1)
  if [ $? -ne 0 ]; then
    printf '%s\n' "$report" >&2; echo "FAIL: $name does not compile ($*)" >&2; status=1
  elif printf '%s\n' "$report" | grep -q "optimized: loop vectorized"; then
    ok=$((ok + 1))
  else
    echo "NOT VECTORISED: $name ($*)" >&2; status=1
  fi
}
for t in half bfloat16; do
  for d in to_float from_float; do
    probe bulk_${d}_$t "$@" -O2
    probe bulk_${d}_$t "$@" -O3
    if [ -n "$native" ]; then probe bulk_${d}_$t "$@" -O2 $native; fi
    probe plain_${d}_$t "$@" -O3
  done
done
echo "$ok/$n probes vectorised ($cxx $*)"
exit $status
