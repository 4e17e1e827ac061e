#pragma once
// How much heavy tests shrink: 1 in Release builds, 16 in Debug and
// sanitizer builds (set by tests/CMakeLists.txt). Sweeps multiply their
// strides by it and divide their sample counts by it. The one thing sanitizer
// builds leave out is below: par in two reduction files.
#ifndef SINTER_TEST_SCALE
#define SINTER_TEST_SCALE 1
#endif

// The policies of the two heaviest reduction files (test_reduce_inputs,
// test_reduce_dot_norm): host and par, host only in sanitizer builds. There
// they were half of the sanitizer stage's CPU time (compile 98 + 47 s, run
// 62 + 43 s at -O0 with ASan); par runs the same tile code on the pool's
// threads, and is checked by the Release build and by the other files'
// par cases under the sanitizers.
#if defined(SINTER_TEST_SANITIZED)
#define SINTER_TEST_REDUCE_POLICIES sinter::host
#else
#define SINTER_TEST_REDUCE_POLICIES sinter::host, sinter::par
#endif

namespace sinter_test {
inline constexpr int scale = SINTER_TEST_SCALE;
}  // namespace sinter_test
