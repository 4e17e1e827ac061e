// sinter's distributed arrays (include/sinter/mpi.hpp), run by ctest under
// mpirun at 1, 2, 3 and 4 ranks (tests/mpi/CMakeLists.txt). Every case
// computes the single-process result on every rank from the same data and
// compares bit for bit (elementwise, stencils, random arrays; reductions:
// test_mpi_reduce.cpp),
// plus a plain double-precision loop where the single-process engine is
// itself under test. Every case makes the same collective calls on every
// rank: CHECK, not REQUIRE, so no rank leaves a case early.
#include <doctest/doctest.h>

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "mpi/array_support.hpp"

namespace test_mpi_array {
using namespace sinter;
using sinter::index_t;
using namespace test_mpi_array_support;

// Extents along axis 0: empty, below the rank count, uneven, a prime, above a tile.
inline const index_t rows_list[] = {0, 1, 2, 3, 5, 7, 13, 37};
inline const index_t cols_list[] = {1, 3, 17};

// The 5-point stencil as a user writes it, in place (`u` is read and written).
template <class A>
void stencil1(A& u) {
  u(slice(1, -1), slice(1, -1)) = 0.2f * (u(slice(1, -1), slice(1, -1)) + u(slice(0, -2), slice(1, -1)) +
                                          u(slice(2, end), slice(1, -1)) + u(slice(1, -1), slice(0, -2)) +
                                          u(slice(1, -1), slice(2, end)));
}
// A halo-2 stencil from `u` into `v` (two buffers).
template <class A>
void stencil2(A& v, const A& u) {
  v(slice(2, -2), all) = 0.5f * u(slice(2, -2), all) + 0.125f * (u(slice(0, -4), all) + u(slice(4, end), all)) +
                         0.0625f * (u(slice(1, -3), all) + u(slice(3, -1), all)) * 2.f;
}
}  // namespace test_mpi_array

TEST_CASE("mpi array: elementwise expressions bitwise equal to one process, uneven rows") {
  using namespace test_mpi_array;
  for (index_t n0 : rows_list)
    for (index_t n1 : cols_list) {
      const auto ha = data2(n0, n1, 1), hb = data2(n0, n1, 2);
      const array<float, 1> row(random::uniform(random::key(3), {n1}, 0.5, 2.0));  // local, broadcast over rows
      const auto a = mpi::scatter(ha, 0), b = to<mpi::dist<>>(hb);
      mpi::dist_array<float, 2> c = a * 2.f + sin(b) * row - a / row;
      const array<float, 2> hc = ha * 2.f + sin(hb) * row - ha / row;
      CHECK(same_bits(mpi::allgather(c), hc));
      c += where(a > b, a, b * 0.5f);  // compound assignment, same mapping: no ghost rows
      CHECK(same_bits(mpi::gather(c, 0), mpi::communicator().rank() == 0 ? array<float, 2>(hc + where(ha > hb, ha, hb * 0.5f)) : array<float, 2>()));
      // A plain loop as the independent reference of the first expression.
      const auto g = mpi::allgather(mpi::dist_array<double, 2>(cast<double>(a) * 3.0 - cast<double>(b)));
      for (index_t i = 0; i < n0; ++i)
        for (index_t j = 0; j < n1; ++j)
          CHECK(g.data()[i * n1 + j] == double(ha.data()[i * n1 + j]) * 3.0 - double(hb.data()[i * n1 + j]));
    }
}

TEST_CASE("mpi array: stencils in place and into a second buffer, halo 1 and 2, bitwise") {
  using namespace test_mpi_array;
  for (index_t n0 : {index_t(0), index_t(1), index_t(3), index_t(4), index_t(6), index_t(11), index_t(40)})
    for (index_t n1 : {index_t(5), index_t(16)}) {
      if (n0 < 3) continue;
      auto h = data2(n0, n1, 7);
      auto u = mpi::scatter(h, 0);
      for (int step = 0; step < 3; ++step) {
        stencil1(h);
        stencil1(u);
      }
      CHECK(same_bits(mpi::allgather(u), h));
      if (n0 >= 5) {
        auto hv = array<float, 2>(zeros<float>({n0, n1}));
        auto v = mpi::zeros<float>({n0, n1});
        stencil2(hv, h);
        stencil2(v, u);
        CHECK(same_bits(mpi::allgather(v), hv));
        // In place with halo 2 (reads rows two away that other ranks overwrite).
        stencil2(h, h);
        stencil2(u, u);
        CHECK(same_bits(mpi::allgather(u), h));
      }
      // Reading axis 0 at step 2 and reversed is allowed (rows gathered as ghosts).
      const index_t half = n0 / 2;
      auto w = mpi::empty<float>({half, n1});
      w = u(slice(0, 2 * half, 2), all) + u(slice(1, end, 2), all) * u(slice(n0 - 1, n0 - 1 - half, -1), all);
      const array<float, 2> hw =
          h(slice(0, 2 * half, 2), all) + h(slice(1, end, 2), all) * h(slice(n0 - 1, n0 - 1 - half, -1), all);
      CHECK(same_bits(mpi::allgather(w), hw));
    }
}

TEST_CASE("mpi array: random arrays keep the global index (equal to one process at any rank count)") {
  using namespace test_mpi_array;
  for (index_t n0 : {index_t(0), index_t(1), index_t(3), index_t(10), index_t(257)}) {
    const auto k = random::key(2026);
    auto x = mpi::empty<float>({n0, 6});
    x = random::normal(k, {n0, 6}) * 1.f;
    CHECK(same_bits(mpi::allgather(x), array<float, 2>(random::normal(k, {n0, 6}) * 1.f)));
    auto y = mpi::empty<double>({n0});
    y(slice(1, end)) = random::uniform(k, {n0 > 0 ? n0 - 1 : 0});
    const array<double, 1> hy(random::uniform(k, {n0 > 0 ? n0 - 1 : 0}));
    const auto gy = mpi::allgather(y);
    for (index_t i = 1; i < n0; ++i) CHECK(same_bits(gy.data()[i], hy.data()[i - 1]));
  }
}

