// The lagged-rows route (policy/host/lagged.hpp): an in-place assignment
// whose inputs read the output's own array at a fixed offset (stencils) runs
// as one pass without a whole temporary, block by block, with the computed
// rows written back only once no later row reads their old values. Each
// case compares the in-place result bit for bit with the same expression
// evaluated from a copy of the array (out of place: what the temporary path
// gives), and with a double-precision scalar loop over the old values; the
// trace shows the route, one pass and no array allocation. 1-D, 2-D and 3-D,
// offsets of 1 and 2 along the first and the last axis, odd sizes, float,
// double and int, host and par with 1, 2 and 3 threads.
#include <doctest/doctest.h>

#include "support/scale.hpp"

#include <cmath>
#include <cstring>
#include <random>
#include <sinter/sinter.hpp>
#include <string>
#include <utility>
#include <vector>

namespace st = sinter;
using st::index_t;

namespace lagged_test {

template <class T>
std::vector<T> values(std::size_t n, unsigned seed) {
  std::mt19937 gen(seed);
  std::vector<T> v(n);
  if constexpr (std::is_integral_v<T>) {
    std::uniform_int_distribution<int> u(-1000, 1000);
    for (T& x : v) x = static_cast<T>(u(gen));
  } else {
    std::uniform_real_distribution<T> u(T(-10), T(10));
    for (T& x : v) x = u(gen);
  }
  return v;
}

template <class T, std::size_t R, class P>
st::array<T, R, P> filled(const st::extents<R>& shape, const std::vector<T>& v) {
  st::array<T, R, P> a(shape);
  std::copy(v.begin(), v.end(), a.data());
  return a;
}

/// A weight the stencils multiply by: 0.25 (exact) in floating point, 3 in int.
template <class T>
constexpr T weight() {
  if constexpr (std::is_integral_v<T>) return T(3);
  else return T(0.25);
}

/// Whether got is the double reference: exact for int, a few ulp otherwise.
template <class T>
bool near(T got, double want) {
  if constexpr (std::is_integral_v<T>) return static_cast<double>(got) == want;
  else return std::abs(static_cast<double>(got) - want) <= (sizeof(T) == 4 ? 4e-6 : 1e-14) * (1 + std::abs(want));
}

/// Runs `assign(a, src)` in place (src = a) under a trace, and from a copy
/// (src = the copy, a's old values); checks the in-place values equal the
/// out-of-place ones bit for bit, and that the pass took the route (one
/// pass, no allocation, "lagged rows") when `routed`. Returns a's old values.
template <class T, std::size_t R, class P, class F>
std::vector<T> in_place_matches_copy(st::array<T, R, P>& a, F&& assign, bool routed) {
  const std::vector<T> old(a.begin(), a.end());
  st::array<T, R, P> from_copy = a;
  const st::array<T, R, P> copy = a;
  assign(from_copy, copy);
  {
    st::trace_scope t;
    assign(a, a);
    if (routed) {
      const auto passes = t.passes();
      REQUIRE(passes.size() == 1);
      CHECK_MESSAGE(passes[0].detail.find("lagged rows") == 0, passes[0].detail);
      CHECK(t.allocations() == 0);
    }
  }
  if (a.size() > 0)  // memcmp of a null pointer is undefined even for 0 bytes (UBSan)
    CHECK(std::memcmp(a.data(), from_copy.data(), static_cast<std::size_t>(a.size()) * sizeof(T)) == 0);
  return old;
}

/// Restores the thread count on scope exit.
struct threads_set {
  int saved = st::get_num_threads();
  explicit threads_set(int n) { st::set_num_threads(n); }
  threads_set(const threads_set&) = delete;
  threads_set& operator=(const threads_set&) = delete;
  ~threads_set() { st::set_num_threads(saved); }
};

}  // namespace lagged_test

#define SINTER_LAGGED_TYPES                                                                                   \
  std::pair<st::host, float>, std::pair<st::host, double>, std::pair<st::host, int>, std::pair<st::par, float>, \
      std::pair<st::par, double>, std::pair<st::par, int>

