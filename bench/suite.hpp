#pragma once
// The benchmark suite's harness: every kernel is a struct naming its inputs,
// a double-precision reference, and one static member per implementation
// (sinter_host, sinter_par, hand, hand_omp, unfused, eigen, eigen_tensor,
// eigen_tensor_pool, xtensor). register_kernel<K, T>() registers
// "<kernel>/<f32|f64>/<impl>/<n>" for each implementation K has, over the
// sizes 2^10 .. 2^26 (SINTER_BENCH_MIN_LOG2 / SINTER_BENCH_MAX_LOG2 narrow
// them). All implementations of a kernel read the same input buffers and
// write the same output buffers. After timing, each run's output is checked
// against the reference; a wrong result fails the benchmark.
//
// Counters: bytes_per_second counts minimum bytes (each input element read
// once, each output element written once); items_per_second counts elements.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include <sinter/sinter.hpp>

#if SINTER_BENCH_HAS_EIGEN
#define EIGEN_USE_THREADS
#include <Eigen/Core>
#include <unsupported/Eigen/CXX11/Tensor>
#include <unsupported/Eigen/SpecialFunctions>
#endif
#if SINTER_BENCH_HAS_XTENSOR
#include <xtensor/xadapt.hpp>
#include <xtensor/xmath.hpp>
#include <xtensor/xnoalias.hpp>
#include <xtensor/xtensor.hpp>
#include <xtensor/xview.hpp>
#include <xtensor/xstrided_view.hpp>
#endif

