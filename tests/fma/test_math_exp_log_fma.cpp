// tests/core/test_math_exp_log.cpp again, compiled with -march=x86-64-v3 by
// tests/CMakeLists.txt: the same bounds must hold on the FMA path.
#if !defined(__FMA__)
#error "tests/fma: compile this file with FMA enabled (-march=x86-64-v3)"
#endif
#include "../core/test_math_exp_log.cpp"
