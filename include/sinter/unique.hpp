#pragma once
/// \file unique.hpp
/// Sorted unique values, NumPy 2's unique_values (sorted), unique_counts,
/// unique_inverse and unique_all: the operand copied flat and sorted by the
/// sort engine's stable radix sort (sort/radix.hpp); NaN last, one NaN kept
/// (equal_nan=True). cuda in files compiled by nvcc (search_cuda.hpp).
#include <algorithm>
#include <cstddef>
#include <type_traits>
#include <utility>
#include <vector>

#include "array.hpp"
#include "search_host.hpp"
#include "sort/radix.hpp"
#if SINTER_HAS_CUDA()
#include "search_cuda.hpp"  // CUB: only in files compiled as CUDA
#endif

namespace sinter {

/// unique_counts' result: sorted unique values and how often each occurs.
template <class T, class P>
struct unique_counts_result {
  array<T, 1, P> values;      ///< sorted unique values
  array<index_t, 1, P> counts;  ///< occurrences of each
};
/// unique_inverse's result: sorted unique values and, in x's shape, the
/// index of each element's value among them (values[inverse] == x).
template <class T, std::size_t R, class P>
struct unique_inverse_result {
  array<T, 1, P> values;               ///< sorted unique values
  array<index_t, R, P> inverse_indices;  ///< x's shape: each element's index in values
};
/// unique_all's result: unique_inverse's, with each value's first flat
/// position in x and its count.
template <class T, std::size_t R, class P>
struct unique_all_result {
  array<T, 1, P> values;               ///< sorted unique values
  array<index_t, 1, P> indices;        ///< first flat position of each value in x
  array<index_t, R, P> inverse_indices;  ///< x's shape: each element's index in values
  array<index_t, 1, P> counts;         ///< occurrences of each
};

namespace detail::search_host {

/// Sorted unique values of x flattened (NaN last, one NaN; of equal
/// values, the first in x): the sort helper's stable radix sort.
template <class T>
std::vector<T> sorted_unique(std::vector<T> v, bool parallel) {
  sort_keys(v.data(), static_cast<index_t>(v.size()), parallel);
  v.erase(std::unique(v.begin(), v.end(), [](const T& a, const T& b) { return nan_equal(a, b); }), v.end());
  return v;
}

/// unique_all's work: values, first positions, inverse (flat), counts,
/// from the sort helper's stable radix argsort of NumPy-ordered keys.
template <class T>
void unique_full(const std::vector<T>& v, std::vector<T>& vals, std::vector<index_t>& first,
                 std::vector<index_t>& inv, std::vector<index_t>& counts, bool parallel) {
  using U = typename sort_key<T>::U;
  const std::size_t n = v.size();
  std::vector<U> keys(n), kt(n);
  std::vector<std::int64_t> order(n), it(n);
  for (std::size_t i = 0; i < n; ++i) keys[i] = sort_key<T>::of(v[i]);
  argsort_keys(keys.data(), static_cast<index_t>(n), order.data(), kt.data(), it.data(), parallel);
  inv.assign(v.size(), 0);
  for (std::size_t k = 0; k < order.size(); ++k) {
    const T x = v[static_cast<std::size_t>(order[k])];
    if (k == 0 || !nan_equal(vals.back(), x)) {
      vals.push_back(x);
      first.push_back(order[k]);  // stable: the first position of the run
      counts.push_back(0);
    }
    ++counts.back();
    inv[static_cast<std::size_t>(order[k])] = static_cast<index_t>(vals.size() - 1);
  }
}

/// unique_full of a host or par operand, with the inverse in x's shape:
/// what unique_inverse and unique_all build their results from.
template <class T, std::size_t R, class P>
struct unique_host_parts {
  std::vector<T> values;
  std::vector<index_t> first, counts;
  array<index_t, R, P> inverse;
};
template <class T, std::size_t R, class P, class X>
unique_host_parts<T, R, P> unique_host(X&& x) {
  auto&& e = as_operand(std::forward<X>(x));
  std::vector<T> vals;
  std::vector<index_t> first, inv, counts;
  unique_full(flat_copy<T>(e), vals, first, inv, counts, std::is_same_v<P, par>);
  array<index_t, R, P> inverse(e.shape());
  std::copy(inv.begin(), inv.end(), inverse.data());
  return {std::move(vals), std::move(first), std::move(counts), std::move(inverse)};
}

#if SINTER_HAS_CUDA()
/// The unique family on cuda (search_cuda.hpp): its parts, and the inverse
/// in x's shape when asked for (else empty).
template <class X>
auto unique_on_cuda(X&& x, bool want_inverse, bool want_first) {
  using T = value_of_t<X>;
  constexpr std::size_t R = expr_of_t<X>::rank;
  const cuda pol = reduction_policy<cuda>(own_policy<cuda>(x), as_operand(x));
  array<T, R, cuda> t(as_operand(x).shape(), pol);
  if (t.size() != 0) t = std::forward<X>(x);
  array<index_t, R, cuda> inv(want_inverse ? t.shape() : extents<R>{}, pol);
  auto parts = search_cuda::unique(pol, t, want_inverse ? inv.data() : nullptr, want_first);
  return std::pair{std::move(parts), std::move(inv)};
}
#endif
/// The cuda refusal outside nvcc.
template <class X>
inline constexpr bool unique_ok_v = !std::is_same_v<host_policy_t<X>, cuda> || compiled_as_cuda_v<X>;

/// unique_inverse (All false) and unique_all (All true): the same parts on
/// cuda or host, the result built from those each one returns.
template <bool All, class X>
auto unique_with_inverse(X&& x) {
  using P = host_policy_t<X>;
  using T = value_of_t<X>;
  constexpr std::size_t R = expr_of_t<X>::rank;
  static_assert(unique_ok_v<X>, "sinter::cuda: compile this file as CUDA to use cuda arrays");
  if constexpr (std::is_same_v<P, cuda>) {
#if SINTER_HAS_CUDA()
    auto r = unique_on_cuda(std::forward<X>(x), true, All);
    if constexpr (All)
      return unique_all_result<T, R, P>{std::move(r.first.values), std::move(r.first.first), std::move(r.second),
                                        std::move(r.first.counts)};
    else
      return unique_inverse_result<T, R, P>{std::move(r.first.values), std::move(r.second)};
#endif
  } else {
    auto r = unique_host<T, R, P>(std::forward<X>(x));
    if constexpr (All)
      return unique_all_result<T, R, P>{array_of<T, P>(r.values), array_of<index_t, P>(r.first), std::move(r.inverse),
                                        array_of<index_t, P>(r.counts)};
    else
      return unique_inverse_result<T, R, P>{array_of<T, P>(r.values), std::move(r.inverse)};
  }
}

}  // namespace detail::search_host

/// Sorted unique values of x, flattened (numpy.unique / unique_values, but
/// sorted): a 1-D array of x's type and policy. NaN last, one NaN kept;
/// -0.0 and 0.0 are one value, the one that comes first in x. Sorted by
/// the sort engine's stable radix sort (sort/radix.hpp; par: its parallel form).
template <expression X>
auto unique(X&& x) {
  using P = detail::search_host::host_policy_t<X>;
  using T = detail::value_of_t<X>;
  static_assert(detail::search_host::unique_ok_v<X>, "sinter::cuda: compile this file as CUDA to use cuda arrays");
  if constexpr (std::is_same_v<P, cuda>) {
#if SINTER_HAS_CUDA()
    return std::move(detail::search_host::unique_on_cuda(std::forward<X>(x), false, false).first.values);
#endif
  } else {
    return detail::search_host::array_of<T, P>(
        detail::search_host::sorted_unique(detail::search_host::flat_copy<T>(detail::as_operand(std::forward<X>(x))),
                                           std::is_same_v<P, par>));
  }
}

/// Sorted unique values of x and their counts (numpy.unique_counts).
template <expression X>
auto unique_counts(X&& x) {
  using P = detail::search_host::host_policy_t<X>;
  using T = detail::value_of_t<X>;
  static_assert(detail::search_host::unique_ok_v<X>, "sinter::cuda: compile this file as CUDA to use cuda arrays");
  if constexpr (std::is_same_v<P, cuda>) {
#if SINTER_HAS_CUDA()
    auto r = detail::search_host::unique_on_cuda(std::forward<X>(x), false, false);
    return unique_counts_result<T, P>{std::move(r.first.values), std::move(r.first.counts)};
#endif
  } else {
    auto v = detail::search_host::flat_copy<T>(detail::as_operand(std::forward<X>(x)));
    detail::sort_keys(v.data(), static_cast<index_t>(v.size()), std::is_same_v<P, par>);
    std::vector<T> vals;
    std::vector<index_t> counts;
    for (std::size_t k = 0; k < v.size(); ++k) {
      if (k == 0 || !detail::search_host::nan_equal(vals.back(), v[k])) {
        vals.push_back(v[k]);
        counts.push_back(0);
      }
      ++counts.back();
    }
    return unique_counts_result<T, P>{detail::search_host::array_of<T, P>(vals),
                                      detail::search_host::array_of<index_t, P>(counts)};
  }
}

/// Sorted unique values of x and the inverse indices in x's shape (numpy.unique_inverse).
template <expression X>
auto unique_inverse(X&& x) {
  return detail::search_host::unique_with_inverse<false>(std::forward<X>(x));
}

/// unique_inverse plus each value's first flat position and count (numpy.unique_all).
template <expression X>
auto unique_all(X&& x) {
  return detail::search_host::unique_with_inverse<true>(std::forward<X>(x));
}

}  // namespace sinter
