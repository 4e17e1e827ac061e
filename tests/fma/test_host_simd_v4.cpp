// tests/fma/host_simd_cases.hpp compiled with -march=x86-64-v4 (AVX-512):
// the explicit vector loop on 16 floats / 8 doubles, with mask-register
// tails. Built into sinter_tests_avx512, which ctest starts through cpu_gate.cpp
// ("skipped" on a CPU without AVX-512).
#if !defined(__AVX512F__)
#error "tests/fma/test_host_simd_v4.cpp: compile with -march=x86-64-v4"
#endif
#include <sinter/config.hpp>
// Generic x86-64-v4 tuning vectorises at 512 bits already: the out-of-line
// full-width loops (SINTER_WIDE_VECTORS, config.hpp) must stay off, they
// would only add a call (docs/design.md, "Full-width vectors on AVX-512").
#if SINTER_HAS_WIDE_VECTORS
#error "SINTER_HAS_WIDE_VECTORS under -march=x86-64-v4's generic tuning"
#endif
#define SINTER_SIMD_CASE(name) TEST_CASE("host_simd AVX-512: " name)
#include "host_simd_cases.hpp"
// The op table's traits against the explicit vector loop: every op with a
// vector form takes it (its run-time part needs SINTER_HOST_SIMD).
#include "../core/test_op_traits.cpp"
