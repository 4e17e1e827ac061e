// flip, roll, pad (rearrange.hpp) and diff, tile, repeat (rearrange_copy.hpp)
// against plain index loops written from numpy's definitions, on random
// data with NaN, odd and empty extents, strided and reversed sources, several
// dtypes, host and par at 1, 2 and 3 threads; aliasing (`x = roll(x, 1, 0)`)
// and every error path (the destination left unchanged).
#include <sinter/sinter.hpp>

#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace st = sinter;
using st::index_t;

namespace {

/// Random values of T in a small range; floating ones with a NaN every 17th.
template <class T, class P = st::host, std::size_t R>
st::array<T, R, P> rnd(const st::extents<R>& shape, unsigned seed) {
  st::array<T, R, P> a(shape);
  std::mt19937 g(seed);
  std::uniform_int_distribution<int> u(-100, 100);
  index_t i = 0;
  for (T& v : a) {
    if constexpr (std::is_same_v<T, bool>) v = u(g) > 0;
    else if constexpr (std::is_floating_point_v<T>)
      v = i % 17 == 5 ? std::numeric_limits<T>::quiet_NaN() : static_cast<T>(u(g)) / T(8);
    else v = static_cast<T>(u(g));
    ++i;
  }
  return a;
}

/// The elements in row-major order, as doubles.
template <class A>
std::vector<double> vals(const A& a) {
  std::vector<double> out;
  for (auto v : a) out.push_back(static_cast<double>(v));
  return out;
}

/// Equal element by element, NaN equal to NaN.
bool same(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i != a.size(); ++i)
    if (!(a[i] == b[i] || (std::isnan(a[i]) && std::isnan(b[i])))) return false;
  return true;
}

index_t wrap(index_t i, index_t n) { return ((i % n) + n) % n; }

/// numpy.roll of a 2-D row-major buffer along axis `ax` by s.
std::vector<double> roll_ref(const std::vector<double>& x, index_t r, index_t c, index_t s, int ax) {
  std::vector<double> out(x.size());
  for (index_t i = 0; i < r; ++i)
    for (index_t j = 0; j < c; ++j) {
      const index_t si = ax == 0 ? wrap(i - s, r) : i, sj = ax == 1 ? wrap(j - s, c) : j;
      out[static_cast<std::size_t>(i * c + j)] = x[static_cast<std::size_t>(si * c + sj)];
    }
  return out;
}

template <class T>
void check_roll_2d(index_t r, index_t c, unsigned seed) {
  const auto a = rnd<T>(st::extents<2>{{r, c}}, seed);
  const auto x = vals(a);
  for (index_t s : {-15, -1, 0, 1, 6, 7, 20})
    for (int ax : {0, 1, -1, -2}) {
      CAPTURE(s);
      CAPTURE(ax);
      const int a01 = ax < 0 ? ax + 2 : ax;
      st::array<T, 2> out = st::roll(a, s, ax);
      CHECK(out.shape() == a.shape());
      CHECK(same(vals(out), roll_ref(x, r, c, s, a01)));
    }
}

}  // namespace

TEST_CASE("flip: a view reversing one axis, or all") {
  for (auto shape : {st::extents<3>{{5, 1, 7}}, st::extents<3>{{3, 0, 2}}, st::extents<3>{{2, 3, 4}}}) {
    const auto a = rnd<float>(shape, 1);
    const auto x = vals(a);
    const index_t n0 = shape[0], n1 = shape[1], n2 = shape[2];
    auto at = [&](index_t i, index_t j, index_t k) { return x[static_cast<std::size_t>((i * n1 + j) * n2 + k)]; };
    for (index_t ax = -3; ax < 3; ++ax) {
      CAPTURE(ax);
      const st::array<float, 3> f = st::flip(a, ax);
      std::vector<double> ref;
      const index_t d = ax < 0 ? ax + 3 : ax;
      for (index_t i = 0; i < n0; ++i)
        for (index_t j = 0; j < n1; ++j)
          for (index_t k = 0; k < n2; ++k)
            ref.push_back(at(d == 0 ? n0 - 1 - i : i, d == 1 ? n1 - 1 - j : j, d == 2 ? n2 - 1 - k : k));
      CHECK(same(vals(f), ref));
    }
    std::vector<double> all;
    for (index_t i = n0; i-- > 0;)
      for (index_t j = n1; j-- > 0;)
        for (index_t k = n2; k-- > 0;) all.push_back(at(i, j, k));
    CHECK(same(vals(st::eval(st::flip(a))), all));
  }
  // Of a strided view, of a generator, of an rvalue array, and written through.
  auto a = rnd<int>(st::extents<1>{{11}}, 2);
  const auto v = a(st::slice(1, 10, 3));  // 1, 4, 7
  CHECK(vals(st::eval(st::flip(v, 0))) == std::vector<double>{double(a(7)), double(a(4)), double(a(1))});
  CHECK(vals(st::eval(st::flip(st::arange<int>(4), 0))) == std::vector<double>{3, 2, 1, 0});
  CHECK(vals(st::eval(st::flip(st::eval(st::arange<int>(3)), -1))) == std::vector<double>{2, 1, 0});
  st::flip(a, 0)(st::slice(0, 1)) = 99;
  CHECK(a(10) == 99);
  CHECK_THROWS_AS(st::flip(a, 1), st::value_error);
  CHECK_THROWS_WITH_AS(st::flip(a, -2), doctest::Contains("sinter::flip: axis -2 is out of bounds"), st::value_error);
}

