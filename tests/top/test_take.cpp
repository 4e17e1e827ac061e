// sinter::take and take_along_axis (take.hpp) against plain scalar gathers
// written here: random data with NaN, random indices with negative ones,
// several index and value dtypes, strided and reversed sources and indices,
// empty and size-1 axes, one 2^20 + 3 case, host and par on 1, 2 and 3
// threads; a lazy source evaluated at the taken positions only; every error
// path (index_error naming index, position and extent) with the output
// unchanged; aliasing; the CUDA kernel body on the grid emulator.
#include <doctest/doctest.h>

#include "support/index_refs.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <sinter/sinter.hpp>
#include <sinter/take.hpp>
#include <string>
#include <vector>

namespace st = sinter;
using st::index_t;
using st::slice;

namespace {

template <class T>
void take_fill_random(T* p, index_t n, std::uint32_t seed) {
  std::mt19937 g(seed);
  for (index_t i = 0; i < n; ++i) {
    if constexpr (std::is_floating_point_v<T>)
      p[i] = g() % 13 == 0 ? std::numeric_limits<T>::quiet_NaN()
                           : static_cast<T>(std::uniform_real_distribution<double>(-9, 9)(g));
    else
      p[i] = static_cast<T>(g());
  }
}

/// Random indices in [-n, n) (in [0, n) for unsigned I).
template <class I, std::size_t R>
st::array<I, R> random_indices(const st::extents<R>& shape, index_t n, std::uint32_t seed) {
  st::array<I, R> a(shape);
  std::mt19937_64 g(seed);
  for (auto& v : a) {
    const auto r = static_cast<index_t>(g() % static_cast<std::uint64_t>(n));
    v = static_cast<I>(std::is_signed_v<I> && g() % 2 ? r - n : r);
  }
  return a;
}

/// numpy.take(x, idx, axis) by its definition.
template <class XV, class IV>
auto ref_take(const XV& x, const IV& idx, std::size_t ax) {
  using T = std::remove_const_t<typename XV::element_type>;
  constexpr std::size_t RX = XV::rank, RI = IV::rank, RO = RX - 1 + RI;
  st::extents<RO> shape{};
  for (std::size_t d = 0; d != ax; ++d) shape[d] = x.shape()[d];
  for (std::size_t j = 0; j != RI; ++j) shape[ax + j] = idx.shape()[j];
  for (std::size_t d = ax + 1; d < RX; ++d) shape[d + RI - 1] = x.shape()[d];
  std::vector<T> out(static_cast<std::size_t>(st::detail::shape_size(shape)));
  for (std::size_t k = 0; k != out.size(); ++k) {
    const auto c = index_refs::unflat(static_cast<index_t>(k), shape);
    st::extents<RI> ic{};
    for (std::size_t j = 0; j != RI; ++j) ic[j] = c[ax + j];
    auto v = static_cast<index_t>(index_refs::at(idx.data(), idx.strides(), ic));
    if (v < 0) v += x.shape()[ax];
    st::extents<RX> xc{};
    for (std::size_t d = 0; d != ax; ++d) xc[d] = c[d];
    xc[ax] = v;
    for (std::size_t d = ax + 1; d < RX; ++d) xc[d] = c[d + RI - 1];
    out[k] = index_refs::at(x.data(), x.strides(), xc);
  }
  return std::pair{shape, out};
}

template <class A, class V>
std::size_t mismatches(const A& got, const std::vector<V>& want) {
  if (static_cast<std::size_t>(got.size()) != want.size()) return want.size() + 1;
  std::size_t bad = 0, i = 0;
  for (auto v : got) bad += !index_refs::same(static_cast<V>(v), want[i++]);
  return bad;
}

}  // namespace

