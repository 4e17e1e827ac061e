// A repeated subexpression, x * x with x written twice (`(a - b) * (a - b)`),
// is evaluated once on the CPU (core/twin_nodes.hpp): the trace says so, and
// the values are those of the expression as written (checked against a double
// reference and bit for bit against square(x)). Pairs whose two sides differ
// (other arrays, other layouts of one array, other scalars or functor
// state) are never merged: their values would be wrong if they were.
#include <doctest/doctest.h>

#include "support/filled.hpp"
#include "support/random.hpp"

#include <cmath>
#include <cstring>
#include <sinter/sinter.hpp>
#include <string>
#include <vector>

namespace st = sinter;
using sinter_test::random_vector;

namespace {

bool merged(const std::string& detail) { return detail.find("repeated subexpression evaluated once") != std::string::npos; }

/// `x * k` through a functor with state (an int): two of these with one
/// lambda type but different k must stay two subexpressions.
template <class X>
auto scaled(const X& x, int k) {
  return st::map([k](float v) { return v * static_cast<float>(k); }, x);
}

// Relative bound on |sum - reference| / sum|x| for a float pairwise sum of
// n <= 1e7 elements (tests/support/reduce_check.hpp derives it).
constexpr double sum_tol = 1e-5;

}  // namespace

TEST_CASE_TEMPLATE("twins: (a - b) * (a - b) computes a - b once, with the values as written", P, st::host, st::par) {
  // 70001 > 2 * par_grain: par splits it over threads; offset 1 misaligns every vector.
  for (st::index_t n : {0, 1, 7, 16, 17, 31, 1000, 4099, 70001}) {
    for (st::index_t off : {0, 1}) {
      const auto va = random_vector<float>(static_cast<std::size_t>(n + off), 11, -2.f, 2.f);
      const auto vb = random_vector<float>(static_cast<std::size_t>(n + off), 12, -2.f, 2.f);
      const auto a0 = sinter_test::filled<P>(va), b0 = sinter_test::filled<P>(vb);
      const auto a = a0(st::slice(off, st::end)), b = b0(st::slice(off, st::end));
      st::array<float, 1, P> out({n}), sq({n});
      st::trace_scope t;
      out = (a - b) * (a - b);
      sq = st::square(a - b);
      const float s = st::sum((a - b) * (a - b));
      const float s_sq = st::sum(st::square(a - b));
      const auto passes = t.passes();
      REQUIRE(passes.size() == 4);
      if (n > 0) CHECK_MESSAGE(merged(passes[0].detail), passes[0].detail);
      CHECK_MESSAGE(!merged(passes[1].detail), passes[1].detail);
      CHECK_MESSAGE(merged(passes[2].detail), passes[2].detail);
      st::index_t bad = 0, not_square = 0;
      double ref = 0, mag = 0;
      for (st::index_t i = 0; i < n; ++i) {
        const auto u = static_cast<std::size_t>(i + off);
        const double d = static_cast<double>(va[u]) - static_cast<double>(vb[u]);
        // a - b rounds once (relative 2^-24), its square once more: 3 * 2^-24 to first order
        if (!(std::abs(out(i) - d * d) <= 3.01 * 0x1p-24 * d * d)) ++bad;
        if (!sinter_test::same_bits(out(i), sq(i))) ++not_square;
        ref += d * d;
        mag += d * d;
      }
      CHECK_MESSAGE(bad == 0, "n = " << n << ", offset " << off << ": " << bad << " elements differ from the reference");
      CHECK_MESSAGE(not_square == 0, "n = " << n << ": " << not_square << " elements differ from square(a - b)");
      CHECK(std::abs(s - ref) <= sum_tol * mag + 1e-30);
      CHECK(sinter_test::same_bits(s, s_sq));
    }
  }
}

