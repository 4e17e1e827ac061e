#pragma once
/// \file host.hpp
/// sinter::host: data in host memory, each pass one single-threaded loop.
#include <limits>
#include <string>

#include "../core/twin_nodes.hpp"
#include "backend.hpp"
#include "host/buffered.hpp"
#include "host/loop.hpp"
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

/// Whether the rows of `out` are long unit-stride runs worth streaming.
template <class T, std::size_t R>
bool streams_rows(const memory_leaf<T, R>& out) {
  return out.strides[R - 1] == 1 && out.shape[R - 1] * static_cast<index_t>(sizeof(T)) >= 1024;
}

/// How a host pass of rank >= 1 runs, chosen once per pass: contiguous or
/// by rows, with streaming stores when the output is large (host/stream.hpp).
/// `step2`: a row pass whose output rows are contiguous and whose every
/// leaf reads its rows at stride 2 (`a[::2] * 2 + b[1::2]`; scalars go
/// with anything, but not scalars alone): the loop knows the stride at
/// compile time and loads and shuffles instead of gathering, streamed or
/// not. `step1`: every leaf's rows at stride 1 (a row broadcast), each row
/// the contiguous loop, not streamed. Any other pass ("strided", "strided
/// streaming", a streamed row broadcast) runs the contiguous loop over
/// gathered blocks (host/buffered.hpp). A pass streams by rows only if
/// they are long (streams_rows); else it takes the unstreamed path. The
/// names are the trace's.
struct host_path {
  bool contiguous;
  bool stream;
  bool step2;
  bool step1;
  const char* name() const {
    if (contiguous) return stream ? "contiguous streaming" : "contiguous";
    if (step2) return stream ? "strided (step 2) streaming" : "strided (step 2)";
    if (step1) return "strided (step 1)";
    return stream ? "strided streaming" : "strided";
  }
};

/// Whether a host pass over `Node` may take the step-2 path: not when the
/// tree holds a dense leaf (a whole array, leaf.hpp), whose rows are never
/// at stride 2, so that expressions of arrays do not compile that loop
/// (about a tenth of bench/compile_time/sinter_20.cpp's compile time at
/// -O2). A tree of other nodes (shared, twins) is taken as possible.
template <class N>
inline constexpr bool step2_possible_v = true;
template <class T, std::size_t R>
inline constexpr bool step2_possible_v<memory_leaf<T, R, true>> = false;
template <class F, class... A>
inline constexpr bool step2_possible_v<map_node<F, A...>> = (true && ... && step2_possible_v<A>);

/// The host_path of `out = bound` (n elements). Forced inline: out of
/// line it was one more call on every pass of the general path; with it
/// inline, `python3 bench/compile_time.py --libs sinter` compiles
/// sinter_20.cpp as fast, its object 18 KiB smaller.
template <class T, std::size_t R, class Node>
SINTER_FORCEINLINE host_path choose_host_path(const memory_leaf<T, R>& out, const Node& bound, index_t n) {
  const bool stream = use_streaming(static_cast<std::size_t>(n) * sizeof(T));
  if (out.unit() && bound.unit()) return {true, stream, false, false};
  const bool rows = stream && streams_rows(out);  // else as if unstreamed
  if (!out.rows_step_is(1)) return {false, rows, false, false};
  const bool step1 = bound.rows_step_is(1);
  if constexpr (!step2_possible_v<Node>) return {false, rows, false, step1 && !rows};
  else return {false, rows, !step1 && bound.rows_step_is(2), step1 && !rows};
}

