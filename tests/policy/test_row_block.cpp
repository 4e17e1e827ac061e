// Row softmax and row standardisation by route::row_blocks (rows.hpp): per
// block of rows, the row reductions, then the consumer while the rows are in
// cache. Checked on random data against a double-precision scalar loop, and
// element for element against the two-pass forms they replace
// (`e = exp(x - max(x, axis(1), keepdims))` evaluated, then
// `e / sum(e, axis(1), keepdims)`; `(x - mean(...)) / std(...)`), whose code
// each block runs: float and
// double, host and par on 1, 2 and 3 threads; shapes of 1 row, 1 column, 0
// rows, 0 columns, primes, 4097 x 1023 (several blocks, par's chunks); rows
// reversed, columns at step 2, columns reversed, an output that is a block of
// a wider matrix, in place, an output overlapping the input transposed (the
// two-pass form through a temporary), rank 1 and 3 (the two-pass forms). The
// route is checked through the trace; cuda's consumer passes (its two-pass
// forms) through the grid emulator of the CUDA kernel body.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <sinter/rows.hpp>
#include <sinter/sinter.hpp>
#include <string>
#include <utility>
#include <vector>

#include "support/row_paths.hpp"
#include "support/scale.hpp"

namespace st = sinter;

namespace {

template <class T, class P>
st::array<T, 2, P> rb_filled(st::index_t rows, st::index_t cols, unsigned seed) {
  st::array<T, 2, P> a({rows, cols});
  const auto v = sinter_test::random_values<T>(static_cast<std::size_t>(rows * cols), seed);
  for (std::size_t i = 0; i < v.size(); ++i) a.data()[i] = v[i];
  return a;
}

std::vector<std::pair<st::index_t, st::index_t>> rb_shapes() {
  // Sanitizer and nvcc builds (SINTER_TEST_SCALE 16) take a smaller large
  // shape: still several blocks and two of par's chunks.
  const st::index_t rb_rows = SINTER_TEST_SCALE > 1 ? 517 : 4097;
  return {{1, 1}, {1, 37}, {29, 1}, {0, 5}, {13, 17}, {3, 1031}, {131, 257}, {rb_rows, SINTER_TEST_SCALE > 1 ? 263 : 1023}};
}

/// Counts the elements of `got` (an array of x's shape) that differ from the
/// double reference of row softmax (Soft) or standardisation of x.
template <bool Soft, class T, class G, class X>
st::index_t rb_bad_vs_double(const G& got, const X& x) {
  const st::index_t rows = x.shape()[0], cols = x.shape()[1];
  const double eps = static_cast<double>(std::numeric_limits<T>::epsilon());
  st::index_t bad = 0;
  for (st::index_t i = 0; i < rows; ++i) {
    const auto at = [&](st::index_t c) { return static_cast<double>(x(i, c)); };
    double mx = at(0), s = 0, mean = 0, ss = 0;
    for (st::index_t j = 0; j < cols; ++j) mx = std::max(mx, at(j)), mean += at(j);
    mean /= static_cast<double>(cols);
    for (st::index_t j = 0; j < cols; ++j) s += std::exp(at(j) - mx), ss += (at(j) - mean) * (at(j) - mean);
    const double sd = std::sqrt(ss / static_cast<double>(cols));
    for (st::index_t j = 0; j < cols; ++j) {
      const double g = static_cast<double>(got(i, j));
      if constexpr (Soft) {
        const double want = std::exp(at(j) - mx) / s;
        if (!(std::abs(g - want) <= 64 * eps * want)) ++bad;
      } else if (cols > 1) {  // one column: 0 / 0
        const double want = (at(j) - mean) / sd;
        if (!(std::abs(g - want) <= 64 * eps * (8 / sd + std::abs(want)))) ++bad;
      } else if (!std::isnan(g)) {
        ++bad;
      }
    }
  }
  return bad;
}

/// Elements of a and b (same shape) whose bits differ (NaN equals NaN).
template <class A, class B>
st::index_t rb_bits_differ(const A& a, const B& b) {
  st::index_t bad = 0;
  for (st::index_t i = 0; i < a.shape()[0]; ++i)
    for (st::index_t j = 0; j < a.shape()[1]; ++j) {
      const auto u = a(i, j), v = b(i, j);
      if (std::memcmp(&u, &v, sizeof u) != 0) ++bad;
    }
  return bad;
}

/// The two-pass forms, as written before rows.hpp (softmax with e evaluated).
template <class T, class P, class X>
st::array<T, 2, P> rb_softmax_two_pass(const X& x) {
  const st::array<T, 2, P> e = st::exp(x - st::max(x, st::axis(1), st::keepdims));
  return e / st::sum(e, st::axis(1), st::keepdims);
}
template <class T, class P, class X>
st::array<T, 2, P> rb_standardize_two_pass(const X& x) {
  return (x - st::mean(x, st::axis(1), st::keepdims)) / st::std(x, st::axis(1), st::keepdims);
}

}  // namespace

