#pragma once
/// \file shared_nodes.hpp
/// A costly subexpression written more than once, computed once per element
/// on contiguous CPU passes: Black-Scholes' `d1` in
/// `s * N(d1) - k * N(d1 - v * sqrt(t))`, `d1 = (log(s / k) + ...) / ...`.
///
/// A lazy subexpression used twice is two copies in the tree, and the
/// compiler cannot merge their work: the copies' leaves are separate
/// pointers that it cannot prove equal. Evaluated as written, Black-Scholes
/// computes log and sqrt twice per output, and the fused pass lost to
/// sinter's own unfused version (one pass per operation;
/// docs/journal/code-notes.md#shared-subexpression).
///
/// So a contiguous host or par pass (policy/host/tie.hpp), and a full
/// reduction of a contiguous producer (reduce/host_engine.hpp), look, at
/// compile time, for the *shared* subexpression: the interior node type
/// that occurs at least twice in the bound tree, calls a maths function
/// (sqrt, exp, log, erf, tanh, pow, the trig functions...), and saves the
/// most such calls per element by being computed once (shared_pick, below;
/// the largest on a tie). A pass writing several outputs (tie.hpp) looks
/// across all of their trees. At run time every occurrence must equal the first
/// (same_node: the same arrays and layouts, bitwise equal scalars and
/// functors), else the pass runs as written. The pass then runs tile by
/// tile: the shared subexpression into a small buffer (its own vectorised
/// loop), then the tree with every occurrence replaced by a leaf that reads
/// the buffer (tile_leaf).
///
/// Values: each element of the subexpression is computed by the same
/// operations as before, so it is the same, up to FMA contraction. That
/// contraction can differ where the subexpression's last operation is a
/// product and a parent adds to it: in the tree as written the compiler may
/// fuse them, and from the buffer it cannot.
/// Cost in code: one more instantiation of the contiguous pass, and only
/// for expression types with such a repeat. Only one subexpression is
/// shared per pass. Strided and broadcast passes, reductions along axes and
/// CUDA kernels run the tree as written.
#include <algorithm>
#include <cstddef>
#include <type_traits>

#include "leaf.hpp"
#include "map_node.hpp"
#include "ops.hpp"
#include "tree_fold.hpp"
#include "twin_nodes.hpp"

namespace sinter::detail {

/// Whether a functor is worth computing once: its cost class is maths
/// (op_traits.hpp: sqrt, exp, log, erf, tanh, trig..., and pow).
template <class F>
inline constexpr bool costly_fn_v = op_traits<F>::cost == op_cost::maths;

/// Nodes in a tree, and how many of them call a costly function.
template <int Size, int Calls>
struct tree_counts {
  static constexpr int size = Size;
  static constexpr int calls = Calls;
};
/// Visitor (tree_fold.hpp): tree_counts of a tree.
struct tree_facts_fold {
  template <class L>
  using leaf = tree_counts<1, 0>;
  template <class N, class F, class... R>
  using node = tree_counts<1 + (0 + ... + R::size), (costly_fn_v<F> ? 1 : 0) + (0 + ... + R::calls)>;
};
/// tree_counts of the tree of node type N.
template <class N>
using tree_facts = fold_tree_t<tree_facts_fold, N>;

/// No shared subexpression.
struct no_shared {};

/// The better of several picks: the one that saves more costly calls
/// (score), the larger (node count) on a tie, the first on a tie of both.
template <class... P>
struct larger_pick {
  using type = no_shared;
  static constexpr int score = 0;
  static constexpr int size = 0;
};
template <class P, class... Q>
struct larger_pick<P, Q...> {
  using rest = larger_pick<Q...>;
  static constexpr bool first = P::score > rest::score || (P::score == rest::score && P::size >= rest::size);
  using type = std::conditional_t<first, typename P::type, typename rest::type>;
  static constexpr int score = first ? P::score : rest::score;
  static constexpr int size = first ? P::size : rest::size;
};

/// The shared subexpression of Root found in its subtree Self, given R...,
/// the picks of Self's children: of Self itself (if it occurs at least twice
/// in Root and calls a costly function) and the best of R..., the one whose sharing saves the most costly
/// calls per element, (occurrences - 1) x calls: in Black-Scholes' call and
/// put written by one pass (tie.hpp), d1 (log and sqrt, 4 occurrences)
/// rather than d2 = d1 - v sqrt(t) (2 occurrences, which would leave d1
/// computed twice more). On a tie the larger one (Self).
template <class Root, class Self, class... R>
struct shared_pick {
  static constexpr int occ = occurrences_v<Self, Root>;
  static constexpr int self_score = occ >= 2 ? (occ - 1) * tree_facts<Self>::calls : 0;
  using inner = larger_pick<R...>;
  static constexpr bool self_ok = self_score > 0 && self_score >= inner::score;
  using type = std::conditional_t<self_ok, Self, typename inner::type>;
  static constexpr int score = self_ok ? self_score : inner::score;
  static constexpr int size = self_ok ? tree_facts<Self>::size : inner::size;
};
/// Visitor (tree_fold.hpp): the shared_pick of a subtree of Root (a leaf
/// has none: larger_pick of nothing).
template <class Root>
struct shared_pick_fold {
  template <class L>
  using leaf = larger_pick<>;
  template <class N, class F, class... R>
  using node = shared_pick<Root, N, R...>;
};

/// The shared subexpression's node type of a bound tree (no_shared: none).
template <class Node>
using shared_t = typename fold_tree_t<shared_pick_fold<Node>, Node>::type;

/// Whether a bound tree has a shared subexpression to look for.
template <class Node>
inline constexpr bool has_shared_v = !std::is_same_v<shared_t<Node>, no_shared>;

/// The first occurrence of node type S in n's tree (depth first; n must
/// contain one).
template <class S, class N>
const S& first_shared(const N& n) {
  if constexpr (std::is_same_v<S, N>) {
    return n;
  } else {
    constexpr std::size_t k = []<std::size_t... I>(std::index_sequence<I...>) {
      constexpr bool has[] = {(occurrences_v<S, std::remove_cvref_t<decltype(get<I>(std::declval<const N&>().args))>> > 0)...};
      for (std::size_t i = 0; i < sizeof...(I); ++i)
        if (has[i]) return i;
      return std::size_t{0};
    }(std::make_index_sequence<pack_size_v<decltype(n.args)>>{});
    return first_shared<S>(get<k>(n.args));
  }
}

/// Whether every occurrence of S in n's tree equals s.
template <class S, class N>
bool shared_all_equal(const S& s, const N& n) {
  if constexpr (std::is_same_v<S, N>) {
    return same_node(s, n);
  } else if constexpr (occurrences_v<S, N> == 0) {
    return true;
  } else {
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
      return (true && ... && shared_all_equal(s, get<I>(n.args)));
    }(std::make_index_sequence<pack_size_v<decltype(n.args)>>{});
  }
}

