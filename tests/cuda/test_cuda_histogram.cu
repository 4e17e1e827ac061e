// histogram on the cuda policy (histogram_bins.hpp), compiled by nvcc into
// sinter_cuda_tests:
//  - no device needed: the kernel's three phases (zero, count, flush: the
//    SINTER_HD bodies the kernel calls between its barriers) run on an
//    emulated grid of 1, 3 and 7 blocks of 1, 32 and 256 threads, over a
//    lazy expression of a reversed, strided view with NaN and +-inf, and
//    give the host histogram's counts exactly;
//  - device: histogram of a cuda array and of an expression against the
//    host's; reports "skipped: no CUDA device" where none answers.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <sinter/sinter.hpp>
#include <vector>

namespace test_cuda_histogram {

namespace st = sinter;
namespace sd = st::detail;
using st::index_t;
using st::slice;

st::array<float, 1> data(index_t n) {
  st::array<float, 1> a({n});
  std::mt19937 g(3);
  for (index_t i = 0; i < n; ++i) {
    const auto k = g() % 37;
    a.data()[i] = k == 0   ? std::numeric_limits<float>::quiet_NaN()
                  : k == 1 ? std::numeric_limits<float>::infinity()
                  : k == 2 ? -std::numeric_limits<float>::infinity()
                           : std::uniform_real_distribution<float>(-1.5f, 2.5f)(g);
  }
  return a;
}

TEST_CASE("cuda histogram: the kernel's phases on an emulated grid give the host's counts") {
  const auto a = data(20011);
  const auto v = a(slice(st::none, st::none, -3));  // reversed, strided
  const auto e = sd::as_expr(st::exp(v) - 1.0f);
  for (index_t bins : {index_t(1), index_t(7), index_t(64), index_t(5000)}) {
    const auto host = st::histogram(e, bins, {-0.5, 6.0});
    using Ed = float;
    const auto edges = sd::hist::linear_edges<Ed>(-0.5, 6.0, bins);
    const auto table = sd::hist::uniform_bin<float, Ed>::table(edges);
    const sd::hist::uniform_bin<float, Ed> bin{table.data(), -0.5f, static_cast<float>(static_cast<double>(bins) / 6.5),
                                               static_cast<float>(bins + 1)};
    const auto bound = e.node().bind(e.shape());
    const auto elem = sd::cuda_reduce::full_element<sd::reduce_ops::sum>(bound, e.shape());
    const index_t slots = sd::hist::uniform_bin<float, Ed>::slots(bins), n = e.size();
    for (unsigned grid : {1u, 3u, 7u})
      for (unsigned block : {1u, 32u, 256u}) {
        std::vector<unsigned long long> counts(static_cast<std::size_t>(slots), 0);
        std::vector<sd::hist_cuda::block_count> sh(static_cast<std::size_t>(slots));
        for (unsigned b = 0; b < grid; ++b) {
          for (unsigned t = 0; t < block; ++t) sd::hist_cuda::zero_slots(sh.data(), slots, t, block);
          for (unsigned t = 0; t < block; ++t)
            sd::hist_cuda::count_slots(elem, bin, n, sh.data(), b, grid, t, block);
          for (unsigned t = 0; t < block; ++t) sd::hist_cuda::flush_slots(sh.data(), counts.data(), slots, t, block);
        }
        bool same = true;
        for (index_t k = 0; k < bins; ++k)
          same = same && static_cast<index_t>(counts[static_cast<std::size_t>(k + 1)]) == host.counts.data()[k];
        CHECK(same);
      }
  }
}

TEST_CASE("cuda histogram: device counts and edges match the host") {
  if (!st::cuda_available()) {
    MESSAGE("skipped: no CUDA device");
    return;
  }
  const auto a = data(100003);
  const auto d = st::to<st::cuda>(a);
  for (index_t bins : {index_t(3), index_t(64), index_t(4096), index_t(20000)}) {
    const auto host = st::histogram(st::exp(a), bins, {0, 8});
    const auto dev = st::histogram(st::exp(d), bins, {0, 8});
    const auto c = st::to<st::host>(dev.counts);
    const auto ed = st::to<st::host>(dev.edges);
    CHECK(std::equal(c.data(), c.data() + bins, host.counts.data()));
    CHECK(std::equal(ed.data(), ed.data() + bins + 1, host.edges.data()));
  }
}

}  // namespace test_cuda_histogram
