// sinter::compress, flatnonzero, nonzero and put_mask (mask.hpp) against
// plain scalar loops written here: random data with NaN, random masks of
// several densities, every dtype, sizes 0, 1, primes and one 2^20 + 3
// case, strided, reversed and broadcast operands, lazy masks and sources,
// host and par on 1, 2 and 3 threads (bitwise equal); aliasing in
// put_mask; every error path with the output unchanged.
#include <doctest/doctest.h>

#include "support/index_refs.hpp"
#include "support/scale.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <sinter/mask.hpp>
#include <sinter/sinter.hpp>
#include <string>
#include <vector>

namespace test_mask {

namespace st = sinter;
using st::index_t;
using st::slice;

/// Random values (about 1 in 11 NaN for floating types; random bits else).
template <class T>
void fill(T* p, index_t n, std::uint32_t seed) {
  std::mt19937 g(seed);
  for (index_t i = 0; i < n; ++i) {
    if constexpr (std::is_same_v<T, bool>) {
      p[i] = g() % 2 == 0;
    } else if constexpr (std::is_integral_v<T>) {
      p[i] = static_cast<T>(g());
    } else {
      const float v = g() % 11 == 0 ? std::numeric_limits<float>::quiet_NaN()
                                    : std::uniform_real_distribution<float>(-9.f, 9.f)(g);
      p[i] = static_cast<T>(v);
    }
  }
}

/// A bool mask true with probability `permille` / 1000.
inline void fill_mask(bool* p, index_t n, std::uint32_t seed, unsigned permille) {
  std::mt19937 g(seed);
  for (index_t i = 0; i < n; ++i) p[i] = g() % 1000 < permille;
}

/// Bitwise equality of the values (NaN payloads included).
template <class T, class A>
bool bits_equal(const A& got, const std::vector<T>& want) {
  if (static_cast<std::size_t>(got.size()) != want.size()) return false;
  std::size_t i = 0;
  for (auto v : got) {
    const T a = v, b = want[i++];
    if (std::memcmp(&a, &b, sizeof(T)) != 0) return false;
  }
  return true;
}

/// x[m] by its definition: row-major over x's shape, m (same shape) read alongside.
template <class T, std::size_t R, class XV, class MV>
std::vector<T> ref_compress(const XV& x, const MV& m, const st::extents<R>& shape) {
  std::vector<T> out;
  const index_t n = st::detail::shape_size(shape);
  for (index_t k = 0; k < n; ++k) {
    const auto c = index_refs::unflat(k, shape);
    if (index_refs::at(m.data(), m.strides(), c)) out.push_back(index_refs::at(x.data(), x.strides(), c));
  }
  return out;
}

using types = std::tuple<bool, std::int8_t, std::uint8_t, std::int16_t, std::uint16_t, std::int32_t, std::uint32_t,
                         std::int64_t, std::uint64_t, st::half, st::bfloat16, float, double>;

}  // namespace test_mask

TEST_CASE_TEMPLATE_DEFINE("compress: every dtype and size, every density", T, test_mask_compress_types) {
  using namespace test_mask;
  const index_t sizes[] = {0, 1, 2, 7, 61, 64, 127, 4096, 4099, 12289};
  for (index_t n : sizes) {
    for (unsigned permille : {0u, 30u, 500u, 970u, 1000u}) {
      st::array<T, 1> x({n});
      st::array<bool, 1> m({n});
      fill(x.data(), n, static_cast<std::uint32_t>(n + permille));
      fill_mask(m.data(), n, static_cast<std::uint32_t>(7 * n + permille), permille);
      const auto want = ref_compress<T>(x, m, x.shape());
      CHECK_MESSAGE(bits_equal(st::compress(m, x), want), "n=", n, " permille=", permille);
      // the reversed view of both
      const auto xr = x(slice(st::none, st::none, -1));
      const auto mr = m(slice(st::none, st::none, -1));
      CHECK(bits_equal(st::compress(mr, xr), ref_compress<T>(xr, mr, xr.shape())));
    }
  }
}
TEST_CASE_TEMPLATE_APPLY(test_mask_compress_types, test_mask::types);

