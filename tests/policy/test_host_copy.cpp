// Plain copies on host and par: a contiguous operand of the output's own
// type is stored with one std::memmove from SINTER_MEMMOVE_MIN_BYTES to
// SINTER_MEMMOVE_MAX_BYTES (policy/host/loop.hpp, copy_range), the store
// loop outside. Checked element for element against the source at sizes on
// both sides of both bounds (par splits the large ones into chunks), with the source and
// the output starting inside their buffers (misaligned), sentinels around
// the output, rows with gaps (a memmove per row), `a = a`, and the copies
// that are not plain (a conversion, a strided source) beside them.
#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <sinter/sinter.hpp>
#include <type_traits>
#include <utility>
#include <vector>

#include "support/filled.hpp"

namespace st = sinter;

namespace {

template <class T>
std::vector<T> random_elements(std::size_t n, unsigned seed) {
  std::mt19937 g(seed);
  std::vector<T> v(n);
  for (auto& x : v) {
    if constexpr (std::is_integral_v<T>) x = static_cast<T>(g());
    else x = static_cast<T>(std::uniform_real_distribution<double>(-8, 8)(g));
  }
  return v;
}

// Sizes around the memmove window (32 KiB to 1 MiB) for 1-, 2-, 4- and
// 8-byte elements.
const std::vector<st::index_t> copy_sizes = {0,     1,     7,      1000,   4095,   4096,   4097,   8191,
                                             8192,  8193,  16383,  16384,  16385,  32767,  32768,  32769,
                                             100003, 131071, 131072, 131073, 262143, 262144, 262145, 524289,
                                             1048577};

}  // namespace

#define SINTER_COPY_TYPES                                                                                   \
  std::pair<st::host, float>, std::pair<st::host, double>, std::pair<st::host, std::int8_t>,                \
      std::pair<st::host, std::uint16_t>, std::pair<st::par, float>, \
      std::pair<st::par, double>

TEST_CASE_TEMPLATE("plain copy: every element, sizes around the memmove window, misaligned", PT,
                   SINTER_COPY_TYPES) {
  using P = typename PT::first_type;
  using T = typename PT::second_type;
  for (const st::index_t n : copy_sizes) {
    const auto src = random_elements<T>(static_cast<std::size_t>(n + 1), 71);
    const auto init = random_elements<T>(static_cast<std::size_t>(n + 5), 75);  // other values
    std::vector<T> dst = init;
    const st::view<const T, 1, P> a(src.data() + 1, {n});
    st::view<T, 1, P>(dst.data() + 3, {n}) = a;
    for (st::index_t i = 0; i < n; ++i)
      if (dst[static_cast<std::size_t>(i + 3)] != src[static_cast<std::size_t>(i + 1)]) {
        FAIL_CHECK("n = " << n << ": element " << i << " differs");
        break;
      }
    for (const std::size_t k : {std::size_t{0}, std::size_t{1}, std::size_t{2}, static_cast<std::size_t>(n) + 3,
                                static_cast<std::size_t>(n) + 4})
      CHECK(dst[k] == init[k]);  // around the output: untouched
  }
}

TEST_CASE_TEMPLATE("plain copy: arrays, a = a, rows with gaps", PT, std::pair<st::host, float>,
                   std::pair<st::par, double>) {
  using P = typename PT::first_type;
  using T = typename PT::second_type;
  // An array copied into another and into itself.
  const auto v = random_elements<T>(4099, 72);
  auto a = sinter_test::filled<P>(v);
  st::array<T, 1, P> b({4099});
  b = a;
  a = a;  // the same elements: allowed, nothing changes
  for (std::size_t i = 0; i < v.size(); ++i) {
    REQUIRE(b(static_cast<st::index_t>(i)) == v[i]);
    REQUIRE(a(static_cast<st::index_t>(i)) == v[i]);
  }
  // 2-D: rows of 10000 (in the window) and 7 (below), input rows one
  // element apart, output rows two apart, so each row is its own copy.
  for (const st::index_t cols : {10000, 7}) {
    const st::index_t rows = 5, ip = cols + 1, op = cols + 2;
    const auto m = random_elements<T>(static_cast<std::size_t>(rows * ip), 73);
    std::vector<T> out(static_cast<std::size_t>(rows * op), T(-3));
    st::view<T, 2, P>(out.data(), {rows, cols}, {op, 1}) = st::view<const T, 2, P>(m.data(), {rows, cols}, {ip, 1});
    for (st::index_t r = 0; r < rows; ++r) {
      for (st::index_t c = 0; c < cols; ++c)
        REQUIRE(out[static_cast<std::size_t>(r * op + c)] == m[static_cast<std::size_t>(r * ip + c)]);
      for (st::index_t c = cols; c < op; ++c) REQUIRE(out[static_cast<std::size_t>(r * op + c)] == T(-3));
    }
  }
}

TEST_CASE("not plain copies beside them: a conversion and a strided source") {
  const auto v = random_elements<double>(2 * 4099, 74);
  std::vector<float> f(4099);
  st::view<float, 1>(f.data(), {4099}) = st::view<const double, 1>(v.data(), {4099});  // converts
  for (std::size_t i = 0; i < f.size(); ++i) REQUIRE(f[i] == static_cast<float>(v[i]));
  std::vector<double> d(4099);
  st::view<double, 1>(d.data(), {4099}) = st::view<const double, 1>(v.data(), {4099}, {2});  // every other
  for (std::size_t i = 0; i < d.size(); ++i) REQUIRE(d[i] == v[2 * i]);
}
