#!/bin/sh
# Usage: tests/math_vectorize_fused/check.sh <compiler> [flags...]
# Compiles fused.cpp once per case, at -O3 and at -O2 (CMake's
# RelWithDebInfo, where GCC 12 vectorises only loops that need no scalar
# remainder), with -fopt-info-vec-optimized and fails (exit 1), naming the
# case, unless GCC reports the main loop of policy/host/loop.hpp's store_run
# (store_range, behind run_linear) vectorised. Default maths flags only.
set -u
if [ $# -lt 1 ]; then echo "usage: $0 <compiler> [flags...]" >&2; exit 2; fi
cxx=$1; shift
here=$(cd "$(dirname "$0")" && pwd)
inc=$(cd "$here/../../include" && pwd)
loop_line=$(grep -n 'k < whole; ++k) o\[k\] = convert<T>' "$inc/sinter/policy/host/loop.hpp" | head -1 | cut -d: -f1)
if [ -z "$loop_line" ]; then echo "FAIL: store_run's loop not found in policy/host/loop.hpp" >&2; exit 2; fi
log=$(mktemp) || exit 2
pch=$(mktemp -d) || exit 2
trap 'rm -rf "$log" "$pch"' EXIT
status=0
# GCC: sinter.hpp is parsed once per optimisation level into a precompiled
# header (a case's compile was mostly that parse: 19 compiles took 106 s of
# CI). -Werror=invalid-pch: a header GCC cannot use is an error, not a
# silent slow path. Other compilers parse it in every case.
gcc_pch=0
if printf '#if defined(__GNUC__) && !defined(__clang__)\n#else\n#error\n#endif\n' |
   "$cxx" -E -x c++ - >/dev/null 2>&1; then
  gcc_pch=1
  printf '#include <sinter/sinter.hpp>\n' >"$pch/sinter_pch.hpp"
fi
# -O2: the cases that compile fast enough (the maths-heavy 3, 4 and 7 cost
# a minute of CI for no path of their own).
for opt in -O3 -O2; do
  cases="1 2 3 4 5 6 7 8 9 10 11"
  if [ "$opt" = -O2 ]; then cases="1 2 5 6 8 9 10 11"; fi
  use_pch=""
  if [ $gcc_pch = 1 ]; then
    rm -f "$pch/sinter_pch.hpp.gch"
    if ! "$cxx" -std=c++20 $opt "$@" -I"$inc" -x c++-header "$pch/sinter_pch.hpp" -o "$pch/sinter_pch.hpp.gch" >"$log" 2>&1; then
      cat "$log" >&2; echo "FAIL: sinter.hpp does not compile as a precompiled header ($opt)" >&2; exit 1
    fi
    use_pch="-include $pch/sinter_pch.hpp -Werror=invalid-pch"
  fi
  for c in $cases; do
    what=$(grep "^#.*if CASE == $c " "$here/fused.cpp" | sed 's|.*// ||')
    # shellcheck disable=SC2086  # use_pch: several words or none
    if ! "$cxx" -std=c++20 $opt "$@" -I"$inc" $use_pch -DCASE=$c -fopt-info-vec-optimized -c "$here/fused.cpp" -o /dev/null >"$log" 2>&1; then
      cat "$log" >&2; echo "FAIL: case $c does not compile ($opt)" >&2; status=1; continue
    fi
    if grep -q "host/loop.hpp:$loop_line:[0-9]*: optimized: loop vectorized" "$log"; then
      echo "vectorised $opt: case $c ($what)"
    else
      echo "NOT VECTORISED $opt: case $c ($what)"; status=1
    fi
  done
done
exit $status
