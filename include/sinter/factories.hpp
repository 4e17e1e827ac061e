#pragma once
/// \file factories.hpp
/// Creating arrays: empty, zeros, ones, full, their *_like forms, asarray
/// (nested initializer lists), and the lazy generators arange, linspace and
/// eye (no memory: values are computed where they are used, fused into the
/// pass that reads them). meshgrid and indices are in meshgrid.hpp.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <type_traits>

#include "array.hpp"

namespace sinter {

/// An uninitialised array: `auto a = sinter::empty<float>({3, 4});`
template <element T, class P = host, std::size_t R>
array<T, R, P> empty(const detail::extent_arg (&shape)[R], P pol = {}) {
  return array<T, R, P>(detail::extents_of(shape, "sinter::empty"), pol);
}
/// An uninitialised array of the given extents.
template <element T, class P = host, std::size_t R>
array<T, R, P> empty(const extents<R>& shape, P pol = {}) {
  return array<T, R, P>(shape, pol);
}
/// An array filled with `value`: `sinter::full<float>({1 << 20}, 0.5f, sinter::par{})`.
template <element T, class P = host, std::size_t R>
array<T, R, P> full(const detail::extent_arg (&shape)[R], T value, P pol = {}) {
  auto a = empty<T>(shape, pol);
  a = value;
  return a;
}
/// An array filled with `value`, of the given extents.
template <element T, class P = host, std::size_t R>
array<T, R, P> full(const extents<R>& shape, T value, P pol = {}) {
  auto a = empty<T>(shape, pol);
  a = value;
  return a;
}
/// An array of zeros.
template <element T, class P = host, std::size_t R>
array<T, R, P> zeros(const detail::extent_arg (&shape)[R], P pol = {}) {
  return full<T>(shape, T(0), pol);
}
/// An array of zeros, of the given extents.
template <element T, class P = host, std::size_t R>
array<T, R, P> zeros(const extents<R>& shape, P pol = {}) {
  return full<T>(shape, T(0), pol);
}
/// An array of ones.
template <element T, class P = host, std::size_t R>
array<T, R, P> ones(const detail::extent_arg (&shape)[R], P pol = {}) {
  return full<T>(shape, T(1), pol);
}
/// An array of ones, of the given extents.
template <element T, class P = host, std::size_t R>
array<T, R, P> ones(const extents<R>& shape, P pol = {}) {
  return full<T>(shape, T(1), pol);
}

namespace detail {
/// The policy of a new array shaped like x: x's own (host for policy-neutral generators).
template <class X>
using like_policy_t = std::conditional_t<std::is_same_v<typename expr_of_t<X>::policy_type, any_policy>, host,
                                         typename expr_of_t<X>::policy_type>;
/// The element type of a *_like result: U, or x's when U is void.
template <class U, class X>
using like_value_t = std::conditional_t<std::is_void_v<U>, typename expr_of_t<X>::value_type, U>;
/// x's policy value (arrays and views carry one, on cuda its device and stream).
template <class X>
like_policy_t<X> like_policy(const X& x) {
  if constexpr (requires { like_policy_t<X>(x.policy()); }) return like_policy_t<X>(x.policy());
  else return like_policy_t<X>{};
}
}  // namespace detail

/// An uninitialised array of x's shape and policy (numpy.empty_like); the
/// element type is x's unless given: `sinter::empty_like<double>(a)`.
template <class U = void, expression X>
auto empty_like(const X& x) {
  const auto& e = detail::as_operand(x);
  return array<detail::like_value_t<U, X>, std::remove_cvref_t<decltype(e)>::rank, detail::like_policy_t<X>>(
      e.shape(), detail::like_policy(x));
}
/// An array of x's shape and policy filled with `value` (numpy.full_like).
template <class U = void, expression X, class V>
  requires element<V>
auto full_like(const X& x, V value) {
  auto a = empty_like<U>(x);
  a = static_cast<detail::like_value_t<U, X>>(value);
  return a;
}
/// Zeros of x's shape and policy (numpy.zeros_like).
template <class U = void, expression X>
auto zeros_like(const X& x) {
  return full_like<U>(x, 0);
}
/// Ones of x's shape and policy (numpy.ones_like).
template <class U = void, expression X>
auto ones_like(const X& x) {
  return full_like<U>(x, 1);
}

namespace detail {
template <class T, std::size_t R>
struct nested_list {
  using type = std::initializer_list<typename nested_list<T, R - 1>::type>;
};
template <class T>
struct nested_list<T, 1> {
  using type = std::initializer_list<T>;
};

template <class T, std::size_t R, std::size_t D = 0>
void list_shape(const typename nested_list<T, R - D>::type& l, extents<R>& s) {
  s[D] = static_cast<index_t>(l.size());
  if constexpr (D + 1 < R) {
    if (l.size() > 0) list_shape<T, R, D + 1>(*l.begin(), s);
  }
}
template <class T, std::size_t R, std::size_t D = 0>
void list_copy(const typename nested_list<T, R - D>::type& l, const extents<R>& s, T*& out) {
  if (static_cast<index_t>(l.size()) != s[D])
    throw shape_error("sinter::asarray: ragged nested list (axis " + std::to_string(D) + " has " +
                      std::to_string(l.size()) + " elements, expected " + std::to_string(s[D]) + ")");
  if constexpr (D + 1 == R) {
    for (const T& v : l) *out++ = v;
  } else {
    for (const auto& sub : l) list_copy<T, R, D + 1>(sub, s, out);
  }
}
template <class T, std::size_t R>
array<T, R, host> from_list(const typename nested_list<T, R>::type& l) {
  extents<R> s{};
  list_shape<T, R>(l, s);
  array<T, R, host> a(s);
  T* out = a.data();
  list_copy<T, R>(l, s, out);
  return a;
}
}  // namespace detail

/// A host array from nested braces: `sinter::asarray<float>({{1, 2}, {3, 4}})` (rank 1 to 4).
template <element T>
array<T, 1> asarray(std::initializer_list<T> l) {
  return detail::from_list<T, 1>(l);
}
template <element T>
array<T, 2> asarray(typename detail::nested_list<T, 2>::type l) {
  return detail::from_list<T, 2>(l);
}
template <element T>
array<T, 3> asarray(typename detail::nested_list<T, 3>::type l) {
  return detail::from_list<T, 3>(l);
}
template <element T>
array<T, 4> asarray(typename detail::nested_list<T, 4>::type l) {
  return detail::from_list<T, 4>(l);
}
/// The same with the rank given, for lists whose innermost braces hold one
/// value and are therefore ambiguous between ranks in C++ (`float x = {1}` is
/// valid): `sinter::asarray<float, 2>({{1}, {2}})` is a 2x1 column.
template <element T, std::size_t R>
  requires(R >= 1 && R <= 4)
array<T, R> asarray(typename detail::nested_list<T, R>::type l) {
  return detail::from_list<T, R>(l);
}

namespace detail {
/// start + i * step, computed in double for floating types, exactly for integers.
template <class T>
struct arange_gen {
  using value_type = T;
  static constexpr const char* name = "arange";
  using acc = std::conditional_t<std::is_integral_v<T>, index_t, double>;
  acc start, step;
  SINTER_HD SINTER_FORCEINLINE T operator()(index_t i) const {
    return convert<T>(start + static_cast<acc>(i) * step);
  }
};
/// numpy.linspace: start + i * step, the last value exactly `stop` when endpoint.
template <class T>
struct linspace_gen {
  using value_type = T;
  static constexpr const char* name = "linspace";
  double start, step, stop;
  index_t last;  // index that yields `stop` exactly, or -1
  SINTER_HD SINTER_FORCEINLINE T operator()(index_t i) const {
    const double v = i == last ? stop : start + static_cast<double>(i) * step;
    if constexpr (std::is_integral_v<T>) return static_cast<T>(math::floor(v));
    else return convert<T>(v);
  }
};
/// eye's value at offset o = column - row - k: one on that diagonal.
template <class T>
struct eye_gen {
  using value_type = T;
  static constexpr const char* name = "eye";
  SINTER_HD SINTER_FORCEINLINE T operator()(index_t o) const { return o == 0 ? T(1) : T(0); }
};
}  // namespace detail

/// Lazy [start, stop) in steps of `step`, as numpy.arange; no memory is
/// allocated: `auto x = sinter::arange<float>(0, 1, 0.25);`
template <element T>
auto arange(double start, double stop, double step = 1) {
  if (step == 0) throw value_error("sinter::arange: step cannot be zero");
  const double len = std::ceil((stop - start) / step);
  const index_t n = len > 0 ? static_cast<index_t>(len) : 0;
  using G = detail::arange_gen<T>;
  G g{static_cast<typename G::acc>(start), static_cast<typename G::acc>(step)};
  return expr<detail::gen_leaf<G, 1>, detail::any_policy, 0>({g, 0, {n}, {1}});
}
/// Lazy 0, 1, ..., up to `stop` (excluded), as numpy.arange(stop); stop of
/// any integer type (an unsigned one beyond index_t throws value_error) or floating.
template <element T = index_t, class N>
  requires(std::is_arithmetic_v<N> && !std::is_same_v<N, bool>)
auto arange(N stop) {
  if constexpr (std::is_integral_v<N>) {
    if (!detail::fits_index(stop))
      detail::throw_bad_extent("sinter::arange", 0, std::to_string(static_cast<std::uint64_t>(stop)), false);
  }
  return arange<T>(0.0, static_cast<double>(stop), 1.0);
}

/// Lazy `num` evenly spaced values over [start, stop], as numpy.linspace
/// (num of any integer type, as extents).
template <element T = double>
auto linspace(double start, double stop, detail::extent_arg num_arg, bool endpoint = true) {
  const index_t num = num_arg.too_large ? -1 : num_arg.value;
  if (num < 0) throw value_error("sinter::linspace: number of samples must be non-negative and below 2^63");
  const index_t div = endpoint ? num - 1 : num;
  const double step = div > 0 ? (stop - start) / static_cast<double>(div) : 0.0;
  detail::linspace_gen<T> g{start, step, stop, endpoint && num > 1 ? num - 1 : -1};
  return expr<detail::gen_leaf<detail::linspace_gen<T>, 1>, detail::any_policy, 0>({g, 0, {num}, {1}});
}

/// Lazy n x m matrix with ones on diagonal k (0 the main one, positive
/// above), numpy.eye: `sinter::array<float, 2> i = sinter::eye<float>(3);`
/// No memory: a generator whose position is column - row - k.
template <element T = double>
auto eye(detail::extent_arg n, detail::extent_arg m = index_t{-1}, index_t k = 0) {
  const index_t rows = n.too_large ? -1 : n.value;
  const index_t cols = m.too_large ? -2 : m.value == -1 ? rows : m.value;
  if (rows < 0 || cols < 0) throw value_error("sinter::eye: the number of rows and columns must be non-negative");
  return expr<detail::gen_leaf<detail::eye_gen<T>, 2>, detail::any_policy, 0>({{}, -k, {{rows, cols}}, {{-1, 1}}});
}
/// Lazy n x n identity matrix (numpy.identity).
template <element T = double>
auto identity(detail::extent_arg n) {
  return eye<T>(n);
}

}  // namespace sinter
