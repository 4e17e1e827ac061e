#pragma once
/// \file policy/host/tie.hpp
/// The tiled CPU pass of contiguous outputs: those of
/// `sinter::tie(o0, o1, ...) = std::tuple(e0, e1, ...)` (tie.hpp), and a
/// single output whose tree writes a costly subexpression twice. Tile by
/// tile, each output's store loop over the tile, so that the inputs are
/// read from memory once; a costly subexpression common to the trees
/// (core/shared_nodes.hpp, picked across all of them: Black-Scholes' d1 in
/// both call and put) is computed once per element into a tile buffer
/// first. host runs it on [0, n), par once per chunk (policy/host.hpp's
/// run_chunks). Tied outputs in other layouts (strided, broadcast) run one
/// loop over rows instead. The planner (plan.hpp) picks which.
#include <algorithm>
#include <cstddef>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

#include "../../core/shared_nodes.hpp"
#include "loop.hpp"
#include "plan.hpp"
#include "shared.hpp"
#include "stream.hpp"

namespace sinter::detail {

/// Bytes of one output's tile when the trees share nothing: 4 KiB, so a
/// tile's inputs stay in L1 between the outputs' loops.
inline constexpr std::size_t tie_tile_bytes = 4096;

/// One output's piece [i0, i1) of a tied pass: ordinary or streaming stores.
template <class T, class Cursor>
SINTER_FORCEINLINE void tie_store(T* o, const Cursor& c, index_t i0, index_t i1, bool stream, bool wide) {
  if (stream) stream_range(o, c, i0, i1);
  else store_range_sized(o, c, i0, i1, wide);
}

/// outs[k][i] = bounds[k](i) for every k and i in [b, e), tile by tile;
/// with the trees' shared subexpression (shared_t of tie_tree_t) computed
/// once per element into a tile buffer first when `share`
/// (shared_equal_of). Streaming stores if `stream` (the caller fences).
template <class... T, std::size_t R, class... B, std::size_t... K>
void run_tie_range(const std::tuple<memory_leaf<T, R>...>& outs, const std::tuple<B...>& bounds, index_t b,
                   index_t e, bool stream, bool share, std::index_sequence<K...>) {
  if constexpr (has_shared_v<tie_tree_t<B...>>) {
    if (share) {
      using S = shared_t<tie_tree_t<B...>>;
      using V = typename S::value_type;
      constexpr index_t tile = static_cast<index_t>(shared_tile_bytes / sizeof(V));
      alignas(64) V buf[tile];
      const auto sc = first_shared_of<S>(get<K>(bounds)...).linear();
      for (index_t i0 = b; i0 < e; i0 += tile) {
        const index_t i1 = e - i0 < tile ? e : i0 + tile;
        store_range(buf, shift_cursor<std::remove_const_t<decltype(sc)>>{sc, i0}, 0, i1 - i0);
        const tile_leaf<V, S::rank> leaf{buf, i0};
        (tie_store(get<K>(outs).ptr, substitute_shared<S>(get<K>(bounds), leaf).linear(), i0, i1, stream, false),
         ...);
      }
      return;
    }
  }
  constexpr std::size_t widest = std::max({sizeof(T)...});
  constexpr index_t tile = static_cast<index_t>(tie_tile_bytes / widest);
  const auto cursors = std::make_tuple(get<K>(bounds).linear()...);
  const bool wide = (true && ... && wide_pass<T>(e - b));
  for (index_t i0 = b; i0 < e; i0 += tile) {
    const index_t i1 = e - i0 < tile ? e : i0 + tile;
    (tie_store(get<K>(outs).ptr, get<K>(cursors), i0, i1, stream, wide), ...);
  }
}

/// One output's piece [j0, j1) of row idx in a tied pass over rows.
template <class T, std::size_t R, class Node>
SINTER_FORCEINLINE void tie_row(const memory_leaf<T, R>& out, const Node& node, const extents<R>& idx, index_t j0,
                                index_t j1) {
  store_row<false>(out.ptr + row_offset(idx, out.strides), out.strides[R - 1], node.row(idx), j0, j1, false);
}

/// Flat positions [s, e) of a tied pass of rank >= 1 in any layout
/// (strided or broadcast outputs and operands): for each piece of row,
/// each output's row loop in turn, so a row's inputs are read once from
/// memory. Ordinary stores; no shared subexpression.
template <class... T, std::size_t R, class... B, std::size_t... K>
void run_tie_rows(const std::tuple<memory_leaf<T, R>...>& outs, const std::tuple<B...>& bounds, index_t s, index_t e,
                  std::index_sequence<K...>) {
  for_row_ranges(get<0>(outs).shape, s, e, [&](const extents<R>& idx, index_t j0, index_t j1) {
    (tie_row(get<K>(outs), get<K>(bounds), idx, j0, j1), ...);
  });
}

/// The executor of the tile routes (shared_tiles, tie_tiles, their
/// streaming forms) and route::tie_rows: flat positions [b, e) of the
/// tied pass as `plan` says (plan_host's tie overload, or its single-output
/// form for shared_tiles); a streaming piece is fenced here.
template <class... T, std::size_t R, class... B>
void run_tie_plan(const host_plan& plan, const std::tuple<memory_leaf<T, R>...>& outs,
                  const std::tuple<B...>& bounds, index_t b, index_t e) {
  if (plan.way == route::tie_rows) {
    run_tie_rows(outs, bounds, b, e, std::index_sequence_for<B...>{});
  } else {
    const bool stream = plan.stream();
    run_tie_range(outs, bounds, b, e, stream, plan.share, std::index_sequence_for<B...>{});
    if (stream) stream_fence();
  }
}

}  // namespace sinter::detail