/// Whether the pass may share its subexpression: every occurrence is equal.
template <class Node>
bool shared_equal(const Node& bound) {
  if constexpr (has_shared_v<Node>) return shared_all_equal(first_shared<shared_t<Node>>(bound), bound);
  else return false;
}

/// Several trees evaluated by one pass (tie.hpp), seen as one tree by the
/// picks above: the children of a root that calls nothing.
struct tie_fn {};
template <class... B>
using tie_tree_t = map_node<tie_fn, B...>;

/// The first occurrence of node type S among the trees b... (one of them
/// must contain one).
template <class S, class B0, class... B>
const S& first_shared_of(const B0& b0, const B&... b) {
  if constexpr (occurrences_v<S, B0> > 0) return first_shared<S>(b0);
  else return first_shared_of<S>(b...);
}

/// Whether one pass over the trees b... may share their common shared
/// subexpression (shared_t of tie_tree_t): every occurrence in every tree
/// is equal.
template <class... B>
bool shared_equal_of(const B&... b) {
  using S = shared_t<tie_tree_t<B...>>;
  if constexpr (std::is_same_v<S, no_shared>) {
    return false;
  } else {
    const S& s = first_shared_of<S>(b...);
    return (true && ... && shared_all_equal(s, b));
  }
}

/// Whether a CPU pass or full reduction over a contiguous `bound` shares its
/// subexpression: the producer is contiguous and every occurrence is equal.
template <class Node>
bool shares_contiguous(const Node& bound) {
  return bound.unit() && shared_equal(bound);
}

/// Cursor over a tile buffer holding positions [base, base + tile): the
/// value at position i is p[i - base].
template <class V>
struct tile_cursor {
  const V* p;
  index_t base;
  SINTER_HD SINTER_FORCEINLINE V load(index_t i) const { return p[i - base]; }
};

/// The leaf that replaces the shared subexpression: its values for the
/// current tile, in a buffer (contiguous passes only: linear()).
template <class V, std::size_t R>
struct tile_leaf {
  using value_type = V;
  static constexpr std::size_t rank = R;
  const V* buf;
  index_t base;
  SINTER_HD bool unit() const { return true; }
  SINTER_HD tile_cursor<V> linear() const { return {buf, base}; }
};

/// A cursor read `off` positions further on: load(j) is c.load(j + off)
/// (the shared subexpression written into its buffer from index 0).
template <class C>
struct shift_cursor {
  C c;
  index_t off;
  SINTER_HD SINTER_FORCEINLINE auto load(index_t j) const { return c.load(j + off); }
};

/// n with every occurrence of node type S replaced by `leaf`.
template <class S, class L, class N>
auto substitute_shared(const N& n, const L& leaf) {
  if constexpr (std::is_same_v<S, N>) {
    return leaf;
  } else if constexpr (occurrences_v<S, N> == 0) {
    return n;
  } else {
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
      using F = typename N::functor_type;
      return map_node<F, decltype(substitute_shared<S>(get<I>(n.args), leaf))...>{
          n.fn(), make_pack(substitute_shared<S>(get<I>(n.args), leaf)...), n.shape};
    }(std::make_index_sequence<pack_size_v<decltype(n.args)>>{});
  }
}

/// How a pass with a shared subexpression is marked in its trace detail.
inline constexpr const char* shared_note = ", shared subexpression computed once";

}  // namespace sinter::detail
