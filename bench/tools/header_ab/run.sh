#!/bin/sh
# Usage: bench/tools/header_ab/run.sh OLD_INCLUDE NEW_INCLUDE "COMPILER FLAGS" [sizes...]
# Times two versions of sinter's headers in one program: kernels.cpp is
# compiled once per version (namespace renamed, so both link), and driver.cpp
# interleaves them and prints the minimum ns per call of each (A = OLD,
# B = NEW) and B / A. For differences of a few percent that Google
# Benchmark's runs of two binaries cannot resolve on a noisy machine.
# Example (headers of an older commit against the working tree):
#   git archive 4c43d81 include | tar -x -C /tmp/old
#   bench/tools/header_ab/run.sh /tmp/old/include include "-O3 -march=native" 100 1000 4096
# HAB_KERNELS=7,8 runs only those kernels (numbers in kernels.cpp), HAB_ROUNDS
# sets the rounds (400).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
old=$1; new=$2; flags=$3; shift 3
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
g++ -std=c++20 $flags -I"$old" -Dsinter=sinter_A -DVNAME=A -c "$here/kernels.cpp" -o "$out/a.o"
g++ -std=c++20 $flags -I"$new" -Dsinter=sinter_B -DVNAME=B -c "$here/kernels.cpp" -o "$out/b.o"
g++ -O2 "$here/driver.cpp" "$out/a.o" "$out/b.o" -o "$out/ab" -pthread
"$out/ab" "$@"
