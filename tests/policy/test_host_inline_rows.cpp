// assign's inline path by rows (evaluate.hpp, host.hpp inline_rows_ok,
// policy/host/loop.hpp store_rows): an untraced rank-2 pass into a contiguous
// output whose leaves read their rows at stride 1 (a row broadcast, a block
// of a wider matrix, a scalar) runs row by row in assign's caller, after
// rows_overlap has checked that no input overlaps the output with another
// mapping. No trace here: a trace sends every pass down the general path.
// Checked against a double-precision scalar loop on random data, at odd
// row lengths around the 64-byte line (1, 2, 15, 16, 17, 31, 1000, 1031),
// outputs and inputs starting inside their buffers, sentinels after the
// output; and each kind of overlap rows_overlap must catch (an operand's
// rows reaching past the output's element count, rows read backwards, a row
// of the output broadcast), each of which gives wrong values if missed;
// and a plain copy whose rows are long enough for memmove (copy_range).
#include <doctest/doctest.h>

#include <cmath>
#include <sinter/sinter.hpp>
#include <utility>
#include <vector>

#include "support/row_paths.hpp"

namespace st = sinter;

using sinter_test::close;
using sinter_test::random_values;

namespace {

/// A float or double buffer of n random values from seed, as a host vector.
template <class T>
std::vector<T> inline_rows_values(st::index_t n, unsigned seed) {
  return random_values<T>(static_cast<std::size_t>(n), seed);
}

}  // namespace

#define SINTER_INLINE_ROWS_TYPES \
  std::pair<st::host, float>, std::pair<st::host, double>, std::pair<st::par, float>, std::pair<st::par, double>

TEST_CASE_TEMPLATE("inline rows: a row broadcast into a block of rows, every row length", PT,
                   SINTER_INLINE_ROWS_TYPES) {
  using P = typename PT::first_type;
  using T = typename PT::second_type;
  for (const st::index_t cols : {1, 2, 15, 16, 17, 31, 1000, 1031})
    for (const st::index_t rows : {1, 2, 3, 7, 40}) {
      // m read as m[:, 1:] of rows cols + 1 apart: its rows are not
      // adjacent, so the pass is not contiguous. The output is rows 1 to
      // rows + 1 of a buffer of rows + 2: it starts a row in, sentinels after.
      const st::index_t ip = cols + 1;
      const auto vm = inline_rows_values<T>(rows * ip, 61);
      const auto vr = inline_rows_values<T>(cols + 1, 62);
      st::array<T, 2, P> m({rows, ip}), buf({rows + 2, cols});
      st::array<T, 1, P> row({cols + 1});
      for (st::index_t i = 0; i < rows * ip; ++i) m.data()[i] = vm[static_cast<std::size_t>(i)];
      for (st::index_t j = 0; j <= cols; ++j) row(j) = vr[static_cast<std::size_t>(j)];
      buf = T(-5);
      buf(st::slice(1, rows + 1), st::all) = m(st::all, st::slice(1, st::end)) * T(0.5) + row(st::slice(1, st::end));
      st::index_t bad = 0;
      for (st::index_t j = 0; j < cols; ++j)
        if (buf(0, j) != T(-5) || buf(rows + 1, j) != T(-5)) ++bad;
      for (st::index_t i = 0; i < rows; ++i)
        for (st::index_t j = 0; j < cols; ++j) {
          const double want = static_cast<double>(vm[static_cast<std::size_t>(i * ip + j + 1)]) * 0.5 +
                              static_cast<double>(vr[static_cast<std::size_t>(j + 1)]);
          if (!close<T>(static_cast<double>(buf(i + 1, j)), want)) ++bad;
        }
      CHECK_MESSAGE(bad == 0, rows << " x " << cols << ": " << bad << " wrong elements");
    }
}

