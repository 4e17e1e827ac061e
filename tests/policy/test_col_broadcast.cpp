// Column broadcasts on host and par (policy/host/buffered.hpp): a pass whose
// output rows are contiguous and whose operands read their rows at stride 1
// or 0 (`exp(x - m)`, m of shape (n, 1)) runs the buffered path's blocks at
// full length, streamed or not, each broadcast operand's buffer filled with
// its row's one value, and refilled only from where the previous block of
// the same row stopped. Checked against a double-precision scalar loop on
// random data: float, double and int32; shapes 1 x N, N x 1, primes, 0 rows,
// rows longer than a block (several blocks per row), par's chunks starting
// inside a row; the broadcast operand a column of a wider matrix, the input
// with its rows reversed, the output a block of a wider matrix, a broadcast
// operand beside a gathered one (reversed columns), streaming on and off;
// and row softmax and standardisation written with keepdims reductions.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <sinter/sinter.hpp>
#include <string>
#include <utility>
#include <vector>

#include "support/row_paths.hpp"
#include "support/scale.hpp"
#include "support/streaming.hpp"

namespace st = sinter;

namespace {

// n random values: [-8, 8) for floating types, [-1000, 1000] for integers.
template <class T>
std::vector<T> col_values(std::size_t n, unsigned seed) {
  if constexpr (std::is_floating_point_v<T>) {
    return sinter_test::random_values<T>(n, seed);
  } else {
    std::mt19937 g(seed);
    std::uniform_int_distribution<int> d(-1000, 1000);
    std::vector<T> v(n);
    for (auto& x : v) x = static_cast<T>(d(g));
    return v;
  }
}

template <class T, class P>
st::array<T, 2, P> col_filled(const std::vector<T>& v, st::index_t rows, st::index_t cols) {
  st::array<T, 2, P> a({rows, cols});
  for (std::size_t i = 0; i < v.size(); ++i) a.data()[i] = v[i];
  return a;
}

template <class T>
bool col_near(double got, double want) {
  if constexpr (std::is_floating_point_v<T>) return sinter_test::close<T>(got, want);
  else return got == want;
}

// Rows x cols: one row, one column, primes, 0 rows, rows of several blocks
// (1024 positions each), and for par sizes above 2 * par_grain, cut inside rows.
std::vector<std::pair<st::index_t, st::index_t>> col_shapes() {
  std::vector<std::pair<st::index_t, st::index_t>> s{{1, 1},  {1, 257},  {257, 1}, {0, 5},   {5, 0},
                                                     {3, 63}, {7, 64},   {13, 97}, {3, 1024}, {5, 1031},
                                                     {2, 3001}, {1, 4099}, {31, 7}};
  if (sinter_test::scale == 1) {
    s.push_back({37, 3001});                                  // par chunks start inside rows
    s.push_back({2 * st::detail::par_grain / 1021 + 3, 1021});  // par splits whole rows
  }
  return s;
}

}  // namespace

#define SINTER_COL_TYPES                                                                                    \
  std::pair<st::host, float>, std::pair<st::host, double>, std::pair<st::host, std::int32_t>,              \
      std::pair<st::par, float>, std::pair<st::par, double>, std::pair<st::par, std::int32_t>

