#pragma once
/// \file search.hpp
/// Searching a sorted array and sorted unique values, as NumPy's
/// searchsorted, digitize and unique (NumPy 2's unique_values,
/// unique_counts, unique_inverse and unique_all). Lazy operands are read
/// in blocks evaluated on the fly (search_blocks below), never whole.
/// NaN sorts after every number, as in NumPy; unique keeps one NaN
/// (NumPy 2's equal_nan=True). host and par here; cuda in files compiled
/// by nvcc (search_cuda.hpp): the values' or x's policy decides.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "array.hpp"
#include "reduce.hpp"
#include "sort/radix.hpp"
#include "transfer.hpp"
#if SINTER_HAS_CUDA()
#include "search_cuda.hpp"  // CUB: only in files compiled as CUDA
#endif

namespace sinter {

/// Which end of a run of equal values searchsorted returns: NumPy's side.
enum class side { left, right };

namespace detail::search_host {

/// Elements per block of a lazy operand evaluated into a stack buffer.
inline constexpr index_t block_elems = 4096;

/// Reads an expression's flat positions (row-major) in blocks: straight
/// from memory when it is one contiguous leaf, else evaluated into the
/// caller's buffer.
template <class E>
struct block_reader {
  using V = typename E::value_type;
  using B = std::remove_cvref_t<decltype(std::declval<const E&>().node().bind(std::declval<const E&>().shape()))>;
  B bound;
  extents<E::rank> shape;
  const V* direct = nullptr;

