// Unary arithmetic, rounding, clip, fma and compound assignment (core/ops.hpp) on every dtype they accept,
// against independent scalar references (tests/support/op_check.hpp):
// + - * / % unary -, abs sign square minimum maximum clip fma pow fmod,
// floor ceil round trunc, compound assignment, mixed types and C++ scalars
// (result type and values), and the errors.
#include "support/op_check.hpp"

#include <cstdint>
#include <string>

#include "support/arith_refs.hpp"

TEST_CASE("ops: unary arithmetic and rounding") {
  for_each_type(numeric_types{}, [](auto t) {
    using T = typename decltype(t)::type;
    const ulps tol = is_int_v<T> ? exact : rounded;
    auto fl = [](auto a) { return sinter::floor(a); };
    auto ce = [](auto a) { return sinter::ceil(a); };
    auto tr = [](auto a) { return sinter::trunc(a); };
    auto ro = [](auto a) { return sinter::round(a); };
    check<T>(op("negative", [](auto a) { return -a; }, neg_ref, {full()}, exact),
                op("abs", [](auto a) { return sinter::abs(a); }, abs_ref, {full()}),
                op("sign", [](auto a) { return sinter::sign(a); }, sign_ref, {full()}, exact_value),
                op("square", [](auto a) { return sinter::square(a); }, square_ref, {full()}, tol),
                op("floor", fl, floor_ref, {halves()}), op("floor (large)", fl, floor_ref, {log_dom(-3, 25)}),
                op("ceil", ce, ceil_ref, {halves()}), op("ceil (large)", ce, ceil_ref, {log_dom(-3, 25)}),
                op("trunc", tr, trunc_ref, {halves()}), op("trunc (large)", tr, trunc_ref, {log_dom(-3, 25)}),
                op("round", ro, round_ref, {halves()}), op("round (large)", ro, round_ref, {log_dom(-3, 25)}),
                op("round (full)", ro, round_ref, {full()}));
  });
  check<bool>(op("abs", [](auto a) { return sinter::abs(a); }, abs_ref));
}

TEST_CASE("ops: clip and fma") {
  for_each_type(numeric_types{}, [](auto t) {
    using T = typename decltype(t)::type;
    check<T, T, T>(
        op("clip", [](auto x, auto lo, auto hi) { return sinter::clip(x, lo, hi); }, clip_ref, {full()},
           exact_value),
        op("fma", [](auto a, auto b, auto c) { return sinter::fma(a, b, c); }, fma_ref, {full()},
           is_int_v<T> ? exact : rounded));
  });
  check<bool, bool, bool>(
      op("clip", [](auto x, auto lo, auto hi) { return sinter::clip(x, lo, hi); }, clip_ref));
}

/// An array with the element type and policy of the view V.
template <class V>
using array_of = sinter::array<typename V::value_type, 2, typename V::policy_type>;

TEST_CASE("ops: compound assignment on arrays") {
  const options lhs{.lhs_full = true};
  for_each_type(numeric_types{}, [&](auto t) {
    using T = typename decltype(t)::type;
    const ulps tol = is_int_v<T> ? exact : rounded;
    check<T, T>(
        op("+=", [](auto a, auto b) { array_of<decltype(a)> x(a); x += b; return x; }, add_ref, {full()}, tol, lhs),
        op("-=", [](auto a, auto b) { array_of<decltype(a)> x(a); x -= b; return x; }, sub_ref, {full()}, tol, lhs),
        op("*=", [](auto a, auto b) { array_of<decltype(a)> x(a); x *= b; return x; }, mul_ref, {full()}, tol, lhs),
        op("/=", [](auto a, auto b) { array_of<decltype(a)> x(a); x /= b; return x; }, div_ref, {full(), divisors()}, tol, lhs),
        op("%=", [](auto a, auto b) { array_of<decltype(a)> x(a); x %= b; return x; }, mod_ref, {full(), divisors()}, tol, lhs));
  });
}

