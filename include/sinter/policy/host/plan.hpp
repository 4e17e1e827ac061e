#pragma once
/// \file policy/host/plan.hpp
/// The host planner: every route by which a host or par assignment reaches
/// its loop (`route`, docs/design.md "Host routes"), and the one function
/// that picks a pass's route and parameters (plan_host). The executors
/// are policy/host.hpp's run_route and run_plan; host runs a plan on
/// [0, n), par the same plan in chunks over the pool. The inline routes
/// are decided in assign's caller (evaluate.hpp; store forwarding:
/// docs/design.md#store-forwarding) by the predicates below.
#include <cstddef>
#include <tuple>
#include <utility>

#include "../../core/shared_nodes.hpp"
#include "../../core/tree_fold.hpp"
#include "../../core/twin_nodes.hpp"
#include "buffered.hpp"
#include "loop.hpp"
#include "stream.hpp"

namespace sinter::detail {

/// How a host pass reaches its loop; each route's name is the trace's text
/// (route_name). Streaming variants are routes of their own where they run
/// another loop.
enum class route : unsigned char {
  inline_contiguous,         ///< assign's caller: one contiguous loop (not traced)
  inline_rows,               ///< assign's caller: a matrix row by row, rows at stride 1 (not traced)
  direct_step2,              ///< top of assign_bound: rank 1, every leaf at stride 2 (not traced)
  empty,                     ///< no element
  contiguous,                ///< one flat loop (rank 0 too)
  contiguous_streaming,      ///< one flat loop, streaming stores
  step2,                     ///< rows, every leaf's rows at stride 2 known at compile time
  step2_streaming,           ///< step2 with streaming stores
  step1,                     ///< rows, every leaf's rows at stride 1: the flat loop per row
  buffered,                  ///< blocks gathered into L1 buffers, the flat loop over them
  buffered_streaming,        ///< buffered, streaming stores
  generator_rows,            ///< rows at run-time strides (trees the buffered route cannot take)
  generator_rows_streaming,  ///< generator_rows with streaming stores
  shared_tiles,              ///< a costly subexpression written twice: tiles, computed once per element
  shared_tiles_streaming,    ///< shared_tiles, streaming stores
  tie_tiles,                 ///< several contiguous outputs, tile by tile
  tie_tiles_streaming,       ///< tie_tiles, streaming stores
  tie_rows,                  ///< several outputs in other layouts, row piece by row piece
  lagged_rows,               ///< output overlaps inputs at a fixed offset along the rows: lagged.hpp (assign_bound)
  temporary,                 ///< output overlaps an input: a temporary, then a copy (assign_bound, every policy)
  row_blocks,                ///< rows.hpp's row reductions and their consumer, block of rows by block, in cache
};

/// The trace's text for route `r`.
constexpr const char* route_name(route r) {
  switch (r) {
    case route::inline_contiguous: return "inline contiguous";
    case route::inline_rows: return "inline rows";
    case route::direct_step2: return "direct step 2";
    case route::empty: return "empty";
    case route::contiguous: return "contiguous";
    case route::contiguous_streaming: return "contiguous streaming";
    case route::step2: return "strided (step 2)";
    case route::step2_streaming: return "strided (step 2) streaming";
    case route::step1: return "strided (step 1)";
    case route::buffered: return "strided";
    case route::buffered_streaming: return "strided streaming";
    case route::generator_rows: return "strided (generator)";
    case route::generator_rows_streaming: return "strided (generator) streaming";
    case route::shared_tiles: return "contiguous";  // + shared_note
    case route::shared_tiles_streaming: return "contiguous streaming";
    case route::tie_tiles: return "tie contiguous";
    case route::tie_tiles_streaming: return "tie contiguous streaming";
    case route::tie_rows: return "tie strided";
    case route::lagged_rows: return "lagged rows";
    case route::temporary: return "temporary";
    case route::row_blocks: return "row blocks";
  }
  return "";
}

/// Whether route `r` writes with streaming stores.
constexpr bool route_streams(route r) {
  return r == route::contiguous_streaming || r == route::step2_streaming || r == route::buffered_streaming ||
         r == route::generator_rows_streaming || r == route::shared_tiles_streaming ||
         r == route::tie_tiles_streaming;
}

/// A pass's plan: its route, and how it runs it.
struct host_plan {
  route way;
  int threads;  ///< 1: [0, n) on the calling thread; more: par's chunks on the pool
  bool twins;   ///< the tree's repeated subexpression is merged first (core/twin_nodes.hpp)
  bool share;   ///< tiles: the trees' shared subexpression computed once per element
  /// Whether the route streams its stores.
  constexpr bool stream() const { return route_streams(way); }
};

/// route::row_blocks: bytes of input rows per block, so that a block read
/// by its reductions is still in L2 when its consumer reads it again.
inline constexpr std::size_t row_block_bytes = std::size_t{128} << 10;

/// route::row_blocks: rows per block for rows of `cols` elements of `bytes` each (at least 1).
constexpr index_t row_block_rows(index_t cols, std::size_t bytes) {
  const auto row = static_cast<std::size_t>(cols > 0 ? cols : 1) * bytes;
  return row >= row_block_bytes ? 1 : static_cast<index_t>(row_block_bytes / row);
}

/// Below this many elements a par pass runs on one thread (2 * par_grain).
inline constexpr index_t par_grain = 1 << 15;

/// Whether the rows of `out` are long unit-stride runs worth streaming.
template <class T, std::size_t R>
bool streams_rows(const memory_leaf<T, R>& out) {
  return out.strides[R - 1] == 1 && out.shape[R - 1] * static_cast<index_t>(sizeof(T)) >= 1024;
}

/// Whether a pass over `Node` may take the step-2 routes: not when the
/// tree holds a dense leaf (a whole array, leaf.hpp), whose rows are never
/// at stride 2, so that expressions of arrays do not compile that loop
/// (about a tenth of bench/compile_time/sinter_20.cpp's compile time at
/// -O2). A tree of other nodes (shared, twins) is taken as possible.
/// Whether a leaf's rows may be at stride 2 (a whole array's never are).
template <class L>
struct step2_leaf : std::true_type {};
template <class T, std::size_t R>
struct step2_leaf<memory_leaf<T, R, true>> : std::false_type {};
template <class N>
inline constexpr bool step2_possible_v = fold_tree_v<all_leaves_fold<step2_leaf>, N>;

/// route::inline_contiguous: rank >= 1, fewer than `limit` elements, both
/// sides contiguous, not streamed, no repeated subexpression to merge or share.
template <class T, std::size_t R, class Node>
SINTER_FORCEINLINE bool inline_pass_ok(const memory_leaf<T, R>& out, const Node& bound, index_t limit) {
  if constexpr (R == 0 || has_twins_v<Node> || has_shared_v<Node> || has_run_gen_v<Node>) {
    return false;
  } else {
    const index_t n = shape_size(out.shape);
    return n < limit && out.unit() && bound.unit() && !use_streaming(static_cast<std::size_t>(n) * sizeof(T));
  }
}

/// route::inline_rows, for a pass inline_pass_ok turns down: rank 2, fewer
/// than `limit` elements, a contiguous output, not streamed, no repeated
/// subexpression, every leaf reading its rows at stride 1 (a row broadcast,
/// a block of a wider matrix; docs/journal/code-notes.md#inline-rows).
template <class T, std::size_t R, class Node>
SINTER_FORCEINLINE bool inline_rows_ok(const memory_leaf<T, R>& out, const Node& bound, index_t limit) {
  if constexpr (R != 2 || has_twins_v<Node> || has_shared_v<Node> || has_run_gen_v<Node>) {
    return false;
  } else {
    const index_t n = shape_size(out.shape);
    return n < limit && out.unit() && bound.rows_step_is(1) && !use_streaming(static_cast<std::size_t>(n) * sizeof(T));
  }
}

/// route::direct_step2: rank 1, fewer than `limit` elements, a contiguous
/// output, not streamed, no repeated subexpression, every leaf read at
/// stride 2 (`a[::2] * 2 + b[1::2]`), a tree that may take the step-2 loop
/// (docs/journal/code-notes.md#direct-step2).
template <class T, std::size_t R, class Node>
SINTER_FORCEINLINE bool direct_step2_ok(const memory_leaf<T, R>& out, const Node& bound, index_t limit) {
  if constexpr (R != 1 || !step2_possible_v<Node> || has_twins_v<Node> || has_shared_v<Node> || has_run_gen_v<Node>) {
    return false;
  } else {
    const index_t n = out.shape[0];
    return n < limit && out.unit() && bound.rows_step_is(2) &&
           !use_streaming(static_cast<std::size_t>(n) * sizeof(T));
  }
}

/// Whether host and par run the single-output pass `out = bound` as a tie
/// of one, sharing its subexpression: there is one, the pass is contiguous
/// and not empty, every occurrence is equal.
template <class T, std::size_t R, class Node>
bool shares(const memory_leaf<T, R>& out, const Node& bound) {
  if constexpr (R == 0 || !has_shared_v<Node>) return false;
  else return shape_size(out.shape) > 0 && out.unit() && shares_contiguous(bound);
}

/// Whether a contiguous pass over the trees shares their subexpression:
/// there is one, and every occurrence equals the first.
template <class... B>
bool tie_shares(const std::tuple<B...>& bounds) {
  return std::apply([](const auto&... b) { return shared_equal_of(b...); }, bounds);
}

/// Whether a tied pass runs by tiles: rank >= 1, every output and every
/// tree unit-stride row-major.
template <class... T, std::size_t R, class... B, std::size_t... K>
bool tie_contiguous(const std::tuple<memory_leaf<T, R>...>& outs, const std::tuple<B...>& bounds,
                    std::index_sequence<K...>) {
  if constexpr (R == 0) return false;
  else return (true && ... && get<K>(outs).unit()) && (true && ... && get<K>(bounds).unit());
}

/// The threads a pass of n elements of rank R runs on, of `threads` asked
/// for: one below 2 * par_grain elements, so small passes pay no threading.
template <std::size_t R>
constexpr int plan_threads(index_t n, int threads) {
  return R == 0 || n < 2 * par_grain || threads < 1 ? 1 : threads;
}

/// The plan of the general path's pass `out = bound` (out of assign's
/// caller: inline routes excluded), on up to `threads` threads. Forced
/// inline, as the path choice it replaces was: out of line it was one more
/// call on every pass of the general path.
template <class T, std::size_t R, class Node>
SINTER_FORCEINLINE host_plan plan_host(const memory_leaf<T, R>& out, const Node& bound, int threads) {
  const index_t n = shape_size(out.shape);
  if (n == 0) return {route::empty, 1, false, false};
  const int t = plan_threads<R>(n, threads);
  const bool stream = use_streaming(static_cast<std::size_t>(n) * sizeof(T));
  if constexpr (has_shared_v<Node> && R > 0) {
    if (shares(out, bound)) return {stream ? route::shared_tiles_streaming : route::shared_tiles, t, false, true};
  }
  if constexpr (has_twins_v<Node>) {
    if (twins_equal(bound)) {
      host_plan p = plan_host(out, merge_twins(bound), threads);
      p.twins = true;
      return p;
    }
  }
  if constexpr (R == 0) {
    return {route::contiguous, 1, false, false};
  } else {
    if constexpr (has_run_gen_v<Node> && bufferable_v<Node>) {  // random leaves: filled per block, whole Philox blocks at once
      const bool s = stream && (out.unit() || streams_rows(out));
      return {s ? route::buffered_streaming : route::buffered, t, false, false};
    }
    if (out.unit() && bound.unit()) return {stream ? route::contiguous_streaming : route::contiguous, t, false, false};
    const bool rows = stream && streams_rows(out);  // else as if unstreamed
    if (out.rows_step_is(1)) {
      const bool step1 = bound.rows_step_is(1);
      if constexpr (step2_possible_v<Node>) {
        if (!step1 && bound.rows_step_is(2)) return {rows ? route::step2_streaming : route::step2, t, false, false};
      }
      if (R > 1 && step1 && !rows) return {route::step1, t, false, false};  // at rank 1 it was contiguous
    }
    if constexpr (bufferable_v<Node>) return {rows ? route::buffered_streaming : route::buffered, t, false, false};
    else return {rows ? route::generator_rows_streaming : route::generator_rows, t, false, false};
  }
}

/// The plan of a tied pass of rank >= 1 (tie.hpp), on up to `threads`
/// threads: tiles when every output and tree is contiguous (sharing the
/// trees' subexpression when `known_shared`, the caller's check, or
/// tie_shares holds), else rows.
template <class... T, std::size_t R, class... B>
host_plan plan_host(const std::tuple<memory_leaf<T, R>...>& outs, const std::tuple<B...>& bounds, int threads,
                    bool known_shared = false) {
  const index_t n = shape_size(get<0>(outs).shape);
  const int t = plan_threads<R>(n, threads);
  if (!tie_contiguous(outs, bounds, std::index_sequence_for<B...>{})) return {route::tie_rows, t, false, false};
  const bool stream = use_streaming(static_cast<std::size_t>(n) * (0 + ... + sizeof(T)));
  const bool share = known_shared || tie_shares(bounds);
  if constexpr (sizeof...(T) == 1)  // a tie of one: the single-output tiles
    return {stream ? route::shared_tiles_streaming : route::shared_tiles, t, false, share};
  else
    return {stream ? route::tie_tiles_streaming : route::tie_tiles, t, false, share};
}

/// The route assign takes for `out = bound` when untraced and without
/// overlap (evaluate.hpp): an inline route when its predicate holds below
/// `limit` elements (backend's inline_limit), else plan_host's. For tests
/// and tools; assign itself asks the predicates, inline.
template <class T, std::size_t R, class Node>
host_plan plan_assign(const memory_leaf<T, R>& out, const Node& bound, int threads, index_t limit) {
  if (inline_pass_ok(out, bound, limit)) return {route::inline_contiguous, 1, false, false};
  if (inline_rows_ok(out, bound, limit)) return {route::inline_rows, 1, false, false};
  if (direct_step2_ok(out, bound, limit)) return {route::direct_step2, 1, false, false};
  return plan_host(out, bound, threads);
}

}  // namespace sinter::detail