TEST_CASE_TEMPLATE("lagged rows: 1-D stencils, offsets 1 and 2 either way", PT, SINTER_LAGGED_TYPES) {
  using P = typename PT::first_type;
  using T = typename PT::second_type;
  const T w = lagged_test::weight<T>();
  for (const index_t n : {0, 1, 2, 3, 5, 17, 31, 4099, 8209, 100003}) {
    CAPTURE(n);
    const auto un = static_cast<std::size_t>(n);
    // u[1:-1] = w * (u[:-2] + u[2:]): reads one back and one ahead.
    auto u = lagged_test::filled<T, 1, P>({n}, lagged_test::values<T>(un, 1));
    auto old = lagged_test::in_place_matches_copy(
        u, [&](auto& o, const auto& s) { o(st::slice(1, -1)) = w * (s(st::slice(0, -2)) + s(st::slice(2, st::end))); },
        n > 3);  // n = 3: one element, no overlap
    index_t bad = 0;
    for (std::size_t i = 0; i < un; ++i) {
      const double want = i == 0 || i + 1 >= un ? static_cast<double>(old[i])
                                                : static_cast<double>(w) * (double(old[i - 1]) + double(old[i + 1]));
      bad += !lagged_test::near(u.data()[i], want);
    }
    CHECK_MESSAGE(bad == 0, "u[1:-1] = w (u[:-2] + u[2:]): " << bad << " wrong");
    // u[2:-2] = u[:-4] * w - u[4:] + u[2:-2]: two back, two ahead, itself.
    old = lagged_test::in_place_matches_copy(
        u,
        [&](auto& o, const auto& s) {
          o(st::slice(2, -2)) = s(st::slice(0, -4)) * w - s(st::slice(4, st::end)) + s(st::slice(2, -2));
        },
        n > 5);
    bad = 0;
    for (std::size_t i = 0; i < un; ++i) {
      const double want = i < 2 || i + 2 >= un ? static_cast<double>(old[i])
                                               : double(old[i - 2]) * double(w) - double(old[i + 2]) + double(old[i]);
      bad += !lagged_test::near(u.data()[i], want);
    }
    CHECK_MESSAGE(bad == 0, "u[2:-2] = u[:-4] w - u[4:] + u[2:-2]: " << bad << " wrong");
    // u[1:] = u[:-1] * w + 1 (only back) and u[:-2] = u[2:] - u[:-2] (only ahead).
    old = lagged_test::in_place_matches_copy(
        u, [&](auto& o, const auto& s) { o(st::slice(1, st::end)) = s(st::slice(0, -1)) * w + T(1); }, n > 2);
    bad = 0;
    for (std::size_t i = 1; i < un; ++i) bad += !lagged_test::near(u.data()[i], double(old[i - 1]) * double(w) + 1);
    CHECK_MESSAGE(bad == 0, "u[1:] = u[:-1] w + 1: " << bad << " wrong");
    old = lagged_test::in_place_matches_copy(
        u, [&](auto& o, const auto& s) { o(st::slice(0, -2)) = s(st::slice(2, st::end)) - s(st::slice(0, -2)); },
        n > 4);
    bad = 0;
    for (std::size_t i = 0; i + 2 < un; ++i) bad += !lagged_test::near(u.data()[i], double(old[i + 2]) - double(old[i]));
    CHECK_MESSAGE(bad == 0, "u[:-2] = u[2:] - u[:-2]: " << bad << " wrong");
    // Step-2 views: u[2:-2:2] = u[:-4:2] + u[4::2] (one row of the output either way).
    old = lagged_test::in_place_matches_copy(
        u,
        [&](auto& o, const auto& s) {
          o(st::slice(2, -2, 2)) = s(st::slice(0, -4, 2)) + s(st::slice(4, st::end, 2)) * w;
        },
        n > 6);
    bad = 0;
    for (std::size_t i = 0; i < un; ++i) {
      const bool written = i >= 2 && i + 2 < un && i % 2 == 0;
      bad += !lagged_test::near(u.data()[i], written ? double(old[i - 2]) + double(old[i + 2]) * double(w) : double(old[i]));
    }
    CHECK_MESSAGE(bad == 0, "u[2:-2:2] = u[:-4:2] + u[4::2] w: " << bad << " wrong");
  }
}

