// tests/fma/host_simd_cases.hpp compiled with -march=x86-64-v4 (AVX-512):
// the explicit vector loop on 16 floats / 8 doubles, with mask-register
// tails. Built into sinter_tests_avx512, which ctest starts through cpu_gate.cpp
// ("skipped" on a CPU without AVX-512).
#if !defined(__AVX512F__)
#error "tests/fma/test_host_simd_v4.cpp: compile with -march=x86-64-v4"
#endif
#define SINTER_SIMD_CASE(name) TEST_CASE("host_simd AVX-512: " name)
#include "host_simd_cases.hpp"
