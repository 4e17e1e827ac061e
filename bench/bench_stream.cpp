// STREAM-style memory bandwidth of this machine, the ceiling against which
// sinter's memory-bound kernels are read (achieved GB/s / STREAM GB/s).
//
// Kernels, on arrays of n elements (x, y: inputs, never written; z: output):
//   copy   z[i] = x[i]              (STREAM's c[i] = a[i])
//   triad  z[i] = x[i] + s * y[i]   (STREAM's a[i] = b[i] + s * c[i])
// in double (f64) and float (f32), each in four variants:
//   store_1t / store_2t  ordinary stores (a plain loop the compiler vectorises),
//                        1 thread / 2 threads
//   nt_1t / nt_2t        non-temporal (streaming) stores, _mm512/_mm256/_mm_
//                        stream_* chosen by the target ISA, 1 / 2 threads
// named stream_<kernel>/<dtype>/<variant>/<n>, n = 2^20, 2^22, 2^24, 2^26
// elements per array (2^20 doubles = 8 MiB per array still sits in a 32 MiB
// L3; 2^26 doubles = 512 MiB per array is far beyond any last-level cache).
// SINTER_BENCH_MAX_LOG2=<k> (default 26) caps the largest n at 2^k.
//
// bytes_per_second counts the minimum traffic: copy 2 * n * sizeof(T), triad
// 3 * n * sizeof(T) (each input read once, the output written once). With
// ordinary stores the hardware also reads each output line before writing it
// (write-allocate), so the bus carries 3/2 (copy) or 4/3 (triad) of the
// counted bytes; non-temporal stores avoid that read, which is why they are
// expected to be faster once the arrays leave the cache. Times are wall clock
// (UseRealTime). Two threads each stream one contiguous, 64-byte-aligned half,
// the same halves that first-touched the pages. Threads come from OpenMP when
// SINTER_BENCH_HAS_OPENMP is 1 (or, when it is not defined, when compiled with
// -fopenmp), else from a persistent two-thread team of std::threads.
//
// Build and run standalone (from the repository root):
//   g++ -std=c++20 -O3 -march=native -fopenmp bench/bench_stream.cpp -lbenchmark -lpthread -o /tmp/bench_stream
//   /tmp/bench_stream --benchmark_min_time=0.1 --benchmark_repetitions=3
//       --benchmark_enable_random_interleaving=true --benchmark_report_aggregates_only=true
// (one command line; without -march=native the nt variants use SSE2 stores,
// without -fopenmp the two-thread variants use the std::thread pair).
// Memory: three arrays per (dtype, n), all kept alive (the interleaved suite
// revisits every size): about 2.7 GiB at the default sizes.
#include <benchmark/benchmark.h>

#include <atomic>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#if defined(__SSE2__)
#include <immintrin.h>
#endif

#ifndef SINTER_BENCH_HAS_OPENMP
#ifdef _OPENMP
#define SINTER_BENCH_HAS_OPENMP 1
#else
#define SINTER_BENCH_HAS_OPENMP 0
#endif
#endif

#if SINTER_BENCH_HAS_OPENMP && defined(_OPENMP)
#define SB_USE_OPENMP 1
#include <omp.h>
#else
#define SB_USE_OPENMP 0
#endif

// Kernels are out of line (easy to find in a disassembly) and their loops
// must stay loops: GCC would otherwise turn the copy into a memcpy call, and
// glibc's memcpy switches to non-temporal stores for large sizes, which would
// make "store" measure "nt".
#if defined(__GNUC__) && !defined(__clang__)
#define SB_IVDEP _Pragma("GCC ivdep")
#define SB_KERNEL __attribute__((noinline, optimize("no-tree-loop-distribute-patterns")))
#elif defined(__clang__)
#define SB_IVDEP _Pragma("clang loop vectorize(enable)")
#define SB_KERNEL __attribute__((noinline, no_builtin("memcpy")))
#else
#define SB_IVDEP
#define SB_KERNEL
#endif

