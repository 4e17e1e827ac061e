// Comparisons, logical and bitwise ops, shifts, isnan/isinf/isfinite, where
// and cast (core/ops.hpp, functions.hpp) on every dtype they accept, against
// independent scalar references (tests/support/op_check.hpp).
#include "support/op_check.hpp"

namespace {

using namespace op_test;

/// Operands compared in the promoted type (documented); here same-type.
template <class F>
auto compare(F f) {
  return [f](auto, ld a, ld b) -> ld { return f(a, b) ? 1 : 0; };
}
const auto eq_ref = compare([](ld a, ld b) { return a == b; });
const auto ne_ref = compare([](ld a, ld b) { return a != b; });
const auto lt_ref = compare([](ld a, ld b) { return a < b; });
const auto le_ref = compare([](ld a, ld b) { return a <= b; });
const auto gt_ref = compare([](ld a, ld b) { return a > b; });
const auto ge_ref = compare([](ld a, ld b) { return a >= b; });
const auto and_ref = compare([](ld a, ld b) { return a != 0 && b != 0; });  // NaN is true
const auto or_ref = compare([](ld a, ld b) { return a != 0 || b != 0; });
const auto not_ref = [](auto, ld a) -> ld { return a != 0 ? 0 : 1; };
const auto isnan_ref = [](auto, ld a) -> ld { return std::isnan(a) ? 1 : 0; };
const auto isinf_ref = [](auto, ld a) -> ld { return std::isinf(a) ? 1 : 0; };
const auto isfinite_ref = [](auto, ld a) -> ld { return std::isfinite(a) ? 1 : 0; };

/// Bitwise ops on the two's complement bits of the (same-type) operands.
template <class F>
auto bits(F f) {
  return [f](auto r, ld a, ld b) -> ld {
    using R = typename decltype(r)::type;
    if constexpr (std::is_same_v<R, bool>) return static_cast<ld>(f(bits_of<R>(a), bits_of<R>(b)) & 1u);
    else return wrap<R>(f(bits_of<R>(a), bits_of<R>(b)));
  };
}
const auto band_ref = bits([](std::uint64_t a, std::uint64_t b) { return a & b; });
const auto bor_ref = bits([](std::uint64_t a, std::uint64_t b) { return a | b; });
const auto bxor_ref = bits([](std::uint64_t a, std::uint64_t b) { return a ^ b; });
const auto invert_ref = [](auto r, ld a) -> ld {
  using R = typename decltype(r)::type;
  if constexpr (std::is_same_v<R, bool>) return a != 0 ? 0 : 1;
  else return wrap<R>(~bits_of<R>(a));
};
/// Shifts: out of [0, width) gives 0 (left) or the sign fill (right), documented.
const auto shl_ref = [](auto r, ld a, ld b) -> ld {
  using R = typename decltype(r)::type;
  constexpr int w = sizeof(R) * 8;
  if (b < 0 || b >= w) return 0;
  ld v = a;
  for (int i = 0; i < static_cast<int>(b); ++i) v = to_ld(static_cast<R>(bits_of<R>(v) << 1));
  return v;
};
const auto shr_ref = [](auto r, ld a, ld b) -> ld {
  using R = typename decltype(r)::type;
  constexpr int w = sizeof(R) * 8;
  if (b < 0 || b >= w) return a < 0 ? -1 : 0;
  return std::floor(a / std::ldexp(ld{1}, static_cast<int>(b)));  // arithmetic shift = floor division
};
const auto where_ref = [](auto r, ld c, ld a, ld b) -> ld {
  using R = typename decltype(r)::type;
  return in<R>(c != 0 ? a : b);
};

domain small() {  // many equal values, NaN, ±inf, ±0
  domain d = dom(-3, 3);
  d.halves_rate = 0.5;
  d.special_rate = 0.2;
  return d;
}
domain shifts() {
  domain d = dom(-3, 70);
  d.special_rate = 0.05;
  return d;
}

}  // namespace