TEST_CASE("roll along an axis: odd, empty and size-1 extents, dtypes") {
  check_roll_2d<float>(7, 13, 3);
  check_roll_2d<double>(1, 5, 4);
  check_roll_2d<int>(5, 1, 5);
  check_roll_2d<std::int8_t>(3, 4, 6);
  check_roll_2d<bool>(4, 9, 7);
  check_roll_2d<std::uint16_t>(2, 3, 8);
  const auto e = rnd<float>(st::extents<2>{{0, 5}}, 9);
  CHECK(st::eval(st::roll(e, 3, 0)).size() == 0);
  CHECK(st::eval(st::roll(e, 3, 1)).shape() == e.shape());
}

TEST_CASE("roll: several axes, no axis (flattened), strided and reversed sources, expressions") {
  const index_t r = 6, c = 9;
  const auto a = rnd<double>(st::extents<2>{{r, c}}, 10);
  const auto x = vals(a);
  st::array<double, 2> two = st::roll(a, {2, -3}, {0, 1});
  CHECK(same(vals(two), roll_ref(roll_ref(x, r, c, 2, 0), r, c, -3, 1)));
  st::array<double, 2> twice = st::roll(a, {2, 5}, {1, 1});  // one axis twice: shifts add
  CHECK(same(vals(twice), roll_ref(x, r, c, 7, 1)));
  for (index_t s : {-55, -1, 0, 4, 54, 200}) {
    CAPTURE(s);
    std::vector<double> ref(x.size());
    const auto n = static_cast<index_t>(x.size());
    for (index_t i = 0; i < n; ++i) ref[static_cast<std::size_t>(i)] = x[static_cast<std::size_t>(wrap(i - s, n))];
    st::array<double, 2> flat = st::roll(a, s);
    CHECK(flat.shape() == a.shape());
    CHECK(same(vals(flat), ref));
  }
  // A reversed, strided view (not contiguous: the flattened roll copies it once).
  const auto v = a(st::slice(st::none, st::none, -2), st::slice(1, 8, 3));
  const auto xv = vals(v);
  std::vector<double> ref(xv.size());
  for (std::size_t i = 0; i != xv.size(); ++i) ref[i] = xv[(i + xv.size() - 1) % xv.size()];
  CHECK(same(vals(st::eval(st::roll(v, 1))), ref));
  CHECK(same(vals(st::eval(st::roll(v, 1, 1))), roll_ref(xv, 3, 3, 1, 1)));
  // An expression is evaluated once; the roll fuses into what consumes it.
  st::array<double, 2> fused = st::roll(a * 2.0, 1, 0) + 1.0;
  auto ref2 = roll_ref(x, r, c, 1, 0);
  for (double& d : ref2) d = d * 2 + 1;
  CHECK(same(vals(fused), ref2));
  CHECK_THROWS_WITH_AS(st::roll(a, 1, 2), doctest::Contains("sinter::roll: axis 2"), st::value_error);
}