namespace {

// ---------------------------------------------------------------------------
// Non-temporal vector operations, chosen at compile time.

template <class T>
struct simd;

#if defined(__AVX512F__)
#define SB_HAVE_NT 1
constexpr const char* kNtIsa = "avx512 (_mm512_stream_pd/ps)";
constexpr std::size_t kNtBytes = 64;
template <>
struct simd<double> {
  using V = __m512d;
  static constexpr std::size_t width = 8;
  static V load(const double* p) { return _mm512_loadu_pd(p); }
  static void stream(double* p, V v) { _mm512_stream_pd(p, v); }
  static V set1(double s) { return _mm512_set1_pd(s); }
  static V fma(V s, V y, V x) { return _mm512_fmadd_pd(s, y, x); }  // s*y + x
};
template <>
struct simd<float> {
  using V = __m512;
  static constexpr std::size_t width = 16;
  static V load(const float* p) { return _mm512_loadu_ps(p); }
  static void stream(float* p, V v) { _mm512_stream_ps(p, v); }
  static V set1(float s) { return _mm512_set1_ps(s); }
  static V fma(V s, V y, V x) { return _mm512_fmadd_ps(s, y, x); }
};
#elif defined(__AVX__)
#define SB_HAVE_NT 1
constexpr const char* kNtIsa = "avx (_mm256_stream_pd/ps)";
constexpr std::size_t kNtBytes = 32;
template <>
struct simd<double> {
  using V = __m256d;
  static constexpr std::size_t width = 4;
  static V load(const double* p) { return _mm256_loadu_pd(p); }
  static void stream(double* p, V v) { _mm256_stream_pd(p, v); }
  static V set1(double s) { return _mm256_set1_pd(s); }
#if defined(__FMA__)
  static V fma(V s, V y, V x) { return _mm256_fmadd_pd(s, y, x); }
#else
  static V fma(V s, V y, V x) { return _mm256_add_pd(_mm256_mul_pd(s, y), x); }
#endif
};
template <>
struct simd<float> {
  using V = __m256;
  static constexpr std::size_t width = 8;
  static V load(const float* p) { return _mm256_loadu_ps(p); }
  static void stream(float* p, V v) { _mm256_stream_ps(p, v); }
  static V set1(float s) { return _mm256_set1_ps(s); }
#if defined(__FMA__)
  static V fma(V s, V y, V x) { return _mm256_fmadd_ps(s, y, x); }
#else
  static V fma(V s, V y, V x) { return _mm256_add_ps(_mm256_mul_ps(s, y), x); }
#endif
};
#elif defined(__SSE2__)
#define SB_HAVE_NT 1
constexpr const char* kNtIsa = "sse2 (_mm_stream_pd/ps)";
constexpr std::size_t kNtBytes = 16;
template <>
struct simd<double> {
  using V = __m128d;
  static constexpr std::size_t width = 2;
  static V load(const double* p) { return _mm_loadu_pd(p); }
  static void stream(double* p, V v) { _mm_stream_pd(p, v); }
  static V set1(double s) { return _mm_set1_pd(s); }
  static V fma(V s, V y, V x) { return _mm_add_pd(_mm_mul_pd(s, y), x); }
};
template <>
struct simd<float> {
  using V = __m128;
  static constexpr std::size_t width = 4;
  static V load(const float* p) { return _mm_loadu_ps(p); }
  static void stream(float* p, V v) { _mm_stream_ps(p, v); }
  static V set1(float s) { return _mm_set1_ps(s); }
  static V fma(V s, V y, V x) { return _mm_add_ps(_mm_mul_ps(s, y), x); }
};
#else
#define SB_HAVE_NT 0
constexpr const char* kNtIsa = "none (nt variants skipped)";
#endif

constexpr bool kHaveNt = SB_HAVE_NT != 0;

inline void cpu_relax() {
#if defined(__SSE2__)
  _mm_pause();
#endif
}

// ---------------------------------------------------------------------------
// Kernels on [0, n) of the pointers given.

template <class T>
SB_KERNEL void copy_store(T* __restrict z, const T* __restrict x, std::size_t n) {
  SB_IVDEP
  for (std::size_t i = 0; i < n; ++i) z[i] = x[i];
}

template <class T>
SB_KERNEL void triad_store(T* __restrict z, const T* __restrict x, const T* __restrict y, T s,
                               std::size_t n) {
  SB_IVDEP
  for (std::size_t i = 0; i < n; ++i) z[i] = x[i] + s * y[i];
}

template <class T>
SB_KERNEL void copy_nt(T* __restrict z, const T* __restrict x, std::size_t n) {
#if SB_HAVE_NT
  using S = simd<T>;
  std::size_t i = 0;
  for (; i < n && reinterpret_cast<std::uintptr_t>(z + i) % kNtBytes != 0; ++i) z[i] = x[i];
  for (; i + S::width <= n; i += S::width) S::stream(z + i, S::load(x + i));
  for (; i < n; ++i) z[i] = x[i];
  _mm_sfence();
#else
  copy_store(z, x, n);
#endif
}

template <class T>
SB_KERNEL void triad_nt(T* __restrict z, const T* __restrict x, const T* __restrict y, T s,
                          std::size_t n) {
#if SB_HAVE_NT
  using S = simd<T>;
  std::size_t i = 0;
  for (; i < n && reinterpret_cast<std::uintptr_t>(z + i) % kNtBytes != 0; ++i) z[i] = x[i] + s * y[i];
  const typename S::V sv = S::set1(s);
  for (; i + S::width <= n; i += S::width)
    S::stream(z + i, S::fma(sv, S::load(y + i), S::load(x + i)));
  for (; i < n; ++i) z[i] = x[i] + s * y[i];
  _mm_sfence();
#else
  triad_store(z, x, y, s, n);
#endif
}

enum class kernel { copy, triad };
enum class store { plain, nt };

template <class T>
void run_kernel(kernel k, store st, T* z, const T* x, const T* y, T s, std::size_t lo,
                std::size_t hi) {
  const std::size_t len = hi - lo;
  if (k == kernel::copy) {
    if (st == store::nt)
      copy_nt(z + lo, x + lo, len);
    else
      copy_store(z + lo, x + lo, len);
  } else {
    if (st == store::nt)
      triad_nt(z + lo, x + lo, y + lo, s, len);
    else
      triad_store(z + lo, x + lo, y + lo, s, len);
  }
}

// ---------------------------------------------------------------------------
// Two threads.

// The half of [0, n) that thread `part` (0 or 1) streams; the split point is
// a multiple of 64 bytes, so both halves start on a cache line.
template <class T>
std::pair<std::size_t, std::size_t> half(std::size_t n, int part) {
  constexpr std::size_t q = 64 / sizeof(T);
  const std::size_t mid = (n / 2) / q * q;
  if (part == 0) return {0, mid};
  return {mid, n};
}

#if !SB_USE_OPENMP
// A persistent team of two: the caller runs part 0, one worker thread part 1.
// The worker spins briefly between jobs (back-to-back iterations find it
// awake), then sleeps on the atomic so it leaves the core alone between
// benchmarks.
class pair_team {
 public:
  pair_team() : worker_([this] { work(); }) {}
  ~pair_team() {
    stop_.store(true, std::memory_order_relaxed);
    gen_.fetch_add(1, std::memory_order_release);
    gen_.notify_one();
    worker_.join();
  }
  pair_team(const pair_team&) = delete;
  pair_team& operator=(const pair_team&) = delete;

