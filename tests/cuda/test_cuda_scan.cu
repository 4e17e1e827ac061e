// Scans on the cuda policy, compiled by nvcc into sinter_cuda_tests:
// cumsum/cumprod/cummax/cummin through CUB's DeviceScan (flat) and
// InclusiveScanByKey (along an axis), of a fused expression, checked against
// the host policy. Each case reports "skipped: no CUDA device" where none
// answers; it is compiled (warning-free) everywhere.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <sinter/device.hpp>
#include <sinter/scan.hpp>
#include <sinter/transfer.hpp>
#include <vector>

namespace test_cuda_scan {

namespace st = sinter;
using st::index_t;

/// The host copy of x's values as doubles, in row-major order.
template <class X>
std::vector<double> host_values(const X& x) {
  const auto h = st::to<st::host>(x);
  std::vector<double> out;
  for (auto v : h) out.push_back(static_cast<double>(v));
  return out;
}

/// Whether a and b agree within rel (relative to the largest |b|).
inline bool close(const std::vector<double>& a, const std::vector<double>& b, double rel) {
  if (a.size() != b.size()) return false;
  double scale = 0;
  for (double v : b) scale = std::fmax(scale, std::fabs(v));
  for (std::size_t i = 0; i < a.size(); ++i)
    if (!(std::fabs(a[i] - b[i]) <= rel * scale)) return false;
  return true;
}

TEST_CASE("cuda: scans match the host, flat and along each axis") {
  if (!st::cuda_available()) {
    MESSAGE("skipped: no CUDA device");
    return;
  }
  st::array<float, 3> h({5, 67, 33});
  st::array<std::int32_t, 3> hi({5, 67, 33});
  for (index_t k = 0; k < h.size(); ++k) {
    h.data()[k] = static_cast<float>((k * 7919) % 1001) / 1000.f;
    hi.data()[k] = static_cast<std::int32_t>((k * 31) % 17) - 8;
  }
  const auto d = st::to<st::cuda>(h);
  const auto di = st::to<st::cuda>(hi);
  CHECK(close(host_values(st::cumsum(st::exp(d) * 2.f)), host_values(st::cumsum(st::exp(h) * 2.f)), 1e-6));
  CHECK(host_values(st::cumsum(di)) == host_values(st::cumsum(hi)));
  for (int ax = 0; ax < 3; ++ax) {
    CHECK(close(host_values(st::cumsum(d, st::axis(ax))), host_values(st::cumsum(h, st::axis(ax))), 1e-6));
    CHECK(host_values(st::cummax(di, st::axis(ax))) == host_values(st::cummax(hi, st::axis(ax))));
    CHECK(host_values(st::cummin(d, st::axis(ax))) == host_values(st::cummin(h, st::axis(ax))));
    CHECK(host_values(st::cumprod(di, st::axis(ax))) == host_values(st::cumprod(hi, st::axis(ax))));
  }
}

}  // namespace test_cuda_scan
