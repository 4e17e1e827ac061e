// Reductions of sinter's distributed arrays (include/sinter/mpi/reduce.hpp),
// run by ctest under mpirun at 1, 2, 3 and 4 ranks (tests/mpi/CMakeLists.txt):
// full reductions and reductions along axes, bitwise the single-process
// result computed on every rank from the same data, plus a plain
// double-precision loop. Every case makes the same collective calls on
// every rank: CHECK, not REQUIRE.
#include <doctest/doctest.h>

#include <cmath>
#include <type_traits>

#include "mpi/array_support.hpp"

namespace test_mpi_reduce {
using namespace sinter;
using sinter::index_t;
using namespace test_mpi_array_support;
}  // namespace test_mpi_reduce

TEST_CASE("mpi reduce: full and axis reductions against one process and a double loop") {
  using namespace test_mpi_reduce;
  for (index_t n0 : {index_t(0), index_t(1), index_t(2), index_t(5), index_t(9), index_t(700)})
    for (index_t n1 : {index_t(1), index_t(7), index_t(33)}) {
      const auto h = data2(n0, n1, 11);
      const auto x = mpi::scatter(h, 0);
      CHECK(same_bits(sum(x), sum(h)));
      CHECK(same_bits(sum(x * x + 1.f), sum(h * h + 1.f)));
      CHECK(same_bits(sum(x(slice(1, end), all)), sum(h(slice(1, end), all))));  // shifted rows: ghost rows
      double ref = 0;
      for (index_t i = 0; i < n0 * n1; ++i) ref += double(h.data()[i]);
      CHECK(std::abs(double(sum(x)) - ref) <= 1e-5 * double(n0 * n1 + 1));
      if (n0 * n1 == 0) continue;
      CHECK(same_bits(max(x), max(h)));
      CHECK(same_bits(mean(x), mean(h)));
      CHECK(argmax(x) == argmax(h));
      CHECK(argmax(-x) == argmax(-h));
      CHECK(same_bits(mpi::allgather(sum(x, axis(0))), sum(h, axis(0))));
      CHECK(same_bits(mpi::allgather(max(x, axis(1))), max(h, axis(1))));
      CHECK(same_bits(mpi::allgather(mean(x, axis(1))), mean(h, axis(1))));
      CHECK(same_bits(mpi::allgather(argmax(x, axis(0))), argmax(h, axis(0))));
      // A reduction's result used again in a distributed pass.
      mpi::dist_array<float, 2> centred = x - mean(x, axis(1), keepdims);
      CHECK(same_bits(mpi::allgather(centred), array<float, 2>(h - mean(h, axis(1), keepdims))));
    }
}

namespace test_mpi_reduce {
// Full reductions of the 1-D x scattered from h: bitwise the single-process
// ones (float only: each op is a compile-time instantiation on two policies).
inline void check_full(const array<float, 1>& h, const char* what) {
  const auto x = mpi::scatter(h, 0);
  INFO(what, ", n ", h.size());
  CHECK(same_bits(sum(x), sum(h)));
  CHECK(same_bits(mean(x), mean(h)));
  if (h.size() == 0) return;  // max and argmax of nothing are errors
  CHECK(same_bits(max(x), max(h)));
  CHECK(argmax(x) == argmax(h));
}
}  // namespace test_mpi_reduce

TEST_CASE("mpi reduce: full reductions across tile boundaries, ties and NaN, bitwise one process") {
  using namespace test_mpi_reduce;
  for (index_t n : {index_t(0), index_t(1), index_t(4095), index_t(4097), index_t(3 * 4096 + 5), index_t(100003)}) {
    const array<float, 1> f(random::uniform(random::key(7), {n}, -1.0, 1.0));
    check_full(f, "float");
    check_full(array<float, 1>(floor(f * 5.f)), "ties");  // argmax gives the first maximum
    array<float, 1> nan = f;
    if (n > 2) nan.data()[n / 3] = nan.data()[n / 2] = std::nanf("");
    check_full(nan, "NaN");
    const array<double, 1> d(random::uniform(random::key(8), {n}, 0.999, 1.001));  // double leaves differ
    const auto xd = mpi::scatter(d, 0);
    CHECK(same_bits(sum(xd), sum(d)));
    CHECK(same_bits(prod(xd), prod(d)));
  }
  // A float sum whose pairwise and sequential results differ: the tree is the single process's.
  array<float, 1> big = ones<float>({100003});
  big.data()[0] = 1e8f;
  check_full(big, "big first");
}

TEST_CASE("mpi reduce: axis reductions fold each rank's own rows, bitwise one process") {
  using namespace test_mpi_reduce;
  for (index_t n0 : {index_t(0), index_t(1), index_t(2), index_t(5), index_t(13), index_t(700)}) {
    const array<float, 3> h(random::uniform(random::key(3), {n0, 5, 3}, -1.0, 1.0));
    const auto x = mpi::scatter(h, 0);
    const auto before = mpi::detail::exchange_stats();
    // Axis 0 kept: no row moves (only the result is all-gathered).
    const auto s1 = mpi::allgather(sum(x, axis(1)));
    CHECK(same_bits(s1, sum(h, axis(1))));
    CHECK(same_bits(mpi::allgather(sum(x, axes(1, 2))), sum(h, axes(1, 2))));
    CHECK(same_bits(mpi::allgather(argmax(x, axis(2))), argmax(h, axis(2))));
    CHECK(same_bits(mpi::allgather(sum(x(slice(1, end)), axis(1))), sum(h(slice(1, end)), axis(1))));
    CHECK(mpi::detail::exchange_stats().bytes_received == before.bytes_received);
    // Ghost rows read (a shifted difference), axis 0 reduced, every axis reduced.
    const auto gd = mpi::allgather(sum(x(slice(1, end)) - x(slice(0, -1)), axis(2)));
    CHECK(same_bits(gd, sum(h(slice(1, end)) - h(slice(0, -1)), axis(2))));
    CHECK(same_bits(mpi::allgather(sum(x, axis(0))), sum(h, axis(0))));
    CHECK(same_bits(mpi::allgather(sum(x, axes(0, 1, 2))), sum(h, axes(0, 1, 2))));
    double ref = 0;  // row 0's sum along axis 1, by a double loop
    for (index_t j = 0; j < 5 && n0 > 0; ++j) ref += double(h.data()[j * 3]);
    if (n0 > 0) CHECK(std::abs(double(s1.data()[0]) - ref) <= 1e-5);
  }
}

