// sinter::searchsorted, digitize, unique, unique_counts, unique_inverse and
// unique_all (search.hpp) against NumPy values computed when the test was
// written and against hand references written here (linear counts, std::map):
// random data with NaN, +-inf, +-0 and duplicates, empty, size-1 and 2^20 + 3
// inputs (sampled), strided and reversed views, lazy operands, integer and
// float dtypes, host and par on 1, 2, 3 and 8 threads (identical), and
// every error path.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <random>
#include <sinter/search.hpp>
#include <sinter/sinter.hpp>
#include <string>
#include <vector>

#include "support/scale.hpp"

namespace test_search {

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
std::vector<index_t> idx_vec(const A& a) {
  return std::vector<index_t>(a.data(), a.data() + a.size());
}

/// Random values with duplicates; floats also NaN, +-inf and +-0.
template <class T>
std::vector<T> random_values(index_t n, std::uint32_t seed, int distinct = 50) {
  std::mt19937 g(seed);
  std::vector<T> v(static_cast<std::size_t>(n));
  for (auto& x : v) {
    const int r = static_cast<int>(g() % static_cast<std::uint32_t>(distinct)) - distinct / 2;
    if constexpr (std::is_floating_point_v<T>) {
      const auto k = g() % 29;
      x = k == 0 ? std::numeric_limits<T>::quiet_NaN()
          : k == 1 ? std::numeric_limits<T>::infinity()
          : k == 2 ? -std::numeric_limits<T>::infinity()
          : k == 3 ? T(-0.0)
                   : static_cast<T>(r) * T(0.5);
    } else {
      x = static_cast<T>(r);
    }
  }
  return v;
}

template <class T>
bool is_nan(T x) {
  if constexpr (std::is_floating_point_v<T>) return std::isnan(x);
  else return false;
}
/// NumPy's order, written out: NaN above every number.
template <class T>
bool ref_less(T a, T b) {
  if (is_nan(a)) return false;
  if (is_nan(b)) return true;
  return a < b;
}

/// searchsorted by counting (no binary search).
template <class T>
index_t ref_search(const std::vector<T>& s, T v, bool right) {
  index_t k = 0;
  for (T x : s) k += right ? !ref_less(v, x) : ref_less(x, v);
  return k;
}

/// unique's reference: a std::map of the numbers (-0 and 0 one key), NaN apart.
template <class T>
struct ref_unique {
  std::vector<T> values;
  std::vector<index_t> counts, first;
  explicit ref_unique(const std::vector<T>& v) {
    std::map<T, std::pair<index_t, index_t>> m;  // count, first position
    index_t nans = 0, nan_first = -1;
    for (std::size_t i = 0; i < v.size(); ++i) {
      if (is_nan(v[i])) {
        if (nans++ == 0) nan_first = static_cast<index_t>(i);
        continue;
      }
      auto it = m.find(v[i]);
      if (it == m.end()) m.emplace(v[i], std::pair<index_t, index_t>{1, static_cast<index_t>(i)});
      else ++it->second.first;
    }
    for (const auto& [k, cf] : m) values.push_back(k), counts.push_back(cf.first), first.push_back(cf.second);
    if (nans) values.push_back(std::numeric_limits<T>::quiet_NaN()), counts.push_back(nans), first.push_back(nan_first);
  }
};

template <class T>
bool same_value(T a, T b) {
  return (is_nan(a) && is_nan(b)) || a == b;
}

TEST_CASE("searchsorted and digitize: NumPy's values with NaN, +-inf, +-0") {
  const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
  const auto s = make<double>({-inf, -2.5, -0.0, 0.0, 1, 1, 1, 3.5, inf, nan, nan});
  const auto v = make<double>({nan, -inf, inf, 1, 0, -0.0, 2, -3, 3.5, 100});
  CHECK(idx_vec(st::searchsorted(s, v)) == std::vector<index_t>{9, 0, 8, 4, 2, 2, 7, 1, 7, 8});
  CHECK(idx_vec(st::searchsorted(s, v, st::side::right)) == std::vector<index_t>{11, 1, 9, 7, 4, 4, 7, 1, 8, 8});
  CHECK(idx_vec(st::searchsorted(s, v, "right")) == std::vector<index_t>{11, 1, 9, 7, 4, 4, 7, 1, 8, 8});
  const auto x = make<double>({-1, 0, 0.5, 1, 2.5, 3, 4, 5, nan, -inf, inf});
  const auto inc = make<double>({0, 1, 2.5, 4}), dec = make<double>({4, 2.5, 1, 0});
  CHECK(idx_vec(st::digitize(x, inc)) == std::vector<index_t>{0, 1, 1, 2, 3, 3, 4, 4, 4, 0, 4});
  CHECK(idx_vec(st::digitize(x, inc, true)) == std::vector<index_t>{0, 0, 1, 1, 2, 3, 3, 4, 4, 0, 4});
  CHECK(idx_vec(st::digitize(x, dec)) == std::vector<index_t>{4, 3, 3, 2, 1, 1, 0, 0, 0, 4, 0});
  CHECK(idx_vec(st::digitize(x, dec, true)) == std::vector<index_t>{4, 4, 3, 3, 2, 1, 1, 0, 0, 4, 0});
}

TEST_CASE_TEMPLATE("searchsorted: random sorted data, views, lazy values, host and par", T, float, double,
                   std::int32_t, std::int64_t, std::uint8_t) {
  for (index_t n : {index_t(0), index_t(1), index_t(2), index_t(17), index_t(1000)}) {
    auto sv = random_values<T>(n, static_cast<std::uint32_t>(n) + 1);
    std::sort(sv.begin(), sv.end(), ref_less<T>);
    const auto s = make(sv);
    const auto vv = random_values<T>(301, 7);
    const auto v = make(vv);
    const auto vr = v(slice(st::none, st::none, -3));  // reversed, strided
    for (int right = 0; right < 2; ++right) {
      const st::side sd = right ? st::side::right : st::side::left;
      const auto got = st::searchsorted(s, vr, sd);
      REQUIRE(got.size() == vr.size());
      for (index_t i = 0; i < got.size(); ++i) CHECK(got.data()[i] == ref_search(sv, vr(i), right));
      if constexpr (std::is_floating_point_v<T>) {  // lazy values: v * 2 evaluated in blocks
        const auto lazy = st::searchsorted(s, v * T(2), sd);
        for (index_t i = 0; i < lazy.size(); ++i) CHECK(lazy.data()[i] == ref_search(sv, T(vv[static_cast<std::size_t>(i)] * 2), right));
      }
    }
  }
}

TEST_CASE_TEMPLATE("searchsorted: 2^20 + 3 values, par on 1, 2, 3 and 8 threads identical to host", T, float) {
  const index_t big = (index_t(1) << 20) / sinter_test::scale + 3;
  auto sv = random_values<T>(513, 3);
  std::sort(sv.begin(), sv.end(), ref_less<T>);
  const auto s = make(sv);
  const auto vv = random_values<T>(big, 11);
  const auto v = make(vv);
  const auto host_res = st::searchsorted(s, v, st::side::right);
  for (index_t i = 0; i < big; i += 997 * sinter_test::scale)
    CHECK(host_res.data()[i] == ref_search(sv, vv[static_cast<std::size_t>(i)], true));
  const st::array<T, 1, st::par> vp = st::to<st::par>(v);
  for (int threads : {1, 2, 3, 8}) {
    st::set_num_threads(threads);
    const auto got = st::searchsorted(s, vp, st::side::right);
    static_assert(std::is_same_v<std::remove_cvref_t<decltype(got)>, st::array<index_t, 1, st::par>>);
    CHECK(std::equal(got.data(), got.data() + big, host_res.data()));
  }
  st::set_num_threads(0);
}

TEST_CASE("searchsorted of 2-D values keeps their shape; digitize of integers") {
  st::array<float, 2> v({3, 4});
  for (index_t i = 0; i < 12; ++i) v.data()[i] = static_cast<float>(i) - 3.5f;
  const auto s = make<float>({-2, 0, 0, 5});
  const auto got = st::searchsorted(s, st::transpose(v));
  REQUIRE(got.shape() == st::extents<2>{4, 3});
  for (index_t i = 0; i < 4; ++i)
    for (index_t j = 0; j < 3; ++j) CHECK(got(i, j) == ref_search<float>({-2, 0, 0, 5}, v(j, i), false));
  const auto xi = make<std::int32_t>({-5, 0, 3, 7, 10, 11});
  const auto bins = make<std::int32_t>({0, 5, 10});
  CHECK(idx_vec(st::digitize(xi, bins)) == std::vector<index_t>{0, 1, 1, 2, 3, 3});
  CHECK(idx_vec(st::digitize(xi, bins, true)) == std::vector<index_t>{0, 0, 1, 2, 2, 3});
  const auto empty_bins = st::array<std::int32_t, 1>({0});
  CHECK(idx_vec(st::digitize(xi, empty_bins)) == std::vector<index_t>(6, 0));
}

TEST_CASE("searchsorted and digitize errors") {
  const auto s = make<double>({1, 2, 3});
  CHECK_THROWS_WITH_AS(st::searchsorted(s, s, "middle"),
                       doctest::Contains("side must be \"left\" or \"right\", not \"middle\""), st::value_error);
  const auto bad = make<double>({0, 2, 1});
  CHECK_THROWS_WITH_AS(st::digitize(s, bad), doctest::Contains("monotonically increasing or decreasing"),
                       st::value_error);
}

TEST_CASE("unique family: NumPy's values (one NaN, as np.unique's equal_nan=True)") {
  const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
  const auto u = make<double>({3, nan, 1, 3, -0.0, 0.0, nan, 1, inf, -inf});
  const auto vals = st::unique(u);
  REQUIRE(vals.size() == 6);
  const std::vector<double> want{-inf, 0.0, 1, 3, inf, nan};
  for (std::size_t i = 0; i < 6; ++i) CHECK(same_value(vals.data()[i], want[i]));
  const auto all = st::unique_all(u);
  CHECK(idx_vec(all.indices) == std::vector<index_t>{9, 4, 2, 0, 8, 1});
  CHECK(idx_vec(all.inverse_indices) == std::vector<index_t>{3, 5, 2, 3, 1, 1, 5, 2, 4, 0});
  CHECK(idx_vec(all.counts) == std::vector<index_t>{1, 2, 2, 2, 1, 2});
  CHECK(std::signbit(st::unique(make<double>({-0.0, 1, 0.0})).data()[0]));  // the first of equal values
  CHECK(!std::signbit(st::unique(make<double>({0.0, 1, -0.0})).data()[0]));
  const auto [cv, cc] = st::unique_counts(make<std::int32_t>({5, 5, -2, 7, 5, -2}));
  CHECK(std::vector<std::int32_t>(cv.data(), cv.data() + cv.size()) == std::vector<std::int32_t>{-2, 5, 7});
  CHECK(idx_vec(cc) == std::vector<index_t>{2, 3, 1});
}

TEST_CASE_TEMPLATE("unique family: random data against std::map, views, lazy, host and par", T, float, double,
                   std::int32_t, std::int16_t, std::uint64_t) {
  for (index_t n : {index_t(0), index_t(1), index_t(5), index_t(1000), (index_t(1) << 20) + 3}) {
    if (n > 1000 && !std::is_same_v<T, std::int32_t>) continue;
    if (n > 1000) n /= sinter_test::scale;
    const auto v = random_values<T>(2 * n, static_cast<std::uint32_t>(n) + 5, n > 1000 ? 5000 : 50);
    const auto a = make(v);
    const auto view = a(slice(st::none, st::none, -2));  // reversed, every other element
    std::vector<T> seen;
    for (index_t i = 0; i < view.size(); ++i) seen.push_back(view(i));
    const ref_unique<T> ref(seen);
    const auto vals = st::unique(view);
    REQUIRE(vals.size() == static_cast<index_t>(ref.values.size()));
    for (std::size_t i = 0; i < ref.values.size(); ++i) CHECK(same_value(vals.data()[i], ref.values[i]));
    if (n <= 1000) {
      const auto counts = st::unique_counts(view);
      CHECK(idx_vec(counts.counts) == ref.counts);
      CHECK(idx_vec(st::unique_inverse(view).inverse_indices) == idx_vec(st::unique_all(view).inverse_indices));
    }
    const auto all = st::unique_all(view);
    CHECK(idx_vec(all.indices) == ref.first);
    CHECK(idx_vec(all.counts) == ref.counts);
    REQUIRE(all.inverse_indices.size() == view.size());
    bool inverse_ok = true;
    for (index_t i = 0; i < view.size(); ++i)
      inverse_ok = inverse_ok && same_value(all.values.data()[all.inverse_indices.data()[i]], view(i));
    CHECK(inverse_ok);
    const auto pv = st::to<st::par>(st::array<T, 1>(view));
    for (int threads : {1, 2, 3, 8}) {
      if (n > 1000 && threads != 3) continue;
      st::set_num_threads(threads);
      const auto pvals = st::unique(pv);
      static_assert(std::is_same_v<std::remove_cvref_t<decltype(pvals)>, st::array<T, 1, st::par>>);
      CHECK(pvals.size() == vals.size());
      if (vals.size() > 0)  // memcmp of null pointers (empty arrays) is undefined
        CHECK(std::memcmp(pvals.data(), vals.data(), static_cast<std::size_t>(vals.size()) * sizeof(T)) == 0);
    }
    st::set_num_threads(0);
  }
  if constexpr (std::is_floating_point_v<T>) {  // a lazy operand
    const auto a = make<T>({1, 2, 3, -1, -2});
    const auto sq = st::unique(a * a);
    CHECK(std::vector<T>(sq.data(), sq.data() + sq.size()) == std::vector<T>{1, 4, 9});
  }
}

TEST_CASE("unique_inverse of a 2-D operand has its shape") {
  st::array<std::int32_t, 2> x({2, 3});
  const std::int32_t v[] = {4, 1, 4, 9, 1, 1};
  for (index_t i = 0; i < 6; ++i) x.data()[i] = v[i];
  const auto r = st::unique_inverse(x);
  REQUIRE(r.inverse_indices.shape() == st::extents<2>{2, 3});
  CHECK(idx_vec(r.inverse_indices) == std::vector<index_t>{1, 0, 1, 2, 0, 0});
}

}  // namespace test_search
