// Arithmetic ops (core/ops.hpp, functions.hpp) on every dtype they accept,
// against independent scalar references (tests/support/op_check.hpp):
// + - * / % unary -, abs sign square minimum maximum clip fma pow fmod,
// floor ceil round trunc, compound assignment, mixed types and C++ scalars
// (result type and values), and the errors.
#include "support/op_check.hpp"

#include <cstdint>
#include <string>

#include "support/arith_refs.hpp"

TEST_CASE("ops: binary arithmetic on every numeric dtype") {
  for_each_type(numeric_types{}, [](auto t) {
    using T = typename decltype(t)::type;
    const ulps tol = is_int_v<T> ? exact_value : rounded;
    constexpr ulps pow_ulps = math_ulps(4);
    domain base = dom(-12, 12);
    base.integral_rate = 0.3;
    check<T, T>(
        op("add", [](auto a, auto b) { return a + b; }, add_ref, {full()}, tol),
        op("subtract", [](auto a, auto b) { return a - b; }, sub_ref, {full()}, tol),
        op("multiply", [](auto a, auto b) { return a * b; }, mul_ref, {full()}, tol),
        op("divide", [](auto a, auto b) { return a / b; }, div_ref, {full(), divisors()}, tol),
        op("divide (full range)", [](auto a, auto b) { return a / b; }, div_ref, {full()}, tol),
        op("remainder", [](auto a, auto b) { return a % b; }, mod_ref, {full(), divisors()}, tol),
        op("remainder (full range)", [](auto a, auto b) { return a % b; }, mod_ref, {full()}, tol),
        op("fmod", [](auto a, auto b) { return sinter::fmod(a, b); }, mod_ref, {full(), divisors()}, tol),
        op("minimum", [](auto a, auto b) { return sinter::minimum(a, b); }, min_ref, {full()}, exact_value),
        op("maximum", [](auto a, auto b) { return sinter::maximum(a, b); }, max_ref, {full()}, exact_value),
        op("power", [](auto a, auto b) { return sinter::pow(a, b); }, pow_ref, {base, exponents()},
           is_int_v<T> ? exact : pow_ulps),
        op("power (wide)", [](auto a, auto b) { return sinter::pow(a, b); }, pow_ref,
           {log_dom(-30, 30), exponents(-50, 50)}, is_int_v<T> ? exact : pow_ulps));
  });
  // bool: minimum and maximum only (arithmetic on bool is a compile error).
  check<bool, bool>(
      op("minimum", [](auto a, auto b) { return sinter::minimum(a, b); }, min_ref),
      op("maximum", [](auto a, auto b) { return sinter::maximum(a, b); }, max_ref));
}

// The checker itself: a reference that is wrong for positive first operands
// must be reported (on every layout and policy where such an element occurs).
TEST_CASE("ops: the checker reports a wrong reference" * doctest::should_fail()) {
  check<std::int32_t, std::int32_t>(op("add (wrong reference)", [](auto a, auto b) { return a + b; },
                                       [](auto r, ld a, ld b) { return add_ref(r, a, b) + (a > 0 ? 1 : 0); },
                                       {dom(-100, 100)}));
}

// ---- mixed types: result type and values ---------------------------------------

