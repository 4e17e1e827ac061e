// Fusion with layouts: chains of 1 to 20 ops whose operands are broadcast
// (a row and a column over a matrix) or strided views (step 2, reversed)
// still run as exactly one pass with no allocation, and match a double
// reference. A file of its own: these instantiations dominate compile time.
#include <doctest/doctest.h>

#include "support/chains.hpp"
#include "support/scale.hpp"

#include <algorithm>
#include <cmath>
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

// Checks the single pass of an N-op chain: one pass of n elements, no
// allocation, the strided/broadcast path when `strided`, par's threads above
// its threshold.
template <class P>
void check_single_pass(const st::trace_scope& t, st::index_t n, bool strided) {
  const auto passes = t.passes();
  REQUIRE(passes.size() == 1);
  CHECK(t.allocations() == 0);
  CHECK(passes[0].elements == n);
  if (strided) CHECK_MESSAGE(passes[0].detail.find("strided") != std::string::npos, passes[0].detail);
  if (std::is_same_v<P, st::par> && n >= 2 * st::detail::par_grain && st::get_num_threads() > 1)
    CHECK_MESSAGE(passes[0].detail.find(" threads") != std::string::npos, passes[0].detail);
}

// An N-op chain over a (rows, cols) matrix with b a row broadcast over it and
// c a column (rows, 1) broadcast across it.
template <int N, class P>
void check_chain_broadcast(st::index_t rows, st::index_t cols) {
  const auto vm = random_floats(static_cast<std::size_t>(rows * cols), 7);
  const auto vr = random_floats(static_cast<std::size_t>(cols), 8), vc = random_floats(static_cast<std::size_t>(rows), 9);
  st::array<float, 2, P> m({rows, cols}), out({rows, cols});
  st::array<float, 1, P> row({cols}), col({rows});
  std::copy(vm.begin(), vm.end(), m.begin());
  std::copy(vr.begin(), vr.end(), row.begin());
  std::copy(vc.begin(), vc.end(), col.begin());
  const auto column = col(st::all, st::newaxis);
  st::trace_scope t;
  out = chain<N>(m(st::all, st::all), row, column);
  check_single_pass<P>(t, rows * cols, rows > 1 && cols > 1);
  st::index_t bad = 0;
  for (st::index_t i = 0; i < rows; ++i)
    for (st::index_t j = 0; j < cols; ++j) {
      double x = vm[static_cast<std::size_t>(i * cols + j)];
      for (int k = 0; k < N; ++k) x = ref_step(k, x, vr[static_cast<std::size_t>(j)], vc[static_cast<std::size_t>(i)]);
      if (!(std::abs(out(i, j) - x) <= 1e-4 * std::max(1.0, std::abs(x)))) ++bad;
    }
  CHECK_MESSAGE(bad == 0, N << "-op broadcast chain, " << rows << " x " << cols << ": " << bad
                            << " elements differ from the double reference");
}

// An N-op chain over strided views: x = a[::2], b = b[::-1], c = c[-1::-2].
template <int N, class P>
void check_chain_strided(st::index_t n) {
  const auto m = static_cast<std::size_t>(n);
  const auto va = random_floats(2 * m, 10), vb = random_floats(m, 11), vc = random_floats(2 * m, 12);
  st::array<float, 1, P> a({2 * n}), b({n}), c({2 * n}), out({n});
  std::copy(va.begin(), va.end(), a.begin());
  std::copy(vb.begin(), vb.end(), b.begin());
  std::copy(vc.begin(), vc.end(), c.begin());
  const auto xs = a(st::slice(0, st::end, 2));
  const auto br = b(st::slice(st::none, st::none, -1));
  const auto cr = c(st::slice(-1, st::none, -2));
  REQUIRE(xs.shape()[0] == n);
  REQUIRE(cr.shape()[0] == n);
  st::trace_scope t;
  out = chain<N>(xs, br, cr);
  check_single_pass<P>(t, n, n > 1);
  st::index_t bad = 0;
  for (std::size_t i = 0; i < m; ++i) {
    double x = va[2 * i];
    for (int k = 0; k < N; ++k) x = ref_step(k, x, vb[m - 1 - i], vc[2 * m - 1 - 2 * i]);
    if (!(std::abs(out(static_cast<st::index_t>(i)) - x) <= 1e-4 * std::max(1.0, std::abs(x)))) ++bad;
  }
  CHECK_MESSAGE(bad == 0, N << "-op strided chain, n = " << n << ": " << bad << " elements differ from the double reference");
}

template <class P, int... N>
void all_broadcast_chains(std::integer_sequence<int, N...>, st::index_t rows, st::index_t cols) {
  (check_chain_broadcast<N + 1, P>(rows, cols), ...);
}

template <class P, int... N>
void all_strided_chains(std::integer_sequence<int, N...>, st::index_t n) {
  (check_chain_strided<N + 1, P>(n), ...);
}

}  // namespace

// The same 1..20 sweep with broadcast operands and with strided views. Small
// shapes in Debug and sanitizer builds (scale > 1); Release adds one above
// par's threading threshold.
TEST_CASE_TEMPLATE("chains of 1 to 20 ops with a row and a column broadcast over a matrix: one pass, no temporary",
                   P, st::host, st::par) {
  all_broadcast_chains<P>(chain_lengths{}, 1, 1);
  all_broadcast_chains<P>(chain_lengths{}, 7, 33);
  if (sinter_test::scale == 1) all_broadcast_chains<P>(chain_lengths{}, 129, 521);
}

TEST_CASE_TEMPLATE("chains of 1 to 20 ops over step-2 and reversed slices: one pass, no temporary", P, st::host,
                   st::par) {
  for (st::index_t n : {st::index_t{1}, st::index_t{7}, st::index_t{1009}})
    all_strided_chains<P>(chain_lengths{}, n);
  if (sinter_test::scale == 1)
    all_strided_chains<P>(chain_lengths{}, 2 * st::detail::par_grain + 5);
}

