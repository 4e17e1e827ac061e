// Random numbers (issue 59): filling an array, and noise fused into an
// expression, float (f32) and double (f64), 2^16, 2^20 and 2^24 elements.
//
//   fill/<uniform|normal>/<dtype>/<impl>/<n>
//     sinter_host, sinter_par  out = sinter::random::uniform<T>(k, {n}) (or
//                              normal<T>): the counter-based lazy leaf, one pass
//     mt19937                  a loop of std::uniform_real_distribution<T> /
//                              std::normal_distribution<T> on std::mt19937
//     philox                   the same on std::philox4x32, where the standard
//                              library has it (__cpp_lib_philox_engine;
//                              libstdc++ 12 does not, so no such rows there)
//   fill/store/<dtype>/<sinter_host|hand>/<n>
//     a plain store of a constant (sinter's `out = c`, which streams large
//     outputs as every pass does; a hand loop of ordinary stores): the
//     bandwidth a fill is read against
//   noise_add/<dtype>/<fused|materialise>_<host|par>/<n>
//     out = a + 0.1 * normal<T>(k, {n}) in one pass, against the draws
//     stored to a preallocated array first and then out = a + 0.1 * tmp
//   reduce/<montecarlo|sum_normal>/<dtype>/<lazy|pass_sum>/<n>
//     sinter::sum(x * x + y * y < 1) over two uniform<T> leaves (or
//     sum(normal<T>)): the lazy reduction, against the pass into a
//     preallocated array followed by its sum (the same bits: checked)
//
// Before timing, each case's output is checked: uniform values in [0, 1),
// means and variances within 5 standard errors, par's bits equal to
// host's, the fused noise-add equal to the materialised one. bench/
// random_numpy.py times NumPy's Generator on the same sizes and reads this
// program's JSON for issue 59's targets (bench/README.md, "Random numbers").
//   ./build/bench/bench_random --benchmark_enable_random_interleaving=true
//       --benchmark_repetitions=7 --benchmark_report_aggregates_only=true
// (one command line).
#include <cmath>
#include <cstring>
#include <memory>
#include <random>
#include <type_traits>
#include <string>
#include <version>

#include <sinter/random.hpp>

#include "suite.hpp"

