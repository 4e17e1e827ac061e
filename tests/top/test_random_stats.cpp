// sinter::random's statistics at 10^6 samples (fewer in Debug and nvcc
// builds: support/scale.hpp), fixed keys so that every run draws the same
// numbers: chi-square of histograms, Kolmogorov-Smirnov against the exact
// CDFs, means and variances within 5 standard errors, per-value counts of
// small integer ranges, and correlations (split streams, fold_in streams,
// neighbouring elements) within 5 standard errors of zero. The bounds are
// 5-sigma (or p ~ 1e-6) ones: a correct generator fails none of them by
// chance, a biased mapping or a repeated stream fails them by far.
#include <doctest/doctest.h>

#include "support/scale.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <sinter/sinter.hpp>
#include <vector>

namespace st = sinter;
namespace sr = sinter::random;
using st::index_t;

namespace {

constexpr index_t stats_n = 1000000 / sinter_test::scale;

template <class A>
std::vector<double> stats_doubles(const A& a) {
  std::vector<double> v;
  v.reserve(static_cast<std::size_t>(a.size()));
  for (auto x : a) v.push_back(static_cast<double>(x));
  return v;
}

struct moments {
  double mean, var;
};
moments stats_moments(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x;
  const double m = s / static_cast<double>(v.size());
  double q = 0;
  for (double x : v) q += (x - m) * (x - m);
  return {m, q / static_cast<double>(v.size() - 1)};
}

/// Chi-square of counts against equal expectations; checks it lies within
/// 5 standard deviations (sqrt(2 df)) of its mean df, on both sides (a
/// histogram that is too flat is as wrong as one that is too rough).
void check_chi_square(const std::vector<double>& counts, double expect_each) {
  double chi = 0;
  for (double c : counts) chi += (c - expect_each) * (c - expect_each) / expect_each;
  const double df = static_cast<double>(counts.size() - 1);
  CAPTURE(chi);
  CAPTURE(df);
  CHECK(std::abs(chi - df) < 5 * std::sqrt(2 * df));
}

/// Kolmogorov-Smirnov: sqrt(n) * D below 1.95 (p = 0.001 of the
/// Kolmogorov distribution); the CDF is given.
template <class F>
void check_ks(std::vector<double> v, F cdf) {
  std::sort(v.begin(), v.end());
  const auto n = static_cast<double>(v.size());
  double d = 0;
  for (std::size_t i = 0; i < v.size(); ++i) {
    const double f = cdf(v[i]);
    d = std::max({d, f - static_cast<double>(i) / n, static_cast<double>(i + 1) / n - f});
  }
  CAPTURE(d);
  CHECK(std::sqrt(n) * d < 1.95);
}

/// |Pearson correlation| of x and y below 5 / sqrt(n).
void check_uncorrelated(const std::vector<double>& x, const std::vector<double>& y) {
  const moments mx = stats_moments(x), my = stats_moments(y);
  double c = 0;
  for (std::size_t i = 0; i < x.size(); ++i) c += (x[i] - mx.mean) * (y[i] - my.mean);
  const double r = c / (static_cast<double>(x.size() - 1) * std::sqrt(mx.var * my.var));
  CAPTURE(r);
  CHECK(std::abs(r) < 5 / std::sqrt(static_cast<double>(x.size())));
}

template <class T>
void check_uniform(const sr::key& k, double lo, double hi) {
  const st::array<T, 1> a = sr::uniform<T>(k, {stats_n}, lo, hi);
  const auto v = stats_doubles(a);
  const double w = hi - lo, n = static_cast<double>(stats_n);
  const int bins = 100;
  std::vector<double> counts(bins);
  std::size_t outside = 0;
  for (double x : v) {
    outside += !(x >= lo && x < hi);
    ++counts[static_cast<std::size_t>(std::min(bins - 1, static_cast<int>((x - lo) / w * bins)))];
  }
  CHECK(outside == 0);
  check_chi_square(counts, n / bins);
  const moments m = stats_moments(v);
  // mean: variance w^2/12; variance: its own variance (mu4 - sigma^4) / n, mu4 = w^4 / 80
  CHECK(std::abs(m.mean - (lo + hi) / 2) < 5 * std::sqrt(w * w / 12 / n));
  CHECK(std::abs(m.var - w * w / 12) < 5 * std::sqrt((std::pow(w, 4) / 80 - std::pow(w, 4) / 144) / n));
}

}  // namespace

