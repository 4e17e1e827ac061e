// Boolean-mask extraction (issue 60), float32, 2^24 elements, a 50% random mask:
//
//   compress/<impl>   y = compress(m, x), m a bool array (NumPy's x[m]):
//                     sinter on host and par against a hand loop (one
//                     branch-free pass into a buffer allocated beforehand)
//   expr/<impl>       y = compress(x > 0, exp(x)) (NumPy's np.exp(x)[x > 0]),
//                     against a hand loop (std::exp of every element, kept
//                     where x > 0)
//
// Each case's output is checked against the hand loop's before timing.
// bench/mask_numpy.py times NumPy on the same data. Targets (issue 60):
// within 1.2x of the hand loop on host; the expression at least 3x NumPy;
// par at least 1.6x host.
//   ./bench_mask --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>

#include <sinter/mask.hpp>
#include <sinter/sinter.hpp>

namespace {

namespace st = sinter;
using st::index_t;

constexpr index_t n = index_t{1} << 24;

struct mask_data {
  st::array<float, 1, st::par> x{st::extents<1>{n}};
  st::array<bool, 1, st::par> m{st::extents<1>{n}};
  std::unique_ptr<float[]> out{new float[static_cast<std::size_t>(n)]};
  mask_data() {
    std::mt19937_64 g(1);
    for (auto& v : x) v = static_cast<float>(static_cast<double>(g() >> 11) * 0x1p-53 * 2.0 - 1.0);
    for (auto& v : m) v = (g() >> 63) != 0;
  }
};
mask_data& data() {
  static mask_data d;
  return d;
}

index_t compress_hand(float* out, const float* x, const bool* m) {
  index_t k = 0;
  for (index_t i = 0; i < n; ++i) {
    out[k] = x[i];
    k += m[i];
  }
  return k;
}
index_t expr_hand(float* out, const float* x) {
  index_t k = 0;
  for (index_t i = 0; i < n; ++i) {
    const float v = x[i];
    out[k] = std::exp(v);
    k += v > 0.0f;
  }
  return k;
}

template <class A>
void check(const A& got, const float* want, index_t k, float tol, const char* what) {
  bool ok = got.size() == k;
  for (index_t i = 0; ok && i < k; ++i) ok = std::abs(got.data()[i] - want[i]) <= tol * std::abs(want[i]);
  if (!ok) {
    std::fprintf(stderr, "bench_mask: %s differs from the hand loop\n", what);
    std::exit(1);
  }
}

void BM_compress_hand(benchmark::State& s) {
  auto& d = data();
  for (auto _ : s) {
    benchmark::DoNotOptimize(compress_hand(d.out.get(), d.x.data(), d.m.data()));
    benchmark::ClobberMemory();
  }
  s.SetItemsProcessed(s.iterations() * n);
}
template <class P>
void BM_compress_sinter(benchmark::State& s) {
  auto& d = data();
  const index_t k = compress_hand(d.out.get(), d.x.data(), d.m.data());
  const st::view<const float, 1, P> x(d.x.data(), {n});
  const st::view<const bool, 1, P> m(d.m.data(), {n});
  check(st::compress(m, x), d.out.get(), k, 0.0f, "compress");
  for (auto _ : s) {
    auto y = st::compress(m, x);
    benchmark::DoNotOptimize(y.data());
  }
  s.SetItemsProcessed(s.iterations() * n);
}
void BM_expr_hand(benchmark::State& s) {
  auto& d = data();
  for (auto _ : s) {
    benchmark::DoNotOptimize(expr_hand(d.out.get(), d.x.data()));
    benchmark::ClobberMemory();
  }
  s.SetItemsProcessed(s.iterations() * n);
}
template <class P>
void BM_expr_sinter(benchmark::State& s) {
  auto& d = data();
  const index_t k = expr_hand(d.out.get(), d.x.data());
  const st::view<const float, 1, P> x(d.x.data(), {n});
  check(st::compress(x > 0.0f, st::exp(x)), d.out.get(), k, 1e-6f, "compress of exp");
  for (auto _ : s) {
    auto y = st::compress(x > 0.0f, st::exp(x));
    benchmark::DoNotOptimize(y.data());
  }
  s.SetItemsProcessed(s.iterations() * n);
}

BENCHMARK(BM_compress_hand)->Name("compress/hand")->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_compress_sinter<st::host>)->Name("compress/host")->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_compress_sinter<st::par>)->Name("compress/par")->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_expr_hand)->Name("expr/hand")->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_expr_sinter<st::host>)->Name("expr/host")->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_expr_sinter<st::par>)->Name("expr/par")->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
