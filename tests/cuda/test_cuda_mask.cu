// Boolean masks on the cuda policy (mask.hpp, mask_cuda.hpp), compiled by
// nvcc into sinter_cuda_tests: compress and flatnonzero are CUB's
// DeviceReduce and DeviceSelect over the fused expressions, nonzero and
// put_mask sinter's own fused passes. Each case reports "skipped: no CUDA
// device" where none answers; it is compiled (warning-free) everywhere.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <sinter/mask.hpp>
#include <sinter/device.hpp>
#include <sinter/evaluate.hpp>
#include <sinter/transfer.hpp>
#include <vector>

namespace test_cuda_mask {
namespace st = sinter;

/// The host copy of x's values, in order.
template <class X>
std::vector<double> host_values(const X& x) {
  const auto h = st::to<st::host>(st::eval(x));
  std::vector<double> out;
  for (auto v : h) out.push_back(static_cast<double>(v));
  return out;
}
}  // namespace test_cuda_mask

TEST_CASE("cuda: compress, flatnonzero, nonzero and put_mask match the host") {
  using namespace test_cuda_mask;
  if (!st::cuda_available()) {
    MESSAGE("skipped: no CUDA device");
    return;
  }
  const st::index_t r = 301, c = 257;
  st::array<float, 2> h({r, c});
  for (st::index_t i = 0; i < r; ++i)
    for (st::index_t j = 0; j < c; ++j) h(i, j) = std::sin(static_cast<float>(i * c + j));
  auto d = st::to<st::cuda>(h);
  CHECK(host_values(st::compress(d > 0.f, d * 2.f)) == host_values(st::compress(h > 0.f, h * 2.f)));
  const auto hr = h(st::slice(st::none, st::none, -1), st::slice(0, st::end, 3));
  const auto dr = d(st::slice(st::none, st::none, -1), st::slice(0, st::end, 3));
  CHECK(host_values(st::compress(dr < 0.5f, dr)) == host_values(st::compress(hr < 0.5f, hr)));
  CHECK(host_values(st::flatnonzero(d > 0.9f)) == host_values(st::flatnonzero(h > 0.9f)));
  const auto [di, dj] = st::nonzero(dr > 0.9f);
  const auto [hi, hj] = st::nonzero(hr > 0.9f);
  CHECK(host_values(di) == host_values(hi));
  CHECK(host_values(dj) == host_values(hj));
  CHECK(st::compress(d > 2.f, d).size() == 0);
  st::array<bool, 1> cond({c});
  for (st::index_t j = 0; j < c; ++j) cond(j) = j % 3 == 1;
  const auto dc = st::to<st::cuda>(cond);
  CHECK(host_values(st::compress(dc, d, 1)) == host_values(st::compress(cond, h, 1)));
  st::array<float, 1> v({7});
  for (st::index_t k = 0; k < 7; ++k) v(k) = static_cast<float>(k);
  st::put_mask(d, d < 0.f, st::to<st::cuda>(v));
  st::put_mask(h, h < 0.f, v);
  CHECK(host_values(d) == host_values(h));
  st::put_mask(d, d > 0.5f, d(st::slice(st::none, st::none, -1)));  // aliasing: the old values
  st::put_mask(h, h > 0.5f, h(st::slice(st::none, st::none, -1)));
  CHECK(host_values(d) == host_values(h));
}
