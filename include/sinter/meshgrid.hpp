#pragma once
/// \file meshgrid.hpp
/// Coordinate grids, as numpy's: meshgrid (lazy views: each coordinate
/// vector broadcast along the other axes, no copy) and indices (one array
/// holding every axis's index, filled from lazy generators in one pass per axis).
#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

#include "array.hpp"
#include "factories.hpp"
#include "view.hpp"
#include "view_ops.hpp"

namespace sinter {

/// meshgrid's axis order: xy (numpy's default; the first two axes swapped,
/// for images and plots) or ij (matrix order).
enum class indexing { xy, ij };

namespace detail {
/// The result axis that vector k of N spans.
template <indexing I, std::size_t N>
constexpr std::size_t grid_axis(std::size_t k) {
  if constexpr (I == indexing::xy && N >= 2) return k == 0 ? 1 : k == 1 ? 0 : k;
  else return k;
}
}  // namespace detail

/// Read-only views of N 1-D coordinate vectors broadcast to their grid's
/// shape, numpy.meshgrid (indexing xy unless given; no copy):
/// `auto [gx, gy] = sinter::meshgrid(x, y);` gx and gy have shape (y.size, x.size).
template <indexing I = indexing::xy, detail::restridable... X>
auto meshgrid(X&&... x) {
  constexpr std::size_t N = sizeof...(X);
  static_assert(((std::remove_cvref_t<X>::rank == 1) && ...),
                "sinter::meshgrid: give 1-D coordinate vectors (ravel an N-D one first)");
  extents<N> shape{};
  {
    std::size_t k = 0;
    ((shape[detail::grid_axis<I, N>(k++)] = detail::as_operand(x).shape()[0]), ...);
  }
  std::size_t k = 0;
  auto one = [&](auto&& v) {
    const std::size_t a = detail::grid_axis<I, N>(k++);
    return detail::restride<true>(std::forward<decltype(v)>(v), [&](const auto&, const auto& st) {
      detail::strided_layout<N> l{shape, {}};
      l.strides[a] = st[0];
      return l;
    });
  };
  return std::tuple{one(std::forward<X>(x))...};
}

/// The grid of indices of an array of shape `dims`, numpy.indices: result
/// (R, dims...) whose slice c holds axis c's index:
/// `auto ij = sinter::indices({2, 3});` ij(0, i, j) == i, ij(1, i, j) == j.
template <element T = index_t, class P = host, std::size_t R>
array<T, R + 1, P> indices(const detail::extent_arg (&dims)[R], P pol = {}) {
  const auto d = detail::extents_of(dims, "sinter::indices");
  extents<R + 1> shape{};
  shape[0] = static_cast<index_t>(R);
  for (std::size_t a = 0; a != R; ++a) shape[a + 1] = d[a];
  array<T, R + 1, P> out(shape, pol);
  const index_t plane = detail::shape_size(d);
  using G = detail::arange_gen<T>;
  for (std::size_t c = 0; c != R; ++c) {
    extents<R> st{};
    st[c] = 1;
    view<T, R, P>(out.data() + static_cast<index_t>(c) * plane, d, pol) =
        expr<detail::gen_leaf<G, R>, detail::any_policy, 0>({G{0, 1}, 0, d, st});
  }
  return out;
}

}  // namespace sinter