TEST_CASE_TEMPLATE("lagged rows: par splits 1000003 elements (sanitizers: 393223) identically for 1, 2 and 3 threads", PT,
                   std::pair<st::par, float>, std::pair<st::par, double>, std::pair<st::par, int>) {
  using P = typename PT::first_type;
  using T = typename PT::second_type;
  const T w = lagged_test::weight<T>();
  // Sanitizer builds (support/scale.hpp): 12 * par_grain + 7, still 8 and 12
  // chunks on 2 and 3 threads, as at 1000003.
  const index_t n = sinter_test::scale > 1 ? 12 * st::detail::par_grain + 7 : 1000003;
  const auto start = lagged_test::values<T>(static_cast<std::size_t>(n), 7);
  std::vector<T> first;
  for (const int threads : {1, 2, 3}) {
    CAPTURE(threads);
    lagged_test::threads_set ts(threads);
    auto u = lagged_test::filled<T, 1, P>({n}, start);
    const auto old = lagged_test::in_place_matches_copy(
        u,
        [&](auto& o, const auto& s) {
          o(st::slice(2, -1)) = w * (s(st::slice(0, -3)) + s(st::slice(1, -2)) + s(st::slice(3, st::end)));
        },
        true);
    index_t bad = 0;
    for (std::size_t i = 2; i + 1 < old.size(); ++i)
      bad += !lagged_test::near(u.data()[i], double(w) * (double(old[i - 2]) + double(old[i - 1]) + double(old[i + 1])));
    CHECK_MESSAGE(bad == 0, bad << " wrong");
    {
      st::trace_scope t;
      u(st::slice(1, -1)) = u(st::slice(0, -2)) - u(st::slice(2, st::end));
      REQUIRE(t.passes().size() == 1);
      const std::string want = threads == 1 ? "lagged rows 1 thread" : "lagged rows " + std::to_string(threads) + " threads";
      CHECK_MESSAGE(t.passes()[0].detail.find(want) == 0, t.passes()[0].detail);
    }
    if (threads == 1) first.assign(u.begin(), u.end());
    else CHECK(std::memcmp(first.data(), u.data(), first.size() * sizeof(T)) == 0);
  }
}

TEST_CASE_TEMPLATE("lagged rows: the 2-D 5-point stencil, and offsets along one axis", PT, SINTER_LAGGED_TYPES) {
  using P = typename PT::first_type;
  using T = typename PT::second_type;
  const T w = lagged_test::weight<T>();
  // Sanitizer builds: 263 rows instead of 1031, still 8 chunks on 2 threads.
  const index_t tall = sinter_test::scale > 1 ? 263 : 1031;
  const std::vector<std::pair<index_t, index_t>> shapes{{1, 1}, {2, 5}, {3, 3}, {5, 7}, {17, 31}, {101, 257}, {tall, 1021}};
  for (const auto& shape : shapes) {
    const index_t r = shape.first, c = shape.second;
    CAPTURE(r);
    CAPTURE(c);
    const auto at = [c](const std::vector<T>& v, index_t i, index_t j) {
      return static_cast<double>(v[static_cast<std::size_t>(i * c + j)]);
    };
    auto m = lagged_test::filled<T, 2, P>({r, c}, lagged_test::values<T>(static_cast<std::size_t>(r * c), 11));
    const auto in = st::slice(1, -1), up = st::slice(0, -2), down = st::slice(2, st::end);
    auto old = lagged_test::in_place_matches_copy(
        m,
        [&](auto& o, const auto& s) { o(in, in) = w * (s(up, in) + s(down, in) + s(in, up) + s(in, down)); },
        r > 2 && c > 2 && r * c > 9);  // 3 x 3: one element, no overlap
    index_t bad = 0;
    for (index_t i = 0; i < r; ++i)
      for (index_t j = 0; j < c; ++j) {
        const bool inner = i > 0 && j > 0 && i + 1 < r && j + 1 < c;
        const double want = inner ? double(w) * (at(old, i - 1, j) + at(old, i + 1, j) + at(old, i, j - 1) + at(old, i, j + 1))
                                  : at(old, i, j);
        bad += !lagged_test::near(m(i, j), want);
      }
    CHECK_MESSAGE(bad == 0, "5-point: " << bad << " wrong");
    // Two rows down, whole rows (contiguous): m[2:, :] = m[:-2, :] * w + m[2:, :].
    old = lagged_test::in_place_matches_copy(
        m,
        [&](auto& o, const auto& s) {
          o(st::slice(2, st::end), st::all) = s(st::slice(0, -2), st::all) * w + s(st::slice(2, st::end), st::all);
        },
        r > 4);
    bad = 0;
    for (index_t i = 2; i < r; ++i)
      for (index_t j = 0; j < c; ++j) bad += !lagged_test::near(m(i, j), at(old, i - 2, j) * double(w) + at(old, i, j));
    CHECK_MESSAGE(bad == 0, "two rows down: " << bad << " wrong");
    // Two columns along the last axis, reversed columns: m[:, 2:][:, ::-1] = m[:, :-2][:, ::-1] - m[:, 2:][:, ::-1] w.
    old = lagged_test::in_place_matches_copy(
        m,
        [&](auto& o, const auto& s) {
          const auto rev = st::slice(st::none, st::none, -1);
          o(st::all, st::slice(2, st::end))(st::all, rev) =
              s(st::all, st::slice(0, -2))(st::all, rev) - s(st::all, st::slice(2, st::end))(st::all, rev) * w;
        },
        c > 2);
    bad = 0;
    for (index_t i = 0; i < r; ++i)
      for (index_t j = 2; j < c; ++j) bad += !lagged_test::near(m(i, j), at(old, i, j - 2) - at(old, i, j) * double(w));
    CHECK_MESSAGE(bad == 0, "two columns along: " << bad << " wrong");
  }
}

