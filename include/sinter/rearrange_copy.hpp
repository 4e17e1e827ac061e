#pragma once
/// \file rearrange_copy.hpp
/// Rearrangements that build a new array, as numpy's do: diff, tile and
/// repeat. Each is one pass per result (diff: one per order), writing through
/// a view of the result with more axes than it has, read from the source in place.
#include <cstddef>
#include <string>
#include <type_traits>
#include <utility>

#include "array.hpp"
#include "core/error.hpp"
#include "core/shape.hpp"
#include "expression.hpp"
#include "rearrange.hpp"
#include "view.hpp"

namespace sinter {
namespace detail {

/// The source window [start, start + len) along axis a, as a read-only view.
template <class T, std::size_t R, class P>
view<const T, R, P> axis_window(const T* p, extents<R> shape, const extents<R>& strides, std::size_t a,
                                index_t start, index_t len, const P& pol) {
  shape[a] = len;
  return view<const T, R, P>(len > 0 ? p + start * strides[a] : p, shape, strides, pol);
}

/// A count that must be non-negative, else value_error naming it.
inline void check_count(index_t c, const char* who, const char* what) {
  if (c < 0)
    throw value_error(std::string(who) + ": " + what + " must be non-negative, got " + std::to_string(c));
}

}  // namespace detail

/// The n-th discrete difference along `axis` (default the last), numpy's
/// diff: `out[i] = x[i + 1] - x[i]`, n times (bool: `!=`). The axis shrinks
/// by n (to 0 when n exceeds it). A new array of x's policy.
template <expression X>
auto diff(X&& x, index_t n = 1, index_t axis = -1) {
  using P = detail::result_policy_t<X>;
  const P pol = detail::policy_value<P>(x);
  auto s = detail::stored_source(std::forward<X>(x));
  using T = typename decltype(s)::value_type;
  constexpr std::size_t R = decltype(s)::rank;
  static_assert(R >= 1, "sinter::diff: needs an array of rank 1 or more");
  const std::size_t a = detail::checked_axis(axis, R, "sinter::diff");
  detail::check_count(n, "sinter::diff", "the order n");
  // One difference of the layout (p, shape, strides) along a, into a new array.
  auto step = [&](const T* p, const extents<R>& shape, const extents<R>& strides) {
    const index_t len = shape[a] > 0 ? shape[a] - 1 : 0;
    const auto hi = detail::axis_window(p, shape, strides, a, 1, len, pol);
    const auto lo = detail::axis_window(p, shape, strides, a, 0, len, pol);
    if constexpr (std::is_same_v<T, bool>) return array<T, R, P>(hi != lo, pol);
    else return array<T, R, P>(hi - lo, pol);
  };
  const auto& src = s.node();
  if (n == 0) return array<T, R, P>(s, pol);
  array<T, R, P> cur = step(src.ptr, src.shape, src.strides);  // the first straight from the source
  for (index_t k = 1; k < n && cur.shape()[a] > 0; ++k) cur = step(cur.data(), cur.shape(), cur.strides());
  return cur;
}

/// x repeated reps[d] times along each axis, numpy's tile (reps shorter than
/// x's rank count from the last axis; longer ones add leading axes):
/// `sinter::tile(row, {3, 1})`.
template <expression X, std::size_t N>
auto tile(X&& x, const detail::extent_arg (&reps)[N]) {
  using P = detail::result_policy_t<X>;
  const P pol = detail::policy_value<P>(x);
  const auto r = detail::extents_of(reps, "sinter::tile", true);
  for (std::size_t d = 0; d != N; ++d)
    if (r[d] < 0)
      throw value_error("sinter::tile: reps must be non-negative; reps[" + std::to_string(d) + "] is " +
                        std::to_string(r[d]));
  auto s = detail::stored_source(std::forward<X>(x));
  using T = typename decltype(s)::value_type;
  constexpr std::size_t R = decltype(s)::rank;
  constexpr std::size_t RO = R > N ? R : N;
  const auto& src = s.node();
  extents<RO> out{}, in_shape{}, in_strides{}, rep{};
  for (std::size_t d = 0; d != RO; ++d) {
    // Axis d of the result is source axis d - (RO - R) and reps entry d - (RO - N).
    in_shape[d] = d + R >= RO ? src.shape[d + R - RO] : 1;
    in_strides[d] = d + R >= RO ? src.strides[d + R - RO] : 0;
    rep[d] = d + N >= RO ? r[d + N - RO] : 1;
    out[d] = in_shape[d] * rep[d];
  }
  array<T, RO, P> result(out, pol);
  // The result as (rep0, n0, rep1, n1, ...); the source broadcasts over the rep axes.
  const auto st = detail::row_major_strides(out);
  extents<2 * RO> ws{}, wst{}, ss{}, sst{};
  for (std::size_t d = 0; d != RO; ++d) {
    ws[2 * d] = rep[d];
    ws[2 * d + 1] = in_shape[d];
    wst[2 * d] = in_shape[d] * st[d];
    wst[2 * d + 1] = st[d];
    ss[2 * d] = 1;
    ss[2 * d + 1] = in_shape[d];
    sst[2 * d + 1] = in_strides[d];
  }
  if (result.size() != 0)
    view<T, 2 * RO, P>(result.data(), ws, wst, pol) = view<const T, 2 * RO, P>(src.ptr, ss, sst, pol);
  return result;
}
/// tile with one count for the last axis: `sinter::tile(v, 3)`.
template <expression X>
auto tile(X&& x, index_t reps) {
  const detail::extent_arg r[1] = {reps};
  return tile(std::forward<X>(x), r);
}

/// Each element repeated `count` times along `axis`, numpy's repeat with a
/// scalar count: `sinter::repeat(m, 2, 0)` doubles every row in place.
template <expression X>
auto repeat(X&& x, index_t count, index_t axis) {
  using P = detail::result_policy_t<X>;
  const P pol = detail::policy_value<P>(x);
  auto s = detail::stored_source(std::forward<X>(x));
  using T = typename decltype(s)::value_type;
  constexpr std::size_t R = decltype(s)::rank;
  const std::size_t a = detail::checked_axis(axis, R, "sinter::repeat");
  detail::check_count(count, "sinter::repeat", "the count");
  const auto& src = s.node();
  extents<R> out = src.shape;
  out[a] *= count;
  array<T, R, P> result(out, pol);
  // The result with axis a split in (n, count); the source broadcasts over count.
  const auto st = detail::row_major_strides(out);
  extents<R + 1> ws{}, wst{}, ss{}, sst{};
  for (std::size_t d = 0, o = 0; d != R; ++d, ++o) {
    ws[o] = src.shape[d];
    wst[o] = d == a ? count * st[d] : st[d];
    ss[o] = src.shape[d];
    sst[o] = src.strides[d];
    if (d == a) {
      ++o;
      ws[o] = count;
      wst[o] = st[d];
      ss[o] = 1;
    }
  }
  if (result.size() != 0)
    view<T, R + 1, P>(result.data(), ws, wst, pol) = view<const T, R + 1, P>(src.ptr, ss, sst, pol);
  return result;
}
/// repeat of the flattened elements (numpy's repeat without an axis): a 1-D array.
template <expression X>
auto repeat(X&& x, index_t count) {
  detail::check_count(count, "sinter::repeat", "the count");
  using P = detail::result_policy_t<X>;
  const P pol = detail::policy_value<P>(x);
  auto f = detail::flat_source(std::forward<X>(x));
  return repeat(view<const typename decltype(f)::value_type, 1, P>(f.node().ptr, f.shape(), pol), count, 0);
}

}  // namespace sinter
