// sinter::mpi's communication layer (include/sinter/mpi/): the block
// distribution, halo exchange and collectives (the deterministic reductions
// are tested through distributed arrays, test_mpi_array.cpp), run by ctest under mpirun at 1, 2, 3 and 4 ranks (tests/mpi/CMakeLists.txt).
// Every case makes the same collective calls on every rank: CHECK, not
// REQUIRE, before a collective call, so no rank leaves a case early.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "sinter/mpi/blocks.hpp"
#include "sinter/mpi/collective.hpp"
#include "sinter/mpi/comm.hpp"
#include "sinter/mpi/exchange.hpp"

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

namespace test_mpi_comm {
// Element j of global row i: distinct for every (i, j), never the sentinel.
inline double row_value(index_t i, index_t j) { return double(i) * 1000.0 + double(j) + 0.25; }
constexpr double sentinel = -7.0;
constexpr index_t width = 5;  // elements per row

// Each rank fills its own rows, exchanges the halo rows `need` asks for and
// checks every row: own and needed rows hold row_value, all others the sentinel.
// Rows [lo, hi) read through shifts of -below ... +above rows by a pass on
// the owned rows, clipped to [0, n0); nothing for an empty block.
inline std::pair<index_t, index_t> window(index_t n0, std::pair<index_t, index_t> owned, index_t below, index_t above) {
  if (owned.first >= owned.second) return {owned.first, owned.first};
  return {std::max<index_t>(owned.first - below, 0), std::min<index_t>(owned.second + above, n0)};
}

template <class Need>
void check_halo(index_t n0, const Need& need, std::size_t max_message, const char* what) {
  const sinter::mpi::communicator world;
  const int size = world.size(), rank = world.rank();
  std::vector<double> rows(std::size_t(n0 * width), sentinel);
  const auto [b, e] = md::block_rows(n0, size, rank);
  for (index_t i = b; i < e; ++i)
    for (index_t j = 0; j < width; ++j) rows[std::size_t(i * width + j)] = row_value(i, j);
  auto plan = md::halo_plan(n0, sizeof(double) * std::size_t(width), size, rank, rows.data(), need);
  const auto before = md::exchange_stats();
  const std::size_t expect_in = plan.bytes_received(), expect_out = plan.bytes_sent();
  auto pend = md::start_exchange(world, std::move(plan), max_message);
  pend.wait();
  CHECK(md::exchange_stats().bytes_received - before.bytes_received == expect_in);
  CHECK(md::exchange_stats().bytes_sent - before.bytes_sent == expect_out);
  auto [lo, hi] = need(rank);
  lo = std::max<index_t>(lo, 0);
  hi = std::min<index_t>(hi, n0);
  index_t wrong = 0, received_rows = 0;
  for (index_t i = 0; i < n0; ++i) {
    const bool have = (i >= b && i < e) || (i >= lo && i < hi);
    if (have && !(i >= b && i < e)) ++received_rows;
    for (index_t j = 0; j < width; ++j) wrong += rows[std::size_t(i * width + j)] != (have ? row_value(i, j) : sentinel);
  }
  INFO(what, ": n0 ", n0, ", rank ", rank, " of ", size);
  CHECK(wrong == 0);
  CHECK(expect_in == std::size_t(received_rows * width) * sizeof(double));
}
}  // namespace test_mpi_comm

TEST_CASE("mpi exchange: halo rows of widths 1 and 3 arrive from whichever ranks own them") {
  using namespace test_mpi_comm;
  const sinter::mpi::communicator world;
  const int size = world.size();
  for (index_t n0 : {index_t(0), index_t(1), index_t(2), index_t(3), index_t(5), index_t(7), index_t(10), index_t(23)})
    for (index_t h : {index_t(1), index_t(3)}) {
      auto sym = [&](int r) { return window(n0, md::block_rows(n0, size, r), h, h); };
      check_halo(n0, sym, md::max_message_bytes, "symmetric halo");
      auto below = [&](int r) { return window(n0, md::block_rows(n0, size, r), h, 0); };
      check_halo(n0, below, md::max_message_bytes, "halo below only");
      auto lopsided = [&](int r) { return window(n0, md::block_rows(n0, size, r), 1, h); };
      check_halo(n0, lopsided, 7, "halo 1 below, h above, in 7-byte messages");
    }
  // Every rank reads every row (more than one owner per piece), and needs
  // reaching past both ends of the region (clipped).
  for (index_t n0 : {index_t(1), index_t(4), index_t(9)}) {
    check_halo(n0, [&](int) { return std::pair<index_t, index_t>{0, n0}; }, md::max_message_bytes, "all rows");
    check_halo(n0, [&](int) { return std::pair<index_t, index_t>{-4, n0 + 4}; }, 16, "beyond the ends");
  }
}

namespace test_mpi_comm {
// Every rank runs f through run_agreed, with rank `bad` throwing `thrown`;
// every rank must throw E, the failing rank its own message, the others
// one naming the lowest failing rank.
template <class E, class Thrown>
void check_agree(int bad, const Thrown& thrown, int also_bad = -1) {
  const sinter::mpi::communicator world;
  const int size = world.size(), rank = world.rank();
  std::string msg;
  bool caught = false;
  try {
    md::run_agreed(world, [&] {
      if (rank == bad || rank == also_bad) throw thrown;
    });
  } catch (const E& x) {
    caught = true;
    msg = x.what();
  } catch (...) {
  }
  INFO("rank ", rank, " of ", size, ", failing rank ", bad, ": ", msg);
  CHECK(caught);
  if (rank == bad || rank == also_bad) {
    CHECK(msg == std::string(thrown.what()));
  } else {
    const int first = also_bad >= 0 && also_bad < bad ? also_bad : bad;
    CHECK(msg == "sinter::mpi: rank " + std::to_string(first) + " of " + std::to_string(size) +
                     " failed: " + thrown.what());
  }
}
}  // namespace test_mpi_comm

