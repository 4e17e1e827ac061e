#pragma once
// streaming_scope: sets the host/par streaming-store threshold for one scope
// (on: 0 bytes, every pass streams; off: never) and restores it after;
// stream_mode_scope picks how a streamed block is stored.
#include <cstddef>
#include <limits>
#include <sinter/sinter.hpp>

namespace sinter_test {

class streaming_scope {
 public:
  explicit streaming_scope(bool on) {
    sinter::set_streaming_threshold(on ? 0 : std::numeric_limits<std::size_t>::max());
  }
  ~streaming_scope() { sinter::set_streaming_threshold(saved_); }
  streaming_scope(const streaming_scope&) = delete;
  streaming_scope& operator=(const streaming_scope&) = delete;

 private:
  std::size_t saved_ = sinter::streaming_threshold();
};

/// stream_mode_scope: streaming passes store straight from registers
/// (true) or through the L1 block (false) for one scope, whatever this CPU's
/// default (host_stream.hpp, stream_from_registers); restored after.
class stream_mode_scope {
 public:
  explicit stream_mode_scope(bool from_registers) {
    sinter::detail::stream_registers_flag.store(from_registers ? 1 : 0);
  }
  ~stream_mode_scope() { sinter::detail::stream_registers_flag.store(saved_); }
  stream_mode_scope(const stream_mode_scope&) = delete;
  stream_mode_scope& operator=(const stream_mode_scope&) = delete;

 private:
  int saved_ = sinter::detail::stream_registers_flag.load();
};

}  // namespace sinter_test