TEST_CASE("mpi array: scatter, gather, local rows, printing") {
  using namespace test_mpi_array;
  const mpi::communicator world;
  const auto h = data2(7, 3, 5);
  auto x = mpi::scatter(world.rank() == 0 ? h : array<float, 2>(), 0);  // only root's data is read
  CHECK(x.shape() == h.shape());
  const auto [b, e] = mpi::owned_rows(x);
  auto mine = mpi::local(x);
  CHECK(mine.shape()[0] == e - b);
  for (index_t i = 0; i < e - b; ++i)
    for (index_t j = 0; j < 3; ++j) CHECK(mine(i, j) == h.data()[(b + i) * 3 + j]);
  mine *= 2.f;  // an ordinary host view of this rank's rows
  const auto g = mpi::gather(x, world.size() - 1);
  if (world.rank() == world.size() - 1) CHECK(same_bits(g, array<float, 2>(h * 2.f)));
  else CHECK(g.size() == 0);
  std::ostringstream s1, s2;
  s1 << x;  // collective: every rank prints the whole array
  s2 << array<float, 2>(h * 2.f);
  CHECK(s1.str() == s2.str());
  auto big = mpi::zeros<float>({3000, 2});  // summarised printing fetches only the shown elements
  std::ostringstream s3, s4;
  s3 << big;
  s4 << array<float, 2>(zeros<float>({3000, 2}));
  CHECK(s3.str() == s4.str());
}

TEST_CASE("mpi array: errors on every rank, no hang") {
  using namespace test_mpi_array;
  const mpi::communicator world;
  auto a = mpi::zeros<float>({6, 4});
  const auto b = mpi::zeros<float>({5, 4});
  CHECK_THROWS_AS(a = a + b, shape_error);  // non-conforming global shapes: every rank, no communication
  auto c = mpi::zeros<float>({6, 4});
  CHECK_THROWS_AS(a += c(slice(0, 5), all), shape_error);
  CHECK_THROWS_AS(a(slice(0, end, 2), all) = 1.f, value_error);  // a step along axis 0 as the output
  CHECK_THROWS_AS(a(slice(5, -7, -1), all) = 1.f, value_error);  // reversed axis 0
  CHECK_THROWS_AS(transpose(a(slice(0, 4), all)) = c(slice(0, 4), all), value_error);
  a(2) = 5.f;  // one row of the distributed axis: its owner writes it
  CHECK(sum(a) == 20.f);
  // An index error on one rank only: agreed() makes every rank throw.
  const index_t bad = world.rank() == world.size() - 1 ? 9 : 1;
  std::optional<decltype(a(bad))> row;  // the view made under agreed, the collective pass outside it
  CHECK_THROWS_AS(mpi::agreed([&] { row.emplace(a(bad)); }), index_error);  // the same kind on every rank
  CHECK_NOTHROW(mpi::agreed([&] { row.emplace(a(index_t(1))); }));
  *row = 1.f;
  CHECK(sum(a) == 24.f);
  auto fresh = mpi::dist_array<float, 2>(extents<2>{{4, 4}});
  CHECK_THROWS_AS(fresh(slice(1, 3), all) = 1.f, value_error);  // layout unknown before a whole write
}

TEST_CASE("mpi array: .npy through the root, errors on every rank") {
  using namespace test_mpi_array;
  const mpi::communicator world;
  std::string shared;
  {
    // Every rank must name the same file: rank 0's process id, broadcast.
    long id = world.rank() == 0 ? long(::getpid()) : 0;
    MPI_Bcast(&id, 1, MPI_LONG, 0, world.get());
    shared = "/tmp/sinter_test_mpi_array_" + std::to_string(id) + ".npy";
  }
  const auto h = data2(9, 4, 21);
  const auto x = mpi::scatter(h, 0);
  mpi::save_npy(shared, x, 0);
  const auto y = mpi::load_npy<float, 2>(shared, 0);
  CHECK(same_bits(mpi::allgather(y), h));
  if (world.rank() == 0) std::remove(shared.c_str());
  CHECK_THROWS_AS((mpi::load_npy<float, 2>(shared + ".missing", 0)), error);
}

TEST_CASE("mpi array: the trace shows the exchange, its bytes and the interior rows run during it") {
  using namespace test_mpi_array;
  const mpi::communicator world;
  auto u = mpi::ones<float>({12, 8});
  auto v = mpi::zeros<float>({12, 8});
  std::vector<pass_record> passes;
  {
    trace_scope t;
    v(slice(1, -1), all) = u(slice(0, -2), all) + u(slice(2, end), all);
    passes = t.passes();
  }
  bool exchange = false;
  for (const auto& p : passes)
    if (p.expression == "mpi exchange") {
      exchange = true;
      CHECK(p.detail.find("interior rows") != std::string::npos);
      CHECK(p.policy.find("rank " + std::to_string(world.rank())) != std::string::npos);
      CHECK(p.bytes_read > 0);  // ghost rows received
    }
  CHECK(exchange == (world.size() > 1));
  CHECK(same_bits(mpi::allgather(v), [] {
    array<float, 2> h = zeros<float>({12, 8});
    h(slice(1, -1), all) = 2.f;
    return h;
  }()));
}