TEST_CASE("mpi agree: one rank throws, every rank throws the same kind naming it, no hang") {
  using namespace test_mpi_comm;
  const sinter::mpi::communicator world;
  const int size = world.size();
  CHECK_NOTHROW(md::run_agreed(world, [] {}));
  CHECK_NOTHROW(md::agree(world, nullptr));
  for (int bad = 0; bad < size; ++bad) {
    check_agree<sinter::index_error>(bad, sinter::index_error("index 9 is out of bounds for axis 0 with size 3"));
    check_agree<sinter::value_error>(bad, sinter::value_error("sinter: x: bad value; fix it"));
    check_agree<sinter::shape_error>(bad, sinter::shape_error("add: shapes (3) and (4) do not broadcast"));
    check_agree<sinter::io_error>(bad, sinter::io_error("a.npy: truncated at byte 128"));
    check_agree<sinter::mpi::mpi_error>(bad, sinter::mpi::mpi_error("sinter::mpi: test"));
    check_agree<sinter::error>(bad, sinter::error("plain sinter error"));
    check_agree<sinter::value_error>(bad, sinter::value_error("two fail"), size - 1);
  }
  // A standard exception: the failing rank rethrows its own, the others mpi_error.
  for (int bad = 0; bad < size; ++bad) {
    bool own = false, other = false;
    try {
      md::run_agreed(world, [&] {
        if (world.rank() == bad) throw std::runtime_error("std failure");
      });
    } catch (const sinter::mpi::mpi_error& x) {
      other = std::string(x.what()).find("rank " + std::to_string(bad)) != std::string::npos;
    } catch (const std::runtime_error& x) {
      own = std::string(x.what()) == "std failure";
    }
    CHECK((world.rank() == bad ? own : other));
  }
  // out_of_memory carries its sizes to the other ranks.
  for (int bad = 0; bad < size; ++bad) {
    std::size_t req = 0, avail = 0;
    try {
      md::run_agreed(world, [&] {
        if (world.rank() == bad) throw sinter::out_of_memory("sinter: out of memory", 1234, 56);
      });
    } catch (const sinter::out_of_memory& x) {
      req = x.requested;
      avail = x.available;
    }
    CHECK(req == 1234);
    CHECK(avail == 56);
  }
}

TEST_CASE("mpi allgather: rank order, zero counts") {
  using namespace test_mpi_comm;
  const sinter::mpi::communicator world;
  const int size = world.size(), rank = world.rank();
  for (int shift = 0; shift < 2; ++shift) {  // rank r gives r + shift values (rank 0 none at first)
    std::vector<std::int32_t> mine;
    for (int k = 0; k < rank + shift; ++k) mine.push_back(rank * 100 + k);
    const auto all = md::allgather(world, std::span<const std::int32_t>(mine));
    std::vector<std::int32_t> expect;
    for (int r = 0; r < size; ++r)
      for (int k = 0; k < r + shift; ++k) expect.push_back(r * 100 + k);
    CHECK(all == expect);
  }
  CHECK(md::allgather(world, std::span<const double>()).empty());
  const auto ranks = md::allgather(world, std::int64_t(rank) * 3);
  CHECK(ranks.size() == std::size_t(size));
  for (int r = 0; r < size; ++r) CHECK(ranks[std::size_t(r)] == std::int64_t(r) * 3);
}

TEST_CASE("mpi gather_rows and scatter_rows: round trips to every root, split messages") {
  using namespace test_mpi_comm;
  const sinter::mpi::communicator world;
  const int size = world.size(), rank = world.rank();
  for (index_t n0 : {index_t(0), index_t(1), index_t(3), index_t(11)})
    for (std::size_t max_message : {md::max_message_bytes, std::size_t(16)})
      for (int root = 0; root < size; ++root) {
        const auto [b, e] = md::block_rows(n0, size, rank);
        std::vector<double> block;
        for (index_t i = b; i < e; ++i)
          for (index_t j = 0; j < width; ++j) block.push_back(row_value(i, j));
        std::vector<double> global(rank == root ? std::size_t(n0 * width) : 0, sentinel);
        md::gather_rows(world, root, block.data(), block.size() * sizeof(double), global.data(), max_message);
        if (rank == root) {
          index_t wrong = 0;
          for (index_t i = 0; i < n0; ++i)
            for (index_t j = 0; j < width; ++j) wrong += global[std::size_t(i * width + j)] != row_value(i, j);
          CHECK(wrong == 0);
          for (auto& v : global) v = -v;  // scatter back something new
        }
        std::vector<double> back(block.size(), sentinel);
        md::scatter_rows(world, root, global.data(), back.data(), back.size() * sizeof(double), max_message);
        index_t wrong = 0;
        for (std::size_t k = 0; k < back.size(); ++k) wrong += back[k] != -block[k];
        CHECK(wrong == 0);
      }
}
