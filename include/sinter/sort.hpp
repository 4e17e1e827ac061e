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
#include "policy/cuda.hpp"
#include "policy/par.hpp"
#include "sort/radix.hpp"
#include "sort_cuda.hpp"
#include "sort_rows.hpp"
#include "view.hpp"

namespace sinter {

/// topk's result: the k largest values along the axis, largest first, and
/// their int64 indices (`auto [v, i] = sinter::topk(x, 3);`).
template <class T, std::size_t R, class P>
struct topk_result {
  /// The values, the axis cut to k.
  array<T, R, P> values;
  /// Their indices along the axis.
  array<std::int64_t, R, P> indices;
};

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
  } else if constexpr (detail::sorts_rows_v<detail::whole_array_ops<P>>) {
    detail::whole_array_ops<P>::sort_rows(v, a);  // the distributed policy: each rank's rows
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
  if constexpr (detail::sorts_rows_v<detail::whole_array_ops<P>>) {
    detail::whole_array_ops<P>::check_sort(detail::checked_axis(axis, R, "sinter::sort"));  // before the copy
    array<T, R, P> out(detail::as_operand(x).shape(), pol);
    out = detail::as_expr(std::forward<X>(x));  // a pass of the policy, not copy_of's row copy
    sort_inplace(out, axis);
    return out;
  } else {
    array<T, R, P> out = detail::copy_of<T, R>(std::forward<X>(x), pol);
    sort_inplace(out, axis);
    return out;
  }
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
    detail::whole_array_ops<P>::check("sinter::argsort");
    return detail::on_stored_layout(std::forward<X>(x), [&](const auto* p, const auto& shape, const auto& strides) {
      array<std::int64_t, R, P> out(shape, pol);
      detail::argsort_layout(p, shape, strides, a, out.data(), std::is_same_v<P, par>);
      return out;
    });
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
    detail::whole_array_ops<P>::check("sinter::partition");
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
    detail::whole_array_ops<P>::check("sinter::argpartition");
    const P pol = detail::policy_value<P>(x);
    return detail::on_stored_layout(std::forward<X>(x), [&](const auto* p, const auto& shape, const auto& strides) {
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
    });
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
    return detail::cuda_sort::topk<topk_result<T, R, P>, T, R>(std::forward<X>(x), k, a, pol);
#endif
  } else {
    detail::whole_array_ops<P>::check("sinter::topk");
    return detail::on_stored_layout(std::forward<X>(x), [&](const auto* p, const auto& shape, const auto& strides) {
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
    });
  }
}

}  // namespace sinter
