// Full reductions of odd lengths, where a fold ends on a partial row of its
// lanes (64 float or 32 double lanes: reduce/host_engine.hpp): the dot
// product sum(a * b) and sum((a - b) * (a - b)), float and double, n = 7 to
// 4097 (1024 and 4096 for comparison, no partial row), three ways side by
// side: sinter_host, a hand loop (one accumulator in order, as a user
// writes it; GCC keeps it scalar without -ffast-math) and Eigen Array
// expressions; and row sums of squares of a matrix with rows of 7, 100 and
// 1000 floats (row_sum_sq, one fold per row); and count_nonzero, all and
// any of a float comparison over 2^24 elements. Each result is checked
// first (sums against a long-double sum).
//   ./build/bench/bench_reduce_sizes --benchmark_min_time=0.05
#include <cmath>
#include <cstring>
#include <vector>

#include "suite.hpp"

namespace bench {
namespace {

enum class impl { sinter_host, hand, eigen };
enum class kernel { dot, sum_sq_diff };

// The inputs: buffer()'s 64-byte aligned arrays of uniform values in [-1, 1).
template <class T>
struct pair_of_inputs {
  const T* a;
  const T* b;
  explicit pair_of_inputs(index_t n)
      : a(buffer<T>("reduce_sizes_a", n, -1, 1, 3)), b(buffer<T>("reduce_sizes_b", n, -1, 1, 4)) {}
};

template <kernel K, impl I, class T>
T run_once(const T* pa, const T* pb, index_t n) {
  if constexpr (I == impl::sinter_host) {
    const auto a = sv(pa, n), b = sv(pb, n);
    if constexpr (K == kernel::dot) return st::sum(a * b);
    else return st::sum((a - b) * (a - b));
  } else if constexpr (I == impl::hand) {
    T s = 0;
    for (index_t i = 0; i < n; ++i) s += K == kernel::dot ? pa[i] * pb[i] : (pa[i] - pb[i]) * (pa[i] - pb[i]);
    return s;
  } else {
#if SINTER_BENCH_HAS_EIGEN
    using arr = Eigen::Array<T, Eigen::Dynamic, 1>;
    const Eigen::Map<const arr> a(pa, n), b(pb, n);
    if constexpr (K == kernel::dot) return (a * b).sum();
    else return (a - b).square().sum();
#else
    return T(0);
#endif
  }
}

template <kernel K, impl I, class T>
void reduce_size(benchmark::State& state) {
  const index_t n = state.range(0);
  pair_of_inputs<T> x(n);
  long double ref = 0, mag = 0;
  for (index_t i = 0; i < n; ++i) {
    const long double d = K == kernel::dot ? static_cast<long double>(x.a[i]) * x.b[i]
                                           : (static_cast<long double>(x.a[i]) - x.b[i]) * (static_cast<long double>(x.a[i]) - x.b[i]);
    ref += d;
    mag += std::fabs(d);
  }
  const T got = run_once<K, I, T>(x.a, x.b, n);
  const long double tol = (sizeof(T) == 4 ? 1e-5L : 1e-13L) * (mag + 1);
  if (std::fabs(static_cast<long double>(got) - ref) > tol) {
    state.SkipWithError("wrong result");
    return;
  }
  for (auto _ : state) {
    const T* pa = x.a;
    const T* pb = x.b;
    benchmark::DoNotOptimize(pa);
    benchmark::DoNotOptimize(pb);
    benchmark::DoNotOptimize(run_once<K, I, T>(pa, pb, n));
  }
  state.SetItemsProcessed(state.iterations() * n);
  state.SetBytesProcessed(state.iterations() * n * 2 * static_cast<index_t>(sizeof(T)));
}

// Row sums of squares of a rows x cols row-major matrix, rows = 2^16 / cols
// (each row a fold of `cols` elements): sinter's sum(m * m, axis(1)) (a
// new array each call), a hand loop per row, Eigen's colwise sums of the
// column-major cols x rows matrix into a preallocated row.
template <impl I>
void row_sums(benchmark::State& state) {
  const index_t cols = state.range(0), rows = (index_t(1) << 16) / cols;
  const float* p = buffer<float>("reduce_sizes_m", rows * cols, -1, 1, 5);
  std::vector<float> out(static_cast<std::size_t>(rows));
  const auto run = [&] {
    if constexpr (I == impl::sinter_host) {
      const auto r = st::sum(st::view<const float, 2>(p, {rows, cols}) * st::view<const float, 2>(p, {rows, cols}),
                             st::axis(1));
      std::memcpy(out.data(), r.data(), out.size() * sizeof(float));
    } else if constexpr (I == impl::hand) {
      for (index_t r = 0; r < rows; ++r) {
        float s = 0;
        for (index_t c = 0; c < cols; ++c) s += p[r * cols + c] * p[r * cols + c];
        out[static_cast<std::size_t>(r)] = s;
      }
    } else {
#if SINTER_BENCH_HAS_EIGEN
      using mat = Eigen::Array<float, Eigen::Dynamic, Eigen::Dynamic>;
      Eigen::Map<Eigen::Array<float, 1, Eigen::Dynamic>> o(out.data(), rows);
      o = Eigen::Map<const mat>(p, cols, rows).square().colwise().sum();
#endif
    }
  };
  run();
  for (index_t r = 0; r < rows; ++r) {
    long double ref = 0;  // a sum of squares: its own magnitude
    for (index_t c = 0; c < cols; ++c) ref += static_cast<long double>(p[r * cols + c]) * p[r * cols + c];
    if (std::fabs(out[static_cast<std::size_t>(r)] - ref) > 1e-5L * (ref + 1)) {
      state.SkipWithError("wrong result");
      return;
    }
  }
  for (auto _ : state) {
    run();
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * rows * cols);
  state.SetBytesProcessed(state.iterations() * rows * cols * static_cast<index_t>(sizeof(float)));
}

// A predicate folded over 2^24 floats in [-1, 1), every element read (all
// true, none true): count_nonzero(a > -2), all(a > -2), any(a > 2).
enum class pred_fold { count_nonzero, all, any };

template <pred_fold F>
void predicate_fold(benchmark::State& state) {
  const index_t n = index_t(1) << 24;
  const auto a = sv(buffer<float>("reduce_sizes_p", n, -1, 1, 6), n);
  const auto run = [&] {
    if constexpr (F == pred_fold::count_nonzero) return st::count_nonzero(a > -2.f) == n;
    else if constexpr (F == pred_fold::all) return st::all(a > -2.f);
    else return !st::any(a > 2.f);
  };
  if (!run()) {
    state.SkipWithError("wrong result");
    return;
  }
  for (auto _ : state) benchmark::DoNotOptimize(run());
  state.SetItemsProcessed(state.iterations() * n);
  state.SetBytesProcessed(state.iterations() * n * static_cast<index_t>(sizeof(float)));
}

void row_lengths(benchmark::internal::Benchmark* b) {
  for (const index_t c : {7, 100, 1000}) b->Arg(c);
}

void odd_sizes(benchmark::internal::Benchmark* b) {
  for (const index_t n : {7, 63, 100, 1000, 1024, 1087, 4095, 4096, 4097}) b->Arg(n);
}

#define SINTER_BENCH_REDUCE_SIZES(K, T, name)                                                          \
  BENCHMARK(reduce_size<kernel::K, impl::sinter_host, T>)->Name(name "/sinter_host")->Apply(odd_sizes); \
  BENCHMARK(reduce_size<kernel::K, impl::hand, T>)->Name(name "/hand")->Apply(odd_sizes);

SINTER_BENCH_REDUCE_SIZES(dot, float, "dot/f32")
SINTER_BENCH_REDUCE_SIZES(dot, double, "dot/f64")
SINTER_BENCH_REDUCE_SIZES(sum_sq_diff, float, "sum_sq_diff/f32")
SINTER_BENCH_REDUCE_SIZES(sum_sq_diff, double, "sum_sq_diff/f64")
BENCHMARK(row_sums<impl::sinter_host>)->Name("row_sum_sq/f32/sinter_host")->Apply(row_lengths);
BENCHMARK(row_sums<impl::hand>)->Name("row_sum_sq/f32/hand")->Apply(row_lengths);
BENCHMARK(predicate_fold<pred_fold::count_nonzero>)->Name("count_nonzero/f32_gt/2^24/sinter_host");
BENCHMARK(predicate_fold<pred_fold::all>)->Name("all/f32_gt/2^24/sinter_host");
BENCHMARK(predicate_fold<pred_fold::any>)->Name("any/f32_gt/2^24/sinter_host");
#if SINTER_BENCH_HAS_EIGEN
BENCHMARK(row_sums<impl::eigen>)->Name("row_sum_sq/f32/eigen")->Apply(row_lengths);
BENCHMARK(reduce_size<kernel::dot, impl::eigen, float>)->Name("dot/f32/eigen")->Apply(odd_sizes);
BENCHMARK(reduce_size<kernel::dot, impl::eigen, double>)->Name("dot/f64/eigen")->Apply(odd_sizes);
BENCHMARK(reduce_size<kernel::sum_sq_diff, impl::eigen, float>)->Name("sum_sq_diff/f32/eigen")->Apply(odd_sizes);
BENCHMARK(reduce_size<kernel::sum_sq_diff, impl::eigen, double>)->Name("sum_sq_diff/f64/eigen")->Apply(odd_sizes);
#endif

}  // namespace
}  // namespace bench

BENCHMARK_MAIN();
