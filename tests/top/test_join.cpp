// sinter::concatenate, stack and split (join.hpp) against plain scalar
// references computed here from the pieces' elements: random data with
// NaN, empty and size-1 axes, odd sizes, strided and reversed pieces,
// several dtypes and mixed ones, host and par on 1, 2 and 3 threads, every
// error path with the output unchanged, aliasing, and the CUDA kernel body
// on the grid emulator.
#include <doctest/doctest.h>

#include "support/index_refs.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <sinter/join.hpp>
#include <sinter/sinter.hpp>
#include <string>
#include <vector>

namespace st = sinter;
using st::index_t;
using st::slice;

namespace {

template <class T>
void fill_random(T* p, index_t n, std::uint32_t seed) {
  std::mt19937 g(seed);
  for (index_t i = 0; i < n; ++i) {
    if constexpr (std::is_floating_point_v<T>)
      p[i] = g() % 17 == 0 ? std::numeric_limits<T>::quiet_NaN() : static_cast<T>(std::uniform_real_distribution<double>(-5, 5)(g));
    else
      p[i] = static_cast<T>(g());
  }
}

/// A piece for the reference: pointer, shape, strides (host memory).
template <class T, std::size_t R>
struct ref_piece {
  const T* p;
  st::extents<R> shape, strides;
};
template <class V>
ref_piece<std::remove_const_t<typename V::element_type>, V::rank> piece_of(const V& v) {
  return {v.data(), v.shape(), v.strides()};
}

/// numpy.concatenate by its definition, in double-free scalar steps.
template <class V, class T, std::size_t R>
std::vector<V> ref_concat(const std::vector<ref_piece<T, R>>& ps, std::size_t axis, st::extents<R>& shape) {
  shape = ps[0].shape;
  shape[axis] = 0;
  for (const auto& p : ps) shape[axis] += p.shape[axis];
  std::vector<V> out(static_cast<std::size_t>(st::detail::shape_size(shape)));
  for (index_t k = 0; k < static_cast<index_t>(out.size()); ++k) {
    auto c = index_refs::unflat(k, shape);
    std::size_t q = 0;
    while (c[axis] >= ps[q].shape[axis]) c[axis] -= ps[q++].shape[axis];
    out[static_cast<std::size_t>(k)] = static_cast<V>(index_refs::at(ps[q].p, ps[q].strides, c));
  }
  return out;
}

template <class A, class V>
void check_equal(const A& got, const std::vector<V>& want) {
  REQUIRE(static_cast<std::size_t>(got.size()) == want.size());
  std::size_t bad = 0;
  std::size_t i = 0;
  for (auto v : got) bad += !index_refs::same(static_cast<V>(v), want[i++]);
  CHECK(bad == 0);
}

template <class T, class P>
st::array<T, 1, P> random_array(index_t n, std::uint32_t seed) {
  st::array<T, 1, P> a({n});
  fill_random(a.data(), n, seed);
  return a;
}

}  // namespace

TEST_CASE("concatenate 1-D: odd sizes, NaN, empty and size-1 pieces, host and par") {
  for (int threads : {1, 2, 3}) {
    st::set_num_threads(threads);
    for (index_t n0 : {index_t{0}, index_t{1}, index_t{7}, index_t{1000}, index_t{(1 << 20) + 3}})
      for (index_t n1 : {index_t{0}, index_t{1}, index_t{33}}) {
        if (n0 > 2000 && (n1 != 33 || threads == 1)) continue;  // the large case once per thread count
        const auto a = random_array<float, st::par>(n0, 1u + static_cast<std::uint32_t>(n0));
        const auto b = random_array<float, st::par>(n1, 7u + static_cast<std::uint32_t>(n1));
        const auto c = random_array<float, st::par>(5, 3u);
        st::extents<1> shape;
        const auto want = ref_concat<float>(std::vector{piece_of(a()), piece_of(b()), piece_of(c())}, 0, shape);
        st::array<float, 1, st::par> got = st::concatenate({a(), b(), c()});
        CHECK(got.shape() == shape);
        check_equal(got, want);
        st::array<float, 1> host_got = st::concatenate(std::tie(a, b, c), -1);
        check_equal(host_got, want);
      }
  }
  st::set_num_threads(0);
}

