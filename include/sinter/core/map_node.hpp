#pragma once
/// \file map_node.hpp
/// The one interior node of an expression tree: apply a stateless functor to
/// the values of its children at the same position. Every operator and free
/// function (`a + b`, `exp(x)`, `where(c, x, y)`, `map(f, ...)`) builds one.
#include <algorithm>
#include <cstddef>
#include <type_traits>
#include <utility>

#include "leaf.hpp"
#include "pack.hpp"

namespace sinter::detail {

template <std::size_t... R>
inline constexpr std::size_t max_rank_v = [] {
  std::size_t m = 0;
  ((m = std::max(m, R)), ...);
  return m;
}();

/// Where a node or cursor keeps its functor, as a base class: a functor
/// with state is stored; an empty one that can be default-constructed (every
/// built-in op) is not stored at all and made when called. A member would
/// take a byte padded to 8, and GCC keeps an expression tree in registers
/// only up to a size (--param sra-max-scalarization-size-Ospeed): with
/// these members a 160-byte row broadcast tree left registers, 128 bytes
/// stay (store forwarding: docs/design.md#store-forwarding). A base, not
/// [[no_unique_address]]: nvcc's kernel parameters disagree with that
/// attribute's layout (a 128-byte tree took a 184-byte parameter).
template <class F, bool Stored = !(std::is_empty_v<F> && std::is_trivially_default_constructible_v<F>)>
struct fn_slot {
  F f_;
  constexpr fn_slot() = default;
  SINTER_HD constexpr fn_slot(const F& f) : f_(f) {}  // NOLINT: implicit, for a node's brace initialiser
  /// The functor.
  SINTER_HD SINTER_FORCEINLINE constexpr const F& fn() const { return f_; }
};
template <class F>
struct fn_slot<F, false> {
  constexpr fn_slot() = default;
  SINTER_HD constexpr fn_slot(const F&) {}  // NOLINT: implicit, for a node's brace initialiser
  /// The functor (stateless: a fresh one).
  SINTER_HD SINTER_FORCEINLINE constexpr F fn() const { return F{}; }
};

/// Cursor of a map node: loads its children's cursors and applies its functor.
template <class F, class... C>
struct map_cursor : fn_slot<F> {
  pack<C...> c;

  template <std::size_t... I>
  SINTER_HD SINTER_FORCEINLINE auto load_impl(index_t i, std::index_sequence<I...>) const {
    return this->fn()(get<I>(c).load(i)...);
  }
  SINTER_HD SINTER_FORCEINLINE auto load(index_t i) const {
    return load_impl(i, std::index_sequence_for<C...>{});
  }

  template <int W, std::size_t... I>
  SINTER_HD SINTER_FORCEINLINE auto load_n_impl(index_t i, std::index_sequence<I...>) const {
    const pack<decltype(get<I>(c).template load_n<W>(i))...> in =
        make_pack(get<I>(c).template load_n<W>(i)...);
    using V = decltype(this->fn()(get<I>(c).load(i)...));
    lanes<V, W> out;
    const F f = this->fn();
    for (int k = 0; k < W; ++k) out.v[k] = f(get<I>(in).v[k]...);
    return out;
  }
  /// Elements i .. i+W-1: every memory leaf read with one vector access.
  template <int W>
  SINTER_HD SINTER_FORCEINLINE auto load_n(index_t i) const {
    return load_n_impl<W>(i, std::index_sequence_for<C...>{});
  }
};

/// map_node<F, A...>: value = f(a(idx)...), shape = broadcast of the children's.
template <class F, class... A>
struct map_node : fn_slot<F> {
  using value_type = std::remove_cvref_t<decltype(std::declval<const F&>()(
      std::declval<typename A::value_type>()...))>;
  static constexpr std::size_t rank = max_rank_v<A::rank...>;
  using functor_type = F;
  pack<A...> args;
  extents<rank> shape;

  /// pack.hpp's copy_node.
  SINTER_HD SINTER_FORCEINLINE map_node copy_fields() const {
    return {this->fn(), copy_pack(args), copy_extents(shape)};
  }

  template <std::size_t RO, std::size_t... I>
  SINTER_HD auto bind_impl(const extents<RO>& out, std::index_sequence<I...>) const {
    using bound = map_node<F, decltype(get<I>(args).bind(out))...>;
    return bound{this->fn(), make_pack(get<I>(args).bind(out)...), out};
  }
  template <std::size_t RO>
  SINTER_HD auto bind(const extents<RO>& out) const {
    return bind_impl(out, std::index_sequence_for<A...>{});
  }