TEST_CASE("roll on par at 1, 2 and 3 threads, 2^20 + 3 elements") {
  const index_t n = (index_t{1} << 20) + 3;
  const auto a = rnd<float, st::par>(st::extents<1>{{n}}, 11);
  const auto x = vals(a);
  for (int t : {1, 2, 3}) {
    st::set_num_threads(t);
    st::array<float, 1, st::par> out = st::roll(a, 12345, 0);
    std::vector<double> ref(x.size());
    for (index_t i = 0; i < n; ++i) ref[static_cast<std::size_t>(i)] = x[static_cast<std::size_t>(wrap(i - 12345, n))];
    CHECK(same(vals(out), ref));
  }
  st::set_num_threads(2);
}

TEST_CASE("aliasing: x = roll(x, ...) and x = flip(x, ...) give numpy's result") {
  for (int t : {1, 3}) {
    st::set_num_threads(t);
    const index_t n = 200003;
    auto a = rnd<float, st::par>(st::extents<1>{{n}}, 12);
    const auto x = vals(a);
    a = st::roll(a, 1, 0);
    std::vector<double> ref(x.size());
    for (index_t i = 0; i < n; ++i) ref[static_cast<std::size_t>(i)] = x[static_cast<std::size_t>(wrap(i - 1, n))];
    CHECK(same(vals(a), ref));
    a = st::flip(a, 0);
    std::vector<double> rev(ref.rbegin(), ref.rend());
    CHECK(same(vals(a), rev));
    auto m = rnd<int>(st::extents<2>{{31, 17}}, 13);
    const auto xm = vals(m);
    m = st::roll(m, -3, 1);
    CHECK(vals(m) == roll_ref(xm, 31, 17, -3, 1));
    m = st::roll(m, 3);  // flattened
    std::vector<double> rm = roll_ref(xm, 31, 17, -3, 1), rf(rm.size());
    for (std::size_t i = 0; i != rm.size(); ++i) rf[i] = rm[(i + rm.size() - 3) % rm.size()];
    CHECK(vals(m) == rf);
    // A view of the same memory: the first half takes the rolled second half.
    auto b = rnd<double>(st::extents<1>{{101}}, 14);
    const auto xb = vals(b);
    b(st::slice(0, 50)) = st::pad(b(st::slice(51, 101)), {st::pad_width{0, 0}}, "edge");
    for (std::size_t i = 0; i != 50; ++i) CHECK(same({vals(b)[i]}, {xb[i + 51]}));
    // An error leaves the destination as it was.
    const auto before = vals(m);
    CHECK_THROWS_AS(m = st::roll(m, 1, 3), st::value_error);
    CHECK(vals(m) == before);
  }
  st::set_num_threads(2);
}

TEST_CASE("pad: constant and edge, per axis or one for all, of views and expressions") {
  const index_t r = 5, c = 7;
  const auto a = rnd<float>(st::extents<2>{{r, c}}, 15);
  const auto x = vals(a);
  auto ref = [&](index_t b0, index_t a0, index_t b1, index_t a1, bool edge, double fill) {
    std::vector<double> out;
    for (index_t i = -b0; i < r + a0; ++i)
      for (index_t j = -b1; j < c + a1; ++j) {
        const bool in = i >= 0 && i < r && j >= 0 && j < c;
        const index_t ci = std::clamp<index_t>(i, 0, r - 1), cj = std::clamp<index_t>(j, 0, c - 1);
        out.push_back(in || edge ? x[static_cast<std::size_t>(ci * c + cj)] : fill);
      }
    return out;
  };
  for (bool edge : {false, true}) {
    CAPTURE(edge);
    const char* mode = edge ? "edge" : "constant";
    st::array<float, 2> p = st::pad(a, {st::pad_width{1, 2}, st::pad_width{0, 3}}, mode, 2.5f);
    CHECK(p.shape() == st::extents<2>{{r + 3, c + 3}});
    CHECK(same(vals(p), ref(1, 2, 0, 3, edge, 2.5)));
    st::array<float, 2> q = st::pad(a, {st::pad_width{4, 0}}, mode);
    CHECK(same(vals(q), ref(4, 0, 4, 0, edge, 0)));
    st::array<float, 2> z = st::pad(a, 3, mode, -1.f);
    CHECK(same(vals(z), ref(3, 3, 3, 3, edge, -1)));
    st::array<float, 2> none = st::pad(a, 0, mode);
    CHECK(same(vals(none), x));
  }
  // A reversed view, an expression, an integer dtype, a size-1 source.
  const auto v = a(st::slice(st::none, st::none, -1), 2);
  std::vector<double> rv;
  for (index_t i = 0; i < 2; ++i) rv.push_back(x[static_cast<std::size_t>((r - 1) * c + 2)]);
  for (index_t i = r; i-- > 0;) rv.push_back(x[static_cast<std::size_t>(i * c + 2)]);
  rv.push_back(x[2]);
  CHECK(same(vals(st::eval(st::pad(v, {st::pad_width{2, 1}}, "edge"))), rv));
  CHECK(vals(st::eval(st::pad(st::arange<int>(3) * 2, 1, "constant", 7))) == std::vector<double>{7, 0, 2, 4, 7});
  CHECK(vals(st::eval(st::pad(st::eval(st::arange<std::int8_t>(1)), 2, "edge"))) == std::vector<double>(5, 0));
  // An empty source: constant fills; edge cannot.
  const auto e = rnd<float>(st::extents<1>{{0}}, 16);
  CHECK(vals(st::eval(st::pad(e, 2, "constant", 1.f))) == std::vector<double>(4, 1));
  CHECK(st::eval(st::pad(e, 0, "edge")).size() == 0);
  CHECK_THROWS_WITH_AS(st::pad(e, 1, "edge"), doctest::Contains("empty axis 0"), st::value_error);
  CHECK_THROWS_WITH_AS(st::pad(a, {st::pad_width{1, -1}}), doctest::Contains("non-negative; axis 0"), st::value_error);
  CHECK_THROWS_WITH_AS(st::pad(a, -2), doctest::Contains("non-negative"), st::value_error);
  CHECK_THROWS_WITH_AS(st::pad(a, 1, "reflect"), doctest::Contains("mode \"reflect\""), st::value_error);
}

