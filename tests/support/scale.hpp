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
