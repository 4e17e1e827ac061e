// Rearranging, comparing and the new factories on the cuda policy, compiled
// by nvcc into sinter_cuda_tests: roll and pad are generator leaves the
// kernel reads in place, flip and meshgrid views, diff/tile/repeat passes on
// the device, allclose a CUB reduction. Each case reports "skipped: no CUDA
// device" where none answers; it is compiled (warning-free) everywhere.
#include <doctest/doctest.h>

#include <cmath>
#include <sinter/sinter.hpp>
#include <vector>

namespace st = sinter;
using st::index_t;

namespace test_cuda_rearrange {
/// The host copy of x's values, in row-major order.
template <class X>
std::vector<double> host_values(const X& x) {
  const auto h = st::to<st::host>(st::eval(x));
  std::vector<double> out;
  for (auto v : h) out.push_back(static_cast<double>(v));
  return out;
}
}  // namespace test_cuda_rearrange

TEST_CASE("cuda: roll, pad, flip, diff, tile, repeat, isclose and factories match the host") {
  using namespace test_cuda_rearrange;
  if (!st::cuda_available()) {
    MESSAGE("skipped: no CUDA device");
    return;
  }
  const index_t r = 301, c = 257;
  st::array<float, 2> h({r, c});
  for (index_t i = 0; i < r; ++i)
    for (index_t j = 0; j < c; ++j) h(i, j) = std::sin(static_cast<float>(i * c + j));
  auto d = st::to<st::cuda>(h);
  CHECK(host_values(st::roll(d, 5, 0)) == host_values(st::roll(h, 5, 0)));
  CHECK(host_values(st::roll(d, -77)) == host_values(st::roll(h, -77)));
  CHECK(host_values(st::pad(d, {st::pad_width{1, 2}, st::pad_width{3, 0}}, "edge")) ==
        host_values(st::pad(h, {st::pad_width{1, 2}, st::pad_width{3, 0}}, "edge")));
  CHECK(host_values(st::pad(d, 2, "constant", 9.f) * 2.f) == host_values(st::pad(h, 2, "constant", 9.f) * 2.f));
  CHECK(host_values(st::flip(d, 1)) == host_values(st::flip(h, 1)));
  CHECK(host_values(st::diff(d, 2, 0)) == host_values(st::diff(h, 2, 0)));
  CHECK(host_values(st::tile(d, {2, 1})) == host_values(st::tile(h, {2, 1})));
  CHECK(host_values(st::repeat(d, 3, 1)) == host_values(st::repeat(h, 3, 1)));
  CHECK(host_values(st::isclose(d, st::roll(d, 1, 1), 0.1, 0.01)) ==
        host_values(st::isclose(h, st::roll(h, 1, 1), 0.1, 0.01)));
  CHECK(st::allclose(d, d * 1.000001f));
  CHECK_FALSE(st::allclose(d, st::roll(d, 1, 0)));
  CHECK(st::array_equal(d, st::flip(st::flip(d, 0), 0)));
  d = st::roll(d, 1, 0);  // aliasing: through a temporary
  CHECK(host_values(d) == host_values(st::roll(h, 1, 0)));
  const auto z = st::ones_like(d);
  static_assert(std::is_same_v<std::remove_cvref_t<decltype(z)>, st::array<float, 2, st::cuda>>);
  CHECK(host_values(z + st::eye<float>(r, c)) == host_values(st::ones_like(h) + st::eye<float>(r, c)));
  const auto x = st::to<st::cuda>(st::eval(st::arange<float>(c)));
  const auto y = st::to<st::cuda>(st::eval(st::arange<float>(r)));
  auto [gx, gy] = st::meshgrid(x, y);
  const auto hx = st::eval(st::arange<float>(c)), hy = st::eval(st::arange<float>(r));
  auto [hgx, hgy] = st::meshgrid(hx, hy);
  CHECK(host_values(gx * gy) == host_values(hgx * hgy));
}