TEST_CASE_TEMPLATE("lagged rows: a 3-D 7-point stencil", PT, SINTER_LAGGED_TYPES) {
  using P = typename PT::first_type;
  using T = typename PT::second_type;
  const T w = lagged_test::weight<T>();
  // Sanitizer builds: 53 instead of 101 (166 k elements, still 5 chunks on 2 threads).
  const index_t big = sinter_test::scale > 1 ? 53 : 101;
  for (const index_t n : {index_t{3}, index_t{13}, big}) {
    CAPTURE(n);
    const index_t a = n, b = n + 2, c = n + 4;  // 101: 1.08 M elements, par splits
    auto u = lagged_test::filled<T, 3, P>({a, b, c}, lagged_test::values<T>(static_cast<std::size_t>(a * b * c), 13));
    const auto in = st::slice(1, -1), lo = st::slice(0, -2), hi = st::slice(2, st::end);
    const auto old = lagged_test::in_place_matches_copy(
        u,
        [&](auto& o, const auto& s) {
          o(in, in, in) = w * (s(lo, in, in) + s(hi, in, in) + s(in, lo, in) + s(in, hi, in) + s(in, in, lo) +
                               s(in, in, hi)) - s(in, in, in);
        },
        true);
    const auto at = [&](index_t i, index_t j, index_t k) { return double(old[static_cast<std::size_t>((i * b + j) * c + k)]); };
    index_t bad = 0;
    for (index_t i = 0; i < a; ++i)
      for (index_t j = 0; j < b; ++j)
        for (index_t k = 0; k < c; ++k) {
          const bool inner = i > 0 && j > 0 && k > 0 && i + 1 < a && j + 1 < b && k + 1 < c;
          const double want = inner ? double(w) * (at(i - 1, j, k) + at(i + 1, j, k) + at(i, j - 1, k) + at(i, j + 1, k) +
                                                   at(i, j, k - 1) + at(i, j, k + 1)) - at(i, j, k)
                                    : at(i, j, k);
          bad += !lagged_test::near(u(i, j, k), want);
        }
    CHECK_MESSAGE(bad == 0, bad << " wrong");
  }
}

TEST_CASE_TEMPLATE("lagged rows: what does not fit keeps the temporary", P, st::host, st::par) {
  const index_t n = 301;
  auto m = lagged_test::filled<float, 2, P>({n, n}, lagged_test::values<float>(static_cast<std::size_t>(n * n), 17));
  const std::vector<float> old(m.begin(), m.end());
  const auto through_temporary = [](const st::trace_scope& t) {
    const auto passes = t.passes();
    REQUIRE(passes.size() == 2);
    CHECK(passes[0].detail.find("lagged") == std::string::npos);
    CHECK(t.allocations() == 1);
  };
  {
    st::trace_scope t;  // a transposed alias: no fixed offset
    m(st::slice(1, st::end), st::slice(1, st::end)) = st::transpose(m(st::slice(0, -1), st::slice(0, -1)));
    through_temporary(t);
  }
  for (index_t i = 1; i < n; ++i)
    for (index_t j = 1; j < n; ++j) REQUIRE(m(i, j) == old[static_cast<std::size_t>((j - 1) * n + i - 1)]);
  {
    st::trace_scope t;  // a broadcast row of the output: stride 0 along the rows
    m(st::slice(1, st::end), st::all) = m(st::slice(1, st::end), st::all) - m(st::slice(1, 2), st::all);
    through_temporary(t);
  }
  // Rows so long that one, held back, passes lagged_buffer_bytes.
  const index_t cols = 300007;
  auto wide = lagged_test::filled<float, 2, P>({3, cols}, lagged_test::values<float>(static_cast<std::size_t>(3 * cols), 19));
  const std::vector<float> wold(wide.begin(), wide.end());
  {
    st::trace_scope t;
    wide(st::slice(1, st::end), st::all) = wide(st::slice(0, -1), st::all) * 2.f;
    through_temporary(t);
  }
  for (index_t i = 1; i < 3; ++i)
    for (index_t j = 0; j < cols; ++j) REQUIRE(wide(i, j) == wold[static_cast<std::size_t>((i - 1) * cols + j)] * 2.f);
}
