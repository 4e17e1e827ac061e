// Dispatch overhead of sinter::detail::thread_pool::parallel_for for small
// jobs, against calling the chunks directly and against starting a
// std::thread per job. Build:
//   g++ -std=c++20 -O2 -Iinclude bench/bench_thread_pool.cpp -lbenchmark -lpthread
#include <sinter/policy/host/thread_pool.hpp>

#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdint>
#include <thread>
#include <vector>

namespace {

// A small chunk of work: touch `len` floats.
struct small_job {
  float* data;
  std::int64_t len;
  void operator()(std::int64_t chunk) const {
    float* p = data + chunk * len;
    for (std::int64_t i = 0; i < len; ++i) p[i] = p[i] * 1.0001f + 1.f;
    benchmark::DoNotOptimize(p);
  }
};

// state.range(0): chunks, state.range(1): floats per chunk.
void bm_direct(benchmark::State& state) {
  std::vector<float> v(static_cast<std::size_t>(state.range(0) * state.range(1)), 1.f);
  const small_job job{v.data(), state.range(1)};
  for (auto _ : state)
    for (std::int64_t c = 0; c < state.range(0); ++c) job(c);
}

// state.range(2): threads. Back-to-back jobs: the workers are still spinning.
void bm_pool(benchmark::State& state) {
  std::vector<float> v(static_cast<std::size_t>(state.range(0) * state.range(1)), 1.f);
  const small_job job{v.data(), state.range(1)};
  sinter::detail::thread_pool pool(static_cast<int>(state.range(2)));
  pool.parallel_for(state.range(0), job);  // start the workers
  for (auto _ : state) pool.parallel_for(state.range(0), job);
}

// Workers asleep (idle > their spin time) when the job arrives.
void bm_pool_cold(benchmark::State& state) {
  std::vector<float> v(static_cast<std::size_t>(state.range(0) * state.range(1)), 1.f);
  const small_job job{v.data(), state.range(1)};
  sinter::detail::thread_pool pool(static_cast<int>(state.range(2)));
  pool.parallel_for(state.range(0), job);
  for (auto _ : state) {
    std::this_thread::sleep_for(std::chrono::milliseconds(3));
    const auto t0 = std::chrono::steady_clock::now();
    pool.parallel_for(state.range(0), job);
    const auto t1 = std::chrono::steady_clock::now();
    state.SetIterationTime(std::chrono::duration<double>(t1 - t0).count());
  }
}

// The naive alternative: one std::thread per job, the caller doing half.
void bm_thread_per_job(benchmark::State& state) {
  std::vector<float> v(static_cast<std::size_t>(2 * state.range(0)), 1.f);
  const small_job job{v.data(), state.range(0)};
  for (auto _ : state) {
    std::thread t([&] { job(1); });
    job(0);
    t.join();
  }
}

}  // namespace

BENCHMARK(bm_direct)->ArgNames({"chunks", "len"})->Args({2, 0})->Args({2, 256})->Args({2, 16384});
BENCHMARK(bm_pool)
    ->ArgNames({"chunks", "len", "threads"})
    ->Args({2, 0, 1})
    ->Args({2, 0, 2})
    ->Args({2, 256, 2})
    ->Args({8, 256, 2})
    ->Args({2, 16384, 2});
BENCHMARK(bm_pool_cold)->ArgNames({"chunks", "len", "threads"})->Args({2, 0, 2})->UseManualTime()->Iterations(300);
BENCHMARK(bm_thread_per_job)->ArgNames({"len"})->Arg(0);

BENCHMARK_MAIN();
