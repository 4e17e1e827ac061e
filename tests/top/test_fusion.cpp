// Fusion: any elementwise expression, however long, with broadcasting and
// views, runs as exactly one pass and allocates nothing (trace hook).
#include <doctest/doctest.h>

#include "support/chains.hpp"
#include "support/scale.hpp"

#include <algorithm>
#include <cmath>
#include <random>
#include <sinter/sinter.hpp>
#include <string>
#include <type_traits>
#include <vector>

namespace st = sinter;
using sinter_test::chain;
using sinter_test::chain_lengths;
using sinter_test::random_floats;
using sinter_test::ref_step;

namespace {

template <int N, class P>
void check_chain_1d(st::index_t n) {
  auto va = random_floats(static_cast<std::size_t>(n), 1), vb = random_floats(static_cast<std::size_t>(n), 2),
       vc = random_floats(static_cast<std::size_t>(n), 3);
  st::array<float, 1, P> a({n}), b({n}), c({n}), out({n});
  std::copy(va.begin(), va.end(), a.begin());
  std::copy(vb.begin(), vb.end(), b.begin());
  std::copy(vc.begin(), vc.end(), c.begin());
  st::trace_scope t;
  out = chain<N>(st::cast<float>(a), b, c);
  const auto passes = t.passes();
  REQUIRE(passes.size() == 1);
  CHECK(t.allocations() == 0);
  CHECK(passes[0].elements == n);
  CHECK(passes[0].bytes_written == static_cast<std::size_t>(n) * 4);
  // Each distinct input read once: a, and b, c when the chain uses them.
  const std::size_t inputs = 1 + (N >= 1 ? 1 : 0) + (N >= 3 ? 1 : 0);
  CHECK(passes[0].bytes_read == inputs * static_cast<std::size_t>(n) * 4);
  st::index_t bad = 0;
  for (st::index_t i = 0; i < n; ++i) {
    const auto u = static_cast<std::size_t>(i);
    double x = va[u];
    for (int k = 0; k < N; ++k) x = ref_step(k, x, vb[u], vc[u]);
    if (!(std::abs(out(i) - x) <= 1e-4 * std::max(1.0, std::abs(x)))) ++bad;
  }
  CHECK_MESSAGE(bad == 0, N << "-op chain, n = " << n << ": " << bad << " elements differ from the double reference");
}

template <class P, int... N>
void all_chains(std::integer_sequence<int, N...>, st::index_t n) {
  (check_chain_1d<N + 1, P>(n), ...);
}

}  // namespace

// Too slow unoptimised (about 250 s under ASan at -O0): run in Release only;
// sanitizer builds still run the 1-, 2-, 5-, 10- and 20-op chains over
// broadcast and strided operands (test_fusion_layouts.cpp) and the 20-op
// chain below.
TEST_CASE_TEMPLATE("chains of 1 to 20 ops run as one pass with no temporary" *
                       doctest::skip(sinter_test::scale > 1),
                   P, st::host, st::par) {
  // Debug and sanitizer builds (scale > 1) evaluate every node out of line:
  // there the large size, which only exercises par's threads, is skipped.
  const st::index_t big = sinter_test::scale == 1 ? 200003 : 1000;
  for (st::index_t n : {st::index_t{1}, st::index_t{7}, st::index_t{1000}, big}) all_chains<P>(chain_lengths{}, n);
}

TEST_CASE_TEMPLATE("broadcast and strided chains run as one pass with no temporary", P, st::host, st::par) {
  const st::index_t rows = sinter_test::scale == 1 ? 301 : 37, cols = sinter_test::scale == 1 ? 517 : 129;
  auto vm = random_floats(static_cast<std::size_t>(rows * cols * 2), 4);
  auto vr = random_floats(static_cast<std::size_t>(cols), 5);
  auto vcol = random_floats(static_cast<std::size_t>(rows), 6);
  st::array<float, 2, P> m({rows, cols * 2});
  std::copy(vm.begin(), vm.end(), m.begin());
  st::array<float, 1, P> row({cols}), col({rows});
  std::copy(vr.begin(), vr.end(), row.begin());
  std::copy(vcol.begin(), vcol.end(), col.begin());
  st::array<float, 2, P> out({rows, cols});

  auto strided = m(st::all, st::slice(0, st::end, 2));  // every other column
  auto column = col(st::all, st::newaxis);              // (rows, 1)
  st::trace_scope t;
  out = chain<20>(strided * 1.f, row, column);
  REQUIRE(t.passes().size() == 1);
  CHECK(t.allocations() == 0);
  CHECK(t.passes()[0].detail.find("strided") != std::string::npos);
  st::index_t bad = 0;
  for (st::index_t i = 0; i < rows; ++i)
    for (st::index_t j = 0; j < cols; ++j) {
      double x = vm[static_cast<std::size_t>(i * cols * 2 + 2 * j)];
      for (int k = 0; k < 20; ++k) x = ref_step(k, x, vr[static_cast<std::size_t>(j)], vcol[static_cast<std::size_t>(i)]);
      if (!(std::abs(out(i, j) - x) <= 1e-4 * std::max(1.0, std::abs(x)))) ++bad;
    }
  CHECK(bad == 0);
}

