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

/// SINTER_DETAIL_VEC_LANES is 1 where float and double sums and products
/// keep their lanes in GCC vector values (vec_pairwise): GCC, host code.
#if defined(__GNUC__) && !defined(__clang__) && !defined(__INTEL_LLVM_COMPILER) && !defined(__CUDA_ARCH__)
#define SINTER_DETAIL_VEC_LANES 1
#else
#define SINTER_DETAIL_VEC_LANES 0
#endif

#if SINTER_DETAIL_VEC_LANES
/// Bytes of the vector values that hold a pairwise fold's lanes: the
/// target's vector registers (64 with AVX-512, 32 with AVX, else 16). GCC
/// splits a vector value wider than the ISA's into halves that it moved
/// through general registers: with 64-byte values on an AVX2 build, a float
/// dot product ran at a fraction of Eigen's speed
/// (docs/journal/code-notes.md#reduce-fold-registers).
#if defined(__AVX512F__)
inline constexpr int vec_lane_bytes = 64;
#elif defined(__AVX__)
inline constexpr int vec_lane_bytes = 32;
#else
inline constexpr int vec_lane_bytes = 16;
#endif
/// vec_lane_bytes of A as one GCC vector value.
template <class A>
struct vec_of {};
template <>
struct vec_of<float> {
  typedef float type __attribute__((vector_size(vec_lane_bytes)));
};
template <>
struct vec_of<double> {
  typedef double type __attribute__((vector_size(vec_lane_bytes)));
};
/// a = Op::combine(a, b) on vector values, by reference (a vector passed by
/// value changes the calling convention where it is wider than the ISA's).
template <class Op, class T>
SINTER_FORCEINLINE void vec_combine(T& a, const T& b) {
  if constexpr (std::is_same_v<Op, reduce_ops::sum>) a = a + b;
  else a = a * b;
}
/// a[j] = Op::combine(a[j], b[j]) for each vector of lanes j (written out,
/// not a loop: a loop kept the vectors in memory).
template <class Op, class T, int... j>
SINTER_FORCEINLINE void vec_combine_all(T* a, const T* b, std::integer_sequence<int, j...>) {
  (vec_combine<Op>(a[j], b[j]), ...);
}
/// a[j] = b[j] for each vector of lanes j (written out, as vec_combine_all).
template <class T, int... j>
SINTER_FORCEINLINE void vec_copy_all(T* a, const T* b, std::integer_sequence<int, j...>) {
  ((a[j] = b[j]), ...);
}
/// a[j] = v for each vector of lanes j.
template <class T, int... j>
SINTER_FORCEINLINE void vec_fill(T* a, const T& v, std::integer_sequence<int, j...>) {
  ((a[j] = v), ...);
}
/// The vector levels of fold_lanes: a[k] = Op::combine(a[k], a[k + H]) for
/// k < H, then H / 2, down to one vector.
template <class Op, int H, class T, int... k>
SINTER_FORCEINLINE void vec_tree(T* a, std::integer_sequence<int, k...>) {
  (vec_combine<Op>(a[k], a[k + H]), ...);
  if constexpr (H > 1) vec_tree<Op, H / 2>(a, std::make_integer_sequence<int, H / 2>{});
}
/// acc = Op::combine(acc, (lift(x(o + t)), t = 0 .. W-1)): W consecutive
/// values as one vector value, written without a loop (a loop over its
/// elements made GCC build the vector in memory).
template <class Op, class V, class T, class X, int... t>
SINTER_FORCEINLINE void vec_fold(T& acc, const X& x, index_t o, index_t b, std::integer_sequence<int, t...>) {
  const T v = {Op::template lift<V>(x(o + t), b + t)...};
  vec_combine<Op>(acc, v);
}
/// vec_fold into each vector of lanes j: cur[j] takes the W values at
/// o + j * W.
template <class Op, class V, int W, class T, class X, int... j>
SINTER_FORCEINLINE void vec_fold_all(T* cur, const X& x, index_t o, index_t b, std::integer_sequence<int, j...>) {
  (vec_fold<Op, V>(cur[j], x, o + j * W, b + j * W, std::make_integer_sequence<int, W>{}), ...);
}
#if SINTER_HOST_SIMD
/// Whether vec_pairwise's last, partial row of lanes is read as vectors
/// (vec_fold_rest): the lanes' vectors are the explicit loop's
/// (policy/host/simd.hpp) and it evaluates the cursor C of A.
template <class A, class C>
inline constexpr bool vec_rest_v = simd::vector_bytes == vec_lane_bytes && simd::evaluates_v<A, C>;
/// acc = Op::combine(acc, c at o .. o + n) on the first n lanes, for any n:
/// a whole vector, or a masked load and a select (the other lanes keep acc,
/// as fold_leaf leaves them), or nothing.
template <class Op, class A, class T, class C>
SINTER_FORCEINLINE void vec_fold_part(T& acc, const C& c, index_t o, index_t n) {
  constexpr int W = static_cast<int>(sizeof(T) / sizeof(A));
  if (n >= W) {
    vec_combine<Op>(acc, simd::eval<C, A>::load(c, o));
  } else if (n > 0) {
    T merged = acc;
    vec_combine<Op>(merged, simd::eval<C, A>::load_part(c, o, n));
    acc = simd::select_first<A>(merged, acc, n);
  }
}
/// vec_fold_part into each vector of lanes j: the r < L values at o fold
/// into lanes 0 .. r - 1, in registers. Through the lane array (scalar
/// stores, then vector loads of them) the loads waited on the stores
/// (store forwarding: docs/design.md#store-forwarding;
/// docs/journal/code-notes.md#reduce-fold-registers).
template <class Op, class A, int W, class T, class C, int... j>
SINTER_FORCEINLINE void vec_fold_rest(T* cur, const C& c, index_t o, index_t r, std::integer_sequence<int, j...>) {
  (vec_fold_part<Op, A>(cur[j], c, o + j * W, r - j * W), ...);
}
#else
template <class A, class C>
inline constexpr bool vec_rest_v = false;
#endif
/// Whether a contiguous cursor computes its elements with plain arithmetic
/// only (loads, scalars, and ops of cost class plain, op_traits.hpp: + - *
/// negation, abs, square, fma, and a merged twin pair of them), which GCC
/// vectorises when vec_fold gathers W of them into one vector. With a
/// maths function (exp, tanh...) it would not: its SIMD clones serve
/// loops, not straight-line code, so every element would be a scalar call.
template <class F>
inline constexpr bool plain_fn_v = op_traits<F>::cost == op_cost::plain;
/// Whether a leaf cursor is plain: memory or a scalar.
template <class C>
struct plain_leaf : std::false_type {};
template <class U>
struct plain_leaf<unit_cursor<U>> : std::true_type {};
template <class S>
struct plain_leaf<scalar_leaf<S>> : std::true_type {};
/// Visitor (core/tree_fold.hpp): whether a cursor tree is plain.
struct plain_fold {
  template <class L>
  using leaf = plain_leaf<L>;
  template <class N, class F, class... R>
  using node = std::bool_constant<plain_fn_v<F> && (true && ... && R::value)>;
};
/// Whether cursor C computes with plain arithmetic only (above).
template <class C>
inline constexpr bool plain_cursor_v = fold_tree_v<plain_fold, C>;