TEST_CASE("random statistics: uniform float and double, histograms and moments") {
  check_uniform<float>(sr::key{1}, 0, 1);
  check_uniform<double>(sr::key{2}, -3, 5);
  check_uniform<float>(sr::key{3}, 10, 10.5);
}

TEST_CASE("random statistics: normal, Kolmogorov-Smirnov and moments") {
  const double n = static_cast<double>(stats_n);
  auto phi = [](double mean, double sd) {
    return [=](double x) { return 0.5 * std::erfc(-(x - mean) / (sd * std::sqrt(2.0))); };
  };
  const st::array<float, 1> f = sr::normal<float>(sr::key{4}, {stats_n}, 2, 3);
  const st::array<double, 1> d = sr::normal<double>(sr::key{5}, {stats_n});
  const auto vf = stats_doubles(f), vd = stats_doubles(d);
  check_ks(vf, phi(2, 3));
  check_ks(vd, phi(0, 1));
  const moments mf = stats_moments(vf), md = stats_moments(vd);
  CHECK(std::abs(mf.mean - 2) < 5 * 3 / std::sqrt(n));
  CHECK(std::abs(mf.var - 9) < 5 * 9 * std::sqrt(2 / n));
  CHECK(std::abs(md.mean) < 5 / std::sqrt(n));
  CHECK(std::abs(md.var - 1) < 5 * std::sqrt(2 / n));
  // the tails: |z| > 3 has probability 0.0026998
  const auto tail = static_cast<double>(std::count_if(vd.begin(), vd.end(), [](double z) { return std::abs(z) > 3; }));
  CHECK(std::abs(tail - 0.0026998 * n) < 5 * std::sqrt(0.0026998 * n));
}

TEST_CASE("random statistics: exponential, Kolmogorov-Smirnov and moments") {
  const double n = static_cast<double>(stats_n);
  const st::array<double, 1> d = sr::exponential<double>(sr::key{6}, {stats_n}, 2.5);
  const st::array<float, 1> f = sr::exponential<float>(sr::key{7}, {stats_n});
  const auto vd = stats_doubles(d), vf = stats_doubles(f);
  check_ks(vd, [](double x) { return -std::expm1(-x / 2.5); });
  check_ks(vf, [](double x) { return -std::expm1(-x); });
  const moments md = stats_moments(vd);
  CHECK(std::abs(md.mean - 2.5) < 5 * 2.5 / std::sqrt(n));
  CHECK(std::abs(md.var - 6.25) < 5 * std::sqrt(8 * std::pow(2.5, 4) / n));  // mu4 = 9 s^4
  CHECK(*std::min_element(vf.begin(), vf.end()) >= 0);
}

TEST_CASE("random statistics: integers, counts per value") {
  const double n = static_cast<double>(stats_n);
  {
    const st::array<std::int32_t, 1> a = sr::integers<std::int32_t>(sr::key{8}, {stats_n}, -3, 4);
    std::vector<double> counts(7);
    REQUIRE(std::all_of(a.begin(), a.end(), [](std::int32_t v) { return v >= -3 && v < 4; }));
    for (auto v : a) ++counts[static_cast<std::size_t>(v + 3)];
    check_chi_square(counts, n / 7);
  }
  {
    const st::array<std::uint8_t, 1> a = sr::integers<std::uint8_t>(sr::key{9}, {stats_n});
    std::vector<double> counts(256);
    for (auto v : a) ++counts[v];
    check_chi_square(counts, n / 256);
  }
  {
    // a 64-bit type (the 96-bit mapping) over a small range
    const st::array<std::int64_t, 1> a = sr::integers<std::int64_t>(sr::key{10}, {stats_n}, -1000000000000LL, -999999999990LL);
    std::vector<double> counts(10);
    REQUIRE(std::all_of(a.begin(), a.end(), [](std::int64_t v) { return v >= -1000000000000LL && v < -999999999990LL; }));
    for (auto v : a) ++counts[static_cast<std::size_t>(v + 1000000000000LL)];
    check_chi_square(counts, n / 10);
  }
  {
    // a range of 3 * 2^61: the top and bottom thirds equally likely
    const std::int64_t lo = -(std::int64_t{1} << 62), hi = std::int64_t{1} << 61;
    const st::array<std::int64_t, 1> a = sr::integers<std::int64_t>(sr::key{11}, {stats_n}, lo, hi);
    std::vector<double> counts(3);
    for (auto v : a) ++counts[static_cast<std::size_t>((static_cast<double>(v) - static_cast<double>(lo)) / 0x1p61)];
    check_chi_square(counts, n / 3);
  }
}