  template <std::size_t... I>
  SINTER_HD SINTER_FORCEINLINE bool unit_impl(std::index_sequence<I...>) const {
    return (true && ... && get<I>(args).unit());
  }
  /// Whether every leaf is contiguous row-major. Forced inline, as the
  /// leaves' unit(): in a large translation unit GCC called it as a
  /// function from assign's inline test, the bound node stored to the stack
  /// for it (docs/journal/code-notes.md#unit-inline).
  SINTER_HD SINTER_FORCEINLINE bool unit() const { return unit_impl(std::index_sequence_for<A...>{}); }

  template <std::size_t... I>
  SINTER_HD bool mergeable_impl(std::size_t d, std::index_sequence<I...>) const {
    return (true && ... && get<I>(args).mergeable(d));
  }
  /// Whether every leaf can traverse axes d and d+1 as one.
  SINTER_HD bool mergeable(std::size_t d) const {
    return mergeable_impl(d, std::index_sequence_for<A...>{});
  }
  template <std::size_t... I>
  SINTER_HD map_node merged_impl(std::size_t d, std::index_sequence<I...>) const {
    map_node m{this->fn(), make_pack(get<I>(args).merged(d)...), shape};
    m.shape[d + 1] *= m.shape[d];
    m.shape[d] = 1;
    return m;
  }
  /// The same node with axis d folded into axis d+1 in every leaf.
  SINTER_HD map_node merged(std::size_t d) const {
    return merged_impl(d, std::index_sequence_for<A...>{});
  }

  template <std::size_t RO, std::size_t... I>
  SINTER_HD map_node permuted_impl(const extents<RO>& perm, std::index_sequence<I...>) const {
    map_node m{this->fn(), make_pack(get<I>(args).permuted(perm)...), shape};
    for (std::size_t d = 0; d != RO; ++d) m.shape[d] = shape[static_cast<std::size_t>(perm[d])];
    return m;
  }
  /// The same (bound) node with its axes reordered: axis d is axis perm[d].
  template <std::size_t RO>
  SINTER_HD map_node permuted(const extents<RO>& perm) const {
    return permuted_impl(perm, std::index_sequence_for<A...>{});
  }

  template <std::size_t... I>
  SINTER_HD auto linear_impl(std::index_sequence<I...>) const {
    return map_cursor<F, decltype(get<I>(args).linear())...>{this->fn(), make_pack(get<I>(args).linear()...)};
  }
  SINTER_HD auto linear() const { return linear_impl(std::index_sequence_for<A...>{}); }

  template <std::size_t... I>
  SINTER_HD bool rows_step_is_impl(index_t k, std::index_sequence<I...>) const {
    return (true && ... && get<I>(args).rows_step_is(k));
  }
  /// Whether every leaf's rows have stride k (step_row<k> applies).
  SINTER_HD bool rows_step_is(index_t k) const { return rows_step_is_impl(k, std::index_sequence_for<A...>{}); }
  template <index_t K, std::size_t RO, std::size_t... I>
  SINTER_HD auto step_row_impl(const extents<RO>& idx, std::index_sequence<I...>) const {
    return map_cursor<F, decltype(get<I>(args).template step_row<K>(idx))...>{
        this->fn(), make_pack(get<I>(args).template step_row<K>(idx)...)};
  }
  /// Cursor over the row at outer index idx, every leaf read at stride K.
  template <index_t K, std::size_t RO>
  SINTER_HD auto step_row(const extents<RO>& idx) const {
    return step_row_impl<K>(idx, std::index_sequence_for<A...>{});
  }

  template <std::size_t RO, std::size_t... I>
  SINTER_HD auto row_impl(const extents<RO>& idx, std::index_sequence<I...>) const {
    return map_cursor<F, decltype(get<I>(args).row(idx))...>{this->fn(), make_pack(get<I>(args).row(idx)...)};
  }
  template <std::size_t RO>
  SINTER_HD auto row(const extents<RO>& idx) const {
    return row_impl(idx, std::index_sequence_for<A...>{});
  }
};

/// Visit every leaf of a node (memory, generator, scalar), depth first.
template <class Node, class V>
SINTER_FORCEINLINE void for_each_leaf(const Node& n, V&& v);
template <class Node, class V, std::size_t... I>
SINTER_FORCEINLINE void for_each_child_leaf(const Node& n, V& v, std::index_sequence<I...>) {
  (for_each_leaf(get<I>(n.args), v), ...);
}
template <class Node, class V>
SINTER_FORCEINLINE void for_each_leaf(const Node& n, V&& v) {
  if constexpr (requires { n.args; }) {
    for_each_child_leaf(n, v, std::make_index_sequence<pack_size_v<decltype(n.args)>>{});
  } else {
    v(n);
  }
}

}  // namespace sinter::detail