/// Whether pairwise's x reads a plain cursor (plain_cursor_v).
template <class X>
inline constexpr bool plain_load_v = false;
template <class V, class C>
inline constexpr bool plain_load_v<load_as<V, C>> = plain_cursor_v<std::remove_const_t<C>>;

/// Whether pairwise runs as vec_pairwise: float and double sums and
/// products of plain arithmetic read straight from memory (the others keep
/// the lane arrays, whose loop GCC vectorises with its SIMD clones).
template <class Op, class A, class X>
inline constexpr bool vec_lanes_v = (std::is_same_v<Op, reduce_ops::sum> || std::is_same_v<Op, reduce_ops::prod>) &&
                                    (std::is_same_v<A, float> || std::is_same_v<A, double>) && plain_load_v<X>;

/// pairwise with its leaf_lanes<A> lanes held as vector values of the
/// target's width (vec_lane_bytes: four AVX-512 vectors, eight AVX ones),
/// not arrays: the same lanes, order and bits. GCC kept the arrays on the
/// stack, stored and reloaded between the leaf loop, its remainder, the
/// leaves' combination and the final tree, a store-to-load round trip each
/// on the critical path (docs/journal/code-notes.md#reduce-fold-registers).
/// The remainder of a leaf (fewer than
/// L elements) is read with masked vector loads where the explicit vector
/// loop evaluates the cursor (vec_fold_rest: float and double with AVX2 and
/// FMA or AVX-512), else it goes through an array, as in fold_leaf.
template <class Op, class V, class X>
SINTER_FORCEINLINE auto vec_pairwise(const X& x, index_t off, index_t n, index_t base) {
  using A = typename Op::template acc_t<V>;
  using T = typename vec_of<A>::type;
  constexpr int L = leaf_lanes<A>;
  constexpr int W = vec_lane_bytes / static_cast<int>(sizeof(A));
  constexpr int NV = L / W;
  static_assert(NV * W == L && NV >= 2, "whole vectors of lanes");
  using vectors = std::make_integer_sequence<int, NV>;
  constexpr index_t B = leaf_block<A>;
  const T id = T{} + Op::template identity<V>();
  T acc[NV] = {}, pair[NV] = {};
  const index_t leaves = n > B ? (n + B - 1) / B : 1;
  for (index_t l = 0; l < leaves; ++l) {
    const index_t o = off + l * B, b = base + l * B, m = n - l * B < B ? n - l * B : B;
    T cur[NV];
    vec_fill(cur, id, vectors{});
    index_t i = 0;
    for (; i + L <= m; i += L) vec_fold_all<Op, V, W>(cur, x, o + i, b + i, vectors{});
    if (i < m) {
      if constexpr (vec_rest_v<A, std::remove_const_t<std::remove_reference_t<decltype(x.c)>>>) {
        vec_fold_rest<Op, A, W>(cur, x.c, o + i, m - i, vectors{});
      } else {
        A lane[L];
        __builtin_memcpy(lane, cur, sizeof lane);
        for (index_t k = 0; i + k < m; ++k) lane[k] = Op::combine(lane[k], Op::template lift<V>(x(o + i + k), b + i + k));
        __builtin_memcpy(cur, lane, sizeof lane);
      }
    }
    // ((L0 + L1) + (L2 + L3)), per vector.
    if (l == 0) vec_copy_all(acc, cur, vectors{});
    else if (l == 1) vec_combine_all<Op>(acc, cur, vectors{});
    else if (l == 2) vec_copy_all(pair, cur, vectors{});
    else vec_combine_all<Op>(pair, cur, vectors{});
  }
  if (leaves > 2) vec_combine_all<Op>(acc, pair, vectors{});
  // fold_lanes' levels down to one vector (lane k with k + L/2, then k +
  // L/4, ...: vector j with j + NV/2, ...), then the lanes of that vector.
  vec_tree<Op, NV / 2>(acc, std::make_integer_sequence<int, NV / 2>{});
  A lane[W];
  __builtin_memcpy(lane, &acc[0], sizeof lane);
  return fold_lanes<Op, W / 2>(lane);
}
#else
template <class Op, class A, class X>
inline constexpr bool vec_lanes_v = false;
#endif

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
  if constexpr (R >= 1) return len > 0 && len <= tile_elems && node.unit();
  else return false;
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