TEST_CASE("compress: strided 2-D views, broadcast masks, lazy masks and sources") {
  using namespace test_mask;
  st::array<float, 2> a({37, 106});
  fill(a.data(), a.size(), 3);
  const auto x = a(slice(st::none, st::none, -1), slice(0, st::end, 2));  // (37, 53), reversed rows, step 2
  st::array<bool, 2> mm({37, 53});
  fill_mask(mm.data(), mm.size(), 4, 400);
  CHECK(bits_equal(st::compress(mm, x), ref_compress<float>(x, mm, x.shape())));
  // a row mask (53,) broadcast over every row; a column mask (37, 1)
  st::array<bool, 1> row({53});
  fill_mask(row.data(), 53, 5, 500);
  st::array<bool, 2> rows({37, 53}), col({37, 1}), cols({37, 53});
  fill_mask(col.data(), 37, 6, 500);
  for (index_t i = 0; i < 37; ++i)
    for (index_t j = 0; j < 53; ++j) rows(i, j) = row(j), cols(i, j) = col(i, 0);
  CHECK(bits_equal(st::compress(row, x), ref_compress<float>(x, rows, x.shape())));
  CHECK(bits_equal(st::compress(col, x), ref_compress<float>(x, cols, x.shape())));
  // a lazy mask and a lazy source, against scalar loops
  std::vector<float> lin;
  for (index_t i = 0; i < 37; ++i)
    for (index_t j = 0; j < 53; ++j)
      if (x(i, j) > 0.0f) lin.push_back(x(i, j) * 2.0f + 1.0f);
  CHECK(bits_equal(st::compress(x > 0.0f, x * 2.0f + 1.0f), lin));
  // exp of the selected elements, against double exp (sparse and dense blocks)
  for (float cut : {0.0f, 8.5f}) {
    const auto got = st::compress(x > cut, st::exp(x));
    std::vector<double> want;
    for (index_t i = 0; i < 37; ++i)
      for (index_t j = 0; j < 53; ++j)
        if (x(i, j) > cut) want.push_back(std::exp(static_cast<double>(x(i, j))));
    REQUIRE(static_cast<std::size_t>(got.size()) == want.size());
    std::size_t bad = 0, k = 0;
    for (float v : got) bad += std::abs(v - want[k]) > 2e-6 * std::abs(want[k]), ++k;
    CHECK(bad == 0);
  }
  // a mask computed from an integer source
  st::array<std::int16_t, 2> i16({37, 53});
  fill(i16.data(), i16.size(), 8);
  std::vector<std::int16_t> odd;
  for (index_t k = 0; k < i16.size(); ++k)
    if (i16.data()[k] % 2 != 0) odd.push_back(i16.data()[k]);
  CHECK(bits_equal(st::compress((i16 % std::int16_t{2}) != std::int16_t{0}, i16), odd));
}

TEST_CASE_TEMPLATE("compress: par on 1, 2 and 3 threads is bitwise host's, 2^20 + 3 sampled", P, sinter::par) {
  using namespace test_mask;
  const index_t big = (index_t{1} << 20) + 3;
  for (index_t n : {index_t{100003}, big / test_mask::st::index_t{sinter_test::scale}}) {
    st::array<float, 1, P> x({n});
    st::array<bool, 1, P> m({n});
    fill(x.data(), n, 11);
    fill_mask(m.data(), n, 12, 500);
    const auto want = ref_compress<float>(x, m, x.shape());
    std::vector<float> lin(want.size());
    for (std::size_t k = 0; k != want.size(); ++k) lin[k] = want[k] * 0.5f;
    for (int threads : {1, 2, 3}) {
      st::set_num_threads(threads);
      CHECK_MESSAGE(bits_equal(st::compress(m, x), want), "threads=", threads);
      CHECK(bits_equal(st::compress(m, x * 0.5f), lin));
      const auto f = st::flatnonzero(m);
      std::vector<std::int64_t> fw;
      for (index_t k = 0; k < n; ++k)
        if (m(k)) fw.push_back(k);
      CHECK(bits_equal(f, fw));
    }
    st::set_num_threads(0);
    st::array<float, 1> xh({n});
    st::array<bool, 1> mh({n});
    fill(xh.data(), n, 11);
    fill_mask(mh.data(), n, 12, 500);
    CHECK(bits_equal(st::compress(mh, xh), want));
  }
}