TEST_CASE("a stored expression is lazy and reusable; temporaries are kept alive") {
  st::array<float, 1> a = st::arange<float>(100);
  auto e = st::exp(st::eval(a * 0.01f) + 1.f) * 2.f;  // the eval'd temporary moves into e
  st::trace_scope t;
  st::array<float, 1> c1 = e;
  a = 0.f;  // e does not read a
  st::array<float, 1> c2 = e;
  CHECK(t.passes().size() == 3);  // c1, a = 0, c2
  for (st::index_t i = 0; i < 100; ++i) {
    const double ref = std::exp(static_cast<double>(static_cast<float>(i) * 0.01f) + 1.0) * 2.0;
    CHECK(c1(i) == doctest::Approx(ref).epsilon(1e-6));
    CHECK(c2(i) == c1(i));
  }
}

TEST_CASE("generators fuse: arange and linspace allocate nothing") {
  st::array<double, 1> out({11});
  st::trace_scope t;
  out = st::linspace<double>(0, 1, 11) * 2.0 + st::arange<double>(11);
  CHECK(t.passes().size() == 1);
  CHECK(t.allocations() == 0);
  CHECK(t.passes()[0].bytes_read == 0);
  for (st::index_t i = 0; i < 11; ++i) CHECK(out(i) == doctest::Approx(static_cast<double>(i) * 0.2 + static_cast<double>(i)));
}

TEST_CASE_TEMPLATE("the trace records each pass's expression and its distinct inputs' bytes", P, st::host, st::par) {
  const st::index_t rows = 3, cols = 7;
  auto vm = random_floats(static_cast<std::size_t>(rows * cols), 7);
  auto vr = random_floats(static_cast<std::size_t>(cols), 8);
  st::array<float, 2, P> m({rows, cols});
  std::copy(vm.begin(), vm.end(), m.begin());
  st::array<float, 1, P> row({cols});
  std::copy(vr.begin(), vr.end(), row.begin());
  st::array<double, 2, P> out({rows, cols});

  st::trace_scope t;
  // m twice, a broadcast row, a generator and a scalar: m's and row's bytes
  // count once each, the generator's and the scalar's not at all.
  out = st::cast<double>(m * m + row) * st::linspace<double>(0, 1, cols) - 0.5;
  const auto passes = t.passes();
  REQUIRE(passes.size() == 1);
  const auto& r = passes[0];
  CHECK(r.policy == (std::is_same_v<P, st::par> ? "par" : "host"));
  CHECK(r.expression ==
        "float64[3,7] = subtract(multiply(cast(add(multiply(float32[3,7], float32[3,7]), float32[7])), "
        "linspace<float64[7]>), scalar<float64>)");
  CHECK(r.elements == rows * cols);
  CHECK(r.bytes_read == static_cast<std::size_t>(rows * cols + cols) * sizeof(float));
  CHECK(r.bytes_written == static_cast<std::size_t>(rows * cols) * sizeof(double));
  st::index_t bad = 0;
  for (st::index_t i = 0; i < rows; ++i)
    for (st::index_t j = 0; j < cols; ++j) {
      const float x = vm[static_cast<std::size_t>(i * cols + j)];
      const double ref = static_cast<double>(x * x + vr[static_cast<std::size_t>(j)]) *
                             (static_cast<double>(j) / static_cast<double>(cols - 1)) - 0.5;
      // The float part may be contracted to an FMA: one float rounding apart.
      if (!(std::abs(out(i, j) - ref) <= 1e-6 * std::max(1.0, std::abs(ref)))) ++bad;
    }
  CHECK(bad == 0);

  // A view of m (every other column) reads the elements it spans: counted by
  // its own shape, not m's.
  st::array<float, 2, P> every_other({rows, 4});
  every_other = m(st::all, st::slice(0, st::end, 2)) * 2.f;
  REQUIRE(t.passes().size() == 2);
  CHECK(t.passes()[1].expression == "float32[3,4] = multiply(float32[3,4], scalar<float32>)");
  CHECK(t.passes()[1].bytes_read == static_cast<std::size_t>(rows * 4) * sizeof(float));
  for (st::index_t i = 0; i < rows; ++i)
    for (st::index_t j = 0; j < 4; ++j) CHECK(every_other(i, j) == vm[static_cast<std::size_t>(i * cols + 2 * j)] * 2.f);
}

