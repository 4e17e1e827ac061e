// dist<cuda> (issue 64), compiled by nvcc and run under mpirun at 1-4 ranks.
// Without a GPU (every machine here): the "no device" cases run (a missing
// device fails every rank alike, no hang; the CUDA-aware query); the device
// cases report "skipped: no CUDA device" as tests/cuda/*.cu do. The logic
// they share with host blocks (staged exchange, chunk mapping) is tested on
// the host by test_mpi_staging.cpp with stand-ins.
#include <doctest/doctest.h>

#include <cstdlib>
#include <cstring>
#include <sstream>

#include "mpi/array_support.hpp"

namespace test_mpi_cuda {
using namespace sinter;
using namespace test_mpi_array_support;

// The 5-point stencil in place, as in test_mpi_array.cpp.
template <class A>
void stencil(A& u) {
  u(slice(1, -1), slice(1, -1)) = 0.2f * (u(slice(1, -1), slice(1, -1)) + u(slice(0, -2), slice(1, -1)) +
                                          u(slice(2, end), slice(1, -1)) + u(slice(1, -1), slice(0, -2)) +
                                          u(slice(1, -1), slice(2, end)));
}

// Whether every rank has a CUDA device (agreed: all skip or none does).
inline bool devices_everywhere() {
  int here = cuda_available() ? 1 : 0, all = 0;
  MPI_Allreduce(&here, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  return all == 1;
}

}  // namespace test_mpi_cuda

using namespace test_mpi_cuda;

TEST_CASE("mpi cuda: without a device every rank throws device_error, none hangs") {
  if (devices_everywhere()) {
    MESSAGE("skipped: a CUDA device is present");
    return;
  }
  // Each rank fails on its own (no device) and the failure is agreed before
  // the reservation's collective: every rank throws the same kind.
  CHECK_THROWS_AS((mpi::zeros<float, sinter::cuda>({7, 5})), device_error);
  CHECK_THROWS_AS((mpi::empty<double, sinter::cuda>({3}, {}, sinter::cuda{1})), device_error);
}

TEST_CASE("mpi cuda: the CUDA-aware query follows MPI and SINTER_MPI_CUDA_STAGED") {
  const bool aware = mpi::detail::mpi_cuda_aware();
#if defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
  CHECK(aware == (MPIX_Query_cuda_support() == 1));
#else
  CHECK(!aware);  // Open MPI without CUDA support (Debian's): staged through host buffers
#endif
  setenv("SINTER_MPI_CUDA_STAGED", "1", 1);
  CHECK(!mpi::detail::mpi_cuda_aware());
  unsetenv("SINTER_MPI_CUDA_STAGED");
}

TEST_CASE("mpi cuda: stencils, reductions, gather and printing equal one process") {
  if (!devices_everywhere()) {
    MESSAGE("skipped: no CUDA device");
    return;
  }
  for (const index_t n0 : {index_t{1}, index_t{3}, index_t{37}}) {
    CAPTURE(n0);
    const index_t n1 = 29;
    const auto h0 = data2(n0, n1, 7);
    auto u = mpi::scatter(h0, 0, {}, sinter::cuda{0});
    array<float, 2> h = h0;
    stencil(u);
    stencil(h);
    CHECK(same_bits(mpi::allgather(u), h));
    const auto g = mpi::gather(u, 0);
    if (mpi::communicator{}.rank() == 0) CHECK(same_bits(g, h));
    // A full reduction: the cuda engine per rank, partials combined in rank order.
    const double s = static_cast<double>(sum(u)), ref = static_cast<double>(sum(h));
    CHECK(std::abs(s - ref) <= 1e-5 * (1 + std::abs(ref)));
    CHECK(same_bits(static_cast<float>(sum(u)), static_cast<float>(sum(u))));  // run to run
    std::ostringstream a, b;
    a << u;
    b << h;
    CHECK(a.str() == b.str());
    auto z = mpi::zeros<float, sinter::cuda>({n0, n1});
    z = u + 1.f;
    CHECK(same_bits(to<host>(z), array<float, 2>(h + 1.f)));
    auto w = to<mpi::dist<sinter::cuda>>(h0);  // a replicated host array, each rank its rows
    CHECK(same_bits(mpi::allgather(w), h0));
    CHECK_THROWS_AS(sort_inplace(w, 1), value_error);  // a host sort would read device memory
    const auto scanned = to<host>(cumsum(w, axis(1)));  // each rank's rows on the cuda engine
    CHECK(allclose(scanned, cumsum(h0, axis(1))));
    CHECK(same_bits(to<host>(mpi::local(w)), array<float, 2>(h0(slice(mpi::owned_rows(w).first,
                                                                     mpi::owned_rows(w).second), sinter::all))));
  }
}

TEST_CASE("mpi cuda: sum, mean and max along axes equal one process's host results, bitwise") {
  if (!devices_everywhere()) {
    MESSAGE("skipped: no CUDA device");
    return;
  }
  // The host blocks' reducer on host copies of the rows (mpi/staged_reduce.hpp):
  // bitwise the single-process host result, for any rank count. 4099 rows:
  // a column is two tiles, the first split between ranks (axis-0 partials).
  for (const index_t n0 : {index_t{1}, index_t{3}, index_t{37}, index_t{4099}}) {
    CAPTURE(n0);
    const index_t n1 = 29;
    const auto h0 = data2(n0, n1, 11);
    const auto u = mpi::scatter(h0, 0, {}, sinter::cuda{0});
    for (const int ax : {0, 1}) {
      CAPTURE(ax);
      CHECK(same_bits(to<host>(sum(u, axis(ax))), sum(h0, axis(ax))));
      CHECK(same_bits(mpi::allgather(mean(u, axis(ax))), mean(h0, axis(ax))));
      CHECK(same_bits(to<host>(max(u, axis(ax))), max(h0, axis(ax))));
    }
    // An expression reading a local cuda array: evaluated on the host copies.
    const array<float, 1> wh(random::uniform(random::key(5), {n1}, 0.5, 2.0));
    const auto w = to<sinter::cuda>(wh);
    CHECK(same_bits(to<host>(sum(u * 0.5f + w, axis(0))), sum(h0 * 0.5f + wh, axis(0))));
    // A result (replicated on every rank, in device memory) reduced again.
    const auto r = sum(u, axis(1));
    CHECK(same_bits(mpi::allgather(sum(r, axis(0), keepdims)), sum(sum(h0, axis(1)), axis(0), keepdims)));
  }
}
