// sinter::put and sinter::scatter_add (scatter.hpp) against plain scalar
// loops written here: random data, duplicate and negative indices, sizes
// 0, 1, primes and a sampled 2^20 + 3, strided and reversed views as x,
// idx and values, every element type, host and par on 1, 2, 3 and 8
// threads bit for bit (par on a few types; the bucket code is per type
// only through its element store), aliasing (values or indices reading x), every error
// with x unchanged, and the CUDA kernel body replayed over emulated grids.
#include <doctest/doctest.h>

#include "support/scale.hpp"

#include <cstdint>
#include <cstring>
#include <random>
#include <sinter/scatter.hpp>
#include <sinter/sinter.hpp>
#include <string>
#include <type_traits>
#include <vector>

namespace test_scatter {

namespace st = sinter;
using st::index_t;
using st::slice;

template <class... T>
struct types {};

/// a + b as numpy.add.at does in T: modular integers, bool or, half via float.
template <class T>
T ref_add(T a, T b) {
  if constexpr (std::is_same_v<T, bool>) return a || b;
  else if constexpr (std::is_integral_v<T>) return static_cast<T>(static_cast<std::uint64_t>(a) + static_cast<std::uint64_t>(b));
  else if constexpr (st::is_half_like_v<T>) return static_cast<T>(static_cast<float>(a) + static_cast<float>(b));
  else return static_cast<T>(a + b);
}

template <class T>
T random_value(std::mt19937_64& g) {
  if constexpr (std::is_same_v<T, bool>) return g() % 2 == 0;
  else if constexpr (std::is_integral_v<T>) return static_cast<T>(g());
  else return static_cast<T>(static_cast<float>(std::uniform_real_distribution<double>(-9, 9)(g)));
}

template <class T, std::size_t R>
st::array<T, R> random_array(const st::extents<R>& shape, std::uint64_t seed) {
  st::array<T, R> a(shape);
  std::mt19937_64 g(seed);
  for (auto& v : a) v = random_value<T>(g);
  return a;
}

/// Random indices in [-n, n) ([0, n) for unsigned I), many repeated.
template <class I, std::size_t R>
st::array<I, R> random_indices(const st::extents<R>& shape, index_t n, std::uint64_t seed) {
  st::array<I, R> a(shape);
  std::mt19937_64 g(seed);
  for (auto& v : a) {
    const auto r = static_cast<index_t>(g() % static_cast<std::uint64_t>(n));
    v = static_cast<I>(std::is_signed_v<I> && g() % 2 ? r - n : r);
  }
  return a;
}

/// Elements as stored in the reference vectors (bool as a byte: no vector<bool>).
template <class T>
using cell = std::conditional_t<std::is_same_v<T, bool>, std::uint8_t, T>;

template <class T, class X>
std::vector<cell<T>> values_of(const X& x) {  // row-major
  const st::array<T, X::rank> c = x;
  std::vector<cell<T>> out(static_cast<std::size_t>(c.size()));
  if (!out.empty()) std::memcpy(out.data(), c.data(), out.size() * sizeof(T));
  return out;
}

template <class T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

index_t wrap(index_t v, index_t n) { return v < 0 ? v + n : v; }

/// numpy.put on a row-major copy of x.
template <class T, class I>
std::vector<T> ref_put(std::vector<T> x, const std::vector<I>& idx, const std::vector<T>& vals) {  // T: a cell
  if (vals.empty()) return x;
  for (std::size_t k = 0; k != idx.size(); ++k)
    x[static_cast<std::size_t>(wrap(static_cast<index_t>(idx[k]), static_cast<index_t>(x.size())))] = vals[k % vals.size()];
  return x;
}

/// numpy.add.at on a row-major (outer, extent, inner) copy of x; vals of (outer, nidx, inner).
template <class E, class T, class I>
std::vector<T> ref_add_at(std::vector<T> x, index_t outer, index_t extent, index_t inner, const std::vector<I>& idx,
                          const std::vector<T>& vals) {
  const auto ni = static_cast<index_t>(idx.size());
  for (index_t o = 0; o < outer; ++o)
    for (index_t j = 0; j < ni; ++j)
      for (index_t i = 0; i < inner; ++i) {
        auto& d = x[static_cast<std::size_t>((o * extent + wrap(static_cast<index_t>(idx[static_cast<std::size_t>(j)]), extent)) * inner + i)];
        d = static_cast<T>(ref_add(static_cast<E>(d), static_cast<E>(vals[static_cast<std::size_t>((o * ni + j) * inner + i)])));
      }
  return x;
}

/// One put and one flat scatter_add of n random updates into x of size m, on P.
template <class P, class T, class I>
void check_flat(index_t m, index_t n, std::uint64_t seed) {
  CAPTURE(m);
  CAPTURE(n);
  if (m == 0 && n > 0) return;
  st::array<T, 1, P> x(random_array<T>(st::extents<1>{m}, seed));
  const auto x0 = values_of<T>(x);
  const auto idx = random_indices<I>(st::extents<1>{n}, m == 0 ? 1 : m, seed + 1);
  const auto v = random_array<T>(st::extents<1>{n}, seed + 2);
  const auto iv = values_of<I>(idx);
  const auto vv = values_of<T>(v);
  st::put(x, idx, v);
  CHECK(same_bits(values_of<T>(x), ref_put(x0, iv, vv)));
  const auto x1 = values_of<T>(x);
  st::scatter_add(x, idx, v);
  CHECK(same_bits(values_of<T>(x), ref_add_at<T>(x1, 1, m, 1, iv, vv)));
}

TEST_CASE_TEMPLATE("put and flat scatter_add: every element type, odd sizes, host and par", T, bool, std::int8_t,
                   std::int16_t, std::int32_t, std::int64_t, std::uint8_t, std::uint16_t, std::uint32_t, std::uint64_t,
                   float, double, st::half, st::bfloat16) {
  for (index_t m : {0, 1, 2, 7, 31, 1021})
    for (index_t n : {0, 1, 13, 4099}) {
      check_flat<st::host, T, std::int64_t>(m, n, static_cast<std::uint64_t>(m * 131 + n));
      if constexpr (std::is_same_v<T, float> || std::is_same_v<T, st::half> || std::is_same_v<T, std::int8_t>)
        check_flat<st::par, T, std::int32_t>(m, n, static_cast<std::uint64_t>(m * 131 + n + 7));
    }
}

TEST_CASE_TEMPLATE("put and scatter_add: index types", I, std::int8_t, std::uint16_t, std::uint64_t) {
  for (index_t m : {1, 5, 97}) check_flat<st::host, float, I>(m, 301, static_cast<std::uint64_t>(m));
}

TEST_CASE("par: bucketed updates equal the host's bit for bit on 1, 2, 3 and 8 threads") {
  const index_t m = (index_t{1} << 20) + 3, n = (index_t{1} << 17) / (sinter_test::scale > 1 ? 4 : 1);
  const auto idx = random_indices<std::int64_t>(st::extents<1>{n}, m / 64, 11);  // dense duplicates
  const auto v = random_array<float>(st::extents<1>{n}, 12);
  st::array<float, 1> hx(random_array<float>(st::extents<1>{m}, 13));
  const auto x0 = values_of<float>(hx);
  st::scatter_add(hx, idx, v);
  const auto want = ref_add_at<float>(x0, 1, m, 1, values_of<std::int64_t>(idx), values_of<float>(v));
  CHECK(same_bits(values_of<float>(hx), want));
  st::array<double, 2> h2({64, 9});
  h2 = 0.0;
  const auto i2 = random_indices<std::int32_t>(st::extents<1>{n / 8}, 9, 14);
  st::scatter_add(h2, i2, 0.1, 1);  // axis 1 of a short row: buckets across rows
  for (int threads : {1, 2, 3, 8}) {
    CAPTURE(threads);
    st::set_num_threads(threads);
    st::array<float, 1, st::par> px({m});
    std::memcpy(px.data(), x0.data(), x0.size() * sizeof(float));
    st::scatter_add(px, idx, v);
    CHECK(same_bits(values_of<float>(px), want));
    st::put(px, idx, v * 3.f);
    st::array<float, 1> hp({m});
    std::memcpy(hp.data(), want.data(), want.size() * sizeof(float));
    st::put(hp, idx, v * 3.f);
    CHECK(same_bits(values_of<float>(px), values_of<float>(hp)));
    st::array<double, 2, st::par> p2({64, 9});
    p2 = 0.0;
    st::scatter_add(p2, i2, 0.1, 1);
    CHECK(same_bits(values_of<double>(p2), values_of<double>(h2)));
  }
  st::set_num_threads(0);
}

TEST_CASE("scatter_add along an axis: 2-D indices, broadcast values, strided and reversed views") {
  const index_t a = 5, b = 7, c = 3;
  st::array<std::int32_t, 3> x(random_array<std::int32_t>(st::extents<3>{a, b, c}, 21));
  const auto idx = random_indices<std::int16_t>(st::extents<2>{4, 6}, b, 22);
  const auto iv = values_of<std::int16_t>(idx);
  const auto v = random_array<std::int32_t>(st::extents<4>{a, 4, 6, c}, 23);  // take(x, idx, 1)'s shape
  auto want = ref_add_at<std::int32_t>(values_of<std::int32_t>(x), a, b, c, iv, values_of<std::int32_t>(v));
  st::scatter_add(x, idx, v, 1);
  CHECK(values_of<std::int32_t>(x) == want);
  // values broadcast from (6, 1): the same value along the inner axis
  const auto vb = random_array<std::int32_t>(st::extents<2>{6, 1}, 24);
  std::vector<std::int32_t> full;
  for (index_t o = 0; o < a; ++o)
    for (index_t j = 0; j < 24; ++j)
      for (index_t i = 0; i < c; ++i) full.push_back(vb(j % 6, 0));
  want = ref_add_at<std::int32_t>(want, a, b, c, iv, full);
  st::scatter_add(x, idx, vb, -2);
  CHECK(values_of<std::int32_t>(x) == want);
  // axis 0 of a matrix, a reversed strided x, reversed indices, strided values
  st::array<double, 2> big(random_array<double>(st::extents<2>{20, 11}, 25));
  auto xv = big(slice(18, st::end, -2), slice(1, st::end, 3));  // (10, 4) reversed, strided
  const auto id = random_indices<std::int64_t>(st::extents<1>{31}, 10, 26);
  auto idr = id(slice(st::end, st::end, -1));
  st::array<double, 2> vs(random_array<double>(st::extents<2>{62, 4}, 27));
  auto vv = vs(slice(0, st::end, 2), st::all);
  auto wantd = ref_add_at<double>(values_of<double>(xv), 1, 10, 4, values_of<std::int64_t>(idr), values_of<double>(vv));
  const auto before = values_of<double>(big);
  st::scatter_add(xv, idr, vv, 0);
  CHECK(values_of<double>(xv) == wantd);
  std::size_t outside = 0;  // elements of big outside the view untouched
  for (index_t i = 0; i < 20; ++i)
    for (index_t j = 0; j < 11; ++j)
      if (!(i % 2 == 0 && i <= 18 && j % 3 == 1)) outside += big(i, j) != before[static_cast<std::size_t>(i * 11 + j)];
  CHECK(outside == 0);
}

TEST_CASE("put and flat scatter_add into a strided 2-D view; lazy and scalar values") {
  st::array<float, 2> big(random_array<float>(st::extents<2>{9, 14}, 31));
  auto xv = big(slice(1, 8), slice(st::end, 0, -3));  // (7, 5) not row-major
  const auto idx = random_indices<std::int32_t>(st::extents<2>{3, 5}, 35, 32);
  const auto v = random_array<float>(st::extents<1>{4}, 33);
  auto want = ref_put(values_of<float>(xv), values_of<std::int32_t>(idx), values_of<float>(v * 2.f + 1.f));
  st::put(xv, idx, v * 2.f + 1.f);  // values cycle: 4 for 15 indices
  CHECK(values_of<float>(xv) == want);
  const std::vector<float> seven(15, 7.f);
  want = ref_add_at<float>(want, 1, 35, 1, values_of<std::int32_t>(idx), seven);
  st::scatter_add(xv, idx, 7.f);
  CHECK(values_of<float>(xv) == want);
  st::put(xv, idx, 2.5);  // a double scalar, converted
  CHECK(values_of<float>(xv) == ref_put(want, values_of<std::int32_t>(idx), std::vector<float>{2.5f}));
  st::put(xv, idx, st::array<float, 1>(st::extents<1>{0}));  // no values: nothing written, as NumPy
  CHECK(values_of<float>(xv) == ref_put(want, values_of<std::int32_t>(idx), std::vector<float>{2.5f}));
}

TEST_CASE("aliasing: values and indices reading x give NumPy's result") {
  st::array<float, 1> x(random_array<float>(st::extents<1>{50}, 41));
  const auto idx = random_indices<std::int64_t>(st::extents<1>{25}, 50, 42);
  auto x0 = values_of<float>(x);
  auto want = ref_put(x0, values_of<std::int64_t>(idx), std::vector<float>(x0.rbegin(), x0.rbegin() + 25));
  st::put(x, idx, x(slice(st::end, 24, -1)));  // values read before any write
  CHECK(values_of<float>(x) == want);
  x0 = values_of<float>(x);
  want = ref_add_at<float>(x0, 1, 50, 1, values_of<std::int64_t>(idx), std::vector<float>(x0.begin(), x0.begin() + 25));
  st::scatter_add(x, idx, x(slice(0, 25)));
  CHECK(values_of<float>(x) == want);
  st::array<std::int32_t, 1> xi({8});
  for (index_t i = 0; i < 8; ++i) xi(i) = static_cast<std::int32_t>((i * 3) % 8);
  const auto xi0 = values_of<std::int32_t>(xi);
  st::scatter_add(xi, xi, 100);  // the indices are x itself: read before the writes
  CHECK(values_of<std::int32_t>(xi) == ref_add_at<std::int32_t>(xi0, 1, 8, 1, xi0, std::vector<std::int32_t>(8, 100)));
}

TEST_CASE("errors: index_error names index, position and extent; shape_error; x unchanged") {
  st::array<double, 2> x(random_array<double>(st::extents<2>{3, 4}, 51));
  const auto x0 = values_of<double>(x);
  st::array<std::int32_t, 2> idx({2, 2});
  idx(0, 0) = 1, idx(0, 1) = -12, idx(1, 0) = 12, idx(1, 1) = 0;
  try {
    st::put(x, idx, 5.0);
    FAIL("no error");
  } catch (const st::index_error& e) {
    const std::string w = e.what();
    CHECK(w.find("index 12") != std::string::npos);
    CHECK(w.find("(1, 0)") != std::string::npos);
    CHECK(w.find("size 12") != std::string::npos);
  }
  CHECK(values_of<double>(x) == x0);
  idx(1, 0) = -5;  // fine flat, out of range on axis 1 (extent 4)
  try {
    st::scatter_add(x, idx, 1.0, 1);
    FAIL("no error");
  } catch (const st::index_error& e) {
    const std::string w = e.what();
    CHECK(w.find("index -12") != std::string::npos);
    CHECK(w.find("(0, 1)") != std::string::npos);
    CHECK(w.find("axis 1 with size 4") != std::string::npos);
  }
  CHECK(values_of<double>(x) == x0);
  idx(0, 1) = 3, idx(1, 0) = 2;
  CHECK_THROWS_AS(st::scatter_add(x, idx, st::array<double, 1>(st::extents<1>{3}), 1), st::shape_error);
  CHECK_THROWS_AS(st::scatter_add(x, idx, 1.0, 2), st::value_error);
  CHECK(values_of<double>(x) == x0);
  st::array<double, 1, st::par> px({100000});
  px = 1.0;
  st::array<std::int64_t, 1> big({100000});
  for (index_t i = 0; i < 100000; ++i) big(i) = i == 99998 ? 100000 : i;
  CHECK_THROWS_AS(st::scatter_add(px, big, 1.0), st::index_error);
  CHECK(st::sum(px) == 100000.0);
}

/// Replays the kernel's grid-stride loop over emulated grids.
template <bool Add, class A>
void emulate(const A& a, index_t n, unsigned grid, unsigned block) {
  for (unsigned b = 0; b < grid; ++b)
    for (unsigned t = 0; t < block; ++t)
      st::detail::scatter_thread<Add>(a, n, static_cast<index_t>(b) * block + t, static_cast<index_t>(grid) * block);
}

TEST_CASE("cuda kernel body on emulated grids: duplicates summed, put's writes in range") {
  const index_t m = 37, n = 500;
  const auto idx = random_indices<std::int32_t>(st::extents<1>{n}, m, 61);
  st::array<std::int64_t, 1> v({n});
  for (index_t k = 0; k < n; ++k) v(k) = k * 7 - 900;
  const auto want = ref_add_at<std::int64_t>(std::vector<std::int64_t>(m, 5), 1, m, 1, values_of<std::int32_t>(idx),
                               values_of<std::int64_t>(v));
  for (unsigned grid : {1u, 3u, 7u})
    for (unsigned block : {1u, 32u, 256u}) {
      std::vector<std::int64_t> x(m, 5);
      st::detail::scatter_args<std::int64_t, std::int32_t, std::int64_t, 1> a{};
      a.x = x.data(), a.idx = idx.data(), a.val = v.data();
      a.shape = {n}, a.istrides = {1}, a.vstrides = {1};
      a.axis_stride = 1, a.axis_flat = 1, a.extent = m, a.cycle = 0;
      emulate<true>(a, n, grid, block);
      CHECK(x == want);
      a.cycle = 3;  // put, values cycling over the first three
      emulate<false>(a, n, grid, block);
      for (index_t i = 0; i < m; ++i) {
        const auto got = x[static_cast<std::size_t>(i)];
        CHECK((got == want[static_cast<std::size_t>(i)] || got == -900 || got == -893 || got == -886));
      }
    }
}

}  // namespace test_scatter
