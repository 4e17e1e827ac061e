// bench/tools/threshold_sweep/sweep.cpp (not built by CMake): where streaming stores
// start to pay on this machine. A float copy (c = a) and triad
// (a = b + 0.4 c) through sinter, with the streaming threshold at SIZE_MAX
// (ordinary stores) and at 0 (streaming stores), for outputs of 0.5 to 256
// MiB in steps of sqrt(2); best of max(3, 2e8 / n) passes, GB/s of minimum
// traffic. `./sweep` runs host, `./sweep par` par. Its measurements: the
// streaming-threshold entries of docs/journal/bench-2026-12.md.
//   g++ -std=c++20 -O3 -march=native -Iinclude bench/tools/threshold_sweep/sweep.cpp -o sweep -pthread
#include <sinter/sinter.hpp>
#include <chrono>
#include <cstdio>
#include <vector>
#include <algorithm>
namespace st = sinter;
template <class P>
double run(std::size_t n, bool nt, int kind) {
  st::array<float, 1, P> a({(st::index_t)n}), b({(st::index_t)n}), c({(st::index_t)n});
  a = 1.f; b = 2.f; c = 3.f;
  st::set_streaming_threshold(nt ? 0 : SIZE_MAX);
  double best = 1e30;
  int reps = std::max<int>(3, (int)(2e8 / n));
  for (int r = 0; r < reps; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    if (kind == 0) c = a; else a = b + 0.4f * c;
    auto t1 = std::chrono::steady_clock::now();
    best = std::min(best, std::chrono::duration<double>(t1 - t0).count());
  }
  double bytes = (kind == 0 ? 2.0 : 3.0) * n * sizeof(float);
  return bytes / best / 1e9;
}
int main(int argc, char** argv) {
  bool par = argc > 1;
  std::printf("%s\nout_MiB  copy_store copy_nt  triad_store triad_nt\n", par ? "par" : "host");
  for (double mib = 0.5; mib <= 256; mib *= 1.4142135) {
    std::size_t n = (std::size_t)(mib * (1 << 20) / 4);
    double r[4];
    for (int k = 0; k < 4; ++k) r[k] = par ? run<st::par>(n, k & 1, k >> 1) : run<st::host>(n, k & 1, k >> 1);
    std::printf("%7.1f  %8.1f %8.1f  %8.1f %8.1f\n", mib, r[0], r[1], r[2], r[3]);
  }
}
