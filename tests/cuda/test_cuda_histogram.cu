// histogram on the cuda policy (histogram_bins.hpp), compiled by nvcc into
// sinter_cuda_tests:
//  - no device needed: the kernel's three phases (zero, count, flush: the
//    SINTER_HD bodies the kernel calls between its barriers) run on an
//    emulated grid of 1, 3 and 7 blocks of 1, 32 and 256 threads, over a
//    lazy expression of a reversed, strided view with NaN and +-inf, and
//    give the host histogram's counts exactly;
//  - the bodies of search_cuda.hpp (searchsorted's search, explicit-edge
//    bins, weighted atomics on an emulated grid, unique's run passes) give
//    the host functions' results;
//  - device: histogram of a cuda array and of an expression against the
//    host's, and the cuda forms of searchsorted, digitize, unique_all,
//    bincount and weighted / explicit-edge histogram; reports "skipped: no
//    CUDA device" where none answers.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <limits>
#include <random>
#include <sinter/sinter.hpp>
#include <vector>

namespace test_cuda_histogram {

namespace st = sinter;
namespace sd = st::detail;
using st::index_t;
using st::slice;

st::array<float, 1> data(index_t n) {
  st::array<float, 1> a({n});
  std::mt19937 g(3);
  for (index_t i = 0; i < n; ++i) {
    const auto k = g() % 37;
    a.data()[i] = k == 0   ? std::numeric_limits<float>::quiet_NaN()
                  : k == 1 ? std::numeric_limits<float>::infinity()
                  : k == 2 ? -std::numeric_limits<float>::infinity()
                           : std::uniform_real_distribution<float>(-1.5f, 2.5f)(g);
  }
  return a;
}

TEST_CASE("cuda histogram: the kernel's phases on an emulated grid give the host's counts") {
  const auto a = data(20011);
  const auto v = a(slice(st::none, st::none, -3));  // reversed, strided
  const auto e = sd::as_expr(st::exp(v) - 1.0f);
  for (index_t bins : {index_t(1), index_t(7), index_t(64), index_t(5000)}) {
    const auto host = st::histogram(e, bins, {-0.5, 6.0});
    using Ed = float;
    const auto edges = sd::hist::linear_edges<Ed>(-0.5, 6.0, bins);
    const auto table = sd::hist::uniform_bin<float, Ed>::table(edges);
    const sd::hist::uniform_bin<float, Ed> bin{table.data(), -0.5f, static_cast<float>(static_cast<double>(bins) / 6.5),
                                               static_cast<float>(bins + 1)};
    const auto bound = e.node().bind(e.shape());
    const auto elem = sd::cuda_reduce::full_element<sd::reduce_ops::sum>(bound, e.shape());
    const index_t slots = sd::hist::uniform_bin<float, Ed>::slots(bins), n = e.size();
    for (unsigned grid : {1u, 3u, 7u})
      for (unsigned block : {1u, 32u, 256u}) {
        std::vector<unsigned long long> counts(static_cast<std::size_t>(slots), 0);
        std::vector<sd::hist_cuda::block_count> sh(static_cast<std::size_t>(slots));
        for (unsigned b = 0; b < grid; ++b) {
          for (unsigned t = 0; t < block; ++t) sd::hist_cuda::zero_slots(sh.data(), slots, t, block);
          for (unsigned t = 0; t < block; ++t)
            sd::hist_cuda::count_slots(elem, bin, n, sh.data(), b, grid, t, block);
          for (unsigned t = 0; t < block; ++t) sd::hist_cuda::flush_slots(sh.data(), counts.data(), slots, t, block);
        }
        bool same = true;
        for (index_t k = 0; k < bins; ++k)
          same = same && static_cast<index_t>(counts[static_cast<std::size_t>(k + 1)]) == host.counts.data()[k];
        CHECK(same);
      }
  }
}

TEST_CASE("cuda histogram: device counts and edges match the host") {
  if (!st::cuda_available()) {
    MESSAGE("skipped: no CUDA device");
    return;
  }
  const auto a = data(100003);
  const auto d = st::to<st::cuda>(a);
  for (index_t bins : {index_t(3), index_t(64), index_t(4096), index_t(20000)}) {
    const auto host = st::histogram(st::exp(a), bins, {0, 8});
    const auto dev = st::histogram(st::exp(d), bins, {0, 8});
    const auto c = st::to<st::host>(dev.counts);
    const auto ed = st::to<st::host>(dev.edges);
    CHECK(std::equal(c.data(), c.data() + bins, host.counts.data()));
    CHECK(std::equal(ed.data(), ed.data() + bins + 1, host.edges.data()));
  }
}

namespace sc = sd::search_cuda;

TEST_CASE("cuda search: the search body gives the host's searchsorted and digitize") {
  const auto a = data(4099);
  const auto s = st::sort(a(slice(0, 301)));  // NaN and +-inf included, NaN last
  const auto v = a(slice(st::none, st::none, -7));
  for (const bool right : {false, true}) {
    const auto host = st::searchsorted(s, v, right ? st::side::right : st::side::left);
    const sc::search_fn<float, float> f{s.data(), s.size(), right, false};
    bool same = true;
    for (index_t i = 0; i < v.size(); ++i) same = same && f(v(i)) == host.data()[i];
    CHECK(same);
  }
  // digitize of decreasing bins: the reversed bins searched from the end.
  std::vector<float> dec(s.data(), s.data() + s.size());
  std::reverse(dec.begin(), dec.end());
  st::array<float, 1> bins({static_cast<index_t>(dec.size())});
  std::copy(dec.begin(), dec.end(), bins.data());
  const auto host = st::digitize(v, bins);
  const sc::search_fn<float, float> f{s.data(), s.size(), true, true};  // right = false: side right
  bool same = true;
  for (index_t i = 0; i < v.size(); ++i) same = same && f(v(i)) == host.data()[i];
  CHECK(same);
}

TEST_CASE("cuda search: edge bins and weighted atomics on an emulated grid give the host's histogram") {
  const auto a = data(7919);
  const auto e = sd::as_expr(st::floor(a * 4.0f) * 0.25f);  // hits the edges exactly
  st::array<std::int32_t, 1> wi({a.size()});
  for (index_t i = 0; i < a.size(); ++i) wi.data()[i] = static_cast<std::int32_t>(i % 11) - 4;
  st::array<double, 1> edges({6});
  const double ed[] = {-2.0, -0.5, 0.0, 0.0, 1.25, 2.25};
  std::copy(ed, ed + 6, edges.data());
  const auto host = st::histogram(e, edges);
  const auto hostw = st::histogram(e, edges, wi);
  const sc::edge_bin_hd<float, double> bin{edges.data(), 5};
  const auto xe = sc::element_of(e);
  const auto we = sc::element_of(sd::as_expr(wi));
  for (unsigned grid : {1u, 5u})
    for (unsigned block : {1u, 32u}) {
      std::vector<unsigned long long> cnt(6, 0), acc(6, 0);
      std::vector<sd::hist_cuda::block_count> sh(6);
      for (unsigned b = 0; b < grid; ++b) {
        for (unsigned t = 0; t < block; ++t) sd::hist_cuda::zero_slots(sh.data(), 6, t, block);
        for (unsigned t = 0; t < block; ++t)
          sd::hist_cuda::count_slots(xe, bin, e.size(), sh.data(), b, grid, t, block);
        for (unsigned t = 0; t < block; ++t) sd::hist_cuda::flush_slots(sh.data(), cnt.data(), 6, t, block);
        for (unsigned t = 0; t < block; ++t)
          sc::add_weighted(xe, we, bin, e.size(), acc.data(), static_cast<index_t>(b) * block + t,
                           static_cast<index_t>(grid) * block);
      }
      bool same = true;
      for (std::size_t k = 0; k < 5; ++k)
        same = same && static_cast<index_t>(cnt[k]) == host.counts.data()[k] &&
               static_cast<index_t>(acc[k]) == hostw.counts.data()[k];
      CHECK(same);
    }
}

TEST_CASE("cuda search: unique's run passes give the host's unique_all") {
  const auto a = data(3001);
  st::array<float, 1> x({a.size()});
  for (index_t i = 0; i < a.size(); ++i)  // many duplicates, +-0 and NaN
    x.data()[i] = std::isnan(a.data()[i]) ? a.data()[i] : std::round(a.data()[i] * 4.0f) * (i % 2 ? 1.0f : -1.0f);
  const auto host = st::unique_all(x);
  using U = sd::sort_key<float>::U;
  const index_t n = x.size();
  std::vector<U> keys(static_cast<std::size_t>(n));
  for (index_t i = 0; i < n; ++i) keys[static_cast<std::size_t>(i)] = sd::sort_key<float>::of(x.data()[i]);
  std::vector<index_t> order(static_cast<std::size_t>(n)), run(order.size()), starts(order.size()), inv(order.size());
  std::iota(order.begin(), order.end(), index_t{0});
  std::stable_sort(order.begin(), order.end(), [&](index_t i, index_t j) {
    return keys[static_cast<std::size_t>(i)] < keys[static_cast<std::size_t>(j)];
  });
  std::vector<U> kout(keys.size());
  for (std::size_t k = 0; k < kout.size(); ++k) kout[k] = keys[static_cast<std::size_t>(order[k])];
  const sc::head_flag<U> head{kout.data()};
  index_t r = 0;
  for (index_t k = 0; k < n; ++k) run[static_cast<std::size_t>(k)] = r += head(k);  // CUB's inclusive sum
  const index_t runs = r + 1;
  std::vector<float> vals(static_cast<std::size_t>(runs));
  std::vector<index_t> first(vals.size()), counts(vals.size());
  const sc::run_writer<float, U> w{kout.data(), order.data(), run.data(), x.data(), vals.data(),
                                   first.data(), starts.data(), inv.data()};
  for (index_t k = n; k-- > 0;) w(k);  // any order
  const sc::run_counter c{starts.data(), runs, n, counts.data()};
  for (index_t k = 0; k < runs; ++k) c(k);
  REQUIRE(runs == host.values.size());
  CHECK(std::equal(first.begin(), first.end(), host.indices.data()));
  CHECK(std::equal(counts.begin(), counts.end(), host.counts.data()));
  CHECK(std::equal(inv.begin(), inv.end(), host.inverse_indices.data()));
  bool same = true;
  for (index_t k = 0; k < runs; ++k) {
    const float p = vals[static_cast<std::size_t>(k)], q = host.values.data()[k];
    same = same && (std::isnan(p) ? std::isnan(q) : std::signbit(p) == std::signbit(q) && p == q);
  }
  CHECK(same);
}

TEST_CASE("cuda search: device searchsorted, digitize, unique, bincount and histograms match the host") {
  if (!st::cuda_available()) {
    MESSAGE("skipped: no CUDA device");
    return;
  }
  const auto a = data(100003);
  const auto d = st::to<st::cuda>(a);
  const auto s = st::sort(a(slice(0, 999)));
  const auto ds = st::to<st::cuda>(s);
  const auto same = [](const auto& dev, const auto& host) {
    const auto h = st::to<st::host>(dev);
    return h.size() == host.size() && std::equal(h.data(), h.data() + h.size(), host.data());
  };
  CHECK(same(st::searchsorted(ds, st::exp(d), st::side::right), st::searchsorted(s, st::exp(a), st::side::right)));
  CHECK(same(st::searchsorted(s, d), st::searchsorted(s, a)));
  CHECK(same(st::digitize(d * 2.0f, s), st::digitize(a * 2.0f, s)));
  const auto q = st::array<float, 1>(st::floor(a * 8.0f));
  const auto hu = st::unique_all(q);
  const auto du = st::unique_all(st::to<st::cuda>(q));
  CHECK(same(du.indices, hu.indices));
  CHECK(same(du.counts, hu.counts));
  CHECK(same(du.inverse_indices, hu.inverse_indices));
  CHECK(st::to<st::host>(du.values).size() == hu.values.size());
  st::array<std::int32_t, 1> k({a.size()});
  for (index_t i = 0; i < a.size(); ++i) k.data()[i] = static_cast<std::int32_t>((i * 7919) % 523);
  const auto dk = st::to<st::cuda>(k);
  CHECK(same(st::bincount(dk, 600), st::bincount(k, 600)));
  CHECK(same(st::bincount(dk, dk), st::bincount(k, k)));  // integer-valued weights: exact
  k.data()[77] = -3;
  CHECK_THROWS_AS(st::bincount(st::to<st::cuda>(k)), st::value_error);
  CHECK(same(st::histogram(d, s).counts, st::histogram(a, s).counts));
  const auto ki = st::to<st::cuda>(st::array<std::int32_t, 1>(st::cast<std::int32_t>(a * 3.0f)));
  CHECK(same(st::histogram(d, 50, {-1.0, 2.0}, ki).counts,
             st::histogram(a, 50, {-1.0, 2.0}, st::cast<std::int32_t>(a * 3.0f)).counts));
}

}  // namespace test_cuda_histogram