TEST_CASE_TEMPLATE_DEFINE("flatnonzero and nonzero: every dtype, NaN non-zero, empty axes", T, test_mask_nonzero_types) {
  using namespace test_mask;
  for (auto shape : {st::extents<3>{{4, 7, 9}}, st::extents<3>{{5, 0, 3}}, st::extents<3>{{1, 1, 1}},
                     st::extents<3>{{3, 1, 61}}}) {
    st::array<T, 3> x(shape);
    fill(x.data(), x.size(), static_cast<std::uint32_t>(x.size()));
    for (index_t k = 0; k < x.size(); k += 3) x.data()[k] = T{};  // zeros among the values
    std::vector<std::int64_t> flat;
    std::vector<std::int64_t> ax[3];
    for (index_t k = 0; k < x.size(); ++k) {
      const auto c = index_refs::unflat(k, shape);
      if (static_cast<double>(static_cast<float>(x.data()[k])) != 0.0 || std::isnan(static_cast<float>(x.data()[k]))) {
        flat.push_back(k);
        for (std::size_t d = 0; d != 3; ++d) ax[d].push_back(c[d]);
      }
    }
    CHECK(bits_equal(st::flatnonzero(x), flat));
    const auto nz = st::nonzero(x);
    for (std::size_t d = 0; d != 3; ++d) CHECK(bits_equal(nz[d], ax[d]));
  }
}
TEST_CASE_TEMPLATE_APPLY(test_mask_nonzero_types, test_mask::types);

TEST_CASE("nonzero of a strided expression; compress along an axis") {
  using namespace test_mask;
  st::array<double, 2> a({13, 22});
  fill(a.data(), a.size(), 21);
  const auto x = a(slice(st::none, st::none, -1), slice(1, st::end, 2));  // (13, 11)
  const auto [i, j] = st::nonzero(x > 1.0);
  std::vector<std::int64_t> wi, wj;
  for (index_t r = 0; r < 13; ++r)
    for (index_t c = 0; c < 11; ++c)
      if (x(r, c) > 1.0) wi.push_back(r), wj.push_back(c);
  CHECK(bits_equal(i, wi));
  CHECK(bits_equal(j, wj));

  // numpy.compress(cond, x, axis) for both axes, a short condition and a long one false past the axis
  st::array<bool, 1> cond({14});
  fill_mask(cond.data(), 14, 22, 500);
  cond(13) = false;
  for (index_t ax : {0, 1, -1}) {
    const index_t len = ax == 0 ? 14 : 7;  // longer than axis 0 (13), shorter than axis 1 (11)
    const auto c = cond(slice(0, len));
    const auto got = st::compress(c, x, ax);
    std::vector<double> want;
    for (index_t r = 0; r < 13; ++r)
      for (index_t q = 0; q < 11; ++q)
        if ((ax == 0 ? (r < len && c(r)) : (q < len && c(q)))) want.push_back(x(r, q));
    CHECK(bits_equal(got, want));
    CHECK(got.shape()[ax == 0 ? 1 : 0] == (ax == 0 ? 11 : 13));
  }
  // true past the axis: index_error naming the index and the extent
  cond(13) = true;
  CHECK_THROWS_WITH_AS(st::compress(cond, x, 0), doctest::Contains("index 13, out of bounds for axis 0 with size 13"),
                       st::index_error);
  CHECK_THROWS_AS(st::compress(cond, x, 2), st::value_error);
}

