// put and scatter_add on the cuda policy, compiled by nvcc into
// sinter_cuda_tests: the kernels of scatter.hpp (atomicAdd for float,
// double, int32, uint64, half and bfloat16; compare-and-swap for int8 and
// int16), checked against the host policy with duplicate and negative
// indices. Each case reports "skipped: no CUDA device" where none answers;
// it is compiled (warning-free) everywhere. The kernel body itself runs on
// emulated grids in tests/top/test_scatter.cpp.
#include <doctest/doctest.h>

#include <cstdint>
#include <sinter/device.hpp>
#include <sinter/scatter.hpp>
#include <sinter/transfer.hpp>
#include <vector>

namespace test_cuda_scatter {

namespace st = sinter;
using st::index_t;

/// The host copy of x's values as doubles, in row-major order.
template <class X>
std::vector<double> host_values(const X& x) {
  const auto h = st::to<st::host>(st::eval(x));
  std::vector<double> out;
  for (auto v : h) out.push_back(static_cast<double>(v));
  return out;
}

/// scatter_add and put of small integers (exact in every type, any order) on cuda and host.
template <class T>
void check_type() {
  const index_t m = 97, n = 3001;
  st::array<T, 1> hx({m});
  st::array<std::int32_t, 1> idx({n});
  st::array<T, 1> hv({n});
  for (index_t k = 0; k < n; ++k) {
    idx(k) = static_cast<std::int32_t>((k * 37) % (2 * m) - m);  // negative ones wrap; every index repeats
    hv(k) = static_cast<T>(static_cast<float>(k % 3));
  }
  hx = T(1);
  auto dx = st::to<st::cuda>(hx);
  const auto di = st::to<st::cuda>(idx);
  const auto dv = st::to<st::cuda>(hv);
  st::scatter_add(hx, idx, hv);
  st::scatter_add(dx, di, dv);
  CHECK(host_values(dx) == host_values(hx));
  st::array<std::int32_t, 1> uniq({m});
  for (index_t k = 0; k < m; ++k) uniq(k) = static_cast<std::int32_t>(m - 1 - k);  // no repeats: any order agrees
  st::put(hx, uniq, hv);
  st::put(dx, st::to<st::cuda>(uniq), dv);
  CHECK(host_values(dx) == host_values(hx));
}

TEST_CASE("cuda: put and scatter_add match the host") {
  if (!st::cuda_available()) {
    MESSAGE("skipped: no CUDA device");
    return;
  }
  check_type<float>();
  check_type<double>();
  check_type<std::int32_t>();
  check_type<std::uint64_t>();
  check_type<std::int64_t>();
  check_type<std::int8_t>();
  check_type<std::int16_t>();
  check_type<st::half>();
  check_type<st::bfloat16>();
  st::array<float, 2> h({4, 6});
  h = 0.f;
  auto d = st::to<st::cuda>(h);
  st::array<std::int64_t, 1> j({5});
  for (index_t k = 0; k < 5; ++k) j(k) = k % 2 == 0 ? -1 : 2;
  st::scatter_add(h, j, 2.f, 1);
  st::scatter_add(d, st::to<st::cuda>(j), 2.f, 1);
  CHECK(host_values(d) == host_values(h));
  CHECK_THROWS_AS(st::put(d, st::to<st::cuda>(j) * 10, 1.f), st::index_error);
  CHECK(host_values(d) == host_values(h));
}

}  // namespace test_cuda_scatter
