// Joining and gathering (issue 60), float32:
//
//   concatenate/<impl>   out = concatenate({a(), b()}), two 2^23-float arrays:
//                        sinter's lazy concatenation (a generator leaf reading
//                        both in place) on host and par, against a hand loop
//                        (two plain copies)
//   take/<impl>          out = take(x, idx, 0), 2^22 random int64 indices
//                        into a 2^24-float array (a checked gather), against
//                        a hand loop (unchecked, as a C programmer writes it)
//
// Each case's output is checked against the hand loop's before timing.
// bench/join_numpy.py times NumPy on the same sizes. Targets (issue 60):
// within 1.2x of the hand loop on host; take on par at least 1.6x host.
//   ./bench_join --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
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

constexpr index_t half_n = index_t{1} << 23;
constexpr index_t take_n = index_t{1} << 24;
constexpr index_t take_m = index_t{1} << 22;

struct join_data {
  st::array<float, 1, st::par> a{st::extents<1>{half_n}}, b{st::extents<1>{half_n}};
  st::array<float, 1, st::par> out{st::extents<1>{2 * half_n}};
  st::array<float, 1, st::par> x{st::extents<1>{take_n}};
  st::array<std::int64_t, 1, st::par> idx{st::extents<1>{take_m}};
  st::array<float, 1, st::par> gathered{st::extents<1>{take_m}};
  join_data() {
    std::mt19937_64 g(1);
    for (auto& v : a) v = static_cast<float>(g() % 1000);
    for (auto& v : b) v = static_cast<float>(g() % 1000);
    for (auto& v : x) v = static_cast<float>(g() % 1000);
    for (auto& v : idx) v = static_cast<std::int64_t>(g() % static_cast<std::uint64_t>(take_n));
  }
};
join_data& data() {
  static join_data d;
  return d;
}

void concat_hand(float* out, const float* a, const float* b) {
  std::memcpy(out, a, sizeof(float) * static_cast<std::size_t>(half_n));
  std::memcpy(out + half_n, b, sizeof(float) * static_cast<std::size_t>(half_n));
}
void take_hand(float* out, const float* x, const std::int64_t* idx) {
  for (index_t k = 0; k < take_m; ++k) out[k] = x[idx[k]];
}

void check(const float* got, const float* want, index_t n, const char* what) {
  if (std::memcmp(got, want, sizeof(float) * static_cast<std::size_t>(n)) != 0) {
    std::fprintf(stderr, "bench_join: %s differs from the hand loop\n", what);
    std::exit(1);
  }
}

void BM_concat_hand(benchmark::State& s) {
  auto& d = data();
  for (auto _ : s) {
    concat_hand(d.out.data(), d.a.data(), d.b.data());
    benchmark::ClobberMemory();
  }
  s.SetBytesProcessed(s.iterations() * 2 * 2 * half_n * 4);
}
template <class P>
void BM_concat_sinter(benchmark::State& s) {
  auto& d = data();
  std::vector<float> want(static_cast<std::size_t>(2 * half_n));
  concat_hand(want.data(), d.a.data(), d.b.data());
  st::view<float, 1, P> out(d.out.data(), {2 * half_n});
  const st::view<const float, 1, P> a(d.a.data(), {half_n}), b(d.b.data(), {half_n});
  out = st::concatenate({a, b});
  check(d.out.data(), want.data(), 2 * half_n, "concatenate");
  for (auto _ : s) {
    out = st::concatenate({a, b});
    benchmark::ClobberMemory();
  }
  s.SetBytesProcessed(s.iterations() * 2 * 2 * half_n * 4);
}
void BM_take_hand(benchmark::State& s) {
  auto& d = data();
  for (auto _ : s) {
    take_hand(d.gathered.data(), d.x.data(), d.idx.data());
    benchmark::ClobberMemory();
  }
  s.SetItemsProcessed(s.iterations() * take_m);
}
template <class P>
void BM_take_sinter(benchmark::State& s) {
  auto& d = data();
  std::vector<float> want(static_cast<std::size_t>(take_m));
  take_hand(want.data(), d.x.data(), d.idx.data());
  st::view<float, 1, P> out(d.gathered.data(), {take_m});
  const st::view<const float, 1, P> x(d.x.data(), {take_n});
  const st::view<const std::int64_t, 1, P> idx(d.idx.data(), {take_m});
  out = st::take(x, idx, 0);
  check(d.gathered.data(), want.data(), take_m, "take");
  for (auto _ : s) {
    out = st::take(x, idx, 0);
    benchmark::ClobberMemory();
  }
  s.SetItemsProcessed(s.iterations() * take_m);
}

BENCHMARK(BM_concat_hand)->Name("concatenate/hand")->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_concat_sinter<st::host>)->Name("concatenate/host")->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_concat_sinter<st::par>)->Name("concatenate/par")->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_take_hand)->Name("take/hand")->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_take_sinter<st::host>)->Name("take/host")->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_take_sinter<st::par>)->Name("take/par")->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
