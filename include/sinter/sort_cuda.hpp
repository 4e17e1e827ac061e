#pragma once
/// \file sort_cuda.hpp
/// The cuda paths of sort_inplace, argsort and topk (sort.hpp): the rows
/// moved last into a row-major array, their keys computed by sinter::map,
/// then CUB's sorts (sort/cuda.hpp). Empty outside files compiled as CUDA.
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "array.hpp"
#include "factories.hpp"
#include "functions.hpp"
#include "policy/cuda.hpp"
#include "sort/radix.hpp"
#include "take.hpp"
#include "view.hpp"
#if SINTER_HAS_CUDA()
#include "sort/cuda.hpp"  // CUB: only in files compiled as CUDA
#endif

namespace sinter {

#if SINTER_HAS_CUDA()
namespace detail::cuda_sort {

/// ~sort_key: the descending order as ascending keys (topk).
template <class T>
struct sort_key_desc_fn {
  SINTER_HD typename sort_key<T>::U operator()(T v) const {
    return static_cast<typename sort_key<T>::U>(~sort_key<T>::of(v));
  }
};

/// The shape of a row-major array holding `shape` with axis a moved last,
/// and the strides that read it in shape's axis order.
template <std::size_t R>
std::pair<extents<R>, extents<R>> last_layout(const extents<R>& shape, std::size_t a) {
  extents<R> ps{}, vs{};
  std::size_t p = 0;
  for (std::size_t d = 0; d != R; ++d)
    if (d != a) ps[p++] = shape[d];
  ps[R - 1] = shape[a];
  const auto st = row_major_strides(ps);
  p = 0;
  for (std::size_t d = 0; d != R; ++d) vs[d] = d == a ? st[R - 1] : st[p++];
  return {ps, vs};
}

/// x evaluated into a row-major array with axis a last: the rows CUB sorts.
template <class T, std::size_t R, class X>
array<T, R, cuda> rows_last(X&& x, std::size_t a, const cuda& pol) {
  const extents<R> shape = as_operand(x).shape();
  const auto [ps, vs] = last_layout(shape, a);
  array<T, R, cuda> t(ps, pol);
  if (t.size() != 0) view<T, R, cuda>(t.data(), shape, vs, pol) = std::forward<X>(x);
  return t;
}

/// The rows of t (rows-last layout, not empty) sorted: their values, or
/// (Indices) their stable sorting indices; Desc: largest first.
template <bool Indices, bool Desc, class T, std::size_t R>
auto sorted_rows(const array<T, R, cuda>& t, const cuda& pol) {
  using U = typename sort_key<T>::U;
  using V = std::conditional_t<Indices, std::int64_t, T>;
  const index_t n = t.size(), len = t.shape()[R - 1];
  const view<const T, 1, cuda> flat(t.data(), extents<1>{{n}}, extents<1>{{1}}, pol);
  array<U, 1, cuda> keys(extents<1>{{n}}, pol), kout(extents<1>{{n}}, pol);
  if constexpr (Desc) keys = sinter::map(sort_key_desc_fn<T>{}, flat);
  else keys = sinter::map(sort_key_fn<T>{}, flat);
  array<V, 1, cuda> out(extents<1>{{n}}, pol);
  if constexpr (Indices) {
    array<std::int64_t, 2, cuda> idx(extents<2>{{n / len, len}}, pol);
    idx = arange<std::int64_t>(len);
    sort_pairs(pol, keys.data(), kout.data(), idx.data(), out.data(), n / len, len);
  } else {
    sort_pairs(pol, keys.data(), kout.data(), t.data(), out.data(), n / len, len);
  }
  return out;
}

/// sort_inplace of a cuda view along a.
template <class T, std::size_t R>
void sort_view(view<T, R, cuda> v, std::size_t a) {
  const cuda pol = v.policy();
  const auto t = rows_last<T, R>(v, a, pol);
  if (t.size() == 0) return;
  const auto s = sorted_rows<false, false>(t, pol);
  v = view<const T, R, cuda>(s.data(), v.shape(), last_layout(v.shape(), a).second, pol);
}

/// argsort (Desc: largest first, ties by index) of x along a on the device.
template <class T, std::size_t R, bool Desc = false, class X>
array<std::int64_t, R, cuda> argsort(X&& x, std::size_t a, const cuda& pol) {
  const extents<R> shape = as_operand(x).shape();
  array<std::int64_t, R, cuda> out(shape, pol);
  const auto t = rows_last<T, R>(std::forward<X>(x), a, pol);
  if (t.size() == 0) return out;
  const auto s = sorted_rows<true, Desc>(t, pol);
  out = view<const std::int64_t, R, cuda>(s.data(), shape, last_layout(shape, a).second, pol);
  return out;
}

/// topk on the device: the descending stable argsort's first k of each row, and a gather.
/// Res: topk_result<T, R, cuda> (sort.hpp).
template <class Res, class T, std::size_t R, class X>
Res topk(X&& x, index_t k, std::size_t a, const cuda& pol) {
  const extents<R> shape = as_operand(x).shape();
  extents<R> oshape = shape;
  oshape[a] = k;
  Res res{array<T, R, cuda>(oshape, pol), array<std::int64_t, R, cuda>(oshape, pol)};
  if (res.values.size() == 0) return res;
  const auto t = rows_last<T, R>(std::forward<X>(x), a, pol);
  const auto vs = last_layout(shape, a).second;
  const auto s = sorted_rows<true, true>(t, pol);
  res.indices = view<const std::int64_t, R, cuda>(s.data(), oshape, vs, pol);
  res.values = take_along_axis(view<const T, R, cuda>(t.data(), shape, vs, pol), res.indices, static_cast<index_t>(a));
  return res;
}

}  // namespace detail::cuda_sort
#endif

}  // namespace sinter
