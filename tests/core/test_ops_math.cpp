// Floating-point functions (functions.hpp over core/math) on every dtype,
// against long double <cmath> references within a ULP bound per function
// (tests/support/op_check.hpp). Integers and bool compute in double.
// The bounds are named so they can be tightened as core/math lands.
#include "support/op_check.hpp"

namespace {

using namespace op_test;

// ULP bounds for float and double results (16-bit results: 1 ULP after rounding).
constexpr ulps sqrt_ulps = rounded;  // IEEE sqrt is correctly rounded
constexpr ulps cbrt_ulps = math_ulps(4), rsqrt_ulps = math_ulps(4);
constexpr ulps exp_ulps = math_ulps(4), exp2_ulps = math_ulps(4), expm1_ulps = math_ulps(4);
constexpr ulps log_ulps = math_ulps(4), log2_ulps = math_ulps(4), log10_ulps = math_ulps(4),
               log1p_ulps = math_ulps(4);
constexpr ulps sin_ulps = math_ulps(4), cos_ulps = math_ulps(4), tan_ulps = math_ulps(4);
constexpr ulps asin_ulps = math_ulps(4), acos_ulps = math_ulps(4), atan_ulps = math_ulps(4);
constexpr ulps sinh_ulps = math_ulps(4), cosh_ulps = math_ulps(4), tanh_ulps = math_ulps(4);
constexpr ulps asinh_ulps = math_ulps(4), acosh_ulps = math_ulps(4), atanh_ulps = math_ulps(4);
constexpr ulps erf_ulps = math_ulps(4), erfc_ulps = math_ulps(4);
constexpr ulps atan2_ulps = math_ulps(4), hypot_ulps = math_ulps(4);

/// A reference: the function in long double of the input rounded to the
/// type the op computes in (double for integers, float for half/bfloat16).
#define MATH_REF(name, expr)                                                  \
  const auto name = [](auto r, ld a) -> ld {                                  \
    using R = typename decltype(r)::type;                                     \
    const ld x = in<compute_of<R>>(a);                                        \
    return expr;                                                              \
  }
MATH_REF(sqrt_ref, std::sqrt(x));
MATH_REF(cbrt_ref, std::cbrt(x));
MATH_REF(rsqrt_ref, 1 / std::sqrt(x));
MATH_REF(exp_ref, std::exp(x));
MATH_REF(exp2_ref, std::exp2(x));
MATH_REF(expm1_ref, std::expm1(x));
MATH_REF(log_ref, std::log(x));
MATH_REF(log2_ref, std::log2(x));
MATH_REF(log10_ref, std::log10(x));
MATH_REF(log1p_ref, std::log1p(x));
MATH_REF(sin_ref, std::sin(x));
MATH_REF(cos_ref, std::cos(x));
MATH_REF(tan_ref, std::tan(x));
MATH_REF(asin_ref, std::asin(x));
MATH_REF(acos_ref, std::acos(x));
MATH_REF(atan_ref, std::atan(x));
MATH_REF(sinh_ref, std::sinh(x));
MATH_REF(cosh_ref, std::cosh(x));
MATH_REF(tanh_ref, std::tanh(x));
MATH_REF(asinh_ref, std::asinh(x));
MATH_REF(acosh_ref, std::acosh(x));
MATH_REF(atanh_ref, std::atanh(x));
MATH_REF(erf_ref, std::erf(x));
MATH_REF(erfc_ref, std::erfc(x));
#undef MATH_REF

const auto atan2_ref = [](auto r, ld y, ld x) -> ld {
  using C = compute_of<typename decltype(r)::type>;
  return std::atan2(in<C>(y), in<C>(x));
};
const auto hypot_ref = [](auto r, ld x, ld y) -> ld {
  using C = compute_of<typename decltype(r)::type>;
  return std::hypot(in<C>(x), in<C>(y));
};

domain with_zeros(domain d, double rate = 0.1) {
  d.zero_rate = rate;
  return d;
}

}  // namespace

