// Operations beyond the fused pass on distributed arrays
// (include/sinter/mpi/unsupported.hpp), under mpirun at 1 to 4 ranks: scans
// and sorts along axis 1 run on each rank's rows, as the single-process ones;
// the operations that read other ranks' rows throw value_error on every
// rank (no hang: ctest's timeout), naming the operation and the remedy; a
// failure on one rank before a pass's exchange throws on every rank.
#include <doctest/doctest.h>

#include <sys/resource.h>

#include <fstream>
#include <stdexcept>
#include <string>

#include "mpi/array_support.hpp"

namespace test_mpi_unsupported {
using namespace sinter;
using sinter::index_t;
using namespace test_mpi_array_support;

// Whether f() throws value_error naming `op`, "distributed array" and a remedy.
template <class F>
bool refused(F&& f, const std::string& op) {
  try {
    f();
  } catch (const value_error& e) {
    const std::string w = e.what();
    return w.find(op) != std::string::npos && w.find("distributed array") != std::string::npos &&
           w.find("sinter::mpi::gather") != std::string::npos && w.find("sinter::mpi::local") != std::string::npos;
  }
  return false;
}
}  // namespace test_mpi_unsupported

TEST_CASE("mpi unsupported: scans along axis 1 per rank, bitwise one process") {
  using namespace test_mpi_unsupported;
  for (index_t n0 : {index_t(3), index_t(7), index_t(40)}) {  // the slices keep 2 rows or more
    const auto h = data2(n0, 13, 21);
    const auto x = mpi::scatter(h, 0);
    INFO("n0 ", n0);
    CHECK(same_bits(mpi::allgather(cumsum(x, axis(1))), array<float, 2>(cumsum(h, axis(1)))));
    CHECK(same_bits(mpi::allgather(cummax(x, axis(-1))), array<float, 2>(cummax(h, axis(-1)))));
    // Rows of other ranks read through the halo exchange (a shifted difference).
    const auto d = cumsum(x(slice(1, end)) - x(slice(0, -1)), axis(1));
    CHECK(same_bits(mpi::allgather(d), array<float, 2>(cumsum(h(slice(1, end)) - h(slice(0, -1)), axis(1)))));
    const array<float, 3> h3(random::uniform(random::key(2), {n0, 4, 5}, -1.0, 1.0));
    CHECK(same_bits(mpi::allgather(cumprod(mpi::scatter(h3, 0), axis(1))), array<float, 3>(cumprod(h3, axis(1)))));
  }
}

TEST_CASE("mpi unsupported: sorting along the last axes sorts each rank's rows, as one process") {
  using namespace test_mpi_unsupported;
  for (index_t n0 : {index_t(1), index_t(3), index_t(8), index_t(37)}) {
    const array<float, 2> h(floor(data2(n0, 67, 23) * 8.f));  // ties: a stable sort keeps their order
    const auto x = mpi::scatter(h, 0);
    INFO("n0 ", n0);
    CHECK(same_bits(mpi::allgather(sort(x)), sort(h)));
    CHECK(same_bits(mpi::allgather(sort(x * -1.f, 1)), sort(h * -1.f, 1)));
    auto y = mpi::scatter(h, 0);
    sort_inplace(y, -1);
    const auto g = mpi::allgather(y);
    bool ordered = true;  // against a plain check: each row non-decreasing, the same values as h's row
    for (index_t i = 0; i < n0; ++i)
      for (index_t j = 1; j < 67; ++j) ordered = ordered && g.data()[i * 67 + j - 1] <= g.data()[i * 67 + j];
    CHECK(ordered);
    CHECK(same_bits(sum(g, axis(1)), sum(sort(h), axis(1))));
    const array<double, 3> h3(random::uniform(random::key(24), {n0, 3, 11}, -1.0, 1.0));
    CHECK(same_bits(mpi::allgather(sort(mpi::scatter(h3, 0), 1)), sort(h3, 1)));
  }
}

