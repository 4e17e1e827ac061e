#pragma once
/// \file eigen.hpp
/// Eigen adapters, no copy either way: `as_view(m)` of an Eigen matrix,
/// array, Map, Ref or Block with direct access (column- or row-major, any
/// strides; a vector type gives a 1-D view), and `to_eigen_map(x)` of a
/// 1-D or 2-D host array or view. Include it after Eigen; the rest of
/// sinter never includes Eigen.
#include <cstddef>
#include <type_traits>

#include "array.hpp"
#include "view.hpp"

#if !defined(EIGEN_WORLD_VERSION)
#error "sinter/eigen.hpp: include <Eigen/Core> (or <Eigen/Dense>) before it; sinter itself does not depend on Eigen"
#endif

namespace sinter {

namespace detail {
/// An Eigen dense object whose coefficients are in memory at data() with
/// innerStride()/outerStride() (Matrix, Array, Map, Ref, Block of those).
template <class D>
concept eigen_direct = std::is_base_of_v<Eigen::DenseBase<D>, D> && requires(const D& d) {
  d.data();
  d.innerStride();
  d.outerStride();
} && ((int(D::Flags) & Eigen::DirectAccessBit) != 0);

template <class D>
concept eigen_plain = std::is_base_of_v<Eigen::PlainObjectBase<D>, D>;
}  // namespace detail

/// A view of an Eigen object's coefficients: rank 1 for a vector type,
/// else rank 2 (rows, cols) with Eigen's strides, row- or column-major.
/// A const object (or a Map of const) gives a view of const.
template <class X, policy P = host>
  requires detail::eigen_direct<std::remove_cvref_t<X>>
auto as_view(X&& x, P pol = {}) {
  using D = std::remove_cvref_t<X>;
  static_assert(!(detail::eigen_plain<D> && std::is_rvalue_reference_v<X&&>),
                "sinter::as_view: a view of a temporary Eigen matrix would dangle; name the matrix first");
  static_assert(detail::backend<P>::host_accessible, "sinter::as_view: Eigen's memory is the host's; view it as host or par");
  using T = std::remove_pointer_t<decltype(x.data())>;
  const auto inner = static_cast<index_t>(x.innerStride()), outer = static_cast<index_t>(x.outerStride());
  if constexpr (D::IsVectorAtCompileTime) {
    return view<T, 1, P>(x.data(), extents<1>{static_cast<index_t>(x.size())}, extents<1>{inner}, pol);
  } else {
    const extents<2> shape{static_cast<index_t>(x.rows()), static_cast<index_t>(x.cols())};
    const extents<2> strides = D::IsRowMajor ? extents<2>{outer, inner} : extents<2>{inner, outer};
    return view<T, 2, P>(x.data(), shape, strides, pol);
  }
}

namespace detail {
template <class T, std::size_t R>
auto eigen_map_of(T* p, const extents<R>& shape, const extents<R>& strides) {
  using V = std::remove_const_t<T>;
  using Ix = Eigen::Index;
  if constexpr (R == 1) {
    using M = std::conditional_t<std::is_const_v<T>, const Eigen::Matrix<V, Eigen::Dynamic, 1>,
                                 Eigen::Matrix<V, Eigen::Dynamic, 1>>;
    return Eigen::Map<M, Eigen::Unaligned, Eigen::InnerStride<Eigen::Dynamic>>(
        p, static_cast<Ix>(shape[0]), Eigen::InnerStride<Eigen::Dynamic>(static_cast<Ix>(strides[0])));
  } else {
    static_assert(R == 2, "sinter::to_eigen_map: 1-D and 2-D arrays only");
    using Mx = Eigen::Matrix<V, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
    using M = std::conditional_t<std::is_const_v<T>, const Mx, Mx>;
    using S = Eigen::Stride<Eigen::Dynamic, Eigen::Dynamic>;
    return Eigen::Map<M, Eigen::Unaligned, S>(p, static_cast<Ix>(shape[0]), static_cast<Ix>(shape[1]),
                                             S(static_cast<Ix>(strides[0]), static_cast<Ix>(strides[1])));
  }
}
}  // namespace detail

/// An Eigen::Map of a host array's elements: a dynamic column vector for
/// 1-D, a row-major matrix with Eigen::Stride (outer: rows, inner: columns) for 2-D.
template <class T, std::size_t R, class P>
auto to_eigen_map(array<T, R, P>& a) {
  static_assert(detail::backend<P>::host_accessible, "sinter::to_eigen_map: host and par memory only");
  return detail::eigen_map_of<T, R>(a.data(), a.shape(), a.strides());
}
/// An Eigen::Map of const of a const array.
template <class T, std::size_t R, class P>
auto to_eigen_map(const array<T, R, P>& a) {
  static_assert(detail::backend<P>::host_accessible, "sinter::to_eigen_map: host and par memory only");
  return detail::eigen_map_of<const T, R>(a.data(), a.shape(), a.strides());
}
/// An Eigen::Map of a view's elements, its strides kept (negative ones too).
template <class T, std::size_t R, class P>
auto to_eigen_map(const view<T, R, P>& v) {
  static_assert(detail::backend<P>::host_accessible, "sinter::to_eigen_map: host and par memory only");
  return detail::eigen_map_of<T, R>(v.data(), v.shape(), v.strides());
}
/// A map of a temporary array would dangle.
template <class T, std::size_t R, class P>
void to_eigen_map(array<T, R, P>&& a) = delete;

}  // namespace sinter
