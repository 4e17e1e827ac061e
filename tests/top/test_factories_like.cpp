// empty_like, zeros_like, ones_like, full_like, eye, identity (factories.hpp)
// and meshgrid, indices (meshgrid.hpp) against closed forms written from
// numpy's definitions: shapes, policies and dtypes of the results, odd and
// empty extents, strided and reversed inputs, par at 1, 2 and 3 threads,
// and the errors.
#include <sinter/sinter.hpp>

#include <doctest/doctest.h>

#include <cstdint>
#include <type_traits>
#include <vector>

namespace st = sinter;
using st::index_t;

TEST_CASE("*_like: shape, policy and dtype of the operand, or the dtype given") {
  st::array<float, 2, st::par> a(st::extents<2>{{3, 5}});
  a = 1.5f;
  auto e = st::empty_like(a);
  static_assert(std::is_same_v<decltype(e), st::array<float, 2, st::par>>);
  CHECK(e.shape() == a.shape());
  auto z = st::zeros_like(a);
  auto o = st::ones_like<std::int8_t>(a);
  static_assert(std::is_same_v<decltype(o), st::array<std::int8_t, 2, st::par>>);
  auto f = st::full_like(a, 2.75);  // the value converts to a's dtype
  static_assert(std::is_same_v<decltype(f), st::array<float, 2, st::par>>);
  auto fd = st::full_like<double>(a, 2.75);
  for (index_t i = 0; i < 3; ++i)
    for (index_t j = 0; j < 5; ++j) {
      CHECK(z(i, j) == 0.f);
      CHECK(o(i, j) == 1);
      CHECK(f(i, j) == 2.75f);
      CHECK(fd(i, j) == 2.75);
    }
  // Of a view (its shape, not its parent's), an expression, a generator (host).
  const auto v = a(st::slice(st::none, st::none, -2), st::slice(1, 4));
  CHECK(st::zeros_like(v).shape() == st::extents<2>{{2, 3}});
  auto x = st::ones_like(v * 2 + st::arange<float>(3));
  static_assert(std::is_same_v<decltype(x), st::array<float, 2, st::par>>);
  auto g = st::full_like<int>(st::arange<double>(7), -3);
  static_assert(std::is_same_v<decltype(g), st::array<int, 1, st::host>>);
  CHECK(std::vector<int>(g.begin(), g.end()) == std::vector<int>(7, -3));
  CHECK(st::zeros_like(st::array<double, 3>(st::extents<3>{{2, 0, 4}})).size() == 0);
  // Large, on par at 1 to 3 threads.
  st::array<double, 1, st::par> big(st::extents<1>{{100003}});
  for (int t : {1, 2, 3}) {
    st::set_num_threads(t);
    const auto ones = st::ones_like<std::uint16_t>(big);
    bool ok = ones.size() == 100003;
    for (index_t i = 0; ok && i < ones.size(); ++i) ok = ones(i) == 1;
    CHECK(ok);
  }
  st::set_num_threads(2);
}

TEST_CASE("eye and identity: lazy, any diagonal, rectangular and empty") {
  for (index_t n : {0, 1, 4, 7})
    for (index_t m : {index_t{-1}, index_t{0}, index_t{3}, index_t{9}})
      for (index_t k : {-8, -2, 0, 1, 5}) {
        CAPTURE(n);
        CAPTURE(m);
        CAPTURE(k);
        const st::array<float, 2> e = st::eye<float>(n, m, k);
        const index_t cols = m == -1 ? n : m;
        CHECK(e.shape() == st::extents<2>{{n, cols}});
        bool ok = true;
        for (index_t i = 0; i < n; ++i)
          for (index_t j = 0; j < cols; ++j) ok = ok && e(i, j) == (j - i == k ? 1.f : 0.f);
        CHECK(ok);
      }
  const st::array<int, 2> id = st::identity<int>(5);
  for (index_t i = 0; i < 5; ++i)
    for (index_t j = 0; j < 5; ++j) CHECK(id(i, j) == (i == j));
  // Views of the generator: a transpose, a reversed slice; fused into arithmetic.
  const st::array<double, 2> t = st::transpose(st::eye(3, 4, 1));
  for (index_t i = 0; i < 4; ++i)
    for (index_t j = 0; j < 3; ++j) CHECK(t(i, j) == (i - j == 1 ? 1.0 : 0.0));
  const st::array<double, 2> r = st::eye(4)(st::slice(st::none, st::none, -1), st::all) * 2.0;
  for (index_t i = 0; i < 4; ++i)
    for (index_t j = 0; j < 4; ++j) CHECK(r(i, j) == (i + j == 3 ? 2.0 : 0.0));
  st::set_num_threads(3);
  const st::array<float, 2, st::par> big = st::eye<float>(513, 257, -3);
  bool ok = true;
  for (index_t i = 0; i < 513; ++i)
    for (index_t j = 0; j < 257; ++j) ok = ok && big(i, j) == (j - i == -3 ? 1.f : 0.f);
  CHECK(ok);
  st::set_num_threads(2);
  CHECK_THROWS_WITH_AS(st::eye(-1), doctest::Contains("sinter::eye"), st::value_error);
  CHECK_THROWS_AS(st::eye(2, -3), st::value_error);
  CHECK_THROWS_AS(st::identity(-2), st::value_error);
}

