// Distributed Monte Carlo estimate of pi over MPI ranks, run under mpirun
// (`mpirun -np 2 bench/bench_mpi_montecarlo`): sample k of 2^25 is the point
// (x, y) drawn from a counter-based generator (Philox4x32-10 keyed by the
// global sample index, so the estimate does not depend on the rank count);
// each rank counts the points of its block inside the unit circle and
// MPI_Reduce sums the counts on rank 0. Time per iteration: one estimate,
// the slowest rank's (MPI_Wtime, a barrier first, UseManualTime); rank 0
// reports. Issue 64's comparison: sinter's distributed version against the
// hand-written MPI + loop one below (docs/journal/2026-12-05-mpi.md).
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include <sinter/core/philox.hpp>
#include <sinter/mpi.hpp>
#include <sinter/mpi/blocks.hpp>
#include <sinter/mpi/comm.hpp>

namespace montecarlo {

using sinter::index_t;
constexpr index_t samples = index_t(1) << 25;
constexpr std::uint32_t key0 = 0x5eed, key1 = 64;

/// A 32-bit word as a float in [0, 1): its top 24 bits.
inline float unit(std::uint32_t w) { return float(w >> 8) * (1.0f / 16777216.0f); }

/// The hand-written MPI + loop version: the points of samples [b, e) inside
/// the circle, one Philox block per sample (counter = the sample's index,
/// its first two words x and y).
inline std::int64_t hand_count(index_t b, index_t e) {
  std::int64_t inside = 0;
  const sinter::detail::u32x2 key{{key0, key1}};
  for (index_t k = b; k < e; ++k) {
    const auto c = static_cast<std::uint64_t>(k);
    const sinter::detail::u32x4 r =
        sinter::detail::philox4x32_10({{static_cast<std::uint32_t>(c), static_cast<std::uint32_t>(c >> 32), 0u, 0u}}, key);
    const float x = unit(r.v[0]), y = unit(r.v[1]);
    inside += (x * x + y * y < 1.0f) ? 1 : 0;
  }
  return inside;
}

/// pi from the count on rank 0 (MPI_Reduce), NaN on the others.
inline double hand_pi(MPI_Comm comm) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  const auto [b, e] = sinter::mpi::detail::block_rows(samples, size, rank);
  const std::int64_t mine = hand_count(b, e);
  std::int64_t total = 0;
  MPI_Reduce(&mine, &total, 1, MPI_INT64_T, MPI_SUM, 0, comm);
  return rank == 0 ? 4.0 * double(total) / double(samples) : std::nan("");
}

/// Times `run` per iteration as the slowest rank's MPI_Wtime span, after a
/// barrier; for the hand-written and the sinter versions alike.
template <class Run>
void run_timed(benchmark::State& state, MPI_Comm comm, Run&& run) {
  for (auto _ : state) {
    MPI_Barrier(comm);
    const double t0 = MPI_Wtime();
    run();
    const double mine = MPI_Wtime() - t0;
    double slowest = 0;
    MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, comm);
    state.SetIterationTime(slowest);
  }
}

/// Whether rank 0's estimate is within 6 standard deviations of pi (the
/// same answer on every rank).
inline bool plausible(MPI_Comm comm, double pi) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  const double p = 3.14159265358979323846 / 4.0, sigma = 4.0 * std::sqrt(p * (1.0 - p) / double(samples));
  int ok = rank != 0 || std::fabs(pi - 3.14159265358979323846) < 6.0 * sigma ? 1 : 0;
  MPI_Bcast(&ok, 1, MPI_INT, 0, comm);
  return ok != 0;
}

void BM_montecarlo_hand(benchmark::State& state) {
  double pi = 0;
  run_timed(state, MPI_COMM_WORLD, [&] { pi = hand_pi(MPI_COMM_WORLD); });
  if (!plausible(MPI_COMM_WORLD, pi)) state.SkipWithError("hand-written MPI Monte Carlo: estimate of pi is off");
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  state.counters["ranks"] = size;
  state.counters["samples_per_s"] = benchmark::Counter(double(samples), benchmark::Counter::kIsIterationInvariantRate);
}

// ---- sinter versions: the same 2^25 samples as lazy random leaves keyed by
// the global index, the count a distributed reduction (mpi::distributed:
// each rank draws only its rows; nothing is stored). ----

/// pi by sinter on every rank: x and y uniform floats from two keys. With
/// `stored`, the test is a pass into a distributed bool array (the pass
/// fills whole Philox blocks), then summed; else one lazy reduction.
inline double sinter_pi(bool stored) {
  namespace st = sinter;
  const auto ks = st::random::split(st::random::key(key0), 2);
  const auto x = st::random::uniform<float>(ks[0], {samples}), y = st::random::uniform<float>(ks[1], {samples});
  const auto in = st::mpi::distributed(x * x + y * y < 1.0f);
  const auto inside = stored ? st::sum(st::mpi::dist_array<bool, 1>(in)) : st::sum(in);
  return 4.0 * double(inside) / double(samples);
}

void BM_montecarlo_sinter(benchmark::State& state) {
  double pi = 0;
  run_timed(state, MPI_COMM_WORLD, [&] { pi = sinter_pi(state.range(0) != 0); });
  if (!plausible(MPI_COMM_WORLD, pi)) state.SkipWithError("sinter::mpi Monte Carlo: estimate of pi is off");
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  state.counters["ranks"] = size;
  state.counters["samples_per_s"] = benchmark::Counter(double(samples), benchmark::Counter::kIsIterationInvariantRate);
}

}  // namespace montecarlo

BENCHMARK(montecarlo::BM_montecarlo_hand)->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(5);
BENCHMARK(montecarlo::BM_montecarlo_sinter)->Arg(1)->Arg(0)->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(5);

#include "mpi_main.hpp"
