// The doctest runner of the MPI test binaries (tests/mpi/CMakeLists.txt):
// every rank runs the same test cases in the same order, since the tests
// make collective calls. A test must therefore never leave a case early on
// one rank only (CHECK, not REQUIRE, before a collective call).
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdio>
#include <iostream>
#include <sstream>

#include "sinter/mpi/comm.hpp"

int main(int argc, char** argv) {
  sinter::mpi::environment env(argc, argv);
  const sinter::mpi::communicator world;
  const int rank = world.rank(), size = world.size();
  doctest::Context ctx(argc, argv);
  // Ranks other than 0 write to a buffer, shown only when that rank failed.
  std::ostringstream quiet;
  if (rank != 0) ctx.setCout(&quiet);
  const int local = ctx.run();
  if (ctx.shouldExit()) return local;  // --help, --list-test-cases ...
  int failed = local != 0 ? 1 : 0, any = 0;
  MPI_Allreduce(&failed, &any, 1, MPI_INT, MPI_MAX, world.get());
  for (int r = 1; r < size; ++r) {  // failing ranks report in rank order
    world.barrier();
    if (r == rank && failed != 0) std::cerr << "---- rank " << rank << " of " << size << ":\n" << quiet.str() << std::flush;
  }
  if (rank == 0 && any != 0 && failed == 0) std::cerr << "sinter mpi tests: rank 0 passed; another rank failed (above)\n";
  return any != 0 ? 1 : 0;
}
