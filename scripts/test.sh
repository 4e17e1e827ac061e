#!/usr/bin/env bash
# sinter's one test entry point (README "Run the tests"; .ci/run calls it).
#
#   scripts/test.sh              Release build in build/: every test, example
#                                and compile check (ctest --output-on-failure)
#   scripts/test.sh --sanitize   the suite again, unoptimised,
#                                under ASan + UBSan, in build-asan/
#   scripts/test.sh [--sanitize] [--] [-D...]   more cmake configure options
#
# Jobs: nproc, or JOBS=<n>. First it checks what the tests need and names the
# Debian/Ubuntu packages to install when something is missing.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

mode=release
extra=()
while (($#)); do
  case "$1" in
    --sanitize) mode=sanitize ;;
    -h | --help) sed -n '2,11p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    --) shift; extra+=("$@"); break ;;
    -D*) extra+=("$1") ;;
    *) echo "usage: scripts/test.sh [--sanitize] [--] [-D<cmake option>...]" >&2; exit 2 ;;
  esac
  shift
done
jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}

# ---- what the tests need ---------------------------------------------------
install_hint="sudo apt-get install cmake g++ doctest-dev"
optional_hint="optional: sudo apt-get install ninja-build python3 libeigen3-dev xtensor-dev libbenchmark-dev
  (Ninja builds faster; python3 runs the documentation, compile and PTX checks; Eigen,
  xtensor and Google Benchmark let ctest -L bench check that the benchmarks compile;
  nvcc (the CUDA toolkit) adds the CUDA tests)"
missing=()
if ! command -v cmake >/dev/null; then
  missing+=("cmake (CMake 3.14 or later)")
fi
cxx=${CXX:-c++}
probe=$(mktemp -d)
trap 'rm -rf "$probe"' EXIT
printf '%s\n' '#include <concepts>' '#include <span>' \
  '#if __cplusplus < 202002L' '#error no C++20' '#endif' 'int main() {}' >"$probe/probe.cpp"
if ! command -v "$cxx" >/dev/null; then
  missing+=("a C++ compiler ($cxx)")
elif ! "$cxx" -std=c++20 -c "$probe/probe.cpp" -o "$probe/probe.o" 2>/dev/null; then
  missing+=("a C++20 compiler ($cxx does not compile C++20: g++ 12 or clang++ 14 or later)")
fi
# find_package(doctest CONFIG) looks for <prefix>/{lib,lib64,share}[/<arch>]/cmake/doctest*/
# under CMAKE_PREFIX_PATH and the system prefixes (doctest-dev: /usr/lib/cmake/doctest).
has_doctest() {
  local prefixes=() p d
  IFS=: read -r -a prefixes <<<"${CMAKE_PREFIX_PATH:-}"
  prefixes+=(/usr/local /usr /opt/homebrew /opt/local)
  for p in "${prefixes[@]}"; do
    [[ -n "$p" ]] || continue
    for d in "$p"/doctestConfig.cmake "$p"/{lib,lib64,share}/cmake/doctest*/doctestConfig.cmake \
             "$p"/lib/*/cmake/doctest*/doctestConfig.cmake "$p"/{lib,share}/doctest*/doctestConfig.cmake \
             "$p"/share/doctest/cmake/doctestConfig.cmake; do
      [[ -f "$d" ]] && return 0
    done
  done
  [[ -n "${doctest_DIR:-}" && -f "${doctest_DIR}/doctestConfig.cmake" ]]
}
fetch_wanted=0
for opt in ${extra[@]+"${extra[@]}"}; do
  [[ "$opt" == -DSINTER_FETCH_DOCTEST=ON || "$opt" == -Ddoctest_DIR=* ]] && fetch_wanted=1
done
if ((!fetch_wanted)) && ! has_doctest; then
  missing+=("doctest (its CMake config; or pass -DSINTER_FETCH_DOCTEST=ON to clone it from GitHub)")
fi
if ((${#missing[@]})); then
  {
    echo "scripts/test.sh: missing:"
    printf '  - %s\n' "${missing[@]}"
    echo "On Debian/Ubuntu: $install_hint"
    echo "$optional_hint"
  } >&2
  exit 1
fi

generator=()
pick_generator() {  # Ninja when found, unless the build dir was made by another one
  if [[ ! -f "$1/CMakeCache.txt" ]] && command -v ninja >/dev/null; then generator=(-G Ninja); fi
}

# ---- default: the Release build ---------------------------------------------
if [[ $mode == release ]]; then
  pick_generator build
  cmake -S . -B build ${generator[@]+"${generator[@]}"} -DCMAKE_BUILD_TYPE=Release -DSINTER_FETCH_DOCTEST=OFF ${extra[@]+"${extra[@]}"}
  cmake --build build -j"$jobs"
  cd build
  ctest --output-on-failure -j"$jobs"
  exit 0
fi

# ---- --sanitize: AddressSanitizer + UndefinedBehaviorSanitizer ----------------
# The suite's files again, unoptimised and instrumented, with the examples.
# Where nvcc is found they are compiled by nvcc (sinter_tests_nvcc,
# SINTER_TEST_NVCC_SUITE; g++ compiles nvcc's host code): the one build both
# checks the headers under nvcc and runs the suite under the sanitizers,
# where a g++ build here and an nvcc build in the Release one took about 6
# CPU-minutes more. Without nvcc, g++'s build of the same files
# (sinter_tests). The examples are compiled by g++ here
# (SINTER_EXAMPLES_CUDA=OFF), by nvcc in the Release build. The compile-fail,
# consumer and vectorisation checks do not depend on the sanitizers and run
# in the Release build.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
# -g1 (line tables: ASan's reports still name file and line) instead of
# Debug's -g: less compile time. One CUDA architecture: the suite's device
# code is compiled, not run. Ninja: it builds the targets below side by
# side, where make builds one after the other.
pick_generator build-asan
cmake -S . -B build-asan ${generator[@]+"${generator[@]}"} -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG=-g1 \
      -DCMAKE_CUDA_FLAGS_DEBUG=-Xcompiler=-g1 -DCMAKE_CUDA_ARCHITECTURES=80 \
      -DSINTER_SANITIZE=address,undefined -DSINTER_TEST_NVCC_SUITE=ON -DSINTER_EXAMPLES_CUDA=OFF \
      -DSINTER_BUILD_BENCHMARKS=OFF -DSINTER_FETCH_DOCTEST=OFF ${extra[@]+"${extra[@]}"}
if (cd build-asan && ctest -N -L nvcc) | grep -q 'Total Tests: [1-9]'; then
  targets=(sinter_tests_nvcc) labels='nvcc'
else
  targets=(sinter_tests) labels='unit'
fi
# The examples run in the Release stage; under the sanitizers they would
# repeat library paths the suite covers, for about 95 s of CI.
echo "== ASan+UBSan: ${targets[*]}"
cmake --build build-asan -j"$jobs" --target "${targets[@]}"
cd build-asan
ctest --output-on-failure -j"$jobs" -L "$labels"