TEST_CASE_TEMPLATE("inline rows: maths, a cast, a generator and a scalar alone", PT, SINTER_INLINE_ROWS_TYPES) {
  using P = typename PT::first_type;
  using T = typename PT::second_type;
  for (const st::index_t cols : {3, 16, 37}) {
    const st::index_t rows = 5;
    const auto vm = inline_rows_values<T>(rows * cols, 63);
    const auto vr = inline_rows_values<T>(cols, 64);
    st::array<T, 2, P> m({rows, cols}), out({rows, cols});
    st::array<T, 1, P> row({cols});
    st::array<int, 1, P> k({cols});
    for (st::index_t i = 0; i < rows * cols; ++i) m.data()[i] = vm[static_cast<std::size_t>(i)];
    for (st::index_t j = 0; j < cols; ++j) {
      row(j) = vr[static_cast<std::size_t>(j)];
      k(j) = static_cast<int>(3 * j - 7);
    }
    // exp (an explicit vector loop, stored through store_range_call per
    // row), an int row cast to T, arange along the rows.
    out = st::exp(m * T(0.25) + row) - st::cast<T>(k) * T(0.5) + st::arange<T>(cols);
    st::index_t bad = 0;
    for (st::index_t i = 0; i < rows; ++i)
      for (st::index_t j = 0; j < cols; ++j) {
        const double want = std::exp(static_cast<double>(vm[static_cast<std::size_t>(i * cols + j)]) * 0.25 +
                                     static_cast<double>(vr[static_cast<std::size_t>(j)])) -
                            static_cast<double>(3 * j - 7) * 0.5 + static_cast<double>(j);
        if (!close<T>(static_cast<double>(out(i, j)), want)) ++bad;
      }
    CHECK_MESSAGE(bad == 0, "cols = " << cols << ": " << bad << " wrong elements");
    // A row alone, broadcast down the matrix: a copy per row.
    out = row;
    bad = 0;
    for (st::index_t i = 0; i < rows; ++i)
      for (st::index_t j = 0; j < cols; ++j)
        if (out(i, j) != vr[static_cast<std::size_t>(j)]) ++bad;
    CHECK_MESSAGE(bad == 0, "copy of a row, cols = " << cols << ": " << bad << " wrong elements");
  }
}

TEST_CASE_TEMPLATE("inline rows: a row copied down a matrix, rows long enough for memmove", PT,
                   SINTER_INLINE_ROWS_TYPES) {
  using P = typename PT::first_type;
  using T = typename PT::second_type;
  // Rows of 36 KiB and more: a plain copy's rows go to copy_range
  // (SINTER_MEMMOVE_MIN_BYTES, 32 KiB), shorter ones to the loop.
  for (const st::index_t cols : {st::index_t{36864 / sizeof(T)} + 1, st::index_t{1000}}) {
    const auto vr = inline_rows_values<T>(cols + 1, 69);
    st::array<T, 1, P> row({cols + 1});
    for (st::index_t j = 0; j <= cols; ++j) row(j) = vr[static_cast<std::size_t>(j)];
    st::array<T, 2, P> out({3, cols});
    out = T(-5);
    out = row(st::slice(1, st::end));
    st::index_t bad = 0;
    for (st::index_t i = 0; i < 3; ++i)
      for (st::index_t j = 0; j < cols; ++j)
        if (out(i, j) != vr[static_cast<std::size_t>(j + 1)]) ++bad;
    CHECK_MESSAGE(bad == 0, "cols = " << cols << ": " << bad << " wrong elements");
  }
}

// ---- overlaps: numpy's result, the right side evaluated first -----------------

TEST_CASE_TEMPLATE("inline rows: an operand whose rows reach past the output's elements", PT,
                   SINTER_INLINE_ROWS_TYPES) {
  using P = typename PT::first_type;
  using T = typename PT::second_type;
  // One buffer of 64. The output is elements 32 to 63 as 4 rows of 8; the
  // operand 4 rows of 8, 16 apart, from element 0, so its rows 2 and 3 are
  // output rows 0 and 2, written before they are read. Counted over the
  // output's 32 elements from its start, the operand would seem to end
  // where the output begins.
  const auto v = inline_rows_values<T>(64, 65);
  const auto vr = inline_rows_values<T>(8, 66);
  st::array<T, 1, P> buf({64});
  st::array<T, 1, P> row({8});
  for (st::index_t i = 0; i < 64; ++i) buf(i) = v[static_cast<std::size_t>(i)];
  for (st::index_t j = 0; j < 8; ++j) row(j) = vr[static_cast<std::size_t>(j)];
  st::view<T, 2, P> out(buf.data() + 32, {4, 8});
  const st::view<const T, 2, P> in(buf.data(), {4, 8}, {16, 1});
  out = in * T(2) + row;
  st::index_t bad = 0;
  for (st::index_t i = 0; i < 4; ++i)
    for (st::index_t j = 0; j < 8; ++j) {
      const double want = 2 * static_cast<double>(v[static_cast<std::size_t>(i * 16 + j)]) +
                          static_cast<double>(vr[static_cast<std::size_t>(j)]);
      if (!close<T>(static_cast<double>(buf(32 + i * 8 + j)), want)) ++bad;
    }
  for (st::index_t i = 0; i < 32; ++i)
    if (buf(i) != v[static_cast<std::size_t>(i)]) ++bad;  // not written
  CHECK_MESSAGE(bad == 0, bad << " wrong elements");
}