/// Flat positions [b, e) of the pass `out = bound` along `path`; host runs
/// [0, n), par one chunk per task. Forced inline, as the four paths were in
/// run_serial before: out of line, GCC 12 compiled `exp(a + b) * 2` in
/// double to a slower loop (docs/journal/code-notes.md#host-range-inline).
template <class T, std::size_t R, class Node>
SINTER_FORCEINLINE void run_host_range(host_path path, const memory_leaf<T, R>& out,
                                       const Node& bound, index_t b, index_t e) {
  if (path.contiguous) {
    if (path.stream) run_linear_streaming(out.ptr, bound, b, e);
    else run_linear_shared(out.ptr, bound, b, e);
  } else if (step2_possible_v<Node> && path.step2) {
    if constexpr (step2_possible_v<Node>) {
      if (path.stream) run_rows_streaming<2>(out, bound, b, e);
      else run_rows<2>(out, bound, b, e);
    }
  } else if (R > 1 && path.step1) {  // at rank 1 a step-1 pass is contiguous
    if constexpr (R > 1) run_rows<1>(out, bound, b, e);
  } else if constexpr (bufferable_v<Node>) {
    run_buffered(out, bound, b, e, path.stream);
    if (path.stream) stream_fence();
  } else {
    if (path.stream) run_rows_streaming<0>(out, bound, b, e);
    else run_rows<0>(out, bound, b, e);
  }
}

/// Run `out = bound` on [0, n) on the calling thread; returns the path taken
/// (a string literal, for the trace).
template <class T, std::size_t R, class Node>
const char* run_serial(const memory_leaf<T, R>& out, const Node& bound) {
  const index_t n = shape_size(out.shape);
  if (n == 0) return "empty";
  if constexpr (R == 0) {
    run_linear_shared(out.ptr, bound, 0, 1);
    return "contiguous";
  } else {
    const host_path path = choose_host_path(out, bound, n);
    run_host_range(path, out, bound, 0, n);
    return path.name();
  }
}

/// Whether a pass of `out = bound` can run as one store_range in assign's
/// caller (evaluate.hpp): rank >= 1, fewer than `limit` elements, both sides
/// contiguous, not streamed, no repeated subexpression to merge or share.
template <class T, std::size_t R, class Node>
SINTER_FORCEINLINE bool inline_pass_ok(const memory_leaf<T, R>& out, const Node& bound, index_t limit) {
  if constexpr (R == 0 || has_twins_v<Node> || has_shared_v<Node>) {
    return false;
  } else {
    const index_t n = shape_size(out.shape);
    return n < limit && out.unit() && bound.unit() && !use_streaming(static_cast<std::size_t>(n) * sizeof(T));
  }
}

/// Whether a rank-2 pass that inline_pass_ok turns down runs row by row
/// in assign's caller (evaluate.hpp, rows_overlap): fewer than `limit`
/// elements, a contiguous output, not streamed, no repeated subexpression,
/// and every leaf reading its rows at stride 1 (a row broadcast `m * 0.5f +
/// row`, a block of a wider matrix): store_rows, without the general path's
/// alias check and dispatch (docs/journal/code-notes.md#inline-rows).
template <class T, std::size_t R, class Node>
SINTER_FORCEINLINE bool inline_rows_ok(const memory_leaf<T, R>& out, const Node& bound, index_t limit) {
  if constexpr (R != 2 || has_twins_v<Node> || has_shared_v<Node>) {
    return false;
  } else {
    const index_t n = shape_size(out.shape);
    return n < limit && out.unit() && bound.rows_step_is(1) && !use_streaming(static_cast<std::size_t>(n) * sizeof(T));
  }
}

/// Whether a rank-1 pass runs as one step-2 loop straight from the top of
/// assign_bound (evaluate.hpp, after rows_overlap<2>): fewer than `limit`
/// elements, a contiguous output, not streamed, no repeated subexpression,
/// and every leaf read at stride 2 (`a[::2] * 2 + b[1::2]`): the general
/// path's step-2 loop (run_rows<2>), called directly. Only trees that may
/// take that loop (step2_possible_v: no whole array) check it. The rest of
/// the general path cost a small pass a noticeable share of its time
/// (docs/journal/code-notes.md#direct-step2).
template <class T, std::size_t R, class Node>
SINTER_FORCEINLINE bool direct_step2_ok(const memory_leaf<T, R>& out, const Node& bound, index_t limit) {
  if constexpr (R != 1 || !step2_possible_v<Node> || has_twins_v<Node> || has_shared_v<Node>) {
    return false;
  } else {
    const index_t n = out.shape[0];
    return n < limit && out.unit() && bound.rows_step_is(2) &&
           !use_streaming(static_cast<std::size_t>(n) * sizeof(T));
  }
}

