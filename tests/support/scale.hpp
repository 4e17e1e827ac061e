#pragma once
// How much heavy tests shrink: 1 in Release builds, 16 in Debug and
// sanitizer builds (set by tests/CMakeLists.txt). Sweeps multiply their
// strides by it and divide their sample counts by it; nothing is skipped.
#ifndef SINTER_TEST_SCALE
#define SINTER_TEST_SCALE 1
#endif

namespace sinter_test {
inline constexpr int scale = SINTER_TEST_SCALE;
}  // namespace sinter_test

// The policies the dtype-matrix files (test_ops_{arith,logic,math,unary}, test_reduce_{signed,
// unsigned,floats,small_types}) instantiate: host only by default, to keep
// CI within its time budget (instantiating par doubled those files' compile
// time, about 9 CPU-minutes). par runs the same loop over chunks; it is
// tested by the fusion, layout, aliasing and reduction-input suites, and the
// matrix on par comes back with -DSINTER_TEST_MATRIX_PAR=ON.
#if defined(SINTER_TEST_MATRIX_PAR) && SINTER_TEST_MATRIX_PAR
#define SINTER_MATRIX_POLICIES sinter::host, sinter::par
#else
#define SINTER_MATRIX_POLICIES sinter::host
#endif