TEST_CASE("concatenate 2-D and 3-D along every axis, strided and reversed pieces") {
  st::array<double, 3> x({4, 6, 10}), y({4, 6, 10});
  fill_random(x.data(), x.size(), 11);
  fill_random(y.data(), y.size(), 12);
  for (int axis = -3; axis < 3; ++axis) {
    const std::size_t ax = static_cast<std::size_t>(axis < 0 ? axis + 3 : axis);
    // piece 0: x with its axis ax reversed; piece 1: y stepped by 2 along ax; piece 2: a size-1 slab
    const auto rev = [&] {
      auto sh = x.shape(), str = x.strides();
      const index_t off = (sh[ax] - 1) * str[ax];
      str[ax] = -str[ax];
      return st::view<double, 3>(x.data() + off, sh, str);
    }();
    const auto stp = [&] {
      auto sh = y.shape(), str = y.strides();
      sh[ax] = (sh[ax] + 1) / 2;
      str[ax] *= 2;
      return st::view<double, 3>(y.data(), sh, str);
    }();
    const auto one = [&] {
      auto sh = y.shape();
      sh[ax] = 1;
      return st::view<double, 3>(y.data() + y.strides()[ax], sh, y.strides());
    }();
    st::extents<3> shape;
    const auto want = ref_concat<double>(std::vector{piece_of(rev), piece_of(stp), piece_of(one)}, ax, shape);
    st::array<double, 3> got = st::concatenate({rev, stp, one}, axis);
    CHECK(got.shape() == shape);
    check_equal(got, want);
    st::array<double, 3, st::par> pgot = st::concatenate({rev, stp, one}, axis) * 1.0;
    check_equal(pgot, want);
  }
  // 2-D with an empty axis: (3, 0) + (3, 0) along 0 is (6, 0); along 1, (3, 0) + (3, 2) is (3, 2)
  st::array<int, 2> e({3, 0}), f({3, 2});
  fill_random(f.data(), 6, 5);
  st::array<int, 2> g = st::concatenate({e(), e()}, 0);
  CHECK(g.shape() == st::extents<2>{6, 0});
  st::array<int, 2> h = st::concatenate({e(), f()}, 1);
  CHECK(h.shape() == st::extents<2>{3, 2});
  for (index_t i = 0; i < 3; ++i)
    for (index_t j = 0; j < 2; ++j) CHECK(h(i, j) == f(i, j));
}

TEST_CASE("concatenate: more than four pieces, and a transposed piece") {
  std::vector<st::array<std::int16_t, 2>> arrs;
  std::vector<st::view<std::int16_t, 2>> views;
  for (int k = 0; k < 7; ++k) {
    arrs.emplace_back(st::extents<2>{3, index_t{k % 3}});
    fill_random(arrs.back().data(), arrs.back().size(), 20u + static_cast<std::uint32_t>(k));
  }
  for (auto& a : arrs) views.push_back(a());
  st::array<std::int16_t, 2> t({4, 3});
  fill_random(t.data(), 12, 9);
  views.push_back(st::transpose(t()));
  std::vector<ref_piece<std::int16_t, 2>> ps;
  for (const auto& v : views) ps.push_back(piece_of(v));
  st::extents<2> shape;
  const auto want = ref_concat<std::int16_t>(ps, 1, shape);
  const auto& v = views;
  st::array<std::int16_t, 2> got = st::concatenate({v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7]}, 1);
  CHECK(got.shape() == shape);
  check_equal(got, want);
}

TEST_CASE("concatenate: mixed element types promote as arithmetic does") {
  st::array<std::int32_t, 1> i({9});
  st::array<float, 1> f({4});
  st::array<std::uint8_t, 1> u({5});
  st::array<std::int8_t, 1> s({6});
  fill_random(i.data(), 9, 1);
  fill_random(f.data(), 4, 2);
  fill_random(u.data(), 5, 3);
  fill_random(s.data(), 6, 4);
  const auto c = st::concatenate(std::tie(i, f));
  static_assert(std::is_same_v<decltype(c)::value_type, float>);
  std::vector<float> want;
  for (auto x : i) want.push_back(static_cast<float>(x));
  for (auto x : f) want.push_back(x);
  check_equal(st::eval(c), want);
  const auto d = st::concatenate(std::forward_as_tuple(u, s, u * std::uint8_t{2}));  // uint8 + int8: int16
  static_assert(std::is_same_v<decltype(d)::value_type, std::int16_t>);
  std::vector<std::int16_t> w2;
  for (auto x : u) w2.push_back(x);
  for (auto x : s) w2.push_back(x);
  for (auto x : u) w2.push_back(static_cast<std::uint8_t>(x * 2));
  check_equal(st::eval(d), w2);
}