namespace bench {

namespace st = sinter;
using index_t = st::index_t;

/// "f32" / "f64".
template <class T>
const char* dtype_tag() {
  return sizeof(T) == 4 ? "f32" : "f64";
}

/// What one timed call works on. in[k] has K::in_count(k, n) elements,
/// out[k] and tmp[k] have n.
template <class T>
struct args {
  index_t n = 0;
  const T* in[4] = {};
  T* out[2] = {};
  T* tmp[4] = {};
  double result = 0;  ///< reductions write their value here
};

/// Buffers kept for the whole run (the suite interleaves sizes), filled
/// with uniform values in [lo, hi) from a fixed seed, each starting
/// `offset` bytes (a multiple of 64) past a 4 KiB boundary. A load whose
/// address matches a recent store's in its low 12 bits waits for that store
/// (4K aliasing), and the allocator's placement changes with the order of
/// allocation, which random interleaving changes from run to run; make_args
/// gives each role its own offset (docs/journal/bench-2026-11b.md, "A row
/// broadcast by rows from assign").
template <class T>
T* buffer(const std::string& key, index_t count, double lo, double hi, unsigned seed, index_t offset = 0) {
  struct freer {
    index_t offset;
    void operator()(T* p) const { std::free(reinterpret_cast<char*>(p) - offset); }
  };
  static std::map<std::tuple<std::string, index_t, double, double, unsigned>, std::unique_ptr<T, freer>> cache;
  auto& slot = cache[{key, count, lo, hi, seed}];
  if (!slot) {
    const std::size_t bytes = (static_cast<std::size_t>(count) * sizeof(T) + 63) / 64 * 64 + 64;
    char* base = static_cast<char*>(std::aligned_alloc(4096, (bytes + static_cast<std::size_t>(offset) + 4095) / 4096 * 4096));
    slot = std::unique_ptr<T, freer>(reinterpret_cast<T*>(base + offset), freer{offset});
    std::mt19937_64 g(seed);
    std::uniform_real_distribution<double> d(lo, hi);
    for (index_t i = 0; i < count; ++i) slot.get()[i] = static_cast<T>(d(g));
  }
  return slot.get();
}

// ---- views of the buffers for each library -----------------------------------

template <class P = st::host, class T>
st::view<const T, 1, P> sv(const T* p, index_t n) {
  return st::view<const T, 1, P>(p, {n});
}
template <class P = st::host, class T>
st::view<T, 1, P> sv(T* p, index_t n) {
  return st::view<T, 1, P>(p, {n});
}

#if SINTER_BENCH_HAS_EIGEN
template <class T>
using earr = Eigen::Array<T, Eigen::Dynamic, 1>;
template <class T>
Eigen::Map<const earr<T>, Eigen::AlignedMax> em(const T* p, index_t n) {
  return {p, n};
}
template <class T>
Eigen::Map<earr<T>, Eigen::AlignedMax> em(T* p, index_t n) {
  return {p, n};
}
template <class T>
Eigen::TensorMap<Eigen::Tensor<const T, 1>> tm(const T* p, index_t n) {
  return {p, n};
}
template <class T>
Eigen::TensorMap<Eigen::Tensor<T, 1>> tm(T* p, index_t n) {
  return {p, n};
}
/// Eigen's ThreadPoolDevice with two threads, made once.
inline Eigen::ThreadPoolDevice& pool_device() {
  static Eigen::ThreadPool pool(2);
  static Eigen::ThreadPoolDevice dev(&pool, 2);
  return dev;
}
#endif

#if SINTER_BENCH_HAS_XTENSOR
template <class T>
auto xa(const T* p, index_t n) {
  return xt::adapt(p, static_cast<std::size_t>(n), xt::no_ownership(), std::array<std::size_t, 1>{static_cast<std::size_t>(n)});
}
template <class T>
auto xa(T* p, index_t n) {
  return xt::adapt(p, static_cast<std::size_t>(n), xt::no_ownership(), std::array<std::size_t, 1>{static_cast<std::size_t>(n)});
}
#endif

// ---- the harness ------------------------------------------------------------

/// Sizes 2^min .. 2^max in steps of 4x.
inline std::vector<index_t> sizes() {
  auto env = [](const char* name, int fallback) {
    const char* v = std::getenv(name);  // NOLINT(concurrency-mt-unsafe)
    return v ? std::atoi(v) : fallback;
  };
  std::vector<index_t> s;
  for (int k = env("SINTER_BENCH_MIN_LOG2", 10); k <= env("SINTER_BENCH_MAX_LOG2", 26); k += 2)
    s.push_back(index_t{1} << k);
  return s;
}

/// Fill `x` for kernel K at size n: inputs, outputs and temporaries.
template <class K, class T>
args<T> make_args(index_t n) {
  args<T> x;
  x.n = n;
  // Offsets past 4 KiB (buffer): every buffer a pass writes lies below
  // every one it reads (outputs at 0 and 256, temporaries from 1536 down to
  // 768, so that tmp[k + 1] = f(tmp[k]) writes below its input too, inputs
  // from 2048 up), so no load finds a recent store at its 4 KiB offset.
  for (int k = 0; k < K::inputs; ++k)
    x.in[k] = buffer<T>("in", K::in_count(k, n), K::lo(k), K::hi(k), 1000u + static_cast<unsigned>(k), 2048 + 256 * k);
  for (int k = 0; k < K::outputs; ++k) x.out[k] = buffer<T>("out", n, 0, 0, static_cast<unsigned>(k), 256 * k);
  for (int k = 0; k < 4; ++k) x.tmp[k] = buffer<T>("tmp", n, 0, 0, static_cast<unsigned>(k), 1536 - 256 * k);
  return x;
}

/// Relative tolerance of an output against the double reference: K::tol
/// when the kernel has one (long transcendental chains), else a few ulp.
template <class K, class T>
double tolerance() {
  if constexpr (requires { K::tol(true); }) return K::tol(sizeof(T) == 4);
  else return sizeof(T) == 4 ? 2e-5 : 1e-12;
}

/// Check the outputs (elementwise kernels) or the result (reductions) of the
/// last call against K's double reference. Returns an error text or "".
template <class K, class T>
std::string check(const args<T>& x) {
  if constexpr (K::reduction) {
    static std::map<index_t, double> want_cache;
    auto it = want_cache.find(x.n);
    if (it == want_cache.end()) it = want_cache.emplace(x.n, K::ref_total(x)).first;
    const double want = it->second, err = std::abs(x.result - want) / std::abs(want);
    // Float sums of 2^26 terms in one naive accumulator lose digits: the
    // bound is loose for f32 and the error is reported as a counter.
    if (!(err <= (sizeof(T) == 4 ? 5e-2 : 1e-9))) return "result " + std::to_string(x.result) + ", want " + std::to_string(want);
    return "";
  } else {
    for (index_t j = 0; j < 64 && x.n > 0; ++j) {
      const index_t i = j * (x.n - 1) / 63;  // first, last and 62 between
      for (int k = 0; k < K::outputs; ++k) {
        const double want = K::ref(x, i, k), got = static_cast<double>(x.out[k][i]);
        if (!(std::abs(got - want) <= tolerance<K, T>() * (1 + std::abs(want))))
          return "out" + std::to_string(k) + "[" + std::to_string(i) + "] = " + std::to_string(got) + ", want " +
                 std::to_string(want);
      }
    }
    return "";
  }
}

template <class K, class T, auto Impl>
void run(benchmark::State& state, index_t n) {
  args<T> x = make_args<K, T>(n);
  for (int k = 0; k < K::outputs; ++k) std::fill(x.out[k], x.out[k] + n, T(-1));
  Impl(x);  // warm-up: pages touched, pools started
  for (auto _ : state) {
    Impl(x);
    // A copy: DoNotOptimize(x.result) itself left NaN in x.result under
    // g++ 12 -O3 -march=native (its "+m,r" asm constraint on a double), so
    // every reduction failed its check after the timed loop.
    double sink = x.result;
    benchmark::DoNotOptimize(sink);
    benchmark::ClobberMemory();
  }
  if (const std::string err = check<K, T>(x); !err.empty()) {
    state.SkipWithError(err.c_str());
    return;
  }
  const auto iters = static_cast<std::int64_t>(state.iterations());
  state.SetBytesProcessed(iters * static_cast<std::int64_t>(K::min_bytes(n) * sizeof(T)));
  state.SetItemsProcessed(iters * n);
}

template <class K, class T, auto Impl>
void add_impl(const char* impl) {
  for (index_t n : sizes()) {
    const std::string name = std::string(K::name) + "/" + dtype_tag<T>() + "/" + impl + "/" + std::to_string(n);
    benchmark::RegisterBenchmark(name.c_str(), [n](benchmark::State& s) { run<K, T, Impl>(s, n); })->UseRealTime();
  }
}

/// Register every implementation kernel K has for element type T.
template <class K, class T>
void register_kernel() {
  add_impl<K, T, &K::template sinter_host<T>>("sinter_host");
  add_impl<K, T, &K::template sinter_par<T>>("sinter_par");
  add_impl<K, T, &K::template hand<T>>("hand");
#if SINTER_BENCH_HAS_OPENMP
  add_impl<K, T, &K::template hand_omp<T>>("hand_omp");
#endif
  if constexpr (requires(args<T>& x) { K::template unfused<T>(x); }) add_impl<K, T, &K::template unfused<T>>("unfused");
#if SINTER_BENCH_HAS_EIGEN
  add_impl<K, T, &K::template eigen<T>>("eigen");
  add_impl<K, T, &K::template eigen_tensor<T>>("eigen_tensor");
  add_impl<K, T, &K::template eigen_tensor_pool<T>>("eigen_tensor_pool");
#endif
#if SINTER_BENCH_HAS_XTENSOR
  add_impl<K, T, &K::template xtensor<T>>("xtensor");
#endif
}

/// main(): register, run, report.
template <class F>
int main_with(int argc, char** argv, F register_all) {
  register_all();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

/// Default input ranges: positive and moderate, so logs and roots are defined.
struct positive_inputs {
  static double lo(int) { return 0.5; }
  static double hi(int) { return 1.5; }
  static index_t in_count(int, index_t n) { return n; }
  static constexpr bool reduction = false;
};

}  // namespace bench

// The OpenMP hand loop: the same body as `hand`, split over 2 threads
// (SINTER_BENCH_OMP_SUM(s): with a sum reduction into s).
#if SINTER_BENCH_HAS_OPENMP
#define SINTER_BENCH_OMP _Pragma("omp parallel for simd num_threads(2) schedule(static)")
#define SINTER_BENCH_OMP_SUM(s) _Pragma("omp parallel for simd num_threads(2) schedule(static) reduction(+ : s)")
#else
#define SINTER_BENCH_OMP
#define SINTER_BENCH_OMP_SUM(s)
#endif