TEST_CASE_TEMPLATE("column broadcast: x - m and its views, against a scalar loop", PT, SINTER_COL_TYPES) {
  using P = typename PT::first_type;
  using T = typename PT::second_type;
  st::set_num_threads(2);
  for (const bool stream : {false, true}) {
    const sinter_test::streaming_scope ss(stream);
    for (const auto& rc : col_shapes()) {
      const st::index_t rows = rc.first, cols = rc.second;
      const auto xv = col_values<T>(static_cast<std::size_t>(rows * cols), 71);
      const auto wv = col_values<T>(static_cast<std::size_t>(rows * 5), 72);
      const auto x = col_filled<T, P>(xv, rows, cols);
      const auto w = col_filled<T, P>(wv, rows, 5);                   // m is its column 2, stride 5
      const auto m = w(st::all, st::slice(2, 3));                  // (rows, 1)
      const auto k = st::array<T, 2, P>(w(st::all, st::slice(4, 5)));  // a whole (rows, 1) array
      const auto xr = x(st::slice(st::none, st::none, -1), st::all);   // rows reversed
      const auto xc = x(st::all, st::slice(st::none, st::none, -1));   // columns reversed (gathered)
      st::array<T, 2, P> wide({rows, cols + 3});
      auto out = wide(st::all, st::slice(1, cols + 1));                // rows contiguous, not the whole
      for (int which = 0; which < 4; ++which) {
        wide = T(-7);
        st::trace_scope t;
        if (which == 0) out = x - k;
        if (which == 1) out = (xr - m) * T(3) + k;
        if (which == 2) out = (k - xc) * (x + m);  // a broadcast beside a gathered operand
        if (which == 3) out = T(2) * m - x;
        const auto passes = t.passes();
        const std::string detail = passes.empty() ? std::string() : passes[0].detail;
        if (rows == 0 || cols == 0) CHECK_MESSAGE(detail.find("empty") == 0, detail);
        // rows > 1, cols > 1: a broadcast and a row-contiguous output cannot fold to one run.
        if (rows > 1 && cols > 1) CHECK_MESSAGE(detail.find("strided") != std::string::npos, detail);
        st::index_t bad = 0;
        for (st::index_t i = 0; i < rows; ++i) {
          const double mm = static_cast<double>(wv[static_cast<std::size_t>(i * 5 + 2)]);
          const double kk = static_cast<double>(wv[static_cast<std::size_t>(i * 5 + 4)]);
          if (wide(i, 0) != T(-7) || wide(i, cols + 1) != T(-7)) ++bad;
          for (st::index_t j = 0; j < cols; ++j) {
            const auto at = [&](st::index_t r, st::index_t c) { return static_cast<double>(xv[static_cast<std::size_t>(r * cols + c)]); };
            double want = 0;
            if (which == 0) want = at(i, j) - kk;
            if (which == 1) want = (at(rows - 1 - i, j) - mm) * 3 + kk;
            if (which == 2) want = (kk - at(i, cols - 1 - j)) * (at(i, j) + mm);
            if (which == 3) want = 2 * mm - at(i, j);
            if (!col_near<T>(static_cast<double>(out(i, j)), want)) ++bad;
          }
        }
        CHECK_MESSAGE(bad == 0, which << ", " << rows << " x " << cols << (stream ? " streamed" : "") << ": "
                                      << bad << " wrong (" << detail << ")");
      }
    }
  }
  st::set_num_threads(0);
}

