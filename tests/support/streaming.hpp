#pragma once
// streaming_scope: sets the host/par streaming-store threshold for one scope
// (on: 0 bytes, every pass streams; off: never) and restores it after.
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

}  // namespace sinter_test