TEST_CASE_TEMPLATE("take 1-D: random indices, odd sizes, host and par", I, std::int32_t, std::int64_t, std::uint32_t,
                   std::int16_t) {
  for (int threads : {1, 2, 3}) {
    st::set_num_threads(threads);
    for (index_t n : {index_t{1}, index_t{2}, index_t{31}, index_t{1000}, index_t{(1 << 20) + 3}})
      for (index_t m : {index_t{0}, index_t{1}, index_t{17}, index_t{(1 << 20) + 3}}) {
        if ((n > 2000 || m > 2000) && (threads != 2 || !std::is_same_v<I, std::int32_t>)) continue;
        if (n > 30000 && !std::is_same_v<I, std::int32_t>) continue;
        st::array<float, 1, st::par> x({n});
        take_fill_random(x.data(), n, static_cast<std::uint32_t>(n));
        const auto idx = random_indices<I>(st::extents<1>{m}, std::min<index_t>(n, std::numeric_limits<I>::max()), 5);
        const auto [shape, want] = ref_take(x(), idx(), 0);
        st::array<float, 1, st::par> got = st::take(x, idx, 0);
        CHECK(got.shape() == shape);
        CHECK(mismatches(got, want) == 0);
        st::array<float, 1> flat = st::take(x, idx);
        CHECK(mismatches(flat, want) == 0);
      }
  }
  st::set_num_threads(0);
}

TEST_CASE("take along every axis of 2-D and 3-D sources, strided and reversed, index arrays of rank 0-2") {
  st::array<double, 3> x({5, 4, 7});
  take_fill_random(x.data(), x.size(), 3);
  const auto xr = x(slice(st::none, st::none, -1), slice(), slice(st::none, st::none, 2));  // (5, 4, 4)
  const auto i2 = random_indices<std::int64_t>(st::extents<2>{3, 6}, 4, 9);
  const auto i2s = i2(slice(st::none, st::none, -1), slice(1, st::end, 2));  // (3, 3), reversed and strided
  st::array<std::int32_t, 0> i0(st::extents<0>{});
  *i0.data() = -2;
  for (int axis = -3; axis < 3; ++axis) {
    const std::size_t ax = static_cast<std::size_t>(axis < 0 ? axis + 3 : axis);
    {
      const auto [shape, want] = ref_take(xr, i2s, ax);
      st::array<double, 4> got = st::take(xr, i2s, axis);
      CHECK(got.shape() == shape);
      CHECK(mismatches(got, want) == 0);
      st::array<double, 4, st::par> pgot = st::take(xr * 1.0, i2, axis) * 1.0;
      CHECK(mismatches(pgot, ref_take(xr, i2(), ax).second) == 0);
    }
    {
      const auto [shape, want] = ref_take(x(), st::view<std::int32_t, 0>(i0), ax);
      st::array<double, 2> got = st::take(x, i0, axis);
      CHECK(got.shape() == shape);
      CHECK(mismatches(got, want) == 0);
    }
  }
  // flattened: x's row-major order
  const auto fi = random_indices<std::int64_t>(st::extents<2>{4, 9}, 80, 2);
  st::array<double, 2> got = st::take(xr, fi);
  std::vector<double> flat_x(xr.begin(), xr.end()), want;
  for (auto v : fi) want.push_back(flat_x[static_cast<std::size_t>(v < 0 ? v + 80 : v)]);
  CHECK(got.shape() == fi.shape());
  CHECK(mismatches(got, want) == 0);
  // empty axes: a (0, 3) source along axis 1, and no indices from an empty axis
  st::array<float, 2> e({0, 3});
  st::array<std::int32_t, 1> ii({2}), none({0});
  ii(0) = 2;
  ii(1) = -3;
  st::array<float, 2> r = st::take(e, ii, 1);
  CHECK(r.shape() == st::extents<2>{0, 2});
  st::array<float, 2> r0 = st::take(e, none, 0);
  CHECK(r0.shape() == st::extents<2>{0, 3});
}