TEST_CASE("ops: comparisons and logical ops on every dtype") {
  for_each_type(all_types{}, [](auto t) {
    using T = typename decltype(t)::type;
    check<T, T>(
        op("==", [](auto a, auto b) { return a == b; }, eq_ref, {small()}, exact),
        op("!=", [](auto a, auto b) { return a != b; }, ne_ref, {small()}),
        op("<", [](auto a, auto b) { return a < b; }, lt_ref, {small()}),
        op("<=", [](auto a, auto b) { return a <= b; }, le_ref, {small()}),
        op(">", [](auto a, auto b) { return a > b; }, gt_ref, {small()}),
        op(">=", [](auto a, auto b) { return a >= b; }, ge_ref, {small()}),
        op("< (full range)", [](auto a, auto b) { return a < b; }, lt_ref, {domain{}}),
        op("&&", [](auto a, auto b) { return a && b; }, and_ref, {small()}),
        op("||", [](auto a, auto b) { return a || b; }, or_ref, {small()}),
        op("logical_and", [](auto a, auto b) { return sinter::logical_and(a, b); }, and_ref, {small()}),
        op("logical_or", [](auto a, auto b) { return sinter::logical_or(a, b); }, or_ref, {small()}));
    check<T>(op("!", [](auto a) { return !a; }, not_ref, {small()}),
                op("logical_not", [](auto a) { return sinter::logical_not(a); }, not_ref, {small()}),
                op("isnan", [](auto a) { return sinter::isnan(a); }, isnan_ref, {domain{}}),
                op("isinf", [](auto a) { return sinter::isinf(a); }, isinf_ref, {domain{}}),
                op("isfinite", [](auto a) { return sinter::isfinite(a); }, isfinite_ref, {domain{}}));
  });
  // Mixed: compared in the promoted type.
  check<std::int8_t, std::uint8_t>(op("<", [](auto a, auto b) { return a < b; }, lt_ref));
  check<std::int32_t, double>(op("==", [](auto a, auto b) { return a == b; }, eq_ref, {small()}));
  check<sinter::half, float>(op(">=", [](auto a, auto b) { return a >= b; }, ge_ref, {small()}));
}

TEST_CASE("ops: bitwise ops and shifts on integers and bool") {
  for_each_type(int_types{}, [](auto t) {
    using T = typename decltype(t)::type;
    check<T, T>(op("&", [](auto a, auto b) { return a & b; }, band_ref, {domain{}}, exact),
                   op("|", [](auto a, auto b) { return a | b; }, bor_ref),
                   op("^", [](auto a, auto b) { return a ^ b; }, bxor_ref),
                   op("<<", [](auto a, auto b) { return a << b; }, shl_ref, {domain{}, shifts()}),
                   op(">>", [](auto a, auto b) { return a >> b; }, shr_ref, {domain{}, shifts()}));
    check<T>(op("~", [](auto a) { return ~a; }, invert_ref));
  });
  check<bool, bool>(op("&", [](auto a, auto b) { return a & b; }, band_ref),
                       op("|", [](auto a, auto b) { return a | b; }, bor_ref),
                       op("^", [](auto a, auto b) { return a ^ b; }, bxor_ref));
  check<bool>(op("~", [](auto a) { return ~a; }, invert_ref));
  static_assert(std::is_same_v<decltype(std::declval<sinter::view<const std::int8_t, 2>>() &
                                        std::declval<sinter::view<const std::uint8_t, 2>>())::value_type,
                               std::int16_t>);
  check<std::int8_t, std::uint8_t>(op("& (mixed)", [](auto a, auto b) { return a & b; }, band_ref));
}

