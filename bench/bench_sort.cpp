// Sorting (issue 61): sort and argsort of 2^20 and 2^24 keys, float, int32
// and int64, uniform random ("rand") and nearly sorted ("near": sorted, then
// 1% of the positions swapped with random others), as
//
//   sort/<type>/<n>/<dist>/<impl>      impl: sinter_host (sinter::sort on
//                                      host), sinter_par, std_sort,
//                                      std_stable_sort, std_par (std::sort
//                                      with std::execution::par on TBB,
//                                      when built with it)
//   argsort/<type>/<n>/<dist>/<impl>   impl: sinter_host, sinter_par,
//                                      std_stable (std::stable_sort of
//                                      indices by key)
//
// Each timed run copies the input into the output first (std: a vector
// copy; sinter: sort(x) allocates and evaluates x into the result), so
// every column includes one copy. sinter's results are checked against
// std::stable_sort's before timing. bench/sort_numpy.py times NumPy's
// np.sort and np.argsort on the same data. Targets (issue 61): float sort
// on host at least 2x std::sort at 2^24 and at least NumPy's speed; par at
// least 1.6x host.
//   ./bench_sort --benchmark_repetitions=3 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#if SINTER_BENCH_HAS_TBB
#include <execution>
#endif

#include <sinter/sinter.hpp>

namespace {

namespace st = sinter;
using st::index_t;

/// The keys: uniform random, or sorted with 1% of positions swapped.
template <class T>
std::vector<T> make_keys(index_t n, bool near) {
  std::mt19937_64 g(42);
  std::vector<T> v(static_cast<std::size_t>(n));
  for (auto& x : v) {
    if constexpr (std::is_floating_point_v<T>) x = static_cast<T>(std::uniform_real_distribution<double>(-1e6, 1e6)(g));
    else x = static_cast<T>(g());
  }
  if (near) {
    std::sort(v.begin(), v.end());
    for (index_t k = 0; k < n / 100; ++k) std::swap(v[g() % v.size()], v[g() % v.size()]);
  }
  return v;
}

template <class T>
bool key_less(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(a)) return false;
    if (std::isnan(b)) return true;
  }
  return a < b;
}

template <class T, class P>
st::array<T, 1, P> to_array(const std::vector<T>& v) {
  st::array<T, 1, P> a(st::extents<1>{static_cast<index_t>(v.size())});
  std::memcpy(a.data(), v.data(), v.size() * sizeof(T));
  return a;
}

void check(bool ok, const std::string& what) {
  if (!ok) {
    std::fprintf(stderr, "bench_sort: %s differs from std::stable_sort\n", what.c_str());
    std::exit(1);
  }
}

template <class T>
void register_sort(const char* type, index_t n, bool near) {
  const std::string tag = std::string(type) + "/" + (n == (index_t{1} << 20) ? "2^20" : "2^24") + "/" +
                          (near ? "near" : "rand");
  auto keys = std::make_shared<std::vector<T>>(make_keys<T>(n, near));
  auto want = std::make_shared<std::vector<T>>(*keys);
  std::stable_sort(want->begin(), want->end(), key_less<T>);
  auto host_x = std::make_shared<st::array<T, 1>>(to_array<T, st::host>(*keys));
  auto par_x = std::make_shared<st::array<T, 1, st::par>>(to_array<T, st::par>(*keys));
  check(std::memcmp(st::sort(*host_x).data(), want->data(), want->size() * sizeof(T)) == 0, "sort " + tag);
  check(std::memcmp(st::sort(*par_x).data(), want->data(), want->size() * sizeof(T)) == 0, "par sort " + tag);
  const auto reg = [&](const std::string& impl, auto f) {
    benchmark::RegisterBenchmark(("sort/" + tag + "/" + impl).c_str(), [f](benchmark::State& s) {
      for (auto _ : s) f();
      s.SetItemsProcessed(s.iterations() * s.range(0));
    })->Arg(n)->Unit(benchmark::kMillisecond)->UseRealTime();
  };
  reg("sinter_host", [host_x] { benchmark::DoNotOptimize(st::sort(*host_x).data()); });
  reg("sinter_par", [par_x] { benchmark::DoNotOptimize(st::sort(*par_x).data()); });
  reg("std_sort", [keys] {
    std::vector<T> w = *keys;
    std::sort(w.begin(), w.end());
    benchmark::DoNotOptimize(w.data());
  });
  reg("std_stable_sort", [keys] {
    std::vector<T> w = *keys;
    std::stable_sort(w.begin(), w.end());
    benchmark::DoNotOptimize(w.data());
  });
#if SINTER_BENCH_HAS_TBB
  reg("std_par", [keys] {
    std::vector<T> w = *keys;
    std::sort(std::execution::par, w.begin(), w.end());
    benchmark::DoNotOptimize(w.data());
  });
#endif
  // argsort
  std::vector<std::int64_t> wi(keys->size());
  for (std::size_t i = 0; i < wi.size(); ++i) wi[i] = static_cast<std::int64_t>(i);
  std::stable_sort(wi.begin(), wi.end(), [&](std::int64_t a, std::int64_t b) {
    return key_less((*keys)[static_cast<std::size_t>(a)], (*keys)[static_cast<std::size_t>(b)]);
  });
  check(std::memcmp(st::argsort(*host_x).data(), wi.data(), wi.size() * 8) == 0, "argsort " + tag);
  check(std::memcmp(st::argsort(*par_x).data(), wi.data(), wi.size() * 8) == 0, "par argsort " + tag);
  const auto rega = [&](const std::string& impl, auto f) {
    benchmark::RegisterBenchmark(("argsort/" + tag + "/" + impl).c_str(), [f](benchmark::State& s) {
      for (auto _ : s) f();
      s.SetItemsProcessed(s.iterations() * s.range(0));
    })->Arg(n)->Unit(benchmark::kMillisecond)->UseRealTime();
  };
  rega("sinter_host", [host_x] { benchmark::DoNotOptimize(st::argsort(*host_x).data()); });
  rega("sinter_par", [par_x] { benchmark::DoNotOptimize(st::argsort(*par_x).data()); });
  rega("std_stable", [keys] {
    std::vector<std::int64_t> idx(keys->size());
    for (std::size_t i = 0; i < idx.size(); ++i) idx[i] = static_cast<std::int64_t>(i);
    std::stable_sort(idx.begin(), idx.end(), [&](std::int64_t a, std::int64_t b) {
      return (*keys)[static_cast<std::size_t>(a)] < (*keys)[static_cast<std::size_t>(b)];
    });
    benchmark::DoNotOptimize(idx.data());
  });
}

}  // namespace

int main(int argc, char** argv) {
  for (const index_t n : {index_t{1} << 20, index_t{1} << 24})
    for (const bool near : {false, true}) {
      register_sort<float>("f32", n, near);
      register_sort<std::int32_t>("i32", n, near);
      register_sort<std::int64_t>("i64", n, near);
    }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
