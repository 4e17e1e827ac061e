// .npy files (issue 63), a 2^24-float array (64 MiB), in the page cache:
//
//   save/<impl>   sinter::save_npy of an array (one write of its memory), of
//                 an expression a * 2 + 1 (evaluated block by block into a
//                 1 MiB buffer), against one raw fwrite of the bytes
//   load/<impl>   sinter::load_npy<float, 1> (header parsed, read straight
//                 into the new array), against one raw fread into a
//                 preallocated buffer
//
// The file is removed before each save, outside the timing: replacing a file
// by rename makes ext4 start writing it back at once (auto_da_alloc), which
// would time the disk, not the code. bench/npy_numpy.py times np.save and
// np.load on the same array. Each load's values are checked once.
//   ./bench_npy --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <sinter/npy.hpp>
#include <sinter/sinter.hpp>

namespace {

namespace st = sinter;
constexpr st::index_t n = st::index_t{1} << 24;

const std::string& path() {
  static const std::string p = [] {
    const char* dir = std::getenv("TMPDIR");
    return std::string(dir ? dir : "/tmp") + "/sinter_bench_npy.npy";
  }();
  return p;
}
const st::array<float, 1>& data() {
  static const st::array<float, 1> a = st::arange<float>(n) * 0.5f;
  return a;
}

void save_array(benchmark::State& s) {
  for (auto _ : s) {
    s.PauseTiming();
    std::remove(path().c_str());
    s.ResumeTiming();
    st::save_npy(path(), data());
  }
  s.SetBytesProcessed(s.iterations() * n * 4);
}
void save_expression(benchmark::State& s) {
  for (auto _ : s) {
    s.PauseTiming();
    std::remove(path().c_str());
    s.ResumeTiming();
    st::save_npy(path(), data() * 2.f + 1.f);
  }
  s.SetBytesProcessed(s.iterations() * n * 4);
}
void save_fwrite(benchmark::State& s) {
  for (auto _ : s) {
    s.PauseTiming();
    std::remove(path().c_str());
    s.ResumeTiming();
    std::FILE* f = std::fopen(path().c_str(), "wb");
    if (!f || std::fwrite(data().data(), 4, static_cast<std::size_t>(n), f) != static_cast<std::size_t>(n))
      s.SkipWithError("fwrite failed");
    if (f) std::fclose(f);
  }
  s.SetBytesProcessed(s.iterations() * n * 4);
}
void load_sinter(benchmark::State& s) {
  st::save_npy(path(), data());
  if (!st::array_equal(st::load_npy<float, 1>(path()), data())) s.SkipWithError("values differ");
  for (auto _ : s) benchmark::DoNotOptimize(st::load_npy<float, 1>(path()).data());
  s.SetBytesProcessed(s.iterations() * n * 4);
}
void load_fread(benchmark::State& s) {
  st::save_npy(path(), data());
  std::vector<float> buf(static_cast<std::size_t>(n));
  for (auto _ : s) {
    std::FILE* f = std::fopen(path().c_str(), "rb");
    if (!f || std::fseek(f, 128, SEEK_SET) != 0 || std::fread(buf.data(), 4, buf.size(), f) != buf.size())
      s.SkipWithError("fread failed");
    if (f) std::fclose(f);
    benchmark::DoNotOptimize(buf.data());
  }
  if (buf[3] != 1.5f) s.SkipWithError("values differ");
  s.SetBytesProcessed(s.iterations() * n * 4);
}

BENCHMARK(save_array)->Name("save/sinter_array")->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(save_expression)->Name("save/sinter_expression")->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(save_fwrite)->Name("save/fwrite")->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(load_sinter)->Name("load/sinter")->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(load_fread)->Name("load/fread")->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
