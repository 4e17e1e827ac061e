#pragma once
/// \file scan/host.hpp
/// The CPU scan engine behind host and par.
///
/// Rows (a flat scan is one row): a row is cut into segments of seg_elems
/// elements and tiles of seg_lanes segments, fixed whatever the thread
/// count. A tile's values are computed into a stack buffer (the producer
/// runs once per element, vectorised, as an assignment's loop); each
/// segment is scanned from the identity as its own chain (seg_lanes chains
/// interleaved, which hides the add's latency), and element i of segment g
/// is combine(carry_g, local_i), carry_{g+1} = combine(carry_g, total_g) in
/// segment order. par runs the same tiles with a decoupled look-back: a tile
/// publishes its segment totals, then folds its predecessors' (left to
/// right from the nearest published carry, the same additions in the same
/// order) to get its carry: one pass over memory, and the same bits for any
/// thread count.
///
/// A non-last axis walks memory in order: blocks of whole rows (or of
/// tile_elems columns) are computed into the buffer and folded into one
/// accumulator per column, vectorised across the columns; par splits the
/// outer index (and column blocks) across threads.
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <memory>
#include <thread>

#include "../policy/host/plan.hpp"
#include "../policy/host/thread_pool.hpp"
#include "../reduce/host_engine.hpp"
#include "ops.hpp"

