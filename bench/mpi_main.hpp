#pragma once
/// \file bench/mpi_main.hpp
/// main() of the bench_mpi_* programs: every rank runs every benchmark (they
/// are collective), rank 0 alone reports. Random interleaving would give each
/// rank its own order and hang their barriers: do not pass it.
#include <benchmark/benchmark.h>

#include <sinter/mpi.hpp>
#include <vector>

namespace bench_mpi {
/// The reporter of ranks other than 0: reports nothing.
struct silent : benchmark::BenchmarkReporter {
  bool ReportContext(const Context&) override { return true; }
  void ReportRuns(const std::vector<Run>&) override {}
};
}  // namespace bench_mpi

int main(int argc, char** argv) {
  sinter::mpi::environment env(argc, argv);
  benchmark::Initialize(&argc, argv);
  const sinter::mpi::communicator world;
  if (world.rank() == 0) {
    benchmark::RunSpecifiedBenchmarks();
  } else {
    bench_mpi::silent quiet;
    benchmark::RunSpecifiedBenchmarks(&quiet);
  }
  benchmark::Shutdown();
  return 0;
}