TEST_CASE("meshgrid: lazy broadcast views, xy and ij") {
  const auto x = st::asarray<float>({1, 2, 3});
  const auto y = st::asarray<float>({10, 20});
  auto [gx, gy] = st::meshgrid(x, y);  // xy: shape (2, 3)
  CHECK(gx.shape() == st::extents<2>{{2, 3}});
  CHECK(gy.shape() == st::extents<2>{{2, 3}});
  for (index_t i = 0; i < 2; ++i)
    for (index_t j = 0; j < 3; ++j) {
      CHECK(gx(i, j) == x(j));
      CHECK(gy(i, j) == y(i));
    }
  CHECK(gx.data() == x.data());  // a view: no copy
  // Three vectors, ij and xy; a reversed strided view, a generator, an rvalue array.
  const auto src = st::eval(st::arange<double>(10));
  const auto rv = src(st::slice(8, st::none, -3));  // 8, 5, 2, (-1 stops)
  auto [a, b, c] = st::meshgrid<st::indexing::ij>(rv, st::arange<double>(4), st::eval(st::arange<double>(5) * 2.0));
  CHECK(a.shape() == st::extents<3>{{3, 4, 5}});
  auto [p, q, r] = st::meshgrid(rv, st::arange<double>(4), st::eval(st::arange<double>(5) * 2.0));
  CHECK(p.shape() == st::extents<3>{{4, 3, 5}});
  const st::array<double, 3> ea = a, eb = b, ec = c, ep = p, eq = q, er = r;
  bool ok = true;
  for (index_t i = 0; i < 3; ++i)
    for (index_t j = 0; j < 4; ++j)
      for (index_t k = 0; k < 5; ++k) {
        ok = ok && ea(i, j, k) == double(8 - 3 * i) && eb(i, j, k) == double(j) && ec(i, j, k) == 2.0 * double(k);
        ok = ok && ep(j, i, k) == double(8 - 3 * i) && eq(j, i, k) == double(j) && er(j, i, k) == 2.0 * double(k);
      }
  CHECK(ok);
  // One vector; an empty one.
  auto [only] = st::meshgrid(x);
  CHECK(only.shape() == st::extents<1>{{3}});
  auto [e0, e1] = st::meshgrid(st::arange<float>(0), x);
  CHECK(e0.shape() == st::extents<2>{{3, 0}});
  CHECK(st::eval(e1).size() == 0);
}

TEST_CASE("indices: numpy.indices, dtypes and policies") {
  const auto ij = st::indices({2, 3});
  static_assert(std::is_same_v<decltype(ij), const st::array<index_t, 3>>);
  CHECK(ij.shape() == st::extents<3>{{2, 2, 3}});
  for (index_t i = 0; i < 2; ++i)
    for (index_t j = 0; j < 3; ++j) {
      CHECK(ij(0, i, j) == i);
      CHECK(ij(1, i, j) == j);
    }
  st::set_num_threads(3);
  const auto big = st::indices<float, st::par>({5, 7, 1031});
  bool ok = big.shape() == st::extents<4>{{3, 5, 7, 1031}};
  for (index_t i = 0; ok && i < 5; ++i)
    for (index_t j = 0; j < 7; ++j)
      for (index_t k = 0; k < 1031; ++k)
        ok = ok && big(0, i, j, k) == float(i) && big(1, i, j, k) == float(j) && big(2, i, j, k) == float(k);
  CHECK(ok);
  st::set_num_threads(2);
  CHECK(st::indices<int>({4}).shape() == st::extents<2>{{1, 4}});
  CHECK(st::indices({3, 0}).size() == 0);
  CHECK_THROWS_WITH_AS(st::indices({2, -1}), doctest::Contains("sinter::indices"), st::value_error);
}