TEST_CASE("take of a lazy expression evaluates only the taken elements") {
  st::array<float, 1> x({100000});
  take_fill_random(x.data(), x.size(), 1);
  st::array<std::int64_t, 1> idx = random_indices<std::int64_t>(st::extents<1>{37}, 100000, 4);
  long calls = 0;
  long* counter = &calls;
  const auto f = st::map([counter](float v) { ++*counter; return v * 2.f + 1.f; }, x);
  st::array<float, 1> got = st::take(f, idx, 0);
  CHECK(calls == 37);
  std::size_t bad = 0;
  for (index_t k = 0; k < 37; ++k) {
    const index_t v = idx(k) < 0 ? idx(k) + 100000 : idx(k);
    bad += !index_refs::same(got(k), x(v) * 2.f + 1.f);
  }
  CHECK(bad == 0);
  st::array<float, 1> out({37});
  st::trace_scope t;
  out = st::sqrt(st::take(st::abs(x), idx, 0));
  REQUIRE(t.passes().size() == 1);
  CHECK(t.allocations() == 0);
  CHECK(t.passes()[0].expression.find("take") != std::string::npos);
}

TEST_CASE("take_along_axis: sorting indices, broadcasting, negative axis") {
  st::array<float, 2> x({4, 6});
  take_fill_random(x.data(), 24, 7);
  const auto idx = random_indices<std::int64_t>(st::extents<2>{4, 9}, 6, 3);  // along axis 1
  for (int axis : {1, -1}) {
    st::array<float, 2> got = st::take_along_axis(x, idx, axis);
    REQUIRE(got.shape() == st::extents<2>{4, 9});
    std::size_t bad = 0;
    for (index_t i = 0; i < 4; ++i)
      for (index_t j = 0; j < 9; ++j) bad += !index_refs::same(got(i, j), x(i, idx(i, j) < 0 ? idx(i, j) + 6 : idx(i, j)));
    CHECK(bad == 0);
  }
  // indices of shape (1, 5) broadcast over x's 4 rows; x's rows reversed; along axis 1
  const auto one = random_indices<std::int16_t>(st::extents<2>{1, 5}, 6, 4);
  const auto xr = x(slice(st::none, st::none, -1), slice());
  st::array<float, 2, st::par> b = st::take_along_axis(xr, one, 1);
  REQUIRE(b.shape() == st::extents<2>{4, 5});
  std::size_t bad = 0;
  for (index_t i = 0; i < 4; ++i)
    for (index_t j = 0; j < 5; ++j) bad += !index_refs::same(b(i, j), x(3 - i, one(0, j) < 0 ? one(0, j) + 6 : one(0, j)));
  CHECK(bad == 0);
  // along axis 0 with a (1, 6) source column-broadcast: x[0:1] against indices (3, 6)
  const auto i0 = random_indices<std::int32_t>(st::extents<2>{3, 6}, 1, 5);
  st::array<float, 2> c = st::take_along_axis(x(slice(0, 1)), i0, 0);
  REQUIRE(c.shape() == st::extents<2>{3, 6});
  for (index_t i = 0; i < 3; ++i)
    for (index_t j = 0; j < 6; ++j) bad += !index_refs::same(c(i, j), x(0, j));
  CHECK(bad == 0);
}