  template <class F>
  void run(const F& f) {
    fn_ = [](const void* ctx, int part) { (*static_cast<const F*>(ctx))(part); };
    ctx_ = &f;
    const unsigned g = gen_.fetch_add(1, std::memory_order_release) + 1;
    gen_.notify_one();
    f(0);
    for (unsigned spins = 0; done_.load(std::memory_order_acquire) != g; ++spins) {
      if (spins < kSpin)
        cpu_relax();
      else
        std::this_thread::yield();
    }
  }

 private:
  static constexpr unsigned kSpin = 1u << 14;

  void work() {
    unsigned seen = 0;
    for (;;) {
      unsigned g = 0;
      for (unsigned spins = 0; (g = gen_.load(std::memory_order_acquire)) == seen; ++spins) {
        if (spins < kSpin)
          cpu_relax();
        else
          gen_.wait(seen, std::memory_order_acquire);
      }
      seen = g;
      if (stop_.load(std::memory_order_relaxed)) return;
      fn_(ctx_, 1);
      done_.store(g, std::memory_order_release);
    }
  }

  void (*fn_)(const void*, int) = nullptr;
  const void* ctx_ = nullptr;
  std::atomic<unsigned> gen_{0};
  std::atomic<unsigned> done_{0};
  std::atomic<bool> stop_{false};
  std::thread worker_;  // last: starts once the members above exist
};

pair_team& team() {
  static pair_team t;
  return t;
}
#endif

// f(0) and f(1) on two threads.
template <class F>
void run2(const F& f) {
#if SB_USE_OPENMP
#pragma omp parallel num_threads(2)
  {
    const int nth = omp_get_num_threads();
    for (int part = omp_get_thread_num(); part < 2; part += nth) f(part);
  }
#else
  team().run(f);
#endif
}

int team_threads() {
#if SB_USE_OPENMP
  int nth = 0;
#pragma omp parallel num_threads(2)
  {
#pragma omp single
    nth = omp_get_num_threads();
  }
  return nth;
#else
  return 2;
#endif
}

// ---------------------------------------------------------------------------
// Arrays, one set per (dtype, n), alive until exit.

struct free_deleter {
  void operator()(void* p) const noexcept { std::free(p); }
};

template <class T>
struct arrays {
  std::unique_ptr<T[], free_deleter> x, y, z;
};

template <class T>
T* alloc_aligned(std::size_t n) {
  const std::size_t bytes = (n * sizeof(T) + 63) / 64 * 64;
  return static_cast<T*>(std::aligned_alloc(64, bytes));
}

constexpr double kScalar = 3.0;

// Exactly representable in float and double, and so is x + 3 * y.
template <class T>
T x_val(std::size_t i) {
  return static_cast<T>(1.0 + 0.25 * static_cast<double>(i % 1021));
}
template <class T>
T y_val(std::size_t i) {
  return static_cast<T>(2.0 + 0.5 * static_cast<double>(i % 977));
}

template <class T>
arrays<T>* get_arrays(std::size_t n) {
  static std::map<std::size_t, std::unique_ptr<arrays<T>>> cache;
  if (auto it = cache.find(n); it != cache.end()) return it->second.get();
  auto a = std::make_unique<arrays<T>>();
  a->x.reset(alloc_aligned<T>(n));
  a->y.reset(alloc_aligned<T>(n));
  a->z.reset(alloc_aligned<T>(n));
  if (!a->x || !a->y || !a->z) return nullptr;
  T* x = a->x.get();
  T* y = a->y.get();
  T* z = a->z.get();
  // First touch with the split the two-thread variants stream with.
  run2([=](int part) {
    const auto [lo, hi] = half<T>(n, part);
    for (std::size_t i = lo; i < hi; ++i) {
      x[i] = x_val<T>(i);
      y[i] = y_val<T>(i);
      z[i] = T(0);
    }
  });
  return cache.emplace(n, std::move(a)).first->second.get();
}

// Where the result is checked: both ends of both halves and 256 points between.
template <class T>
std::vector<std::size_t> sample_indices(std::size_t n) {
  const std::size_t mid = half<T>(n, 1).first;
  std::vector<std::size_t> idx = {0, 1, n - 2, n - 1};
  if (mid > 0) idx.push_back(mid - 1);
  if (mid < n) idx.push_back(mid);
  if (mid + 1 < n) idx.push_back(mid + 1);
  for (std::size_t k = 0; k < 256; ++k) idx.push_back(k * (n - 1) / 255);
  return idx;
}

// ---------------------------------------------------------------------------

template <class T>
void bm_stream(benchmark::State& state, kernel k, store st, int threads, std::size_t n) {
  if (st == store::nt && !kHaveNt) {
    state.SkipWithError("no non-temporal stores on this target");
    return;
  }
  if (threads == 2 && team_threads() < 2) {
    state.SkipWithError("OpenMP gave fewer than 2 threads");
    return;
  }
  arrays<T>* arr = get_arrays<T>(n);
  if (arr == nullptr) {
    state.SkipWithError("std::aligned_alloc failed");
    return;
  }
  T* z = arr->z.get();
  const T* x = arr->x.get();
  const T* y = arr->y.get();
  const T s = static_cast<T>(kScalar);

  // Poison the checked elements, so a previous benchmark's output on the same
  // array cannot pass for this one's.
  const std::vector<std::size_t> idx = sample_indices<T>(n);
  for (const std::size_t i : idx) z[i] = static_cast<T>(-1.5);

  const auto part_job = [=](int part) {
    const auto [lo, hi] = half<T>(n, part);
    run_kernel(k, st, z, x, y, s, lo, hi);
  };
  for (auto _ : state) {
    if (threads == 1)
      run_kernel(k, st, z, x, y, s, std::size_t{0}, n);
    else
      run2(part_job);
    benchmark::DoNotOptimize(z);
    benchmark::ClobberMemory();
  }

  for (const std::size_t i : idx) {
    const T want = k == kernel::copy ? x_val<T>(i) : static_cast<T>(x_val<T>(i) + s * y_val<T>(i));
    const T tol = 4 * std::numeric_limits<T>::epsilon() * std::abs(want);
    if (!(std::abs(z[i] - want) <= tol)) {
      state.SkipWithError("wrong result");
      return;
    }
  }

  const std::size_t arrays_touched = k == kernel::copy ? 2 : 3;
  const auto iters = static_cast<std::int64_t>(state.iterations());
  state.SetBytesProcessed(iters * static_cast<std::int64_t>(arrays_touched * n * sizeof(T)));
  state.SetItemsProcessed(iters * static_cast<std::int64_t>(n));
}

int max_log2_from_env() {
  constexpr int kDefault = 26;
  const char* s = std::getenv("SINTER_BENCH_MAX_LOG2");
  if (s == nullptr || *s == '\0') return kDefault;
  char* end = nullptr;
  const long v = std::strtol(s, &end, 10);
  if (end == s || *end != '\0') {
    std::fprintf(stderr, "bench_stream: SINTER_BENCH_MAX_LOG2=%s is not an integer; using %d\n",
                 s, kDefault);
    return kDefault;
  }
  if (v < 4 || v > kDefault) {
    const int c = v < 4 ? 4 : kDefault;
    std::fprintf(stderr, "bench_stream: SINTER_BENCH_MAX_LOG2=%ld clamped to %d\n", v, c);
    return c;
  }
  return static_cast<int>(v);
}

template <class T>
void register_dtype(const char* dtype, const std::vector<int>& log2s) {
  struct variant {
    store st;
    int threads;
    const char* name;
  };
  constexpr variant variants[] = {{store::plain, 1, "store_1t"},
                                  {store::plain, 2, "store_2t"},
                                  {store::nt, 1, "nt_1t"},
                                  {store::nt, 2, "nt_2t"}};
  for (const kernel k : {kernel::copy, kernel::triad}) {
    for (const variant& v : variants) {
      for (const int lg : log2s) {
        const std::size_t n = std::size_t{1} << lg;
        const std::string name = std::string(k == kernel::copy ? "stream_copy/" : "stream_triad/") +
                                 dtype + "/" + v.name + "/" + std::to_string(n);
        const store st = v.st;
        const int threads = v.threads;
        benchmark::RegisterBenchmark(name.c_str(),
                                     [=](benchmark::State& state) {
                                       bm_stream<T>(state, k, st, threads, n);
                                     })
            ->UseRealTime()
            ->Unit(benchmark::kMicrosecond);
      }
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  const int max_log2 = max_log2_from_env();
  std::vector<int> log2s;
  for (const int lg : {20, 22, 24, 26})
    if (lg <= max_log2) log2s.push_back(lg);
  if (log2s.empty()) log2s.push_back(max_log2);

  register_dtype<double>("f64", log2s);
  register_dtype<float>("f32", log2s);

  benchmark::AddCustomContext("stream_nt_stores", kNtIsa);
  benchmark::AddCustomContext("stream_threads",
                              SB_USE_OPENMP ? "OpenMP" : "persistent std::thread pair");

  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
