#pragma once
/// \file search.hpp
/// Searching a sorted array, as NumPy's searchsorted and digitize; and the
/// include point of unique.hpp (unique, unique_counts, unique_inverse,
/// unique_all). Lazy operands are read in blocks evaluated on the fly
/// (search_host.hpp), never whole. NaN sorts after every number, as in
/// NumPy. host and par here; cuda in files compiled by nvcc
/// (search_cuda.hpp): the values' or x's policy decides.
#include <algorithm>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "array.hpp"
#include "search_host.hpp"
#include "unique.hpp"
#if SINTER_HAS_CUDA()
#include "search_cuda.hpp"  // CUB: only in files compiled as CUDA
#endif

namespace sinter {

/// Which end of a run of equal values searchsorted returns: NumPy's side.
enum class side { left, right };

namespace detail::search_host {

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

}  // namespace sinter