TEST_CASE("pad on par at 1, 2 and 3 threads") {
  const auto a = rnd<double, st::par>(st::extents<2>{{301, 257}}, 17);
  const auto x = vals(a);
  for (int t : {1, 2, 3}) {
    st::set_num_threads(t);
    st::array<double, 2, st::par> p = st::pad(a, {st::pad_width{2, 0}, st::pad_width{1, 1}}, "edge");
    bool ok = p.shape() == st::extents<2>{{303, 259}};
    for (index_t i = 0; ok && i < 303; ++i)
      for (index_t j = 0; j < 259; ++j) {
        const index_t si = std::max<index_t>(i - 2, 0), sj = std::clamp<index_t>(j - 1, 0, 256);
        ok = ok && same({p(i, j)}, {x[static_cast<std::size_t>(si * 257 + sj)]});
      }
    CHECK(ok);
  }
  st::set_num_threads(2);
}

TEST_CASE("diff: orders, axes, dtypes, n beyond the extent") {
  const index_t r = 4, c = 9;
  const auto a = rnd<double>(st::extents<2>{{r, c}}, 18);
  const auto x = vals(a);
  for (index_t n : {0, 1, 2, 3}) {
    CAPTURE(n);
    std::vector<double> cur = x;
    index_t cc = c;
    for (index_t k = 0; k < n; ++k) {
      std::vector<double> nx;
      for (index_t i = 0; i < r; ++i)
        for (index_t j = 0; j + 1 < cc; ++j)
          nx.push_back(cur[static_cast<std::size_t>(i * cc + j + 1)] - cur[static_cast<std::size_t>(i * cc + j)]);
      cur = nx;
      --cc;
    }
    const auto d = st::diff(a, n);
    CHECK(d.shape() == st::extents<2>{{r, c - n}});
    CHECK(same(vals(d), cur));
  }
  std::vector<double> d0;
  for (index_t i = 0; i + 1 < r; ++i)
    for (index_t j = 0; j < c; ++j)
      d0.push_back(x[static_cast<std::size_t>((i + 1) * c + j)] - x[static_cast<std::size_t>(i * c + j)]);
  CHECK(same(vals(st::diff(a, 1, 0)), d0));
  CHECK(same(vals(st::diff(a, 1, -2)), d0));
  CHECK(st::diff(a, 9).shape() == st::extents<2>{{r, 0}});
  CHECK(st::diff(a, 40, 0).shape() == st::extents<2>{{0, c}});
  // int8 wraps as numpy's; bool differences are !=; a reversed view; par.
  const auto i8 = st::asarray<std::int8_t>({-128, 127, 0});
  CHECK(vals(st::diff(i8)) == std::vector<double>{-1, -127});
  const auto b = st::asarray<bool>({true, true, false, true});
  CHECK(vals(st::diff(b)) == std::vector<double>{0, 1, 1});
  CHECK(vals(st::diff(st::flip(st::asarray<int>({1, 4, 9, 16}), 0))) == std::vector<double>{-7, -5, -3});
  const auto p = rnd<float, st::par>(st::extents<1>{{100003}}, 19);
  st::set_num_threads(3);
  const st::array<float, 1, st::par> dp = st::diff(p);
  bool ok = dp.size() == 100002;
  for (index_t i = 0; ok && i < 100002; ++i) ok = same({dp(i)}, {double(p(i + 1) - p(i))});
  CHECK(ok);
  st::set_num_threads(2);
  CHECK_THROWS_WITH_AS(st::diff(a, -1), doctest::Contains("sinter::diff: the order n must be non-negative"),
                       st::value_error);
  CHECK_THROWS_WITH_AS(st::diff(a, 1, 2), doctest::Contains("sinter::diff: axis 2"), st::value_error);
}

