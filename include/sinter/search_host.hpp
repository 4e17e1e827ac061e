#pragma once
/// \file search_host.hpp
/// The host side that search.hpp, unique.hpp and histogram.hpp share:
/// reading an operand's flat positions in blocks (straight from memory, or
/// evaluated into a stack buffer: never whole), NumPy's NaN-last order and
/// its equality, flat host copies, and the host-or-par policy checks.
#include <algorithm>
#include <cstddef>
#include <type_traits>
#include <utility>
#include <vector>

#include "array.hpp"
#include "reduce.hpp"
#include "transfer.hpp"

namespace sinter::detail::search_host {

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
  whole_array_ops<concrete_policy_t<typename E::policy_type>>::check("sinter::unique, searchsorted or histogram");
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

/// A 1-D array of P holding v.
template <class T, class P, class U>
array<T, 1, P> array_of(const std::vector<U>& v) {
  array<T, 1, P> a(extents<1>{static_cast<index_t>(v.size())});
  std::copy(v.begin(), v.end(), a.data());
  return a;
}

}  // namespace sinter::detail::search_host