TEST_CASE("take errors: index_error names index, position and extent; output unchanged") {
  st::array<float, 2> x({3, 5});
  take_fill_random(x.data(), 15, 1);
  st::array<float, 2> out({3, 4});
  out = 7.f;
  st::array<std::int64_t, 1> idx({4});
  idx(0) = 1;
  idx(1) = -5;
  idx(2) = 5;  // out of range for axis 1 (size 5)
  idx(3) = 0;
  try {
    out = st::take(x, idx, 1);
    FAIL("no throw");
  } catch (const st::index_error& e) {
    const std::string m = e.what();
    CHECK(m.find("index 5") != std::string::npos);
    CHECK(m.find("position (2,)") != std::string::npos);
    CHECK(m.find("size 5") != std::string::npos);
    CHECK(m.find("axis 1") != std::string::npos);
  }
  idx(2) = -6;
  CHECK_THROWS_AS(out = st::take(x, idx, 1), st::index_error);
  idx(2) = 2;
  CHECK_THROWS_AS(out = st::take(x, idx, 0), st::index_error);  // 2 fine, -5 out of [-3, 3)
  CHECK_THROWS_AS(out = st::take(x, idx, 2), st::value_error);
  st::array<std::uint64_t, 2> big({2, 2});
  big = std::uint64_t{1};
  big(1, 0) = ~std::uint64_t{0};
  try {
    out = st::take(x, big, 0);
    FAIL("no throw");
  } catch (const st::index_error& e) {
    const std::string m = e.what();
    CHECK(m.find("18446744073709551615") != std::string::npos);
    CHECK(m.find("(1, 0)") != std::string::npos);
  }
  CHECK_THROWS_AS(out = st::take(x, big), st::index_error);
  const auto strided = idx(slice(st::none, st::none, -2));  // idx(3), idx(1): a reversed, strided index view
  idx(3) = 9;
  CHECK_THROWS_AS(out = st::take(x, strided, 0), st::index_error);
  st::array<std::int32_t, 2> along({3, 4});
  along = 0;
  along(2, 3) = -6;
  CHECK_THROWS_AS(out = st::take_along_axis(x, along, 1), st::index_error);
  st::array<std::int32_t, 2> wrong({2, 4});
  wrong = 0;
  CHECK_THROWS_AS(out = st::take_along_axis(x, wrong, 1), st::shape_error);
  std::size_t changed = 0;
  for (auto v : out) changed += v != 7.f;
  CHECK(changed == 0);
  CHECK(out.shape() == st::extents<2>{3, 4});
}

TEST_CASE("aliasing: taking from the output gives NumPy's result") {
  for (int threads : {1, 3}) {
    st::set_num_threads(threads);
    const index_t n = 50021;
    st::array<double, 1, st::par> x({n});
    take_fill_random(x.data(), n, 2);
    st::array<std::int32_t, 1> perm({n});
    for (index_t k = 0; k < n; ++k) perm(k) = static_cast<std::int32_t>((k * 7919) % n - (k % 2 ? n : 0));
    const std::vector<double> old(x.begin(), x.end());
    x = st::take(x, perm, 0);
    std::size_t bad = 0;
    for (index_t k = 0; k < n; ++k) bad += !index_refs::same(x(k), old[static_cast<std::size_t>((k * 7919) % n)]);
    CHECK(bad == 0);
    // the indices overlapping the output: idx = take(x_int, idx)
    st::array<std::int32_t, 1> p2 = perm;
    const std::vector<std::int32_t> op(p2.begin(), p2.end());
    st::array<std::int32_t, 1> src({n});
    for (index_t k = 0; k < n; ++k) src(k) = static_cast<std::int32_t>(n - 1 - k);
    p2 = st::take(src, p2, 0);
    for (index_t k = 0; k < n; ++k) {
      const index_t v = op[static_cast<std::size_t>(k)] < 0 ? op[static_cast<std::size_t>(k)] + n : op[static_cast<std::size_t>(k)];
      bad += p2(k) != n - 1 - v;
    }
    CHECK(bad == 0);
  }
  st::set_num_threads(0);
}

TEST_CASE("take in the CUDA kernel body, on the grid emulator") {
  namespace rcd = st::detail::cuda_detail;
  st::array<float, 2> x({9, 13});
  take_fill_random(x.data(), x.size(), 4);
  const auto idx = random_indices<std::int64_t>(st::extents<1>{21}, 13, 6);
  const auto idx9 = random_indices<std::int32_t>(st::extents<1>{9}, 9, 7);
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
  for (unsigned grid : {1u, 4u})
    for (unsigned block : {1u, 32u}) {
      const auto e = st::take(x * 2.f, idx, 1) + 1.f;  // a lazy source; exact, so host and body agree
      st::array<float, 2> got({9, 21}), want = e;
      got = 0.f;
      run(e, got, grid, block);
      CHECK(std::memcmp(got.data(), want.data(), sizeof(float) * 189) == 0);
      const auto f = st::take(x(slice(), 3), idx9, 0);  // 1-D: the contiguous path
      st::array<float, 1> g1({9}), w1 = f;
      g1 = 0.f;
      run(f, g1, grid, block);
      CHECK(std::memcmp(g1.data(), w1.data(), sizeof(float) * 9) == 0);
    }
}
