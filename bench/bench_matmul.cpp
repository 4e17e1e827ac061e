// Matrix products (issue 62), one thread unless a name says par:
//
//   gemm/<type>/<n>/<impl>   C = A B, square n x n, float and double:
//                            openblas (cblas_?gemm called directly into a
//                            preallocated C), sinter (c = matmul(a, b): the
//                            pending product's one GEMM straight into c), sinter_into
//                            (matmul_into(c, a, b)), eigen (C.noalias() = A * B,
//                            Eigen's own GEMM)
//   mlp/<impl>               y = relu(x @ w + b), x 4096x1024, w 1024x1024,
//                            float: gemm_only (bare cblas_sgemm, the floor),
//                            three_step (GEMM, then + b, then relu: NumPy's
//                            way, as loops), sinter_two_step (matmul_into
//                            a whole product, then one sinter pass),
//                            sinter_expression (y = maximum(matmul(x, w) +
//                            b, 0): fused by assign's hook, linalg_fused.hpp),
//                            sinter_epilogue (matmul_epilogue: the explicit
//                            call; both run the epilogue on each block of
//                            rows after its GEMM)
//
// Each sinter result is checked against the direct call before timing.
// bench/matmul_numpy.py times NumPy on the same cases. Targets (issue 62):
// sinter >= 0.97x direct OpenBLAS from n = 1024; mlp/sinter_expression and
// mlp/sinter_epilogue >= 1.2x NumPy's three steps and within 1.05x of gemm_only.
//   ./bench_matmul --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <cblas.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>

#include <sinter/linalg.hpp>
#include <sinter/sinter.hpp>

#if SINTER_BENCH_HAS_EIGEN
#include <Eigen/Core>
#endif

namespace {

namespace st = sinter;
using st::index_t;

template <class T>
st::array<T, 2> random_matrix(index_t r, index_t c, unsigned seed) {
  st::array<T, 2> a(st::extents<2>{r, c});
  std::mt19937 g(seed);
  std::uniform_real_distribution<double> d(-1, 1);
  for (index_t i = 0; i < a.size(); ++i) a.data()[i] = static_cast<T>(d(g));
  return a;
}

template <class T>
void direct_gemm(index_t n, const T* a, const T* b, T* c) {
  const int k = static_cast<int>(n);
  if constexpr (std::is_same_v<T, float>)
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, k, k, k, 1.f, a, k, b, k, 0.f, c, k);
  else
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, k, k, k, 1.0, a, k, b, k, 0.0, c, k);
}

template <class T>
void check_close(const T* got, const T* want, index_t n, const char* what) {
  for (index_t i = 0; i < n; ++i)
    if (std::abs(double(got[i]) - double(want[i])) > 1e-3 * (1 + std::abs(double(want[i])))) {
      std::fprintf(stderr, "bench_matmul: %s differs at %lld\n", what, static_cast<long long>(i));
      std::abort();
    }
}

void one_thread() {
  st::set_num_threads(1);
  st::detail::blas_set_threads(1);
}

template <class T>
void BM_gemm(benchmark::State& s, int impl) {
  one_thread();
  const index_t n = s.range(0);
  const auto a = random_matrix<T>(n, n, 1), b = random_matrix<T>(n, n, 2);
  st::array<T, 2> c(st::extents<2>{n, n}), ref(st::extents<2>{n, n});
  direct_gemm<T>(n, a.data(), b.data(), ref.data());
#if SINTER_BENCH_HAS_EIGEN
  using M = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  Eigen::setNbThreads(1);
  const Eigen::Map<const M> ea(a.data(), n, n), eb(b.data(), n, n);
  Eigen::Map<M> ec(c.data(), n, n);
#endif
  const auto run = [&] {
    if (impl == 0) direct_gemm<T>(n, a.data(), b.data(), c.data());
    if (impl == 1) c = st::matmul(a, b);
    if (impl == 2) st::matmul_into(c, a, b);
#if SINTER_BENCH_HAS_EIGEN
    if (impl == 3) ec.noalias() = ea * eb;
#endif
  };
  run();
  check_close(c.data(), ref.data(), n * n, "gemm");
  for (auto _ : s) {
    run();
    benchmark::DoNotOptimize(c.data());
  }
  s.counters["GFLOP/s"] = benchmark::Counter(2.0 * double(n) * double(n) * double(n) * double(s.iterations()),
                                             benchmark::Counter::kIsRate, benchmark::Counter::kIs1000);
}