// put_mask's pass is sinter's own where() (tested per dtype elsewhere); the
// cyclic values leaf is put_mask's own: several dtypes (compile time).
TEST_CASE_TEMPLATE_DEFINE("put_mask: cyclic values of several dtypes", T, test_mask_put_types) {
  using namespace test_mask;
  const index_t n0 = 6, n1 = 7;
  st::array<T, 2> x({n0, n1});
  st::array<bool, 2> m({n0, n1});
  st::array<T, 1> small({5}), large({50});
  fill(x.data(), x.size(), 31);
  fill(small.data(), 5, 33);
  fill(large.data(), 50, 34);
  fill_mask(m.data(), m.size(), 35, 500);
  auto check = [&](const auto& values, auto value_at, const char* what) {
    st::array<T, 2> y = x;
    st::put_mask(y, m, values);
    std::vector<T> want(x.begin(), x.end());
    for (index_t k = 0; k < x.size(); ++k)
      if (m.data()[k]) want[static_cast<std::size_t>(k)] = value_at(k);
    CHECK_MESSAGE(bits_equal(y, want), what);
  };
  check(small, [&](index_t k) { return small.data()[k % 5]; }, "cyclic, smaller");
  check(large, [&](index_t k) { return large.data()[k]; }, "larger");
  check(large(slice(st::none, st::none, -3)), [&](index_t k) { return large.data()[49 - 3 * (k % 17)]; },
        "cyclic, reversed view");
  // empty values: nothing changes (as numpy.putmask)
  st::array<T, 2> y = x;
  st::put_mask(y, m, st::array<T, 1>({0}));
  CHECK(bits_equal(y, std::vector<T>(x.begin(), x.end())));
}
TEST_CASE_TEMPLATE_APPLY(test_mask_put_types, std::tuple<bool, std::int8_t, std::uint64_t, sinter::half, double>);

TEST_CASE_TEMPLATE("put_mask: broadcast masks, expressions, strided x, aliasing; par", P, sinter::par) {
  using namespace test_mask;
  const index_t n = 70001;  // par splits it
  st::array<float, 1, P> x({n});
  fill(x.data(), n, 41);
  std::vector<float> old(x.begin(), x.end());
  for (int threads : {1, 2, 3}) {
    st::set_num_threads(threads);
    // values read from x reversed: NumPy reads the old values (a copy of values first)
    st::array<float, 1, P> y = x;
    st::put_mask(y, y > 0.0f, y(slice(st::none, st::none, -1)));
    std::vector<float> want = old;
    for (index_t k = 0; k < n; ++k)
      if (old[static_cast<std::size_t>(k)] > 0.0f) want[static_cast<std::size_t>(k)] = old[static_cast<std::size_t>(n - 1 - k)];
    CHECK(bits_equal(y, want));
    // cyclic values from x's own head: the old head, repeated
    y = x;
    st::put_mask(y, y < 0.0f, y(slice(0, 3)));
    want = old;
    for (index_t k = 0; k < n; ++k)
      if (old[static_cast<std::size_t>(k)] < 0.0f) want[static_cast<std::size_t>(k)] = old[static_cast<std::size_t>(k % 3)];
    CHECK(bits_equal(y, want));
    // a lazy value expression
    y = x;
    st::put_mask(y, st::isnan(y), x(slice(st::none, st::none, -1)) * 2.0f);
    want = old;
    for (index_t k = 0; k < n; ++k)
      if (std::isnan(old[static_cast<std::size_t>(k)]))
        want[static_cast<std::size_t>(k)] = old[static_cast<std::size_t>(n - 1 - k)] * 2.0f;
    CHECK(bits_equal(y, want));
  }
  st::set_num_threads(0);
  // a scalar
  st::array<float, 1, P> y = x;
  st::put_mask(y, y > 1.0f, 1);
  std::vector<float> want = old;
  for (auto& w : want)
    if (w > 1.0f) w = 1.0f;
  CHECK(bits_equal(y, want));
  // a strided view as x, a row mask broadcast over its rows, int values into float
  st::array<float, 2, P> a({9, 20});
  fill(a.data(), a.size(), 42);
  const std::vector<float> a0(a.begin(), a.end());
  st::array<bool, 1, P> row({10});
  fill_mask(row.data(), 10, 43, 500);
  st::array<std::int32_t, 1, P> vals({4});
  for (index_t k = 0; k < 4; ++k) vals(k) = static_cast<std::int32_t>(100 + k);
  st::put_mask(a(slice(st::none, st::none, -1), slice(0, st::end, 2)), row, vals);
  want = a0;
  for (index_t i = 0; i < 9; ++i)
    for (index_t j = 0; j < 10; ++j) {
      const index_t k = i * 10 + j;  // flat position in the view
      if (row(j)) want[static_cast<std::size_t>((8 - i) * 20 + 2 * j)] = static_cast<float>(100 + k % 4);
    }
  CHECK(bits_equal(a, want));
}

