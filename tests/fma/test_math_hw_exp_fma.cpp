// tests/core/test_math_hw_exp.cpp again, compiled with -march=x86-64-v3 by
// tests/CMakeLists.txt: on the FMA path, the vectorised loops call the AVX2
// variants, which must still give the scalar kernel's bits.
#if !defined(__FMA__)
#error "tests/fma: compile this file with FMA enabled (-march=x86-64-v3)"
#endif
#include "../core/test_math_hw_exp.cpp"
