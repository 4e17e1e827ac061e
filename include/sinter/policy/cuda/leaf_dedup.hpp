#pragma once
/// \file leaf_dedup.hpp
/// One vector load per distinct array on the vector path of the fused kernel.
///
/// An array used twice in an expression (`tanh(a*0.5f+b)*c - sqrt(abs(a))`)
/// is two memory leaves of the tree. The kernel is one instantiation per
/// expression *type*, and whether two leaves view the same elements is a
/// runtime fact, so it is decided at launch: find_leaf_sources (host) gives
/// each memory leaf, in depth-first order, its *source*: itself, or the first
/// earlier leaf of the identical type with the same pointer, shape and
/// strides (so a(slice(0, -1)) and a(slice(1, end)), or one pointer under two
/// stride vectors, stay distinct). The vector step (load_step) then loads
/// each leaf's W-lane chunk once, in leaf order, into one value per leaf; a
/// leaf whose source is another leaf skips its load and takes that leaf's
/// value by a select among the earlier leaves of its type (indices known at
/// compile time: no dynamic register indexing, no local memory); then the
/// tree is evaluated from those values. A leaf with no earlier leaf of its
/// type has nothing to check: its load is unconditional.
///
/// Only the vector loop uses the sources. The scalar loop (head and tail of
/// the vector path, fewer than 2W elements; the whole contiguous path) and
/// the strided loop read each leaf on its own, as before.
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "../../core/leaf.hpp"
#include "../../core/map_node.hpp"
#include "../../core/tree_fold.hpp"

