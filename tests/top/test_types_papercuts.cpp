// Types at the front door (issue 65): shapes from any integer type,
// conversions that change the element type, C++ bool scalars beside integer
// arrays and bool arithmetic, where()'s result type, and exact comparisons
// of uint64 against signed integers. Expected values are NumPy 2.4's,
// computed when the test was written, or plain scalar loops (std::cmp_* for
// the comparisons) on random data at sizes 0, 1, 7 and 1009. The
// compile-time halves are tests/fail/narrowing_conversion.cpp and
// tests/fail/bool_subtract.cpp; this file itself must build warning-free
// under -Wall -Wextra -Wconversion on g++ and clang++.

#include <doctest/doctest.h>

#include <cstdint>
#include <limits>
#include <random>
#include <sinter/sinter.hpp>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace types_papercuts_test {

namespace st = sinter;
using st::index_t;

constexpr index_t sizes[] = {0, 1, 7, 1009};

std::size_t usize(index_t n) { return static_cast<std::size_t>(n); }

/// A 1-D host array holding v.
template <class T>
st::array<T, 1> from(const std::vector<T>& v) {
  st::array<T, 1> a({v.size()});
  for (std::size_t i = 0; i != v.size(); ++i) a.data()[i] = v[i];
  return a;
}

/// Whether `f()` throws value_error whose text contains `part`.
template <class F>
bool throws_naming(F&& f, const std::string& part) {
  try {
    f();
  } catch (const st::value_error& e) {
    const std::string what = e.what();
    if (what.find(part) != std::string::npos) return true;
    MESSAGE("unexpected message: ", what);
    return false;
  }
  return false;
}

// ---- 1. shapes from any integer type -----------------------------------------

TEST_CASE_TEMPLATE("shapes: extents of any integer type, no cast", I, std::size_t, std::uint64_t, std::int64_t,
                   unsigned, int, short, unsigned short, std::uint8_t, long long) {
  const I n = 5, m = 3;
  st::array<float, 1> a({n});
  st::array<float, 2> b({n, m});
  st::array<double, 3> c({m, 2, n});  // mixed with an int literal
  CHECK(a.size() == 5);
  CHECK(b.shape() == st::extents<2>{5, 3});
  CHECK(c.shape() == st::extents<3>{3, 2, 5});

  const auto z = st::zeros<float>({n, m});
  const auto o = st::ones<int>({m});
  const auto f = st::full<double>({m, n}, 0.5);
  const auto e = st::empty<std::int16_t>({n});
  CHECK(z.shape() == st::extents<2>{5, 3});
  CHECK(e.size() == 5);
  for (float v : z) CHECK(v == 0.f);
  for (int v : o) CHECK(v == 1);
  for (double v : f) CHECK(v == 0.5);

  std::vector<float> buf(15);
  for (std::size_t i = 0; i != buf.size(); ++i) buf[i] = static_cast<float>(i);
  const auto v = st::as_view(buf.data(), {m, n});
  CHECK(v.shape() == st::extents<2>{3, 5});
  CHECK(v(2, 1) == 11.f);
  const auto r = st::reshape(v, {n, m});
  CHECK(r(4, 2) == 14.f);
  const auto bc = st::broadcast_to(o, {n, m});
  CHECK(bc.shape() == st::extents<2>{5, 3});
  const st::extents<2> ex{n, m};
  CHECK(ex == st::extents<2>{5, 3});
  const st::array<float, 1> ar = st::arange<float>(n);
  const st::array<double, 1> li = st::linspace(0.0, 1.0, n);
  CHECK(ar.size() == 5);
  CHECK(ar.data()[4] == 4.f);
  CHECK(li.size() == 5);
  CHECK(li.data()[1] == 0.25);  // NumPy: linspace(0, 1, 5)[1]
}

