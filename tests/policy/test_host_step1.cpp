// The step-1 row loop of host and par: when the output's rows are
// contiguous and every leaf reads its rows at stride 1 (a row broadcast
// `m * 0.5 + row` over a matrix whose rows are not adjacent, arange along a
// row, scalars), each row runs the contiguous pass's own loop (trace
// "strided (step 1)"); a column broadcast (rows at stride 0), a step-2 leaf
// or a strided output do not take it. Checked against a double-precision
// scalar loop on random data, at odd row lengths (1, 2, 15, 16, 17, 1000,
// 1031, and 100003 so that par splits rows), rank 2 and 3, outputs and
// inputs starting inside their buffers, and sentinels around every row.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <sinter/sinter.hpp>
#include <string>
#include <utility>
#include <vector>

#include "support/row_paths.hpp"

namespace st = sinter;

using sinter_test::close;
using sinter_test::only_pass;
using sinter_test::random_values;

#define SINTER_STEP1_TYPES \
  std::pair<st::host, float>, std::pair<st::host, double>, std::pair<st::par, float>, std::pair<st::par, double>

TEST_CASE_TEMPLATE("step 1: a row broadcast over matrix rows that are not adjacent", PT, SINTER_STEP1_TYPES) {
  using P = typename PT::first_type;
  using T = typename PT::second_type;
  for (const st::index_t cols : {1, 2, 15, 16, 17, 1000, 1031, 100003})
    for (const st::index_t rows : {2, 3, 7}) {
      if (cols == 100003 && rows == 7) continue;  // 3 rows already split across par's chunks
      // Input rows cols + 1 apart starting one element in, output rows
      // cols + 3 apart starting one element in: no axis folds.
      const st::index_t ip = cols + 1, op = cols + 3;
      const auto vm = random_values<T>(static_cast<std::size_t>(rows * ip), 51);
      const auto vr = random_values<T>(static_cast<std::size_t>(cols + 1), 52);
      st::array<T, 2, P> m({rows, ip}), buf({rows, op});
      st::array<T, 1, P> row({cols + 1});
      for (st::index_t i = 0; i < rows * ip; ++i) m.data()[i] = vm[static_cast<std::size_t>(i)];
      for (st::index_t j = 0; j <= cols; ++j) row(j) = vr[static_cast<std::size_t>(j)];
      buf = T(-5);
      st::trace_scope t;
      buf(st::all, st::slice(1, cols + 1)) = m(st::all, st::slice(1, st::end)) * T(0.5) + row(st::slice(1, st::end));
      const std::string detail = only_pass(t);
      // One column: the axes fold into one strided row.
      CHECK_MESSAGE(detail.find(cols == 1 ? "strided" : "strided (step 1)") == 0, detail);
      st::index_t bad = 0;
      for (st::index_t i = 0; i < rows; ++i) {
        if (buf(i, 0) != T(-5) || buf(i, cols + 1) != T(-5) || buf(i, cols + 2) != T(-5)) ++bad;
        for (st::index_t j = 0; j < cols; ++j) {
          const double want = static_cast<double>(vm[static_cast<std::size_t>(i * ip + j + 1)]) * 0.5 +
                              static_cast<double>(vr[static_cast<std::size_t>(j + 1)]);
          if (!close<T>(static_cast<double>(buf(i, j + 1)), want)) ++bad;
        }
      }
      CHECK_MESSAGE(bad == 0, rows << " x " << cols << ": " << bad << " wrong elements");
    }
}

