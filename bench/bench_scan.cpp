// Scans (issue 61), float32, n = 2^24:
//
//   cumsum/<impl>       out = cumsum(x): sinter on host and par (a new
//                       result array per call, from the host pool), against
//                       std::inclusive_scan (float running sum) and a hand
//                       loop accumulating in double (sinter's accuracy)
//   cumsum_expr/<impl>  out = cumsum(exp(x) * w): the producer fused into
//                       the scan, against a hand loop in double
//
// Each sinter result is checked against the double hand loop (within 1e-6
// relative at the last element) before timing. bench/scan_numpy.py times
// NumPy on the same cases. Targets (issue 61): host within 1.2x of the hand
// loop; par at least 1.6x host.
//   ./bench_scan --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <random>
#include <utility>
#include <vector>

#include <sinter/sinter.hpp>

namespace {

namespace st = sinter;
using st::index_t;

constexpr index_t n = index_t{1} << 24;

struct scan_data {
  std::vector<float> x = std::vector<float>(static_cast<std::size_t>(n)), w = x;
  std::vector<float> out = std::vector<float>(static_cast<std::size_t>(n));
  scan_data() {
    std::mt19937 g(1);
    std::uniform_real_distribution<float> u(0.f, 1.f);
    for (auto& v : x) v = u(g);
    for (auto& v : w) v = u(g);
  }
};
scan_data& data() {
  static scan_data d;
  return d;
}

void hand_double(float* out, const float* x) {
  double acc = 0;
  for (index_t i = 0; i < n; ++i) {
    acc += static_cast<double>(x[i]);
    out[i] = static_cast<float>(acc);
  }
}
void hand_expr(float* out, const float* x, const float* w) {
  double acc = 0;
  for (index_t i = 0; i < n; ++i) {
    acc += static_cast<double>(std::exp(x[i]) * w[i]);
    out[i] = static_cast<float>(acc);
  }
}

template <class A>
void check(const A& got, const std::vector<float>& want, const char* what) {
  const double g = static_cast<double>(got.data()[n - 1]), r = static_cast<double>(want.back());
  if (std::abs(g - r) > 1e-6 * std::abs(r)) {
    std::fprintf(stderr, "bench_scan: %s: last element %.9g, hand loop %.9g\n", what, g, r);
    std::exit(1);
  }
}

void BM_cumsum_inclusive_scan(benchmark::State& s) {
  auto& d = data();
  for (auto _ : s) {
    std::inclusive_scan(d.x.data(), d.x.data() + n, d.out.data());
    benchmark::ClobberMemory();
  }
  s.SetBytesProcessed(s.iterations() * 2 * n * 4);
}
void BM_cumsum_hand_double(benchmark::State& s) {
  auto& d = data();
  for (auto _ : s) {
    hand_double(d.out.data(), d.x.data());
    benchmark::ClobberMemory();
  }
  s.SetBytesProcessed(s.iterations() * 2 * n * 4);
}
template <class P>
void BM_cumsum_sinter(benchmark::State& s) {
  auto& d = data();
  std::vector<float> want(static_cast<std::size_t>(n));
  hand_double(want.data(), d.x.data());
  const auto x = st::as_view(std::as_const(d.x), P{});
  check(st::cumsum(x), want, "cumsum");
  for (auto _ : s) {
    auto r = st::cumsum(x);
    benchmark::DoNotOptimize(r.data());
  }
  s.SetBytesProcessed(s.iterations() * 2 * n * 4);
}

void BM_cumsum_expr_hand(benchmark::State& s) {
  auto& d = data();
  for (auto _ : s) {
    hand_expr(d.out.data(), d.x.data(), d.w.data());
    benchmark::ClobberMemory();
  }
  s.SetBytesProcessed(s.iterations() * 3 * n * 4);
}
template <class P>
void BM_cumsum_expr_sinter(benchmark::State& s) {
  auto& d = data();
  std::vector<float> want(static_cast<std::size_t>(n));
  hand_expr(want.data(), d.x.data(), d.w.data());
  const auto x = st::as_view(std::as_const(d.x), P{}), w = st::as_view(std::as_const(d.w), P{});
  check(st::cumsum(st::exp(x) * w), want, "cumsum(exp(x) * w)");
  for (auto _ : s) {
    auto r = st::cumsum(st::exp(x) * w);
    benchmark::DoNotOptimize(r.data());
  }
  s.SetBytesProcessed(s.iterations() * 3 * n * 4);
}

}  // namespace

BENCHMARK(BM_cumsum_inclusive_scan)->Name("cumsum/inclusive_scan")->Unit(benchmark::kMillisecond);
BENCHMARK(BM_cumsum_hand_double)->Name("cumsum/hand_double")->Unit(benchmark::kMillisecond);
BENCHMARK(BM_cumsum_sinter<st::host>)->Name("cumsum/sinter_host")->Unit(benchmark::kMillisecond);
BENCHMARK(BM_cumsum_sinter<st::par>)->Name("cumsum/sinter_par")->Unit(benchmark::kMillisecond);
BENCHMARK(BM_cumsum_expr_hand)->Name("cumsum_expr/hand_double")->Unit(benchmark::kMillisecond);
BENCHMARK(BM_cumsum_expr_sinter<st::host>)->Name("cumsum_expr/sinter_host")->Unit(benchmark::kMillisecond);
BENCHMARK(BM_cumsum_expr_sinter<st::par>)->Name("cumsum_expr/sinter_par")->Unit(benchmark::kMillisecond);
BENCHMARK_MAIN();
