// tests/fma/reduce_rest_cases.hpp compiled with -march=x86-64-v4
// (AVX-512): a fold's leftover lanes as AVX-512 masked loads (16 floats, 8
// doubles).
#if !defined(__AVX512F__)
#error "tests/fma/test_reduce_rest_v4.cpp: compile with -march=x86-64-v4"
#endif
#define SINTER_REST_CASE(name) TEST_CASE("reduce rest AVX-512: " name)
#include "reduce_rest_cases.hpp"
