// The device-independent half of dist<cuda> (issue 64), on the host under
// mpirun at 1-4 ranks: the staged halo exchange (exchange.hpp's stager:
// device ranges copied through host buffers, or handed to a CUDA-aware MPI
// as they are) and the region's chunk mapping over virtual memory calls
// (mpi/device_region.hpp), both with host stand-ins (staging_support.hpp)
// for CUDA. Results are compared bit for bit with plain loops on one process.
// Reductions along axes of device blocks (mpi/staged_reduce.hpp) run here on
// stand-in device memory, compared bit for bit with one process's host results.
#include <doctest/doctest.h>

#include <cstring>
#include <vector>

#include "mpi/staging_support.hpp"
#include "sinter/mpi/staged_reduce.hpp"

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

// What reduce_run.hpp's front end does for x reduced along axis `ax`: its
// bound node permuted (kept axes first), then reducer<P>::along, here
// staged_along into the stand-in device memory of `res`; `fetches` counts
// the copies of local arrays, which then fill their source with NaN (a
// device array is not readable on the host). The result's elements on this rank.
template <class Op, class X>
auto staged_axis(const X& x, int ax, standin_matrix& res, int& fetches) {
  using V = typename sinter::detail::expr_of_t<X>::value_type;
  using Res = typename Op::template result_t<V>;
  auto&& e = sinter::detail::as_operand(x);
  constexpr std::size_t R = std::remove_cvref_t<decltype(e)>::rank;
  extents<R> perm{}, pshape{};
  std::size_t p = 0;
  index_t outputs = 1;
  for (std::size_t d = 0; d != R; ++d)
    if (static_cast<int>(d) != ax) {
      perm[p++] = static_cast<index_t>(d);
      outputs *= e.shape()[d];
    }
  perm[p] = ax;
  for (std::size_t d = 0; d != R; ++d) pshape[d] = e.shape()[static_cast<std::size_t>(perm[d])];
  const auto bound = e.node().bind(e.shape()).permuted(perm);
  auto* out = static_cast<Res*>(res.base);
  md::staged_along<Op>(mpi::communicator{}, out, bound, pshape, outputs, e.shape()[static_cast<std::size_t>(ax)],
                       sinter::detail::op_finish<Op, V>{}, [&fetches](void* dst, const void* src, std::size_t n) {
                         ++fetches;
                         std::memcpy(dst, src, n);
                         std::memset(const_cast<void*>(src), 0xff, n);
                       });
  array<Res, 1> got(extents<1>{outputs});
  if (outputs > 0) std::memcpy(got.data(), out, static_cast<std::size_t>(outputs) * sizeof(Res));
  return got;
}

template <class T>
bool same_bits(const array<T, 1>& a, const array<T, 1>& b) {
  const auto bytes = sizeof(T) * static_cast<std::size_t>(a.size());
  return a.shape() == b.shape() && (bytes == 0 || std::memcmp(a.data(), b.data(), bytes) == 0);
}

}  // namespace test_mpi_staging

using namespace test_mpi_staging;

TEST_CASE("mpi staging: reductions along axes of stand-in device blocks equal one process, bitwise") {
  namespace ops = sinter::detail::reduce_ops;
  // 4099 rows: a column is two of the engine's tiles, the first split between
  // ranks (reducer<dist<host>>'s axis-0 partials).
  for (const index_t n0 : {index_t{1}, index_t{2}, index_t{3}, index_t{7}, index_t{61}, index_t{4099}}) {
    CAPTURE(n0);
    const index_t n1 = n0 > 100 ? 5 : 13;
    auto via = std::make_shared<recording_stager>();
    standin_matrix u(n0, n1, via), res(n0 > n1 ? n0 : n1, 1, via);
    fill_owned(u);
    array<float, 2> h(extents<2>{n0, n1});
    for (index_t i = 0; i < n0; ++i)
      for (index_t j = 0; j < n1; ++j) h.data()[i * n1 + j] = value_at(i, j);
    array<float, 1> w(extents<1>{n1});  // a local (replicated) array, copied by fetch
    const auto fill_w = [&] {
      for (index_t j = 0; j < n1; ++j) w.data()[j] = value_at(j, 3) * 0.75f;
    };
    fill_w();
    const auto U = u.view();
    const std::size_t owned = static_cast<std::size_t>(u.region().e - u.region().b) * u.region().row_bytes;
    int fetches = 0;
    for (const int ax : {0, 1}) {
      CAPTURE(ax);
      const index_t outputs = ax == 0 ? n1 : n0;
      via->to_host_bytes = via->to_device_bytes = 0;
      via->poison = true;  // the rows are read from their host copy, not in place
      CHECK(same_bits(staged_axis<ops::sum>(U, ax, res, fetches), sum(h, axis(ax))));
      via->poison = false;
      fill_owned(u);
      CHECK(res.region().replicated);  // the whole result on every rank
      CHECK(via->to_host_bytes == owned);  // the cost: this rank's rows, once
      CHECK(via->to_device_bytes == static_cast<std::size_t>(outputs) * sizeof(float));
      CHECK(same_bits(staged_axis<ops::mean>(U, ax, res, fetches), mean(h, axis(ax))));
      CHECK(same_bits(staged_axis<ops::max>(U, ax, res, fetches), max(h, axis(ax))));
      const auto ref = sum(h * 0.5f + w, axis(ax));
      CHECK(same_bits(staged_axis<ops::sum>(U * 0.5f + w, ax, res, fetches), ref));  // reads the copy of w
      fill_w();
    }
    CHECK(fetches == 2);
    // A result (replicated stand-in memory, its layout unknown) reduced again.
    standin_matrix once(n0, 1, via), twice(1, 1, via);
    CHECK(same_bits(staged_axis<ops::sum>(U, 1, once, fetches), sum(h, axis(1))));
    const sinter::view<float, 1, mpi::dist<>> R1{static_cast<float*>(once.base), extents<1>{n0}, mpi::dist<>{}};
    via->to_host_bytes = 0;
    CHECK(same_bits(staged_axis<ops::sum>(R1, 0, twice, fetches), sum(sum(h, axis(1)), axis(0), keepdims)));
    CHECK(via->to_host_bytes == static_cast<std::size_t>(n0) * sizeof(float));  // every row: replicated
    // An array read before it was written: value_error on every rank, before any collective.
    standin_matrix fresh(n0, n1, via);
    CHECK_THROWS_AS(staged_axis<ops::sum>(fresh.view(), 1, res, fetches), value_error);
  }
}

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
