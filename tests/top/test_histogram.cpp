// sinter::histogram and bincount (histogram.hpp) against NumPy values
// computed when the test was written (counts, edges, float32 weighted sums
// bit for bit) and against hand loops written here (each value's bin found
// among the edges by a binary search, NaN and out-of-range values dropped):
// random data with NaN, +-inf and duplicates, empty and size-1 inputs,
// 2^20 + 3 elements, strided and reversed views, a lazy operand, integer and
// float dtypes, host and par on 1, 2, 3 and 8 threads (counts identical and
// weighted sums bitwise identical), and every error path.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <sinter/histogram.hpp>
#include <sinter/sinter.hpp>
#include <vector>

#include "support/scale.hpp"

namespace test_histogram {

namespace st = sinter;
using st::index_t;
using st::slice;

template <class T>
st::array<T, 1> make(const std::vector<T>& v) {
  st::array<T, 1> a({static_cast<index_t>(v.size())});
  for (std::size_t i = 0; i < v.size(); ++i) a.data()[i] = v[i];
  return a;
}
template <class A>
auto vec(const A& a) {
  using T = std::remove_cvref_t<decltype(*a.data())>;
  return std::vector<T>(a.data(), a.data() + a.size());
}

/// The hand loop: per value, the bin among `edges` (edges[i] <= x <
/// edges[i + 1], the last closed) by binary search; NaN and values outside
/// dropped. Sums weights in double.
template <class E, class X>
std::vector<double> ref_hist(const std::vector<E>& edges, const X& x, const std::vector<double>* w = nullptr) {
  const std::size_t nb = edges.size() - 1;
  std::vector<double> c(nb, 0.0);
  for (std::size_t i = 0; i < x.size(); ++i) {
    const E v = static_cast<E>(x[i]);
    if (std::isnan(static_cast<double>(v)) || v < edges.front() || v > edges.back()) continue;
    std::size_t k = static_cast<std::size_t>(std::upper_bound(edges.begin(), edges.end(), v) - edges.begin()) - 1;
    if (k == nb) k = nb - 1;
    c[k] += w ? (*w)[i] : 1.0;
  }
  return c;
}

template <class T>
std::vector<T> random_data(index_t n, std::uint32_t seed, double lo, double hi, bool specials = true) {
  std::mt19937 g(seed);
  std::vector<T> v(static_cast<std::size_t>(n));
  for (auto& x : v) {
    const auto k = specials ? g() % 41 : 40;
    if constexpr (std::is_floating_point_v<T>) {
      if (k == 0) { x = std::numeric_limits<T>::quiet_NaN(); continue; }
      if (k == 1) { x = std::numeric_limits<T>::infinity(); continue; }
      if (k == 2) { x = -std::numeric_limits<T>::infinity(); continue; }
    }
    x = static_cast<T>(std::uniform_real_distribution<double>(lo, hi)(g));
  }
  return v;
}

template <class C>
std::vector<double> as_double(const C& c) {
  std::vector<double> d;
  for (index_t i = 0; i < c.size(); ++i) d.push_back(static_cast<double>(c.data()[i]));
  return d;
}

TEST_CASE("histogram: NumPy's counts, edges and float32 weighted sums") {
  std::vector<double> xd;
  for (int i = 0; i < 1000; ++i) xd.push_back(((i * 37) % 1001) / 100.0 - 5);
  const auto x = make(xd);
  const auto [c, e] = st::histogram(x, 7, {-4.3, 4.1});
  CHECK(vec(c) == std::vector<index_t>{120, 120, 120, 120, 120, 120, 121});
  CHECK(vec(e) == std::vector<double>{-4.3, -3.1, -1.9000000000000004, -0.7000000000000006, 0.4999999999999991,
                                      1.6999999999999984, 2.8999999999999986, 4.1});
  const auto r32 = st::histogram(st::cast<float>(x), 7, {-4.3, 4.1});
  CHECK(vec(r32.counts) == std::vector<index_t>{120, 120, 120, 120, 120, 120, 121});
  CHECK(vec(r32.edges) == std::vector<float>{-0x1.133334p+2f, -0x1.8cccccp+1f, -0x1.e66666p+0f, -0x1.666666p-1f,
                                             0x1p-1f, 0x1.b33334p+0f, 0x1.733334p+1f, 0x1.066666p+2f});
  // 200003 elements (four of NumPy's weight blocks): float32 sums bit for bit.
  std::vector<float> xf, wf;
  for (std::int64_t i = 0; i < 200003; ++i) {
    xf.push_back(static_cast<float>(static_cast<double>((i * 37) % 100003) / 10000.0 - 5));
    wf.push_back(static_cast<float>(static_cast<double>((i * 2654435761LL) % 1000003) / 1000003.0 * 0.1));
  }
  const auto xa = make(xf), wa = make(wf);
  const auto hw = st::histogram(xa, 16, {-4.3, 4.1}, wa);
  static_assert(std::is_same_v<std::remove_cvref_t<decltype(*hw.counts.data())>, float>);
  CHECK(vec(hw.counts) == std::vector<float>{0x1.069664p+9f, 0x1.069368p+9f, 0x1.066a04p+9f, 0x1.068c02p+9f,
                                             0x1.069738p+9f, 0x1.067936p+9f, 0x1.065e08p+9f, 0x1.0699a2p+9f,
                                             0x1.0671a6p+9f, 0x1.06ad4p+9f, 0x1.065212p+9f, 0x1.068da8p+9f,
                                             0x1.066444p+9f, 0x1.06a146p+9f, 0x1.066b14p+9f, 0x1.06841ap+9f});
  CHECK(vec(st::histogram(xa, 16, {-4.3, 4.1}).counts) ==
        std::vector<index_t>{10500, 10500, 10500, 10500, 10500, 10500, 10500, 10500, 10500, 10500, 10500, 10500,
                             10500, 10500, 10500, 10502});
  // Range from the data; integer input (double edges).
  std::vector<std::int32_t> xi;
  for (int i = 0; i < 1000; ++i) xi.push_back((i * 7) % 23);
  const auto ri = st::histogram(make(xi), 5);
  CHECK(vec(ri.counts) == std::vector<index_t>{218, 174, 217, 174, 217});
  CHECK(vec(ri.edges) == std::vector<double>{0.0, 4.4, 8.8, 13.200000000000001, 17.6, 22.0});
  // Explicit edges, an empty bin of equal edges.
  const auto re = st::histogram(x, make<double>({-5, -1, 0, 0, 2.5, 4.99}));
  CHECK(vec(re.counts) == std::vector<index_t>{400, 100, 0, 250, 249});
}

TEST_CASE_TEMPLATE("histogram: random data against the hand loop, views, dtypes", T, float, double, std::int32_t,
                   std::uint8_t, std::int64_t) {
  for (index_t n : {index_t(0), index_t(1), index_t(2), index_t(997), index_t(70001)}) {
    const auto v = random_data<T>(2 * n, static_cast<std::uint32_t>(n) + 3, -3, 120);
    const auto a = make(v);
    const auto view = a(slice(st::none, st::none, -2));  // reversed, strided
    std::vector<T> seen;
    for (index_t i = 0; i < view.size(); ++i) seen.push_back(view(i));
    for (index_t bins : {index_t(1), index_t(3), index_t(64), index_t(1000)}) {
      const auto [c, e] = st::histogram(view, bins, {-1.5, 100.25});
      REQUIRE(e.size() == bins + 1);
      CHECK(e.data()[0] == static_cast<decltype(e.data()[0] + 0)>(-1.5));
      CHECK(e.data()[bins] == static_cast<decltype(e.data()[0] + 0)>(100.25));
      CHECK(as_double(c) == ref_hist(vec(e), seen));
      // Explicit edges (the same ones): the same counts.
      CHECK(vec(st::histogram(view, e).counts) == vec(c));
    }
  }
}

TEST_CASE("histogram of a lazy operand, weights, 2^20 + 3 elements, host and par bitwise") {
  const index_t n = (index_t(1) << 20) / sinter_test::scale + 3;
  const auto xv = random_data<float>(n, 17, -2, 2.5);
  const auto wv = random_data<float>(n, 18, -1, 1, false);
  std::vector<float> ew(xv.size());
  std::vector<double> wd(xv.size());
  for (std::size_t i = 0; i < xv.size(); ++i) ew[i] = std::exp(xv[i]), wd[i] = wv[i];
  const auto x = make(xv), w = make(wv);
  const auto wz = w * 1.0f;  // lazy weights
  const st::array<float, 1> ex = st::exp(x);  // the lazy operand's values, materialised for the reference
  const auto lazy = st::histogram(st::exp(x), 64, {0, 10});
  const auto full = st::histogram(ex, 64, {0, 10});
  CHECK(vec(lazy.counts) == vec(full.counts));
  std::vector<float> exv = vec(ex);
  CHECK(as_double(lazy.counts) == ref_hist(vec(lazy.edges), exv));
  const auto host_w = st::histogram(st::exp(x), 64, {0, 10}, wz);
  const auto ref_w = ref_hist(vec(host_w.edges), exv, &wd);
  for (std::size_t k = 0; k < 64; ++k)
    CHECK(std::abs(static_cast<double>(host_w.counts.data()[k]) - ref_w[k]) <= 1e-4 * (1 + std::abs(ref_w[k])));
  const st::array<float, 1, st::par> xp = st::to<st::par>(x);
  const st::array<float, 1, st::par> wp = st::to<st::par>(wz);
  for (int threads : {1, 2, 3, 8}) {
    st::set_num_threads(threads);
    const auto pc = st::histogram(st::exp(xp), 64, {0, 10});
    CHECK(vec(pc.counts) == vec(lazy.counts));
    const auto pw = st::histogram(st::exp(xp), 64, {0, 10}, wp);
    CHECK(std::memcmp(pw.counts.data(), host_w.counts.data(), 64 * sizeof(float)) == 0);
    const auto pe = st::histogram(xp, lazy.edges, wp);  // explicit edges, weighted
    CHECK(std::memcmp(pe.counts.data(), st::histogram(x, lazy.edges, wz).counts.data(), 64 * sizeof(float)) == 0);
  }
  st::set_num_threads(0);
}

TEST_CASE("bincount: NumPy's counts, weights, minlength, empty, par") {
  std::vector<std::int32_t> xi;
  std::vector<double> w;
  for (int i = 0; i < 1000; ++i) xi.push_back((i * 7) % 23), w.push_back(static_cast<double>((i * 13) % 17) / 8);
  const auto x = make(xi);
  CHECK(vec(st::bincount(x, 30)) ==
        std::vector<index_t>{44, 44, 43, 44, 43, 44, 43, 44, 43, 43, 44, 43, 44, 43, 44, 43, 43, 44, 43, 44, 43, 44, 43,
                             0,  0,  0,  0,  0,  0,  0});
  const auto bw = st::bincount(x, make(w));
  REQUIRE(bw.size() == 23);
  CHECK(bw.data()[0] == 0x1.5cp+5);
  CHECK(bw.data()[19] == 0x1.6bp+5);
  CHECK(bw.data()[22] == 0x1.5fp+5);
  CHECK(st::bincount(st::array<std::uint8_t, 1>({0})).size() == 0);
  CHECK(vec(st::bincount(st::array<std::int64_t, 1>({0}), 3)) == std::vector<index_t>{0, 0, 0});
  CHECK(vec(st::bincount(make<std::int16_t>({4}))) == std::vector<index_t>{0, 0, 0, 0, 1});
  // Random, a lazy and reversed operand, par on 1, 2, 3 and 8 threads.
  const index_t n = (index_t(1) << 20) / sinter_test::scale + 3;
  st::array<std::int32_t, 1, st::par> r({n});
  std::mt19937 g(5);
  std::vector<index_t> want(300, 0);
  for (index_t i = 0; i < n; ++i) r.data()[i] = static_cast<std::int32_t>(g() % 150);
  for (index_t i = 0; i < n; ++i) ++want[static_cast<std::size_t>(r.data()[i] * 2)];
  for (int threads : {1, 2, 3, 8}) {
    st::set_num_threads(threads);
    const auto got = st::bincount(r(slice(st::none, st::none, -1)) * 2, 300);
    CHECK(vec(got) == want);
  }
  st::set_num_threads(0);
}

TEST_CASE("histogram and bincount errors, raised before any work") {
  const auto x = make<double>({1, 2, std::nan(""), 4});
  const auto nan_msg = doctest::Contains("autodetected range");
  CHECK_THROWS_WITH_AS(st::histogram(x, 0, {0, 1}), doctest::Contains("bins = 0 must be positive"), st::value_error);
  CHECK_THROWS_WITH_AS(st::histogram(x, -3, {0, 1}), doctest::Contains("bins = -3"), st::value_error);
  CHECK_THROWS_WITH_AS(st::histogram(x, 4, {1, 1}), doctest::Contains("needs finite lo < hi"), st::value_error);
  CHECK_THROWS_WITH_AS(st::histogram(x, 4, {2, 1}), doctest::Contains("needs finite lo < hi"), st::value_error);
  CHECK_THROWS_WITH_AS(st::histogram(x, 4, {0, std::nan("")}), doctest::Contains("lo < hi"), st::value_error);
  CHECK_THROWS_WITH_AS(st::histogram(x, 4), nan_msg, st::value_error);
  CHECK_THROWS_WITH_AS(st::histogram(x, make<double>({0, 2, 1})), doctest::Contains("increase monotonically"),
                       st::value_error);
  CHECK_THROWS_WITH_AS(st::histogram(x, st::array<double, 1>({0})), doctest::Contains("no edges"), st::value_error);
  CHECK_THROWS_WITH_AS(st::histogram(x, 4, {0, 1}, make<double>({1, 2})), doctest::Contains("weights of shape"),
                       st::shape_error);
  const auto neg = make<std::int32_t>({0, 5, 2, 1, 9, 0, 4, -3, 2, -7});
  CHECK_THROWS_WITH_AS(st::bincount(neg), doctest::Contains("negative value -7 at position 9"), st::value_error);
  CHECK_THROWS_WITH_AS(st::bincount(make<std::int32_t>({1}), -1), doctest::Contains("minlength = -1"),
                       st::value_error);
  CHECK_THROWS_WITH_AS(st::bincount(make<std::int32_t>({1, 2}), make<double>({1})), doctest::Contains("bincount"),
                       st::shape_error);
  // A single value and an empty operand.
  CHECK(vec(st::histogram(make<float>({3}), 2).counts) == std::vector<index_t>{0, 1});
  CHECK(vec(st::histogram(make<float>({3}), 2).edges) == std::vector<float>{2.5f, 3.0f, 3.5f});
  const auto empty = st::histogram(st::array<float, 1>({0}), 3);
  CHECK(vec(empty.counts) == std::vector<index_t>{0, 0, 0});
  CHECK(vec(empty.edges) == std::vector<float>{0.0f, 1.0f / 3, 2.0f / 3, 1.0f});
}

}  // namespace test_histogram