TEST_CASE_TEMPLATE("inline rows: the output's own rows, reversed or broadcast", PT, SINTER_INLINE_ROWS_TYPES) {
  using P = typename PT::first_type;
  using T = typename PT::second_type;
  const st::index_t rows = 6, cols = 17;
  const auto v = inline_rows_values<T>(rows * cols, 67);
  const auto vr = inline_rows_values<T>(cols, 68);
  st::array<T, 1, P> row({cols});
  for (st::index_t j = 0; j < cols; ++j) row(j) = vr[static_cast<std::size_t>(j)];
  const auto fill = [&](st::array<T, 2, P>& m) {
    for (st::index_t i = 0; i < rows * cols; ++i) m.data()[i] = v[static_cast<std::size_t>(i)];
  };
  const auto at = [&](st::index_t i, st::index_t j) { return static_cast<double>(v[static_cast<std::size_t>(i * cols + j)]); };
  st::array<T, 2, P> m({rows, cols});
  SUBCASE("m = m[::-1, :] + row: rows read backwards, a negative row stride") {
    fill(m);
    m = m(st::slice(st::none, st::none, -1), st::all) + row;
    st::index_t bad = 0;
    for (st::index_t i = 0; i < rows; ++i)
      for (st::index_t j = 0; j < cols; ++j)
        if (!close<T>(static_cast<double>(m(i, j)), at(rows - 1 - i, j) + static_cast<double>(vr[static_cast<std::size_t>(j)]))) ++bad;
    CHECK_MESSAGE(bad == 0, bad << " wrong elements");
  }
  SUBCASE("m = m * 2 + m[3]: a row of the output, broadcast") {
    fill(m);
    m = m * T(2) + m(3, st::all);
    st::index_t bad = 0;
    for (st::index_t i = 0; i < rows; ++i)
      for (st::index_t j = 0; j < cols; ++j)
        if (!close<T>(static_cast<double>(m(i, j)), 2 * at(i, j) + at(3, j))) ++bad;
    CHECK_MESSAGE(bad == 0, bad << " wrong elements");
  }
  SUBCASE("m = m - m[0:1, :]: the first row, read after it is written") {
    fill(m);
    m = m - m(st::slice(0, 1), st::all);
    st::index_t bad = 0;
    for (st::index_t i = 0; i < rows; ++i)
      for (st::index_t j = 0; j < cols; ++j)
        if (!close<T>(static_cast<double>(m(i, j)), at(i, j) - at(0, j))) ++bad;
    CHECK_MESSAGE(bad == 0, bad << " wrong elements");
  }
  SUBCASE("m = m * 2 + row: the same mapping, in place") {
    fill(m);
    m = m * T(2) + row;
    st::index_t bad = 0;
    for (st::index_t i = 0; i < rows; ++i)
      for (st::index_t j = 0; j < cols; ++j)
        if (!close<T>(static_cast<double>(m(i, j)), 2 * at(i, j) + static_cast<double>(vr[static_cast<std::size_t>(j)]))) ++bad;
    CHECK_MESSAGE(bad == 0, bad << " wrong elements");
  }
  SUBCASE("m[0:3] = m[3:6] + row: disjoint blocks of one matrix") {
    fill(m);
    m(st::slice(0, 3), st::all) = m(st::slice(3, 6), st::all) + row;
    st::index_t bad = 0;
    for (st::index_t i = 0; i < rows; ++i)
      for (st::index_t j = 0; j < cols; ++j) {
        const double want = i < 3 ? at(i + 3, j) + static_cast<double>(vr[static_cast<std::size_t>(j)]) : at(i, j);
        if (!close<T>(static_cast<double>(m(i, j)), want)) ++bad;
      }
    CHECK_MESSAGE(bad == 0, bad << " wrong elements");
  }
}
