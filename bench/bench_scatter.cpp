// Integer-array writes (issue 60), float32:
//
//   put/<impl>           put(x, idx, v): 2^22 random int64 indices (with
//                        repeats) into a 2^24-float array, values 2^22 floats;
//                        sinter on host and par (par: in order on the calling thread)
//                        against a hand loop (unchecked: x[idx[k]] = v[k])
//   scatter_add/<impl>   scatter_add(x, idx, v) likewise, against
//                        x[idx[k]] += v[k]
//
// Each case's result is checked against the hand loop's (bit for bit: par
// applies every destination's updates in the hand loop's order) before
// timing. bench/scatter_numpy.py times np.put and np.add.at on the same sizes.
//   ./bench_scatter --benchmark_repetitions=3 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#include <sinter/sinter.hpp>

namespace {

namespace st = sinter;
using st::index_t;

constexpr index_t x_n = index_t{1} << 24;
constexpr index_t idx_n = index_t{1} << 22;

struct scatter_data {
  st::array<float, 1, st::par> x{st::extents<1>{x_n}}, v{st::extents<1>{idx_n}};
  st::array<std::int64_t, 1, st::par> idx{st::extents<1>{idx_n}};
  scatter_data() {
    std::mt19937_64 g(1);
    for (auto& e : x) e = static_cast<float>(g() % 1000);
    for (auto& e : v) e = static_cast<float>(g() % 1000) * 0.001f;
    for (auto& e : idx) e = static_cast<std::int64_t>(g() % static_cast<std::uint64_t>(x_n));
  }
};
scatter_data& data() {
  static scatter_data d;
  return d;
}

template <bool Add>
void hand(float* x, const std::int64_t* idx, const float* v) {
  for (index_t k = 0; k < idx_n; ++k) {
    if constexpr (Add) x[idx[k]] += v[k];
    else x[idx[k]] = v[k];
  }
}

template <bool Add, class P>
void run_sinter(float* x, const std::int64_t* idx, const float* v) {
  st::view<float, 1, P> xv(x, {x_n});
  const st::view<const std::int64_t, 1, P> iv(idx, {idx_n});
  const st::view<const float, 1, P> vv(v, {idx_n});
  if constexpr (Add) st::scatter_add(xv, iv, vv);
  else st::put(xv, iv, vv);
}

template <bool Add>
void BM_hand(benchmark::State& s) {
  auto& d = data();
  std::vector<float> x(d.x.begin(), d.x.end());
  for (auto _ : s) {
    hand<Add>(x.data(), d.idx.data(), d.v.data());
    benchmark::ClobberMemory();
  }
  s.SetItemsProcessed(s.iterations() * idx_n);
}
template <bool Add, class P>
void BM_sinter(benchmark::State& s) {
  auto& d = data();
  std::vector<float> want(d.x.begin(), d.x.end()), x(want);
  hand<Add>(want.data(), d.idx.data(), d.v.data());
  run_sinter<Add, P>(x.data(), d.idx.data(), d.v.data());
  if (std::memcmp(x.data(), want.data(), sizeof(float) * static_cast<std::size_t>(x_n)) != 0) {
    std::fprintf(stderr, "bench_scatter: %s differs from the hand loop\n", Add ? "scatter_add" : "put");
    std::exit(1);
  }
  for (auto _ : s) {
    run_sinter<Add, P>(x.data(), d.idx.data(), d.v.data());
    benchmark::ClobberMemory();
  }
  s.SetItemsProcessed(s.iterations() * idx_n);
}

BENCHMARK(BM_hand<false>)->Name("put/hand")->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_sinter<false, st::host>)->Name("put/host")->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_sinter<false, st::par>)->Name("put/par")->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_hand<true>)->Name("scatter_add/hand")->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_sinter<true, st::host>)->Name("scatter_add/host")->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_sinter<true, st::par>)->Name("scatter_add/par")->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
