// 2-D heat diffusion (Jacobi) at 4096 x 4096 float over MPI ranks, run under
// mpirun (`mpirun -np 2 bench/bench_mpi_heat`). Rows are block-distributed
// (sinter::mpi::detail::block_rows); each step exchanges one halo row with
// each neighbour while the interior rows are computed, then the two boundary
// rows. Time per iteration: one step, the slowest rank's (MPI_Wtime, a
// barrier before each step, UseManualTime); rank 0 reports.
// Issue 64's comparison: sinter's distributed version against the
// hand-written MPI + loop one below (docs/journal/2026-12-05-mpi.md).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <tuple>
#include <vector>

#include <sinter/mpi.hpp>
#include <sinter/mpi/blocks.hpp>
#include <sinter/mpi/comm.hpp>

namespace heat {

using sinter::index_t;
constexpr index_t n = 4096;  // global rows and columns
constexpr int steps_checked = 3;

/// The starting field: a hot left edge and a bump, every value exact in float.
inline float initial(index_t i, index_t j) {
  if (j == 0) return 100.0f;
  return float((i * 7 + j * 13) % 64) * 0.25f;
}

/// One row of the stencil: out[j] = 0.25 * (((up + down) + left) + right),
/// the order sinter evaluates `0.25f * (u(up) + u(down) + u(left) + u(right))`.
inline void stencil_row(const float* up, const float* mid, const float* down, float* out) {
  for (index_t j = 1; j < n - 1; ++j) out[j] = 0.25f * (((up[j] + down[j]) + mid[j - 1]) + mid[j + 1]);
}

/// The hand-written MPI + loop version: this rank's rows [b, e) with one
/// ghost row on each side, two buffers, Isend/Irecv of the halo rows
/// overlapped with the interior rows.
struct hand {
  MPI_Comm comm;
  int rank = 0, size = 1;
  index_t b = 0, e = 0;
  std::vector<float> u, v;  // (e - b + 2) rows of n: ghost, owned rows, ghost

  explicit hand(MPI_Comm c) : comm(c) {
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    std::tie(b, e) = sinter::mpi::detail::block_rows(n, size, rank);
    u.assign(std::size_t((e - b + 2) * n), 0.0f);
    for (index_t i = b; i < e; ++i)
      for (index_t j = 0; j < n; ++j) u[std::size_t((i - b + 1) * n + j)] = initial(i, j);
    v = u;
  }
  float* row(std::vector<float>& a, index_t global) { return a.data() + (global - b + 1) * n; }

  /// Halo bytes this rank sends per step.
  double halo_bytes() const { return double((rank > 0) + (rank < size - 1)) * double(n) * sizeof(float); }

  /// One step u -> v, then swap. Returns the seconds spent waiting for the halo.
  double step() {
    MPI_Request req[4];
    int nreq = 0;
    if (rank > 0) {
      MPI_Irecv(row(u, b - 1), int(n), MPI_FLOAT, rank - 1, 1, comm, &req[nreq++]);
      MPI_Isend(row(u, b), int(n), MPI_FLOAT, rank - 1, 2, comm, &req[nreq++]);
    }
    if (rank < size - 1) {
      MPI_Irecv(row(u, e), int(n), MPI_FLOAT, rank + 1, 2, comm, &req[nreq++]);
      MPI_Isend(row(u, e - 1), int(n), MPI_FLOAT, rank + 1, 1, comm, &req[nreq++]);
    }
    // Rows updated: [max(b, 1), min(e, n - 1)); interior: both neighbours owned.
    const index_t lo = std::max<index_t>(b, 1), hi = std::min<index_t>(e, n - 1);
    const index_t ilo = std::max(lo, b + 1), ihi = std::min(hi, e - 1);
    for (index_t i = ilo; i < ihi; ++i) stencil_row(row(u, i - 1), row(u, i), row(u, i + 1), row(v, i));
    const double t0 = MPI_Wtime();
    MPI_Waitall(nreq, req, MPI_STATUSES_IGNORE);
    const double waited = MPI_Wtime() - t0;
    for (index_t i = lo; i < hi; ++i)
      if (i < ilo || i >= ihi) stencil_row(row(u, i - 1), row(u, i), row(u, i + 1), row(v, i));
    std::swap(u, v);
    return waited;
  }
};

/// The whole field after `steps` steps, computed by one process.
inline std::vector<float> serial(int steps) {
  std::vector<float> a(std::size_t(n * n)), c;
  for (index_t i = 0; i < n; ++i)
    for (index_t j = 0; j < n; ++j) a[std::size_t(i * n + j)] = initial(i, j);
  c = a;
  for (int s = 0; s < steps; ++s) {
    for (index_t i = 1; i < n - 1; ++i) stencil_row(&a[std::size_t((i - 1) * n)], &a[std::size_t(i * n)], &a[std::size_t((i + 1) * n)], &c[std::size_t(i * n)]);
    std::swap(a, c);
  }
  return a;
}

/// Whether this rank's rows equal the single-process run's bit for bit
/// (the same answer on every rank).
inline bool owned_rows_match(MPI_Comm comm, index_t b, index_t e, const float* rows, const std::vector<float>& ref) {
  const int ok_here = std::memcmp(rows, ref.data() + b * n, std::size_t((e - b) * n) * sizeof(float)) == 0 ? 1 : 0;
  int ok = 0;
  MPI_Allreduce(&ok_here, &ok, 1, MPI_INT, MPI_MIN, comm);
  return ok != 0;
}

/// Times `step` per iteration as the slowest rank's MPI_Wtime span, after
/// a barrier; for the hand-written and the sinter versions alike.
template <class Step>
void run_timed(benchmark::State& state, MPI_Comm comm, Step&& step) {
  for (auto _ : state) {
    MPI_Barrier(comm);
    const double t0 = MPI_Wtime();
    step();
    const double mine = MPI_Wtime() - t0;
    double slowest = 0;
    MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, comm);
    state.SetIterationTime(slowest);
  }
}