TEST_CASE_TEMPLATE("column broadcast: exp(x - max), softmax and standardisation rows", PT,
                   std::pair<st::host, float>, std::pair<st::host, double>, std::pair<st::par, float>,
                   std::pair<st::par, double>) {
  using P = typename PT::first_type;
  using T = typename PT::second_type;
  st::set_num_threads(2);
  for (const bool stream : {false, true}) {
    const sinter_test::streaming_scope ss(stream);
    for (const auto& rc : col_shapes()) {
      const st::index_t rows = rc.first, cols = rc.second;
      if (cols == 0) continue;  // max along an empty axis throws
      const auto xv = col_values<T>(static_cast<std::size_t>(rows * cols), 73);
      const auto x = col_filled<T, P>(xv, rows, cols);
      const st::array<T, 2, P> m = st::max(x, st::axis(1), st::keepdims);
      st::array<T, 2, P> e({rows, cols}), sm({rows, cols}), z({rows, cols});
      {
        st::trace_scope t;
        e = st::exp(x - m);
        if (rows > 1 && cols > 1) CHECK_MESSAGE(sinter_test::only_pass(t).find("strided") != std::string::npos, sinter_test::only_pass(t));
      }
      {
        const st::array<T, 2, P> e2 = st::exp(x - st::max(x, st::axis(1), st::keepdims));
        sm = e2 / st::sum(e2, st::axis(1), st::keepdims);
      }
      z = (x - st::mean(x, st::axis(1), st::keepdims)) / st::std(x, st::axis(1), st::keepdims);
      st::index_t bad = 0;
      for (st::index_t i = 0; i < rows; ++i) {
        const auto at = [&](st::index_t c) { return static_cast<double>(xv[static_cast<std::size_t>(i * cols + c)]); };
        double mx = at(0), s = 0, mean = 0;
        for (st::index_t j = 0; j < cols; ++j) mx = std::max(mx, at(j));
        for (st::index_t j = 0; j < cols; ++j) {
          s += std::exp(at(j) - mx);
          mean += at(j);
        }
        mean /= static_cast<double>(cols);
        double ss2 = 0;
        for (st::index_t j = 0; j < cols; ++j) ss2 += (at(j) - mean) * (at(j) - mean);
        const double sd = std::sqrt(ss2 / static_cast<double>(cols));
        for (st::index_t j = 0; j < cols; ++j) {
          const double ex = std::exp(at(j) - mx);
          if (!sinter_test::close<T>(static_cast<double>(e(i, j)), ex)) ++bad;
          if (!sinter_test::close<T>(static_cast<double>(sm(i, j)), ex / s)) ++bad;
          // (x - mean) / sd: cols = 1 gives 0 / 0; the difference's rounding is relative to x, not to it.
          if (cols > 1) {
            const double want = (at(j) - mean) / sd;
            const double tol = 64 * static_cast<double>(std::numeric_limits<T>::epsilon()) * (8 / sd + std::abs(want));
            if (!(std::abs(static_cast<double>(z(i, j)) - want) <= tol)) ++bad;
          }
        }
      }
      CHECK_MESSAGE(bad == 0, rows << " x " << cols << (stream ? " streamed" : "") << ": " << bad << " wrong");
    }
  }
  st::set_num_threads(0);
}

TEST_CASE("column broadcast: a rank-1 pass over a broadcast one-element array, and rank 3") {
  for (const st::index_t n : {1, 63, 64, 1025, 4099}) {
    const auto v = col_values<float>(static_cast<std::size_t>(n), 74);
    st::array<float, 1> a({n}), one({1}), out({n});
    for (st::index_t i = 0; i < n; ++i) a(i) = v[static_cast<std::size_t>(i)];
    one(0) = 1.5f;
    out = st::exp(a - one);
    st::index_t bad = 0;
    for (st::index_t i = 0; i < n; ++i)
      if (!sinter_test::close<float>(static_cast<double>(out(i)), std::exp(static_cast<double>(v[static_cast<std::size_t>(i)]) - 1.5))) ++bad;
    CHECK_MESSAGE(bad == 0, n << ": " << bad << " wrong");
  }
  // (3, 5, 1100) - (3, 5, 1): each of the 15 rows two blocks.
  const st::index_t a0 = 3, a1 = 5, c = 1100;
  const auto xv = col_values<double>(static_cast<std::size_t>(a0 * a1 * c), 75);
  const auto mv = col_values<double>(static_cast<std::size_t>(a0 * a1), 76);
  st::array<double, 3> x({a0, a1, c}), m({a0, a1, 1}), out({a0, a1, c});
  for (std::size_t i = 0; i < xv.size(); ++i) x.data()[i] = xv[i];
  for (std::size_t i = 0; i < mv.size(); ++i) m.data()[i] = mv[i];
  out = x * m - m;
  st::index_t bad = 0;
  for (st::index_t r = 0; r < a0 * a1; ++r)
    for (st::index_t j = 0; j < c; ++j) {
      const double mm = mv[static_cast<std::size_t>(r)], xx = xv[static_cast<std::size_t>(r * c + j)];
      if (!sinter_test::close<double>(out.data()[r * c + j], xx * mm - mm)) ++bad;
    }
  CHECK(bad == 0);
}
