#pragma once
/// \file view_ops.hpp
/// Views that re-index without copying, as numpy's: reshape, ravel,
/// transpose, permute, broadcast_to, squeeze<Axis>, expand_dims<Axis>.
///
/// Each works on an array (lvalue: a view of its memory), a view, or a
/// generator expression such as `sinter::arange<float>(12)` (a generator leaf
/// with new shape, strides and base: still no memory). An array passed as an
/// rvalue is moved into a read-only expression that keeps it alive. A computed
/// expression (`a + b`) has no layout to re-index: evaluate it first with
/// sinter::eval.
#include <cstddef>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

#include "array.hpp"
#include "core/error.hpp"
#include "core/leaf.hpp"
#include "core/shape.hpp"
#include "expression.hpp"
#include "view.hpp"

namespace sinter {
namespace detail {

template <class X> struct is_view : std::false_type {};
template <class T, std::size_t R, class P> struct is_view<view<T, R, P>> : std::true_type {};
template <class X> struct is_array : std::false_type {};
template <class T, std::size_t R, class P> struct is_array<array<T, R, P>> : std::true_type {};

/// An expression whose node is a single leaf with a layout (memory or generator).
template <class X> struct is_layout_expr : std::false_type {};
template <class T, std::size_t R, bool D, class P, std::size_t K>
struct is_layout_expr<expr<memory_leaf<T, R, D>, P, K>> : std::true_type {};
template <class G, std::size_t R, class P, std::size_t K>
struct is_layout_expr<expr<gen_leaf<G, R>, P, K>> : std::true_type {};

/// What the view functions accept: arrays, views, expressions over one leaf.
template <class X>
concept restridable = is_view<std::remove_cvref_t<X>>::value ||
                      is_array<std::remove_cvref_t<X>>::value ||
                      is_layout_expr<std::remove_cvref_t<X>>::value;

/// New shape and strides of a view; the first element stays where it was.
template <std::size_t R>
struct strided_layout {
  extents<R> shape;
  extents<R> strides;
};

/// Apply `f(shape, strides) -> strided_layout<RO>` to x, keeping its memory
/// (or generator). ReadOnly gives a view of const elements.
template <bool ReadOnly, class X, class F>
auto restride(X&& x, F&& f) {
  using D = std::remove_cvref_t<X>;
  if constexpr (is_array<D>::value) {
    if constexpr (std::is_lvalue_reference_v<X&&>) {
      using T = std::conditional_t<std::is_const_v<std::remove_reference_t<X>>,
                                   const typename D::value_type, typename D::value_type>;
      return restride<ReadOnly>(view<T, D::rank, typename D::policy_type>(x), f);
    } else {
      // An rvalue array: a view would dangle; keep the buffer alive in an expression.
      return restride<ReadOnly>(std::move(x).as_owning_expr(), f);
    }
  } else if constexpr (is_view<D>::value) {
    const auto l = f(x.shape(), x.strides());
    using E = typename D::element_type;
    using T = std::conditional_t<ReadOnly, const E, E>;
    constexpr std::size_t RO = std::tuple_size_v<decltype(l.shape)>;
    return view<T, RO, typename D::policy_type>(x.data(), l.shape, l.strides, x.policy());
  } else {
    const auto& n = x.node();
    const auto l = f(n.shape, n.strides);
    constexpr std::size_t RO = std::tuple_size_v<decltype(l.shape)>;
    using N = typename D::node_type;
    using P = typename D::policy_type;
    constexpr std::size_t K = D::keep_count();
    if constexpr (is_memory_leaf<N>::value) {
      using T = std::remove_pointer_t<decltype(n.ptr)>;
      return expr<memory_leaf<T, RO>, P, K>({n.ptr, l.shape, l.strides}, x.keep());
    } else {
      using G = decltype(n.gen);
      return expr<gen_leaf<G, RO>, P, K>({n.gen, n.base, l.shape, l.strides}, x.keep());
    }
  }
}

template <std::size_t N>
extents<N> to_extents(const extent_arg (&s)[N], const char* who) {
  return extents_of(s, who, true);  // reshape's -1 and negative axes pass; each checks them itself
}

/// "(1, 0, 2)": how numpy prints a tuple of axes.
template <std::size_t N>
std::string tuple_string(const extents<N>& a) {
  return shape_string(a);
}

/// Whether shape/strides address `prod(shape)` consecutive elements in row-major order.
template <std::size_t R>
bool contiguous_layout(const extents<R>& shape, const extents<R>& strides) {
  return shape_size(shape) == 0 || is_row_major(shape, strides);
}

template <std::size_t R, std::size_t RO>
strided_layout<RO> reshape_layout(const extents<R>& shape, const extents<R>& strides,
                                   extents<RO> to) {
  const index_t n = shape_size(shape);
  index_t known = 1;
  std::size_t unknown = RO;
  for (std::size_t d = 0; d != RO; ++d) {
    if (to[d] == -1) {
      if (unknown != RO) throw value_error("sinter::reshape: can only specify one unknown dimension (-1)");
      unknown = d;
    } else if (to[d] < 0) {
      throw value_error("sinter::reshape: negative extent " + std::to_string(to[d]) + " in shape " +
                        shape_string(to) + " (only -1 is allowed, for one inferred extent)");
    } else {
      known *= to[d];
    }
  }
  if (unknown != RO) {
    if (known == 0 || n % known != 0)
      throw shape_error("sinter::reshape: cannot reshape an array of shape " + shape_string(shape) +
                        " (size " + std::to_string(n) + ") into shape " + shape_string(to));
    to[unknown] = n / known;
    known = n;
  }
  if (known != n)
    throw shape_error("sinter::reshape: cannot reshape an array of shape " + shape_string(shape) +
                      " (size " + std::to_string(n) + ") into shape " + shape_string(to));
  if (!contiguous_layout(shape, strides))
    throw value_error("sinter::reshape: the source of shape " + shape_string(shape) +
                      " and strides " + shape_string(strides) +
                      " is not contiguous, so it cannot be reshaped without a copy; "
                      "copy it first with sinter::eval(x)");
  return {to, row_major_strides(to)};
}

template <std::size_t R>
strided_layout<R> permute_layout(const extents<R>& shape, const extents<R>& strides,
                                 const extents<R>& axes) {
  strided_layout<R> out{};
  bool seen[R > 0 ? R : 1] = {};
  for (std::size_t d = 0; d != R; ++d) {
    index_t a = axes[d];
    if (a < -static_cast<index_t>(R) || a >= static_cast<index_t>(R))
      throw value_error("sinter::permute: axis " + std::to_string(a) + " is out of bounds for an array of rank " +
                        std::to_string(R));
    if (a < 0) a += static_cast<index_t>(R);
    const auto k = static_cast<std::size_t>(a);
    if (seen[k])
      throw value_error("sinter::permute: axes " + tuple_string(axes) + " are not a permutation (axis " +
                        std::to_string(a) + " repeats)");
    seen[k] = true;
    out.shape[d] = shape[k];
    out.strides[d] = strides[k];
  }
  return out;
}

template <std::size_t R, std::size_t RO>
strided_layout<RO> broadcast_layout(const extents<R>& shape, const extents<R>& strides,
                                    const extents<RO>& to) {
  for (std::size_t d = 0; d != RO; ++d)
    if (to[d] < 0)
      throw value_error("sinter::broadcast_to: negative extent in shape " + shape_string(to));
  if (!broadcasts_to(shape, to))
    throw shape_error("sinter::broadcast_to: cannot broadcast shape " + shape_string(shape) + " to " +
                      shape_string(to));
  return {to, broadcast_strides(shape, strides, to)};
}

template <std::ptrdiff_t Axis, std::size_t R>
inline constexpr std::size_t normalised_axis_v =
    static_cast<std::size_t>(Axis < 0 ? Axis + static_cast<std::ptrdiff_t>(R) : Axis);

}  // namespace detail

/// A view with a new shape (one extent may be -1, inferred), numpy's reshape
/// without the copy: `auto m = sinter::reshape(sinter::arange<float>(12), {3, -1});`
/// The source must be contiguous (else value_error: copy it with sinter::eval).
template <detail::restridable X, std::size_t RO>
auto reshape(X&& x, const detail::extent_arg (&shape)[RO]) {
  const auto to = detail::to_extents(shape, "sinter::reshape");
  return detail::restride<false>(std::forward<X>(x), [&](const auto& s, const auto& st) {
    return detail::reshape_layout(s, st, to);
  });
}
/// reshape with the new shape as sinter::extents: `sinter::reshape(a, b.shape())`.
template <detail::restridable X, std::size_t RO>
auto reshape(X&& x, const extents<RO>& shape) {
  return detail::restride<false>(std::forward<X>(x), [&](const auto& s, const auto& st) {
    return detail::reshape_layout(s, st, shape);
  });
}

/// A 1-D view of a contiguous source, numpy's ravel without the copy:
/// `for (float v : sinter::ravel(m)) ...`
template <detail::restridable X>
auto ravel(X&& x) {
  return reshape(std::forward<X>(x), {index_t{-1}});
}

/// The view with its axes reversed (numpy's `x.T`): `sinter::array<float, 2> t = sinter::transpose(m);`
template <detail::restridable X>
auto transpose(X&& x) {
  return detail::restride<false>(std::forward<X>(x), [](const auto& s, const auto& st) {
    constexpr std::size_t R = std::tuple_size_v<std::remove_cvref_t<decltype(s)>>;
    detail::strided_layout<R> out{};
    for (std::size_t d = 0; d != R; ++d) {
      out.shape[d] = s[R - 1 - d];
      out.strides[d] = st[R - 1 - d];
    }
    return out;
  });
}

/// The view with axis d taken from source axis axes[d] (numpy's transpose(x, axes);
/// negative axes count from the end): `sinter::permute(x, {2, 0, 1})` is (C, H, W) of (H, W, C).
template <detail::restridable X, std::size_t N>
auto permute(X&& x, const detail::extent_arg (&axes)[N]) {
  constexpr std::size_t R = std::remove_cvref_t<X>::rank;
  static_assert(N == R, "sinter::permute: give one axis per dimension of the source");
  const auto ax = detail::to_extents(axes, "sinter::permute");
  return detail::restride<false>(std::forward<X>(x), [&](const auto& s, const auto& st) {
    return detail::permute_layout(s, st, ax);
  });
}

/// A read-only view stretched to `shape` by numpy broadcasting (no copy; stride 0
/// along stretched axes): `auto rows = sinter::broadcast_to(bias, {n, 3});`
template <detail::restridable X, std::size_t RO>
auto broadcast_to(X&& x, const detail::extent_arg (&shape)[RO]) {
  const auto to = detail::to_extents(shape, "sinter::broadcast_to");
  return detail::restride<true>(std::forward<X>(x), [&](const auto& s, const auto& st) {
    return detail::broadcast_layout(s, st, to);
  });
}
/// broadcast_to with the shape as sinter::extents.
template <detail::restridable X, std::size_t RO>
auto broadcast_to(X&& x, const extents<RO>& shape) {
  return detail::restride<true>(std::forward<X>(x), [&](const auto& s, const auto& st) {
    return detail::broadcast_layout(s, st, shape);
  });
}

/// The view without axis Axis, whose extent must be 1 (else value_error); Axis
/// may be negative: `sinter::squeeze<0>(m(sinter::slice(0, 1), sinter::all))` is row 0.
/// (numpy's squeeze() of every extent-1 axis would need a runtime rank.)
template <std::ptrdiff_t Axis, detail::restridable X>
auto squeeze(X&& x) {
  constexpr std::size_t R = std::remove_cvref_t<X>::rank;
  static_assert(R > 0, "sinter::squeeze: a rank-0 source has no axis to remove");
  static_assert(Axis >= -static_cast<std::ptrdiff_t>(R) && Axis < static_cast<std::ptrdiff_t>(R),
                "sinter::squeeze: axis out of range for the source's rank");
  constexpr std::size_t A = detail::normalised_axis_v<Axis, R>;
  return detail::restride<false>(std::forward<X>(x), [](const auto& s, const auto& st) {
    if (s[A] != 1)
      throw value_error("sinter::squeeze: cannot remove axis " + std::to_string(A) + " of shape " +
                        detail::shape_string(s) + ": its extent is " + std::to_string(s[A]) + ", not 1");
    detail::strided_layout<R - 1> out{};
    for (std::size_t d = 0, o = 0; d < R; ++d) {
      if (d == A) continue;
      out.shape[o] = s[d];
      out.strides[o] = st[d];
      ++o;
    }
    return out;
  });
}

/// The view with a new axis of extent 1 at position Axis (in the result;
/// negative counts from the end, -1 appends): `sinter::expand_dims<1>(v)` is v as a column.
template <std::ptrdiff_t Axis, detail::restridable X>
auto expand_dims(X&& x) {
  constexpr std::size_t R = std::remove_cvref_t<X>::rank;
  static_assert(Axis >= -static_cast<std::ptrdiff_t>(R + 1) && Axis <= static_cast<std::ptrdiff_t>(R),
                "sinter::expand_dims: axis out of range for the result's rank");
  constexpr std::size_t A = detail::normalised_axis_v<Axis, R + 1>;
  return detail::restride<false>(std::forward<X>(x), [](const auto& s, const auto& st) {
    detail::strided_layout<R + 1> out{};
    for (std::size_t d = 0, i = 0; d < R + 1; ++d) {
      if (d == A) {
        out.shape[d] = 1;
        out.strides[d] = 0;
      } else {
        out.shape[d] = s[i];
        out.strides[d] = st[i];
        ++i;
      }
    }
    return out;
  });
}

// A computed expression (`a + b`) has no layout to re-index: one readable
// error instead of a page of failed candidates ({fmt}'s poison overloads).
#define SINTER_NOT_RESTRIDABLE(name)                                                  \
  static_assert(detail::restridable<X>, "sinter::" name ": the expression is computed, " \
                                        "not stored; evaluate it first with sinter::eval(x)")
template <expression X, std::size_t N>
  requires(!detail::restridable<X>)
void reshape(X&&, const detail::extent_arg (&)[N]) { SINTER_NOT_RESTRIDABLE("reshape"); }
template <expression X>
  requires(!detail::restridable<X>)
void ravel(X&&) { SINTER_NOT_RESTRIDABLE("ravel"); }
template <expression X>
  requires(!detail::restridable<X>)
void transpose(X&&) { SINTER_NOT_RESTRIDABLE("transpose"); }
template <expression X, std::size_t N>
  requires(!detail::restridable<X>)
void permute(X&&, const detail::extent_arg (&)[N]) { SINTER_NOT_RESTRIDABLE("permute"); }
template <expression X, std::size_t N>
  requires(!detail::restridable<X>)
void broadcast_to(X&&, const detail::extent_arg (&)[N]) { SINTER_NOT_RESTRIDABLE("broadcast_to"); }
template <std::ptrdiff_t Axis, expression X>
  requires(!detail::restridable<X>)
void squeeze(X&&) { SINTER_NOT_RESTRIDABLE("squeeze"); }
template <std::ptrdiff_t Axis, expression X>
  requires(!detail::restridable<X>)
void expand_dims(X&&) { SINTER_NOT_RESTRIDABLE("expand_dims"); }
#undef SINTER_NOT_RESTRIDABLE

}  // namespace sinter