/// The pass direct_step2_ok takes: the step-2 loop over [0, n).
template <class T, std::size_t R, class Node>
SINTER_FORCEINLINE void run_step2_direct(const memory_leaf<T, R>& out, const Node& bound) {
  if constexpr (R == 1 && step2_possible_v<Node>) {
    const index_t n = out.shape[0];
    store_range_call(out.ptr, bound.template step_row<2>(extents<1>{}), 0, n, wide_pass<T>(2 * n));
  }
}

template <>
struct backend<host> {
  static constexpr bool host_accessible = true;
  static std::string label(const host&) { return "host"; }
  static void* allocate(const host&, std::size_t bytes) { return host_allocate(bytes); }
  static void deallocate(const host&, void* p, std::size_t bytes) { host_deallocate(p, bytes); }
  template <class T, std::size_t R, class Node>
  static void evaluate(const host&, const memory_leaf<T, R>& out, const Node& bound, std::string* detail) {
    if constexpr (has_shared_v<Node> && R > 0) {
      if (shares(out, bound)) {  // a costly subexpression written twice (host/tie.hpp)
        run_tie_serial(std::make_tuple(out), std::make_tuple(bound), true, detail);
        return;
      }
    }
    if constexpr (has_twins_v<Node>) {
      if (twins_equal(bound)) {
        const char* path = run_serial(out, merge_twins(bound));
        if (detail) *detail = std::string(path) + twins_merged_note;
        return;
      }
    }
    const char* path = run_serial(out, bound);
    if (detail) *detail = path;
  }
  /// tie.hpp's pass of several outputs of rank >= 1 (host/tie.hpp): tiles
  /// when every output and tree is contiguous, else rows.
  template <class... T, std::size_t R, class... B>
  static void run_tie(const host&, const std::tuple<memory_leaf<T, R>...>& outs, const std::tuple<B...>& bounds,
                      std::string* detail) {
    run_tie_host(outs, bounds, false, detail);
  }
  /// assign's inline path (evaluate.hpp): whether it takes `out = bound`,
  /// and the pass itself, a contiguous loop on the calling thread.
  template <class T, std::size_t R, class Node>
  static SINTER_FORCEINLINE bool inline_ok(const memory_leaf<T, R>& out, const Node& bound) {
    return inline_pass_ok(out, bound, std::numeric_limits<index_t>::max());
  }
  template <class T, std::size_t R, class Node>
  static SINTER_FORCEINLINE void run_inline(const memory_leaf<T, R>& out, const Node& bound) {
    run_linear(out.ptr, bound.linear(), 0, shape_size(out.shape));
  }
  /// assign's inline path by rows (evaluate.hpp): a rank-2 pass whose leaves
  /// read their rows at stride 1, one contiguous loop per row.
  template <class T, std::size_t R, class Node>
  static SINTER_FORCEINLINE bool inline_rows_ok(const memory_leaf<T, R>& out, const Node& bound) {
    return detail::inline_rows_ok(out, bound, std::numeric_limits<index_t>::max());
  }
  template <class T, class Node>
  static SINTER_FORCEINLINE void run_inline_rows(const memory_leaf<T, 2>& out, const Node& bound) {
    store_rows(out.ptr, out.shape[0], out.shape[1], bound);
  }
  /// assign_bound's direct step-2 pass (evaluate.hpp): a rank-1 pass whose leaves
  /// all read at stride 2, the step-2 loop.
  template <class T, std::size_t R, class Node>
  static SINTER_FORCEINLINE bool direct_step2_ok(const memory_leaf<T, R>& out, const Node& bound) {
    return detail::direct_step2_ok(out, bound, std::numeric_limits<index_t>::max());
  }
  template <class T, std::size_t R, class Node>
  static SINTER_FORCEINLINE void run_direct_step2(const memory_leaf<T, R>& out, const Node& bound) {
    run_step2_direct(out, bound);
  }
};

}  // namespace detail
}  // namespace sinter
