// sinter::mpi's communication layer (include/sinter/mpi/): the block
// distribution, halo exchange, collectives and the deterministic reduction,
// run by ctest under mpirun at 1, 2, 3 and 4 ranks (tests/mpi/CMakeLists.txt).
// Every case makes the same collective calls on every rank: CHECK, not
// REQUIRE, before a collective call, so no rank leaves a case early.
#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

#include "sinter/mpi/blocks.hpp"
#include "sinter/mpi/comm.hpp"

namespace test_mpi_comm {
using sinter::index_t;
namespace md = sinter::mpi::detail;

// Rows dealt one at a time to the ranks in turn: the counts a block split must give.
inline std::vector<index_t> dealt_counts(index_t n0, int size) {
  std::vector<index_t> c(std::size_t(size), 0);
  for (index_t i = 0; i < n0; ++i) ++c[std::size_t(i % size)];
  return c;
}
}  // namespace test_mpi_comm

TEST_CASE("mpi blocks: block_rows and row_owner against rows dealt in turn") {
  using namespace test_mpi_comm;
  for (int size = 1; size <= 7; ++size)
    for (index_t n0 : {index_t(0), index_t(1), index_t(2), index_t(3), index_t(5), index_t(7), index_t(13), index_t(4096), index_t(4099)}) {
      const auto counts = dealt_counts(n0, size);
      index_t first = 0;
      for (int r = 0; r < size; ++r) {
        const auto [b, e] = md::block_rows(n0, size, r);
        CHECK(b == first);
        CHECK(e - b == counts[std::size_t(r)]);
        for (index_t row = b; row < e; ++row) CHECK(md::row_owner(n0, size, row) == r);
        first += counts[std::size_t(r)];
      }
      CHECK(first == n0);
    }
  CHECK_THROWS_AS(md::check_blocks(4, 2, 2), sinter::value_error);
  CHECK_THROWS_AS(md::check_blocks(-1, 2, 0), sinter::value_error);
  CHECK_NOTHROW(md::check_blocks(0, 3, 2));
}

TEST_CASE("mpi blocks: the ranks' blocks tile the rows in rank order") {
  using namespace test_mpi_comm;
  const sinter::mpi::communicator world;
  const int size = world.size(), rank = world.rank();
  for (index_t n0 : {index_t(0), index_t(1), index_t(3), index_t(10), index_t(1001)}) {
    const auto [b, e] = md::block_rows(n0, size, rank);
    std::int64_t mine[2] = {b, e};
    std::vector<std::int64_t> all(std::size_t(2 * size));
    MPI_Allgather(mine, 2, MPI_INT64_T, all.data(), 2, MPI_INT64_T, world.get());
    CHECK(all[0] == 0);
    CHECK(all[std::size_t(2 * size - 1)] == n0);
    for (int r = 1; r < size; ++r) CHECK(all[std::size_t(2 * r)] == all[std::size_t(2 * r - 1)]);
  }
}
