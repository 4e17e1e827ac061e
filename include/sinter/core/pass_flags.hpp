#pragma once
/// \file pass_flags.hpp
/// The two process-wide settings that every host pass reads inline, kept in
/// one cache line: the streaming threshold (policy/host/stream.hpp) and
/// whether passes are traced (trace.hpp).
#include <atomic>
#include <cstddef>
#include <cstdint>

namespace sinter::detail {

/// The settings a pass reads without a call, both constant-initialised.
/// One 64-byte line, not two: a pass whose operands fill the L1 exactly
/// (float add of 4096 elements: three 16 KiB arrays in a 48 KiB L1d) loses
/// operand lines to every extra line it touches
/// (docs/journal/code-notes.md#pass-flags-line).
struct alignas(64) pass_flags {
  /// Bytes from which host passes stream (SIZE_MAX until first read).
  std::atomic<std::size_t> streaming_threshold{SIZE_MAX};
  /// 0 until first read, 1 tracing off, 2 on (trace.hpp, trace_hint).
  std::atomic<int> trace{0};
};

/// The process's pass_flags.
inline pass_flags hot_flags;

}  // namespace sinter::detail