void BM_heat_hand(benchmark::State& state) {
  const std::vector<float> ref = serial(steps_checked);
  hand h(MPI_COMM_WORLD);
  for (int s = 0; s < steps_checked; ++s) h.step();
  if (!owned_rows_match(h.comm, h.b, h.e, h.row(h.u, h.b), ref)) {
    state.SkipWithError("hand-written MPI heat: result differs from the single-process run");
    return;
  }
  double waited = 0;
  run_timed(state, h.comm, [&] { waited += h.step(); });
  state.counters["ranks"] = h.size;
  state.counters["halo_bytes_per_rank"] = h.halo_bytes();
  state.counters["wait_s_per_step_rank"] = benchmark::Counter(waited, benchmark::Counter::kAvgIterations);
  state.counters["cells_per_s"] = benchmark::Counter(double((n - 2) * (n - 2)), benchmark::Counter::kIsIterationInvariantRate);
}

// ---- sinter versions: the same field and stencil on sinter::mpi
// distributed arrays, two buffers, one assignment per step (the halo
// exchange overlapped with the interior rows by sinter). ----

/// The sinter version: u, v distributed over comm, filled from `initial`
/// on each rank's own rows.
struct with_sinter {
  sinter::mpi::dist_array<float, 2> u, v;
  explicit with_sinter(MPI_Comm c)
      : u(sinter::mpi::empty<float>({n, n}, sinter::mpi::communicator(c))),
        v(sinter::mpi::empty<float>({n, n}, sinter::mpi::communicator(c))) {
    const auto [b, e] = sinter::mpi::owned_rows(u);
    float* pu = sinter::mpi::local(u).data();
    for (index_t i = b; i < e; ++i)
      for (index_t j = 0; j < n; ++j) pu[(i - b) * n + j] = initial(i, j);
    std::memcpy(sinter::mpi::local(v).data(), pu, std::size_t((e - b) * n) * sizeof(float));
  }
  void step() {
    using sinter::slice;
    const auto in = slice(1, -1), lo = slice(0, -2), hi = slice(2, sinter::end);
    v(in, in) = 0.25f * (u(lo, in) + u(hi, in) + u(in, lo) + u(in, hi));
    u.swap(v);
  }
};

void BM_heat_sinter(benchmark::State& state) {
  const std::vector<float> ref = serial(steps_checked);
  with_sinter h(MPI_COMM_WORLD);
  for (int s = 0; s < steps_checked; ++s) h.step();
  const auto [b, e] = sinter::mpi::owned_rows(h.u);
  if (!owned_rows_match(MPI_COMM_WORLD, b, e, sinter::mpi::local(h.u).data(), ref)) {
    state.SkipWithError("sinter::mpi heat: result differs from the single-process run");
    return;
  }
  run_timed(state, MPI_COMM_WORLD, [&] { h.step(); });
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  state.counters["ranks"] = size;
  state.counters["cells_per_s"] = benchmark::Counter(double((n - 2) * (n - 2)), benchmark::Counter::kIsIterationInvariantRate);
}

}  // namespace heat

BENCHMARK(heat::BM_heat_hand)->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(30);
BENCHMARK(heat::BM_heat_sinter)->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(30);

#include "mpi_main.hpp"
