#pragma once
/// \file sort.hpp
/// Sorting along an axis, NumPy's names and order: sort, sort_inplace,
/// argsort (stable, int64 indices), partition, argpartition and topk.
/// NaN sorts last (every NaN equal), -0.0 and +0.0 are equal and keep
/// their order. A lazy operand is evaluated once, into the result (sort,
/// partition) or a buffer (the others). host: an LSD radix sort of the
/// keys' bit patterns (sort/radix.hpp); par: rows across threads, or one
/// long row by the parallel radix sort, the same bits for any thread
/// count; cuda: CUB's radix and segmented sorts (sort/cuda.hpp).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>

#include "array.hpp"
#include "core/error.hpp"
#include "expression.hpp"
#include "factories.hpp"
#include "functions.hpp"
#include "policy/cuda.hpp"
#include "policy/par.hpp"
#include "rearrange.hpp"
#include "sort/radix.hpp"
#include "take.hpp"
#include "view.hpp"
#include "view_ops.hpp"
#if SINTER_HAS_CUDA()
#include "sort/cuda.hpp"  // CUB: only in files compiled as CUDA
#endif

namespace sinter {
namespace detail {

/// Offset of row r (row-major over every axis but a) under `strides`.
template <std::size_t R>
index_t row_offset(index_t r, const extents<R>& shape, const extents<R>& strides, std::size_t a) {
  index_t off = 0;
  for (std::size_t d = R; d-- > 0;) {
    if (d == a) continue;
    const index_t q = r / shape[d];
    off += (r - q * shape[d]) * strides[d];
    r = q;
  }
  return off;
}

/// f(r, scratch, inner_parallel) for every row r: on par, rows across the
/// pool when there are several and enough elements, else one row at a time
/// (each row then sorted by the parallel radix sort).
template <class F>
void for_rows(index_t rows, index_t len, bool parallel, F f) {
  if (rows == 0 || len == 0) return;
  if (!(parallel && rows > 1 && rows * len >= radix_par_min)) {
    sort_scratch s;
    for (index_t r = 0; r < rows; ++r) f(r, s, parallel);
    return;
  }
  const index_t chunks = std::min<index_t>(rows, 4 * get_num_threads());
  const index_t per = (rows + chunks - 1) / chunks;
  default_pool().parallel_for(chunks, [&](std::int64_t k) {
    sort_scratch s;
    for (index_t r = k * per; r < std::min(rows, (k + 1) * per); ++r) f(r, s, false);
  });
}

template <std::size_t R>
index_t rows_of(const extents<R>& shape, std::size_t a) {
  return shape[a] == 0 ? 0 : shape_size(shape) / shape[a];
}

/// Sorts every row along axis a of the layout (p, shape, strides) in place.
template <class T, std::size_t R>
void sort_layout(T* p, const extents<R>& shape, const extents<R>& strides, std::size_t a, bool parallel) {
  const index_t len = shape[a], s = strides[a];
  for_rows(rows_of(shape, a), len, parallel, [&](index_t r, sort_scratch& sc, bool ip) {
    T* row = p + row_offset(r, shape, strides, a);
    T* buf = sc.get<T>(len);
    if (s == 1) return sort_values(row, len, buf, ip);
    for (index_t i = 0; i < len; ++i) buf[i] = row[i * s];
    sort_values(buf, len, buf + len, ip);
    for (index_t i = 0; i < len; ++i) row[i * s] = buf[i];
  });
}

/// The keys of row (p, stride s, len) into k.
template <class T>
void row_keys(const T* row, index_t s, index_t len, typename sort_key<T>::U* k) {
  for (index_t i = 0; i < len; ++i) k[i] = sort_key<T>::of(row[i * s]);
}

/// argsort of every row of (p, shape, strides) along a into out (row-major, shape).
template <class T, std::size_t R>
void argsort_layout(const T* p, const extents<R>& shape, const extents<R>& strides, std::size_t a,
                    std::int64_t* out, bool parallel) {
  using U = typename sort_key<T>::U;
  const auto os = row_major_strides(shape);
  const index_t len = shape[a];
  for_rows(rows_of(shape, a), len, parallel, [&](index_t r, sort_scratch& sc, bool ip) {
    std::int64_t* orow = out + row_offset(r, shape, os, a);
    U* k = sc.get<U>(len);
    row_keys(p + row_offset(r, shape, strides, a), strides[a], len, k);
    std::int64_t* ids = sc.ids(2 * len);
    std::int64_t* idx = os[a] == 1 ? orow : ids + len;
    argsort_keys(k, len, idx, k + len, ids, ip);
    if (os[a] != 1)
      for (index_t i = 0; i < len; ++i) orow[i * os[a]] = idx[i];
  });
}

/// kth of an axis of length len (negative counts from the end), or value_error.
inline index_t checked_kth(index_t kth, index_t len, const char* who) {
  const index_t k = kth < 0 ? kth + len : kth;
  if (k < 0 || k >= len)
    throw value_error(std::string(who) + ": kth " + std::to_string(kth) + " is out of bounds for an axis of length " +
                      std::to_string(len) + "; use -len .. len - 1");
  return k;
}

/// x evaluated once into a new array of policy value pol. An array or view
/// on host or par is copied row by row here, not by a pass: the sort
/// functions then compile no pass of their own for them.
template <class T, std::size_t R, class P, class X>
array<T, R, P> copy_of(X&& x, const P& pol) {
  using D = std::remove_cvref_t<X>;
  if constexpr (std::is_same_v<D, array<T, R, P>> && !std::is_lvalue_reference_v<X>) {
    return D(std::move(x));
  } else if constexpr (!std::is_same_v<P, cuda> && (is_array<D>::value || is_view<D>::value)) {
    const T* src = x.data();
    const extents<R> shape = x.shape(), st = x.strides();
    array<T, R, P> out(shape, pol);
    const index_t len = shape[R - 1], s = st[R - 1];
    const index_t rows = rows_of(shape, R - 1);
    for (index_t r = 0; r < rows; ++r) {
      const T* in = src + row_offset(r, shape, st, R - 1);
      T* o = out.data() + r * len;
      if (s == 1) std::copy(in, in + len, o);
      else
        for (index_t i = 0; i < len; ++i) o[i] = in[i * s];
    }
    return out;
  } else if constexpr (std::is_same_v<D, array<T, R, P>>) {
    return D(x);  // a cuda array: one device copy
  } else {
    return array<T, R, P>(std::forward<X>(x), pol);
  }
}

/// False for a cuda operand in a file not compiled as CUDA (refused at compile time).
template <class X>
inline constexpr bool sort_host_ok_v = !std::is_same_v<result_policy_t<X>, cuda> || compiled_as_cuda_v<X>;

}  // namespace detail

/// topk's result: the k largest values along the axis, largest first, and
/// their int64 indices (`auto [v, i] = sinter::topk(x, 3);`).
template <class T, std::size_t R, class P>
struct topk_result {
  /// The values, the axis cut to k.
  array<T, R, P> values;
  /// Their indices along the axis.
  array<std::int64_t, R, P> indices;
};

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
template <class T, std::size_t R, class X>
topk_result<T, R, cuda> topk(X&& x, index_t k, std::size_t a, const cuda& pol) {
  const extents<R> shape = as_operand(x).shape();
  extents<R> oshape = shape;
  oshape[a] = k;
  topk_result<T, R, cuda> res{array<T, R, cuda>(oshape, pol), array<std::int64_t, R, cuda>(oshape, pol)};
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

/// Sorts x in place along `axis` (default the last), NumPy's order, stably:
/// `sinter::sort_inplace(a);` (an array, or a view of writable elements).
template <class T, std::size_t R, class P>
void sort_inplace(view<T, R, P> v, index_t axis = -1) {
  static_assert(!std::is_const_v<T>, "sinter::sort_inplace: the view's elements are const");
  static_assert(R >= 1, "sinter::sort_inplace: needs an array of rank 1 or more");
  const std::size_t a = detail::checked_axis(axis, R, "sinter::sort_inplace");
  if constexpr (std::is_same_v<P, cuda>) {
#if SINTER_HAS_CUDA()
    detail::cuda_sort::sort_view(v, a);
#else
    static_assert(detail::compiled_as_cuda_v<view<T, R, P>>, "sinter::cuda: compile this file as CUDA");
#endif
  } else {
    detail::sort_layout(v.data(), v.shape(), v.strides(), a, std::is_same_v<P, par>);
  }
}
/// Sorts an array in place along `axis` (default the last).
template <class T, std::size_t R, class P>
void sort_inplace(array<T, R, P>& x, index_t axis = -1) {
  sort_inplace(view<T, R, P>(x), axis);
}

/// A sorted copy of x along `axis` (default the last), NumPy's sort with
/// kind="stable": a new array of x's policy; x (any expression) evaluated once, into it.
template <expression X>
auto sort(X&& x, index_t axis = -1) {
  static_assert(detail::sort_host_ok_v<X>, "sinter::cuda: compile this file as CUDA to use cuda arrays");
  using P = detail::result_policy_t<X>;
  using T = typename detail::expr_of_t<X>::value_type;
  constexpr std::size_t R = detail::expr_of_t<X>::rank;
  static_assert(R >= 1, "sinter::sort: needs an array of rank 1 or more");
  (void)detail::checked_axis(axis, R, "sinter::sort");
  const P pol = detail::policy_value<P>(x);
  array<T, R, P> out = detail::copy_of<T, R>(std::forward<X>(x), pol);
  sort_inplace(out, axis);
  return out;
}

/// The indices that sort x along `axis` (default the last), stably: an
/// int64 array of x's shape and policy (NumPy's argsort, kind="stable").
template <expression X>
auto argsort(X&& x, index_t axis = -1) {
  static_assert(detail::sort_host_ok_v<X>, "sinter::cuda: compile this file as CUDA to use cuda arrays");
  using P = detail::result_policy_t<X>;
  constexpr std::size_t R = detail::expr_of_t<X>::rank;
  static_assert(R >= 1, "sinter::argsort: needs an array of rank 1 or more");
  const std::size_t a = detail::checked_axis(axis, R, "sinter::argsort");
  const P pol = detail::policy_value<P>(x);
  if constexpr (std::is_same_v<P, cuda>) {
#if SINTER_HAS_CUDA()
    return detail::cuda_sort::argsort<typename detail::expr_of_t<X>::value_type, R>(std::forward<X>(x), a, pol);
#endif
  } else {
    auto s = detail::stored_source(std::forward<X>(x));
    // Named copies, not a structured binding: clang does not capture bindings in lambdas.
    const auto* const p = s.node().ptr;
    const auto shape = s.node().shape;
    const auto strides = s.node().strides;
    array<std::int64_t, R, P> out(shape, pol);
    detail::argsort_layout(p, shape, strides, a, out.data(), std::is_same_v<P, par>);
    return out;
  }
}

/// x partitioned along `axis` about `kth` (NumPy's partition): element kth
/// is the one a sort puts there, none before it is larger, none after it
/// smaller (order within the two sides unspecified). kth may be negative.
template <expression X>
auto partition(X&& x, index_t kth, index_t axis = -1) {
  static_assert(detail::sort_host_ok_v<X>, "sinter::cuda: compile this file as CUDA to use cuda arrays");
  using P = detail::result_policy_t<X>;
  using T = typename detail::expr_of_t<X>::value_type;
  constexpr std::size_t R = detail::expr_of_t<X>::rank;
  static_assert(R >= 1, "sinter::partition: needs an array of rank 1 or more");
  const std::size_t a = detail::checked_axis(axis, R, "sinter::partition");
  const index_t k = detail::checked_kth(kth, detail::as_operand(x).shape()[a], "sinter::partition");
  if constexpr (std::is_same_v<P, cuda>) {
    return sort(std::forward<X>(x), axis);  // a sorted row is partitioned
  } else {
    const P pol = detail::policy_value<P>(x);
    array<T, R, P> out = detail::copy_of<T, R>(std::forward<X>(x), pol);
    const auto shape = out.shape();
    const auto st = out.strides();
    const index_t len = shape[a], s = st[a];
    detail::for_rows(detail::rows_of(shape, a), len, std::is_same_v<P, par>,
                     [&](index_t r, detail::sort_scratch& sc, bool) {
                       T* row = out.data() + detail::row_offset(r, shape, st, a);
                       T* buf = sc.get<T>(len);
                       for (index_t i = 0; i < len; ++i) buf[i] = row[i * s];
                       std::nth_element(buf, buf + k, buf + len, [](T u, T v) {
                         return detail::sort_key<T>::of(u) < detail::sort_key<T>::of(v);
                       });
                       for (index_t i = 0; i < len; ++i) row[i * s] = buf[i];
                     });
    return out;
  }
}

/// The indices that partition x along `axis` about `kth` (NumPy's
/// argpartition): int64, x's shape; x[idx[kth]] is the kth smallest.
template <expression X>
auto argpartition(X&& x, index_t kth, index_t axis = -1) {
  static_assert(detail::sort_host_ok_v<X>, "sinter::cuda: compile this file as CUDA to use cuda arrays");
  using P = detail::result_policy_t<X>;
  using T = typename detail::expr_of_t<X>::value_type;
  using U = typename detail::sort_key<T>::U;
  constexpr std::size_t R = detail::expr_of_t<X>::rank;
  static_assert(R >= 1, "sinter::argpartition: needs an array of rank 1 or more");
  const std::size_t a = detail::checked_axis(axis, R, "sinter::argpartition");
  const index_t k = detail::checked_kth(kth, detail::as_operand(x).shape()[a], "sinter::argpartition");
  if constexpr (std::is_same_v<P, cuda>) {
    return argsort(std::forward<X>(x), axis);  // sorted indices partition
  } else {
    const P pol = detail::policy_value<P>(x);
    auto s = detail::stored_source(std::forward<X>(x));
    // Named copies, not a structured binding: clang does not capture bindings in lambdas.
    const auto* const p = s.node().ptr;
    const auto shape = s.node().shape;
    const auto strides = s.node().strides;
    array<std::int64_t, R, P> out(shape, pol);
    const auto os = out.strides();
    const index_t len = shape[a];
    detail::for_rows(detail::rows_of(shape, a), len, std::is_same_v<P, par>,
                     [&](index_t r, detail::sort_scratch& sc, bool) {
                       U* key = sc.get<U>(len);
                       detail::row_keys(p + detail::row_offset(r, shape, strides, a), strides[a], len, key);
                       std::int64_t* idx = sc.ids(len);
                       for (index_t i = 0; i < len; ++i) idx[i] = i;
                       std::nth_element(idx, idx + k, idx + len,
                                        [key](std::int64_t u, std::int64_t v) { return key[u] < key[v]; });
                       std::int64_t* orow = out.data() + detail::row_offset(r, shape, os, a);
                       for (index_t i = 0; i < len; ++i) orow[i * os[a]] = idx[i];
                     });
    return out;
  }
}

/// The k largest elements along `axis` (default the last), largest first:
/// the last k of the stable ascending sort, reversed by value; equal values
/// keep index order (the lower index first), NaN counts as the largest.
/// k out of [0, len] throws value_error.
template <expression X>
auto topk(X&& x, index_t k, index_t axis = -1) {
  static_assert(detail::sort_host_ok_v<X>, "sinter::cuda: compile this file as CUDA to use cuda arrays");
  using P = detail::result_policy_t<X>;
  using T = typename detail::expr_of_t<X>::value_type;
  using U = typename detail::sort_key<T>::U;
  constexpr std::size_t R = detail::expr_of_t<X>::rank;
  static_assert(R >= 1, "sinter::topk: needs an array of rank 1 or more");
  const std::size_t a = detail::checked_axis(axis, R, "sinter::topk");
  const index_t len = detail::as_operand(x).shape()[a];
  if (k < 0 || k > len)
    throw value_error("sinter::topk: k " + std::to_string(k) + " is out of range for an axis of length " +
                      std::to_string(len) + "; use 0 .. len");
  const P pol = detail::policy_value<P>(x);
  if constexpr (std::is_same_v<P, cuda>) {
#if SINTER_HAS_CUDA()
    return detail::cuda_sort::topk<T, R>(std::forward<X>(x), k, a, pol);
#endif
  } else {
    auto s = detail::stored_source(std::forward<X>(x));
    // Named copies, not a structured binding: clang does not capture bindings in lambdas.
    const auto* const p = s.node().ptr;
    const auto shape = s.node().shape;
    const auto strides = s.node().strides;
    extents<R> oshape = shape;
    oshape[a] = k;
    topk_result<T, R, P> res{array<T, R, P>(oshape, pol), array<std::int64_t, R, P>(oshape, pol)};
    const auto os = res.values.strides();
    detail::for_rows(detail::rows_of(shape, a), len, std::is_same_v<P, par>,
                     [&](index_t r, detail::sort_scratch& sc, bool) {
                       const T* row = p + detail::row_offset(r, shape, strides, a);
                       U* key = sc.get<U>(len);
                       detail::row_keys(row, strides[a], len, key);
                       std::int64_t* idx = sc.ids(len);
                       for (index_t i = 0; i < len; ++i) idx[i] = i;
                       // Descending by key, ascending by index: one order, no ties.
                       const auto before = [key](std::int64_t u, std::int64_t v) {
                         return key[u] != key[v] ? key[u] > key[v] : u < v;
                       };
                       if (k < len) std::nth_element(idx, idx + k, idx + len, before);
                       std::sort(idx, idx + k, before);
                       const index_t o = detail::row_offset(r, oshape, os, a);
                       for (index_t i = 0; i < k; ++i) {
                         res.values.data()[o + i * os[a]] = row[idx[i] * strides[a]];
                         res.indices.data()[o + i * os[a]] = idx[i];
                       }
                     });
    return res;
  }
}

}  // namespace sinter
