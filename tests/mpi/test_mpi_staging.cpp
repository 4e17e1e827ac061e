// The device-independent half of dist<cuda> (issue 64), on the host under
// mpirun at 1-4 ranks: the staged halo exchange (exchange.hpp's stager:
// device ranges copied through host buffers, or handed to a CUDA-aware MPI
// as they are) and the region's chunk mapping over virtual memory calls
// (mpi/device_region.hpp), both with host stand-ins (staging_support.hpp)
// for CUDA. Results are compared bit for bit with plain loops on one process.
#include <doctest/doctest.h>

#include <cstring>
#include <vector>

#include "mpi/staging_support.hpp"

namespace test_mpi_staging {
using namespace sinter;
using namespace test_mpi_staging_support;

// Element (i, j) of the test matrix, the same formula on every rank.
inline float value_at(index_t i, index_t j) { return static_cast<float>((i * 37 + j * 11) % 101) * 0.03125f - 1.5f; }

// Fills this rank's rows of m with value_at (its layout set first).
inline void fill_owned(standin_matrix& m) {
  auto& g = m.region();
  md::set_rows(g, m.n0);
  auto* p = static_cast<float*>(m.base);
  for (index_t i = g.b; i < g.e; ++i)
    for (index_t j = 0; j < m.n1; ++j) p[i * m.n1 + j] = value_at(i, j);
}

// The halo-1 stencil of the test on a full matrix: plain loops.
inline std::vector<float> stencil_reference(index_t n0, index_t n1) {
  std::vector<float> v(static_cast<std::size_t>(n0 * n1), 0.f);
  for (index_t i = 1; i + 1 < n0; ++i)
    for (index_t j = 0; j < n1; ++j)
      v[static_cast<std::size_t>(i * n1 + j)] =
          0.25f * (value_at(i - 1, j) + value_at(i + 1, j)) + 0.5f * value_at(i, j);
  return v;
}

}  // namespace test_mpi_staging

using namespace test_mpi_staging;

TEST_CASE("mpi staging: a stencil across stand-in device blocks, staged and direct, bitwise") {
  const mpi::communicator comm;
  const int size = comm.size();
  for (const bool direct : {false, true})
    for (const index_t n0 : {index_t{1}, index_t{2}, index_t{3}, index_t{7}, index_t{61}}) {
      CAPTURE(direct);
      CAPTURE(n0);
      const index_t n1 = 13;
      auto via = std::make_shared<recording_stager>();
      via->is_direct = direct;
      standin_matrix u(n0, n1, via), v(n0, n1, via);
      fill_owned(u);
      fill_owned(v);  // v's layout known; its rows outside the stencil stay value_at
      auto U = u.view();
      auto V = v.view();
      const auto before = md::exchange_stats();
      V(slice(1, -1), all) = 0.25f * (U(slice(0, -2), all) + U(slice(2, end), all)) + 0.5f * U(slice(1, -1), all);
      const auto moved_out = md::exchange_stats().bytes_sent - before.bytes_sent;
      const auto moved_in = md::exchange_stats().bytes_received - before.bytes_received;
      // Every owned row of v equals the single-process result.
      const auto ref = stencil_reference(n0, n1);
      auto& g = v.region();
      const auto* p = static_cast<const float*>(v.base);
      bool same = true;
      for (index_t i = g.b; i < g.e; ++i)
        for (index_t j = 0; j < n1; ++j) {
          const float want = (i == 0 || i == n0 - 1) ? value_at(i, j) : ref[static_cast<std::size_t>(i * n1 + j)];
          same = same && std::memcmp(&p[i * n1 + j], &want, sizeof(float)) == 0;
        }
      CHECK(same);
      // The stager saw exactly the exchange's bytes: copied (staged) or not at all (direct).
      CHECK(via->to_host_bytes == (direct ? 0 : moved_out));
      CHECK(via->to_device_bytes == (direct ? 0 : moved_in));
      CHECK(via->in_use == 0);
      CHECK(via->takes == via->gives);
      if (moved_out + moved_in > 0) {
        CHECK(size > 1);
        CHECK(via->settles == (direct ? 1 : 0));
        CHECK(via->takes == (direct ? 0 : 1));  // one buffer per stager and exchange
        if (!direct) CHECK(via->largest_take == moved_out + moved_in);
      }
    }
}

