#pragma once
/// \file host_engine.hpp
/// The CPU reduction engine behind host and par. A reduction consumes its
/// elementwise producer directly: values are computed tile by tile into a
/// small stack buffer (contiguous producers are folded straight from their
/// loads, with no buffer) and folded with a pairwise scheme like NumPy's
/// (leaf_lanes accumulators over leaves of leaf_block elements, halves
/// combined recursively), so float sums stay accurate (error O(log n)).
///
/// Determinism: the input is cut into fixed tiles of `tile_elems` elements
/// whatever the thread count; par reduces tiles in parallel and the partials
/// are combined in one fixed pairwise order. The same input gives bitwise the
/// same result for any number of threads.
///
/// This file: the pairwise fold of a tile, the tiles folded (in parallel
/// on par) and combined, and reduce_range; tiles and leaves are in
/// host_leaf.hpp, the vector-lane fold in host_vec_lanes.hpp.
#include <cstddef>
#include <memory>
#include <type_traits>
#include <utility>

#include "../core/leaf.hpp"
#include "../core/map_node.hpp"
#include "../core/shared_nodes.hpp"
#include "../core/tree_fold.hpp"
#include "../policy/host/loop.hpp"
#include "../policy/host/shared.hpp"
#include "../policy/host/thread_pool.hpp"
#include "host_leaf.hpp"
#include "host_vec_lanes.hpp"
#include "ops.hpp"

