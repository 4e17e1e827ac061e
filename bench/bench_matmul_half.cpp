// half and bfloat16 matrix products on host (issue 62), one thread, square n x n:
//
//   gemm16/f32/openblas       cblas_sgemm called directly (the floor)
//   gemm16/f32/sinter         matmul_into(c, a, b) of float
//   gemm16/f16/sinter         matmul_into of sinter::half: B widened once,
//                             A and C by blocks of rows, one sgemm per block
//   gemm16/bf16/sinter        the same for sinter::bfloat16
//   gemm16/f16/convert_only   the conversions alone (A, B widened, C narrowed)
//
// CPU time (the default), as the machine is shared: the 16-bit products'
// cost over float's is the conversions plus the per-block repacking of B.
// Each 16-bit result is checked against the float product before timing.
//   ./bench_matmul_half --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <cblas.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include <sinter/linalg.hpp>
#include <sinter/sinter.hpp>

namespace {

namespace st = sinter;
using st::index_t;

template <class T>
st::array<T, 2> random_matrix(index_t n, unsigned seed) {
  st::array<T, 2> a(st::extents<2>{n, n});
  std::mt19937 g(seed);
  std::uniform_real_distribution<double> d(-1, 1);
  for (index_t i = 0; i < a.size(); ++i) a.data()[i] = static_cast<T>(d(g));
  return a;
}

/// The 16-bit product against float's on the same (rounded) inputs; exits on a mismatch.
template <class T>
void check(const st::array<T, 2>& c, const st::array<T, 2>& a, const st::array<T, 2>& b) {
  const st::array<float, 2> af = st::cast<float>(a), bf = st::cast<float>(b);
  st::array<float, 2> want(c.shape());
  st::matmul_into(want, af, bf);
  const double u = static_cast<double>(static_cast<float>(std::numeric_limits<T>::epsilon()));
  for (index_t i = 0; i < c.size(); ++i) {
    const double g = static_cast<float>(c.data()[i]), w = want.data()[i];
    if (std::fabs(g - w) > u * (std::fabs(w) + 1e-3)) {
      std::fprintf(stderr, "bench_matmul_half: element %ld: %g, float gives %g\n", static_cast<long>(i), g, w);
      std::exit(1);
    }
  }
}

void BM_f32(benchmark::State& state, int impl) {
  const index_t n = state.range(0);
  const auto a = random_matrix<float>(n, 1), b = random_matrix<float>(n, 2);
  st::array<float, 2> c(st::extents<2>{n, n});
  const int k = static_cast<int>(n);
  for (auto _ : state) {
    if (impl == 0)
      cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, k, k, k, 1.f, a.data(), k, b.data(), k, 0.f, c.data(), k);
    else
      st::matmul_into(c, a, b);
    benchmark::DoNotOptimize(c.data());
  }
  state.counters["GFLOP/s"] = benchmark::Counter(2.0 * double(n) * double(n) * double(n),
                                                 benchmark::Counter::kIsIterationInvariantRate);
}

template <class T>
void BM_16(benchmark::State& state) {
  const index_t n = state.range(0);
  const auto a = random_matrix<T>(n, 1), b = random_matrix<T>(n, 2);
  st::array<T, 2> c(st::extents<2>{n, n});
  st::matmul_into(c, a, b);
  check(c, a, b);
  for (auto _ : state) {
    st::matmul_into(c, a, b);
    benchmark::DoNotOptimize(c.data());
  }
  state.counters["GFLOP/s"] = benchmark::Counter(2.0 * double(n) * double(n) * double(n),
                                                 benchmark::Counter::kIsIterationInvariantRate);
}

void BM_convert_only(benchmark::State& state) {
  const index_t n = state.range(0);
  const auto a = random_matrix<st::half>(n, 1), b = random_matrix<st::half>(n, 2);
  st::array<st::half, 2> c(st::extents<2>{n, n});
  std::vector<float> fa(static_cast<std::size_t>(n * n)), fb(fa.size()), fc(fa.size(), 0.5f);
  for (auto _ : state) {
    st::detail::half_widen(a.data(), n, n, n, 1, fa.data());
    st::detail::half_widen(b.data(), n, n, n, 1, fb.data());
    st::detail::half_narrow(fc.data(), n, n, c.data(), n, 1);
    benchmark::DoNotOptimize(c.data());
  }
}

/// One conversion alone over n x n contiguous elements (one row): 16 bits -> float
/// (widen) or float -> 16 bits (narrow), as half_blocks.hpp calls them.
template <class T, bool Narrow>
void BM_convert_1d(benchmark::State& state) {
  const index_t n = state.range(0), m = n * n;
  const auto a = random_matrix<T>(n, 1);
  st::array<T, 2> c(st::extents<2>{n, n});
  std::vector<float> f(static_cast<std::size_t>(m));
  st::detail::half_widen(a.data(), 1, m, m, 1, f.data());
  for (auto _ : state) {
    if (Narrow)
      st::detail::half_narrow(f.data(), 1, m, c.data(), m, 1);
    else
      st::detail::half_widen(a.data(), 1, m, m, 1, f.data());
    benchmark::DoNotOptimize(c.data());
    benchmark::DoNotOptimize(f.data());
  }
  state.SetItemsProcessed(state.iterations() * m);
}

}  // namespace

BENCHMARK_CAPTURE(BM_f32, openblas, 0)->Name("gemm16/f32/openblas")->Arg(256)->Arg(1024)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_f32, sinter, 1)->Name("gemm16/f32/sinter")->Arg(256)->Arg(1024)->Unit(benchmark::kMillisecond);
BENCHMARK_TEMPLATE(BM_16, sinter::half)->Name("gemm16/f16/sinter")->Arg(256)->Arg(1024)->Unit(benchmark::kMillisecond);
BENCHMARK_TEMPLATE(BM_16, sinter::bfloat16)->Name("gemm16/bf16/sinter")->Arg(256)->Arg(1024)->Unit(benchmark::kMillisecond);
BENCHMARK_TEMPLATE(BM_convert_1d, sinter::half, false)->Name("convert16/f16/widen")->Arg(1024)->Unit(benchmark::kMicrosecond);
BENCHMARK_TEMPLATE(BM_convert_1d, sinter::half, true)->Name("convert16/f16/narrow")->Arg(1024)->Unit(benchmark::kMicrosecond);
BENCHMARK_TEMPLATE(BM_convert_1d, sinter::bfloat16, false)->Name("convert16/bf16/widen")->Arg(1024)->Unit(benchmark::kMicrosecond);
BENCHMARK_TEMPLATE(BM_convert_1d, sinter::bfloat16, true)->Name("convert16/bf16/narrow")->Arg(1024)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_convert_only)->Name("gemm16/f16/convert_only")->Arg(256)->Arg(1024)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
