// Runner of sinter_tests_fma (the maths accuracy tests and the explicit
// vector loop compiled for x86-64-v3: AVX2 + FMA, where the float kernels
// take their FMA path, math::madd in core/math/bits.hpp) and of
// sinter_tests_avx512 (the explicit vector loop for x86-64-v4). ctest starts
// both through cpu_gate.cpp, which says "skipped" (exit 77) on a CPU without
// the level before any of their code runs: their static initialisers are
// compiled for that level too, so a check in main would come too late.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