TEST_CASE("shapes: negative or too-large extents throw value_error naming the axis") {
  const std::size_t huge = std::numeric_limits<std::size_t>::max();  // what 0 - 1 gives in size_t
  const std::size_t n = 4;
  const int neg = -3;
  CHECK(throws_naming([&] { st::array<float, 1> a({huge}); }, "axis 0"));
  CHECK(throws_naming([&] { st::array<float, 2> a({n, huge}); }, "axis 1"));
  CHECK(throws_naming([&] { st::array<float, 3> a({1, 2, neg}); }, "axis 2 has extent -3"));
  CHECK(throws_naming([&] { (void)st::zeros<float>({n, huge}); }, "axis 1"));
  CHECK(throws_naming([&] { (void)st::full<float>({neg}, 1.f); }, "axis 0"));
  std::vector<float> buf(8);
  CHECK(throws_naming([&] { (void)st::as_view(buf.data(), {2, neg}); }, "axis 1"));
  CHECK(throws_naming([&] { (void)st::as_view(buf.data(), {huge, n}); }, "axis 0"));
  st::array<float, 1> a({n});
  CHECK(throws_naming([&] { (void)st::reshape(a, {huge}); }, "axis 0"));
  CHECK(throws_naming([&] { (void)st::arange<float>(huge); }, "sinter::arange: axis 0"));
  CHECK(throws_naming([&] { (void)st::linspace(0.0, 1.0, huge); }, "sinter::linspace"));
}

// ---- 2. conversions that change the element type --------------------------------

static_assert(st::exact_conversion_v<float, double>);
static_assert(st::exact_conversion_v<std::int16_t, float>);
static_assert(st::exact_conversion_v<std::uint32_t, double>);
static_assert(st::exact_conversion_v<std::int32_t, std::int64_t>);
static_assert(st::exact_conversion_v<std::uint8_t, std::int16_t>);
static_assert(st::exact_conversion_v<bool, st::half>);
static_assert(st::exact_conversion_v<st::half, float>);
static_assert(!st::exact_conversion_v<double, float>);
static_assert(!st::exact_conversion_v<std::int64_t, std::int32_t>);
static_assert(!st::exact_conversion_v<float, int>);
static_assert(!st::exact_conversion_v<std::int32_t, float>);
static_assert(!st::exact_conversion_v<std::int64_t, double>);
static_assert(!st::exact_conversion_v<std::int32_t, std::uint32_t>);
static_assert(!st::exact_conversion_v<std::uint32_t, std::int32_t>);
static_assert(!st::exact_conversion_v<st::bfloat16, st::half>);
static_assert(!st::exact_conversion_v<st::half, st::bfloat16>);
static_assert(!st::exact_conversion_v<int, bool>);

using af = st::array<float, 1>;
using ad = st::array<double, 1>;
// Widening stays implicit, for arrays and expressions; narrowing is explicit only.
static_assert(std::is_convertible_v<const af&, ad>);
static_assert(std::is_convertible_v<decltype(std::declval<af&>() * 2.f), ad>);
static_assert(std::is_constructible_v<af, const ad&>);
static_assert(std::is_constructible_v<af, decltype(std::declval<ad&>() * 2.0)>);
static_assert(!std::is_convertible_v<decltype(std::declval<ad&>() * 2.0), af>);
static_assert(!std::is_convertible_v<st::view<double, 1>, af>);
static_assert(!std::is_convertible_v<decltype(std::declval<st::array<std::int64_t, 1>&>() + 1),
                                     st::array<std::int32_t, 1>>);
static_assert(!std::is_convertible_v<decltype(std::declval<af&>() * 2.f), st::array<int, 1>>);

float sum_floats(const af& x) {
  float s = 0;
  for (float v : x) s += v;
  return s;
}
double sum_doubles(const ad& x) {
  double s = 0;
  for (double v : x) s += v;
  return s;
}