TEST_CASE("random statistics: bernoulli frequencies") {
  const double n = static_cast<double>(stats_n);
  for (double p : {0.3, 0.001, 0.5}) {
    CAPTURE(p);
    const st::array<bool, 1> a = sr::bernoulli(sr::key{12}, {stats_n}, p);
    const auto ones = static_cast<double>(std::count(a.begin(), a.end(), true));
    CHECK(std::abs(ones - p * n) < 5 * std::sqrt(n * p * (1 - p)));
  }
}

TEST_CASE("random statistics: split and fold_in streams and neighbouring elements are uncorrelated") {
  const sr::key k{13};
  const auto ks = sr::split(k, 3);
  const auto u0 = stats_doubles(st::array<double, 1>(sr::uniform<double>(ks[0], {stats_n})));
  const auto u1 = stats_doubles(st::array<double, 1>(sr::uniform<double>(ks[1], {stats_n})));
  const auto u2 = stats_doubles(st::array<double, 1>(sr::uniform<double>(k, {stats_n})));
  const auto f1 = stats_doubles(st::array<double, 1>(sr::normal<double>(sr::fold_in(k, 1), {stats_n})));
  const auto f2 = stats_doubles(st::array<double, 1>(sr::normal<double>(sr::fold_in(k, 2), {stats_n})));
  const auto same_key_normal = stats_doubles(st::array<double, 1>(sr::normal<double>(k, {stats_n})));
  check_uncorrelated(u0, u1);
  check_uncorrelated(u0, u2);
  check_uncorrelated(f1, f2);
  check_uncorrelated(u2, same_key_normal);  // distributions of one key use different tags
  // neighbours: x[i] against x[i + 1], and against x[i + 2^16]
  const std::vector<double> a(u0.begin(), u0.end() - 1), b(u0.begin() + 1, u0.end());
  check_uncorrelated(a, b);
  const auto shift = static_cast<std::ptrdiff_t>(std::min<index_t>(65536, stats_n / 2));
  const std::vector<double> c(f1.begin(), f1.end() - shift), d(f1.begin() + shift, f1.end());
  check_uncorrelated(c, d);
  // and a 2-D generator's rows against each other
  const st::array<double, 2> m = sr::uniform<double>(k, {2, stats_n / 2});
  check_uncorrelated(stats_doubles(m(0, st::all)), stats_doubles(m(1, st::all)));
}

TEST_CASE("random statistics: half and bfloat16 uniforms and normals") {
  const double n = static_cast<double>(stats_n);
  const st::array<st::half, 1> h = sr::uniform<st::half>(sr::key{14}, {stats_n});
  const st::array<st::bfloat16, 1> b = sr::normal<st::bfloat16>(sr::key{15}, {stats_n});
  const moments mh = stats_moments(stats_doubles(h)), mb = stats_moments(stats_doubles(b));
  // half rounds to 2^-11 steps (the mean moves by less than 2^-13), bfloat16 to 8 bits
  CHECK(std::abs(mh.mean - 0.5) < 5 * std::sqrt(1 / 12. / n) + 0x1p-13);
  CHECK(std::abs(mb.mean) < 5 / std::sqrt(n));
  CHECK(std::abs(mb.var - 1) < 5 * std::sqrt(2 / n) + 0.01);
}
