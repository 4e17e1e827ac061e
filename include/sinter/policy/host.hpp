#pragma once
/// \file host.hpp
/// sinter::host: data in host memory, each pass one single-threaded loop.
/// Also the backend host and par share (host_backend): a pass is planned
/// once (policy/host/plan.hpp) and its route's executor runs on [0, n),
/// or for par the same plan in chunks on the pool (par.hpp).
#include <limits>
#include <string>

#include "../core/twin_nodes.hpp"
#include "backend.hpp"
#include "host/buffered.hpp"
#include "host/loop.hpp"
#include "host/plan.hpp"
#include "host_memory.hpp"
#include "host/shared.hpp"
#include "host/stream.hpp"
#include "host/tie.hpp"

namespace sinter {

/// Single-threaded CPU policy: `sinter::array<float, 2, sinter::host> a({3, 4});`
struct host {
  friend constexpr bool operator==(host, host) { return true; }
};

namespace detail {

/// What host and par differ in (par.hpp specialises it): the threads a pass
/// asks for, the inline routes' size limit, and how a plan's chunks run.
template <class P>
struct host_threads {
  /// Whether passes may run on several threads (the trace then says how many).
  static constexpr bool parallel = false;
  /// The inline routes take passes of fewer elements than this.
  static constexpr index_t inline_limit = std::numeric_limits<index_t>::max();
  /// The threads a pass asks the planner for.
  static int requested() { return 1; }
  /// Runs f over [0, n) in chunks on `threads` threads; returns how many.
  template <class F>
  static index_t run(index_t n, int, F& f) {
    f(index_t{0}, n);
    return 1;
  }
};

/// The executors of the single-output routes: flat positions [b, e) of
/// `out = bound` along `way` (plan_host's). Forced inline, as the paths
/// were in one function before: out of line, GCC 12 compiled `exp(a + b) * 2`
/// in double to a slower loop (docs/journal/code-notes.md#host-range-inline).
template <class T, std::size_t R, class Node>
SINTER_FORCEINLINE void run_route(route way, const memory_leaf<T, R>& out, const Node& bound, index_t b, index_t e) {
  switch (way) {
    case route::contiguous:
      run_linear_shared(out.ptr, bound, b, e);
      return;
    case route::contiguous_streaming:
      run_linear_streaming(out.ptr, bound, b, e);
      return;
    case route::step2:
    case route::step2_streaming:
      if constexpr (step2_possible_v<Node> && R >= 1) {
        if (way == route::step2_streaming) run_rows_streaming<2>(out, bound, b, e);
        else run_rows<2>(out, bound, b, e);
      }
      return;
    case route::step1:
      if constexpr (R > 1) run_rows<1>(out, bound, b, e);
      return;
    case route::buffered:
    case route::buffered_streaming:
      if constexpr (bufferable_v<Node> && R >= 1) {
        const bool stream = way == route::buffered_streaming;
        run_buffered(out, bound, b, e, stream);
        if (stream) stream_fence();
      }
      return;
    case route::generator_rows:
    case route::generator_rows_streaming:
      if constexpr (!bufferable_v<Node> && R >= 1) {
        if (way == route::generator_rows_streaming) run_rows_streaming<0>(out, bound, b, e);
        else run_rows<0>(out, bound, b, e);
      }
      return;
    default:  // empty; the tile routes run run_tie_plan; the others never reach here
      return;
  }
}

/// route::direct_step2's executor: the step-2 loop over [0, n).
template <class T, std::size_t R, class Node>
SINTER_FORCEINLINE void run_step2_direct(const memory_leaf<T, R>& out, const Node& bound) {
  if constexpr (R == 1 && step2_possible_v<Node>) {
    const index_t n = out.shape[0];
    store_range_call(out.ptr, bound.template step_row<2>(extents<1>{}), 0, n, wide_pass<T>(2 * n));
  }
}

/// Runs f(b, e) over [0, n) as `plan` says: on the calling thread, or in
/// chunks on P's threads. Returns the number of chunks.
template <class P, class F>
SINTER_FORCEINLINE index_t run_chunks(const host_plan& plan, index_t n, F&& f) {
  if constexpr (!host_threads<P>::parallel) {
    f(index_t{0}, n);
    return 1;
  } else {
    if (plan.threads <= 1) {
      f(index_t{0}, n);
      return 1;
    }
    return host_threads<P>::run(n, plan.threads, f);
  }
}

/// Runs the plan of the single-output pass `out = bound` on P; returns the
/// number of chunks.
template <class P, class T, std::size_t R, class Node>
index_t run_plan(const host_plan& plan, const memory_leaf<T, R>& out, const Node& bound) {
  const index_t n = shape_size(out.shape);
  if constexpr (has_shared_v<Node> && R > 0) {
    if (plan.share) {  // a costly subexpression written twice, as a tie of one (host/tie.hpp)
      const auto outs = std::make_tuple(out);
      const auto bounds = std::make_tuple(bound);
      return run_chunks<P>(plan, n, [&](index_t b, index_t e) { run_tie_plan(plan, outs, bounds, b, e); });
    }
  }
  if constexpr (has_twins_v<Node>) {
    if (plan.twins) {
      const auto merged = merge_twins(bound);
      return run_chunks<P>(plan, n, [&](index_t b, index_t e) { run_route(plan.way, out, merged, b, e); });
    }
  }
  return run_chunks<P>(plan, n, [&](index_t b, index_t e) { run_route(plan.way, out, bound, b, e); });
}

/// A pass's trace detail into `s`: its route's name, for a parallel
/// policy its threads and chunks, then its notes. Out of line, one copy
/// per program: inlined, GCC 12 raised a false -Wrestrict in std::string's
/// operator+, and each pass's code held the string's handling.
SINTER_NOINLINE void plan_detail(std::string& s, const host_plan& plan, bool parallel, index_t chunks) {
  s = route_name(plan.way);
  if (parallel) {
    if (plan.threads <= 1) s += " 1 thread";
    else {  // appended piece by piece: GCC 12 -O3 gave a false -Wrestrict on a + chain
      s += ' ';
      s += std::to_string(plan.threads);
      s += " threads, ";
      s += std::to_string(chunks);
      s += " chunks";
    }
  }
  if (plan.share) s += shared_note;
  if (plan.twins) s += twins_merged_note;
}

/// The backend of host and par (backend.hpp's contract): plan_host, then
/// the route's executor through run_chunks; the inline routes' hooks below
/// host_threads<P>::inline_limit elements.
template <class P>
struct host_backend {
  static constexpr bool host_accessible = true;
  static void* allocate(const P&, std::size_t bytes) { return host_allocate(bytes); }
  static void deallocate(const P&, void* p, std::size_t bytes) { host_deallocate(p, bytes); }
  template <class T, std::size_t R, class Node>
  static void evaluate(const P&, const memory_leaf<T, R>& out, const Node& bound, std::string* detail) {
    const host_plan plan = plan_host(out, bound, host_threads<P>::requested());
    const index_t chunks = run_plan<P>(plan, out, bound);
    if (detail) {
      plan_detail(*detail, plan, host_threads<P>::parallel, chunks);
      if constexpr (dispatch::tree_v<Node>) dispatch::append_note(*detail, dispatch::libm_tree_v<Node>);
    }
  }
  /// tie.hpp's pass of several outputs of rank >= 1: tiles when every
  /// output and tree is contiguous, else rows (plan_host's tie overload).
  template <class... T, std::size_t R, class... B>
  static void run_tie(const P&, const std::tuple<memory_leaf<T, R>...>& outs, const std::tuple<B...>& bounds,
                      std::string* detail) {
    const host_plan plan = plan_host(outs, bounds, host_threads<P>::requested());
    const index_t chunks = run_chunks<P>(plan, shape_size(get<0>(outs).shape),
                                         [&](index_t b, index_t e) { run_tie_plan(plan, outs, bounds, b, e); });
    if (detail) {
      plan_detail(*detail, plan, host_threads<P>::parallel, chunks);
      if constexpr ((false || ... || dispatch::tree_v<B>))
        dispatch::append_note(*detail, (false || ... || dispatch::libm_tree_v<B>));
    }
  }
  /// route::inline_contiguous (evaluate.hpp's assign): whether it takes
  /// `out = bound`, and the pass, a contiguous loop on the calling thread.
  template <class T, std::size_t R, class Node>
  static SINTER_FORCEINLINE bool inline_ok(const memory_leaf<T, R>& out, const Node& bound) {
    return inline_pass_ok(out, bound, host_threads<P>::inline_limit);
  }
  template <class T, std::size_t R, class Node>
  static SINTER_FORCEINLINE void run_inline(const memory_leaf<T, R>& out, const Node& bound) {
    run_linear(out.ptr, bound.linear(), 0, shape_size(out.shape));
  }
  /// route::inline_rows (evaluate.hpp's assign): a rank-2 pass whose
  /// leaves read their rows at stride 1, one contiguous loop per row.
  template <class T, std::size_t R, class Node>
  static SINTER_FORCEINLINE bool inline_rows_ok(const memory_leaf<T, R>& out, const Node& bound) {
    return detail::inline_rows_ok(out, bound, host_threads<P>::inline_limit);
  }
  template <class T, class Node>
  static SINTER_FORCEINLINE void run_inline_rows(const memory_leaf<T, 2>& out, const Node& bound) {
    store_rows(out.ptr, out.shape[0], out.shape[1], bound);
  }
  /// route::direct_step2 (evaluate.hpp's assign_bound): a rank-1 pass
  /// whose leaves all read at stride 2, the step-2 loop.
  template <class T, std::size_t R, class Node>
  static SINTER_FORCEINLINE bool direct_step2_ok(const memory_leaf<T, R>& out, const Node& bound) {
    return detail::direct_step2_ok(out, bound, host_threads<P>::inline_limit);
  }
  template <class T, std::size_t R, class Node>
  static SINTER_FORCEINLINE void run_direct_step2(const memory_leaf<T, R>& out, const Node& bound) {
    run_step2_direct(out, bound);
  }
};

template <>
struct backend<host> : host_backend<host> {
  static std::string label(const host&) { return "host"; }
};

}  // namespace detail
}  // namespace sinter
