#pragma once
/// \file host_leaf.hpp
/// The host reduction engine's tiles and leaves (host_engine.hpp is the
/// include point): the tile and leaf sizes, evaluating a strided range into
/// a tile buffer (eval_range), the lanes of a pairwise leaf (fold_leaf) and
/// their balanced tree (fold_lanes), and load_as, the read of a contiguous cursor.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <type_traits>
#include <utility>

#include "../core/leaf.hpp"
#include "../core/map_node.hpp"
#include "../core/shared_nodes.hpp"
#include "../core/tree_fold.hpp"
#include "../policy/host/buffered.hpp"
#include "../policy/host/loop.hpp"
#include "../policy/host/shared.hpp"
#include "../policy/host/thread_pool.hpp"
#include "ops.hpp"

namespace sinter::detail::reduce_host {


/// Elements per tile: 16 KiB of floats, L1-resident.
inline constexpr index_t tile_elems = 4096;
/// Tiles per parallel task in par.
inline constexpr index_t tiles_per_task = 8;

/// Its address names the generator type G (gen_scratch's record of leaves).
template <class G>
inline constexpr char gen_tag = 0;

/// Scratch for the values of a tile's random leaves (sinter::random: run
/// generators, policy/host/buffered.hpp): one buffer of tile_elems elements
/// per such leaf of Node, on the stack up to 64 KiB, else on the heap. An
/// equal leaf (x * x: the same generator, first element and stride) reads
/// the buffer already filled.
template <class Node>
struct gen_scratch {
  static constexpr std::size_t count = fold_tree_v<sum_leaves_fold<run_gen_leaf>, Node>;
  static constexpr std::size_t slot = (static_cast<std::size_t>(tile_elems) * leaf_size_v<Node> + 63) / 64 * 64;
  static constexpr bool on_stack = count * slot <= 65536;
  struct filled {
    const void* tag;
    const void* gen;
    index_t at, step;
    const void* buf;
  };
  alignas(64) unsigned char local[on_stack ? count * slot : 64];
  std::unique_ptr<unsigned char[]> heap;
  unsigned char* first = local;
  unsigned char* next = local;
  filled seen[count];
  std::size_t used = 0;
  gen_scratch() {
    if constexpr (!on_stack) {
      heap.reset(new unsigned char[count * slot + 64]);
      first = next = heap.get() + (64 - reinterpret_cast<std::uintptr_t>(heap.get()) % 64) % 64;
    }
  }
  /// Every buffer free again (the next row piece or tile).
  void reset() {
    next = first;
    used = 0;
  }
  /// The buffer of g's elements at, at + step, ...: fill(buf) fills a new
  /// one unless an equal leaf's is there (bytes of g compared: a false
  /// difference only costs a fill).
  template <class G, class Fill>
  const typename G::value_type* values(const G& g, index_t at, index_t step, Fill fill) {
    using V = typename G::value_type;
    for (std::size_t i = 0; i < used; ++i)
      if (seen[i].tag == &gen_tag<G> && seen[i].at == at && seen[i].step == step &&
          std::memcmp(seen[i].gen, &g, sizeof(G)) == 0)
        return static_cast<const V*>(seen[i].buf);
    V* const buf = reinterpret_cast<V*>(next);
    next += slot;
    fill(buf);
    seen[used++] = {&gen_tag<G>, &g, at, step, buf};
    return buf;
  }
};

/// The contiguous cursor of a bound node over the n positions from b, read
/// from index 0 (load(k) is position b + k): each random leaf's values
/// computed first into a buffer of sc by whole Philox blocks (fill_run),
/// which g(i) per element would compute four times over; the other leaves
/// read in place. The same values, and ops, as node.linear() shifted by b.
template <class N, class S>
SINTER_FORCEINLINE auto gen_tile_cursor(const N& n, index_t b, index_t, S&) {
  return shift_cursor<std::remove_const_t<decltype(n.linear())>>{n.linear(), b};
}
template <class T, std::size_t R, bool D, class S>
SINTER_FORCEINLINE unit_cursor<T> gen_tile_cursor(const memory_leaf<T, R, D>& l, index_t b, index_t, S&) {
  return {l.linear().p + b};
}
template <class T, class S>
SINTER_FORCEINLINE scalar_leaf<T> gen_tile_cursor(const scalar_leaf<T>& l, index_t, index_t, S&) {
  return l;
}
template <class G, std::size_t R, class S>
SINTER_FORCEINLINE auto gen_tile_cursor(const gen_leaf<G, R>& l, index_t b, index_t n, S& sc) {
  using V = typename G::value_type;
  if constexpr (run_generator<G>) {
    return unit_cursor<const V>{sc.values(l.gen, l.base + b, 1, [&](V* buf) { l.gen.fill_run(l.base + b, n, buf); })};
  } else {
    return gen_unit_cursor<G>{l.gen, l.base + b};
  }
}
template <class F, class... A, class S, std::size_t... I>
SINTER_FORCEINLINE auto gen_tile_cursor_of(const map_node<F, A...>& m, index_t b, index_t n, S& sc,
                                           std::index_sequence<I...>) {
  return map_cursor<F, decltype(gen_tile_cursor(get<I>(m.args), b, n, sc))...>{
      m.fn(), make_pack(gen_tile_cursor(get<I>(m.args), b, n, sc)...)};
}
template <class F, class... A, class S>
SINTER_FORCEINLINE auto gen_tile_cursor(const map_node<F, A...>& m, index_t b, index_t n, S& sc) {
  return gen_tile_cursor_of(m, b, n, sc, std::index_sequence_for<A...>{});
}

/// The row cursor of a bound node over columns [j, j + n) of row idx, as
/// node.row(idx): each random leaf's values there in a buffer of sc (whole
/// Philox blocks along a row of stride 1 or -1, one value for a broadcast
/// row, element by element at other strides), read as load(j + k).
template <class N, std::size_t R, class S>
SINTER_FORCEINLINE auto gen_row_cursor(const N& node, const extents<R>& idx, index_t, index_t, S&) {
  return node.row(idx);
}
template <class G, std::size_t R, class S>
SINTER_FORCEINLINE auto gen_row_cursor(const gen_leaf<G, R>& l, const extents<R>& idx, index_t j, index_t n, S& sc) {
  using V = typename G::value_type;
  if constexpr (run_generator<G>) {
    const index_t st = l.strides[R - 1], at = l.base + row_offset(idx, l.strides) + j * st;
    return tile_cursor<V>{sc.values(l.gen, at, st, [&](V* buf) {
                            if (st == 1) {
                              l.gen.fill_run(at, n, buf);
                            } else if (st == -1) {
                              l.gen.fill_run(at - (n - 1), n, buf);
                              std::reverse(buf, buf + n);
                            } else if (st == 0) {
                              const V v = n > 0 ? l.gen(at) : V{};
                              for (index_t k = 0; k < n; ++k) buf[k] = v;
                            } else {
                              for (index_t k = 0; k < n; ++k) buf[k] = l.gen(at + k * st);
                            }
                          }),
                          j};
  } else {
    return l.row(idx);
  }
}
template <class F, class... A, std::size_t R, class S, std::size_t... I>
SINTER_FORCEINLINE auto gen_row_cursor_of(const map_node<F, A...>& m, const extents<R>& idx, index_t j, index_t n,
                                          S& sc, std::index_sequence<I...>) {
  return map_cursor<F, decltype(gen_row_cursor(get<I>(m.args), idx, j, n, sc))...>{
      m.fn(), make_pack(gen_row_cursor(get<I>(m.args), idx, j, n, sc)...)};
}
template <class F, class... A, std::size_t R, class S>
SINTER_FORCEINLINE auto gen_row_cursor(const map_node<F, A...>& m, const extents<R>& idx, index_t j, index_t n,
                                       S& sc) {
  return gen_row_cursor_of(m, idx, j, n, sc, std::index_sequence_for<A...>{});
}

/// Evaluate the bound node's flat positions [s, e) (row-major over `shape`)
/// into out[0, e - s). A tree holding a random leaf evaluates each row
/// piece through gen_row_cursor (e - s <= tile_elems then).
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
    [[maybe_unused]] std::conditional_t<has_run_gen_v<Node>, gen_scratch<Node>, char> sc{};
    index_t pos = s;
    while (pos < e) {
      const index_t cnt = inner - j < e - pos ? inner - j : e - pos;
      if constexpr (has_run_gen_v<Node>) {
        sc.reset();
        store_run(out + (pos - s), gen_row_cursor(node, idx, j, cnt, sc), j, cnt);
      } else {
        store_run(out + (pos - s), node.row(idx), j, cnt);
      }
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
