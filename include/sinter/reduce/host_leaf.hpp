#pragma once
/// \file host_leaf.hpp
/// The host reduction engine's tiles and leaves (host_engine.hpp is the
/// include point): the tile and leaf sizes, evaluating a strided range into
/// a tile buffer (eval_range), the lanes of a pairwise leaf (fold_leaf) and
/// their balanced tree (fold_lanes), and load_as, the read of a contiguous cursor.
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
#include "ops.hpp"

namespace sinter::detail::reduce_host {


/// Elements per tile: 16 KiB of floats, L1-resident.
inline constexpr index_t tile_elems = 4096;
/// Tiles per parallel task in par.
inline constexpr index_t tiles_per_task = 8;

/// Evaluate the bound node's flat positions [s, e) (row-major over `shape`)
/// into out[0, e - s).
template <class V, std::size_t R, class Node>
void eval_range(const Node& node, const extents<R>& shape, index_t s, index_t e, V* out) {
  if constexpr (R == 0) {
    if (s < e) out[0] = node.linear().load(0);
  } else {
    if (node.unit()) {
      store_run(out, node.linear(), s, e - s);
      return;
    }
    const index_t inner = shape[R - 1];
    extents<R> idx{};
    index_t r = s / inner;
    index_t j = s - r * inner;
    for (std::size_t d = R - 1; d-- > 0;) {
      idx[d] = r % shape[d];
      r /= shape[d];
    }
    index_t pos = s;
    while (pos < e) {
      const auto c = node.row(idx);
      const index_t cnt = inner - j < e - pos ? inner - j : e - pos;
      store_run(out + (pos - s), c, j, cnt);
      pos += cnt;
      j = 0;
      for (std::size_t d = R - 1; d-- > 0;) {
        if (++idx[d] < shape[d]) break;
        idx[d] = 0;
      }
    }
  }
}

/// Independent accumulators in a pairwise leaf, by accumulator type: 256
/// bytes of them (64 floats, 32 doubles or 64-bit integers; 32 for any other
/// size), four AVX-512 (eight AVX2) vector adds in flight, which hides the
/// add's latency (32 float lanes kept only two AVX-512 adds in flight). A
/// fixed count per type, not the machine's vector width, so results do not
/// depend on the ISA.
template <class A>
inline constexpr int leaf_lanes = sizeof(A) == 4 ? 64 : 32;
/// Elements of a pairwise leaf: 32 per lane (2048 for 4-byte accumulators,
/// 1024 otherwise; a tile is 2 or 4 leaves). Large enough that the lane set
/// up and the final tree cost little next to the adds (blocks of 128 ran at
/// a quarter of the memory's speed), small enough for accuracy (each lane
/// adds at most 32 elements in sequence).
template <class A>
inline constexpr index_t leaf_block = 32 * leaf_lanes<A>;

/// Balanced tree over lanes [0, 2W): lane k combined with lane k + W, then
/// the lower half again. W is a constant at each level, so every level is
/// one fixed-width vector operation (a runtime loop over w made GCC emit
/// peeled, partly scalar code for each level).
template <class Op, int W, class A>
SINTER_FORCEINLINE A fold_lanes(A* lane) {
  for (int k = 0; k < W; ++k) lane[k] = Op::combine(lane[k], lane[k + W]);
  if constexpr (W > 1) return fold_lanes<Op, W / 2>(lane);
  else return lane[0];
}

/// One leaf: the n <= leaf_block values x(off + k) (flat indices base + k)
/// folded into L = leaf_lanes<A> accumulators, element k to lane k % L in
/// sequence.
template <class Op, class V, class X, class A>
SINTER_FORCEINLINE void fold_leaf(const X& x, index_t off, index_t n, index_t base, A* lane) {
  constexpr int L = leaf_lanes<A>;
  for (int k = 0; k < L; ++k) lane[k] = Op::template identity<V>();
  index_t i = 0;
  for (; i + L <= n; i += L)
    for (int k = 0; k < L; ++k)
      lane[k] = Op::combine(lane[k], Op::template lift<V>(x(off + i + k), base + i + k));
  for (int k = 0; i + k < n; ++k)
    lane[k] = Op::combine(lane[k], Op::template lift<V>(x(off + i + k), base + i + k));
}

/// x(i) of pairwise for a contiguous cursor: its value at i as V (one
/// named type, so both callers of reduce_range share one pairwise). It holds
/// the cursor by value and pairwise takes it by value: a cursor of two
/// pointers then arrives in two registers. Held by reference, pairwise read
/// the pointers back from the caller's stack before its first load
/// (docs/journal/code-notes.md#reduce-fold-registers).
template <class V, class C>
struct load_as {
  C c;
  SINTER_FORCEINLINE V operator()(index_t i) const { return static_cast<V>(c.load(i)); }
};

}  // namespace sinter::detail::reduce_host