TEST_CASE("mpi unsupported: operations reading other ranks' rows throw value_error on every rank") {
  using namespace test_mpi_unsupported;
  const auto h = data2(9, 4, 22);
  auto x = mpi::scatter(h, 0);
  array<std::int64_t, 1> idx({2});
  idx.data()[0] = 8;
  idx.data()[1] = 0;
  CHECK(refused([&] { (void)cumsum(x, axis(0)); }, "scan"));
  CHECK(refused([&] { (void)cumsum(x); }, "scan"));
  CHECK(refused([&] { (void)cumsum(mpi::scatter(array<float, 1>(h(all, 0)), 0)); }, "scan"));
  CHECK(refused([&] { (void)sort(x, 0); }, "sinter::sort along axis 0"));
  CHECK(refused([&] { sort_inplace(x, 0); }, "sinter::sort along axis 0"));
  CHECK(refused([&] { sort_inplace(x(slice(1, end))); }, "sinter::sort_inplace of a view"));
  CHECK(refused([&] { (void)argsort(x); }, "sinter::argsort"));
  CHECK(refused([&] { (void)partition(x, 1); }, "sinter::partition"));
  CHECK(refused([&] { (void)argpartition(x, 1); }, "sinter::argpartition"));
  CHECK(refused([&] { (void)topk(x, 2); }, "sinter::topk"));
  CHECK(refused([&] { (void)unique(x); }, "unique"));
  CHECK(refused([&] { (void)nonzero(x > 0.f); }, "nonzero"));
  CHECK(refused([&] { (void)flatnonzero(x > 0.f); }, "nonzero"));
  CHECK(refused([&] { mpi::dist_array<float, 2> r = roll(x, 1, 0); }, "roll"));
  CHECK(refused([&] { mpi::dist_array<float, 2> r = pad(x, 1); }, "pad"));
  CHECK(refused([&] { mpi::dist_array<float, 2> r = take(x, idx, 0); }, "take"));
  CHECK(refused([&] { mpi::dist_array<float, 2> r = concatenate(std::tie(x, x)); }, "concatenate"));
  CHECK(refused([&] { mpi::dist_array<float, 3> r = stack(std::tie(x, x)); }, "stack"));
  // x is unchanged and still usable: nothing was written, no rank is left waiting.
  CHECK(same_bits(mpi::allgather(x), h));
}

namespace test_mpi_unsupported {
// This process's data segment (VmData, bytes), which RLIMIT_DATA bounds.
inline rlim_t data_bytes() {
  std::ifstream in("/proc/self/status");
  std::string key;
  rlim_t kib = 0;
  while (in >> key)
    if (key == "VmData:") {
      in >> kib;
      break;
    }
  return kib * 1024;
}
}  // namespace test_mpi_unsupported

TEST_CASE("mpi failure: ghost rows that one rank cannot commit throw on every rank before the exchange") {
  using namespace test_mpi_unsupported;
  const mpi::communicator world;
  if (world.size() == 1) {  // one rank: nobody waits, a functor's exception propagates (no abort)
    auto a = mpi::zeros<float>({5, 3});
    CHECK_THROWS_AS(a = map([](float) -> float { throw std::runtime_error("functor"); }, a), std::runtime_error);
  }
  if (world.size() < 2) return;  // the same on every rank: no collective is skipped by one only
  // Rows of 2 MiB: the stencil's ghost rows need new pages, which rank 1's
  // lowered RLIMIT_DATA refuses (mprotect: ENOMEM, std::bad_alloc).
  const index_t n0 = 2 * index_t(world.size()), n1 = index_t(1) << 19;
  auto x = mpi::zeros<float>({n0, n1});
  auto y = mpi::zeros<float>({n0, n1});
  rlimit old{};
  getrlimit(RLIMIT_DATA, &old);
  if (world.rank() == 1) {
    rlimit low = old;
    low.rlim_cur = data_bytes() + (rlim_t(1) << 19);
    setrlimit(RLIMIT_DATA, &low);
  }
  std::string what;
  try {
    y(slice(1, -1)) = x(slice(0, -2)) + x(slice(2, end));
  } catch (const std::exception& e) {
    what = e.what();
  }
  if (world.rank() == 1) setrlimit(RLIMIT_DATA, &old);
  CHECK(!what.empty());
  if (world.rank() != 1) CHECK(what.find("rank 1 of") != std::string::npos);
  // Every rank left the pass: the next collective completes, nothing was written.
  CHECK(double(sum(y)) == 0.0);
}
