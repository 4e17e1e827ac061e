// Runner of sinter_tests_fma (and, with SINTER_TEST_NEED_AVX512, of
// sinter_tests_avx512): the maths accuracy tests compiled for x86-64-v3
// (AVX2 + FMA; the AVX-512 binary's for x86-64-v4), where the float kernels take their FMA path
// (math::madd in core/math/bits.hpp). This file is compiled for the
// baseline target, so it can say "skipped" (exit 77, ctest's
// SKIP_RETURN_CODE) on a CPU without FMA before any FMA code runs.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdio>

int main(int argc, char** argv) {
  __builtin_cpu_init();
  if (!__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("fma")) {
    std::puts("skipped: this CPU has no AVX2/FMA");
    return 77;
  }
#if defined(SINTER_TEST_NEED_AVX512)
  // sinter_tests_avx512: its test file is built for x86-64-v4.
  if (!__builtin_cpu_supports("avx512f") || !__builtin_cpu_supports("avx512bw") ||
      !__builtin_cpu_supports("avx512dq") || !__builtin_cpu_supports("avx512vl")) {
    std::puts("skipped: this CPU has no AVX-512 (F, BW, DQ, VL)");
    return 77;
  }
#endif
  doctest::Context context(argc, argv);
  return context.run();
}