TEST_CASE("an expression of a concatenation is one pass that copies nothing") {
  const auto a = random_array<float, st::host>(1001, 1), b = random_array<float, st::host>(77, 2);
  st::array<float, 1> out({1078});
  st::trace_scope t;
  out = st::exp(st::concatenate({a(), b()})) + 1.f;
  REQUIRE(t.passes().size() == 1);
  CHECK(t.allocations() == 0);
  CHECK(t.passes()[0].expression.find("concatenate") != std::string::npos);
  std::size_t bad = 0;
  for (index_t k = 0; k < 1078; ++k) {
    const float x = k < 1001 ? a(k) : b(k - 1001);
    const st::array<float, 1> one = st::exp(st::full<float>({1}, x)) + 1.f;
    bad += !index_refs::same(out(k), one(0));
  }
  CHECK(bad == 0);
}

TEST_CASE("stack along every axis, host and par") {
  st::array<float, 2> a({3, 5}), b({3, 5});
  fill_random(a.data(), 15, 1);
  fill_random(b.data(), 15, 2);
  const auto bt = b(slice(st::none, st::none, -1), slice());  // b with its rows reversed
  for (int axis = -3; axis < 3; ++axis) {
    const std::size_t ax = static_cast<std::size_t>(axis < 0 ? axis + 3 : axis);
    st::array<float, 3> got = st::stack({a(), bt, a()}, axis);
    st::array<float, 3, st::par> pgot = st::stack(std::tie(a, bt, a), axis);
    st::extents<3> want_shape{};
    for (std::size_t d = 0, s = 0; d != 3; ++d) want_shape[d] = d == ax ? 3 : a.shape()[s++];
    CHECK(got.shape() == want_shape);
    std::size_t bad = 0;
    for (index_t k = 0; k < 45; ++k) {
      const auto c = index_refs::unflat(k, want_shape);
      st::extents<2> e{};
      for (std::size_t d = 0, s = 0; d != 3; ++d)
        if (d != ax) e[s++] = c[d];
      const float w = c[ax] == 1 ? b(2 - e[0], e[1]) : a(e[0], e[1]);
      bad += !index_refs::same(got.data()[k], w) + !index_refs::same(pgot.data()[k], w);
    }
    CHECK(bad == 0);
  }
}

TEST_CASE("split: equal sections and indices are views") {
  st::array<int, 2> x({6, 4});
  for (int k = 0; k < 24; ++k) x.data()[k] = k;
  auto parts = st::split(x, 3, 0);
  REQUIRE(parts.size() == 3);
  CHECK(parts[1].shape() == st::extents<2>{2, 4});
  CHECK(parts[1](0, 0) == 8);
  parts[2] = -1;  // writes through
  CHECK(x(5, 3) == -1);
  CHECK(x(3, 3) == 15);
  const auto cols = st::split(x, {1, -1, 10}, 1);  // x[:, :1], x[:, 1:3], x[:, 3:4], x[:, 4:]
  REQUIRE(cols.size() == 4);
  CHECK(cols[0].shape() == st::extents<2>{6, 1});
  CHECK(cols[1].shape() == st::extents<2>{6, 2});
  CHECK(cols[2].shape() == st::extents<2>{6, 1});
  CHECK(cols[3].shape() == st::extents<2>{6, 0});
  CHECK(cols[1](1, 1) == 6);
  const auto back = st::split(x, {3, 1}, 0);  // x[:3], x[3:1] (empty), x[1:]
  CHECK(back[1].shape()[0] == 0);
  CHECK(back[2].shape()[0] == 5);
  const auto rev = st::split(x(slice(st::none, st::none, -1)), 2, -2);
  CHECK(rev[0](0, 0) == -1);
  CHECK(rev[1](0, 0) == 8);
  st::array<int, 2> joined = st::concatenate({parts[0], parts[1], parts[2]});
  CHECK(std::memcmp(joined.data(), x.data(), sizeof(int) * 24) == 0);
}

