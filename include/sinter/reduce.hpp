#pragma once
/// \file reduce.hpp
/// Reductions fused with their producers: sum, prod, min, max, mean, var,
/// std, any, all, count_nonzero, argmin, argmax, dot, norm — over the whole
/// array (a host value; on cuda this waits for the device) or along axes (an
/// array of the expression's policy, par if any operand is par, usable in
/// further expressions:
/// `x - sinter::mean(x, sinter::axis(1), sinter::keepdims)` normalises rows,
/// computing the means once).
///
/// The producer expression is never materialised: `sum(exp(a + b) * 2)` reads
/// a and b once and allocates nothing the size of the input.
///
/// This file: sum, prod, min, max, argmin, argmax, any, all, count_nonzero,
/// mean, var and std; the drivers are in reduce_run.hpp, dot and norm in
/// reduce_dot_norm.hpp (both included here).
#include <cstddef>
#include <type_traits>
#include <utility>

#include "expression.hpp"
#include "reduce/ops.hpp"
#include "reduce_dot_norm.hpp"
#include "reduce_run.hpp"

namespace sinter {

// One macro per simple reduction: full (a host value), along axes (an
// array), along axes keeping them (an array of the same rank).
#define SINTER_REDUCTION(fn, OP)                                                              \
  template <expression X>                                                                     \
  auto fn(X&& x) {                                                                            \
    using V = detail::value_of_t<X>;                                                          \
    using Op = detail::reduce_ops::OP;                                                        \
    const index_t n = detail::as_expr(x).size();                                              \
    return Op::template finish<V>(detail::reduce_all<Op>(std::forward<X>(x)), n);             \
  }                                                                                           \
  template <expression X, std::size_t N>                                                      \
  auto fn(X&& x, const axes_t<N>& ax) {                                                       \
    using V = detail::value_of_t<X>;                                                          \
    using Op = detail::reduce_ops::OP;                                                        \
    using Res = typename Op::template result_t<V>;                                            \
    return detail::reduce_along<Op, Res, false>(std::forward<X>(x), ax, detail::op_finish<Op, V>{}); \
  }                                                                                           \
  template <expression X, std::size_t N>                                                      \
  auto fn(X&& x, const axes_t<N>& ax, keepdims_t) {                                           \
    using V = detail::value_of_t<X>;                                                          \
    using Op = detail::reduce_ops::OP;                                                        \
    using Res = typename Op::template result_t<V>;                                            \
    return detail::reduce_along<Op, Res, true>(std::forward<X>(x), ax, detail::op_finish<Op, V>{}); \
  }

/// Sum of the elements (integers and bool in 64 bits; floats pairwise). Empty: 0.
SINTER_REDUCTION(sum, sum)
/// Product of the elements (integers wrap). Empty: 1.
SINTER_REDUCTION(prod, prod)
/// Smallest element; NaN propagates; empty throws value_error.
SINTER_REDUCTION(min, min)
/// Largest element; NaN propagates; empty throws value_error.
SINTER_REDUCTION(max, max)
/// Flat index of the first smallest element (the first NaN if any); empty throws.
SINTER_REDUCTION(argmin, argmin)
/// Flat index of the first largest element (the first NaN if any); empty throws.
SINTER_REDUCTION(argmax, argmax)
/// Whether any element is true (non-zero). Empty: false.
SINTER_REDUCTION(any, any)
/// (sinter::all, "every element is true", is the callable slice::all_t; below.)
SINTER_REDUCTION(all_elements, all)
/// How many elements are non-zero, as int64.
SINTER_REDUCTION(count_nonzero, count_nonzero)
/// Arithmetic mean (integers in double). Empty: NaN.
SINTER_REDUCTION(mean, mean)
#undef SINTER_REDUCTION

namespace detail {
/// sinter::all(x) / all(x, axes) / all(x, axes, keepdims): every element true.
template <class... Y>
struct reduction_entry<all_tag, Y...> {
  template <class... X>
  static auto call(X&&... x) {
    return all_elements(std::forward<X>(x)...);
  }
};

/// var (or std) from the moments: m2 / max(n - ddof, 0), as NumPy, so ddof
/// >= n gives inf, or NaN where m2 is 0 too (an empty lane, one element).
template <bool Sqrt, class A>
SINTER_HD A finish_variance(const reduce_ops::moments<A>& m, int ddof) {
  const A dof = m.count - static_cast<A>(ddof);
  const A v = m.m2 / (dof > A(0) ? dof : A(0));
  if constexpr (Sqrt) return math::impl::sqrt(v);
  else return v;
}

/// finish of var (Sqrt = false) and std (true) with a ddof, as a functor a device can run.
template <bool Sqrt, class V>
struct variance_finish {
  int ddof;
  template <class A>
  SINTER_HD floating_t<V> operator()(const reduce_ops::moments<A>& m, index_t) const {
    return static_cast<floating_t<V>>(finish_variance<Sqrt>(m, ddof));
  }
};
}  // namespace detail

/// Variance, numpy's var(x, ddof=0) by default; one pass (Chan/Welford).
/// Divides by max(n - ddof, 0): ddof >= n gives inf (NaN if the values are equal); empty: NaN.
template <expression X>
auto var(X&& x, int ddof = 0) {
  using V = detail::value_of_t<X>;
  using Op = detail::reduce_ops::variance<false>;
  return static_cast<floating_t<V>>(detail::finish_variance<false>(detail::reduce_all<Op>(std::forward<X>(x)), ddof));
}
/// Variance along axes.
template <expression X, std::size_t N>
auto var(X&& x, const axes_t<N>& ax, int ddof = 0) {
  using V = detail::value_of_t<X>;
  return detail::reduce_along<detail::reduce_ops::variance<false>, floating_t<V>, false>(
      std::forward<X>(x), ax, detail::variance_finish<false, V>{ddof});
}
/// Variance along axes, keeping them.
template <expression X, std::size_t N>
auto var(X&& x, const axes_t<N>& ax, keepdims_t, int ddof = 0) {
  using V = detail::value_of_t<X>;
  return detail::reduce_along<detail::reduce_ops::variance<false>, floating_t<V>, true>(
      std::forward<X>(x), ax, detail::variance_finish<false, V>{ddof});
}
/// Standard deviation, sqrt(var(x, ddof)).
template <expression X>
auto std(X&& x, int ddof = 0) {
  using V = detail::value_of_t<X>;
  using Op = detail::reduce_ops::variance<true>;
  return static_cast<floating_t<V>>(detail::finish_variance<true>(detail::reduce_all<Op>(std::forward<X>(x)), ddof));
}
/// Standard deviation along axes.
template <expression X, std::size_t N>
auto std(X&& x, const axes_t<N>& ax, int ddof = 0) {
  using V = detail::value_of_t<X>;
  return detail::reduce_along<detail::reduce_ops::variance<true>, floating_t<V>, false>(
      std::forward<X>(x), ax, detail::variance_finish<true, V>{ddof});
}
/// Standard deviation along axes, keeping them.
template <expression X, std::size_t N>
auto std(X&& x, const axes_t<N>& ax, keepdims_t, int ddof = 0) {
  using V = detail::value_of_t<X>;
  return detail::reduce_along<detail::reduce_ops::variance<true>, floating_t<V>, true>(
      std::forward<X>(x), ax, detail::variance_finish<true, V>{ddof});
}

}  // namespace sinter