TEST_CASE_TEMPLATE("step 1: rank 3, arange along the rows and a scalar", PT, SINTER_STEP1_TYPES) {
  using P = typename PT::first_type;
  using T = typename PT::second_type;
  for (const st::index_t cols : {2, 17, 1031}) {
    // m(2, 5, cols + 2) read as m[:, 1:4, 2:]: rows cols + 2 apart, planes
    // 5 * (cols + 2) apart, so neither the planes nor the rows fold.
    const st::index_t a = 2, b = 3, pitch = cols + 2;
    const auto vm = random_values<T>(static_cast<std::size_t>(a * 5 * pitch), 53);
    st::array<T, 3, P> m({a, 5, pitch}), out({a, b, cols});
    for (std::size_t i = 0; i < vm.size(); ++i) m.data()[i] = vm[i];
    st::trace_scope t;
    out = m(st::all, st::slice(1, 4), st::slice(2, st::end)) - st::arange<T>(cols) * T(0.25) + T(3);
    const std::string detail = only_pass(t);
    CHECK_MESSAGE(detail.find("strided (step 1)") == 0, detail);
    st::index_t bad = 0;
    for (st::index_t p = 0; p < a; ++p)
      for (st::index_t i = 0; i < b; ++i)
        for (st::index_t j = 0; j < cols; ++j) {
          const double want =
              static_cast<double>(vm[static_cast<std::size_t>((p * 5 + i + 1) * pitch + j + 2)]) - 0.25 * static_cast<double>(j) + 3;
          if (!close<T>(static_cast<double>(out(p, i, j)), want)) ++bad;
        }
    CHECK_MESSAGE(bad == 0, "cols = " << cols << ": " << bad << " wrong elements");
  }
  // A scalar alone into the middle columns of a matrix.
  st::array<T, 2, P> o({4, 19});
  o = T(-5);
  {
    st::trace_scope t;
    o(st::all, st::slice(2, 17)) = T(7);
    const std::string detail = only_pass(t);
    CHECK_MESSAGE(detail.find("strided (step 1)") == 0, detail);
  }
  st::index_t bad = 0;
  for (st::index_t i = 0; i < 4; ++i)
    for (st::index_t j = 0; j < 19; ++j)
      if (o(i, j) != (j >= 2 && j < 17 ? T(7) : T(-5))) ++bad;
  CHECK_MESSAGE(bad == 0, "scalar fill: " << bad << " wrong elements");
}

TEST_CASE_TEMPLATE("step 1: a column broadcast, a step-2 leaf or a strided output keep the strided loop", PT,
                   SINTER_STEP1_TYPES) {
  using P = typename PT::first_type;
  using T = typename PT::second_type;
  const st::index_t rows = 5, cols = 17;
  const auto vm = random_values<T>(static_cast<std::size_t>(rows * 2 * cols), 54);
  const auto vc = random_values<T>(static_cast<std::size_t>(rows), 55);
  st::array<T, 2, P> m({rows, 2 * cols}), out({rows, cols}), wide({rows, 2 * cols});
  st::array<T, 2, P> col({rows, 1});
  for (std::size_t i = 0; i < vm.size(); ++i) m.data()[i] = vm[i];
  for (st::index_t i = 0; i < rows; ++i) col(i, 0) = vc[static_cast<std::size_t>(i)];
  const auto mt = [&](st::index_t i, st::index_t j) { return static_cast<double>(vm[static_cast<std::size_t>(i * 2 * cols + j)]); };
  for (int which = 0; which < 3; ++which) {
    out = T(-5);
    wide = T(-5);
    st::trace_scope t;
    if (which == 0) out = m(st::all, st::slice(0, cols)) + col;                          // column: stride 0
    if (which == 1) out = m(st::all, st::slice(0, cols)) + m(st::all, st::slice(0, st::end, 2));  // strides 1 and 2
    if (which == 2) wide(st::all, st::slice(0, st::end, 2)) = m(st::all, st::slice(0, cols));  // output stride 2
    const std::string detail = only_pass(t);
    CHECK_MESSAGE(detail.find("strided") == 0, which << ": " << detail);
    CHECK_MESSAGE(detail.find("step 1") == std::string::npos, which << ": " << detail);
    st::index_t bad = 0;
    for (st::index_t i = 0; i < rows; ++i)
      for (st::index_t j = 0; j < cols; ++j) {
        if (which == 0 && !close<T>(static_cast<double>(out(i, j)), mt(i, j) + static_cast<double>(vc[static_cast<std::size_t>(i)]))) ++bad;
        if (which == 1 && !close<T>(static_cast<double>(out(i, j)), mt(i, j) + mt(i, 2 * j))) ++bad;
        if (which == 2 && (wide(i, 2 * j) != m(i, j) || wide(i, 2 * j + 1) != T(-5))) ++bad;
      }
    CHECK_MESSAGE(bad == 0, which << ": " << bad << " wrong elements");
  }
}