TEST_CASE("ops: where on every dtype") {
  for_each_type(all_types{}, [](auto t) {
    using T = typename decltype(t)::type;
    check<bool, T, T>(op("where", [](auto c, auto a, auto b) { return sinter::where(c, a, b); }, where_ref,
                            {domain{}}, exact));
    check<T, float, float>(op("where (condition of this type)",
                                 [](auto c, auto a, auto b) { return sinter::where(c, a, b); }, where_ref,
                                 {small(), domain{}}));
  });
  static_assert(std::is_same_v<decltype(sinter::where(std::declval<sinter::view<const bool, 2>>(),
                                                      std::declval<sinter::view<const int, 2>>(),
                                                      std::declval<sinter::view<const double, 2>>()))::value_type,
                               double>);
  check<bool, std::int32_t, double>(
      op("where (mixed)", [](auto c, auto a, auto b) { return sinter::where(c, a, b); }, where_ref));
}

TEST_CASE("ops: cast between every pair of dtypes") {
  // Float to integer truncates; values are kept in range of every target (out
  // of range is undefined in C++).
  const auto cast_ref = [](auto r, ld a) -> ld {
    using R = typename decltype(r)::type;
    if constexpr (std::is_same_v<R, bool>) return a != 0 ? 1 : 0;
    else if constexpr (is_int_v<R>) return wrap<R>(bits_of<R>(std::trunc(a)));
    else return a;  // rounded by the comparison (0.5 ULP)
  };
  for_each_type(all_types{}, [&](auto t) {
    using T = typename decltype(t)::type;
    domain d;
    if constexpr (is_float_v<T>) {
      d = dom(0, 127.9);
      d.special_rate = 0;
    }
    // Every target in one fused pass; each result is widened to double exactly.
    check<T>(
        op("cast<bool>", [](auto a) { return sinter::cast<double>(sinter::cast<bool>(a)); },
           [&](auto, ld a) { return cast_ref(tag<bool>{}, a); }, {d}),
        op("cast<int8>", [](auto a) { return sinter::cast<double>(sinter::cast<std::int8_t>(a)); },
           [&](auto, ld a) { return cast_ref(tag<std::int8_t>{}, a); }, {d}),
        op("cast<int16>", [](auto a) { return sinter::cast<double>(sinter::cast<std::int16_t>(a)); },
           [&](auto, ld a) { return cast_ref(tag<std::int16_t>{}, a); }, {d}),
        op("cast<int32>", [](auto a) { return sinter::cast<double>(sinter::cast<std::int32_t>(a)); },
           [&](auto, ld a) { return cast_ref(tag<std::int32_t>{}, a); }, {d}),
        op("cast<uint8>", [](auto a) { return sinter::cast<double>(sinter::cast<std::uint8_t>(a)); },
           [&](auto, ld a) { return cast_ref(tag<std::uint8_t>{}, a); }, {d}),
        op("cast<uint16>", [](auto a) { return sinter::cast<double>(sinter::cast<std::uint16_t>(a)); },
           [&](auto, ld a) { return cast_ref(tag<std::uint16_t>{}, a); }, {d}),
        op("cast<uint32>", [](auto a) { return sinter::cast<double>(sinter::cast<std::uint32_t>(a)); },
           [&](auto, ld a) { return cast_ref(tag<std::uint32_t>{}, a); }, {d}),
        op("cast<float>", [](auto a) { return sinter::cast<double>(sinter::cast<float>(a)); },
           [&](auto, ld a) { return in<float>(a); }, {d}),
        op("cast<half>", [](auto a) { return sinter::cast<double>(sinter::cast<sinter::half>(a)); },
           [&](auto, ld a) { return to_ld(sinter::half(static_cast<float>(in<float>(a)))); }, {d}),
        op("cast<bfloat16>", [](auto a) { return sinter::cast<double>(sinter::cast<sinter::bfloat16>(a)); },
           [&](auto, ld a) { return to_ld(sinter::bfloat16(static_cast<float>(in<float>(a)))); }, {d}),
        op("cast<double>", [](auto a) { return sinter::cast<double>(a); }, cast_ref, {d}, rounded));
    check<T>(op("cast<int64>", [](auto a) { return sinter::cast<std::int64_t>(a); }, cast_ref, {d}));
    check<T>(op("cast<uint64>", [](auto a) { return sinter::cast<std::uint64_t>(a); }, cast_ref, {d}));
  });
}
