// isclose, allclose, array_equal (compare.hpp): numpy values computed when
// this test was written (pasted as literals), and a double-precision scalar
// reference of numpy's formula on random data with NaN and infinities, odd
// and empty shapes, broadcasting, strided and reversed views, several dtypes,
// host and par at 1, 2 and 3 threads; every error path.
#include <sinter/sinter.hpp>

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

namespace st = sinter;
using st::index_t;

namespace {

/// numpy.isclose for one pair, computed in C (the type numpy computes in).
template <class C>
bool close_ref(C x, C y, double rtol, double atol, bool equal_nan) {
  if (std::isnan(x) || std::isnan(y)) return equal_nan && std::isnan(x) && std::isnan(y);
  if (x == y) return true;
  if (std::isinf(x) || std::isinf(y)) return false;
  return std::fabs(x - y) <= static_cast<C>(atol) + static_cast<C>(rtol) * std::fabs(y);
}

/// Pairs near each other at every scale, with NaN, ±inf and zeros mixed in.
template <class T, class P = st::host>
std::pair<st::array<T, 1, P>, st::array<T, 1, P>> near_pairs(index_t n, unsigned seed) {
  st::array<T, 1, P> a(st::extents<1>{{n}}), b(st::extents<1>{{n}});
  std::mt19937 g(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  std::uniform_int_distribution<int> e(-12, 12), kind(0, 40);
  const double inf = std::numeric_limits<double>::infinity(), nan = std::nan("");
  for (index_t i = 0; i < n; ++i) {
    const double x = u(g) * std::pow(10.0, e(g));
    double y = x * (1 + u(g) * 3e-5) + u(g) * 3e-8;
    double xx = x;
    switch (kind(g)) {
      case 0: xx = nan; break;
      case 1: y = nan; break;
      case 2: xx = y = nan; break;
      case 3: xx = y = inf; break;
      case 4: xx = -inf, y = inf; break;
      case 5: y = inf; break;
      case 6: xx = 0, y = 0; break;
      default: break;
    }
    a(i) = static_cast<T>(xx);
    b(i) = static_cast<T>(y);
  }
  return {std::move(a), std::move(b)};
}

}  // namespace

TEST_CASE("isclose: numpy's values, asymmetric, infinities and NaN") {
  const double inf = std::numeric_limits<double>::infinity(), nan = std::nan("");
  const auto a = st::asarray<double>({1e10, 1e-7, 1e-8, inf, -inf, nan, 0., 1.});
  const auto b = st::asarray<double>({1.00001e10, 1e-8, 1e-9, inf, inf, nan, nan, inf});
  // numpy 2: isclose(a, b), with equal_nan=True, and with rtol=0, atol=0.5.
  const std::vector<bool> plain{1, 0, 1, 1, 0, 0, 0, 0}, nans{1, 0, 1, 1, 0, 1, 0, 0}, abs_only{0, 1, 1, 1, 0, 0, 0, 0};
  const st::array<bool, 1> r1 = st::isclose(a, b), r2 = st::isclose(a, b, 1e-5, 1e-8, true),
                           r3 = st::isclose(a, b, 0, 0.5);
  CHECK(std::vector<bool>(r1.begin(), r1.end()) == plain);
  CHECK(std::vector<bool>(r2.begin(), r2.end()) == nans);
  CHECK(std::vector<bool>(r3.begin(), r3.end()) == abs_only);
  // Asymmetric: |1 - 1.1| <= 0.095 * |b| holds for b = 1.1, not for b = 1.
  const auto one = st::asarray<double>({1.0}), more = st::asarray<double>({1.1});
  CHECK(st::allclose(one, more, 0.095, 0));
  CHECK_FALSE(st::allclose(more, one, 0.095, 0));
  // Integers compute in double (numpy: int32 3, 4 vs int64 3, 5 with atol 0.9: [1, 0]; int8 ±100, atol 300: both).
  const st::array<bool, 1> ri = st::isclose(st::asarray<std::int32_t>({3, 4}), st::asarray<std::int64_t>({3, 5}), 0, 0.9);
  CHECK(std::vector<bool>(ri.begin(), ri.end()) == std::vector<bool>{1, 0});
  CHECK(st::allclose(st::asarray<std::int8_t>({100, -100}), st::asarray<std::int8_t>({-100, 100}), 0, 300));
  // float32 computes in float32 (numpy: isclose(float32(1e-8), 0) is True; 1 vs 1.00001: False).
  CHECK(st::allclose(st::asarray<float>({1e-8f}), 0.0f));
  CHECK_FALSE(st::allclose(st::asarray<float>({1.f}), st::asarray<float>({1.00001f})));
}

TEST_CASE("isclose against the reference: dtypes, broadcasting, views") {
  for (index_t n : {0, 1, 7, 1031}) {
    CAPTURE(n);
    const auto [a, b] = near_pairs<double>(n, static_cast<unsigned>(n) + 1);
    for (double rtol : {0.0, 1e-5, 1e-3})
      for (double atol : {0.0, 1e-8, 1.0})
        for (bool en : {false, true}) {
          const st::array<bool, 1> r = st::isclose(a, b, rtol, atol, en);
          bool ok = true;
          for (index_t i = 0; i < n; ++i) ok = ok && r(i) == close_ref<double>(a(i), b(i), rtol, atol, en);
          CHECK(ok);
        }
    const auto [fa, fb] = near_pairs<float>(n, static_cast<unsigned>(n) + 2);
    const st::array<bool, 1> rf = st::isclose(fa, fb);
    bool ok = true;
    for (index_t i = 0; i < n; ++i) ok = ok && rf(i) == close_ref<float>(fa(i), fb(i), 1e-5, 1e-8, false);
    CHECK(ok);
  }
  // A reversed strided view against a broadcast row; a matrix against a row.
  const auto [a, b] = near_pairs<double>(60, 9);
  const auto m = st::reshape(a, {6, 10});
  const auto row = b(st::slice(0, 10));
  const auto rv = m(st::slice(st::none, st::none, -2), st::slice(1, 10, 3));  // rows 5, 3, 1; columns 1, 4, 7
  const st::array<bool, 2> r = st::isclose(rv, row(st::slice(1, 10, 3)), 1e-3, 1e-8, true);
  bool ok = true;
  for (index_t i = 0; i < 3; ++i)
    for (index_t j = 0; j < 3; ++j)
      ok = ok && r(i, j) == close_ref<double>(m(5 - 2 * i, 1 + 3 * j), row(1 + 3 * j), 1e-3, 1e-8, true);
  CHECK(ok);
  // Mixed types promote as arithmetic does (float with double: double); a scalar operand.
  const auto [fa, fb] = near_pairs<float>(100, 10);
  const auto [da, db] = near_pairs<double>(100, 12);
  const st::array<bool, 1> mixed = st::isclose(fa, db * 1.0);
  ok = true;
  for (index_t i = 0; i < 100; ++i) ok = ok && mixed(i) == close_ref<double>(fa(i), db(i), 1e-5, 1e-8, false);
  CHECK(ok);
  const st::array<bool, 1> sc = st::isclose(st::asarray<double>({2.0, 2.1}), 2.0);
  CHECK((sc(0) && !sc(1)));
}

TEST_CASE("allclose: a fused reduction on host and par, 1 to 3 threads") {
  const index_t n = (index_t{1} << 20) + 3;
  st::array<float, 1, st::par> a(st::extents<1>{{n}}), b(st::extents<1>{{n}});
  std::mt19937 g(11);
  std::uniform_real_distribution<float> u(-1000, 1000);
  for (index_t i = 0; i < n; ++i) a(i) = b(i) = u(g);
  for (int t : {1, 2, 3}) {
    st::set_num_threads(t);
    CHECK(st::allclose(a, b));
    b(n - 1) = a(n - 1) + 1;  // the last element only
    CHECK_FALSE(st::allclose(a, b));
    CHECK(st::allclose(a, b, 0, 1.5));
    b(n - 1) = a(n - 1);
    const st::trace_scope trace;
    CHECK(st::allclose(a, st::flip(st::flip(b, 0), 0)));
    CHECK(trace.allocations() == 0);
  }
  st::set_num_threads(2);
  CHECK(st::allclose(st::array<double, 2>(st::extents<2>{{0, 3}}), 1.0));  // empty: true
  const double nan = std::nan("");
  CHECK_FALSE(st::allclose(st::asarray<double>({nan}), st::asarray<double>({nan})));
  CHECK(st::allclose(st::asarray<double>({nan}), st::asarray<double>({nan}), 1e-5, 1e-8, true));
}

TEST_CASE("array_equal: shapes, NaN, dtypes, par") {
  const auto a = st::asarray<int>({{1, 2, 3}, {4, 5, 6}});
  CHECK(st::array_equal(a, st::reshape(st::arange<int>(1, 7), {2, 3})));
  CHECK_FALSE(st::array_equal(a, st::reshape(st::arange<int>(1, 7), {3, 2})));  // same size, other shape
  CHECK_FALSE(st::array_equal(a, st::arange<int>(1, 7)));                       // other rank
  CHECK_FALSE(st::array_equal(a, a(st::slice(0, 1), st::all)));                 // broadcastable is not equal
  CHECK(st::array_equal(a, st::cast<double>(a)));
  CHECK_FALSE(st::array_equal(a, st::cast<double>(a) + 1e-9));
  const double nan = std::nan("");
  const auto n1 = st::asarray<double>({1, nan}), n2 = st::asarray<double>({1, nan}), n3 = st::asarray<double>({nan, 1});
  CHECK_FALSE(st::array_equal(n1, n2));
  CHECK(st::array_equal(n1, n2, true));
  CHECK_FALSE(st::array_equal(n1, n3, true));
  CHECK(st::array_equal(st::array<float, 1>(st::extents<1>{{0}}), st::array<float, 1>(st::extents<1>{{0}})));
  st::array<std::int16_t, 1, st::par> p(st::extents<1>{{200003}});
  p = st::cast<std::int16_t>(st::arange<int>(200003) % 1000);
  for (int t : {1, 3}) {
    st::set_num_threads(t);
    CHECK(st::array_equal(p, st::cast<std::int16_t>(st::arange<int>(200003) % 1000)));
    CHECK_FALSE(st::array_equal(p, st::roll(p, 1, 0)));
  }
  st::set_num_threads(2);
}

TEST_CASE("isclose and allclose: errors") {
  const auto a = st::asarray<double>({1, 2, 3});
  const auto b = st::asarray<double>({1, 2});
  CHECK_THROWS_AS(st::isclose(a, b), st::shape_error);
  CHECK_THROWS_AS(st::allclose(a, b), st::shape_error);
  CHECK_THROWS_WITH_AS(st::isclose(a, a, -1e-5), doctest::Contains("sinter::isclose: rtol and atol must be non-negative"),
                       st::value_error);
  CHECK_THROWS_WITH_AS(st::allclose(a, a, 1e-5, std::nan("")), doctest::Contains("non-negative"), st::value_error);
}
