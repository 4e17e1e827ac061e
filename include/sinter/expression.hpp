#pragma once
/// \file expression.hpp
/// sinter::expr, the host-side lazy expression that operators return, and
/// the machinery that turns operands (arrays, views, expressions, scalars)
/// into expression nodes.
///
/// Closure semantics (xtensor's): an array passed as an lvalue is referenced
/// (its node is a view of its memory); an array passed as an rvalue is moved
/// into the expression, which keeps it alive, so `auto e = exp(make()) + a;`
/// never dangles. Scalars are stored by value. The node tree itself is a
/// trivially copyable value, handed to a backend at evaluation.
#include <array>
#include <cstddef>
#include <limits>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>

#include "core/dtype.hpp"
#include "core/error.hpp"
#include "core/leaf.hpp"
#include "core/map_node.hpp"
#include "policy/backend.hpp"
#include "slice.hpp"

namespace sinter {

/// A lazy expression: nothing runs until it is assigned to an array or view,
/// passed to sinter::eval, or reduced. Safe to keep in `auto` (or return)
/// while every array and view it was given as an lvalue is alive and not
/// reallocated; arrays given as rvalues are moved in and kept alive by it.
/// `Node` is the kernel-side tree, `P` the policy (or detail::any_policy for
/// scalars and generators), `K` the number of temporaries it keeps alive.
template <class Node, class P, std::size_t K = 0>
class expr {
 public:
  using node_type = Node;
  using value_type = typename Node::value_type;
  using policy_type = P;
  static constexpr std::size_t rank = Node::rank;

  explicit expr(Node n, std::array<std::shared_ptr<const void>, K> keep = {})
      : node_(n), keep_(std::move(keep)) {}
  /// Builds the node from `make()`'s result, in place (no copy of the tree).
  template <class Make>
  expr(std::in_place_t, std::array<std::shared_ptr<const void>, K> keep, Make&& make)
      : node_(make()), keep_(std::move(keep)) {}

  /// The kernel-side node tree.
  const Node& node() const { return node_; }
  /// The shape the expression evaluates to.
  const extents<rank>& shape() const { return node_.shape; }
  /// Number of elements it evaluates to.
  index_t size() const { return detail::shape_size(node_.shape); }
  /// How many temporaries it keeps alive.
  static constexpr std::size_t keep_count() { return K; }

  /// Index an expression that is a single stored or generated leaf (a view
  /// or arange/linspace) like an array: `sinter::arange<float>(10)(sinter::slice(2, 8))`.
  /// The result is again lazy; a computed expression cannot be indexed.
  template <detail::index_arg... A>
    requires(requires(const Node& n) { n.strides; })
  auto operator()(const A&... a) const {
    const auto l = detail::apply_indices(node_.shape, node_.strides, a...);
    constexpr std::size_t RO = detail::indexed_rank_v<rank, A...>;
    if constexpr (requires { node_.ptr; }) {
      using leaf = detail::memory_leaf<std::remove_pointer_t<decltype(node_.ptr)>, RO>;
      return expr<leaf, P, K>(leaf{node_.ptr + l.offset, l.shape, l.strides}, keep_);
    } else {
      using leaf = detail::gen_leaf<decltype(node_.gen), RO>;
      return expr<leaf, P, K>(leaf{node_.gen, node_.base + l.offset, l.shape, l.strides}, keep_);
    }
  }
  /// Temporaries kept alive (arrays moved into the expression).
  const std::array<std::shared_ptr<const void>, K>& keep() const { return keep_; }

