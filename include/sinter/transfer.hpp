#pragma once
/// \file transfer.hpp
/// Moving data between policies, only when the user asks: `to<P>(x)` (a new
/// array of policy P) and `copy(dst, src)` (into an existing array or view).
///
/// Dispatch is on memory spaces, not policies: host and par share host
/// memory, so a transfer between them is one ordinary pass run by the
/// destination's backend (reading the source in place; any expression, any
/// strides, with broadcasting and the usual aliasing check). A device backend
/// adds its own spaces by specialising detail::memory_space<P> and
/// detail::transfer<From, To>, declared in policy/backend.hpp
/// (policy/cuda/transfer.hpp does, for cuda).
/// A transfer gets both policy values: the destination's, and the source's
/// (an array's or view's own; for an expression, detail::expr_policy<P>).
#include <concepts>
#include <cstddef>
#include <string>
#include <type_traits>
#include <utility>

#include "array.hpp"
#include "evaluate.hpp"
#include "expression.hpp"
#include "policy/backend.hpp"
#include "policy/host.hpp"
#include "policy/par.hpp"
#include "view.hpp"

namespace sinter {
namespace detail {

template <> struct memory_space<host> { using type = host_space; };
template <> struct memory_space<par> { using type = host_space; };

/// The policy value of a transfer's source: an array's or view's own
/// (device, stream), else expr_policy<P> of its expression `e`.
template <class X, class E>
auto source_policy(const X& x, const E& e) {
  using PS = typename E::policy_type;
  if constexpr (requires { { x.policy() } -> std::convertible_to<const PS&>; }) return PS(x.policy());
  else return expr_policy<PS>::get(e);
}

/// The passes a transfer runs (the `passes` of transfer<From, To>::copy,
/// policy/backend.hpp): a device's transfers reach assign through it.
struct transfer_passes {
  /// `out = e` by a pass of policy `pol`.
  template <class P, class T, std::size_t R, class E>
  void run(const P& pol, const memory_leaf<T, R>& out, const E& e) const {
    assign(pol, out, e, "sinter::copy");
  }
  /// `out = e` where e's memory is readable by pol (one memory space, another
  /// policy value): e is re-labelled policy-neutral.
  template <class P, class T, std::size_t R, class E>
  void run_in_place(const P& pol, const memory_leaf<T, R>& out, const E& e) const {
    using X = expr<typename E::node_type, any_policy, E::keep_count()>;
    assign(pol, out, X(e.node(), e.keep()), "sinter::copy");
  }
  /// `out = staged` by a pass of policy `pol`, where `staged` is a contiguous
  /// buffer of `shape` in pol's memory (converting and broadcasting).
  template <class P, class T, std::size_t R, class U, std::size_t RE>
  void run_dense(const P& pol, const memory_leaf<T, R>& out, const U* staged, const extents<RE>& shape) const {
    using leaf = memory_leaf<const U, RE>;
    assign(pol, out, expr<leaf, P, 0>(leaf{staged, shape, row_major_strides(shape)}), "sinter::copy");
  }
};

/// Within one memory space the destination's backend reads the source directly.
template <class Space>
struct same_space_transfer {
  template <class PD, class T, std::size_t R, class E, class PS>
  static void copy(const PD& pol, const memory_leaf<T, R>& out, const E& src, const PS&, const transfer_passes& passes) {
    passes.run_in_place(pol, out, src);
  }
};
template <class Space> struct transfer<Space, Space> : same_space_transfer<Space> {};

/// `out = src` for a source of any policy: policy-neutral sources (scalars,
/// generators) are evaluated in place by the destination; otherwise dispatch
/// on the memory spaces (a space may hold several devices: cuda).
template <class PD, class T, std::size_t R, class E, class PS>
void copy_into(const PD& pol, const memory_leaf<T, R>& out, const E& src, const PS& spol) {
  using EP = typename E::policy_type;
  if constexpr (std::is_same_v<EP, any_policy>) {
    (void)spol;
    assign(pol, out, src, "sinter::copy");
  } else {
    static_assert(std::is_same_v<EP, PS>, "sinter::copy: source policy value of the wrong type");
    transfer<memory_space_t<PS>, memory_space_t<PD>>::copy(pol, out, src, spol, transfer_passes{});
  }
}

/// The writable leaf of an array or view destination.
template <class D>
auto destination_leaf(D& d) {
  return d.leaf();
}

}  // namespace detail

/// Copy the elements of `src` (array, view, expression or scalar, of any
/// policy) into `dst` (an array or a view), broadcasting src to dst's shape
/// (shape_error otherwise); dst keeps its shape:
/// `sinter::copy(dev(sinter::slice(0, 3)), host_values);`
template <class D, operand S>
  requires(detail::has_as_expr<D> && requires(D& d) { d.leaf(); })
void copy(D&& dst, S&& src) {
  auto e = detail::as_expr(src);
  detail::copy_into(dst.policy(), detail::destination_leaf(dst), e, detail::source_policy(src, e));
}

/// A new array of policy P holding the values of x (a deep copy, even when x
/// is already of policy P): `auto h = sinter::to<sinter::host>(par_array);`,
/// `auto d = sinter::to<sinter::cuda>(h, sinter::cuda{1, stream});` (.cu files).
/// Between host and par no copy is needed: their arrays and views mix in
/// expressions, and `sinter::view<T, R, sinter::par>(a.data(), a.shape())` is a par view.
template <policy P, expression X>
auto to(X&& x, P pol = {}) {
  auto e = detail::as_expr(x);
  using E = decltype(e);
  array<typename E::value_type, E::rank, P> out(e.shape(), pol);
  detail::copy_into(out.policy(), out.leaf(), e, detail::source_policy(x, e));
  return out;
}

}  // namespace sinter
