// tests/fma/host_simd_cases.hpp compiled with -march=x86-64-v3 (AVX2 + FMA):
// the explicit vector loop on 8 floats / 4 doubles, with AVX2 masked tails.
#if !defined(__AVX2__) || !defined(__FMA__) || defined(__AVX512F__)
#error "tests/fma/test_host_simd_v3.cpp: compile with -march=x86-64-v3"
#endif
#define SINTER_SIMD_CASE(name) TEST_CASE("host_simd AVX2: " name)
#include "host_simd_cases.hpp"
// The op table's traits against the explicit vector loop: every op with a
// vector form takes it (its run-time part needs SINTER_HOST_SIMD).
#include "../core/test_op_traits.cpp"
