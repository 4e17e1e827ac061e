// The full-width AVX-512 loops (SINTER_WIDE_VECTORS, config.hpp), compiled
// for x86-64-v4 tuned for icelake-server, as GCC tunes Intel's AVX-512
// cores: GCC's loops use 256-bit vectors, the marked functions 512-bit ones.
// Those are store_range_wide (policy/host/loop.hpp), taken by contiguous
// and row passes that write at most SINTER_WIDE_STORE_BYTES, and the
// reduction leaves (reduce/host_engine.hpp, pairwise). Each pass must give
// the bits of a plain scalar loop over the same operations (this file is
// compiled with -ffp-contract=off, so neither side fuses a multiply and an
// add), at sizes on both sides of the threshold, at misaligned starts, in
// place, with sentinels after the last element; float sums the bits of the
// documented pairwise order, written out here as scalar code, and a double
// reference.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <sinter/sinter.hpp>
#include <vector>

#include "support/random.hpp"

#if defined(__OPTIMIZE__) && !SINTER_HAS_WIDE_VECTORS
#error "tests/fma/test_wide_v4.cpp: compile with GCC for x86-64-v4 tuned for an Intel AVX-512 core (SINTER_HAS_WIDE_VECTORS)"
#endif

namespace {

namespace st = sinter;
using st::index_t;

// Lengths around 16 KiB of output: 4096 floats and int32, 2048 doubles,
// 16384 int8, with vector-width neighbours and primes.
const index_t lengths[] = {0, 1, 2, 15, 16, 17, 31, 63, 64, 65, 127, 1021, 2047, 2048, 2049,
                           4093, 4095, 4096, 4097, 8191, 16383, 16384, 16385, 20011};

template <class T>
std::vector<T> data(std::size_t n, unsigned seed) {
  if constexpr (std::is_floating_point_v<T>) {
    return sinter_test::random_vector<T>(n, seed, T(-3), T(3));
  } else {
    const auto r = sinter_test::random_vector<double>(n, seed, -50.0, 50.0);
    std::vector<T> v(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<T>(std::floor(r[i]));
    return v;
  }
}

template <class T>
bool same_bits(T x, T y) {
  if constexpr (std::is_floating_point_v<T>) return std::memcmp(&x, &y, sizeof x) == 0;
  else return x == y;
}

// o = a * s + b (floats; s a scalar leaf) or a * 3 + b (integers), over
// `len` elements starting `off` elements into the buffers, then in place:
// a = a - b. Compared with scalar loops element by element; the sentinels
// after the output must survive.
template <class T, class P>
void check_linear(index_t len, index_t off) {
  const auto n = static_cast<std::size_t>(len + off + 8);
  const std::vector<T> a = data<T>(n, 11), b = data<T>(n, 12);
  const T sentinel = T(77);
  std::vector<T> out(n, sentinel);
  const T s = std::is_floating_point_v<T> ? T(0.4) : T(3);
  const st::view<const T, 1, P> va(a.data() + off, {len}), vb(b.data() + off, {len});
  st::view<T, 1, P>(out.data() + off, {len}) = va * s + vb;
  for (index_t i = 0; i < len; ++i) {
    const auto k = static_cast<std::size_t>(i + off);
    const T want = static_cast<T>(a[k] * s + b[k]);
    if (!same_bits(out[k], want)) {
      FAIL_CHECK("a * s + b, len " << len << " off " << off << " at " << i << ": " << +out[k] << " != " << +want);
      return;
    }
  }
  for (std::size_t k = static_cast<std::size_t>(len + off); k < n; ++k) REQUIRE(out[k] == sentinel);

  std::vector<T> inplace(a);
  st::view<T, 1, P> vi(inplace.data() + off, {len});
  vi = vi - vb;
  for (index_t i = 0; i < len; ++i) {
    const auto k = static_cast<std::size_t>(i + off);
    const T want = static_cast<T>(a[k] - b[k]);
    if (!same_bits(inplace[k], want)) {
      FAIL_CHECK("a = a - b, len " << len << " off " << off << " at " << i);
      return;
    }
  }
}

template <class T>
void check_linear_all() {
  for (index_t len : lengths)
    for (index_t off : {index_t{0}, index_t{1}, index_t{3}}) {
      check_linear<T, st::host>(len, off);
      check_linear<T, st::par>(len, off);
    }
}

TEST_CASE("wide loops: contiguous passes give the scalar loop's bits") {
  check_linear_all<float>();
  check_linear_all<double>();
  check_linear_all<std::int32_t>();
  check_linear_all<std::int8_t>();
}

// Row passes: a row broadcast over an r x c matrix (unit-stride rows: assign's
// inline path by rows, store_rows, whose rows take store_range_wide up to the
// threshold) and a step-2 view (rows of stride 2), small and large.
template <class T>
void check_rows(index_t r, index_t c) {
  const auto n = static_cast<std::size_t>(r * c);
  const std::vector<T> m = data<T>(n + 1, 21), row = data<T>(static_cast<std::size_t>(c) + 1, 22);
  std::vector<T> out(n + 8, T(77));
  const st::view<const T, 2> vm(m.data() + 1, {r, c});
  const st::view<const T, 1> vr(row.data() + 1, {c});
  st::view<T, 2>(out.data(), {r, c}) = vm * T(2) + vr;
  for (std::size_t i = 0; i < n; ++i) {
    const T want = static_cast<T>(m[i + 1] * T(2) + row[i % static_cast<std::size_t>(c) + 1]);
    if (!same_bits(out[i], want)) {
      FAIL_CHECK("m * 2 + row, " << r << " x " << c << " at " << i);
      return;
    }
  }
  for (std::size_t k = n; k < n + 8; ++k) REQUIRE(out[k] == T(77));

  // Every other element of 2n: out[i] = x[2i] - x[2i + 1].
  const std::vector<T> x = data<T>(2 * n + 2, 23);
  std::vector<T> o2(n + 8, T(77));
  const st::view<const T, 1> vx(x.data(), {static_cast<index_t>(2 * n + 2)});
  st::view<T, 1>(o2.data(), {static_cast<index_t>(n)}) =
      vx(st::slice(0, static_cast<index_t>(2 * n), 2)) - vx(st::slice(1, static_cast<index_t>(2 * n + 1), 2));
  for (std::size_t i = 0; i < n; ++i) {
    const T want = static_cast<T>(x[2 * i] - x[2 * i + 1]);
    if (!same_bits(o2[i], want)) {
      FAIL_CHECK("x[0::2] - x[1::2], n " << n << " at " << i);
      return;
    }
  }
  for (std::size_t k = n; k < n + 8; ++k) REQUIRE(o2[k] == T(77));
}

TEST_CASE("wide loops: row passes give the scalar loop's bits") {
  for (auto [r, c] : {std::pair<index_t, index_t>{1, 1}, {3, 17}, {4, 1000}, {5, 1000}, {2, 2047}, {3, 4099}, {17, 129}}) {
    check_rows<float>(r, c);
    check_rows<double>(r, c);
    check_rows<std::int32_t>(r, c);
  }
}

// The pairwise order of reduce/host_engine.hpp written out as scalar code:
// tiles of `tile` elements combined by recursive halving; in a tile, leaves of
// 32 * L elements (element k of a leaf added to lane k % L, in order), the
// leaves' lanes combined ((L0 + L1) + (L2 + L3)), then the lanes as a tree
// (lane k + W into lane k, W = L/2, L/4, ..., 1).
template <class A, class F>
A pairwise_order(index_t n, const F& x, int L, index_t tile) {
  std::vector<A> partial;
  for (index_t t0 = 0; t0 < n; t0 += tile) {
    const index_t len = std::min(tile, n - t0), B = 32 * L;
    const index_t leaves = len > B ? (len + B - 1) / B : 1;
    std::vector<A> acc(static_cast<std::size_t>(L)), pair(acc), cur(acc);
    for (index_t l = 0; l < leaves; ++l) {
      std::fill(cur.begin(), cur.end(), A(0));
      for (index_t k = 0; k < std::min(B, len - l * B); ++k) cur[static_cast<std::size_t>(k % L)] += x(t0 + l * B + k);
      for (std::size_t k = 0; k < cur.size(); ++k) {
        if (l == 0) acc[k] = cur[k];
        else if (l == 1) acc[k] = acc[k] + cur[k];
        else if (l == 2) pair[k] = cur[k];
        else pair[k] = pair[k] + cur[k];
      }
    }
    if (leaves > 2)
      for (std::size_t k = 0; k < acc.size(); ++k) acc[k] = acc[k] + pair[k];
    for (int w = L / 2; w >= 1; w /= 2)
      for (int k = 0; k < w; ++k) acc[static_cast<std::size_t>(k)] = acc[static_cast<std::size_t>(k)] + acc[static_cast<std::size_t>(k + w)];
    partial.push_back(acc[0]);
  }
  if (partial.empty()) return A(0);
  auto combine = [&](auto&& self, std::size_t lo, std::size_t cnt) -> A {
    if (cnt == 1) return partial[lo];
    const std::size_t h = cnt / 2;
    const A left = self(self, lo, h);
    return left + self(self, lo + h, cnt - h);
  };
  return combine(combine, 0, partial.size());
}

template <class T>
void check_sums(index_t len, index_t off) {
  constexpr int L = sizeof(T) == 4 ? 64 : 32;
  constexpr index_t tile = 4096;
  const auto n = static_cast<std::size_t>(len + off);
  const std::vector<T> a = data<T>(n, 31), b = data<T>(n, 32);
  const st::view<const T, 1> va(a.data() + off, {len}), vb(b.data() + off, {len});
  const auto at = [&](index_t i) { return a[static_cast<std::size_t>(i + off)]; };
  const auto prod = [&](index_t i) { return static_cast<T>(at(i) * b[static_cast<std::size_t>(i + off)]); };

  const T sum = st::sum(va), dot = st::sum(va * vb);
  CHECK_MESSAGE(same_bits(sum, pairwise_order<T>(len, at, L, tile)), "sum, len " << len << " off " << off);
  CHECK_MESSAGE(same_bits(dot, pairwise_order<T>(len, prod, L, tile)), "sum(a * b), len " << len << " off " << off);
  const T par_dot = st::sum(st::view<const T, 1, st::par>(a.data() + off, {len}) *
                            st::view<const T, 1, st::par>(b.data() + off, {len}));
  CHECK_MESSAGE(same_bits(par_dot, dot), "par, len " << len);

  double ref = 0, mag = 0;
  for (index_t i = 0; i < len; ++i) {
    ref += static_cast<double>(at(i)) * static_cast<double>(b[static_cast<std::size_t>(i + off)]);
    mag += std::fabs(static_cast<double>(at(i)) * static_cast<double>(b[static_cast<std::size_t>(i + off)]));
  }
  CHECK(std::fabs(static_cast<double>(dot) - ref) <= (sizeof(T) == 4 ? 1e-5 : 1e-12) * mag + 1e-30);
  if (len > 0) {
    const T mx = st::max(va);
    CHECK(mx == *std::max_element(a.begin() + off, a.end()));
  }
}

TEST_CASE("wide loops: float sums follow the documented pairwise order bit for bit") {
  for (index_t len : {index_t{0}, index_t{1}, index_t{63}, index_t{64}, index_t{65}, index_t{1023}, index_t{2047},
                      index_t{2048}, index_t{2049}, index_t{4096}, index_t{4097}, index_t{6143}, index_t{8192},
                      index_t{8193}, index_t{12289}, index_t{40009}})
    for (index_t off : {index_t{0}, index_t{1}}) {
      check_sums<float>(len, off);
      check_sums<double>(len, off);
    }
}

}  // namespace