TEST_CASE("tile and repeat") {
  const auto a = rnd<int>(st::extents<2>{{2, 3}}, 20);
  const auto x = vals(a);
  // tile: reps per axis, shorter (leading 1s) and longer (new leading axes), zero.
  const auto t = st::tile(a, {2, 3});
  CHECK(t.shape() == st::extents<2>{{4, 9}});
  bool ok = true;
  for (index_t i = 0; i < 4; ++i)
    for (index_t j = 0; j < 9; ++j) ok = ok && t(i, j) == x[static_cast<std::size_t>((i % 2) * 3 + j % 3)];
  CHECK(ok);
  CHECK(st::tile(a, 2).shape() == st::extents<2>{{2, 6}});
  const auto t3 = st::tile(a, {2, 1, 1});
  CHECK(t3.shape() == st::extents<3>{{2, 2, 3}});
  CHECK(vals(t3(1)) == x);
  CHECK(st::tile(a, {0, 1}).size() == 0);
  const auto v = a(st::all, st::slice(st::none, st::none, -2));  // columns 2, 0
  CHECK(vals(st::tile(v, 2)) == std::vector<double>{x[2], x[0], x[2], x[0], x[5], x[3], x[5], x[3]});
  CHECK_THROWS_WITH_AS(st::tile(a, {1, -2}), doctest::Contains("reps[1] is -2"), st::value_error);
  // repeat: along an axis, flattened, count 0, of an expression, on par.
  const auto r1 = st::repeat(a, 2, 1);
  CHECK(vals(r1) == std::vector<double>{x[0], x[0], x[1], x[1], x[2], x[2], x[3], x[3], x[4], x[4], x[5], x[5]});
  const auto r0 = st::repeat(a, 3, -2);
  CHECK(r0.shape() == st::extents<2>{{6, 3}});
  CHECK(vals(r0(st::slice(2, 4))) == std::vector<double>{x[0], x[1], x[2], x[3], x[4], x[5]});
  const auto rf = st::repeat(st::transpose(a), 2);
  CHECK(vals(rf) == std::vector<double>{x[0], x[0], x[3], x[3], x[1], x[1], x[4], x[4], x[2], x[2], x[5], x[5]});
  CHECK(st::repeat(a, 0, 0).shape() == st::extents<2>{{0, 3}});
  CHECK(vals(st::repeat(st::arange<double>(2) + 0.5, 2)) == std::vector<double>{0.5, 0.5, 1.5, 1.5});
  const auto big = rnd<std::int16_t, st::par>(st::extents<1>{{65537}}, 21);
  for (int th : {1, 2, 3}) {
    st::set_num_threads(th);
    const auto rb = st::repeat(big, 3, 0);
    bool okb = rb.size() == 3 * 65537;
    for (index_t i = 0; okb && i < rb.size(); ++i) okb = rb(i) == big(i / 3);
    CHECK(okb);
  }
  st::set_num_threads(2);
  CHECK_THROWS_WITH_AS(st::repeat(a, -1, 0), doctest::Contains("sinter::repeat: the count must be non-negative"),
                       st::value_error);
  CHECK_THROWS_WITH_AS(st::repeat(a, 2, -3), doctest::Contains("sinter::repeat: axis -3"), st::value_error);
}
