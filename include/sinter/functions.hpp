#pragma once
/// \file functions.hpp
/// Operators and free functions: thin builders of map nodes over the op
/// table (core/ops.hpp). Each returns a lazy sinter::expr; nothing runs
/// until assignment. At least one operand must be an array, view or
/// expression; the others may be C++ scalars.
#include <type_traits>
#include <utility>

#include "core/ops.hpp"
#include "expression.hpp"

namespace sinter {

namespace detail {
template <class... X>
concept any_expression = (expression<X> || ...);

/// Functors sinter::map accepts: trivially copyable ones, and nvcc's extended
/// `[] __host__ __device__` lambdas (with --extended-lambda), whose host-side
/// wrapper is not trivially copyable but which nvcc itself passes to kernels.
template <class F>
inline constexpr bool map_functor_v = std::is_trivially_copyable_v<F>
#if defined(__CUDACC_EXTENDED_LAMBDA__)
                                      || __nv_is_extended_host_device_lambda_closure_type(F)
#endif
    ;
}  // namespace detail

#define SINTER_BINARY_OPERATOR(sym, fn)                                                 \
  template <operand A, operand B>                                                       \
    requires detail::any_expression<A, B>                                               \
  SINTER_FORCEINLINE auto operator sym(A&& a, B&& b) {                                  \
    return detail::make_map(fn::name, fn{}, std::forward<A>(a), std::forward<B>(b));    \
  }
SINTER_BINARY_OPERATOR(+, detail::ops::add)
SINTER_BINARY_OPERATOR(-, detail::ops::sub)
SINTER_BINARY_OPERATOR(*, detail::ops::mul)
SINTER_BINARY_OPERATOR(/, detail::ops::div)
SINTER_BINARY_OPERATOR(%, detail::ops::mod)
SINTER_BINARY_OPERATOR(&&, detail::ops::logical_and)
SINTER_BINARY_OPERATOR(||, detail::ops::logical_or)
SINTER_BINARY_OPERATOR(&, detail::ops::bit_and)
SINTER_BINARY_OPERATOR(|, detail::ops::bit_or)
SINTER_BINARY_OPERATOR(^, detail::ops::bit_xor)
SINTER_BINARY_OPERATOR(<<, detail::ops::shl)
SINTER_BINARY_OPERATOR(>>, detail::ops::shr)
#undef SINTER_BINARY_OPERATOR

namespace detail {
/// In a comparison, a C++ integer scalar of the other signedness than the
/// integer operands, either of them 64-bit, keeps its type and is compared
/// exactly (ops::compare_mixed_sign): `uint64_array > -1` is all true, as in
/// NumPy 2, where converting -1 to uint64 would throw. Others as make_map.
template <class S, class E>
SINTER_FORCEINLINE decltype(auto) resolve_compared(E&& e) {
  using D = std::remove_cvref_t<E>;
  if constexpr (is_scalar_expr<D>::value && integral_element<S>) {
    using X = typename D::value_type;
    if constexpr (integral_element<X> && std::is_signed_v<X> != std::is_signed_v<S> &&
                  (sizeof(X) == 8 || sizeof(S) == 8))
      return std::forward<E>(e);
    else
      return resolve_scalar<S>(std::forward<E>(e));
  } else {
    return resolve_scalar<S>(std::forward<E>(e));
  }
}
}  // namespace detail

#define SINTER_COMPARISON_OPERATOR(sym, fn)                                                      \
  template <operand A, operand B>                                                                \
    requires detail::any_expression<A, B>                                                        \
  SINTER_FORCEINLINE auto operator sym(A&& a, B&& b) {                                           \
    using S = detail::strong_type_t<detail::expr_of_t<A&&>, detail::expr_of_t<B&&>>;             \
    return detail::make_map_resolved(fn::name, fn{},                                             \
                                     detail::resolve_compared<S>(detail::as_operand(std::forward<A>(a))), \
                                     detail::resolve_compared<S>(detail::as_operand(std::forward<B>(b)))); \
  }
SINTER_COMPARISON_OPERATOR(==, detail::ops::eq)
SINTER_COMPARISON_OPERATOR(!=, detail::ops::ne)
SINTER_COMPARISON_OPERATOR(<, detail::ops::lt)
SINTER_COMPARISON_OPERATOR(<=, detail::ops::le)
SINTER_COMPARISON_OPERATOR(>, detail::ops::gt)
SINTER_COMPARISON_OPERATOR(>=, detail::ops::ge)
#undef SINTER_COMPARISON_OPERATOR

#define SINTER_UNARY_OPERATOR(sym, fn)                        \
  template <expression A>                                     \
  SINTER_FORCEINLINE auto operator sym(A&& a) {               \
    return detail::make_map(fn::name, fn{}, std::forward<A>(a)); \
  }
SINTER_UNARY_OPERATOR(-, detail::ops::neg)
SINTER_UNARY_OPERATOR(!, detail::ops::logical_not)
SINTER_UNARY_OPERATOR(~, detail::ops::bit_not)
#undef SINTER_UNARY_OPERATOR

// Free functions, numpy names. `sinter::exp(a + b)`, `sinter::pow(x, 2.f)`.
#define SINTER_UNARY_FUNCTION(name_, fn)                        \
  template <expression A>                                       \
  SINTER_FORCEINLINE auto name_(A&& a) {                        \
    return detail::make_map(fn::name, fn{}, std::forward<A>(a)); \
  }
#define SINTER_BINARY_FUNCTION(name_, fn)                                              \
  template <operand A, operand B>                                                      \
    requires detail::any_expression<A, B>                                              \
  SINTER_FORCEINLINE auto name_(A&& a, B&& b) {                                        \
    return detail::make_map(fn::name, fn{}, std::forward<A>(a), std::forward<B>(b));   \
  }
#define SINTER_TERNARY_FUNCTION(name_, fn)                                             \
  template <operand A, operand B, operand C>                                           \
    requires detail::any_expression<A, B, C>                                           \
  SINTER_FORCEINLINE auto name_(A&& a, B&& b, C&& c) {                                 \
    return detail::make_map(fn::name, fn{}, std::forward<A>(a), std::forward<B>(b),    \
                            std::forward<C>(c));                                       \
  }

/// |x| (wraps for the most negative integer, as numpy).
SINTER_UNARY_FUNCTION(abs, detail::ops::abs)
/// -1, 0, 1 by sign; NaN stays NaN.
SINTER_UNARY_FUNCTION(sign, detail::ops::sign)
/// x * x.
SINTER_UNARY_FUNCTION(square, detail::ops::square)
/// Square root (integers give double).
SINTER_UNARY_FUNCTION(sqrt, detail::ops::sqrt)
/// Cube root.
SINTER_UNARY_FUNCTION(cbrt, detail::ops::cbrt)
/// 1 / sqrt(x), correctly computed.
SINTER_UNARY_FUNCTION(rsqrt, detail::ops::rsqrt)
/// e^x.
SINTER_UNARY_FUNCTION(exp, detail::ops::exp)
/// 2^x.
SINTER_UNARY_FUNCTION(exp2, detail::ops::exp2)
/// e^x - 1, accurate near 0.
SINTER_UNARY_FUNCTION(expm1, detail::ops::expm1)
/// Natural logarithm.
SINTER_UNARY_FUNCTION(log, detail::ops::log)
/// Base-2 logarithm.
SINTER_UNARY_FUNCTION(log2, detail::ops::log2)
/// Base-10 logarithm.
SINTER_UNARY_FUNCTION(log10, detail::ops::log10)
/// log(1 + x), accurate near 0.
SINTER_UNARY_FUNCTION(log1p, detail::ops::log1p)
/// Sine (radians).
SINTER_UNARY_FUNCTION(sin, detail::ops::sin)
/// Cosine.
SINTER_UNARY_FUNCTION(cos, detail::ops::cos)
/// Tangent.
SINTER_UNARY_FUNCTION(tan, detail::ops::tan)
/// Arcsine.
SINTER_UNARY_FUNCTION(asin, detail::ops::asin)
/// Arccosine.
SINTER_UNARY_FUNCTION(acos, detail::ops::acos)
/// Arctangent.
SINTER_UNARY_FUNCTION(atan, detail::ops::atan)
/// Hyperbolic sine.
SINTER_UNARY_FUNCTION(sinh, detail::ops::sinh)
/// Hyperbolic cosine.
SINTER_UNARY_FUNCTION(cosh, detail::ops::cosh)
/// Hyperbolic tangent.
SINTER_UNARY_FUNCTION(tanh, detail::ops::tanh)
/// Inverse hyperbolic sine.
SINTER_UNARY_FUNCTION(asinh, detail::ops::asinh)
/// Inverse hyperbolic cosine.
SINTER_UNARY_FUNCTION(acosh, detail::ops::acosh)
/// Inverse hyperbolic tangent.
SINTER_UNARY_FUNCTION(atanh, detail::ops::atanh)
/// Error function.
SINTER_UNARY_FUNCTION(erf, detail::ops::erf)
/// Complementary error function 1 - erf(x), accurate for large x.
SINTER_UNARY_FUNCTION(erfc, detail::ops::erfc)
/// Largest integer not above x (integers unchanged).
SINTER_UNARY_FUNCTION(floor, detail::ops::floor)
/// Smallest integer not below x.
SINTER_UNARY_FUNCTION(ceil, detail::ops::ceil)
/// Nearest integer, halves to even (numpy.round).
SINTER_UNARY_FUNCTION(round, detail::ops::round)
/// Integer part, towards zero.
SINTER_UNARY_FUNCTION(trunc, detail::ops::trunc)
/// True where x is NaN.
SINTER_UNARY_FUNCTION(isnan, detail::ops::isnan)
/// True where x is ±inf.
SINTER_UNARY_FUNCTION(isinf, detail::ops::isinf)
/// True where x is neither NaN nor infinite.
SINTER_UNARY_FUNCTION(isfinite, detail::ops::isfinite)
/// Logical not.
SINTER_UNARY_FUNCTION(logical_not, detail::ops::logical_not)

/// atan2(y, x): angle of the point (x, y).
SINTER_BINARY_FUNCTION(atan2, detail::ops::atan2)
/// x^y (integers: exact and wrapping).
SINTER_BINARY_FUNCTION(pow, detail::ops::pow)
/// sqrt(x² + y²) without overflow.
SINTER_BINARY_FUNCTION(hypot, detail::ops::hypot)
/// Remainder with the sign of x (C fmod).
SINTER_BINARY_FUNCTION(fmod, detail::ops::fmod)
/// Element-wise minimum; NaN propagates.
SINTER_BINARY_FUNCTION(minimum, detail::ops::minimum)
/// Element-wise maximum; NaN propagates.
SINTER_BINARY_FUNCTION(maximum, detail::ops::maximum)
/// Logical and.
SINTER_BINARY_FUNCTION(logical_and, detail::ops::logical_and)
/// Logical or.
SINTER_BINARY_FUNCTION(logical_or, detail::ops::logical_or)
/// clip(x, lo, hi): x limited to [lo, hi].
SINTER_TERNARY_FUNCTION(clip, detail::ops::clip)
/// a * b + c with one rounding.
SINTER_TERNARY_FUNCTION(fma, detail::ops::fma)

#undef SINTER_UNARY_FUNCTION
#undef SINTER_BINARY_FUNCTION
#undef SINTER_TERNARY_FUNCTION

/// where(cond, a, b): a where cond, else b (numpy.where). The result type
/// comes from a and b alone, a C++ scalar among them weak as in arithmetic
/// (`where(c, int8_array, 2.5)` is double, as `int8_array * 2.5`); cond's type never counts.
template <operand C, operand A, operand B>
  requires detail::any_expression<C, A, B>
SINTER_FORCEINLINE auto where(C&& c, A&& a, B&& b) {
  using S = detail::strong_type_t<detail::expr_of_t<A&&>, detail::expr_of_t<B&&>>;
  return detail::make_map_resolved(detail::ops::where::name, detail::ops::where{},
                                   detail::as_operand(std::forward<C>(c)),
                                   detail::resolve_scalar<S>(detail::as_operand(std::forward<A>(a))),
                                   detail::resolve_scalar<S>(detail::as_operand(std::forward<B>(b))));
}

/// Convert element type: `sinter::cast<int>(x)` (float to integer truncates).
template <element T, expression A>
auto cast(A&& a) {
  return detail::make_map("cast", detail::ops::cast_to<T>{}, std::forward<A>(a));
}

/// Apply a user functor element-wise, fused like the built-ins:
/// `sinter::map([] SINTER_HD (float x, float y) { return x > y ? x : 0.f; }, a, b)`.
/// The functor receives the operands' element values and must be trivially copyable.
template <class F, operand... X>
  requires(sizeof...(X) >= 1 && detail::any_expression<X...>)
auto map(F f, X&&... x) {
  static_assert(detail::map_functor_v<F>,
                "sinter::map: the functor must be trivially copyable (capture by value)");
  return detail::make_map("map", detail::ops::user_fn<F>{f}, std::forward<X>(x)...);
}

}  // namespace sinter
