#pragma once
/// \file join.hpp
/// Joining and splitting, as NumPy's: `concatenate`, `stack` (lazy: a
/// generator leaf, core/gather_gen.hpp, that reads every piece in place, so
/// `exp(concatenate({a(), b()}))` is one pass and no copy) and `split`
/// (views). Pieces of different element types promote as arithmetic does.
#include <algorithm>
#include <cstddef>
#include <initializer_list>
#include <memory>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "array.hpp"
#include "core/gather_gen.hpp"
#include "expression.hpp"
#include "view.hpp"

namespace sinter {
namespace detail {

/// The policy arrays of an expression of policy P live in (host for
/// policy-neutral expressions such as arange).
template <class P>
using placed_policy_t = std::conditional_t<std::is_same_v<P, any_policy>, host, P>;

/// An operand of a join as memory: where it is, its layout, and what keeps it alive.
template <class T, std::size_t R>
struct join_mem {
  const T* ptr;
  extents<R> shape;
  extents<R> strides;
  std::shared_ptr<const void> keep;
};

/// The memory of operand x: an array, a view or a view-like expression in
/// place; any other expression evaluated into an array of policy PC.
template <class PC, class X>
auto join_operand(X&& x) {
  auto e = as_expr(std::forward<X>(x));
  using E = decltype(e);
  using N = typename E::node_type;
  using T = typename E::value_type;
  constexpr std::size_t R = E::rank;
  if constexpr (is_memory_leaf<N>::value) {
    std::shared_ptr<const void> keep;
    if constexpr (E::keep_count() > 0)
      keep = std::make_shared<std::array<std::shared_ptr<const void>, E::keep_count()>>(e.keep());
    const auto& n = e.node();
    return join_mem<T, R>{n.ptr, n.shape, n.strides, std::move(keep)};
  } else {
    auto a = std::make_shared<array<T, R, PC>>(e);
    const T* p = a->data();
    return join_mem<T, R>{p, a->shape(), a->strides(), std::shared_ptr<const void>(std::move(a))};
  }
}

/// axis wrapped into [0, rank) as NumPy does; value_error outside.
[[noreturn]] SINTER_NOINLINE void throw_join_axis(const char* who, index_t axis, std::size_t rank) {
  throw value_error(std::string(who) + ": axis " + std::to_string(axis) + " is out of bounds for rank " +
                    std::to_string(rank) + "; use an axis in [-" + std::to_string(rank) + ", " +
                    std::to_string(rank) + ")");
}
inline std::size_t join_axis(const char* who, index_t axis, std::size_t rank) {
  const index_t r = static_cast<index_t>(rank);
  if (axis < -r || axis >= r) throw_join_axis(who, axis, rank);
  return static_cast<std::size_t>(axis < 0 ? axis + r : axis);
}

/// The shape_error of two pieces that differ off the joined axis.
template <std::size_t R>
[[noreturn]] SINTER_NOINLINE void throw_join_shapes(const char* who, const extents<R>& a, const extents<R>& b,
                                                    std::size_t axis, bool stacked) {
  if (stacked)
    throw shape_error(std::string(who) + ": shapes " + shape_string(a) + " and " + shape_string(b) +
                      " differ (new axis " + std::to_string(axis) + "); every piece must have the same shape");
  throw shape_error(std::string(who) + ": shapes " + shape_string(a) + " and " + shape_string(b) +
                    " differ off axis " + std::to_string(axis) + "; pieces must match on every other axis");
}

/// Piece `m` in the result's axes: as it is (concatenate), or with a new
/// axis of extent 1 at `axis` (stack).
template <bool Stack, class T, std::size_t R>
auto join_layout(const join_mem<T, R>& m, std::size_t axis) {
  if constexpr (!Stack) {
    return m;
  } else {
    join_mem<T, R + 1> o{m.ptr, {}, {}, m.keep};
    for (std::size_t d = 0, s = 0; d != R + 1; ++d) {
      o.shape[d] = d == axis ? 1 : m.shape[s];
      o.strides[d] = d == axis ? 0 : m.strides[s++];
    }
    return o;
  }
}

/// The result's shape: the first piece's, with the axis's extents summed;
/// shape_error for a piece that differs elsewhere.
template <std::size_t R>
extents<R> joined_shape(const char* who, const extents<R>* shapes, std::size_t n, std::size_t axis, bool stacked) {
  extents<R> s = shapes[0];
  s[axis] = 0;
  for (std::size_t k = 0; k != n; ++k) {
    for (std::size_t d = 0; d != R; ++d)
      if (d != axis && shapes[k][d] != shapes[0][d]) {
        if (stacked) {  // name the pieces' own shapes, without the new axis
          extents<R - 1> a{}, b{};
          for (std::size_t e = 0, j = 0; e != R; ++e)
            if (e != axis) a[j] = shapes[0][e], b[j++] = shapes[k][e];
          throw_join_shapes(who, a, b, axis, true);
        }
        throw_join_shapes(who, shapes[0], shapes[k], axis, false);
      }
    s[axis] += shapes[k][axis];
  }
  return s;
}

/// Fills `c` from pieces m[0..n) (a piece past n repeats nothing: it ends
/// where the last one does and is never read).
template <std::size_t R, class T>
void fill_piece(join_piece<T, R>& p, const join_mem<T, R>* m, index_t start, index_t total, std::size_t axis) {
  if (m == nullptr) {
    p = {nullptr, total, 0, {}, 0, 0};
    return;
  }
  p.ptr = m->ptr;
  p.end = start + m->shape[axis];
  p.strides = m->strides;
  p.off = -start * m->strides[axis];
  std::uintptr_t hi = 0;
  p.lo = layout_bytes(m->ptr, m->shape, m->strides, hi);
  p.hi = hi;
}
template <std::size_t R, class T>
void fill_chain_at(piece_chain<R, T>& c, index_t start, index_t total, std::size_t axis, const join_mem<T, R>* m) {
  fill_piece(c.head, m, start, total, axis);
}
template <std::size_t R, class T, class U, class... More>
void fill_chain_at(piece_chain<R, T, U, More...>& c, index_t start, index_t total, std::size_t axis,
                   const join_mem<T, R>* m, const join_mem<U, R>* n, const join_mem<More, R>*... rest) {
  fill_piece(c.head, m, start, total, axis);
  fill_chain_at(c.tail, m ? start + m->shape[axis] : start, total, axis, n, rest...);
}

/// The lazy concatenation of pieces m... along `axis`, of policy P.
template <class P, std::size_t R, class... T>
auto make_concat(const char* who, std::size_t axis, const extents<R>& shape, const join_mem<T, R>*... m) {
  using V = promote_t<T...>;
  using G = concat_gen<V, R, T...>;
  G g{};
  extents<R> strides{};
  if (!make_fields(shape, g.fields, strides))
    throw value_error(std::string(who) + ": the result's extents are too large to address");
  g.axis = static_cast<index_t>(axis);
  fill_chain_at(g.pieces, 0, shape[axis], axis, m...);
  std::vector<std::shared_ptr<const void>> keeps;
  ((m && m->keep ? keeps.push_back(m->keep) : void()), ...);
  std::shared_ptr<const void> keep;
  if (!keeps.empty()) keep = std::make_shared<std::vector<std::shared_ptr<const void>>>(std::move(keeps));
  return expr<gen_leaf<G, R>, P, 1>(gen_leaf<G, R>{g, 0, shape, strides}, {std::move(keep)});
}

/// concatenate and stack of a braced list: every piece of one type X.
template <bool Stack, class X>
auto join_list(const char* who, std::initializer_list<X> pieces, index_t axis) {
  using E = expr_of_t<const X&>;
  using T = typename E::value_type;
  using P = placed_policy_t<typename E::policy_type>;
  constexpr std::size_t R = E::rank + (Stack ? 1 : 0);
  if (pieces.size() == 0) throw value_error(std::string(who) + ": need at least one array to join");
  const std::size_t ax = join_axis(who, axis, R);
  std::vector<join_mem<T, R>> ms;
  std::vector<extents<R>> shapes;
  for (const X& x : pieces) {
    ms.push_back(join_layout<Stack>(join_operand<P>(x), ax));
    shapes.push_back(ms.back().shape);
  }
  const extents<R> shape = joined_shape(who, shapes.data(), shapes.size(), ax, Stack);
  if (ms.size() > 4) {  // more pieces than the leaf holds: joined into one array first
    auto whole = std::make_shared<array<T, R, P>>(shape);
    index_t start = 0;
    const auto w = whole->leaf();
    for (const auto& m : ms) {
      memory_leaf<T, R> part = w;
      part.ptr += start * w.strides[ax];
      part.shape[ax] = m.shape[ax];
      start += m.shape[ax];
      run_pass(whole->policy(), part, memory_leaf<const T, R>{m.ptr, m.shape, m.strides});
    }
    ms.assign(1, join_mem<T, R>{whole->data(), shape, whole->strides(), whole});
  }
  const auto at = [&](std::size_t k) { return k < ms.size() ? &ms[k] : nullptr; };
  return make_concat<P, R, T, T, T, T>(who, ax, shape, at(0), at(1), at(2), at(3));
}

/// An empty piece made to point at one element of its own: pieces of mixed
/// types are all read at every position (core/gather_gen.hpp, piece_chain).
template <class P, class T, std::size_t R>
void readable_piece(join_mem<T, R>& m) {
  if (shape_size(m.shape) != 0) return;
  auto one = std::make_shared<array<T, 1, P>>(extents<1>{1});
  *one = T{};
  m.ptr = one->data();
  m.keep = std::make_shared<std::array<std::shared_ptr<const void>, 2>>(
      std::array<std::shared_ptr<const void>, 2>{std::move(m.keep), std::move(one)});
}

/// concatenate and stack of a tuple of operands of any types.
template <bool Stack, class Tuple, std::size_t... I>
auto join_tuple(const char* who, Tuple&& t, index_t axis, std::index_sequence<I...>) {
  using P = placed_policy_t<common_policy_t<typename expr_of_t<std::tuple_element_t<I, std::remove_cvref_t<Tuple>>>::policy_type...>>;
  constexpr std::size_t R0 = std::max({expr_of_t<std::tuple_element_t<I, std::remove_cvref_t<Tuple>>>::rank...});
  static_assert(((expr_of_t<std::tuple_element_t<I, std::remove_cvref_t<Tuple>>>::rank == R0) && ...),
                "sinter: concatenate/stack: every piece must have the same rank");
  constexpr std::size_t R = R0 + (Stack ? 1 : 0);
  const std::size_t ax = join_axis(who, axis, R);
  auto ms = std::make_tuple(join_layout<Stack>(join_operand<P>(std::get<I>(std::forward<Tuple>(t))), ax)...);
  (readable_piece<P>(std::get<I>(ms)), ...);
  const extents<R> shapes[] = {std::get<I>(ms).shape...};
  const extents<R> shape = joined_shape(who, shapes, sizeof...(I), ax, Stack);
  return make_concat<P, R>(who, ax, shape, &std::get<I>(ms)...);
}

template <class X>
inline constexpr bool is_owning_array_v = requires(X& x) { std::move(x).as_owning_expr(); };

/// `out = e` for a bare concatenation e of pieces of its own element type
/// (assign's hook, found by argument-dependent lookup): one copy pass per
/// piece into its slab of out, each the plain copy loop, in place of one
/// pass that selects a piece per element. False (nothing written) when e
/// is a view of the concatenation, is broadcast, mixes types or reads out.
template <class P, class T, std::size_t R, class V, class... Tk>
bool assign_joined(const P& pol, const memory_leaf<T, R>& out, const gen_leaf<concat_gen<V, R, Tk...>, R>& node,
                   const extents<R>& e_shape) {
  if constexpr (!(std::is_same_v<V, Tk> && ...)) {
    return false;
  } else {
    const auto& g = node.gen;
    if (node.base != 0 || e_shape != out.shape) return false;
    for (std::size_t d = 0; d != R; ++d)
      if (out.shape[d] > 1 && node.strides[d] != (index_t{1} << g.fields.shift[d])) return false;
    std::uintptr_t hi = 0;
    const std::uintptr_t lo = layout_bytes(out.ptr, out.shape, out.strides, hi);
    if (g.touches(lo, hi)) return false;
    const auto ax = static_cast<std::size_t>(g.axis);
    index_t start = 0;
    g.pieces.each([&](const join_piece<V, R>& p) {
      const index_t end = p.end < out.shape[ax] ? p.end : out.shape[ax];
      if (p.ptr != nullptr && start < end) {
        memory_leaf<T, R> slab = out;
        slab.ptr += start * out.strides[ax];
        slab.shape[ax] = end - start;
        run_pass(pol, slab, memory_leaf<const V, R>{p.ptr + p.off + start * p.strides[ax], slab.shape, p.strides});
      }
      start = p.end;
    });
    return true;
  }
}

}  // namespace detail

/// numpy.concatenate of a braced list of views (or view-like expressions) of
/// one type, lazily: `auto c = sinter::concatenate({a(), b(slice(1, end))}, 0);`
/// (`a()` is a view of all of `a`: a braced list would copy arrays). Read in
/// place by the pass that consumes it; more than four pieces are joined
/// into an array first. Wrong shapes: shape_error naming both and the axis.
template <class X>
auto concatenate(std::initializer_list<X> pieces, index_t axis = 0) {
  static_assert(!detail::is_owning_array_v<X>,
                "sinter::concatenate: a braced list copies arrays; list views, {a(), b()}, or pass "
                "std::tie(a, b)");
  return detail::join_list<false>("sinter::concatenate", pieces, axis);
}
/// numpy.concatenate of pieces of any types and policies of one memory space
/// (arrays, views, expressions; an expression that is not a view is
/// evaluated first): `sinter::concatenate(std::tie(a, b), 1)`,
/// `sinter::concatenate(std::forward_as_tuple(i32, f32 * 2))` (float32).
template <class... X>
auto concatenate(const std::tuple<X...>& pieces, index_t axis = 0) {
  static_assert(sizeof...(X) > 0, "sinter::concatenate: need at least one array to join");
  return detail::join_tuple<false>("sinter::concatenate", pieces, axis, std::index_sequence_for<X...>{});
}

/// numpy.stack of a braced list of views of one shape: a new axis `axis`
/// (of extent the list's length) in the result, lazily.
template <class X>
auto stack(std::initializer_list<X> pieces, index_t axis = 0) {
  static_assert(!detail::is_owning_array_v<X>,
                "sinter::stack: a braced list copies arrays; list views, {a(), b()}, or pass std::tie(a, b)");
  return detail::join_list<true>("sinter::stack", pieces, axis);
}
/// numpy.stack of pieces of any types (as concatenate's tuple form).
template <class... X>
auto stack(const std::tuple<X...>& pieces, index_t axis = 0) {
  static_assert(sizeof...(X) > 0, "sinter::stack: need at least one array to join");
  return detail::join_tuple<true>("sinter::stack", pieces, axis, std::index_sequence_for<X...>{});
}

namespace detail {
/// The view x[..., lo:hi, ...] along axis.
template <class V>
V axis_part(const V& v, std::size_t axis, index_t lo, index_t hi) {
  auto shape = v.shape();
  shape[axis] = hi - lo;
  return V(v.data() + lo * v.strides()[axis], shape, v.strides(), v.policy());
}
template <class X>
auto whole_view(X&& x) {
  static_assert(!(std::is_rvalue_reference_v<X&&> && is_owning_array_v<std::remove_cvref_t<X>>),
                "sinter::split: views of a temporary array would dangle; name the array first");
  return x();
}
}  // namespace detail

/// numpy.split into `sections` equal views along axis (value_error when the
/// extent does not divide): `auto parts = sinter::split(a, 3);`
template <class X>
  requires detail::has_as_expr<X>
auto split(X&& x, index_t sections, index_t axis = 0) {
  const auto v = detail::whole_view(std::forward<X>(x));
  using V = std::remove_cvref_t<decltype(v)>;
  const std::size_t ax = detail::join_axis("sinter::split", axis, V::rank);
  const index_t n = v.shape()[ax];
  if (sections <= 0 || n % sections != 0)
    throw value_error("sinter::split: " + std::to_string(sections) + " sections do not divide axis " +
                      std::to_string(ax) + " of extent " + std::to_string(n) + " equally; give split indices");
  std::vector<V> out;
  for (index_t k = 0; k != sections; ++k)
    out.push_back(detail::axis_part(v, ax, k * (n / sections), (k + 1) * (n / sections)));
  return out;
}
/// numpy.split at `indices` along axis: views x[:i0], x[i0:i1], ..., x[ik:]
/// (indices as slice bounds: negative ones wrap, past the end clamp).
template <class X>
  requires detail::has_as_expr<X>
auto split(X&& x, const std::vector<index_t>& indices, index_t axis = 0) {
  const auto v = detail::whole_view(std::forward<X>(x));
  using V = std::remove_cvref_t<decltype(v)>;
  const std::size_t ax = detail::join_axis("sinter::split", axis, V::rank);
  const index_t n = v.shape()[ax];
  const auto clamp = [n](index_t i) { return i < 0 ? (i + n < 0 ? 0 : i + n) : (i > n ? n : i); };
  std::vector<V> out;
  index_t prev = 0;
  for (std::size_t k = 0; k <= indices.size(); ++k) {
    const index_t cur = k < indices.size() ? clamp(indices[k]) : n;
    out.push_back(detail::axis_part(v, ax, prev, cur < prev ? prev : cur));
    prev = cur;
  }
  return out;
}
/// numpy.split at a braced list of indices: `sinter::split(a, {2, 5})`.
template <class X>
  requires detail::has_as_expr<X>
auto split(X&& x, std::initializer_list<index_t> indices, index_t axis = 0) {
  return split(std::forward<X>(x), std::vector<index_t>(indices), axis);
}

}  // namespace sinter
