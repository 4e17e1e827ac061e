// Histograms and unique (issue 61):
//
//   hist<bins>/<impl>   counts of 2^24 uniform floats in [0, 1) into 64 or
//                       4096 equal bins of [0, 1): sinter on host and par
//                       (counts and edges allocated per call), against a
//                       hand loop (the range test, the bin estimate, one
//                       add; memory-bound at 64 bins)
//   hist_exp64/<impl>   histogram(exp(x), 64, {1, e}): the producer fused
//   unique/<impl>       unique of 2^22 int32 in [0, 1000): sinter on host
//                       and par, against std::sort + std::unique
//
// Each sinter result is checked against the hand loop before timing.
// bench/histogram_numpy.py times NumPy on the same cases. Target (issue
// 61): the host histogram within 1.3x of the hand loop.
//   ./bench_histogram --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include <sinter/sinter.hpp>

namespace {

namespace st = sinter;
using st::index_t;

constexpr index_t n = index_t{1} << 24;
constexpr index_t nu = index_t{1} << 22;

struct hist_data {
  st::array<float, 1> x{st::extents<1>{n}};
  st::array<float, 1, st::par> xp{st::extents<1>{n}};
  st::array<std::int32_t, 1> u{st::extents<1>{nu}};
  st::array<std::int32_t, 1, st::par> up{st::extents<1>{nu}};
  hist_data() {
    std::mt19937 g(1);
    std::uniform_real_distribution<float> d(0.f, 1.f);
    for (index_t i = 0; i < n; ++i) xp.data()[i] = x.data()[i] = d(g);
    for (index_t i = 0; i < nu; ++i) up.data()[i] = u.data()[i] = static_cast<std::int32_t>(g() % 1000);
  }
};
hist_data& data() {
  static hist_data d;
  return d;
}

/// The hand loop: NumPy's equal-bin rule without its edge correction.
void hand(const float* x, index_t m, index_t bins, float lo, float hi, index_t* counts) {
  const float norm = static_cast<float>(bins) / (hi - lo);
  for (index_t i = 0; i < m; ++i) {
    const float v = x[i];
    if (!(v >= lo && v <= hi)) continue;
    index_t k = static_cast<index_t>((v - lo) * norm);
    counts[k == bins ? bins - 1 : k] += 1;
  }
}

template <class R>
void check(const R& got, const std::vector<index_t>& want, const char* what) {
  index_t diff = 0;
  for (std::size_t k = 0; k < want.size(); ++k) diff += std::abs(got.counts.data()[k] - want[k]);
  if (diff > 16) {  // the hand loop skips NumPy's correction: a few values on edges may differ
    std::fprintf(stderr, "bench_histogram: %s: %lld counts differ from the hand loop\n", what,
                 static_cast<long long>(diff));
    std::exit(1);
  }
}

void BM_hist_hand(benchmark::State& s) {
  const index_t bins = s.range(0);
  std::vector<index_t> c(static_cast<std::size_t>(bins));
  for (auto _ : s) {
    std::fill(c.begin(), c.end(), 0);
    hand(data().x.data(), n, bins, 0.f, 1.f, c.data());
    benchmark::DoNotOptimize(c.data());
  }
  s.SetBytesProcessed(s.iterations() * n * 4);
}

template <class P>
void BM_hist_sinter(benchmark::State& s) {
  const index_t bins = s.range(0);
  std::vector<index_t> want(static_cast<std::size_t>(bins));
  hand(data().x.data(), n, bins, 0.f, 1.f, want.data());
  const auto& x = [&]() -> const auto& {
    if constexpr (std::is_same_v<P, st::par>) return data().xp;
    else return data().x;
  }();
  check(st::histogram(x, bins, {0, 1}), want, "hist");
  for (auto _ : s) {
    auto r = st::histogram(x, bins, {0, 1});
    benchmark::DoNotOptimize(r.counts.data());
  }
  s.SetBytesProcessed(s.iterations() * n * 4);
}

void BM_hist_exp_hand(benchmark::State& s) {
  std::vector<index_t> c(64);
  std::vector<float> buf(4096);
  const float* x = data().x.data();
  for (auto _ : s) {
    std::fill(c.begin(), c.end(), 0);
    for (index_t b = 0; b < n; b += 4096) {
      for (index_t i = 0; i < 4096; ++i) buf[static_cast<std::size_t>(i)] = std::exp(x[b + i]);
      hand(buf.data(), 4096, 64, 1.f, static_cast<float>(M_E), c.data());
    }
    benchmark::DoNotOptimize(c.data());
  }
  s.SetBytesProcessed(s.iterations() * n * 4);
}

template <class P>
void BM_hist_exp_sinter(benchmark::State& s) {
  const auto& x = [&]() -> const auto& {
    if constexpr (std::is_same_v<P, st::par>) return data().xp;
    else return data().x;
  }();
  for (auto _ : s) {
    auto r = st::histogram(st::exp(x), 64, {1, M_E});
    benchmark::DoNotOptimize(r.counts.data());
  }
  s.SetBytesProcessed(s.iterations() * n * 4);
}

void BM_unique_hand(benchmark::State& s) {
  std::vector<std::int32_t> v(static_cast<std::size_t>(nu));
  for (auto _ : s) {
    std::copy(data().u.data(), data().u.data() + nu, v.begin());
    std::sort(v.begin(), v.end());
    benchmark::DoNotOptimize(std::unique(v.begin(), v.end()));
  }
}

template <class P>
void BM_unique_sinter(benchmark::State& s) {
  const auto& u = [&]() -> const auto& {
    if constexpr (std::is_same_v<P, st::par>) return data().up;
    else return data().u;
  }();
  if (st::unique(u).size() != 1000) {
    std::fprintf(stderr, "bench_histogram: unique: not 1000 values\n");
    std::exit(1);
  }
  for (auto _ : s) {
    auto r = st::unique(u);
    benchmark::DoNotOptimize(r.data());
  }
}

}  // namespace

BENCHMARK(BM_hist_hand)->Name("hist/hand")->Arg(64)->Arg(4096)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_hist_sinter<st::host>)->Name("hist/sinter_host")->Arg(64)->Arg(4096)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_hist_sinter<st::par>)->Name("hist/sinter_par")->Arg(64)->Arg(4096)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_hist_exp_hand)->Name("hist_exp64/hand")->Unit(benchmark::kMillisecond);
BENCHMARK(BM_hist_exp_sinter<st::host>)->Name("hist_exp64/sinter_host")->Unit(benchmark::kMillisecond);
BENCHMARK(BM_hist_exp_sinter<st::par>)->Name("hist_exp64/sinter_par")->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_unique_hand)->Name("unique/std_sort_unique")->Unit(benchmark::kMillisecond);
BENCHMARK(BM_unique_sinter<st::host>)->Name("unique/sinter_host")->Unit(benchmark::kMillisecond);
BENCHMARK(BM_unique_sinter<st::par>)->Name("unique/sinter_par")->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_MAIN();
