// sort, argsort, partition, argpartition and topk on the cuda policy (CUB's
// DeviceRadixSort and DeviceSegmentedSort over sort_key's bit patterns),
// compiled by nvcc into sinter_cuda_tests: the device results against the
// host's, bit for bit (floats with NaN of both signs, ±0 and duplicates,
// every axis of a 2-D array, a lazy operand). Each device case reports
// "skipped: no CUDA device" where none answers. The key functors are
// checked on the host, where they run unchanged.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <sinter/device.hpp>
#include <sinter/sort.hpp>
#include <sinter/transfer.hpp>
#include <sinter/view_ops.hpp>
#include <vector>

namespace test_cuda_sort {

namespace st = sinter;
using st::index_t;

/// The host copy of x's bytes, in row-major order.
template <class X>
std::vector<unsigned char> host_bytes(const X& x) {
  const auto h = st::to<st::host>(st::eval(x));
  std::vector<unsigned char> out(static_cast<std::size_t>(h.size()) * sizeof(typename decltype(h)::value_type));
  if (!out.empty()) std::memcpy(out.data(), h.data(), out.size());
  return out;
}

TEST_CASE("cuda sort: the key functors (SINTER_HD, run here on the host) order NaN last, ±0 equal") {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const st::detail::sort_key_fn<float> key{};
  CHECK(key(-0.f) == key(0.f));
  CHECK(key(-nan) == key(nan));
  CHECK(key(std::numeric_limits<float>::infinity()) < key(-nan));
  CHECK(key(-std::numeric_limits<float>::infinity()) < key(-1.f));
  const st::detail::cuda_sort::sort_key_desc_fn<float> desc{};
  CHECK(desc(2.f) < desc(1.f));
  CHECK(desc(nan) < desc(std::numeric_limits<float>::infinity()));
}

TEST_CASE("cuda sort: sort, argsort, partition, topk match the host") {
  if (!st::cuda_available()) {
    MESSAGE("skipped: no CUDA device");
    return;
  }
  const index_t r = 37, c = 1031;
  const float nan = std::numeric_limits<float>::quiet_NaN();
  st::array<float, 2> h({r, c});
  for (index_t i = 0; i < r * c; ++i) {
    const float v = static_cast<float>((i * 7919) % 61) - 30.f;
    h.data()[i] = i % 13 == 0 ? nan : i % 17 == 0 ? -nan : i % 11 == 0 ? -0.f : v;
  }
  auto d = st::to<st::cuda>(h);
  for (int ax : {0, 1, -1}) {
    CAPTURE(ax);
    CHECK(host_bytes(st::sort(d, ax)) == host_bytes(st::sort(h, ax)));
    CHECK(host_bytes(st::argsort(d, ax)) == host_bytes(st::argsort(h, ax)));
    CHECK(host_bytes(st::sort(d * 2.f, ax)) == host_bytes(st::sort(h * 2.f, ax)));
    const auto [dv, di] = st::topk(d, 5, ax);
    const auto [hv, hi] = st::topk(h, 5, ax);
    CHECK(host_bytes(dv) == host_bytes(hv));
    CHECK(host_bytes(di) == host_bytes(hi));
    // partition on cuda sorts the rows (a sorted row is partitioned).
    CHECK(host_bytes(st::partition(d, 3, ax)) == host_bytes(st::sort(h, ax)));
  }
  const auto flat = st::to<st::cuda>(st::eval(st::reshape(h, {r * c})));
  CHECK(host_bytes(st::sort(flat)) == host_bytes(st::sort(st::reshape(h, {r * c}))));
  auto e = st::to<st::cuda>(st::array<float, 2>({0, 3}));
  CHECK(st::sort(e).size() == 0);
}

}  // namespace test_cuda_sort
