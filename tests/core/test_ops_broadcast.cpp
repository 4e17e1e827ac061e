// Ops through the public broadcasting API: operands of different ranks, a
// column made with newaxis, rank-0 arrays, sliced views with negative steps,
// against plain loops. (tests/core/test_ops_*.cpp cover every op and dtype on
// rank-2 views; this file covers the rank and indexing machinery.)
#include <sinter/sinter.hpp>

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>

namespace st = sinter;

TEST_CASE_TEMPLATE("ops: broadcasting across ranks, newaxis and rank-0 arrays", P, sinter::host, sinter::par) {
  // 600 x 300 = 180000 elements: above par's threshold, so par runs threaded.
  for (const st::index_t rows : {0, 1, 3, 600}) {
    CAPTURE(rows);
    int bad = 0;  // counted, not asserted per element: 180000 assertions are slow under ASan
    const st::index_t cols = rows == 600 ? 300 : 4;
    st::array<double, 2, P> m({rows, cols});
    st::array<float, 1, P> row({cols});
    st::array<std::int32_t, 1, P> col({rows});
    st::array<double, 0, P> s(st::extents<0>{});
    for (st::index_t i = 0; i < rows; ++i)
      for (st::index_t j = 0; j < cols; ++j) m(i, j) = static_cast<double>(i * 10 + j) - 7.25;
    for (st::index_t j = 0; j < cols; ++j) row(j) = static_cast<float>(j) * 0.5f - 1.f;
    for (st::index_t i = 0; i < rows; ++i) col(i) = static_cast<std::int32_t>(i % 7) - 3;
    s() = 2.5;

    st::array<double, 2, P> r = m + row;  // rank-1 row over a matrix
    static_assert(std::is_same_v<typename decltype(m + row)::value_type, double>);
    for (st::index_t i = 0; i < rows; ++i)
      for (st::index_t j = 0; j < cols; ++j) bad += !(r(i, j) == m(i, j) + static_cast<double>(row(j)));

    r = m * col(st::all, st::newaxis);  // column via newaxis
    for (st::index_t i = 0; i < rows; ++i)
      for (st::index_t j = 0; j < cols; ++j) bad += !(r(i, j) == m(i, j) * col(i));

    r = st::maximum(m - s, col(st::all, st::newaxis) * row);  // rank-0 array; outer product
    for (st::index_t i = 0; i < rows; ++i)
      for (st::index_t j = 0; j < cols; ++j)
        bad += !(r(i, j) == std::fmax(m(i, j) - 2.5, static_cast<double>(static_cast<float>(col(i)) * row(j))));

    // Reversed and stepped slices of both operands, written into a reversed slice.
    if (rows > 0) {
      st::array<double, 2, P> out({rows, cols});
      out = 0.0;
      auto rev = m(st::slice(st::none, st::none, -1), st::slice(st::none, st::none, -1));
      out(st::all, st::slice(st::none, st::none, -1)) = st::where(rev > 0.0, rev, row * 2.f);
      for (st::index_t i = 0; i < rows; ++i)
        for (st::index_t j = 0; j < cols; ++j) {
          const double v = m(rows - 1 - i, cols - 1 - j);
          bad += !(out(i, cols - 1 - j) == (v > 0 ? v : static_cast<double>(row(j) * 2.f)));
        }
      auto stepped = m(st::slice(st::none, st::none, 2), st::slice(1, st::none, 2));  // rows 0,2,..; cols 1,3,..
      st::array<double, 2, P> e = st::exp(stepped * 0.01) - s;
      REQUIRE(e.shape() == st::extents<2>{(rows + 1) / 2, cols / 2});
      for (st::index_t i = 0; i < e.shape(0); ++i)
        for (st::index_t j = 0; j < e.shape(1); ++j) {
          const double want = std::exp(m(2 * i, 2 * j + 1) * 0.01) - 2.5;  // exp: a few ULP, not exact
          bad += !(std::fabs(e(i, j) - want) <= 1e-14 * std::fmax(1.0, std::fabs(want)));
        }
    }
    CHECK(bad == 0);
  }
}

TEST_CASE_TEMPLATE("ops: a rank-0 expression assigned into an array broadcasts", P, sinter::host, sinter::par) {
  st::array<std::int16_t, 0, P> z(st::extents<0>{});
  z() = 7;
  st::array<std::int16_t, 2, P> a({2, 3});
  a = z * std::int16_t{3} - 1;
  for (auto v : a) CHECK(v == 20);
  st::array<std::int16_t, 0, P> w = -z;
  CHECK(w() == -7);
}