void BM_gemm_f32(benchmark::State& s, int impl) { BM_gemm<float>(s, impl); }
void BM_gemm_f64(benchmark::State& s, int impl) { BM_gemm<double>(s, impl); }

struct mlp_data {
  static constexpr index_t m = 4096, k = 1024, n = 1024;
  st::array<float, 2> x = random_matrix<float>(m, k, 3), w = random_matrix<float>(k, n, 4);
  st::array<float, 1> bias{st::extents<1>{n}};
  st::array<float, 2> y{st::extents<2>{m, n}}, ref{st::extents<2>{m, n}};
  mlp_data() {
    std::mt19937 g(5);
    for (index_t j = 0; j < n; ++j) bias.data()[j] = float(std::uniform_real_distribution<double>(-1, 1)(g));
  }
};

void BM_mlp(benchmark::State& s, int impl) {
  one_thread();
  static mlp_data d;
  const index_t m = d.m, k = d.k, n = d.n;
  const auto relu_of = [&](auto p) { return st::maximum(p + d.bias, 0.f); };
  const auto run = [&] {
    float* y = d.y.data();
    if (impl <= 1)
      cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, int(m), int(n), int(k), 1.f, d.x.data(), int(k),
                  d.w.data(), int(n), 0.f, y, int(n));
    if (impl == 1) {  // + b, then relu: two more passes over y
      for (index_t i = 0; i < m; ++i)
        for (index_t j = 0; j < n; ++j) y[i * n + j] += d.bias.data()[j];
      for (index_t i = 0; i < m * n; ++i) y[i] = y[i] > 0.f ? y[i] : 0.f;
    }
    if (impl == 2) d.y = st::maximum(st::matmul(d.x, d.w) + d.bias, 0.f);
    if (impl == 3) st::matmul_epilogue(d.y, d.x, d.w, relu_of);
    if (impl == 4) {
      st::matmul_into(d.y, d.x, d.w);
      d.y = st::maximum(d.y + d.bias, 0.f);
    }
  };
  if (impl != 0) {
    st::matmul_into(d.ref, d.x, d.w);
    d.ref = st::maximum(d.ref + d.bias, 0.f);
    run();
    check_close(d.y.data(), d.ref.data(), m * n, "mlp");
  }
  for (auto _ : s) {
    run();
    benchmark::DoNotOptimize(d.y.data());
  }
}

}  // namespace

BENCHMARK_CAPTURE(BM_gemm_f32, openblas, 0)->Name("gemm/f32/openblas")->Arg(256)->Arg(1024)->Arg(4096)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_gemm_f32, sinter, 1)->Name("gemm/f32/sinter")->Arg(256)->Arg(1024)->Arg(4096)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_gemm_f32, sinter_into, 2)->Name("gemm/f32/sinter_into")->Arg(256)->Arg(1024)->Arg(4096)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_gemm_f64, openblas, 0)->Name("gemm/f64/openblas")->Arg(256)->Arg(1024)->Arg(4096)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_gemm_f64, sinter, 1)->Name("gemm/f64/sinter")->Arg(256)->Arg(1024)->Arg(4096)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_gemm_f64, sinter_into, 2)->Name("gemm/f64/sinter_into")->Arg(256)->Arg(1024)->Arg(4096)->Unit(benchmark::kMillisecond)->UseRealTime();
#if SINTER_BENCH_HAS_EIGEN
BENCHMARK_CAPTURE(BM_gemm_f32, eigen, 3)->Name("gemm/f32/eigen")->Arg(256)->Arg(1024)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_gemm_f64, eigen, 3)->Name("gemm/f64/eigen")->Arg(256)->Arg(1024)->Unit(benchmark::kMillisecond)->UseRealTime();
#endif
BENCHMARK_CAPTURE(BM_mlp, gemm_only, 0)->Name("mlp/gemm_only")->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_mlp, three_step, 1)->Name("mlp/three_step")->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_mlp, sinter_two_step, 4)->Name("mlp/sinter_two_step")->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_mlp, sinter_expression, 2)->Name("mlp/sinter_expression")->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_mlp, sinter_epilogue, 3)->Name("mlp/sinter_epilogue")->Unit(benchmark::kMillisecond)->UseRealTime();

BENCHMARK_MAIN();
