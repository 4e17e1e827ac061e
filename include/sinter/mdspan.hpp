#pragma once
/// \file mdspan.hpp
/// mdspan-style views: `as_view(m)` of any type with data_handle(),
/// extents() and stride(r) (std::mdspan, Kokkos' reference mdspan, a
/// user's own), and `to_mdspan(x)` where the standard library has
/// std::mdspan (__cpp_lib_mdspan). No copy either way.
#include <array>
#include <concepts>
#include <cstddef>
#include <string>
#include <type_traits>
#include <version>

#if defined(__cpp_lib_mdspan)
#include <mdspan>
#endif

#include "array.hpp"
#include "view.hpp"

namespace sinter {

/// A strided multidimensional view: a pointer data_handle(), extents() with
/// a static rank() and extent(r), and stride(r) in elements (mdspan's interface).
template <class M>
concept mdspan_like = requires(const M& m, std::size_t r) {
  { m.data_handle() };
  requires std::is_pointer_v<std::remove_cvref_t<decltype(m.data_handle())>>;  // mdspan returns a reference to it
  { std::remove_cvref_t<decltype(m.extents())>::rank() } -> std::convertible_to<std::size_t>;
  { m.extents().extent(r) } -> std::convertible_to<index_t>;
  { m.stride(r) } -> std::convertible_to<index_t>;
};

/// A view of an mdspan-like object's elements (any layout mapping with
/// strides, negative ones too); with a policy, memory of that policy.
template <mdspan_like M, policy P = host>
auto as_view(const M& m, P pol = {}) {
  using T = std::remove_pointer_t<std::remove_cvref_t<decltype(m.data_handle())>>;
  constexpr std::size_t R = std::remove_cvref_t<decltype(m.extents())>::rank();
  extents<R> shape{}, strides{};
  for (std::size_t d = 0; d != R; ++d) {
    shape[d] = static_cast<index_t>(m.extents().extent(d));
    strides[d] = static_cast<index_t>(m.stride(d));
  }
  return view<T, R, P>(m.data_handle(), shape, strides, pol);
}

#if defined(__cpp_lib_mdspan)
namespace detail {
template <class T, std::size_t R, class P>
auto mdspan_of(T* p, const extents<R>& shape, const extents<R>& strides) {
  static_assert(backend<P>::host_accessible, "sinter::to_mdspan: host and par memory only");
  using X = std::dextents<index_t, R>;
  std::array<index_t, R> e{}, s{};
  for (std::size_t d = 0; d != R; ++d) {
    // std::layout_stride requires positive strides: no reversed or broadcast axes.
    if (strides[d] <= 0 && shape[d] > 1)
      throw value_error("sinter::to_mdspan: axis " + std::to_string(d) + " has stride " + std::to_string(strides[d]) +
                        "; std::layout_stride needs positive strides; copy first with sinter::eval");
    e[d] = shape[d];
    s[d] = strides[d] > 0 ? strides[d] : 1;
  }
  return std::mdspan<T, X, std::layout_stride>(p, typename std::layout_stride::template mapping<X>(X(e), s));
}
}  // namespace detail

/// A std::mdspan (layout_stride) of an array's elements.
template <class T, std::size_t R, class P>
auto to_mdspan(array<T, R, P>& a) {
  return detail::mdspan_of<T, R, P>(a.data(), a.shape(), a.strides());
}
/// A std::mdspan of a const array's elements.
template <class T, std::size_t R, class P>
auto to_mdspan(const array<T, R, P>& a) {
  return detail::mdspan_of<const T, R, P>(a.data(), a.shape(), a.strides());
}
/// A std::mdspan of a view's elements, its strides kept (a reversed or
/// broadcast axis, which std::layout_stride cannot hold, throws value_error).
template <class T, std::size_t R, class P>
auto to_mdspan(const view<T, R, P>& v) {
  return detail::mdspan_of<T, R, P>(v.data(), v.shape(), v.strides());
}
#endif

}  // namespace sinter