TEST_CASE("conversions: same type and widening implicit, narrowing explicit with static_cast's values") {
  std::mt19937 g(65);
  std::uniform_real_distribution<double> d(-1e3, 1e3);
  for (const index_t n : sizes) {
    CAPTURE(n);
    std::vector<double> vd(usize(n));
    for (auto& x : vd) x = d(g) + 1e-7;  // not exactly floats
    const ad x = from(vd);
    const af narrowed(x);           // explicit constructor
    const af cast = st::cast<float>(x);
    const af from_expr(x * 2.0);    // explicit from a double expression
    double ref = 0;
    for (std::size_t i = 0; i != usize(n); ++i) {
      CHECK(narrowed.data()[i] == static_cast<float>(vd[i]));
      CHECK(cast.data()[i] == static_cast<float>(vd[i]));
      CHECK(from_expr.data()[i] == static_cast<float>(vd[i] * 2.0));
      ref += static_cast<double>(static_cast<float>(vd[i]));
    }
    const ad widened = narrowed;  // implicit: every float is a double
    CHECK(sum_doubles(widened) == ref);
    CHECK(sum_doubles(narrowed) == ref);  // a float array to a double parameter
    const af same = st::exp(narrowed * 0.f) * 2.f;  // same value type: implicit
    CHECK(sum_floats(same) == 2.f * static_cast<float>(n));
  }
}

// ---- 3. bool scalars beside integer arrays; bool arithmetic -------------------

TEST_CASE("bool scalars: int8 + true is int8, logical_and(int32, true) works (NumPy values)") {
  std::int8_t buf[] = {1, 2};
  const st::view<std::int8_t, 1> v(buf, {2});
  const st::array<std::int8_t, 1> s = v + true, t = true + v;
  static_assert(std::is_same_v<decltype(v + true)::value_type, std::int8_t>);
  CHECK(s.data()[0] == 2);  // NumPy: [1 2] + True = [2 3], int8
  CHECK(s.data()[1] == 3);
  CHECK(t.data()[0] == 2);
  CHECK(t.data()[1] == 3);
  const auto w = st::asarray<std::int8_t>({-128, 127});
  const st::array<std::int8_t, 1> wrapped = w + true;  // NumPy: [-127 -128]
  CHECK(wrapped.data()[0] == -127);
  CHECK(wrapped.data()[1] == -128);

  const auto k = st::asarray<std::int32_t>({0, 3, -1, 0});
  const st::array<bool, 1> la = st::logical_and(k, true), lo = st::logical_or(k, false);
  const bool expect[] = {false, true, true, false};  // NumPy, both
  for (std::size_t i = 0; i != 4; ++i) {
    CHECK(la.data()[i] == expect[i]);
    CHECK(lo.data()[i] == expect[i]);
  }
  const st::array<bool, 1> eq = k == true;
  CHECK(eq.data()[2] == false);  // -1 == 1
  CHECK(eq.data()[1] == false);  // 3 == 1
}

TEST_CASE("bool arithmetic: + is logical or, * logical and, results bool (NumPy)") {
  static_assert(std::is_same_v<decltype(std::declval<st::array<bool, 1>&>() + std::declval<st::array<bool, 1>&>())::value_type, bool>);
  static_assert(std::is_same_v<decltype(std::declval<st::array<bool, 1>&>() * true)::value_type, bool>);
  std::mt19937 g(7);
  for (const index_t n : sizes) {
    CAPTURE(n);
    std::vector<bool> a(usize(n)), b(usize(n));
    st::array<bool, 1> x({n}), y({n});
    for (std::size_t i = 0; i != usize(n); ++i) {
      a[i] = (g() & 1u) != 0;
      b[i] = (g() & 1u) != 0;
      x.data()[i] = a[i];
      y.data()[i] = b[i];
    }
    const st::array<bool, 1> sum = x + y, prod = x * y, sum_t = x + true, prod_f = x * false;
    for (std::size_t i = 0; i != usize(n); ++i) {
      CHECK(sum.data()[i] == (a[i] || b[i]));
      CHECK(prod.data()[i] == (a[i] && b[i]));
      CHECK(sum_t.data()[i]);
      CHECK(!prod_f.data()[i]);
    }
  }
  const auto p = st::asarray<bool>({true, false, true, false}), q = st::asarray<bool>({true, true, false, false});
  const st::array<bool, 1> s = p + q, m = p * q;
  const bool np_sum[] = {true, true, true, false}, np_prod[] = {true, false, false, false};
  for (std::size_t i = 0; i != 4; ++i) {
    CHECK(s.data()[i] == np_sum[i]);
    CHECK(m.data()[i] == np_prod[i]);
  }
}

