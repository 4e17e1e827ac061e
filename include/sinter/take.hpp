#pragma once
/// \file take.hpp
/// Integer-array indexing, as NumPy's: `take` and `take_along_axis`. Each is
/// lazy, a generator leaf (core/gather_gen.hpp) that reads the source at the
/// gathered positions only: `take(exp(x), idx)` computes exp of the taken
/// elements alone. Negative indices wrap; every index is checked when the
/// gather is made (index_error naming the index, its position and the
/// extent), before anything is written.
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>

#include "join.hpp"
#include "transfer.hpp"

namespace sinter {
namespace detail {

/// The index_error of index v at position `at` of the indices.
template <std::size_t R>
[[noreturn]] SINTER_NOINLINE void throw_take_index(const char* who, std::string v, const extents<R>& at,
                                                   index_t extent, std::size_t axis, bool flat) {
  throw index_error(std::string(who) + ": index " + v + " at position " + shape_string(at) +
                    " is out of bounds for " + (flat ? std::string("the flattened array") : "axis " + std::to_string(axis)) +
                    " with size " + std::to_string(extent) + "; indices must lie in [-" + std::to_string(extent) +
                    ", " + std::to_string(extent) + ")");
}

/// Whether index v lies in [-extent, extent).
template <class I>
SINTER_FORCEINLINE bool index_ok(I v, index_t extent) {
  if constexpr (std::is_signed_v<I>) return static_cast<index_t>(v) >= -extent && static_cast<index_t>(v) < extent;
  else return static_cast<std::uint64_t>(v) < static_cast<std::uint64_t>(extent);
}

/// Checks every index of a host layout against `extent`; throws for the
/// first (row-major) out of range. A contiguous layout is scanned by a
/// branch-free loop first, the position found only when one fails.
template <class I, std::size_t R>
SINTER_NOINLINE void check_indices(const char* who, const I* p, const extents<R>& shape, const extents<R>& strides,
                                   index_t extent, std::size_t axis, bool flat) {
  const index_t n = shape_size(shape);
  if (n == 0) return;
  if (is_row_major(shape, strides)) {
    bool ok = true;
    for (index_t k = 0; k != n; ++k) ok &= index_ok(p[k], extent);
    if (ok) return;
  }
  extents<R> c{};
  index_t off = 0;
  for (index_t k = 0; k != n; ++k) {
    if (!index_ok(p[off], extent)) throw_take_index(who, std::to_string(p[off]), c, extent, axis, flat);
    for (std::size_t d = R; d-- > 0;) {
      off += strides[d];
      if (++c[d] < shape[d]) break;
      off -= c[d] * strides[d];
      c[d] = 0;
    }
  }
}

/// The indices as memory of policy P (evaluated if an expression), checked.
template <class P, class Ix>
auto checked_indices(const char* who, Ix&& idx, index_t extent, std::size_t axis, bool flat) {
  auto m = join_operand<P>(std::forward<Ix>(idx));
  using I = std::remove_cvref_t<decltype(*m.ptr)>;
  static_assert(std::is_integral_v<I> && !std::is_same_v<I, bool>,
                "sinter::take: indices must be an array of integers");
  if constexpr (backend<P>::host_accessible) {
    check_indices(who, m.ptr, m.shape, m.strides, extent, axis, flat);
  } else {
    const auto h = to<host>(view<const I, std::tuple_size_v<decltype(m.shape)>, P>(m.ptr, m.shape, m.strides));
    check_indices(who, h.data(), h.shape(), h.strides(), extent, axis, flat);
  }
  return m;
}

/// An expression's keep-alives followed by one more.
template <std::size_t K>
std::array<std::shared_ptr<const void>, K + 1> keep_plus(const std::array<std::shared_ptr<const void>, K>& k,
                                                        std::shared_ptr<const void> more) {
  std::array<std::shared_ptr<const void>, K + 1> out;
  for (std::size_t i = 0; i != K; ++i) out[i] = k[i];
  out[K] = std::move(more);
  return out;
}

/// The gather leaf of mode M from source node `src` by indices `m`, of shape `shape`.
template <take_mode M, class P, std::size_t RO, class E, class Node, class I, std::size_t RI>
auto make_take(const char* who, const E& e, const Node& src, const join_mem<I, RI>& m, const extents<RI>& istrides,
               index_t extent, std::size_t axis, const extents<RO>& shape) {
  using G = take_gen<M, Node, I, RI, RO>;
  coord_fields<RO> f{};
  extents<RO> strides{};
  if (!make_fields(shape, f, strides)) throw value_error(std::string(who) + ": the result's extents are too large to address");
  std::uintptr_t ihi = 0;
  const std::uintptr_t ilo = layout_bytes(m.ptr, m.shape, m.strides, ihi);
  const G g{src, m.ptr, istrides, extent, static_cast<index_t>(axis), f, ilo, ihi};
  constexpr std::size_t K = E::keep_count() + 1;
  return expr<gen_leaf<G, RO>, P, K>(gen_leaf<G, RO>{g, 0, shape, strides}, keep_plus(e.keep(), m.keep));
}

template <class X, class Ix>
using take_policy_t =
    placed_policy_t<common_policy_t<typename expr_of_t<X>::policy_type, typename expr_of_t<Ix>::policy_type>>;

}  // namespace detail

/// numpy.take(x, idx, axis): the result's axes are x's before `axis`, then
/// idx's, then x's after; lazy, reading x (an array, view or any
/// expression) at the taken positions only: `auto r = sinter::take(x, idx, 0);`
template <class X, class Ix>
  requires(expression<X> && expression<Ix>)
auto take(X&& x, Ix&& idx, index_t axis) {
  using P = detail::take_policy_t<X, Ix>;
  auto e = detail::as_expr(std::forward<X>(x));
  using E = decltype(e);
  constexpr std::size_t RX = E::rank;
  static_assert(RX >= 1, "sinter::take: the source must have at least one axis");
  const std::size_t ax = detail::join_axis("sinter::take", axis, RX);
  const index_t extent = e.shape()[ax];
  const auto m = detail::checked_indices<P>("sinter::take", std::forward<Ix>(idx), extent, ax, false);
  constexpr std::size_t RI = std::tuple_size_v<decltype(m.shape)>;
  constexpr std::size_t RO = RX - 1 + RI;
  extents<RO> shape{};
  for (std::size_t d = 0; d != ax; ++d) shape[d] = e.shape()[d];
  for (std::size_t j = 0; j != RI; ++j) shape[ax + j] = m.shape[j];
  for (std::size_t d = ax + 1; d < RX; ++d) shape[d + RI - 1] = e.shape()[d];
  return detail::make_take<detail::take_mode::axis, P, RO>("sinter::take", e, e.node().bind(e.shape()), m,
                                                         m.strides, extent, ax, shape);
}

/// numpy.take(x, idx) without an axis: x flattened in row-major order; the
/// result has idx's shape.
template <class X, class Ix>
  requires(expression<X> && expression<Ix>)
auto take(X&& x, Ix&& idx) {
  using P = detail::take_policy_t<X, Ix>;
  auto e = detail::as_expr(std::forward<X>(x));
  using E = decltype(e);
  constexpr std::size_t RX = E::rank;
  static_assert(RX >= 1, "sinter::take: the source must have at least one axis");
  if constexpr (RX == 1) {
    return take(std::move(e), std::forward<Ix>(idx), 0);
  } else {
    const index_t extent = e.size();
    const auto m = detail::checked_indices<P>("sinter::take", std::forward<Ix>(idx), extent, 0, true);
    return detail::make_take<detail::take_mode::flat, P>("sinter::take", e, e.node().bind(e.shape()), m, m.strides,
                                                         extent, 0, m.shape);
  }
}

/// numpy.take_along_axis(x, idx, axis): idx has x's rank; the result has
/// idx's extent along `axis` and the two shapes broadcast on the other axes;
/// element [..., i, ...] is x[..., idx[..., i, ...], ...].
template <class X, class Ix>
  requires(expression<X> && expression<Ix>)
auto take_along_axis(X&& x, Ix&& idx, index_t axis) {
  using P = detail::take_policy_t<X, Ix>;
  auto e = detail::as_expr(std::forward<X>(x));
  using E = decltype(e);
  constexpr std::size_t R = E::rank;
  static_assert(R >= 1 && detail::expr_of_t<Ix>::rank == R,
                "sinter::take_along_axis: the indices must have the source's rank");
  const std::size_t ax = detail::join_axis("sinter::take_along_axis", axis, R);
  const index_t extent = e.shape()[ax];
  const auto m = detail::checked_indices<P>("sinter::take_along_axis", std::forward<Ix>(idx), extent, ax, false);
  extents<R> shape{}, src_shape{};
  for (std::size_t d = 0; d != R; ++d) {
    const index_t a = e.shape()[d], b = m.shape[d];
    if (d != ax && a != b && a != 1 && b != 1)
      throw shape_error("sinter::take_along_axis: shapes " + detail::shape_string(e.shape()) + " and " +
                        detail::shape_string(m.shape) + " do not broadcast off axis " + std::to_string(ax) +
                        "; they must match (or be 1) on every other axis");
    shape[d] = d == ax ? b : (a == 1 ? b : a);
    src_shape[d] = d == ax ? a : shape[d];
  }
  return detail::make_take<detail::take_mode::along, P>("sinter::take_along_axis", e, e.node().bind(src_shape), m,
                                                         detail::broadcast_strides(m.shape, m.strides, shape), extent,
                                                         ax, shape);
}

}  // namespace sinter
