// Fusion: any elementwise expression, however long, with broadcasting and
// views, runs as exactly one pass and allocates nothing (trace hook).
#include <doctest/doctest.h>

#include "support/scale.hpp"

#include <algorithm>
#include <cmath>
#include <random>
#include <sinter/sinter.hpp>
#include <vector>

namespace st = sinter;

namespace {

// Step K of a chain applies one of five ops (cycling) to x, reading b and c;
// ref_step is the same step in double, the reference.
template <int K, class X, class B, class C>
auto chain_step(X x, const B& b, const C& c) {
  if constexpr (K % 5 == 0) return x + b;
  else if constexpr (K % 5 == 1) return x * 0.5f;
  else if constexpr (K % 5 == 2) return st::tanh(x - c);
  else if constexpr (K % 5 == 3) return st::where(x > 0.f, x, x * b);
  else return st::sqrt(st::abs(x)) + 1.f;
}

double ref_step(int k, double x, double b, double c) {
  switch (k % 5) {
    case 0: return x + b;
    case 1: return x * 0.5;
    case 2: return std::tanh(x - c);
    case 3: return x > 0 ? x : x * b;
    default: return std::sqrt(std::abs(x)) + 1.0;
  }
}

template <int N, int K = 0, class X, class B, class C>
auto chain(X x, const B& b, const C& c) {
  if constexpr (K == N) return x;
  else return chain<N, K + 1>(chain_step<K>(x, b, c), b, c);
}

std::vector<float> random_floats(std::size_t n, unsigned seed) {
  std::mt19937 g(seed);
  std::uniform_real_distribution<float> d(-2.f, 2.f);
  std::vector<float> v(n);
  for (auto& x : v) x = d(g);
  return v;
}

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
// the sanitizer build still runs the strided/broadcast 20-op chain below.
TEST_CASE_TEMPLATE("chains of 1 to 20 ops run as one pass with no temporary" *
                       doctest::skip(sinter_test::scale > 1),
                   P, st::host, st::par) {
  // Debug and sanitizer builds (scale > 1) evaluate every node out of line:
  // there the large size, which only exercises par's threads, is skipped.
  const st::index_t big = sinter_test::scale == 1 ? 200003 : 1000;
  for (st::index_t n : {st::index_t{1}, st::index_t{7}, st::index_t{1000}, big}) all_chains<P>(std::make_integer_sequence<int, 20>{}, n);
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