 private:
  Node node_;
  std::array<std::shared_ptr<const void>, K> keep_;
};

namespace detail {

template <class T> struct is_expr : std::false_type {};
template <class N, class P, std::size_t K> struct is_expr<expr<N, P, K>> : std::true_type {};
template <class T> inline constexpr bool is_expr_v = is_expr<std::remove_cvref_t<T>>::value;

/// Arrays and views provide `as_expr()`; this detects them.
template <class T>
concept has_as_expr = requires(const std::remove_cvref_t<T>& t) { t.as_expr(); };

}  // namespace detail

/// Something that can be evaluated: an expression, an array or a view.
template <class T>
concept expression = detail::is_expr_v<T> || detail::has_as_expr<T>;

/// Anything an operator accepts: an expression, an array, a view or a scalar.
template <class T>
concept operand = expression<T> || element<std::remove_cvref_t<T>>;

namespace detail {

/// Turn any operand into an expr (moving rvalue arrays into a keep-alive).
template <class X>
SINTER_FORCEINLINE auto as_expr(X&& x) {
  using D = std::remove_cvref_t<X>;
  if constexpr (is_expr_v<D>) {
    return D(std::forward<X>(x));
  } else if constexpr (element<D>) {
    return expr<scalar_leaf<D>, any_policy, 0>(scalar_leaf<D>{x});
  } else if constexpr (std::is_rvalue_reference_v<X&&> && requires { std::move(x).as_owning_expr(); }) {
    return std::move(x).as_owning_expr();
  } else {
    return x.as_expr();
  }
}

template <class X>
using expr_of_t = decltype(as_expr(std::declval<X>()));

/// as_expr for operator operands: an expression is passed on by reference
/// (its node tree is copied once, into the new node, not at every step).
template <class X>
SINTER_FORCEINLINE decltype(auto) as_operand(X&& x) {
  if constexpr (is_expr_v<std::remove_cvref_t<X>>) return std::forward<X>(x);
  else return as_expr(std::forward<X>(x));
}

template <class E> struct is_scalar_expr : std::false_type {};
template <class T, class P, std::size_t K>
struct is_scalar_expr<expr<scalar_leaf<T>, P, K>> : std::true_type {};

/// The promoted type of the non-scalar operands (void when all are scalars).
template <class Acc, class... E>
struct strong_fold {
  using type = Acc;
};
template <class Acc, class E, class... R>
struct strong_fold<Acc, E, R...> {
  using v = typename E::value_type;
  using next = typename std::conditional_t<
      is_scalar_expr<E>::value, std::type_identity<Acc>,
      std::conditional_t<std::is_void_v<Acc>, std::type_identity<v>, promote<Acc, v>>>::type;
  using type = typename strong_fold<next, R...>::type;
};
template <class... E>
using strong_type_t = typename strong_fold<void, E...>::type;

/// A C++ scalar joins arrays of type S as weak_promote_t<S, X>; an integer
/// scalar that does not fit is an error (as NumPy 2's OverflowError).
template <class S, class E>
SINTER_FORCEINLINE decltype(auto) resolve_scalar(E&& e) {
  using D = std::remove_cvref_t<E>;
  if constexpr (is_scalar_expr<D>::value && !std::is_void_v<S>) {
    using X = typename D::value_type;
    using W = weak_promote_t<S, X>;
    const X v = e.node().value;
    if constexpr (std::is_integral_v<W> && std::is_integral_v<X> && !std::is_same_v<W, X> &&
                  !std::is_same_v<X, bool>) {  // a bool fits every type (std::in_range rejects bool)
      if (!std::in_range<W>(v))
        throw value_error("scalar " + std::to_string(v) + " does not fit in " + dtype_name<W>() +
                          "; cast the array first");
    }
    return expr<scalar_leaf<W>, any_policy, 0>(scalar_leaf<W>{static_cast<W>(v)});
  } else {
    return std::forward<E>(e);  // a reference: lives until make_map's full-expression ends
  }
}

template <std::size_t RA>
SINTER_FORCEINLINE const extents<RA>& broadcast_all(const char*, const extents<RA>& a) {
  return a;
}
template <std::size_t RA, std::size_t RB, class... S>
SINTER_FORCEINLINE auto broadcast_all(const char* what, const extents<RA>& a, const extents<RB>& b, const S&... rest) {
  return broadcast_all(what, broadcast_shapes(a, b, what), rest...);
}

template <std::size_t N, class... E>
SINTER_FORCEINLINE std::array<std::shared_ptr<const void>, N> concat_keep(const E&... e) {
  std::array<std::shared_ptr<const void>, N> out;
  std::size_t i = 0;
  ((std::copy(e.keep().begin(), e.keep().end(), out.begin() + static_cast<std::ptrdiff_t>(i)),
    i += e.keep().size()),
   ...);
  return out;
}

/// The operands' node trees as a pack, each copied field by field
/// (copy_node) straight into its place.
template <class E, class... R>
SINTER_FORCEINLINE auto node_pack(const E& e, const R&... r) {
  using P = pack<typename E::node_type, typename R::node_type...>;
  if constexpr (sizeof...(R) == 0) return P{copy_node(e.node())};
  else return P{copy_node(e.node()), node_pack(r...)};
}

template <class F, class... E>
SINTER_FORCEINLINE auto make_map_resolved(const char* name, F f, E&&... e) {
  using P = common_policy_t<typename std::remove_cvref_t<E>::policy_type...>;
  constexpr std::size_t K = (std::size_t{0} + ... + std::remove_cvref_t<E>::keep_count());
  using node = map_node<F, typename std::remove_cvref_t<E>::node_type...>;
  auto shape = broadcast_all(name, e.shape()...);
  return expr<node, P, K>(std::in_place, concat_keep<K>(e...), [&] { return node{f, node_pack(e...), shape}; });
}

/// Build the map node `f(x...)`: operands converted, scalars resolved
/// against the array operands' type, shapes broadcast (shape_error naming the
/// operation), policies joined (host with par gives par; policies of two
/// memory spaces are a compile error, backend.hpp's join_policy). Forced
/// inline, with the helpers above, so the node is built in the caller's
/// registers (store forwarding: docs/design.md#store-forwarding).
template <class F, class... X>
SINTER_FORCEINLINE auto make_map(const char* name, F f, X&&... x) {
  using S = strong_type_t<expr_of_t<X&&>...>;
  return make_map_resolved(name, f, resolve_scalar<S>(as_operand(std::forward<X>(x)))...);
}

}  // namespace detail
}  // namespace sinter
