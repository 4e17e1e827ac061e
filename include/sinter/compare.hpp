#pragma once
/// \file compare.hpp
/// Comparison helpers, as numpy's: isclose (lazy, one fused op), allclose
/// (a reduction of it: nothing the size of the operands is allocated) and
/// array_equal.
#include <string>
#include <type_traits>
#include <utility>

#include "array.hpp"
#include "core/dtype.hpp"
#include "core/error.hpp"
#include "core/math/bits.hpp"
#include "expression.hpp"
#include "functions.hpp"
#include "reduce.hpp"

namespace sinter {
namespace detail {

/// numpy.isclose for one pair: |a - b| <= atol + rtol * |b| with b finite,
/// or a == b (equal infinities), or both NaN when equal_nan. Computed in the
/// floating type of the operands (integers in double; half in float).
struct isclose_op {
  static constexpr const char* name = "isclose";
  double rtol, atol;
  bool equal_nan;
  template <class A, class B>
  SINTER_HD SINTER_FORCEINLINE bool operator()(A a, B b) const {
    using C = compute_t<floating_t<promote_t<A, B>>>;
    const C x = static_cast<C>(a), y = static_cast<C>(b);
    const C ay = y < C(0) ? -y : y, d = x - y;
    const C ad = d < C(0) ? -d : d;
    const bool near = (ad <= static_cast<C>(atol) + static_cast<C>(rtol) * ay) &
                      (ay <= math::limits<C>::max);
    return near | (x == y) | (equal_nan & (x != x) & (y != y));
  }
};

/// Throws value_error for a negative or NaN tolerance (numpy accepts them
/// silently; they make every comparison false, never what was meant).
inline void check_tolerances(double rtol, double atol, const char* who) {
  if (!(rtol >= 0) || !(atol >= 0))
    throw value_error(std::string(who) + ": rtol and atol must be non-negative, got rtol " + std::to_string(rtol) +
                      " and atol " + std::to_string(atol));
}

}  // namespace detail

/// Lazy element-wise "a is close to b" (bool), numpy.isclose with its
/// asymmetric test |a - b| <= atol + rtol * |b|; broadcasts as arithmetic does.
template <operand A, operand B>
  requires detail::any_expression<A, B>
auto isclose(A&& a, B&& b, double rtol = 1e-5, double atol = 1e-8, bool equal_nan = false) {
  detail::check_tolerances(rtol, atol, "sinter::isclose");
  return detail::make_map("isclose", detail::isclose_op{rtol, atol, equal_nan}, std::forward<A>(a),
                          std::forward<B>(b));
}

/// Whether every element of a is close to b's (numpy.allclose): a fused
/// reduction of isclose. True when the broadcast shape is empty.
template <operand A, operand B>
  requires detail::any_expression<A, B>
bool allclose(A&& a, B&& b, double rtol = 1e-5, double atol = 1e-8, bool equal_nan = false) {
  // count_nonzero, not all: its reduction vectorises; all's ran several times slower.
  const auto e = isclose(std::forward<A>(a), std::forward<B>(b), rtol, atol, equal_nan);
  return static_cast<index_t>(count_nonzero(e)) == e.size();
}

/// Whether a and b have the same shape and equal elements (numpy.array_equal;
/// different shapes give false, not a broadcast); with equal_nan, NaNs in
/// the same places count as equal.
template <expression A, expression B>
bool array_equal(A&& a, B&& b, bool equal_nan = false) {
  auto x = detail::as_expr(std::forward<A>(a));
  auto y = detail::as_expr(std::forward<B>(b));
  if constexpr (decltype(x)::rank != decltype(y)::rank) {
    return false;
  } else {
    if (x.shape() != y.shape()) return false;
    if (equal_nan) return static_cast<index_t>(count_nonzero((x == y) | (isnan(x) & isnan(y)))) == x.size();
    return static_cast<index_t>(count_nonzero(x == y)) == x.size();
  }
}

}  // namespace sinter