namespace sinter::detail::reduce_host {

/// Pairwise fold of the n values x(off + k), k in [0, n) (flat indices
/// base + k), in the manner of NumPy's. Up to 4 leaves (a tile): leaves of
/// `leaf_block<A>` consecutive elements (the last may be shorter), each
/// folded into leaf_lanes<A> lanes; the leaves' lanes combined lane by lane
/// as a balanced tree ((L0 + L1) + (L2 + L3)), then the lanes as a balanced
/// tree (6 levels for 64 lanes, 5 for 32).
/// Error O(log n), like NumPy's; n <= tile_elems (reduce_range combines
/// the tiles pairwise). `x` is a load from a contiguous cursor (load_as,
/// by value) or from a tile buffer.
/// One loop over the leaves, one copy of the leaf loop: with the four
/// leaves written out as four loops of 8 iterations each, the CPU's per
/// instruction stride prefetcher never trained on data in L2.
/// SINTER_WIDE_VECTORS: full-width AVX-512 vectors where GCC's tuning would
/// use half (docs/journal/code-notes.md#reduce-fold-registers).
template <class Op, class V, class X>
SINTER_NOINLINE SINTER_WIDE_VECTORS auto pairwise(X x, index_t off, index_t n, index_t base) {
  using A = typename Op::template acc_t<V>;
  constexpr int L = leaf_lanes<A>;
  constexpr index_t B = leaf_block<A>;
  static_assert(tile_elems <= 4 * B, "a tile is at most 4 leaves");
  if constexpr (vec_lanes_v<Op, A, X>) {
    return vec_pairwise<Op, V>(x, off, n, base);
  } else {
    A acc[L], pair[L], cur[L];
    const index_t leaves = n > B ? (n + B - 1) / B : 1;
    for (index_t l = 0; l < leaves; ++l) {
      const index_t o = l * B;
      fold_leaf<Op, V>(x, off + o, n - o < B ? n - o : B, base + o, cur);
      // ((L0 + L1) + (L2 + L3)), or (L0 + L1) + L2 for three leaves. Written
      // out per leaf: one expression for all four (a pointer to acc or pair,
      // a select per lane) slowed double tiles in L2.
      if (l == 0) {
        for (int k = 0; k < L; ++k) acc[k] = cur[k];
      } else if (l == 1) {
        for (int k = 0; k < L; ++k) acc[k] = Op::combine(acc[k], cur[k]);
      } else if (l == 2) {
        for (int k = 0; k < L; ++k) pair[k] = cur[k];
      } else {
        for (int k = 0; k < L; ++k) pair[k] = Op::combine(pair[k], cur[k]);
      }
    }
    if (leaves > 2)
      for (int k = 0; k < L; ++k) acc[k] = Op::combine(acc[k], pair[k]);
    return fold_lanes<Op, L / 2>(acc);
  }
}

/// Pairwise combination of partial results, in index order.
template <class Op, class A>
A combine_partials(const A* p, std::size_t n) {
  if (n == 1) return p[0];
  const std::size_t h = n / 2;
  const A lo = combine_partials<Op>(p, h);
  return Op::combine(lo, combine_partials<Op>(p + h, n - h));
}

/// partial[t] = fold(b, e) for tiles t in [t0, t1) of the range [s, end),
/// t's flat positions [b, e). Everything arrives by value: the fold (a
/// contiguous reduction's holds its cursor) and the bounds are this call's
/// own, which no other code can see, so they stay in registers across the
/// calls to the fold. Captured by reference in a lambda that also went to
/// the thread pool, they were reloaded through a chain of three pointers
/// after every tile's call, and the next tile's first loads waited on it
/// (docs/journal/code-notes.md#reduce-fold-registers).
template <class A, class Fold>
SINTER_FORCEINLINE void fold_tile_span(Fold fold, index_t s, index_t end, index_t t0, index_t t1, A* partial) {
  for (index_t t = t0; t < t1; ++t) {
    const index_t b = s + t * tile_elems;
    partial[t] = fold(b, b + tile_elems < end ? b + tile_elems : end);
  }
}

/// Fold tiles [0, tiles) of a range of `len` elements from `s`:
/// partial[t] = fold_tile(b, e), t's flat positions [b, e), the tiles
/// optionally in parallel, then the partials combined pairwise in index
/// order (the same order for any thread count).
template <class A, class Op, class Fold>
A fold_tiles(index_t s, index_t len, bool parallel, const Fold& fold_tile) {
  const index_t tiles = (len + tile_elems - 1) / tile_elems;
  const index_t end = s + len;
  if (tiles == 1) return fold_tile(s, end);
  // Partials on the stack up to `stack_tiles` tiles, else on the heap
  // (unique_ptr, not std::vector: vector<bool> has no data(), any/all).
  constexpr index_t stack_tiles = 64;
  A stack_partial[stack_tiles]{};  // initialised: GCC cannot see every tile set (-Wmaybe-uninitialized)
  std::unique_ptr<A[]> heap_partial;
  if (tiles > stack_tiles) heap_partial.reset(new A[static_cast<std::size_t>(tiles)]);
  A* const partial = tiles > stack_tiles ? heap_partial.get() : stack_partial;
  const index_t tasks = (tiles + tiles_per_task - 1) / tiles_per_task;
  if (parallel && tasks > 1) {
    default_pool().parallel_for(tasks, [&](std::int64_t k) {
      const index_t t0 = k * tiles_per_task;
      fold_tile_span(fold_tile, s, end, t0, t0 + tiles_per_task < tiles ? t0 + tiles_per_task : tiles, partial);
    });
  } else {
    fold_tile_span(fold_tile, s, end, 0, tiles, partial);
  }
  return combine_partials<Op>(partial, static_cast<std::size_t>(tiles));
}

/// pairwise over positions [s, s + len) (at most a tile) of the contiguous
/// cursor c, element k entering with index base + k.
template <class Op, class V, class C>
SINTER_FORCEINLINE auto fold_unit(const C& c, index_t s, index_t len, index_t base) {
  return pairwise<Op, V>(load_as<V, C>{c}, s, len, base);
}

/// Whether reduce_range folds a range of len elements of node as one tile
/// straight from the node's contiguous cursor (fold_unit).
template <std::size_t R, class Node>
SINTER_FORCEINLINE bool one_unit_tile(const Node& node, index_t len) {
  if constexpr (R >= 1 && !has_run_gen_v<Node>) return len > 0 && len <= tile_elems && node.unit();
  else return false;  // a random leaf's tiles: reduce_tiles (gen_tile_cursor)
}

/// reduce_range over more than one tile, or a strided one. A contiguous
/// node's tiles fold from one cursor built here, in a lambda of its own:
/// tested and built per tile, inside the lambda that also holds the
/// strided path's tile buffer (16 KiB of stack), the folds ran slower than
/// called directly (docs/journal/code-notes.md#reduce-fold-registers).
template <class Op, std::size_t R, class Node>
auto reduce_tiles(const Node& node, const extents<R>& shape, index_t s, index_t len, bool parallel,
                  index_t origin) {
  using V = typename Node::value_type;
  using A = typename Op::template acc_t<V>;
  if (len == 0) return Op::template identity<V>();
  if constexpr (R >= 1) {
    if constexpr (has_run_gen_v<Node>) {
      if (node.unit())  // contiguous: the random leaves' values per tile in buffers, the rest read in place
        return fold_tiles<A, Op>(s, len, parallel, [&node, origin](index_t b, index_t e) {
          gen_scratch<Node> sc;
          return fold_unit<Op, V>(gen_tile_cursor(node, b, e - b, sc), 0, e - b, b - origin);
        });
    }
    if (node.unit()) {  // contiguous: fold straight from the producer, no tile copy
      const auto c = node.linear();
      return fold_tiles<A, Op>(s, len, parallel, [c, origin](index_t b, index_t e) {
        return fold_unit<Op, V>(c, b, e - b, b - origin);
      });
    }
  }
  return fold_tiles<A, Op>(s, len, parallel, [&](index_t b, index_t e) {
    V buf[tile_elems];
    eval_range<V>(node, shape, b, e, buf);
    return pairwise<Op, V>([&buf](index_t i) { return buf[i]; }, 0, e - b, b - origin);
  });
}

/// The full reduction of a contiguous bound node with a shared
/// subexpression (core/shared_nodes.hpp; shared_equal(node)): each tile
/// computes the subexpression once into a buffer, then folds the tree read
/// through it. The same tiles and fold order as reduce_range.
template <class Op, class Node>
auto reduce_shared(const Node& node, index_t len, bool parallel) {
  using V = typename Node::value_type;
  using A = typename Op::template acc_t<V>;
  using S = shared_t<Node>;
  using SV = typename S::value_type;
  if (len == 0) return Op::template identity<V>();
  const auto sc = first_shared<S>(node).linear();
  return fold_tiles<A, Op>(0, len, parallel, [&](index_t b, index_t e) {
    SV buf[tile_elems];
    store_range(buf, shift_cursor<std::remove_const_t<decltype(sc)>>{sc, b}, 0, e - b);
    return fold_unit<Op, V>(substitute_shared<S>(node, tile_leaf<SV, S::rank>{buf, b}).linear(), b, e - b, b);
  });
}

/// Fold flat positions [s, s + len) of the bound node: tiles folded pairwise,
/// tile results combined pairwise. Optionally the tiles run in parallel.
/// Elements enter with index position - origin (argmin/argmax along an axis:
/// the index within the reduced axes, origin = s).
/// Forced inline: a contiguous range of one tile is folded from a cursor
/// built in the caller, from the node's fields in registers. Built out of
/// line from the node in memory, GCC read two of its pointers with one
/// 16-byte load, which stalls on the 8-byte stores that had just written
/// them (40% of reduce_range's samples, float dot at 1024 elements).
template <class Op, std::size_t R, class Node>
SINTER_FORCEINLINE auto reduce_range(const Node& node, const extents<R>& shape, index_t s, index_t len,
                                     bool parallel, index_t origin = 0) {
  using V = typename Node::value_type;
  if (one_unit_tile<R>(node, len)) return fold_unit<Op, V>(node.linear(), s, len, s - origin);
  return reduce_tiles<Op>(node, shape, s, len, parallel, origin);
}

}  // namespace sinter::detail::reduce_host