// ---- 4. where: the result type from x and the scalar only -----------------------

TEST_CASE("where: the condition's dtype never changes the result type (NumPy values)") {
  const auto c32 = st::asarray<float>({1.f, 0.f, -0.5f, std::numeric_limits<float>::quiet_NaN()});
  const auto c64 = st::cast<double>(c32);
  const auto x8 = st::asarray<std::int8_t>({1, -2, 3, 4});
  const auto y32 = st::asarray<std::int32_t>({5, 6, 7, 8});
  const auto sixteen = st::asarray<std::int32_t>({16, 16, 16, 16});
  const auto xf = st::asarray<float>({1.f, -2.f, 3.f, 4.f});

  // NumPy: float64 [1.0, 2.5, 3.0, 4.0], as sinter's int8 * 2.5 is double.
  const auto w1 = st::where(c32, x8, 2.5);
  static_assert(std::is_same_v<decltype(w1)::value_type, double>);
  static_assert(std::is_same_v<decltype(x8 * 2.5)::value_type, double>);
  // NumPy: float32 [0.5, 0.5, 1.5, 2.0].
  const auto w2 = st::where(c64, xf * 0.5f, 0.5);
  static_assert(std::is_same_v<decltype(w2)::value_type, float>);
  // NumPy: int32 [21, 16, 23, 24].
  const auto w3 = st::where(c32, y32, 0) | sixteen;
  static_assert(std::is_same_v<decltype(w3)::value_type, std::int32_t>);
  // Scalars on both sides: their own promotion (NumPy: float64).
  const auto w4 = st::where(c32, 1.0, 0);
  static_assert(std::is_same_v<decltype(w4)::value_type, double>);

  const st::array<double, 1> r1 = w1;
  const st::array<float, 1> r2 = w2;
  const st::array<std::int32_t, 1> r3 = w3;
  const st::array<double, 1> r4 = w4;
  const double e1[] = {1.0, 2.5, 3.0, 4.0}, e4[] = {1.0, 0.0, 1.0, 1.0};
  const float e2[] = {0.5f, 0.5f, 1.5f, 2.0f};
  const std::int32_t e3[] = {21, 16, 23, 24};
  for (std::size_t i = 0; i != 4; ++i) {
    CHECK(r1.data()[i] == e1[i]);
    CHECK(r2.data()[i] == e2[i]);
    CHECK(r3.data()[i] == e3[i]);
    CHECK(r4.data()[i] == e4[i]);
  }
}

// ---- 5. exact uint64 against signed comparisons -----------------------------------

constexpr std::uint64_t p53 = std::uint64_t{1} << 53;

