// Rearranging and comparing (issue 60), float32, 2^20 and 2^24 elements:
//
//   roll/<impl>/<n>      out = roll(a, s, 0): sinter's lazy roll (a generator
//                        leaf reading a in place) on host and par, against a
//                        hand loop (two plain copies: the tail, then the head)
//   isclose/<impl>/<n>   out(bool) = isclose(a, b): one fused op, against a
//                        hand loop of numpy's formula
//   allclose/<impl>/<n>  allclose(a, b): a reduction, nothing allocated
//   pad/<impl>/<n>       out = pad(a, 1, "edge") (1-D), against a hand loop
//
// Each case's output is checked against the hand loop's before timing.
// bench/rearrange_numpy.py times NumPy on the same sizes and reads this
// program's JSON for issue 60's targets (within 1.2x of the hand loop on
// host; isclose at least 3x NumPy):
//   ./build/bench/bench_rearrange --benchmark_repetitions=7
//       --benchmark_report_aggregates_only=true --benchmark_out=/tmp/r.json
// (one command line).
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#include <sinter/sinter.hpp>

namespace {

namespace st = sinter;
using st::index_t;

constexpr index_t roll_shift = 12345;

struct data {
  std::vector<float> a, b;
  std::vector<float> out;
  std::vector<bool> unused;
  explicit data(index_t n) : a(static_cast<std::size_t>(n)), b(a.size()), out(a.size() + 2) {
    std::mt19937 g(7);
    std::uniform_real_distribution<float> u(-100, 100), e(-2e-4f, 2e-4f);
    for (std::size_t i = 0; i != a.size(); ++i) {
      a[i] = u(g);
      b[i] = a[i] * (1 + e(g));
    }
  }
};

void hand_roll(const float* __restrict a, float* __restrict o, index_t n, index_t s) {
  for (index_t i = 0; i < n - s; ++i) o[i + s] = a[i];
  for (index_t i = 0; i < s; ++i) o[i] = a[n - s + i];
}

void hand_isclose(const float* __restrict a, const float* __restrict b, bool* __restrict o, index_t n) {
  const float rtol = 1e-5f, atol = 1e-8f;
  for (index_t i = 0; i < n; ++i) {
    const float x = a[i], y = b[i];
    const float ay = std::fabs(y);
    o[i] = (std::fabs(x - y) <= atol + rtol * ay && ay <= 3.4028235e38f) | (x == y);
  }
}

void hand_pad_edge(const float* __restrict a, float* __restrict o, index_t n) {
  o[0] = a[0];
  for (index_t i = 0; i < n; ++i) o[i + 1] = a[i];
  o[n + 1] = a[n - 1];
}

void fail(const char* what) {
  std::fprintf(stderr, "bench_rearrange: %s differs from the hand loop\n", what);
  std::exit(1);
}

template <class P>
void roll_sinter(benchmark::State& state) {
  const index_t n = state.range(0);
  data d(n);
  const auto a = st::as_view(d.a, P{});
  auto o = st::view<float, 1, P>(d.out.data(), {n});
  std::vector<float> ref(d.a.size());
  hand_roll(d.a.data(), ref.data(), n, roll_shift);
  o = st::roll(a, roll_shift, 0);
  if (std::memcmp(ref.data(), d.out.data(), ref.size() * sizeof(float)) != 0) fail("roll");
  for (auto _ : state) {
    o = st::roll(a, roll_shift, 0);
    benchmark::DoNotOptimize(d.out.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * n);
}
void roll_hand(benchmark::State& state) {
  const index_t n = state.range(0);
  data d(n);
  for (auto _ : state) {
    hand_roll(d.a.data(), d.out.data(), n, roll_shift);
    benchmark::DoNotOptimize(d.out.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * n);
}

template <class P>
void isclose_sinter(benchmark::State& state) {
  const index_t n = state.range(0);
  data d(n);
  const auto a = st::as_view(d.a, P{}), b = st::as_view(d.b, P{});
  std::unique_ptr<bool[]> out(new bool[static_cast<std::size_t>(n)]), ref(new bool[static_cast<std::size_t>(n)]);
  auto o = st::view<bool, 1, P>(out.get(), {n});
  hand_isclose(d.a.data(), d.b.data(), ref.get(), n);
  o = st::isclose(a, b);
  if (std::memcmp(ref.get(), out.get(), static_cast<std::size_t>(n)) != 0) fail("isclose");
  for (auto _ : state) {
    o = st::isclose(a, b);
    benchmark::DoNotOptimize(out.get());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * n);
}
void isclose_hand(benchmark::State& state) {
  const index_t n = state.range(0);
  data d(n);
  std::unique_ptr<bool[]> out(new bool[static_cast<std::size_t>(n)]);
  for (auto _ : state) {
    hand_isclose(d.a.data(), d.b.data(), out.get(), n);
    benchmark::DoNotOptimize(out.get());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * n);
}

template <class P>
void allclose_sinter(benchmark::State& state) {
  const index_t n = state.range(0);
  data d(n);
  const auto a = st::as_view(d.a, P{}), b = st::as_view(d.b, P{});
  if (!st::allclose(a, b, 1e-3)) fail("allclose");
  for (auto _ : state) benchmark::DoNotOptimize(st::allclose(a, b, 1e-3));
  state.SetItemsProcessed(state.iterations() * n);
}

template <class P>
void pad_sinter(benchmark::State& state) {
  const index_t n = state.range(0);
  data d(n);
  const auto a = st::as_view(d.a, P{});
  auto o = st::view<float, 1, P>(d.out.data(), {n + 2});
  std::vector<float> ref(d.out.size());
  hand_pad_edge(d.a.data(), ref.data(), n);
  o = st::pad(a, 1, "edge");
  if (std::memcmp(ref.data(), d.out.data(), ref.size() * sizeof(float)) != 0) fail("pad");
  for (auto _ : state) {
    o = st::pad(a, 1, "edge");
    benchmark::DoNotOptimize(d.out.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * n);
}
void pad_hand(benchmark::State& state) {
  const index_t n = state.range(0);
  data d(n);
  for (auto _ : state) {
    hand_pad_edge(d.a.data(), d.out.data(), n);
    benchmark::DoNotOptimize(d.out.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * n);
}

}  // namespace

int main(int argc, char** argv) {
  for (index_t n : {index_t{1} << 20, index_t{1} << 24}) {
    benchmark::RegisterBenchmark("roll/sinter_host", roll_sinter<st::host>)->Arg(n);
    benchmark::RegisterBenchmark("roll/sinter_par", roll_sinter<st::par>)->Arg(n)->UseRealTime();
    benchmark::RegisterBenchmark("roll/hand", roll_hand)->Arg(n);
    benchmark::RegisterBenchmark("isclose/sinter_host", isclose_sinter<st::host>)->Arg(n);
    benchmark::RegisterBenchmark("isclose/sinter_par", isclose_sinter<st::par>)->Arg(n)->UseRealTime();
    benchmark::RegisterBenchmark("isclose/hand", isclose_hand)->Arg(n);
    benchmark::RegisterBenchmark("allclose/sinter_host", allclose_sinter<st::host>)->Arg(n);
    benchmark::RegisterBenchmark("allclose/sinter_par", allclose_sinter<st::par>)->Arg(n)->UseRealTime();
    benchmark::RegisterBenchmark("pad/sinter_host", pad_sinter<st::host>)->Arg(n);
    benchmark::RegisterBenchmark("pad/hand", pad_hand)->Arg(n);
  }
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