namespace sinter::detail::cuda_detail {

/// What the vector step reports: no_probe, the default, reports nothing
/// (an empty inline function: no code in real builds).
/// tests/policy/test_cuda_kernel_body.cpp passes a counting probe instead.
struct no_probe {
  /// A leaf's chunk of `bytes` bytes at `p` is loaded.
  SINTER_HD static constexpr void vector_load(const void*, std::size_t) {}
};

/// Mutable access to the I-th element of a pack (pack.hpp's get is const).
template <std::size_t I, class H, class... T>
SINTER_HD SINTER_FORCEINLINE constexpr auto& get_mut(pack<H, T...>& p) {
  if constexpr (I == 0) return p.head;
  else return get_mut<I - 1>(p.tail);
}

/// The elements of two packs, in order, as one pack.
template <class... A, class... B, std::size_t... I, std::size_t... J>
SINTER_HD SINTER_FORCEINLINE pack<A..., B...> concat_impl(const pack<A...>& a, const pack<B...>& b,
                                                          std::index_sequence<I...>, std::index_sequence<J...>) {
  return make_pack(get<I>(a)..., get<J>(b)...);
}
/// The elements of any number of packs, in order, as one pack.
SINTER_HD SINTER_FORCEINLINE constexpr pack<> concat() { return {}; }
/// One pack: itself.
template <class... A>
SINTER_HD SINTER_FORCEINLINE pack<A...> concat(const pack<A...>& a) { return a; }
/// Two or more: the first two joined, then the rest.
template <class... A, class... B, class... P>
SINTER_HD SINTER_FORCEINLINE auto concat(const pack<A...>& a, const pack<B...>& b, const P&... rest) {
  return concat(concat_impl(a, b, std::index_sequence_for<A...>{}, std::index_sequence_for<B...>{}), rest...);
}

/// A memory leaf's W lanes, already loaded, standing in for its unit_cursor
/// in the tree the vector step evaluates.
template <class U, int W>
struct lanes_cursor {
  lanes<U, W> x;
  /// Declared for map_cursor's value type only (unevaluated; never called).
  SINTER_HD U load(index_t) const;
  /// The loaded lanes (the vector step's one position).
  template <int N>
  SINTER_HD SINTER_FORCEINLINE lanes<U, N> load_n(index_t) const {
    static_assert(N == W);
    return x;
  }
};

/// A lanes_cursor over loaded lanes.
template <class U, int W>
SINTER_HD SINTER_FORCEINLINE lanes_cursor<U, W> make_lanes_cursor(const lanes<U, W>& x) {
  return {x};
}

/// A map_cursor over the given children.
template <class F, class... C>
SINTER_HD SINTER_FORCEINLINE map_cursor<F, C...> make_map_cursor(const F& f, const C&... c) {
  return {f, make_pack(c...)};
}

/// Whether a cursor is a memory leaf's (unit_cursor).
template <class C>
struct is_unit_cursor : std::false_type {};
template <class T>
struct is_unit_cursor<unit_cursor<T>> : std::true_type {};

/// Memory leaves (unit_cursor) in a linear cursor tree (core/tree_fold.hpp).
template <class C>
inline constexpr std::size_t unit_count_v = fold_tree_v<sum_leaves_fold<is_unit_cursor>, C>;

/// How the vector step walks a linear cursor tree (node.linear()): its
/// memory leaves (unit_count_v), `cursors` them in depth-first order, and
/// `with_values<K>` the same tree with memory leaf K + j replaced by the
/// loaded value j of a pack. Primary: generators and scalars, no memory.
template <class C>
struct leaf_walk {
  /// Its memory leaves' cursors, depth first.
  SINTER_HD static SINTER_FORCEINLINE pack<> cursors(const C&) { return {}; }
  /// The tree evaluated from loaded values (nothing to replace here).
  template <std::size_t K, class V>
  SINTER_HD static SINTER_FORCEINLINE C with_values(const C& c, const V&) {
    return c;
  }
};

/// A memory leaf: one cursor, replaced by loaded value K.
template <class T>
struct leaf_walk<unit_cursor<T>> {
  /// Itself.
  SINTER_HD static SINTER_FORCEINLINE pack<unit_cursor<T>> cursors(const unit_cursor<T>& c) {
    return make_pack(c);
  }
  /// Loaded value K.
  template <std::size_t K, class V>
  SINTER_HD static SINTER_FORCEINLINE auto with_values(const unit_cursor<T>&, const V& v) {
    return make_lanes_cursor(get<K>(v));
  }
};

/// A map node: its children's memory leaves, in order.
template <class F, class... C>
struct leaf_walk<map_cursor<F, C...>> {
  /// Memory leaves in children 0 .. i-1.
  SINTER_HD static constexpr std::size_t offset(std::size_t i) {
    const std::size_t n[] = {unit_count_v<C>..., 0};
    std::size_t s = 0;
    for (std::size_t j = 0; j < i; ++j) s += n[j];
    return s;
  }
  /// cursors, child by child.
  template <std::size_t... I>
  SINTER_HD static SINTER_FORCEINLINE auto cursors_impl(const map_cursor<F, C...>& m, std::index_sequence<I...>) {
    return concat(leaf_walk<C>::cursors(get<I>(m.c))...);
  }
  /// The children's cursors, concatenated.
  SINTER_HD static SINTER_FORCEINLINE auto cursors(const map_cursor<F, C...>& m) {
    return cursors_impl(m, std::index_sequence_for<C...>{});
  }
  /// with_values, child I's leaves numbered from K + offset(I).
  template <std::size_t K, class V, std::size_t... I>
  SINTER_HD static SINTER_FORCEINLINE auto with_values_impl(const map_cursor<F, C...>& m, const V& v,
                                                            std::index_sequence<I...>) {
    return make_map_cursor(m.fn(), leaf_walk<C>::template with_values<K + offset(I)>(get<I>(m.c), v)...);
  }
  /// The same map over its children evaluated from loaded values.
  template <std::size_t K, class V>
  SINTER_HD static SINTER_FORCEINLINE auto with_values(const map_cursor<F, C...>& m, const V& v) {
    return with_values_impl<K>(m, v, std::index_sequence_for<C...>{});
  }
};

/// Memory leaves of a bound expression node (its linear cursor's).
template <class Node>
inline constexpr std::size_t memory_leaf_count_v =
    unit_count_v<decltype(std::declval<const Node&>().linear())>;

/// For each memory leaf, depth first, the leaf whose chunk it takes on the
/// vector path: src[k] == k loads its own, src[k] = j < k takes leaf j's
/// (same type, same elements). A kernel parameter (trivially copyable).
template <std::size_t M>
struct leaf_sources {
  static_assert(M < 256, "leaf_sources: at most 255 memory leaves per expression");
  std::uint8_t src[M > 0 ? M : 1];
  /// Leaves that take another leaf's value: loads saved per vector step.
  SINTER_HD constexpr int repeats() const {
    int r = 0;
    for (std::size_t k = 0; k != M; ++k) r += src[k] != k;
    return r;
  }
};

/// The sources of a bound node's memory leaves: leaf k takes the source of
/// the first earlier leaf of the same element type and rank (an array's
/// dense leaf and a view of it alike: memory_leaf<T, R, D>, any D) with the
/// same pointer, shape and strides, so the same element at every position.
template <class Node>
leaf_sources<memory_leaf_count_v<Node>> find_leaf_sources(const Node& bound) {
  leaf_sources<memory_leaf_count_v<Node>> s{};
  for (std::size_t k = 0; k != memory_leaf_count_v<Node>; ++k) s.src[k] = static_cast<std::uint8_t>(k);
  std::size_t k = 0;
  for_each_leaf(bound, [&](const auto& a) {
    using A = std::remove_cvref_t<decltype(a)>;
    if constexpr (is_memory_leaf<A>::value) {
      std::size_t j = 0;
      for_each_leaf(bound, [&](const auto& b) {
        using B = std::remove_cvref_t<decltype(b)>;
        if constexpr (is_memory_leaf<B>::value) {
          if constexpr (std::is_same_v<decltype(a.ptr), decltype(b.ptr)> && A::rank == B::rank)
            // k < sizeof src is always true; stated so that GCC's -Warray-bounds
            // at -O3 sees it (not k < M: nvcc calls that pointless when M = 0)
            if (k < sizeof s.src && j < k && s.src[k] == k && a.ptr == b.ptr &&
                a.shape == b.shape && a.strides == b.strides)
              s.src[k] = s.src[j];
          ++j;
        }
      });
      ++k;
    }
  });
  return s;
}

/// The type of the I-th element of a pack type.
template <std::size_t I, class P>
using pack_element_t = std::remove_cvref_t<decltype(get<I>(std::declval<const P&>()))>;

/// The first leaf before K of the same cursor type as leaf K (K if none).
template <class Cs, std::size_t K, std::size_t... J>
constexpr std::size_t first_twin(std::index_sequence<J...>) {
  std::size_t first = K;
  ((first = first == K && std::is_same_v<pack_element_t<J, Cs>, pack_element_t<K, Cs>> ? J : first), ...);
  return first;
}
/// first_twin over every leaf before K.
template <class Cs, std::size_t K>
inline constexpr std::size_t first_twin_v = first_twin<Cs, K>(std::make_index_sequence<K>{});

/// Leaf K takes leaf J's value if J is its source s (J a twin of K); the
/// first twin unconditionally, as the default the later ones override.
template <class Cs, std::size_t K, std::size_t J, class V>
SINTER_HD SINTER_FORCEINLINE void take_if(V& v, unsigned s) {
  if constexpr (J == first_twin_v<Cs, K>) get_mut<K>(v) = get<J>(v);
  else if constexpr (J > first_twin_v<Cs, K> && std::is_same_v<pack_element_t<J, Cs>, pack_element_t<K, Cs>>)
    if (s == J) get_mut<K>(v) = get<J>(v);
  (void)s;
}
/// Leaf K takes its source s's value: a select among its twins before it.
template <class Cs, std::size_t K, class V, std::size_t... J>
SINTER_HD SINTER_FORCEINLINE void take(V& v, unsigned s, std::index_sequence<J...>) {
  (take_if<Cs, K, J>(v, s), ...);
}

/// Value K of the vector step at element i: leaf K's chunk, loaded, unless
/// Dedup and its source is an earlier twin, whose value it takes instead.
template <int W, class Probe, bool Dedup, std::size_t K, class Cs, class V, std::size_t M>
SINTER_HD SINTER_FORCEINLINE void load_leaf(const Cs& cs, const leaf_sources<M>& sources, index_t i, V& v) {
  if constexpr (Dedup && first_twin_v<Cs, K> != K) {
    const unsigned s = sources.src[K];
    if (s != K) {
      take<Cs, K>(v, s, std::make_index_sequence<K>{});
      return;
    }
  }
  (void)sources;
  const auto& cur = get<K>(cs);
  Probe::vector_load(cur.p + i, sizeof(get<K>(v)));
  get_mut<K>(v) = cur.template load_n<W>(i);
}

/// load_step over leaves 0 .. M-1 (the pack `v` of their values, value-
/// initialised, then filled in leaf order).
template <int W, class Probe, bool Dedup, class C, class Cs, std::size_t M, std::size_t... K>
SINTER_HD SINTER_FORCEINLINE auto load_step_impl(const C& c, const Cs& cs, const leaf_sources<M>& sources, index_t i,
                                                 std::index_sequence<K...>) {
  pack<decltype(get<K>(cs).template load_n<W>(i))...> v{};
  (load_leaf<W, Probe, Dedup, K>(cs, sources, i, v), ...);
  (void)cs, (void)sources;
  return leaf_walk<C>::template with_values<0>(c, v).template load_n<W>(i);
}
/// Elements i .. i+W-1 of the expression (cursor c, memory cursors
/// cs = leaf_walk<C>::cursors(c)): each memory leaf's chunk loaded, in leaf
/// order, or with Dedup taken from its source if that is an earlier twin;
/// then the tree evaluated from them. Without Dedup every leaf loads
/// unconditionally and `sources` is not read: the same code as evaluating
/// the cursor tree directly.
template <int W, class Probe, bool Dedup, class C, class Cs, std::size_t M>
SINTER_HD SINTER_FORCEINLINE auto load_step(const C& c, const Cs& cs, const leaf_sources<M>& sources, index_t i) {
  static_assert(M == unit_count_v<C>);
  return load_step_impl<W, Probe, Dedup>(c, cs, sources, i, std::make_index_sequence<M>{});
}

/// The memory cursors of a bound node, as leaf_walk lists them.
template <class Node>
using memory_cursors_t = decltype(leaf_walk<decltype(std::declval<const Node&>().linear())>::cursors(
    std::declval<const Node&>().linear()));

/// Whether any of leaves K... has an earlier leaf of its type.
template <class Cs, std::size_t... K>
constexpr bool has_twins(std::index_sequence<K...>) {
  return (false || ... || (first_twin_v<Cs, K> != K));
}
/// Whether a bound node has two memory leaves of the identical type: only
/// then can a leaf repeat another, and only then is there a dedup kernel.
template <class Node>
inline constexpr bool has_twins_v =
    has_twins<memory_cursors_t<Node>>(std::make_index_sequence<memory_leaf_count_v<Node>>{});

}  // namespace sinter::detail::cuda_detail
