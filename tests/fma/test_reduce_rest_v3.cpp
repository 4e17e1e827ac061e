// tests/fma/reduce_rest_cases.hpp compiled with -march=x86-64-v3 (AVX2 +
// FMA): a fold's leftover lanes as AVX2 masked loads (8 floats, 4 doubles).
#if !defined(__AVX2__) || !defined(__FMA__) || defined(__AVX512F__)
#error "tests/fma/test_reduce_rest_v3.cpp: compile with -march=x86-64-v3"
#endif
#define SINTER_REST_CASE(name) TEST_CASE("reduce rest AVX2: " name)
#include "reduce_rest_cases.hpp"