TEST_CASE_TEMPLATE("row blocks: softmax and standardize, values and route", PT, std::pair<st::host, float>,
                   std::pair<st::host, double>, std::pair<st::par, float>, std::pair<st::par, double>) {
  using P = typename PT::first_type;
  using T = typename PT::second_type;
  const bool parallel = std::is_same_v<P, st::par>;
  for (const int threads : parallel ? std::vector<int>{1, 2, 3} : std::vector<int>{1}) {
    st::set_num_threads(threads);
    for (const auto& rc : rb_shapes()) {
      const st::index_t rows = rc.first, cols = rc.second;
      if (rows * cols > 1 << 20 && parallel && threads == 1) continue;  // host's run has it
      CAPTURE(rows);
      CAPTURE(cols);
      CAPTURE(threads);
      const auto x = rb_filled<T, P>(rows, cols, 11);
      st::array<T, 2, P> sm({rows, cols}), z({rows, cols});
      {
        st::trace_scope t;
        st::softmax(x, sm);
        CHECK(sinter_test::only_pass(t).find("row blocks") == 0);
      }
      {
        st::trace_scope t;
        st::standardize(x, z);
        const std::string d = sinter_test::only_pass(t);
        CHECK(d.find("row blocks") == 0);
        if (parallel && threads > 1 && rows * cols >= 2 * st::detail::par_grain)
          CHECK_MESSAGE(d.find(std::to_string(threads) + " threads") != std::string::npos, d);
      }
      CHECK(rb_bad_vs_double<true, T>(sm, x) == 0);
      CHECK(rb_bad_vs_double<false, T>(z, x) == 0);
      CHECK(rb_bits_differ(sm, rb_softmax_two_pass<T, P>(x)) == 0);
      CHECK(rb_bits_differ(z, rb_standardize_two_pass<T, P>(x)) == 0);
      const st::array<T, 2, P> z1 =
          (x - st::mean(x, st::axis(1), st::keepdims)) / st::std(x, st::axis(1), st::keepdims, 1);
      CHECK(rb_bits_differ(st::standardize(x, 1), z1) == 0);
    }
  }
  st::set_num_threads(2);
}