  explicit block_reader(const E& e) : bound(e.node().bind(e.shape())), shape(e.shape()) {
    if constexpr (is_memory_leaf<B>::value)
      if (bound.unit()) direct = bound.ptr;
  }
  /// Positions [b, b + m) (m <= block_elems): a pointer to them.
  const V* read(index_t b, index_t m, V* buf) const {
    if (direct) return direct + b;
    reduce_host::eval_range<V>(bound, shape, b, b + m, buf);
    return buf;
  }
};

/// f(p, b, m) for the blocks [b, b + m) of [0, n), p their values; par
/// runs blocks on the pool when n is large (f must then be thread safe).
template <bool Parallel, class E, class F>
void search_blocks(const E& e, F&& f) {
  using V = typename E::value_type;
  const block_reader<E> r(e);
  const index_t n = e.size();
  const index_t blocks = (n + block_elems - 1) / block_elems;
  auto one = [&](index_t k) {
    V buf[block_elems];
    const index_t b = k * block_elems, m = std::min(block_elems, n - b);
    f(r.read(b, m, buf), b, m);
  };
  if (Parallel && n >= 2 * par_grain) default_pool().parallel_for(blocks, [&](std::int64_t k) { one(k); });
  else
    for (index_t k = 0; k < blocks; ++k) one(k);
}

/// NumPy's sort order: NaN after every number (and NaNs equal).
template <class T>
SINTER_FORCEINLINE bool nan_last_less(const T& a, const T& b) {
  if constexpr (!std::is_integral_v<T>) return a < b || (b != b && a == a);
  else return a < b;
}
/// nan_last_less as a function object (inlined where a function pointer was not).
struct nan_last_less_fn {
  template <class T>
  SINTER_FORCEINLINE bool operator()(const T& a, const T& b) const {
    return nan_last_less(a, b);
  }
};
/// Equality under that order: NaN equals NaN.
template <class T>
SINTER_FORCEINLINE bool nan_equal(const T& a, const T& b) {
  if constexpr (!std::is_integral_v<T>) return a == b || (a != a && b != b);
  else return a == b;
}

/// The operand flattened into a host vector of T, in row-major order.
template <class T, class E>
std::vector<T> flat_copy(const E& e) {
  std::vector<T> v(static_cast<std::size_t>(e.size()));
  search_blocks<false>(e, [&](const auto* p, index_t b, index_t m) {
    for (index_t i = 0; i < m; ++i) v[static_cast<std::size_t>(b + i)] = static_cast<T>(p[i]);
  });
  return v;
}

/// flat_copy of an operand of any policy (a cuda one copied to the host first).
template <class T, class E>
std::vector<T> any_flat_copy(E&& e) {
  if constexpr (std::is_same_v<concrete_policy_t<typename expr_of_t<E>::policy_type>, cuda>)
    return flat_copy<T>(as_operand(sinter::to<host>(std::forward<E>(e))));
  else return flat_copy<T>(as_operand(std::forward<E>(e)));
}

/// The policy of X's expression, which must be host or par.
template <class X>
using host_policy_t = concrete_policy_t<typename expr_of_t<X>::policy_type>;
template <class P>
inline constexpr bool host_side_v = std::is_same_v<P, host> || std::is_same_v<P, par>;

/// side given as NumPy's string.
inline side side_from(std::string_view s) {
  if (s == "left") return side::left;
  if (s == "right") return side::right;
  throw value_error("sinter: searchsorted: side must be \"left\" or \"right\", not \"" + std::string(s) +
                    "\"; use sinter::side::left or sinter::side::right");
}

/// searchsorted of values v into the host vector s (NaN-last order).
template <class C>
SINTER_FORCEINLINE index_t search_one(const std::vector<C>& s, C v, side sd) {
  const auto it = sd == side::left ? std::lower_bound(s.begin(), s.end(), v, nan_last_less_fn{})
                                   : std::upper_bound(s.begin(), s.end(), v, nan_last_less_fn{});
  return static_cast<index_t>(it - s.begin());
}

/// Positions of each value in s, into an index array of the values' shape.
template <class C, class X>
auto search_into(const std::vector<C>& s, X&& values, side sd, bool descending_from_end = false) {
  using P = host_policy_t<X>;
  static_assert(host_side_v<P>, "sinter::searchsorted: host or par operands (copy cuda ones with sinter::to<host>)");
  auto&& e = as_operand(std::forward<X>(values));
  using E = std::remove_cvref_t<decltype(e)>;
  array<index_t, E::rank, P> out(e.shape());
  index_t* o = out.data();
  const index_t len = static_cast<index_t>(s.size());
  search_blocks<std::is_same_v<P, par>>(e, [&](const auto* p, index_t b, index_t m) {
    for (index_t i = 0; i < m; ++i) {
      const index_t k = search_one(s, static_cast<C>(p[i]), sd);
      o[b + i] = descending_from_end ? len - k : k;
    }
  });
  return out;
}

}  // namespace detail::search_host

/// Indices where `values` would be inserted into the 1-D ascending `sorted`
/// to keep it sorted (numpy.searchsorted): side::left gives the first such
/// place, side::right the last. NaN sorts last. Result: int64 indices in the
/// shape of `values` (which may be lazy), on the values' policy.
template <expression S, expression X>
auto searchsorted(S&& sorted, X&& values, side sd = side::left) {
  static_assert(detail::expr_of_t<S>::rank == 1, "sinter::searchsorted: `sorted` must be 1-D");
  using C = promote_t<detail::value_of_t<S>, detail::value_of_t<X>>;
  if constexpr (std::is_same_v<detail::search_host::host_policy_t<X>, cuda>) {  // search_cuda.hpp
#if SINTER_HAS_CUDA()
    auto&& e = detail::as_operand(values);
    const cuda pol = detail::reduction_policy<cuda>(detail::own_policy<cuda>(values), e);
    if constexpr (std::is_same_v<detail::search_host::host_policy_t<S>, cuda>) {
      array<C, 1, cuda> s(detail::as_operand(sorted).shape(), pol);
      if (s.size() != 0) s = sinter::cast<C>(std::forward<S>(sorted));
      return detail::search_cuda::search(pol, s, e, sd == side::right, false);
    } else {
      const auto s =
          detail::search_cuda::device_array(pol, detail::search_host::flat_copy<C>(detail::as_operand(sorted)));
      return detail::search_cuda::search(pol, s, e, sd == side::right, false);
    }
#else
    static_assert(detail::compiled_as_cuda_v<X>, "sinter::cuda: compile this file as CUDA to use cuda arrays");
#endif
  } else {
    static_assert(detail::search_host::host_side_v<detail::search_host::host_policy_t<S>>,
                  "sinter::searchsorted: host or par `sorted` for host or par values (copy it with sinter::to<host>)");
    const auto s = detail::search_host::flat_copy<C>(detail::as_operand(sorted));
    return detail::search_host::search_into(s, std::forward<X>(values), sd);
  }
}
/// searchsorted with side as NumPy's string, "left" or "right" (else value_error).
template <expression S, expression X>
auto searchsorted(S&& sorted, X&& values, std::string_view sd) {
  return searchsorted(std::forward<S>(sorted), std::forward<X>(values), detail::search_host::side_from(sd));
}

/// Index of the bin of each value of x (numpy.digitize): for increasing
/// bins, i with bins[i-1] <= x < bins[i] (right: bins[i-1] < x <= bins[i]);
/// decreasing bins likewise mirrored. bins must be 1-D and monotonic, else
/// value_error (NaN counts as above every number: NumPy's order). int64
/// indices in x's shape; NaN goes past the last bin.
template <expression X, expression B>
auto digitize(X&& x, B&& bins, bool right = false) {
  static_assert(detail::expr_of_t<B>::rank == 1, "sinter::digitize: bins must be 1-D");
  using C = promote_t<detail::value_of_t<X>, detail::value_of_t<B>>;
  auto s = detail::search_host::any_flat_copy<C>(std::forward<B>(bins));
  bool inc = true, dec = true;
  for (std::size_t i = 1; i < s.size(); ++i) {
    inc = inc && !detail::search_host::nan_last_less(s[i], s[i - 1]);
    dec = dec && !detail::search_host::nan_last_less(s[i - 1], s[i]);
  }
  if (!inc && !dec)
    throw value_error("sinter: digitize: bins must be monotonically increasing or decreasing; sort them first");
  const side sd = right ? side::left : side::right;
  if constexpr (std::is_same_v<detail::search_host::host_policy_t<X>, cuda>) {  // search_cuda.hpp
#if SINTER_HAS_CUDA()
    auto&& e = detail::as_operand(x);
    const cuda pol = detail::reduction_policy<cuda>(detail::own_policy<cuda>(x), e);
    if (!inc) std::reverse(s.begin(), s.end());
    return detail::search_cuda::search(pol, detail::search_cuda::device_array(pol, s), e, sd == side::right, !inc);
#else
    static_assert(detail::compiled_as_cuda_v<X>, "sinter::cuda: compile this file as CUDA to use cuda arrays");
#endif
  } else {
    if (inc) return detail::search_host::search_into(s, std::forward<X>(x), sd);
    std::reverse(s.begin(), s.end());
    return detail::search_host::search_into(s, std::forward<X>(x), sd, true);
  }
}

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

/// A 1-D array of P holding v.
template <class T, class P, class U>
array<T, 1, P> array_of(const std::vector<U>& v) {
  array<T, 1, P> a(extents<1>{static_cast<index_t>(v.size())});
  std::copy(v.begin(), v.end(), a.data());
  return a;
}

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
  using P = detail::search_host::host_policy_t<X>;
  using T = detail::value_of_t<X>;
  constexpr std::size_t R = detail::expr_of_t<X>::rank;
  static_assert(detail::search_host::unique_ok_v<X>, "sinter::cuda: compile this file as CUDA to use cuda arrays");
  if constexpr (std::is_same_v<P, cuda>) {
#if SINTER_HAS_CUDA()
    auto r = detail::search_host::unique_on_cuda(std::forward<X>(x), true, false);
    return unique_inverse_result<T, R, P>{std::move(r.first.values), std::move(r.second)};
#endif
  } else {
    auto&& e = detail::as_operand(std::forward<X>(x));
    std::vector<T> vals;
    std::vector<index_t> first, inv, counts;
    detail::search_host::unique_full(detail::search_host::flat_copy<T>(e), vals, first, inv, counts,
                                     std::is_same_v<P, par>);
    array<index_t, R, P> inverse(e.shape());
    std::copy(inv.begin(), inv.end(), inverse.data());
    return unique_inverse_result<T, R, P>{detail::search_host::array_of<T, P>(vals), std::move(inverse)};
  }
}