namespace bench {
namespace {

enum class dist { uniform, normal };
const st::random::key rng_key{59};

// Where each role's buffer lives: suite.hpp's aligned, cached buffers.
template <class T>
T* out_buffer(index_t n) {
  return buffer<T>("random_out", n, 0, 1, 1, 0);
}
template <class T>
T* tmp_buffer(index_t n) {
  return buffer<T>("random_tmp", n, 0, 1, 2, 1024);
}
template <class T>
const T* in_buffer(index_t n) {
  return buffer<T>("random_in", n, -1, 1, 3, 2048);
}

// Whether n values look like draws of the distribution: mean and variance
// within 5 standard errors, uniform values in [0, 1).
template <class T>
bool plausible(dist d, const T* x, index_t n) {
  double s = 0, s2 = 0;
  for (index_t i = 0; i < n; ++i) {
    const double v = static_cast<double>(x[i]);
    if (!std::isfinite(v) || (d == dist::uniform && (v < 0 || v >= 1))) return false;
    s += v;
    s2 += v * v;
  }
  const double nn = static_cast<double>(n), mean = s / nn, var = s2 / nn - mean * mean;
  const double mu = d == dist::uniform ? 0.5 : 0.0, sigma2 = d == dist::uniform ? 1.0 / 12 : 1.0;
  const double mu4 = d == dist::uniform ? 1.0 / 80 : 3.0;  // fourth central moments
  return std::fabs(mean - mu) < 5 * std::sqrt(sigma2 / nn) &&
         std::fabs(var - sigma2) < 5 * std::sqrt((mu4 - sigma2 * sigma2) / nn);
}

template <class P, class T>
void sinter_fill(dist d, T* out, index_t n) {
  auto o = sv<P>(out, n);
  if (d == dist::uniform) o = st::random::uniform<T>(rng_key, {n});
  else o = st::random::normal<T>(rng_key, {n});
}

// A standard-library engine and distribution, drawn in a loop.
template <class Engine, class T>
struct std_fill {
  Engine g{59};
  std::uniform_real_distribution<T> u;
  std::normal_distribution<T> z;
  void operator()(dist d, T* __restrict out, index_t n) {
    if (d == dist::uniform)
      for (index_t i = 0; i < n; ++i) out[i] = u(g);
    else
      for (index_t i = 0; i < n; ++i) out[i] = z(g);
  }
};

enum class impl { sinter_host, sinter_par, mt19937, philox };

template <class T, impl I>
void fill(benchmark::State& state, dist d) {
  const index_t n = state.range(0);
  T* out = out_buffer<T>(n);
  std_fill<std::mt19937, T> mt;
#if defined(__cpp_lib_philox_engine)
  std_fill<std::philox4x32, T> ph;
#endif
  const auto run = [&] {
    if constexpr (I == impl::sinter_host) sinter_fill<st::host>(d, out, n);
    else if constexpr (I == impl::sinter_par) sinter_fill<st::par>(d, out, n);
    else if constexpr (I == impl::mt19937) mt(d, out, n);
#if defined(__cpp_lib_philox_engine)
    else ph(d, out, n);
#endif
  };
  run();
  bool ok = plausible(d, out, n);
  if constexpr (I == impl::sinter_par) {  // the same bits as host's
    std::vector<T> host(static_cast<std::size_t>(n));
    sinter_fill<st::host>(d, host.data(), n);
    ok = ok && std::memcmp(host.data(), out, host.size() * sizeof(T)) == 0;
  }
  if (!ok) {
    state.SkipWithError("implausible values, or par differs from host");
    return;
  }
  for (auto _ : state) {
    run();
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * n);
  state.SetBytesProcessed(state.iterations() * n * static_cast<index_t>(sizeof(T)));
}

// A plain store of a constant: sinter's scalar fill, or a hand loop (kept
// a loop of ordinary stores, not a call to memset: 1.5's bytes differ).
template <class T, bool Sinter>
void store(benchmark::State& state) {
  const index_t n = state.range(0);
  T* out = out_buffer<T>(n);
  const auto run = [&] {
    if constexpr (Sinter) sv(out, n) = T(1.5);
    else
      for (index_t i = 0; i < n; ++i) out[i] = T(1.5);
  };
  run();
  if (out[0] != T(1.5) || out[n - 1] != T(1.5)) {
    state.SkipWithError("wrong result");
    return;
  }
  for (auto _ : state) {
    run();
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * n);
  state.SetBytesProcessed(state.iterations() * n * static_cast<index_t>(sizeof(T)));
}

// out = a + 0.1 * normal: fused, or the draws materialised first.
template <class T, class P, bool Fused>
void noise_add_run(T* out, const T* a_ptr, T* tmp_ptr, index_t n) {
  const auto a = sv<P>(a_ptr, n);
  auto o = sv<P>(out, n);
  if constexpr (Fused) {
    o = a + T(0.1) * st::random::normal<T>(rng_key, {n});
  } else {
    auto tmp = sv<P>(tmp_ptr, n);
    tmp = st::random::normal<T>(rng_key, {n});
    o = a + T(0.1) * tmp;
  }
}

template <class T, class P, bool Fused>
void noise_add(benchmark::State& state) {
  const index_t n = state.range(0);
  T* out = out_buffer<T>(n);
  T* tmp = tmp_buffer<T>(n);
  const T* a = in_buffer<T>(n);
  // The check: the other way's result, bit for bit, and plausible noise.
  std::vector<T> other(static_cast<std::size_t>(n)), other_tmp(other.size());
  noise_add_run<T, P, !Fused>(other.data(), a, other_tmp.data(), n);
  noise_add_run<T, P, Fused>(out, a, tmp, n);
  for (index_t i = 0; i < n; ++i) other_tmp[static_cast<std::size_t>(i)] = (out[i] - a[i]) * T(10);
  if (std::memcmp(other.data(), out, other.size() * sizeof(T)) != 0 ||
      !plausible(dist::normal, other_tmp.data(), n)) {
    state.SkipWithError("fused and materialised differ, or implausible noise");
    return;
  }
  for (auto _ : state) {
    noise_add_run<T, P, Fused>(out, a, tmp, n);
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * n);
  // Minimum traffic: a read once, out written once.
  state.SetBytesProcessed(state.iterations() * n * 2 * static_cast<index_t>(sizeof(T)));
}

// A reduction of random leaves: lazy, or the pass into `tmp` then its sum.
template <class T, bool MonteCarlo, bool Lazy>
auto reduce_random_run(index_t n, [[maybe_unused]] std::conditional_t<MonteCarlo, bool, T>* tmp) {
  const auto x = st::random::uniform<T>(rng_key, {n}), y = st::random::uniform<T>(st::random::key{60}, {n});
  const auto e = [&] {
    if constexpr (MonteCarlo) return x * x + y * y < T(1);
    else return st::random::normal<T>(rng_key, {n});
  }();
  if constexpr (Lazy) {
    return st::sum(e);
  } else {
    auto t = sv<st::host>(tmp, n);
    t = e;
    return st::sum(t);
  }
}

template <class T, bool MonteCarlo, bool Lazy>
void reduce_random(benchmark::State& state) {
  const index_t n = state.range(0);
  using S = std::conditional_t<MonteCarlo, bool, T>;
  const std::unique_ptr<S[]> tmp(new S[static_cast<std::size_t>(n)]);
  const auto lazy = reduce_random_run<T, MonteCarlo, true>(n, tmp.get());
  const auto stored = reduce_random_run<T, MonteCarlo, false>(n, tmp.get());
  if (std::memcmp(&lazy, &stored, sizeof lazy) != 0) {
    state.SkipWithError("the lazy reduction and the stored one differ");
    return;
  }
  for (auto _ : state) benchmark::DoNotOptimize(reduce_random_run<T, MonteCarlo, Lazy>(n, tmp.get()));
  state.SetItemsProcessed(state.iterations() * n);
}

template <class T>
void register_dtype() {
  const std::string dt = dtype_tag<T>();
  const auto reg = [](const std::string& name, auto fn) {
    auto* b = benchmark::RegisterBenchmark(name.c_str(), fn);
    for (int k : {16, 20, 24}) b->Arg(index_t(1) << k);
    b->UseRealTime();
  };
  for (dist d : {dist::uniform, dist::normal}) {
    const std::string base = std::string("fill/") + (d == dist::uniform ? "uniform/" : "normal/") + dt;
    reg(base + "/sinter_host", [d](benchmark::State& s) { fill<T, impl::sinter_host>(s, d); });
    reg(base + "/sinter_par", [d](benchmark::State& s) { fill<T, impl::sinter_par>(s, d); });
    reg(base + "/mt19937", [d](benchmark::State& s) { fill<T, impl::mt19937>(s, d); });
#if defined(__cpp_lib_philox_engine)
    reg(base + "/philox", [d](benchmark::State& s) { fill<T, impl::philox>(s, d); });
#endif
  }
  reg("fill/store/" + dt + "/sinter_host", store<T, true>);
  reg("fill/store/" + dt + "/hand", store<T, false>);
  reg("noise_add/" + dt + "/fused_host", noise_add<T, st::host, true>);
  reg("noise_add/" + dt + "/materialise_host", noise_add<T, st::host, false>);
  reg("noise_add/" + dt + "/fused_par", noise_add<T, st::par, true>);
  reg("noise_add/" + dt + "/materialise_par", noise_add<T, st::par, false>);
  reg("reduce/montecarlo/" + dt + "/lazy", reduce_random<T, true, true>);
  reg("reduce/montecarlo/" + dt + "/pass_sum", reduce_random<T, true, false>);
  reg("reduce/sum_normal/" + dt + "/lazy", reduce_random<T, false, true>);
  reg("reduce/sum_normal/" + dt + "/pass_sum", reduce_random<T, false, false>);
}

}  // namespace
}  // namespace bench

int main(int argc, char** argv) {
  bench::register_dtype<float>();
  bench::register_dtype<double>();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