TEST_CASE("join errors name the shapes and the axis; the output is unchanged") {
  st::array<float, 2> a({2, 3}), b({2, 4}), out({4, 3});
  out = 5.f;
  try {
    out = st::concatenate({a(), b()}, 0);
    FAIL("no throw");
  } catch (const st::shape_error& e) {
    const std::string m = e.what();
    CHECK(m.find("(2, 3)") != std::string::npos);
    CHECK(m.find("(2, 4)") != std::string::npos);
    CHECK(m.find("axis 0") != std::string::npos);
  }
  CHECK_THROWS_AS(out = st::stack({a(), b()}, 1), st::shape_error);
  try {
    out = st::stack(std::tie(a, b), 1);
  } catch (const st::shape_error& e) {
    CHECK(std::string(e.what()).find("(2, 4)") != std::string::npos);
  }
  CHECK_THROWS_AS(out = st::concatenate({a(), a()}, 2), st::value_error);
  CHECK_THROWS_AS(out = st::concatenate({a(), a()}, -3), st::value_error);
  CHECK_THROWS_AS(st::split(a, 2, 1), st::value_error);
  CHECK_THROWS_AS(st::split(a, 0, 0), st::value_error);
  CHECK_THROWS_AS(st::split(a, 1, 2), st::value_error);
  std::size_t changed = 0;
  for (auto v : out) changed += v != 5.f;
  CHECK(changed == 0);
  // the result would not fit the output: assign's shape_error, nothing written
  CHECK_THROWS_AS(out() = st::concatenate({a(), a(), a()}, 1) * 1.f, st::shape_error);
  for (auto v : out) changed += v != 5.f;
  CHECK(changed == 0);
}

TEST_CASE("aliasing: the output among the pieces gives NumPy's result") {
  for (int threads : {1, 2}) {
    st::set_num_threads(threads);
    const index_t n = 70001;
    st::array<float, 1, st::par> x({n});
    fill_random(x.data(), n, 3);
    std::vector<float> old(x.begin(), x.end());
    x = st::concatenate({x(slice(1, st::end)), x(slice(0, 1))});  // numpy.roll(x, -1)
    std::size_t bad = 0;
    for (index_t k = 0; k < n; ++k) bad += !index_refs::same(x(k), old[static_cast<std::size_t>((k + 1) % n)]);
    CHECK(bad == 0);
    // a view of x beside the concatenation: the lagged route must not take it
    old.assign(x.begin(), x.end());
    // (the concatenation reads positions behind the ones written: x[j - 3])
    x(slice(1, st::end)) = x(slice(0, -1)) + st::concatenate({x(slice(n - 3, st::end)), x(slice(0, n - 4))});
    for (index_t k = 1; k < n; ++k) {
      const index_t j = k - 1;
      const float c = old[static_cast<std::size_t>(j < 3 ? n - 3 + j : j - 3)];
      bad += !index_refs::same(x(k), old[static_cast<std::size_t>(j)] + c);
    }
    CHECK(bad == 0);
    // 2-D: rows rotated
    st::array<double, 2> m({5, 3});
    fill_random(m.data(), 15, 8);
    const std::vector<double> om(m.begin(), m.end());
    m = st::concatenate({m(slice(2, st::end)), m(slice(0, 2))}, 0);
    for (index_t k = 0; k < 15; ++k) bad += !index_refs::same(m.data()[k], om[static_cast<std::size_t>((k + 6) % 15)]);
    CHECK(bad == 0);
  }
  st::set_num_threads(0);
}

TEST_CASE("concatenate in the CUDA kernel body, on the grid emulator") {
  namespace rcd = st::detail::cuda_detail;
  const auto a = random_array<float, st::host>(1003, 1), b = random_array<float, st::host>(29, 2);
  st::array<std::int32_t, 2> m({7, 5}), p({3, 5});
  fill_random(m.data(), 35, 3);
  fill_random(p.data(), 15, 4);
  const auto run = [](const auto& e, auto& out, unsigned grid, unsigned block) {
    const auto o = out.leaf();
    const auto bound = st::detail::as_expr(e).node().bind(o.shape);
    const rcd::kernel_plan plan = rcd::choose_plan(o, bound);
    const auto n = st::detail::shape_size(o.shape);
    const auto sources = rcd::find_leaf_sources(bound);
    for (unsigned g = 0; g < grid; ++g)
      for (unsigned t = 0; t < block; ++t)
        rcd::fused_body<std::int64_t, false>(o, bound, sources, n, plan.path, static_cast<std::int64_t>(plan.head),
                                             static_cast<std::int64_t>(g) * block + t,
                                             static_cast<std::int64_t>(grid) * block);
  };
  for (unsigned grid : {1u, 5u})
    for (unsigned block : {1u, 64u}) {
      const auto e = st::concatenate({a(), b(slice(st::none, st::none, -1))}) * 2.f;  // exact: host and body agree
      st::array<float, 1> got({1032}), want = e;
      got = 0.f;
      run(e, got, grid, block);
      std::size_t bad = 0;  // NaN-aware: the NaN's payload may differ between the host's vector exp and the body's
      for (index_t k = 0; k < 1032; ++k) bad += !index_refs::same(got(k), want(k));
      CHECK(bad == 0);
      const auto f = st::concatenate(std::tie(m, p), 0) * 3;
      st::array<std::int32_t, 2> g2({10, 5}), w2 = f;
      g2 = 0;
      run(f, g2, grid, block);
      CHECK(std::memcmp(g2.data(), w2.data(), sizeof(std::int32_t) * 50) == 0);
    }
}

