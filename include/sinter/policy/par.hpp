#pragma once
/// \file par.hpp
/// sinter::par: data in host memory, each pass one loop split over the
/// persistent thread pool (thread_pool.hpp). Passes smaller than
/// `par_grain` elements run on the calling thread, so small arrays pay no
/// threading cost.
#include <string>

#include "backend.hpp"
#include "host.hpp"
#include "thread_pool.hpp"

namespace sinter {

/// Multi-threaded CPU policy: `sinter::array<float, 1, sinter::par> a({1 << 20});`
/// Thread count: sinter::set_num_threads(n), or SINTER_NUM_THREADS.
struct par {
  friend constexpr bool operator==(par, par) { return true; }
};

namespace detail {

/// Below this many elements a pass runs on one thread.
inline constexpr index_t par_grain = 1 << 15;

/// How a pass of n flat positions splits into chunks for the pool: a few
/// chunks per thread balance uneven progress. Chunks are runs of flat
/// positions, 16 elements apart (whole cache lines of a contiguous output,
/// so threads never write the same line); on the strided path a chunk may
/// start and end inside a row, so a pass with fewer rows than chunks (a 1-D
/// strided view is one row) still splits.
struct par_split {
  index_t chunks;
  index_t len;
};
inline par_split split_pass(index_t n, int threads) {
  index_t chunks = threads * 4;
  index_t len = (n + chunks - 1) / chunks;
  len = (len + 15) / 16 * 16;
  return {(n + len - 1) / len, len};
}

/// Run `out = bound` over the pool; when `detail` is not null, describe the
/// path taken there (for the trace).
template <class T, std::size_t R, class Node>
void run_parallel(const memory_leaf<T, R>& out, const Node& bound, std::string* detail) {
  const index_t n = shape_size(out.shape);
  const int threads = get_num_threads();
  if (n < 2 * par_grain || threads <= 1 || R == 0) {
    const char* path = run_serial(out, bound);
    if (detail) *detail = std::string(path) + " 1 thread";
    return;
  }
  if constexpr (R >= 1) {
    const par_split sp = split_pass(n, threads);
    const host_path path = choose_host_path(out, bound, n);
    default_pool().parallel_for(sp.chunks, [&](std::int64_t c) {
      const index_t b = c * sp.len, e = b + sp.len < n ? b + sp.len : n;
      run_host_range(path, out, bound, b, e);
    });
    if (detail)
      *detail = std::string(path.name()) + " " + std::to_string(threads) + " threads, " + std::to_string(sp.chunks) +
                " chunks";
  }
}

/// run_parallel for a contiguous pass with a shared subexpression
/// (shares(out, bound)): each chunk runs run_shared_range.
template <class T, std::size_t R, class Node>
void run_parallel_shared(const memory_leaf<T, R>& out, const Node& bound, std::string* detail) {
  const index_t n = shape_size(out.shape);
  const int threads = get_num_threads();
  if (n < 2 * par_grain || threads <= 1) {
    const char* path = run_serial_shared(out, bound);
    if (detail) *detail = std::string(path) + " 1 thread";
    return;
  }
  const par_split sp = split_pass(n, threads);
  const bool stream = use_streaming(static_cast<std::size_t>(n) * sizeof(T));
  default_pool().parallel_for(sp.chunks, [&](std::int64_t c) {
    const index_t b = c * sp.len, e = b + sp.len < n ? b + sp.len : n;
    run_shared_range(out.ptr, bound, b, e, stream);
    if (stream) stream_fence();
  });
  if (detail)
    *detail = std::string(stream ? "contiguous streaming " : "contiguous ") + std::to_string(threads) + " threads, " +
              std::to_string(sp.chunks) + " chunks";
}

template <>
struct backend<par> {
  static constexpr bool host_accessible = true;
  static std::string label(const par&) { return "par"; }
  static void* allocate(const par&, std::size_t bytes) { return host_allocate(bytes); }
  static void deallocate(const par&, void* p, std::size_t bytes) { host_deallocate(p, bytes); }
  template <class T, std::size_t R, class Node>
  static void evaluate(const par&, const memory_leaf<T, R>& out, const Node& bound, std::string* detail) {
    if constexpr (has_shared_v<Node>) {
      if (shares(out, bound)) {
        run_parallel_shared(out, bound, detail);
        if (detail) *detail += shared_note;
        return;
      }
    }
    if constexpr (has_twins_v<Node>) {
      if (twins_equal(bound)) {
        run_parallel(out, merge_twins(bound), detail);
        if (detail) *detail += twins_merged_note;
        return;
      }
    }
    run_parallel(out, bound, detail);
  }
  /// assign's inline path (evaluate.hpp): passes that run_parallel would
  /// run on the calling thread anyway, fewer than 2 * par_grain elements.
  template <class T, std::size_t R, class Node>
  static SINTER_FORCEINLINE bool inline_ok(const memory_leaf<T, R>& out, const Node& bound) {
    return inline_pass_ok(out, bound, 2 * par_grain);
  }
  template <class T, std::size_t R, class Node>
  static SINTER_FORCEINLINE void run_inline(const memory_leaf<T, R>& out, const Node& bound) {
    run_linear(out.ptr, bound, 0, shape_size(out.shape));
  }
};

}  // namespace detail
}  // namespace sinter