namespace test_mpi_reduce {
// Axis-0 reductions of the 2-D x scattered from h, bitwise one process.
template <class T>
void check_axis0(const array<T, 2>& h) {
  const auto x = mpi::scatter(h, 0);
  INFO("shape ", h.shape(0), "x", h.shape(1));
  CHECK(same_bits(mpi::allgather(sum(x, axis(0))), sum(h, axis(0))));  // double: leaves of 1024, 32 lanes
  if constexpr (std::is_same_v<T, float>) {  // the others for one type (compile time)
    CHECK(same_bits(mpi::allgather(argmax(x, axis(0))), argmax(h, axis(0))));  // 16-byte lanes: leaves of 1024
    CHECK(same_bits(mpi::allgather(sum(x * x - T(1), axis(0))), sum(h * h - T(1), axis(0))));
    CHECK(same_bits(mpi::allgather(mean(x(slice(1, end)), axis(0))), mean(h(slice(1, end)), axis(0))));
    CHECK(same_bits(mpi::allgather(var(x, axis(0))), var(h, axis(0))));
    CHECK(same_bits(mpi::allgather(max(x, axis(0))), max(h, axis(0))));
    CHECK(same_bits(mpi::allgather(sum(transpose(x), axis(1))), sum(transpose(h), axis(1))));
  }
}
}  // namespace test_mpi_reduce

TEST_CASE("mpi reduce: axis 0 reduced from per-rank partials, across leaves and tiles, bitwise one process") {
  using namespace test_mpi_reduce;
  // Leaves of 2048 floats (1024 doubles) and tiles of 4096 elements: blocks
  // that meet inside a leaf, at a leaf, at a tile, and several tiles.
  for (index_t n0 : {index_t(3), index_t(2047), index_t(2048), index_t(4097), index_t(8192), index_t(12289)}) {
    array<float, 2> f = data2(n0, 3, 5);
    f.data()[0] = 1e8f;  // pairwise, sequential and per-rank-then-combined sums differ
    check_axis0(f);
    check_axis0(array<double, 2>(random::uniform(random::key(6), {n0, 2}, -1.0, 1.0)));
    double ref = 0;  // column 1's sum by a double loop
    for (index_t i = 0; i < n0; ++i) ref += double(f.data()[i * 3 + 1]);
    CHECK(std::abs(double(mpi::allgather(sum(mpi::scatter(f, 0), axis(0))).data()[1]) - ref) <= 1e-5 * double(n0));
  }
  // Reduced axes (0, 2): 3 positions per row; axis 0 of extent 1.
  const array<float, 3> h3(random::uniform(random::key(9), {1500, 4, 3}, -1.0, 1.0));
  const auto x3 = mpi::scatter(h3, 0);
  CHECK(same_bits(mpi::allgather(sum(x3, axes(0, 2))), sum(h3, axes(0, 2))));
  CHECK(same_bits(mpi::allgather(argmax(x3, axes(0, 2))), argmax(h3, axes(0, 2))));
  const array<float, 2> one = data2(1, 9000, 4);
  CHECK(same_bits(mpi::allgather(sum(mpi::scatter(one, 0), axis(0))), sum(one, axis(0))));
}

TEST_CASE("mpi reduce: axis 0 moves partials, not rows, where blocks meet at leaves") {
  using namespace test_mpi_reduce;
  // 2048 rows per rank at 1, 2 and 4 ranks: each rank folds its own leaves;
  // no row crosses ranks, and the rows are never all-gathered.
  const index_t n0 = 2048 * index_t(mpi::communicator{}.size());
  const array<float, 2> h = data2(n0, 64, 12);
  const auto x = mpi::scatter(h, 0);
  const auto before = mpi::detail::exchange_stats();
  const auto s = sum(x, axis(0));
  CHECK(mpi::detail::exchange_stats().bytes_received == before.bytes_received);
  CHECK(same_bits(mpi::allgather(s), sum(h, axis(0))));
}

TEST_CASE("mpi reduce: lazy random expressions (the Monte Carlo test) equal the single process's, bitwise") {
  using namespace test_mpi_reduce;
  const auto ks = random::split(random::key(64), 2);
  for (index_t n : {index_t(1), index_t(4097), index_t(3 * 4096 + 5), index_t(100003)}) {
    const auto x = random::uniform<float>(ks[0], {n}), y = random::uniform<float>(ks[1], {n});
    CHECK(sum(mpi::distributed(x * x + y * y < 1.f)) == sum(x * x + y * y < 1.f));
    CHECK(same_bits(sum(mpi::distributed(x * 0.5f - y)), sum(array<float, 1>(x * 0.5f - y))));
  }
}