namespace sinter::detail::scan_host {

/// Elements of a segment: one accumulation chain from the identity.
inline constexpr index_t seg_elems = 512;
/// Segments of a tile, scanned as interleaved chains.
inline constexpr int seg_lanes = 8;
/// Elements of a tile (16 KiB of floats).
inline constexpr index_t tile_elems = seg_elems * seg_lanes;

/// Whether a row's tiles are read straight from the node's contiguous cursor
/// (plain memory: nothing to compute), rather than computed into a buffer.
template <class C>
inline constexpr bool direct_v = false;
template <class U>
inline constexpr bool direct_v<unit_cursor<U>> = true;

/// tot[k] = fold of segment k from the identity, for a tile's m <=
/// tile_elems values x(0 .. m); returns the number of segments. A full
/// tile runs its seg_lanes chains interleaved (independent adds hide the
/// add's latency); a partial one, segment by segment: the same values.
template <class Op, class V, class X, class A>
SINTER_NOINLINE int tile_totals(const X& x, index_t m, A* tot) {
  const int segs = static_cast<int>((m + seg_elems - 1) / seg_elems);
  for (int k = 0; k < seg_lanes; ++k) tot[k] = Op::template identity<V>();
  if (m == tile_elems) {
    for (index_t i = 0; i < seg_elems; ++i)
      for (int k = 0; k < seg_lanes; ++k) tot[k] = Op::combine(tot[k], Op::template lift<V>(x(k * seg_elems + i)));
  } else {
    for (int k = 0; k < segs; ++k)
      for (index_t i = k * seg_elems; i < std::min(m, (k + 1) * seg_elems); ++i)
        tot[k] = Op::combine(tot[k], Op::template lift<V>(x(i)));
  }
  return segs;
}

/// One segment, x(b .. e): out[i] = the fold from `carry` up to i, rounded
/// once; returns the segment's fold from the identity (its total, as
/// tile_totals computes it). Two independent chains, one add each.
template <class Op, class V, class R, class X, class A>
SINTER_FORCEINLINE A seg_scan(const X& x, index_t b, index_t e, A carry, R* out) {
  A loc = Op::template identity<V>(), run = carry;
  for (index_t i = b; i < e; ++i) {
    const A v = Op::template lift<V>(x(i));
    loc = Op::combine(loc, v);
    run = Op::combine(run, v);
    out[i] = scan_ops::to_result<R>(run);
  }
  return loc;
}

/// A tile's m values x(0 .. m) scanned from its carry in; returns the carry
/// out: carry_{k+1} = combine(carry_k, total_k), segment by segment, the
/// totals computed here or, when given (par), read from tot.
/// Out of line: one copy per (Op, V, R), whatever the producer.
template <class Op, class V, bool Given = false, class R, class X, class A>
SINTER_NOINLINE A tile_scan(const X& x, index_t m, A carry, R* out, const A* tot = nullptr) {
  for (index_t b = 0, k = 0; b < m; b += seg_elems, ++k) {
    const A t = seg_scan<Op, V>(x, b, std::min(m, b + seg_elems), carry, out);
    if constexpr (Given) carry = Op::combine(carry, tot[k]);
    else carry = Op::combine(carry, t);
  }
  return carry;
}

/// A tile's values, x(i): from memory or from the tile buffer (one type for
/// both, so the scan loops are compiled once).
template <class V>
struct tile_values {
  const V* p;
  SINTER_FORCEINLINE V operator()(index_t i) const { return p[i]; }
};

/// The values of tile [p, p + m) of the node: straight from memory when the
/// node is contiguous memory of V (direct_v), else computed into buf.
template <class V, std::size_t Rank, class Node>
SINTER_FORCEINLINE tile_values<V> tile_at(const Node& node, const extents<Rank>& shape, index_t p, index_t m, V* buf) {
  using C = std::remove_cvref_t<decltype(node.linear())>;
  if constexpr (Rank >= 1 && direct_v<C>)
    if constexpr (std::is_same_v<std::remove_cvref_t<decltype(*node.linear().p)>, V>)
      if (node.unit()) return {node.linear().p + p};
  reduce_host::eval_range<V>(node, shape, p, p + m, buf);
  return {buf};
}

/// One row: flat positions [s, s + len) of the bound node into out[0, len), on this thread.
template <class Op, class R, std::size_t Rank, class Node>
void scan_row(const Node& node, const extents<Rank>& shape, index_t s, index_t len, R* out) {
  using V = typename Node::value_type;
  using A = typename Op::template acc_t<V>;
  V buf[tile_elems];
  A carry = Op::template identity<V>();
  for (index_t b = 0; b < len; b += tile_elems) {
    const index_t m = std::min(tile_elems, len - b);
    carry = tile_scan<Op, V>(tile_at<V>(node, shape, s + b, m, buf), m, carry, out + b);
  }
}

/// A tile's published state for the look-back: 0 taken, 1 totals, 2 carry out too.
template <class A>
struct tile_state {
  std::atomic<int> flag{0};
  A tot[seg_lanes];
  A incl;
};

/// scan_row on the pool's threads: tiles taken in order from a counter,
/// each one's carry from its predecessors' published totals (file comment).
template <class Op, class R, std::size_t Rank, class Node>
void scan_row_par(const Node& node, const extents<Rank>& shape, index_t s, index_t len, R* out) {
  using V = typename Node::value_type;
  using A = typename Op::template acc_t<V>;
  const index_t tiles = (len + tile_elems - 1) / tile_elems;
  std::unique_ptr<tile_state<A>[]> states(new tile_state<A>[static_cast<std::size_t>(tiles)]);
  tile_state<A>* const st = states.get();  // indexed by index_t (unique_ptr's [] takes size_t)
  std::atomic<index_t> next{0};
  default_pool().parallel_for(get_num_threads(), [&](std::int64_t) {
    V buf[tile_elems];
    for (;;) {
      const index_t t = next.fetch_add(1, std::memory_order_relaxed);
      if (t >= tiles) return;
      const index_t b = t * tile_elems, m = std::min(tile_elems, len - b);
      const tile_values<V> x = tile_at<V>(node, shape, s + b, m, buf);
      {
        const int segs = tile_totals<Op, V>(x, m, st[t].tot);
        st[t].flag.store(1, std::memory_order_release);
        // Back to the nearest tile with its carry out; every earlier tile is
        // taken (the counter is monotonic), so each wait ends.
        index_t j = t - 1;
        for (int spins = 0; j >= 0;) {
          const int f = st[j].flag.load(std::memory_order_acquire);
          if (f == 2) break;
          if (f == 1) --j;
          else if (++spins > 64) std::this_thread::yield();
        }
        A carry = j >= 0 ? st[j].incl : Op::template identity<V>();
        for (index_t q = j + 1; q < t; ++q)
          for (int k = 0; k < seg_lanes; ++k) carry = Op::combine(carry, st[q].tot[k]);
        A out_carry = carry;
        for (int k = 0; k < segs; ++k) out_carry = Op::combine(out_carry, st[t].tot[k]);
        st[t].incl = out_carry;
        st[t].flag.store(2, std::memory_order_release);
        tile_scan<Op, V, true>(x, m, carry, out + b, st[t].tot);
      }
    }
  });
}

/// acc[i] = combine(acc[i], row r's value i), out at row r = acc, for `rows`
/// rows of `cw` values `inner` apart: vectorised across the columns. Out of
/// line: one copy per (Op, V, R), whatever the producer.
template <class Op, class V, class R, class A>
SINTER_NOINLINE void col_rows(const V* buf, index_t rows, index_t inner, index_t cw, A* acc, R* out) {
  for (index_t r = 0; r < rows; ++r) {
    const V* in = buf + r * inner;
    R* o_row = out + r * inner;
    for (index_t i = 0; i < cw; ++i) {
      acc[i] = Op::combine(acc[i], Op::template lift<V>(in[i]));
      o_row[i] = scan_ops::to_result<R>(acc[i]);
    }
  }
}

/// Scan along the middle axis of (outer, len, inner) flat positions, inner > 1:
/// out at the same positions. Work item w: outer index w / blocks, column block w % blocks.
template <class Op, bool Parallel, class R, std::size_t Rank, class Node>
void scan_cols(const Node& node, const extents<Rank>& shape, index_t outer, index_t len, index_t inner, R* out,
               bool parallel) {
  using V = typename Node::value_type;
  using A = typename Op::template acc_t<V>;
  const index_t width = std::min(inner, tile_elems);
  const index_t blocks = (inner + width - 1) / width;
  // Whole rows per buffer when a row fits (one producer call for several rows).
  const index_t rows_per = inner <= tile_elems ? tile_elems / inner : 1;
  auto item = [&](index_t w) {
    const index_t o = w / blocks, c0 = (w % blocks) * width, cw = std::min(width, inner - c0);
    V buf[tile_elems];
    A acc[tile_elems];
    for (index_t i = 0; i < cw; ++i) acc[i] = Op::template identity<V>();
    for (index_t j0 = 0; j0 < len; j0 += rows_per) {
      const index_t rows = std::min(rows_per, len - j0);
      const index_t p = (o * len + j0) * inner + c0;
      reduce_host::eval_range<V>(node, shape, p, p + (rows - 1) * inner + cw, buf);
      col_rows<Op>(buf, rows, inner, cw, acc, out + p);
    }
  };
  const index_t items = outer * blocks;
  if constexpr (Parallel) {
    if (parallel && items > 1) {
      const index_t chunks = std::min<index_t>(items, 4 * get_num_threads());
      const index_t per = (items + chunks - 1) / chunks;
      default_pool().parallel_for(chunks, [&](std::int64_t k) {
        for (index_t w = k * per; w < std::min(items, (k + 1) * per); ++w) item(w);
      });
      return;
    }
  }
  for (index_t w = 0; w < items; ++w) item(w);
}

/// Scan of the bound node (row-major over shape) viewed as (outer, len, inner)
/// along len, into out (row-major, the same positions); Parallel (par): on
/// the pool's threads when large enough.
template <class Op, bool Parallel, class R, std::size_t Rank, class Node>
void scan(const Node& node, const extents<Rank>& shape, index_t outer, index_t len, index_t inner, R* out) {
  if (outer * len * inner == 0) return;
  const bool parallel = Parallel && outer * len * inner >= 2 * par_grain && get_num_threads() > 1;
  if (inner > 1) return scan_cols<Op, Parallel>(node, shape, outer, len, inner, out, parallel);
  if constexpr (Parallel) {
    if (parallel && outer >= 2 * get_num_threads()) {
      const index_t chunks = std::min<index_t>(outer, 4 * get_num_threads());
      const index_t per = (outer + chunks - 1) / chunks;
      default_pool().parallel_for(chunks, [&](std::int64_t k) {
        for (index_t o = k * per; o < std::min(outer, (k + 1) * per); ++o)
          scan_row<Op>(node, shape, o * len, len, out + o * len);
      });
      return;
    }
    if (parallel && len >= 2 * tile_elems) {
      for (index_t o = 0; o < outer; ++o) scan_row_par<Op>(node, shape, o * len, len, out + o * len);
      return;
    }
  }
  for (index_t o = 0; o < outer; ++o) scan_row<Op>(node, shape, o * len, len, out + o * len);
}

}  // namespace sinter::detail::scan_host