TEST_CASE("comparisons: uint64 against int64 exactly (NumPy 2 values)") {
  const std::vector<std::uint64_t> u = {p53 + 1, ~std::uint64_t{0}, 0, 5, std::uint64_t{1} << 63,
                                        (std::uint64_t{1} << 63) - 1, p53};
  const std::vector<std::int64_t> i = {std::int64_t(p53), -1, -1, 5, INT64_MAX, INT64_MAX, std::int64_t(p53 + 1)};
  const auto a = from(u);
  const auto b = from(i);
  using bv = std::vector<int>;
  auto got = [](const auto& e) {
    const st::array<bool, 1> r = e;
    bv out;
    for (bool x : r) out.push_back(x ? 1 : 0);
    return out;
  };
  // NumPy 2.4: u OP i, then i OP u.
  CHECK(got(a == b) == bv{0, 0, 0, 1, 0, 1, 0});
  CHECK(got(a != b) == bv{1, 1, 1, 0, 1, 0, 1});
  CHECK(got(a < b) == bv{0, 0, 0, 0, 0, 0, 1});
  CHECK(got(a <= b) == bv{0, 0, 0, 1, 0, 1, 1});
  CHECK(got(a > b) == bv{1, 1, 1, 0, 1, 0, 0});
  CHECK(got(a >= b) == bv{1, 1, 1, 1, 1, 1, 0});
  CHECK(got(b == a) == bv{0, 0, 0, 1, 0, 1, 0});
  CHECK(got(b != a) == bv{1, 1, 1, 0, 1, 0, 1});
  CHECK(got(b < a) == bv{1, 1, 1, 0, 1, 0, 0});
  CHECK(got(b <= a) == bv{1, 1, 1, 1, 1, 1, 0});
  CHECK(got(b > a) == bv{0, 0, 0, 0, 0, 0, 1});
  CHECK(got(b >= a) == bv{0, 0, 0, 1, 0, 1, 1});
  // int32 against uint64 (the same path); int64 against uint32 (promoted to int64).
  const auto i32 = from(std::vector<std::int32_t>{-1, 0, 7, INT32_MIN, INT32_MAX, 3, 9});
  const auto u32 = from(std::vector<std::uint32_t>{UINT32_MAX, 0, 7, 1, 1u << 31, 3, 9});
  CHECK(got(i32 < a) == bv{1, 1, 0, 1, 1, 1, 1});
  CHECK(got(i32 == a) == bv{0, 0, 0, 0, 0, 0, 0});
  CHECK(got(b < u32) == bv{0, 1, 1, 0, 0, 0, 0});
  CHECK(got(b == u32) == bv{0, 0, 0, 0, 0, 0, 0});
  // With C++ scalars (converted to the array's type, so exact): NumPy 2.4.
  CHECK(got(a == std::int64_t(p53)) == bv{0, 0, 0, 0, 0, 0, 1});
  CHECK(got(a > p53) == bv{1, 1, 0, 0, 1, 1, 0});
  CHECK(got(b < p53 + 1) == bv{1, 1, 1, 1, 0, 0, 0});
}

TEST_CASE("comparisons: a C++ integer scalar beyond a 64-bit array's type compares exactly (NumPy 2 values)") {
  const auto u = from(std::vector<std::uint64_t>{0, 5, std::uint64_t{1} << 63, ~std::uint64_t{0}});
  const auto i = from(std::vector<std::int64_t>{INT64_MIN, -1, 0, INT64_MAX});
  const auto u32 = from(std::vector<std::uint32_t>{0, 7, UINT32_MAX});
  using bv = std::vector<int>;
  auto got = [](const auto& e) {
    const st::array<bool, 1> r = e;
    bv out;
    for (bool x : r) out.push_back(x ? 1 : 0);
    return out;
  };
  // NumPy 2.4 with Python ints: u > -1, u == -1, u <= -5, -1 != u.
  CHECK(got(u > -1) == bv{1, 1, 1, 1});
  CHECK(got(u == std::int64_t{-1}) == bv{0, 0, 0, 0});
  CHECK(got(u <= -5) == bv{0, 0, 0, 0});
  CHECK(got(-1 != u) == bv{1, 1, 1, 1});
  // i < 2**63, i >= 2**64 - 1, i == 2**63, 2**63 < i.
  CHECK(got(i < (std::uint64_t{1} << 63)) == bv{1, 1, 1, 1});
  CHECK(got(i >= ~std::uint64_t{0}) == bv{0, 0, 0, 0});
  CHECK(got(i == (std::uint64_t{1} << 63)) == bv{0, 0, 0, 0});
  CHECK(got((std::uint64_t{1} << 63) < i) == bv{0, 0, 0, 0});
  // u32 > np.int64(-1), u32 < -1 (an int64 scalar: exact too).
  CHECK(got(u32 > std::int64_t{-1}) == bv{1, 1, 1});
  CHECK(got(u32 < std::int64_t{-1}) == bv{0, 0, 0});
  // In range: unchanged. u > 2**63, i > -1.
  CHECK(got(u > (std::uint64_t{1} << 63)) == bv{0, 0, 0, 1});
  CHECK(got(i > -1) == bv{0, 0, 1, 1});
}

