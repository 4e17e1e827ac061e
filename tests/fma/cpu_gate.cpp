// cpu_gate <level> <test binary> [args...]: runs a test binary compiled for
// a newer x86-64 level (x86-64-v3: AVX2 + FMA; x86-64-v4: AVX-512) only on
// a CPU that has that level, else prints "skipped: ..." and exits 77
// (ctest's SKIP_RETURN_CODE).
//
// The check cannot live in the test binary's own main: its static
// initialisers (doctest's test registration, compiled for the newer level)
// run before main, and on a CPU without AVX-512 the x86-64-v4 binary died
// there with SIGILL (AMD EPYC 7001, 2026-11). This launcher is compiled for
// the baseline target and replaces itself with the test binary (execv).
#include <unistd.h>

#include <cstdio>
#include <cstring>

namespace {

bool has_v3() {
  return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && __builtin_cpu_supports("bmi2") &&
         __builtin_cpu_supports("avx");
}

bool has_v4() {
  return has_v3() && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
         __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: cpu_gate x86-64-v3|x86-64-v4 <test binary> [args...]\n");
    return 2;
  }
  __builtin_cpu_init();
  bool ok = false;
  if (std::strcmp(argv[1], "x86-64-v3") == 0) {
    ok = has_v3();
  } else if (std::strcmp(argv[1], "x86-64-v4") == 0) {
    ok = has_v4();
  } else {
    std::fprintf(stderr, "cpu_gate: unknown level '%s' (x86-64-v3 or x86-64-v4)\n", argv[1]);
    return 2;
  }
  if (!ok) {
    std::printf("skipped: this CPU does not have %s (%s)\n", argv[1],
                std::strcmp(argv[1], "x86-64-v3") == 0 ? "AVX2, FMA, BMI2" : "AVX-512 F, BW, DQ, VL");
    return 77;
  }
  std::fflush(stdout);
  execv(argv[2], argv + 2);
  std::perror("cpu_gate: execv");
  return 2;
}
