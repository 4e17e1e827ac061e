// The host store loop (policy/host/loop.hpp, store_run): whole 64-byte lines
// of output first, then the elements left over, so that GCC vectorises it
// at -O2 too. Checked element for element against a double-precision loop
// at every size from 0 to 200 (every remainder of a line for 1-, 2-, 4- and
// 8-byte elements), with inputs and output starting inside their buffers
// (misaligned) and sentinels around the output; in place (`a = a * 2 + b`);
// along matrix rows of every length up to 70 (the row loop, one store_run
// per row); over par's chunks, which start inside a line; through the
// staging loop of strided reductions (reduce/host_engine.hpp, eval_range);
// and for a cursor of more operations than SINTER_INLINE_STORE_OPS, whose
// loops run out of line (store_run_call).
// Values are multiples of 1/8 below 16 in magnitude (small integers for the
// integer types), so every result is exact in every type.
#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <sinter/sinter.hpp>
#include <type_traits>
#include <utility>
#include <vector>

namespace st = sinter;

namespace {

// n values, exact in T: multiples of 1/8 in [-8, 8] (integers in [-8, 8]).
template <class T>
std::vector<T> store_loop_values(std::size_t n, unsigned seed) {
  std::mt19937 g(seed);
  std::uniform_int_distribution<int> d(-64, 64);
  std::vector<T> v(n);
  for (auto& x : v) {
    const int k = d(g);
    if constexpr (std::is_integral_v<T>) x = static_cast<T>(k / 8);
    else x = static_cast<T>(static_cast<float>(k) / 8.f);
  }
  return v;
}

template <class T>
double store_loop_d(T x) {
  if constexpr (st::is_half_like_v<T>) return static_cast<double>(static_cast<float>(x));
  else return static_cast<double>(x);
}

}  // namespace

#define SINTER_STORE_LOOP_TYPES                                                                           \
  std::pair<st::host, std::int8_t>, std::pair<st::host, std::int16_t>, std::pair<st::host, st::half>,     \
      std::pair<st::host, float>, std::pair<st::host, double>, std::pair<st::par, float>,                 \
      std::pair<st::par, std::int8_t>

namespace {

// dst[3 .. n + 3) = make(va, vb) for every n from 0 to 200, with va, vb views
// starting 1 and 2 elements into their buffers (misaligned) and three
// sentinels each side of the output; checks each element against ref(a_i,
// b_i) in double and that the sentinels are untouched.
template <class P, class T, class Make, class Ref>
void check_misaligned_sizes(unsigned seed, Make make, Ref ref) {
  for (st::index_t n = 0; n <= 200; ++n) {
    const auto a = store_loop_values<T>(static_cast<std::size_t>(n + 1), seed);
    const auto b = store_loop_values<T>(static_cast<std::size_t>(n + 2), seed + 1);
    const auto init = store_loop_values<T>(static_cast<std::size_t>(n + 6), seed + 2);
    std::vector<T> dst = init;
    const st::view<const T, 1, P> va(a.data() + 1, {n}), vb(b.data() + 2, {n});
    st::view<T, 1, P>(dst.data() + 3, {n}) = make(va, vb);
    st::index_t bad = 0;
    for (st::index_t i = 0; i < n; ++i) {
      const double want = ref(store_loop_d(a[static_cast<std::size_t>(i + 1)]), store_loop_d(b[static_cast<std::size_t>(i + 2)]));
      if (store_loop_d(dst[static_cast<std::size_t>(i + 3)]) != want) ++bad;
    }
    CHECK_MESSAGE(bad == 0, "n = " << n);
    for (const std::size_t k : {std::size_t{0}, std::size_t{1}, std::size_t{2}, static_cast<std::size_t>(n) + 3,
                                static_cast<std::size_t>(n) + 4, static_cast<std::size_t>(n) + 5})
      CHECK(store_loop_d(dst[k]) == store_loop_d(init[k]));  // untouched
  }
}

}  // namespace

TEST_CASE_TEMPLATE("store loop: every size 0 to 200, misaligned, sentinels around the output", PT,
                   SINTER_STORE_LOOP_TYPES) {
  using P = typename PT::first_type;
  using T = typename PT::second_type;
  check_misaligned_sizes<P, T>(
      101, [](const auto& va, const auto& vb) { return va + vb * T(3) - va; },
      [](double, double b) { return b * 3.0; });
}

TEST_CASE_TEMPLATE("store loop: in place, every size 0 to 200", PT, SINTER_STORE_LOOP_TYPES) {
  using P = typename PT::first_type;
  using T = typename PT::second_type;
  for (st::index_t n = 0; n <= 200; ++n) {
    const auto va = store_loop_values<T>(static_cast<std::size_t>(n), 111);
    const auto vb = store_loop_values<T>(static_cast<std::size_t>(n), 112);
    st::array<T, 1, P> a({n}), b({n});
    for (st::index_t i = 0; i < n; ++i) {
      a(i) = va[static_cast<std::size_t>(i)];
      b(i) = vb[static_cast<std::size_t>(i)];
    }
    a = a * T(2) + b;
    st::index_t bad = 0;
    for (st::index_t i = 0; i < n; ++i) {
      const auto k = static_cast<std::size_t>(i);
      if (store_loop_d(a(i)) != store_loop_d(va[k]) * 2.0 + store_loop_d(vb[k])) ++bad;
    }
    CHECK_MESSAGE(bad == 0, "n = " << n);
  }
}