TEST_CASE("mask errors: shape_error naming both shapes, nothing written") {
  using namespace test_mask;
  st::array<float, 2> x({3, 4});
  fill(x.data(), x.size(), 51);
  const std::vector<float> old(x.begin(), x.end());
  st::array<bool, 1> m3({3});
  m3 = true;
  CHECK_THROWS_WITH_AS(st::compress(m3, x), "sinter::compress: shapes (3,) and (3, 4) do not broadcast", st::shape_error);
  CHECK_THROWS_WITH_AS(st::put_mask(x, m3, 1.0f), doctest::Contains("(3,)"), st::shape_error);
  CHECK_THROWS_WITH_AS(st::put_mask(x, m3, 1.0f), doctest::Contains("(3, 4)"), st::shape_error);
  st::array<bool, 3> big({2, 3, 4});
  big = true;
  CHECK_THROWS_AS(st::put_mask(x, big, 1.0f), st::shape_error);  // broadcasts, but not to x's shape
  CHECK(bits_equal(x, old));
}

TEST_CASE("put_mask's cyclic values leaf in the CUDA kernel body, on the grid emulator") {
  using namespace test_mask;
  st::array<float, 2> x({9, 13});
  st::array<bool, 2> m({9, 13});
  st::array<float, 1> v({5});
  fill(x.data(), x.size(), 61);
  fill_mask(m.data(), m.size(), 62, 500);
  fill(v.data(), 5, 63);
  using G = st::detail::cyclic_gen<float>;
  const st::extents<2> shape{{9, 13}};
  const st::expr<st::detail::gen_leaf<G, 2>, st::host> cyc(
      st::detail::gen_leaf<G, 2>{G{v.data(), 5}, 0, shape, st::detail::row_major_strides(shape)});
  // the expression put_mask assigns, run by the kernel body (one index
  // width, every thread of a few grids), against the host
  namespace rcd = st::detail::cuda_detail;
  const auto e = st::where(m, cyc, x);
  const st::array<float, 2> want = e;
  const auto bound = e.node().bind(shape);
  for (unsigned grid : {1u, 3u})
    for (unsigned block : {1u, 32u}) {
      st::array<float, 2> got({9, 13});
      got = 0.f;
      const auto o = got.leaf();
      const rcd::kernel_plan plan = rcd::choose_plan(o, bound);
      const auto sources = rcd::find_leaf_sources(bound);
      for (unsigned g = 0; g < grid; ++g)
        for (unsigned t = 0; t < block; ++t)
          rcd::fused_body<std::int64_t, false>(o, bound, sources, x.size(), plan.path,
                                               static_cast<std::int64_t>(plan.head),
                                               static_cast<std::int64_t>(g) * block + t,
                                               static_cast<std::int64_t>(grid) * block);
      CHECK(std::memcmp(got.data(), want.data(), sizeof(float) * 117) == 0);
    }
}
