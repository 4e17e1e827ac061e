#pragma once
/// \file reduce_dot_norm.hpp
/// dot (1-D operands, products formed in the sum's accumulator) and norm
/// (ord 1, 2 and INFINITY, full or along axes): one fused pass each, on
/// the reduction drivers of reduce_run.hpp. Included by reduce.hpp.
#include <cmath>
#include <cstddef>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>

#include "expression.hpp"
#include "functions.hpp"
#include "reduce/ops.hpp"
#include "reduce_run.hpp"

namespace sinter {

namespace detail {
/// dot's shape check: shape_error naming both shapes when the lengths differ.
inline void check_dot_lengths(const extents<1>& a, const extents<1>& b) {
  if (a[0] != b[0])
    throw shape_error("dot: shapes " + shape_string(a) + " and " + shape_string(b) + " not aligned: " +
                      std::to_string(a[0]) + " != " + std::to_string(b[0]) + "; both operands need one length");
}
}  // namespace detail

/// Dot product of two 1-D operands, one fused pass: the sum of a[i] * b[i]
/// with each product formed in the sum's accumulator of promote_t<A, B>
/// (integers and bool in 64 bits, so uint8 or bool products do not wrap;
/// 16-bit floats in float). Result type: that of sum(a * b) (int64 / uint64
/// for integers and bool, the float type itself for floats, 16-bit floats
/// rounded once at the end). Operands of different lengths throw shape_error.
template <expression A, expression B>
auto dot(A&& a, B&& b) {
  static_assert(detail::expr_of_t<A>::rank == 1 && detail::expr_of_t<B>::rank == 1,
                "sinter::dot: both operands must be 1-D (use sum(a * b, axis(...)) otherwise)");
  // Lengths must match, as NumPy's "not aligned": a length of 1 does not broadcast.
  detail::check_dot_lengths(detail::as_operand(a).shape(), detail::as_operand(b).shape());
  using R = promote_t<detail::value_of_t<A>, detail::value_of_t<B>>;
  using Op = detail::reduce_ops::sum;
  using Acc = typename Op::template acc_t<R>;
  using Res = typename Op::template result_t<R>;
  using E = decltype(cast<Acc>(std::declval<A>()) * cast<Acc>(std::declval<B>()));
  using P = detail::concrete_policy_t<typename detail::expr_of_t<E>::policy_type>;
  // The first operand's own policy value (device and stream), else the
  // second's; read before the operands are moved into the expression.
  std::optional<P> own = detail::own_policy<P>(a);
  if (!own) own = detail::own_policy<P>(b);
  return static_cast<Res>(
      detail::reduce_all_on<Op>(own, "dot", cast<Acc>(std::forward<A>(a)) * cast<Acc>(std::forward<B>(b))));
}

namespace detail {

/// Checks norm's ord: 1, 2 or +INFINITY.
inline void check_norm_ord(double ord) {
  if (!(ord == 1 || ord == 2 || (std::isinf(ord) && ord > 0)))
    throw value_error("sinter::norm: ord must be 1, 2 or INFINITY, not " + std::to_string(ord));
}

/// finish of an axis norm, as a functor a device can run: the accumulated
/// sum of |x| or max |x| (Sqrt = false), or the square root of the sum of
/// squares (Sqrt = true), rounded once to the result type F.
template <class F, bool Sqrt>
struct norm_finish {
  template <class A>
  SINTER_HD F operator()(const A& a, index_t) const {
    if constexpr (Sqrt) return static_cast<F>(math::impl::sqrt(a));
    else return static_cast<F>(a);
  }
};

/// norm along axes: ord 2 sums x^2, ord 1 sums |x|, ord INFINITY takes max |x|,
/// all in compute_t<F> (float for 16-bit floats, double for integers and bool).
template <bool Keep, std::size_t N, class X>
auto norm_along(X&& x, double ord, const axes_t<N>& ax) {
  using F = floating_t<value_of_t<X>>;
  using C = compute_t<F>;
  using P = concrete_policy_t<typename expr_of_t<X>::policy_type>;
  check_norm_ord(ord);
  const std::optional<P> own = own_policy<P>(x);
  if (ord == 2)
    return reduce_along_on<reduce_ops::sum, F, Keep>(own, "norm", sinter::square(sinter::cast<C>(std::forward<X>(x))),
                                                     ax, norm_finish<F, true>{});
  if (ord == 1)
    return reduce_along_on<reduce_ops::sum, F, Keep>(own, "norm", sinter::abs(sinter::cast<C>(std::forward<X>(x))), ax,
                                                     norm_finish<F, false>{});
  return reduce_along_on<reduce_ops::max, F, Keep>(own, "norm", sinter::abs(sinter::cast<C>(std::forward<X>(x))), ax,
                                                   norm_finish<F, false>{});
}

}  // namespace detail

/// Vector norm of all elements, as numpy.linalg.norm of a 1-D array: ord 2
/// (default, Euclidean: sqrt of the sum of squares), 1 (sum of |x|) or
/// INFINITY (max |x|). One fused pass, a host value. Result type floating_t
/// (float for float, double for integers and bool, half for half), computed
/// in compute_t of it (16-bit floats in float) and rounded once. NaN
/// propagates. ord INFINITY of an empty array throws value_error, as numpy;
/// ord 1 and 2 of it are 0.
template <expression X>
auto norm(X&& x, double ord = 2) {
  using F = floating_t<detail::value_of_t<X>>;
  using C = compute_t<F>;
  using P = detail::concrete_policy_t<typename detail::expr_of_t<X>::policy_type>;
  detail::check_norm_ord(ord);
  const std::optional<P> own = detail::own_policy<P>(x);
  using detail::reduce_all_on;
  namespace ro = detail::reduce_ops;
  if (ord == 2)
    return static_cast<F>(
        std::sqrt(reduce_all_on<ro::sum>(own, "norm", sinter::square(sinter::cast<C>(std::forward<X>(x))))));
  if (ord == 1)
    return static_cast<F>(reduce_all_on<ro::sum>(own, "norm", sinter::abs(sinter::cast<C>(std::forward<X>(x)))));
  return static_cast<F>(reduce_all_on<ro::max>(own, "norm", sinter::abs(sinter::cast<C>(std::forward<X>(x)))));
}

/// Vector norm along axes, as numpy.linalg.norm(x, ord, axis): ord 2
/// (Euclidean), 1 (sum of |x|) or INFINITY (max |x|) of each lane; an array
/// of the operand's policy, result type as the full norm. One fused pass
/// over the input: the square root of ord 2 is taken in the reduction's
/// finish step as each output is written, so there is no second pass over
/// the result. ord INFINITY along an empty axis throws value_error (when
/// there are outputs), as numpy.
template <expression X, std::size_t N>
auto norm(X&& x, double ord, const axes_t<N>& ax) {
  return detail::norm_along<false>(std::forward<X>(x), ord, ax);
}
/// Vector norm along axes, keeping them as extent 1 (for broadcasting:
/// `x / sinter::norm(x, 2, sinter::axis(1), sinter::keepdims)` normalises rows).
template <expression X, std::size_t N>
auto norm(X&& x, double ord, const axes_t<N>& ax, keepdims_t) {
  return detail::norm_along<true>(std::forward<X>(x), ord, ax);
}
/// Euclidean (ord 2) norm along axes.
template <expression X, std::size_t N>
auto norm(X&& x, const axes_t<N>& ax) {
  return detail::norm_along<false>(std::forward<X>(x), 2.0, ax);
}
/// Euclidean (ord 2) norm along axes, keeping them as extent 1.
template <expression X, std::size_t N>
auto norm(X&& x, const axes_t<N>& ax, keepdims_t) {
  return detail::norm_along<true>(std::forward<X>(x), 2.0, ax);
}

}  // namespace sinter