/// unique_inverse plus each value's first flat position and count (numpy.unique_all).
template <expression X>
auto unique_all(X&& x) {
  using P = detail::search_host::host_policy_t<X>;
  using T = detail::value_of_t<X>;
  constexpr std::size_t R = detail::expr_of_t<X>::rank;
  static_assert(detail::search_host::unique_ok_v<X>, "sinter::cuda: compile this file as CUDA to use cuda arrays");
  if constexpr (std::is_same_v<P, cuda>) {
#if SINTER_HAS_CUDA()
    auto r = detail::search_host::unique_on_cuda(std::forward<X>(x), true, true);
    return unique_all_result<T, R, P>{std::move(r.first.values), std::move(r.first.first), std::move(r.second),
                                      std::move(r.first.counts)};
#endif
  } else {
    auto&& e = detail::as_operand(std::forward<X>(x));
    std::vector<T> vals;
    std::vector<index_t> first, inv, counts;
    detail::search_host::unique_full(detail::search_host::flat_copy<T>(e), vals, first, inv, counts,
                                     std::is_same_v<P, par>);
    array<index_t, R, P> inverse(e.shape());
    std::copy(inv.begin(), inv.end(), inverse.data());
    return unique_all_result<T, R, P>{detail::search_host::array_of<T, P>(vals),
                                      detail::search_host::array_of<index_t, P>(first), std::move(inverse),
                                      detail::search_host::array_of<index_t, P>(counts)};
  }
}

}  // namespace sinter