TEST_CASE("mpi staging: start_exchange through a stager moves device ranges to self, host ranges untouched") {
  const mpi::communicator comm;
  const int me = comm.rank();
  recording_stager via;
  std::vector<unsigned char> src(1000), dst(1000, 0), hsrc(77), hdst(77, 0);
  for (std::size_t k = 0; k != src.size(); ++k) src[k] = static_cast<unsigned char>(k * 7 + 3);
  for (std::size_t k = 0; k != hsrc.size(); ++k) hsrc[k] = static_cast<unsigned char>(k * 5 + 1);
  md::exchange_plan plan;
  plan.sends.push_back({me, src.data(), 600, &via});
  plan.sends.push_back({me, src.data() + 600, 400, &via});
  plan.sends.push_back({me, hsrc.data(), hsrc.size(), nullptr});
  plan.receives.push_back({me, dst.data() + 400, 600, &via});
  plan.receives.push_back({me, dst.data(), 400, &via});
  plan.receives.push_back({me, hdst.data(), hdst.size(), nullptr});
  md::pending p = md::start_exchange(comm, std::move(plan), 256);  // several messages per range
  CHECK(via.to_host_bytes == 1000);
  CHECK(via.to_device_bytes == 0);  // nothing lands before the wait
  CHECK(via.syncs == 1);
  p.wait();
  CHECK(via.to_device_bytes == 1000);
  CHECK(via.in_use == 0);
  CHECK(std::memcmp(dst.data() + 400, src.data(), 600) == 0);
  CHECK(std::memcmp(dst.data(), src.data() + 600, 400) == 0);
  CHECK(hdst == hsrc);
}

TEST_CASE("mpi staging: a region's rows mapped in grain chunks, everything released") {
  const mpi::communicator comm;
  const int size = comm.size(), me = comm.rank();
  log() = vmm_log{};
  const index_t n0 = 50, n1 = 300;  // rows of 1200 bytes: a grain holds 13.6 rows
  {
    auto via = std::make_shared<recording_stager>();
    standin_matrix u(n0, n1, via), v(n0, n1, via);
    CHECK(log().reserves == 2);
    CHECK(u.region().reserved % vmm_log::grain == 0);
    CHECK(log().maps == 0);  // nothing mapped before the layout is known
    fill_owned(u);
    fill_owned(v);
    const auto [b, e] = md::block_rows(n0, size, me);
    const auto& chunks = u.backing->chunks();
    REQUIRE(chunks.size() == 1);
    const std::size_t rb = static_cast<std::size_t>(n1) * sizeof(float);
    CHECK(chunks[0].at - u.region().base <= static_cast<std::size_t>(b) * rb);
    CHECK(chunks[0].at - u.region().base + chunks[0].bytes >= static_cast<std::size_t>(e) * rb);
    CHECK(chunks[0].bytes < static_cast<std::size_t>(e - b) * rb + 2 * vmm_log::grain);
    // A halo-3 stencil maps the ghost rows beyond the owned ones (below, above).
    auto U = u.view();
    auto V = v.view();
    V(slice(3, -3), all) = U(slice(0, -6), all) + U(slice(6, end), all);
    const auto& g = u.region();
    CHECK(g.clo <= static_cast<std::size_t>(b > 3 ? b - 3 : 0) * rb);
    CHECK(g.chi >= static_cast<std::size_t>(e + 3 < n0 ? e + 3 : n0) * rb);
    std::size_t mapped = 0;
    for (const auto& c : chunks) mapped += c.bytes;
    CHECK(mapped == g.chi - g.clo);  // chunks tile the committed range, none twice
    bool same = true;
    const auto* pv = static_cast<const float*>(v.base);
    for (index_t i = b > 3 ? b : 3; i < (e < n0 - 3 ? e : n0 - 3); ++i)
      for (index_t j = 0; j < n1; ++j) {
        const float want = value_at(i - 3, j) + value_at(i + 3, j);
        same = same && std::memcmp(&pv[i * n1 + j], &want, sizeof(float)) == 0;
      }
    CHECK(same);
  }
  CHECK(!log().misaligned);
  CHECK(log().frees == 2);
  CHECK(log().unmaps == log().maps);
  CHECK(log().unmapped_bytes == log().mapped_bytes);
}
