#pragma once
/// \file twin_nodes.hpp
/// A repeated subexpression evaluated once: `(a - b) * (a - b)`.
///
/// That expression is a map node whose two children are the same
/// subexpression, built twice. Evaluated as written, each element reads a
/// and b twice. A hand-written loop reads them once, because its compiler
/// sees the same pointers; in an expression tree the leaves are separate
/// copies, whose pointers the compiler cannot prove equal. In cache, the
/// extra loads are the cost of such a pass
/// (docs/journal/code-notes.md#twin-pairs).
///
/// So before a CPU pass (host and par, elementwise and reductions), a *twin
/// pair* (a product of two children of one interior-node type: a square
/// written out) whose children are equal at run time is replaced by a
/// one-child node applying f(x, x) (twin_fn, f the product): the child is
/// evaluated once. Equal means the same arrays with the same layout,
/// bitwise equal scalars, and functors that are empty or bitwise equal.
/// Values are bitwise those of the tree as written.
///
/// Cost in code: one more instantiation of the pass, and only for
/// expression types that have a twin pair. It runs only when every twin
/// pair of the tree is equal; otherwise the tree runs as written. Only
/// products pair, and only interior nodes: `a * b` (two leaves of one type)
/// and `abs(a) + abs(b)` (one node type twice, other operands) are common
/// and would each pay that instantiation for a merge that never happens;
/// a square written out as a product is the common case of a repeat.
#include <cstddef>
#include <cstring>
#include <type_traits>
#include <utility>

#include "leaf.hpp"
#include "map_node.hpp"
#include "ops.hpp"
#include "tree_fold.hpp"

namespace sinter::detail {

/// The functor of a merged twin pair: f(x, x) from the pair's binary f
/// (its cost is f's: op_traits.hpp).
template <class F>
struct twin_fn {
  static constexpr op_cost cost = op_traits<F>::cost;
  F f;
  template <class V>
  SINTER_HD SINTER_FORCEINLINE auto operator()(V v) const {
    return f(v, v);
  }
};

template <class N>
struct is_map_node : std::false_type {};
template <class F, class... A>
struct is_map_node<map_node<F, A...>> : std::true_type {};

/// Whether map_node<F, A...> is a twin pair: F's traits say so (multiply)
/// and its two children are of one map-node type.
template <class N>
struct is_twin_pair : std::false_type {};
template <class F, class X>
struct is_twin_pair<map_node<F, X, X>> : std::bool_constant<op_traits<F>::twin_pair && is_map_node<X>::value> {};

/// What a node type holds of twin pairs: `pair`, itself one (a product of
/// two children of one map-node type); `any`, it or a node below it (a
/// pair's second child is not looked into: it is the first one's equal
/// whenever the pair is merged).
template <bool Pair, bool Any>
struct twin_facts {
  static constexpr bool pair = Pair;
  static constexpr bool any = Any;
};
/// Visitor (tree_fold.hpp): twin_facts of a tree.
struct twin_fold {
  template <class L>
  using leaf = twin_facts<false, false>;
  template <class N, class F, class... R>
  using node = twin_facts<is_twin_pair<N>::value, is_twin_pair<N>::value || (false || ... || R::any)>;
};
/// twin_facts of the tree of node type N.
template <class N>
using twin_traits = fold_tree_t<twin_fold, N>;

/// Whether a (bound) node type has a twin pair anywhere in its tree.
template <class Node>
inline constexpr bool has_twins_v = twin_traits<Node>::any;

/// Bitwise equality of two values of a functor, generator or scalar type:
/// empty types are equal; types with padding or several representations of
/// a value are never equal (no merge: the tree runs as written).
template <class T>
bool same_bits(const T& a, const T& b) {
  if constexpr (std::is_empty_v<T>) return true;
  else if constexpr (std::has_unique_object_representations_v<T> || std::is_same_v<T, float> ||
                     std::is_same_v<T, double>)
    return std::memcmp(&a, &b, sizeof(T)) == 0;
  else return false;
}

template <class N>
bool same_node(const N& a, const N& b);

template <class P, std::size_t... I>
bool same_children(const P& a, const P& b, std::index_sequence<I...>) {
  return (true && ... && same_node(get<I>(a), get<I>(b)));
}

/// Whether two bound nodes of one type give the same value at every
/// position: the same memory with the same layout, the same generators and
/// scalars, the same functors.
template <class N>
bool same_node(const N& a, const N& b) {
  if constexpr (is_map_node<N>::value) {
    return same_bits(a.fn(), b.fn()) && a.shape == b.shape &&
           same_children(a.args, b.args, std::make_index_sequence<pack_size_v<decltype(a.args)>>{});
  } else if constexpr (is_memory_leaf<N>::value) {
    return a.ptr == b.ptr && a.shape == b.shape && a.strides == b.strides;
  } else if constexpr (requires { a.gen; }) {
    return same_bits(a.gen, b.gen) && a.base == b.base && a.shape == b.shape && a.strides == b.strides;
  } else {
    return same_bits(a.value, b.value);
  }
}

/// Whether every twin pair of a bound node has equal children.
template <class N>
bool twins_equal(const N& n) {
  if constexpr (!twin_traits<N>::any) {
    return true;
  } else if constexpr (twin_traits<N>::pair) {
    return same_node(get<0>(n.args), get<1>(n.args)) && twins_equal(get<0>(n.args));
  } else {
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
      return (true && ... && twins_equal(get<I>(n.args)));
    }(std::make_index_sequence<pack_size_v<decltype(n.args)>>{});
  }
}

/// The node with every twin pair replaced by map_node<twin_fn<F>, child>
/// (call only when twins_equal(n)).
template <class N>
auto merge_twins(const N& n) {
  if constexpr (!twin_traits<N>::any) {
    return n;
  } else if constexpr (twin_traits<N>::pair) {
    using F = typename N::functor_type;
    auto child = merge_twins(get<0>(n.args));
    return map_node<twin_fn<F>, decltype(child)>{twin_fn<F>{n.fn()}, make_pack(child), n.shape};
  } else {
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
      using F = typename N::functor_type;
      return map_node<F, decltype(merge_twins(get<I>(n.args)))...>{n.fn(), make_pack(merge_twins(get<I>(n.args))...),
                                                                  n.shape};
    }(std::make_index_sequence<pack_size_v<decltype(n.args)>>{});
  }
}

/// run(node) on the bound node with its twin pairs merged when they are all
/// equal, else on the node as written. (Node types without twin pairs call
/// run(bound) directly: no wrapper to compile for them.)
template <class Node, class Run>
auto with_twins_merged(const Node& bound, Run&& run) {
  if constexpr (has_twins_v<Node>)
    if (twins_equal(bound)) return run(merge_twins(bound));
  return run(bound);
}

/// How a pass with merged twins is marked in its trace detail.
inline constexpr const char* twins_merged_note = ", repeated subexpression evaluated once";

}  // namespace sinter::detail