TEST_CASE_TEMPLATE("twins: an axis reduction and a nested pair are merged too", P, st::host, st::par) {
  const st::index_t r = 37, c = 301;
  const auto vm = random_vector<float>(static_cast<std::size_t>(r * c), 21, -1.f, 1.f);
  const auto vn = random_vector<float>(static_cast<std::size_t>(r * c), 22, -1.f, 1.f);
  st::array<float, 2, P> m({r, c}), k({r, c});
  for (st::index_t i = 0; i < r; ++i)
    for (st::index_t j = 0; j < c; ++j) {
      m(i, j) = vm[static_cast<std::size_t>(i * c + j)];
      k(i, j) = vn[static_cast<std::size_t>(i * c + j)];
    }
  st::trace_scope t;
  const auto rows = st::sum((m - k) * (m - k), st::axis(1));
  st::array<float, 2, P> quart({r, c});
  quart = ((m - k) * (m - k)) * ((m - k) * (m - k));
  const auto passes = t.passes();
  REQUIRE(passes.size() == 2);
  CHECK_MESSAGE(merged(passes[0].detail), passes[0].detail);
  CHECK_MESSAGE(merged(passes[1].detail), passes[1].detail);
  st::index_t bad = 0;
  for (st::index_t i = 0; i < r; ++i) {
    double ref = 0;
    for (st::index_t j = 0; j < c; ++j) {
      const auto u = static_cast<std::size_t>(i * c + j);
      const double d = static_cast<double>(vm[u]) - static_cast<double>(vn[u]);
      ref += d * d;
      if (!(std::abs(quart(i, j) - d * d * d * d) <= 7.01 * 0x1p-24 * d * d * d * d)) ++bad;
    }
    if (!(std::abs(rows(i) - ref) <= sum_tol * ref + 1e-30)) ++bad;
  }
  CHECK_MESSAGE(bad == 0, bad << " values differ from the reference");
}