TEST_CASE("a bare concatenation assigned is one copy per piece; views, strides, par, mixed types") {
  st::array<double, 2> a({37, 13}), b({12, 13}), c({37, 6});
  fill_random(a.data(), 37 * 13, 11);
  fill_random(b.data(), 12 * 13, 12);
  fill_random(c.data(), 37 * 6, 13);
  const auto br = b(slice(st::none, st::none, -1), st::all);  // reversed rows
  const auto cs = c(st::all, slice(0, st::end, 2));          // (37, 3), strided
  st::extents<2> s0{}, s1{};
  const auto w0 = ref_concat<double>(std::vector<ref_piece<double, 2>>{piece_of(a()), piece_of(br), piece_of(a(slice(1, 4), st::all))}, 0, s0);
  const auto w1 = ref_concat<double>(std::vector<ref_piece<double, 2>>{piece_of(cs), piece_of(a()), piece_of(cs)}, 1, s1);
  for (int threads : {1, 2, 3}) {
    CAPTURE(threads);
    st::set_num_threads(threads);
    {
      st::trace_scope t;
      st::array<double, 2> r0 = st::concatenate({a(), br, a(slice(1, 4), st::all)}, 0);
      CHECK(t.passes().size() == 3);  // one copy per piece, not one pass selecting per element
      check_equal(r0, w0);
    }
    st::array<double, 2, st::par> r1({37, 19});
    r1 = st::concatenate({cs, a(), cs}, 1);
    check_equal(r1, w1);
    st::array<double, 2> big({80, 50});  // into a strided, reversed view of a larger array
    big = -1.0;
    auto dst = big(slice(74, st::none, -2), slice(1, 39, 2));  // (38, 19)
    dst(slice(0, 37), st::all) = st::concatenate({cs, a(), cs}, -1);
    check_equal(st::eval(dst(slice(0, 37), st::all)), w1);
    std::size_t outside = 0;  // nothing written outside the destination
    for (index_t i = 0; i < 80; ++i)
      for (index_t j = 0; j < 50; ++j)
        outside += !(i <= 74 && i >= 2 && i % 2 == 0 && j % 2 == 1 && j < 38 && i >= 2 * (74 / 2 - 36)) && big(i, j) != -1.0;
    CHECK(outside == 0);
  }
  st::set_num_threads(0);
  // stack (a new axis of stride 0 in each piece), and an odd 1-D case
  const auto u = random_array<float, st::host>(1021, 14), v = random_array<float, st::host>(1021, 15);
  st::array<float, 2> sk = st::stack({u(), v(slice(st::none, st::none, -1))}, 1);
  std::size_t bad = 0;
  for (index_t k = 0; k < 1021; ++k) bad += !index_refs::same(sk(k, 0), u(k)) + !index_refs::same(sk(k, 1), v(1020 - k));
  CHECK(bad == 0);
  // mixed types (the per-element pass), and a broadcast into a larger output
  const auto i16 = st::eval(st::cast<std::int16_t>(st::arange<int>(7)));
  st::array<float, 1> mixed = st::concatenate(std::tie(i16, u), 0);
  CHECK(mixed(6) == 6.f);
  CHECK(index_refs::same(mixed(7 + 1020), u(1020)));
  st::array<float, 2> wide({3, 2042});
  wide = st::concatenate({u(), v()});
  bad = 0;
  for (index_t r = 0; r < 3; ++r)
    for (index_t k = 0; k < 2042; ++k) bad += !index_refs::same(wide(r, k), k < 1021 ? u(k) : v(k - 1021));
  CHECK(bad == 0);
}
