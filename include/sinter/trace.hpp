#pragma once
/// \file trace.hpp
/// The launch log: one record per fused pass (policy, expression, element
/// count, bytes moved, time) and a count of array allocations. Tests use it to
/// prove that an expression ran as exactly one pass with no temporaries;
/// `SINTER_LOG=launch` in the environment prints every record to stderr.
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "core/allocation_count.hpp"
#include "core/pass_flags.hpp"
#include "core/shape.hpp"

namespace sinter {

/// What one fused pass did.
struct pass_record {
  std::string policy;         ///< "host", "par", "cuda:0"
  std::string expression;     ///< "f32[4] = exp(add(f32[4], f32[4]))"
  index_t elements = 0;       ///< output elements written
  std::size_t bytes_read = 0;     ///< each distinct input array counted once
  std::size_t bytes_written = 0;  ///< output elements times element size
  double seconds = 0;         ///< wall time of the pass (host clock); for cuda, the host enqueue time of an async launch, not kernel time
  std::string detail;         ///< backend specifics: "contiguous", "strided", grid/block
};

/// A function called after every fused pass while installed.
using trace_hook = std::function<void(const pass_record&)>;

namespace detail {

struct trace_state {
  std::mutex mutex;
  std::vector<std::pair<std::size_t, trace_hook>> hooks;
  std::size_t next_id = 0;
  std::atomic<bool> active{false};
  /// Print every pass to stderr: from `SINTER_LOG=launch` (read once, at
  /// first use), switched in code by sinter::set_log_launches.
  std::atomic<bool> log_launches{[] {
    const char* v = std::getenv("SINTER_LOG");
    return v && std::strstr(v, "launch") != nullptr;
  }()};
};

inline trace_state& tracing() {
  static trace_state s;
  return s;
}

/// Whether passes are recorded, as trace_active reads it without a call (a
/// constant-initialised atomic: no call on a small pass's path; store
/// forwarding, docs/design.md#store-forwarding): 0 until first read, 1 off,
/// 2 on. Written only under
/// tracing().mutex, after each change of the settings it reflects. It
/// lives in hot_flags (core/pass_flags.hpp), beside the streaming threshold.
inline constexpr std::atomic<int>& trace_hint = hot_flags.trace;

/// Recompute trace_hint from the settings; the caller holds tracing().mutex.
inline bool update_trace_hint(const trace_state& s) {
  const bool on = s.log_launches.load(std::memory_order_relaxed) || s.active.load(std::memory_order_relaxed);
  trace_hint.store(on ? 2 : 1, std::memory_order_relaxed);
  return on;
}

/// First read of the settings (SINTER_LOG is read here).
SINTER_NOINLINE bool init_trace_hint() {
  auto& s = tracing();
  std::lock_guard<std::mutex> lock(s.mutex);
  return update_trace_hint(s);
}

/// Whether any pass must be recorded: a trace_scope lives or the launch log is on.
SINTER_FORCEINLINE bool trace_active() {
  const int h = trace_hint.load(std::memory_order_relaxed);
  return h != 0 ? h == 2 : init_trace_hint();
}

inline void emit(const pass_record& r) {
  auto& s = tracing();
  if (s.log_launches.load(std::memory_order_relaxed))
    std::fprintf(stderr, "sinter: %s %s elements=%lld read=%zuB written=%zuB %.3fms %s\n",
                 r.policy.c_str(), r.expression.c_str(), static_cast<long long>(r.elements),
                 r.bytes_read, r.bytes_written, r.seconds * 1e3, r.detail.c_str());
  std::vector<trace_hook> hooks;
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    for (auto& [id, h] : s.hooks) hooks.push_back(h);
  }
  for (auto& h : hooks) h(r);
}

}  // namespace detail

/// Number of array buffers sinter has allocated in this process (any policy),
/// temporaries included.
inline std::size_t allocation_count() { return detail::allocations_made.load(); }

/// Switches the launch log in code, as `SINTER_LOG=launch` does at start-up
/// (the variable is read only once): while on, every fused pass prints one
/// line to stderr (policy, expression, element count, bytes read and written,
/// time, path). Returns the previous setting:
/// `bool was = sinter::set_log_launches(true); ...; sinter::set_log_launches(was);`
inline bool set_log_launches(bool on) {
  auto& s = detail::tracing();
  std::lock_guard<std::mutex> lock(s.mutex);
  const bool was = s.log_launches.exchange(on);
  detail::update_trace_hint(s);
  return was;
}

/// Records every pass run while it lives (all threads), and the allocations.
/// Example: `sinter::trace_scope t; c = a + b; assert(t.passes().size() == 1);`
class trace_scope {
 public:
  trace_scope() : start_allocs_(allocation_count()) {
    auto& s = detail::tracing();
    std::lock_guard<std::mutex> lock(s.mutex);
    id_ = s.next_id++;
    s.hooks.emplace_back(id_, [this](const pass_record& r) {
      std::lock_guard<std::mutex> l(mutex_);
      records_.push_back(r);
    });
    s.active = true;
    detail::update_trace_hint(s);
  }
  trace_scope(const trace_scope&) = delete;
  trace_scope& operator=(const trace_scope&) = delete;
  ~trace_scope() {
    auto& s = detail::tracing();
    std::lock_guard<std::mutex> lock(s.mutex);
    std::erase_if(s.hooks, [this](const auto& e) { return e.first == id_; });
    s.active = !s.hooks.empty();
    detail::update_trace_hint(s);
  }
  /// The passes recorded so far.
  std::vector<pass_record> passes() const {
    std::lock_guard<std::mutex> l(mutex_);
    return records_;
  }
  /// Array allocations since this scope began.
  std::size_t allocations() const { return allocation_count() - start_allocs_; }

 private:
  mutable std::mutex mutex_;
  std::vector<pass_record> records_;
  std::size_t start_allocs_;
  std::size_t id_ = 0;
};

}  // namespace sinter