TEST_CASE_TEMPLATE("the trace's text names every node, whatever leaves the pass holds", P, st::host, st::par) {
  const st::index_t n = 13;
  auto va = random_floats(static_cast<std::size_t>(n), 21);
  st::array<float, 1, P> a({n});
  std::copy(va.begin(), va.end(), a.begin());
  st::array<float, 1, P> out({n});
  st::array<float, 1, P> head({4});
  const auto lam = [](float x, float y) { return x * y + 1.f; };

  st::trace_scope t;
  out = 1.5f;  // no leaf with memory or a generator: nothing to fill in, nothing read
  out = st::arange<float>(n) * 2.f;  // a generator alone
  head = a(st::slice(0, 4)) + a(st::slice(3, 7)) * a(st::slice(0, 4));  // one buffer, two views
  out = st::map(lam, st::sqrt(st::abs(a)), a) - st::cast<float>(st::arange<int>(n));
  const auto p = t.passes();
  REQUIRE(p.size() == 4);
  CHECK(p[0].expression == "float32[13] = scalar<float32>");
  CHECK(p[0].bytes_read == 0);
  CHECK(p[1].expression == "float32[13] = multiply(arange<float32[13]>, scalar<float32>)");
  CHECK(p[1].bytes_read == 0);
  CHECK(p[2].expression == "float32[4] = add(float32[4], multiply(float32[4], float32[4]))");
  // a[0:4] twice counts once; a[3:7] starts elsewhere and counts apart.
  CHECK(p[2].bytes_read == 8 * sizeof(float));
  CHECK(p[3].expression == "float32[13] = subtract(map(sqrt(abs(float32[13])), float32[13]), cast(arange<int32[13]>))");
  CHECK(p[3].bytes_read == static_cast<std::size_t>(n) * sizeof(float));
  for (st::index_t i = 0; i < n; ++i) {
    const double x = va[static_cast<std::size_t>(i)];
    CHECK(out(i) == doctest::Approx(std::sqrt(std::abs(x)) * x + 1.0 - static_cast<double>(i)).epsilon(1e-5));
  }
  for (st::index_t i = 0; i < 4; ++i)
    CHECK(head(i) == doctest::Approx(va[static_cast<std::size_t>(i)] + va[static_cast<std::size_t>(i + 3)] *
                                                                         va[static_cast<std::size_t>(i)]).epsilon(1e-6));
}

TEST_CASE_TEMPLATE("the trace records tied passes and reductions like assignments", P, st::host, st::par) {
  const st::index_t rows = 3, cols = 7;
  auto vm = random_floats(static_cast<std::size_t>(rows * cols), 11);
  auto vr = random_floats(static_cast<std::size_t>(cols), 12);
  st::array<float, 2, P> m({rows, cols});
  std::copy(vm.begin(), vm.end(), m.begin());
  st::array<float, 1, P> row({cols});
  std::copy(vr.begin(), vr.end(), row.begin());
  st::array<double, 2, P> d({rows, cols});
  st::array<float, 2, P> e({rows, cols});
  const std::string pol = std::is_same_v<P, st::par> ? "par" : "host";

  st::trace_scope t;
  st::tie(d, e) = std::tuple(st::cast<double>(m * row), m - 1.f);
  const double total = st::sum(m * m);
  const auto by_row = st::sum(m * row, st::axis(1));
  const auto passes = t.passes();
  REQUIRE(passes.size() == 3);
  // The tie: both outputs on the left, m and row read once between them.
  CHECK(passes[0].policy == pol);
  CHECK(passes[0].expression ==
        "(float64[3,7], float32[3,7]) = (cast(multiply(float32[3,7], float32[7])), subtract(float32[3,7], scalar<float32>))");
  CHECK(passes[0].elements == rows * cols);
  CHECK(passes[0].bytes_read == static_cast<std::size_t>(rows * cols + cols) * sizeof(float));
  CHECK(passes[0].bytes_written == static_cast<std::size_t>(rows * cols) * (sizeof(double) + sizeof(float)));
  // The reductions: the reduction's name around its operand.
  CHECK(passes[1].expression == "sum(multiply(float32[3,7], float32[3,7]))");
  CHECK(passes[1].bytes_read == static_cast<std::size_t>(rows * cols) * sizeof(float));
  CHECK(passes[2].expression == "sum(multiply(float32[3,7], float32[7]))");
  CHECK(passes[2].bytes_read == static_cast<std::size_t>(rows * cols + cols) * sizeof(float));
  CHECK(passes[2].bytes_written == static_cast<std::size_t>(rows) * sizeof(float));

  double ref_total = 0;
  st::index_t bad = 0;
  for (st::index_t i = 0; i < rows; ++i) {
    double ref_row = 0;
    for (st::index_t j = 0; j < cols; ++j) {
      const double x = vm[static_cast<std::size_t>(i * cols + j)], r = vr[static_cast<std::size_t>(j)];
      ref_total += x * x;
      ref_row += x * r;
      if (d(i, j) != static_cast<double>(static_cast<float>(x * r))) ++bad;
      if (e(i, j) != static_cast<float>(x - 1.0)) ++bad;
    }
    if (!(std::abs(by_row(i) - ref_row) <= 1e-5 * std::max(1.0, std::abs(ref_row)))) ++bad;
  }
  CHECK(bad == 0);
  CHECK(total == doctest::Approx(ref_total).epsilon(1e-5));
}