TEST_CASE_TEMPLATE("store loop: matrix rows of every length up to 70, a broadcast row", PT, SINTER_STORE_LOOP_TYPES) {
  using P = typename PT::first_type;
  using T = typename PT::second_type;
  const st::index_t rows = 3;
  for (st::index_t cols = 1; cols <= 70; ++cols) {
    const auto vm = store_loop_values<T>(static_cast<std::size_t>(rows * (cols + 1)), 121);
    const auto vr = store_loop_values<T>(static_cast<std::size_t>(cols), 122);
    st::array<T, 2, P> m({rows, cols + 1}), out({rows, cols});
    for (st::index_t i = 0; i < rows; ++i)
      for (st::index_t j = 0; j <= cols; ++j) m(i, j) = vm[static_cast<std::size_t>(i * (cols + 1) + j)];
    st::array<T, 1, P> row({cols});
    for (st::index_t j = 0; j < cols; ++j) row(j) = vr[static_cast<std::size_t>(j)];
    // Columns 1..cols of m: rows that are not adjacent, each starting one
    // element into m's row.
    out = m(st::all, st::slice(1, st::end)) - row;
    st::index_t bad = 0;
    for (st::index_t i = 0; i < rows; ++i)
      for (st::index_t j = 0; j < cols; ++j) {
        const double ref = store_loop_d(vm[static_cast<std::size_t>(i * (cols + 1) + j + 1)]) -
                           store_loop_d(vr[static_cast<std::size_t>(j)]);
        if (store_loop_d(out(i, j)) != ref) ++bad;
      }
    CHECK_MESSAGE(bad == 0, "cols = " << cols);
  }
}

TEST_CASE_TEMPLATE("store loop: par's chunks start inside a line", T, float, double, std::int8_t) {
  // Above 2 * par_grain elements par splits the pass; at these (odd) sizes
  // the chunks start and end inside 64-byte lines.
  for (const st::index_t n : {st::index_t{65537}, st::index_t{100003}, st::index_t{131075}}) {
    const auto va = store_loop_values<T>(static_cast<std::size_t>(n), 131);
    const auto vb = store_loop_values<T>(static_cast<std::size_t>(n), 132);
    st::array<T, 1, st::par> a({n}), b({n}), c({n});
    for (st::index_t i = 0; i < n; ++i) {
      a(i) = va[static_cast<std::size_t>(i)];
      b(i) = vb[static_cast<std::size_t>(i)];
    }
    c = a - b + a;
    st::index_t bad = 0;
    for (st::index_t i = 0; i < n; ++i) {
      const auto k = static_cast<std::size_t>(i);
      if (static_cast<double>(c(i)) != 2.0 * static_cast<double>(va[k]) - static_cast<double>(vb[k])) ++bad;
    }
    CHECK_MESSAGE(bad == 0, "n = " << n);
  }
}

TEST_CASE_TEMPLATE("store loop: strided reductions stage their elements through it", P, st::host, st::par) {
  for (st::index_t n = 0; n <= 200; n += (n < 70 ? 1 : 13)) {
    const auto v = store_loop_values<float>(static_cast<std::size_t>(2 * n + 1), 141);
    st::array<float, 1, P> a({2 * n + 1});
    for (st::index_t i = 0; i <= 2 * n; ++i) a(i) = v[static_cast<std::size_t>(i)];
    // Every other element (a strided operand), then a broadcast over 3 rows.
    double ref = 0;
    for (st::index_t i = 0; i < n; ++i) ref += static_cast<double>(v[static_cast<std::size_t>(2 * i + 1)]);
    CHECK_MESSAGE(static_cast<double>(st::sum(a(st::slice(1, st::end, 2)))) == ref, "n = " << n);
    st::array<float, 2, P> m({3, n});
    for (st::index_t i = 0; i < 3; ++i)
      for (st::index_t j = 0; j < n; ++j) m(i, j) = static_cast<float>(i) - 1.f;
    const auto row = a(st::slice(0, n));
    double ref2 = 0;
    for (st::index_t i = 0; i < 3; ++i)
      for (st::index_t j = 0; j < n; ++j)
        ref2 += (static_cast<double>(i) - 1.0) * static_cast<double>(v[static_cast<std::size_t>(j)]);
    CHECK_MESSAGE(static_cast<double>(st::sum(m * row)) == ref2, "n = " << n);
  }
}

namespace {
// x + x, K times over: 2^K copies of x added, 2^(K+1) - 1 operations in
// all from x = a + b, and a wide tree rather than a deep one (cheaper to
// compile). Exact in every type here: 2^K (a + b).
template <int K, class X>
auto store_loop_wide(const X& x) {
  if constexpr (K == 0) return x;
  else return store_loop_wide<K - 1>(x + x);
}
}  // namespace

// One type (its compile is 10 s at -O3): the loops are store_run's, whose
// remainders the other cases check for every element size.
TEST_CASE("store loop: a cursor too large to force inline, every size 0 to 200, sentinels") {
  check_misaligned_sizes<st::host, float>(
      121,
      [](const auto& va, const auto& vb) {
        auto e = store_loop_wide<6>(va + vb);  // 127 operations
        // More operations than store_run inlines: the loops run out of line.
        static_assert(st::detail::cursor_ops_v<decltype(e.node().linear())> > SINTER_INLINE_STORE_OPS);
        return e;
      },
      [](double a, double b) { return 64.0 * (a + b); });
}