TEST_CASE("ops: floating functions of one argument") {
  for_each_type(all_types{}, [](auto t) {
    using T = typename decltype(t)::type;
    // Positives and negatives, tiny to huge, with zeros: NaN, -inf, poles.
    const domain wide = with_zeros(log_dom(-40, 40, 0.3));
    const domain near0 = log_dom(-12, 0, 0.5);
    check<T>(
        op("sqrt", [](auto a) { return sinter::sqrt(a); }, sqrt_ref, {wide}, sqrt_ulps),
        op("cbrt", [](auto a) { return sinter::cbrt(a); }, cbrt_ref, {wide}, cbrt_ulps),
        op("rsqrt", [](auto a) { return sinter::rsqrt(a); }, rsqrt_ref, {wide}, rsqrt_ulps),
        op("exp", [](auto a) { return sinter::exp(a); }, exp_ref, {dom(-100, 100)}, exp_ulps),
        op("exp (wide)", [](auto a) { return sinter::exp(a); }, exp_ref, {dom(-800, 800)}, exp_ulps),
        op("exp2", [](auto a) { return sinter::exp2(a); }, exp2_ref, {dom(-1100, 1100)}, exp2_ulps),
        op("expm1", [](auto a) { return sinter::expm1(a); }, expm1_ref, {dom(-60, 100)}, expm1_ulps),
        op("expm1 (near 0)", [](auto a) { return sinter::expm1(a); }, expm1_ref, {near0}, expm1_ulps),
        op("log", [](auto a) { return sinter::log(a); }, log_ref, {wide}, log_ulps),
        op("log (near 1)", [](auto a) { return sinter::log(a); }, log_ref, {dom(0.5, 2)}, log_ulps),
        op("log2", [](auto a) { return sinter::log2(a); }, log2_ref, {wide}, log2_ulps),
        op("log10", [](auto a) { return sinter::log10(a); }, log10_ref, {wide}, log10_ulps),
        op("log1p", [](auto a) { return sinter::log1p(a); }, log1p_ref, {dom(-1.5, 10)}, log1p_ulps),
        op("log1p (near 0)", [](auto a) { return sinter::log1p(a); }, log1p_ref, {near0}, log1p_ulps));
    // Smaller groups: every element of a fused pass computes every op of its group.
    check<T>(
        op("sin", [](auto a) { return sinter::sin(a); }, sin_ref, {dom(-10, 10)}, sin_ulps),
        op("sin (wide)", [](auto a) { return sinter::sin(a); }, sin_ref, {dom(-1e5, 1e5)}, sin_ulps),
        op("cos", [](auto a) { return sinter::cos(a); }, cos_ref, {dom(-10, 10)}, cos_ulps),
        op("cos (wide)", [](auto a) { return sinter::cos(a); }, cos_ref, {dom(-1e5, 1e5)}, cos_ulps),
        op("tan", [](auto a) { return sinter::tan(a); }, tan_ref, {dom(-10, 10)}, tan_ulps),
        op("asin", [](auto a) { return sinter::asin(a); }, asin_ref, {dom(-1.2, 1.2)}, asin_ulps),
        op("acos", [](auto a) { return sinter::acos(a); }, acos_ref, {dom(-1.2, 1.2)}, acos_ulps),
        op("atan", [](auto a) { return sinter::atan(a); }, atan_ref, {wide}, atan_ulps));
    check<T>(
        op("sinh", [](auto a) { return sinter::sinh(a); }, sinh_ref, {dom(-100, 100)}, sinh_ulps),
        op("sinh (near 0)", [](auto a) { return sinter::sinh(a); }, sinh_ref, {near0}, sinh_ulps),
        op("cosh", [](auto a) { return sinter::cosh(a); }, cosh_ref, {dom(-100, 100)}, cosh_ulps),
        op("tanh", [](auto a) { return sinter::tanh(a); }, tanh_ref, {dom(-20, 20)}, tanh_ulps),
        op("tanh (near 0)", [](auto a) { return sinter::tanh(a); }, tanh_ref, {near0}, tanh_ulps),
        op("asinh", [](auto a) { return sinter::asinh(a); }, asinh_ref, {wide}, asinh_ulps),
        op("acosh", [](auto a) { return sinter::acosh(a); }, acosh_ref, {dom(0, 10)}, acosh_ulps),
        op("acosh (wide)", [](auto a) { return sinter::acosh(a); }, acosh_ref, {wide}, acosh_ulps),
        op("atanh", [](auto a) { return sinter::atanh(a); }, atanh_ref, {dom(-1.2, 1.2)}, atanh_ulps),
        op("erf", [](auto a) { return sinter::erf(a); }, erf_ref, {dom(-6, 6)}, erf_ulps),
        op("erf (near 0)", [](auto a) { return sinter::erf(a); }, erf_ref, {near0}, erf_ulps),
        op("erfc", [](auto a) { return sinter::erfc(a); }, erfc_ref, {dom(-6, 30)}, erfc_ulps));
  });
}

TEST_CASE("ops: atan2 and hypot") {
  for_each_type(all_types{}, [](auto t) {
    using T = typename decltype(t)::type;
    const domain wide = with_zeros(log_dom(-40, 40, 0.5));
    check<T, T>(
        op("atan2", [](auto y, auto x) { return sinter::atan2(y, x); }, atan2_ref, {dom(-10, 10)}, atan2_ulps),
        op("atan2 (wide)", [](auto y, auto x) { return sinter::atan2(y, x); }, atan2_ref, {wide}, atan2_ulps),
        op("hypot", [](auto x, auto y) { return sinter::hypot(x, y); }, hypot_ref, {wide}, hypot_ulps));
  });
  // Mixed: the result type, and the int operand converted to it.
  static_assert(std::is_same_v<decltype(sinter::atan2(std::declval<sinter::view<const int, 2>>(),
                                                      std::declval<sinter::view<const float, 2>>()))::value_type,
                               float>);
  check<std::int32_t, float>(
      op("atan2", [](auto y, auto x) { return sinter::atan2(y, x); }, atan2_ref, {dom(-100, 100)}, atan2_ulps));
  check<std::int64_t>(op("exp(int64) -> double", [](auto a) { return sinter::exp(a); }, exp_ref,
                            {dom(-800, 800)}, exp_ulps));
}