TEST_CASE_TEMPLATE("row blocks: 0 columns, views, in place, overlap, other ranks", P, st::host, st::par) {
  st::set_num_threads(3);
  {  // rows of no element: softmax throws as max does (numpy, the two-pass form); standardize is empty
    const st::array<float, 2, P> x({4, 0});
    CHECK_THROWS_AS((void)st::softmax(x), st::value_error);
    CHECK(st::standardize(x).shape() == st::extents<2>{4, 0});
  }
  const st::index_t rows = 263, cols = 300;
  const auto w = rb_filled<double, P>(rows, 2 * cols + 1, 5);
  const auto views = [&](auto&& check) {
    check(w(st::slice(st::none, st::none, -1), st::slice(0, cols)));         // rows reversed
    check(w(st::all, st::slice(1, 2 * cols + 1, 2)));                         // columns at step 2
    check(w(st::slice(3, 200), st::slice(st::none, st::none, -1)));          // columns reversed
  };
  views([&](const auto& xv) {
    st::trace_scope t;
    const auto sm = st::softmax(xv);
    CHECK(sinter_test::only_pass(t).find("row blocks") == 0);
    CHECK(rb_bad_vs_double<true, double>(sm, xv) == 0);
    CHECK(rb_bits_differ(sm, rb_softmax_two_pass<double, P>(xv)) == 0);
    CHECK(rb_bits_differ(st::standardize(xv), rb_standardize_two_pass<double, P>(xv)) == 0);
  });
  {  // the output a block of a wider matrix
    st::array<double, 2, P> wide({rows, cols + 9});
    wide = 7.0;
    const auto x = rb_filled<double, P>(rows, cols, 6);
    st::softmax(x, wide(st::all, st::slice(4, cols + 4)));
    CHECK(rb_bits_differ(wide(st::all, st::slice(4, cols + 4)), rb_softmax_two_pass<double, P>(x)) == 0);
    CHECK(wide(0, 3) == 7.0);
    CHECK(wide(rows - 1, cols + 4) == 7.0);
  }
  {  // in place: each block's reductions are read before its rows are written
    auto x = rb_filled<float, P>(rows, cols, 8);
    const auto want = rb_softmax_two_pass<float, P>(x);
    st::trace_scope t;
    st::softmax(x, x);
    CHECK(sinter_test::only_pass(t).find("row blocks") == 0);
    CHECK(rb_bits_differ(x, want) == 0);
  }
  {  // the output is the input transposed: the two-pass form, through a temporary
    auto x = rb_filled<double, P>(97, 97, 9);
    const auto want = rb_standardize_two_pass<double, P>(st::transpose(x));
    st::standardize(st::transpose(x), x);
    CHECK(rb_bits_differ(x, want) == 0);
  }
  {  // an expression as input, and a result of another type (softmax of integers is double)
    const auto x = rb_filled<float, P>(rows, cols, 10);
    CHECK(rb_bits_differ(st::softmax(x * 2.0f + 1.0f), rb_softmax_two_pass<float, P>(x * 2.0f + 1.0f)) == 0);
    st::array<int, 2, P> k({3, 5});
    for (int i = 0; i < 15; ++i) k.data()[i] = i % 4 - 2;
    const st::array<double, 2, P> ks = st::softmax(k);
    CHECK(rb_bad_vs_double<true, double>(ks, k) == 0);
    st::array<float, 2, P> f({rows, cols});  // e cannot be stored in the output: the two-pass form
    const auto xd = rb_filled<double, P>(rows, cols, 16);
    st::softmax(xd, f);
    const st::array<float, 2, P> fd = st::cast<float>(rb_softmax_two_pass<double, P>(xd));
    CHECK(rb_bits_differ(f, fd) == 0);
  }
  {  // rank 1 and 3: the two-pass forms along the last axis
    const auto v = rb_filled<float, P>(1, 37, 12);
    const auto v1 = st::reshape(v, {37});
    const auto s1 = st::softmax(v1);
    const auto v3 = rb_filled<float, P>(6, 35, 13);
    const auto x3 = st::reshape(v3, {2, 3, 35});
    const auto s3 = st::softmax(x3);
    const auto z3 = st::standardize(x3);
    const auto s3r = st::softmax(v3);
    const auto z3r = st::standardize(v3);
    const auto s1r = st::softmax(v);
    for (st::index_t j = 0; j < 37; ++j) CHECK(s1(j) == s1r(0, j));
    for (st::index_t i = 0; i < 6; ++i)
      for (st::index_t j = 0; j < 35; ++j) {
        CHECK(s3(i / 3, i % 3, j) == s3r(i, j));
        CHECK(z3(i / 3, i % 3, j) == z3r(i, j));
      }
  }
  {  // a wrong output shape
    const auto x = rb_filled<float, P>(3, 4, 14);
    st::array<float, 2, P> out({3, 5});
    CHECK_THROWS_AS(st::softmax(x, out), st::shape_error);
  }
  st::set_num_threads(2);
}

namespace {
/// `out = e` by the CUDA kernel body, every thread of a grid of 3 blocks of
/// 64 threads run in turn on the CPU (as tests/policy/test_cuda_kernel_body.cpp).
template <class T, class E>
st::array<T, 2, st::host> rb_emulated(const E& e) {
  namespace cd = st::detail::cuda_detail;
  st::array<T, 2, st::host> out(e.shape());
  const st::detail::memory_leaf<T, 2> o{out.data(), out.shape(), out.strides()};
  const auto bound = e.node().bind(o.shape);
  const cd::kernel_plan plan = cd::choose_plan(o, bound);
  const auto sources = cd::find_leaf_sources(bound);
  const int n = static_cast<int>(st::detail::shape_size(o.shape));
  for (int tid = 0; tid < 3 * 64; ++tid)
    cd::fused_body<int>(o, bound, sources, n, plan.path, static_cast<int>(plan.head), tid, 3 * 64);
  return out;
}
}  // namespace

TEST_CASE("row blocks: cuda's two-pass consumers (grid emulator) give the same values") {
  // cuda runs the two-pass forms: its reductions (CUB) cannot run here, so
  // the host's are used; the consumer passes run the kernel body. The
  // standardisation's bits are the host's (no maths kernel).
  for (const auto& rc : rb_shapes()) {
    if (rc.first * rc.second > 1 << 16 || rc.second == 0) continue;
    const auto x = rb_filled<float, st::host>(rc.first, rc.second, 15);
    const st::array<float, 2, st::host> m = st::max(x, st::axis(1), st::keepdims);
    const auto e = rb_emulated<float>(st::exp(x - m));
    const st::array<float, 2, st::host> s = st::sum(e, st::axis(1), st::keepdims);
    // exp's rounding may differ between the host's vector kernel and the
    // body's scalar one: against the double reference
    CHECK(rb_bad_vs_double<true, float>(rb_emulated<float>(e / s), x) == 0);
    const st::array<float, 2, st::host> mu = st::mean(x, st::axis(1), st::keepdims);
    const st::array<float, 2, st::host> sd = st::std(x, st::axis(1), st::keepdims);
    CHECK(rb_bits_differ(rb_emulated<float>((x - mu) / sd), st::standardize(x)) == 0);
  }
}