// Whether a pair merges is decided before the policy runs (twins_equal), the
// same code for host and par: these two cases run on host only (CI time).
TEST_CASE("twins: pairs whose sides differ are evaluated as written") {
  using P = st::host;
  const st::index_t n = 1009;
  const auto va = random_vector<float>(static_cast<std::size_t>(n), 31, -2.f, 2.f);
  const auto vb = random_vector<float>(static_cast<std::size_t>(n), 32, -2.f, 2.f);
  const auto vc = random_vector<float>(static_cast<std::size_t>(n), 33, -2.f, 2.f);
  const auto a = sinter_test::filled<P>(va), b = sinter_test::filled<P>(vb), c = sinter_test::filled<P>(vc);
  st::array<float, 1, P> out({n});
  // out = e and sum(e): merged or not as `want`, values as ref(i).
  auto expect = [&](const auto& e, auto ref, bool want, const char* what) {
    st::trace_scope t;
    out = e;
    const float s = st::sum(e);
    const auto passes = t.passes();
    REQUIRE(passes.size() == 2);
    CHECK_MESSAGE(merged(passes[0].detail) == want, what << ": " << passes[0].detail);
    CHECK_MESSAGE(merged(passes[1].detail) == want, what << ": " << passes[1].detail);
    st::index_t bad = 0;
    double total = 0, mag = 0;
    for (st::index_t i = 0; i < n; ++i) {
      const double x = ref(static_cast<std::size_t>(i));
      if (!(std::abs(out(i) - x) <= 5 * 0x1p-24 * std::abs(x) + 1e-30)) ++bad;
      total += x;
      mag += std::abs(x);
    }
    CHECK_MESSAGE(bad == 0, what << ": " << bad << " elements differ from the reference");
    CHECK_MESSAGE(std::abs(s - total) <= sum_tol * mag + 1e-30, what << ": sum " << s << ", reference " << total);
  };
  auto d = [](double x, double y) { return x - y; };
  // Other arrays of the same type.
  expect((a - b) * (a - c), [&](std::size_t i) { return d(va[i], vb[i]) * d(va[i], vc[i]); }, false,
         "(a - b) * (a - c)");
  // The same array, other scalars.
  expect((a * 2.f) * (a * 3.f), [&](std::size_t i) { return 6.0 * va[i] * va[i]; }, false, "(a * 2) * (a * 3)");
  // Scalars equal in value, not in bits: +0 and -0 (not merged, same values).
  expect((a + 0.f) * (a + -0.f), [&](std::size_t i) { return static_cast<double>(va[i]) * va[i]; }, false,
         "(a + 0) * (a + -0)");
  // Functors of one type with different state; then with the same state (merged).
  expect(scaled(a - b, 2) * scaled(a - b, 3), [&](std::size_t i) { return 6.0 * d(va[i], vb[i]) * d(va[i], vb[i]); },
         false, "map(k = 2) * map(k = 3)");
  expect(scaled(a - b, 2) * scaled(a - b, 2), [&](std::size_t i) { return 4.0 * d(va[i], vb[i]) * d(va[i], vb[i]); },
         true, "map(k = 2) * map(k = 2)");
  // Inner pairs equal, the outer one not: the tree runs as written.
  expect(((a - b) * (a - b)) * ((a - c) * (a - c)),
         [&](std::size_t i) { return d(va[i], vb[i]) * d(va[i], vb[i]) * d(va[i], vc[i]) * d(va[i], vc[i]); }, false,
         "(a - b)^2 * (a - c)^2");
  // Under a sum, not a product, each square merges.
  expect(((a - b) * (a - b)) + ((a - c) * (a - c)),
         [&](std::size_t i) { return d(va[i], vb[i]) * d(va[i], vb[i]) + d(va[i], vc[i]) * d(va[i], vc[i]); }, true,
         "(a - b)^2 + (a - c)^2");
  // Only products pair: a sum of one subexpression twice runs as written.
  expect((a - b) + (a - b), [&](std::size_t i) { return 2.0 * d(va[i], vb[i]); }, false, "(a - b) + (a - b)");
  // One array at two offsets.
  const auto x0 = a(st::slice(0, n - 1)), x1 = a(st::slice(1, n)), y = b(st::slice(0, n - 1));
  st::array<float, 1, P> out1({n - 1});
  st::trace_scope t;
  out1 = (x0 - y) * (x1 - y);
  CHECK(!merged(t.passes()[0].detail));
  st::index_t bad = 0;
  for (std::size_t i = 0; i + 1 < static_cast<std::size_t>(n); ++i) {
    const double x = d(va[i], vb[i]) * d(va[i + 1], vb[i]);
    if (!(std::abs(out1(static_cast<st::index_t>(i)) - x) <= 5 * 0x1p-24 * std::abs(x) + 1e-30)) ++bad;
  }
  CHECK_MESSAGE(bad == 0, "(a[:-1] - b) * (a[1:] - b): " << bad << " elements differ from the reference");
}

TEST_CASE("twins: one matrix under two layouts is two subexpressions") {
  using P = st::host;
  const st::index_t n = 67;
  const auto vm = random_vector<float>(static_cast<std::size_t>(n * n), 41, -1.f, 1.f);
  st::array<float, 2, P> m({n, n}), out({n, n});
  for (st::index_t i = 0; i < n; ++i)
    for (st::index_t j = 0; j < n; ++j) m(i, j) = vm[static_cast<std::size_t>(i * n + j)];
  st::trace_scope t;
  out = (m + 1.f) * (st::transpose(m) + 1.f);
  CHECK(!merged(t.passes()[0].detail));
  st::index_t bad = 0;
  for (st::index_t i = 0; i < n; ++i)
    for (st::index_t j = 0; j < n; ++j) {
      const double x = (vm[static_cast<std::size_t>(i * n + j)] + 1.0) * (vm[static_cast<std::size_t>(j * n + i)] + 1.0);
      if (!(std::abs(out(i, j) - x) <= 5 * 0x1p-24 * std::abs(x))) ++bad;
    }
  CHECK_MESSAGE(bad == 0, bad << " elements of (m + 1) * (m^T + 1) differ from the reference");
}
