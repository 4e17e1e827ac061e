#pragma once
/// \file par.hpp
/// sinter::par: data in host memory, each pass one loop split over the
/// persistent thread pool (host/thread_pool.hpp). Passes smaller than
/// 2 * `par_grain` elements run on the calling thread, so small arrays pay no
/// threading cost.
#include <string>

#include "backend.hpp"
#include "host.hpp"
#include "host/thread_pool.hpp"

namespace sinter {

/// Multi-threaded CPU policy: `sinter::array<float, 1, sinter::par> a({1 << 20});`
/// Thread count: sinter::set_num_threads(n), or SINTER_NUM_THREADS.
struct par {
  friend constexpr bool operator==(par, par) { return true; }
};

namespace detail {

/// host and par share host memory, so their arrays and views mix in one
/// expression, copying nothing; the mixed expression is par's (backend.hpp).
template <>
struct mixed_policy<host, par> {
  using type = par;
};
template <>
struct mixed_policy<par, host> {
  using type = par;
};

/// Below this many elements a pass runs on one thread.
inline constexpr index_t par_grain = 1 << 15;

/// Runs f(b, e) over the pool for the chunks of a pass of n flat positions
/// and returns how many there were. A few chunks per thread balance uneven
/// progress. Chunks are runs of flat positions, 16 elements apart (whole
/// cache lines of a contiguous output, so threads never write the same
/// line); on the strided path a chunk may start and end inside a row, so a
/// pass with fewer rows than chunks (a 1-D strided view is one row) still
/// splits.
template <class F>
index_t for_chunks(index_t n, int threads, F&& f) {
  const index_t want = threads * 4;
  const index_t len = ((n + want - 1) / want + 15) / 16 * 16;
  const index_t chunks = (n + len - 1) / len;
  default_pool().parallel_for(chunks, [&](std::int64_t c) {
    const index_t b = c * len;
    f(b, b + len < n ? b + len : n);
  });
  return chunks;
}

/// A parallel pass's trace detail: its path, threads and chunks. Out of
/// line, one copy per program: inlined into run_tie_parallel, GCC 12 raised
/// a false -Wrestrict in std::string's operator+ there.
SINTER_NOINLINE std::string par_detail(const char* path, int threads, index_t chunks) {
  return std::string(path) + " " + std::to_string(threads) + " threads, " + std::to_string(chunks) + " chunks";
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
    const host_path path = choose_host_path(out, bound, n);
    const index_t chunks =
        for_chunks(n, threads, [&](index_t b, index_t e) { run_host_range(path, out, bound, b, e); });
    if (detail) *detail = par_detail(path.name(), threads, chunks);
  }
}

/// The pass of one or several outputs that run_tie_serial or
/// run_tie_rows_serial runs (host/tie.hpp: tied outputs, or a costly
/// subexpression written twice) over the pool: each chunk runs
/// run_tie_range, or run_tie_rows when some output or tree is not
/// contiguous.
/// `known_shared`: the caller has checked that the trees share their
/// subexpression (tie_shares), else it is checked here.
template <class... T, std::size_t R, class... B>
void run_tie_parallel(const std::tuple<memory_leaf<T, R>...>& outs, const std::tuple<B...>& bounds,
                      bool known_shared, std::string* detail) {
  const index_t n = shape_size(get<0>(outs).shape);
  const int threads = get_num_threads();
  if (n < 2 * par_grain || threads <= 1) {
    run_tie_host(outs, bounds, known_shared, detail, " 1 thread");
    return;
  }
  if (!tie_contiguous(outs, bounds, std::index_sequence_for<B...>{})) {
    const index_t chunks = for_chunks(n, threads, [&](index_t b, index_t e) {
      run_tie_rows(outs, bounds, b, e, std::index_sequence_for<B...>{});
    });
    if (detail) *detail = par_detail("tie strided", threads, chunks);
    return;
  }
  const bool stream = tie_streams(outs);
  const bool share = known_shared || tie_shares(bounds);
  const index_t chunks = for_chunks(n, threads, [&](index_t b, index_t e) {
    run_tie_range(outs, bounds, b, e, stream, share, std::index_sequence_for<B...>{});
    if (stream) stream_fence();
  });
  if (detail) {
    const std::string mid = par_detail("", threads, chunks);
    *detail = tie_detail(sizeof...(T) > 1, stream, mid, share);
  }
}

template <>
struct backend<par> {
  static constexpr bool host_accessible = true;
  static std::string label(const par&) { return "par"; }
  static void* allocate(const par&, std::size_t bytes) { return host_allocate(bytes); }
  static void deallocate(const par&, void* p, std::size_t bytes) { host_deallocate(p, bytes); }
  template <class T, std::size_t R, class Node>
  static void evaluate(const par&, const memory_leaf<T, R>& out, const Node& bound, std::string* detail) {
    if constexpr (has_shared_v<Node> && R > 0) {
      if (shares(out, bound)) {  // a costly subexpression written twice (host/tie.hpp)
        run_tie_parallel(std::make_tuple(out), std::make_tuple(bound), true, detail);
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
  /// tie.hpp's pass of several outputs of rank >= 1 (run_tie_parallel:
  /// tiles when every output and tree is contiguous, else rows).
  template <class... T, std::size_t R, class... B>
  static void run_tie(const par&, const std::tuple<memory_leaf<T, R>...>& outs, const std::tuple<B...>& bounds,
                      std::string* detail) {
    run_tie_parallel(outs, bounds, false, detail);
  }
  /// assign's inline path (evaluate.hpp): passes that run_parallel would
  /// run on the calling thread anyway, fewer than 2 * par_grain elements.
  template <class T, std::size_t R, class Node>
  static SINTER_FORCEINLINE bool inline_ok(const memory_leaf<T, R>& out, const Node& bound) {
    return inline_pass_ok(out, bound, 2 * par_grain);
  }
  template <class T, std::size_t R, class Node>
  static SINTER_FORCEINLINE void run_inline(const memory_leaf<T, R>& out, const Node& bound) {
    run_linear(out.ptr, bound.linear(), 0, shape_size(out.shape));
  }
  template <class T, std::size_t R, class Node>
  static SINTER_FORCEINLINE bool inline_rows_ok(const memory_leaf<T, R>& out, const Node& bound) {
    return detail::inline_rows_ok(out, bound, 2 * par_grain);
  }
  template <class T, class Node>
  static SINTER_FORCEINLINE void run_inline_rows(const memory_leaf<T, 2>& out, const Node& bound) {
    store_rows(out.ptr, out.shape[0], out.shape[1], bound);
  }
  template <class T, std::size_t R, class Node>
  static SINTER_FORCEINLINE bool direct_step2_ok(const memory_leaf<T, R>& out, const Node& bound) {
    return detail::direct_step2_ok(out, bound, 2 * par_grain);
  }
  template <class T, std::size_t R, class Node>
  static SINTER_FORCEINLINE void run_direct_step2(const memory_leaf<T, R>& out, const Node& bound) {
    run_step2_direct(out, bound);
  }
};

}  // namespace detail
}  // namespace sinter
