// Run-time ISA dispatch (include/sinter/policy/host/dispatch.hpp): each
// dispatched maths function against the C library's, per element, and the
// suite's maths kernels (exp_add, tanh_chain, Black-Scholes) and a rotation
// by sin and cos, float and
// double. Built three ways for the journal
// (docs/journal/2026-12-05-isa-dispatch.md): without -march (dispatch on,
// run with SINTER_ISA=sse2|avx2|avx512), without -march and
// -DSINTER_CPU_DISPATCH=0 (the build's own SSE2 loops), and -march=native:
//   g++ -std=c++20 -O3 -Iinclude bench/bench_isa_dispatch.cpp -lbenchmark -pthread -o b
//   SINTER_ISA=avx2 ./b --benchmark_filter='fn/'
#include <benchmark/benchmark.h>

#include <cmath>
#include <tuple>
#include <sinter/array.hpp>
#include <sinter/functions.hpp>
#include <sinter/tie.hpp>
#include <vector>

namespace {

namespace st = sinter;
using st::index_t;

/// n values on [lo, hi], spread evenly, shuffled by a stride.
template <class T>
st::array<T, 1> spread(index_t n, double lo, double hi) {
  st::array<T, 1> a({n});
  for (index_t i = 0; i < n; ++i)
    a(i) = static_cast<T>(lo + (hi - lo) * static_cast<double>((i * 7919) % n) / static_cast<double>(n));
  return a;
}

/// Elements per second, shown as nanoseconds per element.
void per_element(benchmark::State& s, index_t n) {
  s.counters["ns_per_el"] = benchmark::Counter(static_cast<double>(n),
                                               benchmark::Counter::kIsIterationInvariantRate |
                                                   benchmark::Counter::kInvert);
  s.counters["ns_per_el"] = s.counters["ns_per_el"] * 1e9;
}

#define FN_BENCH(fn, lo, hi)                                                           \
  template <class T>                                                                   \
  void fn_##fn(benchmark::State& s) {                                                  \
    const index_t n = s.range(0);                                                      \
    const auto x = spread<T>(n, lo, hi);                                               \
    st::array<T, 1> o({n});                                                            \
    for (auto _ : s) {                                                                 \
      o = st::fn(x);                                                                   \
      benchmark::DoNotOptimize(o.data());                                              \
    }                                                                                  \
    per_element(s, n);                                                                 \
  }                                                                                    \
  template <class T>                                                                   \
  void libm_##fn(benchmark::State& s) {                                                \
    const index_t n = s.range(0);                                                      \
    const auto x = spread<T>(n, lo, hi);                                               \
    std::vector<T> o(static_cast<std::size_t>(n));                                     \
    for (auto _ : s) {                                                                 \
      for (index_t i = 0; i < n; ++i) o[static_cast<std::size_t>(i)] = std::fn(x(i)); \
      benchmark::DoNotOptimize(o.data());                                              \
    }                                                                                  \
    per_element(s, n);                                                                 \
  }                                                                                    \
  BENCHMARK(fn_##fn<float>)->Name("fn/" #fn "/f32/sinter")->Arg(1 << 14);              \
  BENCHMARK(libm_##fn<float>)->Name("fn/" #fn "/f32/libm")->Arg(1 << 14);              \
  BENCHMARK(fn_##fn<double>)->Name("fn/" #fn "/f64/sinter")->Arg(1 << 14);             \
  BENCHMARK(libm_##fn<double>)->Name("fn/" #fn "/f64/libm")->Arg(1 << 14);

FN_BENCH(exp, -8, 8)
FN_BENCH(tanh, -4, 4)
FN_BENCH(exp2, -8, 8)
FN_BENCH(expm1, -4, 4)
FN_BENCH(log, 0.01, 100)
FN_BENCH(log2, 0.01, 100)
FN_BENCH(log10, 0.01, 100)
FN_BENCH(log1p, -0.5, 100)
FN_BENCH(sinh, -8, 8)
FN_BENCH(cosh, -8, 8)
FN_BENCH(asinh, -100, 100)
FN_BENCH(acosh, 1, 100)
FN_BENCH(atanh, -0.95, 0.95)
FN_BENCH(erf, -4, 4)
FN_BENCH(erfc, -4, 8)
FN_BENCH(sin, -100, 100)
FN_BENCH(cos, -100, 100)
FN_BENCH(tan, -100, 100)
FN_BENCH(asin, -1, 1)
FN_BENCH(acos, -1, 1)
FN_BENCH(atan, -50, 50)
#undef FN_BENCH

/// exp(a + b) * 2 (bench/bench_math.cpp's exp_add).
template <class T>
void exp_add(benchmark::State& s) {
  const index_t n = s.range(0);
  const auto a = spread<T>(n, -4, 4), b = spread<T>(n, -2, 2);
  st::array<T, 1> o({n});
  for (auto _ : s) {
    o = st::exp(a + b) * T(2);
    benchmark::DoNotOptimize(o.data());
  }
  per_element(s, n);
}

/// tanh(a * 0.5 + b) * c - sqrt(abs(a)) (bench_math.cpp's tanh_chain).
template <class T>
void tanh_chain(benchmark::State& s) {
  const index_t n = s.range(0);
  const auto a = spread<T>(n, -4, 4), b = spread<T>(n, -2, 2), c = spread<T>(n, 0.5, 2);
  st::array<T, 1> o({n});
  for (auto _ : s) {
    o = st::tanh(a * T(0.5) + b) * c - st::sqrt(st::abs(a));
    benchmark::DoNotOptimize(o.data());
  }
  per_element(s, n);
}

/// Black-Scholes call and put in one pass (bench_math.cpp's black_scholes).
template <class T>
void black_scholes(benchmark::State& s) {
  const index_t n = s.range(0);
  const auto sp = spread<T>(n, 5, 30), k = spread<T>(n, 1, 100), t = spread<T>(n, 0.25, 10);
  st::array<T, 1> call({n}), put({n});
  const T v = T(0.3), r = T(0.02), hr = T(0.02 + 0.5 * 0.3 * 0.3), c = T(0.70710678118654752440);
  for (auto _ : s) {
    const auto vs = st::sqrt(t) * v;
    const auto d1 = (st::log(sp / k) + t * hr) / vs;
    const auto d2 = d1 - vs;
    const auto ke = k * st::exp(t * -r);
    st::tie(call, put) = std::tuple(sp * T(0.5) * st::erfc(d1 * -c) - ke * T(0.5) * st::erfc(d2 * -c),
                                        ke * T(0.5) * st::erfc(d2 * c) - sp * T(0.5) * st::erfc(d1 * c));
    benchmark::DoNotOptimize(call.data());
  }
  per_element(s, n);
}

/// a * cos(t) - b * sin(t): a rotation's x, the sin/cos kernel.
template <class T>
void rotate(benchmark::State& s) {
  const index_t n = s.range(0);
  const auto a = spread<T>(n, -4, 4), b = spread<T>(n, -2, 2), t = spread<T>(n, -10, 10);
  st::array<T, 1> o({n});
  for (auto _ : s) {
    o = a * st::cos(t) - b * st::sin(t);
    benchmark::DoNotOptimize(o.data());
  }
  per_element(s, n);
}

BENCHMARK(rotate<float>)->Name("kernel/rotate/f32")->Arg(1 << 16)->Arg(1 << 20);
BENCHMARK(rotate<double>)->Name("kernel/rotate/f64")->Arg(1 << 16)->Arg(1 << 20);
BENCHMARK(exp_add<float>)->Name("kernel/exp_add/f32")->Arg(1 << 16)->Arg(1 << 20);
BENCHMARK(exp_add<double>)->Name("kernel/exp_add/f64")->Arg(1 << 16)->Arg(1 << 20);
BENCHMARK(tanh_chain<float>)->Name("kernel/tanh_chain/f32")->Arg(1 << 16)->Arg(1 << 20);
BENCHMARK(tanh_chain<double>)->Name("kernel/tanh_chain/f64")->Arg(1 << 16)->Arg(1 << 20);
BENCHMARK(black_scholes<float>)->Name("kernel/black_scholes/f32")->Arg(1 << 16)->Arg(1 << 20);
BENCHMARK(black_scholes<double>)->Name("kernel/black_scholes/f64")->Arg(1 << 16)->Arg(1 << 20);

}  // namespace

BENCHMARK_MAIN();