/// Values near the places an inexact comparison goes wrong: 2^53, 2^63, 0.
template <class T>
std::vector<T> edge_values(std::size_t n, std::mt19937_64& g) {
  std::vector<T> v(n);
  for (auto& x : v) {
    const std::uint64_t r = g();
    const std::uint64_t base[] = {p53, std::uint64_t{1} << 63, 0, r};
    const std::uint64_t off = (r >> 8) % 5;
    const std::uint64_t raw = base[(r >> 4) % 4] + off - 2;  // base - 2 .. base + 2, wrapping
    x = static_cast<T>(raw);
  }
  return v;
}

TEST_CASE_TEMPLATE("comparisons: mixed signedness against std::cmp_* on random data", S, std::int64_t, std::int32_t,
                   std::int8_t) {
  std::mt19937_64 g(53);
  for (const index_t n : sizes) {
    CAPTURE(n);
    const auto vu = edge_values<std::uint64_t>(usize(n), g);
    const auto vs = edge_values<S>(usize(n), g);
    const auto a = from(vu);
    const auto b = from(vs);
    const st::array<bool, 1> eq = a == b, ne = b != a, lt = a < b, le = b <= a, gt = a > b, ge = b >= a;
    for (std::size_t k = 0; k != usize(n); ++k) {
      CAPTURE(k);
      CHECK(eq.data()[k] == std::cmp_equal(vu[k], vs[k]));
      CHECK(ne.data()[k] == std::cmp_not_equal(vs[k], vu[k]));
      CHECK(lt.data()[k] == std::cmp_less(vu[k], vs[k]));
      CHECK(le.data()[k] == std::cmp_less_equal(vs[k], vu[k]));
      CHECK(gt.data()[k] == std::cmp_greater(vu[k], vs[k]));
      CHECK(ge.data()[k] == std::cmp_greater_equal(vs[k], vu[k]));
    }
  }
}

TEST_CASE("comparisons: floats and same-signedness integers unchanged") {
  const auto f = st::asarray<float>({1.5f, -0.f, 2.f, std::numeric_limits<float>::quiet_NaN()});
  const auto d = st::asarray<double>({1.5, 0.0, 2.0000001, 1.0});
  const st::array<bool, 1> eq = f == d, lt = f < d, ne = f != d;
  const bool e_eq[] = {true, true, false, false}, e_lt[] = {false, false, true, false},
             e_ne[] = {false, false, true, true};  // NumPy
  for (std::size_t i = 0; i != 4; ++i) {
    CHECK(eq.data()[i] == e_eq[i]);
    CHECK(lt.data()[i] == e_lt[i]);
    CHECK(ne.data()[i] == e_ne[i]);
  }
  const auto big = from(std::vector<std::int64_t>{INT64_MAX, INT64_MIN});
  const st::array<bool, 1> o = big > std::int64_t{INT64_MAX - 1};
  CHECK(o.data()[0]);
  CHECK(!o.data()[1]);
}

// ---- 6. maths functions of small integers: double (NumPy: float16/float32) --------

static_assert(std::is_same_v<st::floating_t<std::int8_t>, double>);
static_assert(std::is_same_v<st::floating_t<std::uint16_t>, double>);
static_assert(std::is_same_v<st::floating_t<bool>, double>);
static_assert(std::is_same_v<decltype(st::sin(std::declval<st::array<std::int16_t, 1>&>()))::value_type, double>);

}  // namespace types_papercuts_test
