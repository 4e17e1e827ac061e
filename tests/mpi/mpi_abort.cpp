// The abort path of a distributed pass (include/sinter/mpi/pass.hpp): a
// user functor throws on rank 1 only, after the pass's halo exchange began;
// rank 1 prints "sinter: mpi: rank 1: <what>; aborting" and MPI_Abort ends
// every rank (ctest matches the line; without the abort, rank 0 would wait
// for rank 1 and the run would hit its timeout).
#include <stdexcept>

#include "sinter/mpi.hpp"

namespace mpi_abort {
int rank = 0;
}

int main(int argc, char** argv) {
  sinter::mpi::environment env(argc, argv);
  using namespace sinter;
  mpi_abort::rank = mpi::communicator{}.rank();
  auto x = mpi::zeros<float>({64, 8});
  mpi::dist_array<float, 2> y = mpi::zeros<float>({64, 8});
  y(slice(1, -1)) = map(
      [](float v) {
        if (mpi_abort::rank == 1) throw std::runtime_error("functor failed");
        return v;
      },
      x(slice(0, -2)) + x(slice(2, end)));
  return static_cast<int>(sum(y));  // reached only if no rank failed
}
