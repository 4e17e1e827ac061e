#pragma once
/// \file tree_fold.hpp
/// One compile-time fold over the type of an expression tree, in place of a
/// recursive template per question asked of a tree (how many memory leaves,
/// whether every leaf is bufferable, where a repeated subexpression is...).
///
/// A *visitor* V is a class with two member templates whose results are
/// types (mp11 style: a value travels as a type with a static `value`):
///
///     template <class Leaf> using leaf = ...;
///     template <class Node, class F, class... R> using node = ...;
///
/// fold_tree_t<V, N> is `V::leaf<N>` for a leaf, and for an interior node
/// (a map_node or map_cursor with functor F and children A...)
/// `V::node<N, F, fold_tree_t<V, A>...>`: each child folded first, then
/// combined. fold_tree_v<V, N> is the result's `value`. A subtree's result
/// is one class instantiation, shared by every fold that meets it again
/// (shared_nodes.hpp asks of each subtree how often it occurs in the root).
///
/// Any type other than the two interior nodes is a leaf: memory, generator,
/// scalar and tile leaves, and their cursors. A visitor that must see
/// through a wrapper (shift_cursor) folds its child itself in `leaf`.
#include <cstddef>
#include <type_traits>

#include "map_node.hpp"

namespace sinter::detail {

/// V's result for the tree type N (see the file comment).
template <class V, class N>
struct fold_tree {
  using type = typename V::template leaf<N>;
};
template <class V, class F, class... A>
struct fold_tree<V, map_node<F, A...>> {
  using type = typename V::template node<map_node<F, A...>, F, typename fold_tree<V, A>::type...>;
};
template <class V, class F, class... C>
struct fold_tree<V, map_cursor<F, C...>> {
  using type = typename V::template node<map_cursor<F, C...>, F, typename fold_tree<V, C>::type...>;
};

/// The result type of folding V over N.
template <class V, class N>
using fold_tree_t = typename fold_tree<V, N>::type;

/// The result's value of folding V over N.
template <class V, class N>
inline constexpr auto fold_tree_v = fold_tree_t<V, N>::value;

/// Visitor: whether Pred<L>::value holds for every leaf L.
template <template <class> class Pred>
struct all_leaves_fold {
  template <class L>
  using leaf = std::bool_constant<Pred<L>::value>;
  template <class N, class F, class... R>
  using node = std::bool_constant<(true && ... && R::value)>;
};

/// Visitor: whether Pred<L>::value holds for some leaf L.
template <template <class> class Pred>
struct any_leaf_fold {
  template <class L>
  using leaf = std::bool_constant<Pred<L>::value>;
  template <class N, class F, class... R>
  using node = std::bool_constant<(false || ... || R::value)>;
};

/// Visitor: the sum of Size<L>::value over the leaves L (a count when Size
/// gives 0 or 1).
template <template <class> class Size>
struct sum_leaves_fold {
  template <class L>
  using leaf = std::integral_constant<std::size_t, Size<L>::value>;
  template <class N, class F, class... R>
  using node = std::integral_constant<std::size_t, (std::size_t{0} + ... + R::value)>;
};

/// The largest of V... (0 for none).
template <std::size_t... V>
inline constexpr std::size_t max_of_v = [] {
  const std::size_t vals[] = {0, V...};  // through variables: `0 > m` drew nvcc's "pointless comparison" (#186-D)
  std::size_t m = 0;
  for (const std::size_t v : vals) m = v > m ? v : m;
  return m;
}();

/// Visitor: the largest Size<L>::value over the leaves L (0 for none).
template <template <class> class Size>
struct max_leaf_fold {
  template <class L>
  using leaf = std::integral_constant<std::size_t, Size<L>::value>;
  template <class N, class F, class... R>
  using node = std::integral_constant<std::size_t, max_of_v<R::value...>>;
};

/// Visitor: how many times the node type X occurs in a tree (a node of type
/// X is not looked into: X cannot hold itself).
template <class X>
struct count_type_fold {
  template <class L>
  using leaf = std::integral_constant<int, std::is_same_v<X, L> ? 1 : 0>;
  template <class N, class F, class... R>
  using node = std::integral_constant<int, std::is_same_v<X, N> ? 1 : (0 + ... + R::value)>;
};

/// How many times node type X occurs in the tree of node type N.
template <class X, class N>
inline constexpr int occurrences_v = fold_tree_v<count_type_fold<X>, N>;

/// Visitor: the depth of a tree (a leaf is 1).
struct depth_fold {
  template <class L>
  using leaf = std::integral_constant<std::size_t, 1>;
  template <class N, class F, class... R>
  using node = std::integral_constant<std::size_t, 1 + max_of_v<R::value...>>;
};

}  // namespace sinter::detail