TEST_CASE("ops: mixed dtypes promote as documented") {
  using namespace sinter;
  using std::int8_t, std::uint8_t, std::int16_t, std::int32_t, std::int64_t, std::uint32_t, std::uint64_t;
  // Static result types (promote_t), then each case's expression type and values.
  static_assert(std::is_same_v<promote_t<int32_t, float>, float>);
  static_assert(std::is_same_v<promote_t<float, double>, double>);
  static_assert(std::is_same_v<promote_t<int8_t, uint8_t>, int16_t>);
  static_assert(std::is_same_v<promote_t<half, bfloat16>, float>);
  static_assert(std::is_same_v<promote_t<int64_t, uint64_t>, double>);
  static_assert(std::is_same_v<promote_t<uint32_t, int8_t>, int64_t>);
  static_assert(std::is_same_v<promote_t<bool, int8_t>, int8_t>);

#define MIXED(A, B, RT, expr, ref, tol)                                                            \
  do {                                                                                             \
    auto f = [](auto a, auto b) { return expr; };                                                  \
    static_assert(std::is_same_v<typename decltype(f(std::declval<view<const A, 2, host>>(),        \
                                                     std::declval<view<const B, 2, host>>()))::value_type, \
                                 RT>);                                                             \
    check<A, B>(op(#expr, f, ref, {full()}, tol));                                             \
  } while (0)

  MIXED(int32_t, float, float, a + b, add_ref, rounded);
  MIXED(float, double, double, a * b, mul_ref, rounded);
  MIXED(int8_t, uint8_t, int16_t, a + b, add_ref, exact);
  MIXED(int8_t, uint8_t, int16_t, a * b, mul_ref, exact);
  MIXED(half, bfloat16, float, a - b, sub_ref, rounded);
  MIXED(half, float, float, a / b, div_ref, rounded);
  MIXED(int64_t, uint64_t, double, a + b, add_ref, rounded);
  MIXED(uint32_t, int8_t, int64_t, a - b, sub_ref, exact);
  MIXED(uint64_t, int8_t, double, a * b, mul_ref, rounded);
  MIXED(bool, int8_t, int8_t, a + b, add_ref, exact);
  MIXED(bool, float, float, a * b, mul_ref, rounded);
  MIXED(int16_t, half, half, a + b, add_ref, rounded);
  MIXED(uint8_t, double, double, sinter::minimum(a, b), min_ref, exact);
  MIXED(int8_t, int32_t, int32_t, a / b, div_ref, exact);
#undef MIXED
}

TEST_CASE("ops: C++ scalars are weak") {
  using namespace sinter;
  using std::int8_t, std::uint8_t, std::int16_t, std::int32_t;
#define SCALAR(A, RT, expr, ref, tol)                                                              \
  do {                                                                                             \
    auto f = [](auto a) { return expr; };                                                          \
    static_assert(std::is_same_v<typename decltype(f(std::declval<view<const A, 2, host>>()))::value_type, RT>); \
    check<A>(op(#expr, f, ref, {full()}, tol));                                                 \
  } while (0)
  SCALAR(int32_t, double, a * 2.5, ([](auto r, ld x) { return mul_ref(r, x, 2.5L); }), rounded);
  SCALAR(float, float, a * 2.0, ([](auto r, ld x) { return mul_ref(r, x, 2.0L); }), rounded);
  SCALAR(float, float, a + 0.1, ([](auto r, ld x) { return add_ref(r, x, to_ld(0.1f)); }), rounded);
  SCALAR(double, double, a * 2.5f, ([](auto r, ld x) { return mul_ref(r, x, 2.5L); }), rounded);
  SCALAR(int32_t, float, a * 2.5f, ([](auto r, ld x) { return mul_ref(r, x, 2.5L); }), rounded);
  SCALAR(int8_t, int8_t, a + 100, ([](auto r, ld x) { return add_ref(r, x, 100.0L); }), exact);
  SCALAR(int8_t, int8_t, 3 - a, ([](auto r, ld x) { return sub_ref(r, 3.0L, x); }), exact);
  SCALAR(uint8_t, uint8_t, a * 200, ([](auto r, ld x) { return mul_ref(r, x, 200.0L); }), exact);
  SCALAR(int16_t, int16_t, a / 7, ([](auto r, ld x) { return div_ref(r, x, 7.0L); }), exact);
  SCALAR(int16_t, int16_t, a % -7, ([](auto r, ld x) { return mod_ref(r, x, -7.0L); }), exact);
  SCALAR(half, half, a * 3, ([](auto r, ld x) { return mul_ref(r, x, 3.0L); }), rounded);
  SCALAR(bfloat16, bfloat16, a + 1.0, ([](auto r, ld x) { return add_ref(r, x, 1.0L); }), rounded);
  SCALAR(bool, double, a * 0.5, ([](auto r, ld x) { return mul_ref(r, x, 0.5L); }), rounded);
  SCALAR(std::uint64_t, std::uint64_t, a - 1, ([](auto r, ld x) { return sub_ref(r, x, 1.0L); }), exact);
  SCALAR(float, float, sinter::pow(a, 2.0), ([](auto r, ld x) { return pow_ref(r, x, 2.0L); }), math_ulps(4));
  SCALAR(int32_t, int32_t, sinter::maximum(a, 0), ([](auto r, ld x) { return max_ref(r, x, 0.0L); }), exact);
  SCALAR(float, float, sinter::clip(a, -1.0, 1.0),
         ([](auto r, ld x) { return clip_ref(r, x, -1.0L, 1.0L); }), exact);
#undef SCALAR
}

TEST_CASE("ops: an integer scalar that does not fit throws value_error") {
  sinter::array<std::int8_t, 1> a({3});
  a = std::int8_t{1};
  CHECK_THROWS_AS((void)(a + 1000), sinter::value_error);
  CHECK_THROWS_AS((void)(a * -129), sinter::value_error);
  CHECK_THROWS_AS((void)(sinter::maximum(a, 128)), sinter::value_error);
  CHECK_NOTHROW((void)(a + 127));
  CHECK_NOTHROW((void)(a + -128));
  sinter::array<std::uint8_t, 1> u({3});
  CHECK_THROWS_AS((void)(u + -1), sinter::value_error);
  CHECK_THROWS_AS((void)(u - 256), sinter::value_error);
  sinter::array<std::uint64_t, 1> w({3});
  CHECK_THROWS_AS((void)(w + -1), sinter::value_error);
  CHECK_NOTHROW((void)(w + std::uint64_t{18446744073709551615u}));
  try {
    (void)(a + 1000);
  } catch (const sinter::value_error& e) {
    CHECK(std::string(e.what()).find("1000") != std::string::npos);
    CHECK(std::string(e.what()).find("int8") != std::string::npos);
  }
}

TEST_CASE_TEMPLATE("ops: shape mismatch throws shape_error naming both shapes", P, sinter::host, sinter::par) {
  sinter::array<float, 2, P> a({3, 4});
  sinter::array<float, 1, P> b({5});
  sinter::array<int, 2, P> c({2, 4});
  a = 1.f;
  b = 2.f;
  c = 3;
  auto message = [](auto&& thunk) {
    try {
      thunk();
    } catch (const sinter::shape_error& e) {
      return std::string(e.what());
    }
    return std::string("no shape_error");
  };
  const std::string m1 = message([&] { (void)(a + b); });
  CHECK(m1.find("(3, 4)") != std::string::npos);
  CHECK(m1.find("(5,)") != std::string::npos);
  CHECK(m1.find("add") != std::string::npos);
  const std::string m2 = message([&] { (void)sinter::where(a > 0.f, c, a); });
  CHECK(m2.find("(3, 4)") != std::string::npos);
  CHECK(m2.find("(2, 4)") != std::string::npos);
  const std::string m3 = message([&] { (void)sinter::fma(a, a, b); });
  CHECK(m3.find("(5,)") != std::string::npos);
  CHECK_THROWS_AS((void)(c * a), sinter::shape_error);
  CHECK_THROWS_AS(a += c, sinter::shape_error);
}
