// A costly subexpression used twice, `d = log(a) * b + 1` in
// `exp(d) * c - tanh(d)`, assigned (`assign`) and summed (`sum`), float,
// 2^10 to 2^20 elements, three ways side by side:
//  - sinter_host: the lazy expression as written (d is computed once per
//    element through a tile buffer: core/shared_nodes.hpp);
//  - sinter_eval: d materialised first with sinter::eval, then the
//    expression (two passes);
//  - hand: a plain loop computing d once per element (std::log, std::exp,
//    std::tanh, which GCC does not vectorise).
//   ./build/bench/bench_shared --benchmark_min_time=0.2
#include <cmath>
#include <random>
#include <vector>

#include "suite.hpp"

namespace bench {
namespace {

struct inputs {
  std::vector<float> a, b, c, out;
  explicit inputs(index_t n) : a(static_cast<std::size_t>(n)), b(a.size()), c(a.size()), out(a.size()) {
    std::mt19937 g(1);
    std::uniform_real_distribution<float> pos(0.5f, 2.f), sym(-1.f, 1.f);
    for (std::size_t i = 0; i < a.size(); ++i) {
      a[i] = pos(g);
      b[i] = sym(g);
      c[i] = sym(g);
    }
  }
};

// sinter, lazy (Eval false) or with d materialised first (Eval true).
template <bool Sum, bool Eval>
void sinter_run(benchmark::State& state) {
  const index_t n = state.range(0);
  inputs x(n);
  const auto a = sv(x.a.data(), n), b = sv(x.b.data(), n), c = sv(x.c.data(), n);
  auto out = sv(x.out.data(), n);
  const auto run = [&](const auto& d) {
    if constexpr (Sum) benchmark::DoNotOptimize(st::sum(st::exp(d) * c - st::tanh(d)));
    else out = st::exp(d) * c - st::tanh(d);
  };
  for (auto _ : state) {
    if constexpr (Eval) run(st::eval(st::log(a) * b + 1.f));
    else run(st::log(a) * b + 1.f);
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * n);
}

template <bool Sum>
void hand(benchmark::State& state) {
  const index_t n = state.range(0);
  inputs x(n);
  const float *__restrict a = x.a.data(), *__restrict b = x.b.data(), *__restrict c = x.c.data();
  float* __restrict out = x.out.data();
  for (auto _ : state) {
    double s = 0;
    for (index_t i = 0; i < n; ++i) {
      const float d = std::log(a[i]) * b[i] + 1.f;
      const float v = std::exp(d) * c[i] - std::tanh(d);
      if constexpr (Sum) s += v;
      else out[i] = v;
    }
    if constexpr (Sum) benchmark::DoNotOptimize(s);
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * n);
}

void shared_sizes(benchmark::internal::Benchmark* b) {
  for (int k = 10; k <= 20; k += 5) b->Arg(index_t(1) << k);
}

}  // namespace
}  // namespace bench

BENCHMARK(bench::sinter_run<false, false>)->Name("assign/sinter_host")->Apply(bench::shared_sizes);
BENCHMARK(bench::sinter_run<false, true>)->Name("assign/sinter_eval")->Apply(bench::shared_sizes);
BENCHMARK(bench::hand<false>)->Name("assign/hand")->Apply(bench::shared_sizes);
BENCHMARK(bench::sinter_run<true, false>)->Name("sum/sinter_host")->Apply(bench::shared_sizes);
BENCHMARK(bench::sinter_run<true, true>)->Name("sum/sinter_eval")->Apply(bench::shared_sizes);
BENCHMARK(bench::hand<true>)->Name("sum/hand")->Apply(bench::shared_sizes);
BENCHMARK_MAIN();
