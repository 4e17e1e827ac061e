// The buffered strided path of host and par (policy/host/buffered.hpp): a
// pass that is not contiguous, whose rows are not all unit-stride or all
// step-2, runs in blocks, each operand that a block cannot read in place
// gathered into a buffer first, and the output scattered from one when it
// is strided. Checked against a double-precision scalar loop on random data:
// transposed, reversed, step-3 and column-broadcast (stride 0) operands,
// transposed and step-2 outputs, rows shorter than buffered_row_min (blocks
// across rows) and longer (blocks within rows, 1024 positions at most), row
// lengths around those two bounds, rank 3, mixed element types (buffers of
// 4 and 8 bytes in one pass), streaming stores, par's chunks splitting rows
// and blocks, a tree of 361 leaves (blocks of 16, buffers on the heap), and
// transposed outputs of transposed operands, run in the output's memory
// order (evaluate.hpp).
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <sinter/sinter.hpp>
#include <string>
#include <utility>
#include <vector>

#include "support/chains.hpp"
#include "support/row_paths.hpp"
#include "support/scale.hpp"
#include "support/streaming.hpp"

namespace st = sinter;


#define SINTER_BUFFERED_TYPES \
  std::pair<st::host, float>, std::pair<st::host, double>, std::pair<st::par, float>, std::pair<st::par, double>

namespace {

// A rows x cols matrix of random values, and the values.
template <class T, class P>
struct matrix {
  std::vector<T> v;
  st::array<T, 2, P> a;
  matrix(st::index_t rows, st::index_t cols, unsigned seed)
      : v(sinter_test::random_values<T>(static_cast<std::size_t>(rows * cols), seed)), a({rows, cols}) {
    for (std::size_t i = 0; i < v.size(); ++i) a.data()[i] = v[i];
  }
  double operator()(st::index_t i, st::index_t j, st::index_t cols) const {
    return static_cast<double>(v[static_cast<std::size_t>(i * cols + j)]);
  }
};

// Rows x cols shapes: rows shorter and longer than buffered_row_min (64),
// around a block (1024), and one (cols = 1). Par splits the large ones.
std::vector<std::pair<st::index_t, st::index_t>> shapes() {
  std::vector<std::pair<st::index_t, st::index_t>> s{{1, 1},   {3, 1},   {1, 5},    {7, 3},    {700, 3},  {5, 63},
                                                     {5, 64},  {5, 65},  {3, 1023}, {3, 1024}, {3, 1025}, {2, 3001},
                                                     {401, 2}, {17, 97}, {1, 4099}};
  if (sinter_test::scale == 1) {
    s.push_back({2 * st::detail::par_grain / 3 + 1, 3});  // par splits short rows
    s.push_back({3, st::detail::par_grain + 7});          // par splits inside a row
  }
  return s;
}

}  // namespace

TEST_CASE_TEMPLATE("buffered: transposed, reversed, step-3 and broadcast operands", PT, SINTER_BUFFERED_TYPES) {
  using P = typename PT::first_type;
  using T = typename PT::second_type;
  for (const auto& [rows, cols] : shapes()) {
    const matrix<T, P> m(rows, cols, 61), mt(cols, rows, 62), m3(rows, 3 * cols, 63), col(rows, 1, 64);
    st::array<T, 2, P> out({rows, cols});
    const auto t_view = st::transpose(mt.a);                                 // strides (1, rows)
    const auto r_view = m.a(st::all, st::slice(st::none, st::none, -1));     // stride -1
    const auto s3_view = m3.a(st::all, st::slice(0, st::end, 3));           // stride 3
    for (int which = 0; which < 4; ++which) {
      out = T(-7);
      st::trace_scope t;
      if (which == 0) out = t_view * T(2) + m.a;              // transposed + in place
      if (which == 1) out = r_view - col.a;                   // reversed - column (stride 0)
      if (which == 2) out = s3_view * t_view + T(0.5);        // step 3 * transposed + scalar
      if (which == 3) out = (col.a + s3_view) * (m.a - r_view);  // four layouts in one pass
      const std::string detail = sinter_test::only_pass(t);
      // One row or one column folds to a contiguous or one-row pass.
      if (rows > 1 && cols > 1) CHECK_MESSAGE(detail.find("strided") == 0, detail);
      st::index_t bad = 0;
      for (st::index_t i = 0; i < rows; ++i)
        for (st::index_t j = 0; j < cols; ++j) {
          const double tr = mt(j, i, rows), rv = m(i, cols - 1 - j, cols), s3 = m3(i, 3 * j, 3 * cols),
                       c = col(i, 0, 1), mm = m(i, j, cols);
          double want = 0;
          if (which == 0) want = tr * 2 + mm;
          if (which == 1) want = rv - c;
          if (which == 2) want = s3 * tr + 0.5;
          if (which == 3) want = (c + s3) * (mm - rv);
          if (!sinter_test::close<T>(static_cast<double>(out(i, j)), want)) ++bad;
        }
      CHECK_MESSAGE(bad == 0, which << ", " << rows << " x " << cols << ": " << bad << " wrong (" << detail << ")");
    }
  }
}

TEST_CASE_TEMPLATE("buffered: transposed and step-2 outputs are scattered, nothing else written", PT,
                   SINTER_BUFFERED_TYPES) {
  using P = typename PT::first_type;
  using T = typename PT::second_type;
  for (const auto& [rows, cols] : shapes()) {
    const matrix<T, P> m(rows, cols, 65), row(1, cols, 66);
    // The transpose of a (cols, rows) array, and every other column of a
    // (rows, 2 * cols + 1) array.
    st::array<T, 2, P> ot({cols, rows}), o2({rows, 2 * cols + 1});
    ot = T(-7);
    o2 = T(-7);
    {
      st::trace_scope t;
      st::transpose(ot) = m.a * m.a + row.a;
      if (rows > 1 && cols > 1) CHECK_MESSAGE(sinter_test::only_pass(t).find("strided") == 0, sinter_test::only_pass(t));
    }
    {
      st::trace_scope t;
      o2(st::all, st::slice(1, st::end, 2)) = st::transpose(ot) - T(1);
      if (rows > 1) CHECK_MESSAGE(sinter_test::only_pass(t).find("strided") == 0, sinter_test::only_pass(t));
    }
    st::index_t bad = 0;
    for (st::index_t i = 0; i < rows; ++i) {
      if (o2(i, 0) != T(-7)) ++bad;
      for (st::index_t j = 0; j < cols; ++j) {
        const double want = m(i, j, cols) * m(i, j, cols) + row(0, j, cols);
        if (!sinter_test::close<T>(static_cast<double>(ot(j, i)), want)) ++bad;
        if (!sinter_test::close<T>(static_cast<double>(o2(i, 2 * j + 1)), want - 1)) ++bad;
        if (o2(i, 2 * j + 2) != T(-7)) ++bad;
      }
    }
    CHECK_MESSAGE(bad == 0, rows << " x " << cols << ": " << bad << " wrong");
  }
}

TEST_CASE_TEMPLATE("buffered: rank 3, mixed element types", P, st::host, st::par) {
  // double = float (axes swapped) * int32 (broadcast along the rows) +
  // double: buffers of 4 and 8 bytes in one pass.
  for (const st::index_t cols : {3, 64, 1031}) {
    const st::index_t a = 3, b = 5;
    const auto vf = sinter_test::random_values<float>(static_cast<std::size_t>(a * b * cols), 67);
    const auto vd = sinter_test::random_values<double>(static_cast<std::size_t>(a * b * cols), 68);
    st::array<float, 3, P> f({a, cols, b});  // read as (a, b, cols): axes 1 and 2 swapped
    st::array<std::int32_t, 3, P> k({a, b, 1});
    st::array<double, 3, P> d({a, b, cols}), out({a, b, cols});
    for (std::size_t i = 0; i < vf.size(); ++i) f.data()[i] = vf[i];
    for (std::size_t i = 0; i < vd.size(); ++i) d.data()[i] = vd[i];
    for (st::index_t i = 0; i < a * b; ++i) k.data()[i] = static_cast<std::int32_t>(i % 7) - 3;
    st::trace_scope t;
    out = st::permute(f, {0, 2, 1}) * k + d;
    CHECK_MESSAGE(sinter_test::only_pass(t).find("strided") == 0, sinter_test::only_pass(t));
    st::index_t bad = 0;
    for (st::index_t p = 0; p < a; ++p)
      for (st::index_t i = 0; i < b; ++i)
        for (st::index_t j = 0; j < cols; ++j) {
          // float * int32 is a float product (sinter's promotion), then a double sum.
          const float prod = vf[static_cast<std::size_t>((p * cols + j) * b + i)] * static_cast<float>((p * b + i) % 7 - 3);
          const double want = static_cast<double>(prod) + vd[static_cast<std::size_t>((p * b + i) * cols + j)];
          if (!sinter_test::close<double>(out(p, i, j), want)) ++bad;
        }
    CHECK_MESSAGE(bad == 0, "cols = " << cols << ": " << bad << " wrong");
  }
}

TEST_CASE_TEMPLATE("buffered: streaming stores", PT, SINTER_BUFFERED_TYPES) {
  using P = typename PT::first_type;
  using T = typename PT::second_type;
  const sinter_test::streaming_scope on(true);
  for (const auto& [rows, cols] : {std::pair<st::index_t, st::index_t>{3, 300}, {5, 1025}, {2, 4099}, {9, 17}}) {
    const matrix<T, P> m(rows, cols, 69), mt(cols, rows, 70);
    // Output rows start inside their buffer's cache lines.
    st::array<T, 2, P> buf({rows, cols + 3});
    buf = T(-7);
    st::trace_scope t;
    buf(st::all, st::slice(1, cols + 1)) = st::transpose(mt.a) - m.a * T(3);
    const std::string detail = sinter_test::only_pass(t);
    // Rows of 1 KiB or more stream.
    const bool streams = cols * static_cast<st::index_t>(sizeof(T)) >= 1024;
    CHECK_MESSAGE(detail.find(streams ? "strided streaming" : "strided") == 0, detail);
    st::index_t bad = 0;
    for (st::index_t i = 0; i < rows; ++i) {
      if (buf(i, 0) != T(-7) || buf(i, cols + 1) != T(-7) || buf(i, cols + 2) != T(-7)) ++bad;
      for (st::index_t j = 0; j < cols; ++j)
        if (!sinter_test::close<T>(static_cast<double>(buf(i, j + 1)), mt(j, i, rows) - 3 * m(i, j, cols))) ++bad;
    }
    CHECK_MESSAGE(bad == 0, rows << " x " << cols << ": " << bad << " wrong");
  }
}

TEST_CASE_TEMPLATE("buffered: a tree of 361 leaves, buffers on the heap", P, st::host, st::par) {
  // chain<20> reads its input 361 times: 362 buffers of 16 doubles, more
  // than the stack's share, so they come from the heap.
  const st::index_t rows = 37, cols = 129;
  const auto vm = sinter_test::random_values<double>(static_cast<std::size_t>(rows * cols), 71);
  const auto vb = sinter_test::random_values<double>(static_cast<std::size_t>(cols), 72);
  const auto vc = sinter_test::random_values<double>(static_cast<std::size_t>(rows), 73);
  st::array<double, 2, P> mt({cols, rows}), out({rows, cols}), c({rows, 1});
  st::array<double, 1, P> b({cols});
  for (st::index_t i = 0; i < rows * cols; ++i) mt.data()[i] = vm[static_cast<std::size_t>(i)] / 4;
  for (st::index_t j = 0; j < cols; ++j) b(j) = vb[static_cast<std::size_t>(j)] / 4;
  for (st::index_t i = 0; i < rows; ++i) c(i, 0) = vc[static_cast<std::size_t>(i)] / 4;
  st::trace_scope t;
  out = sinter_test::chain<20>(st::transpose(mt) * 1.0, b, c);
  CHECK_MESSAGE(sinter_test::only_pass(t).find("strided") == 0, sinter_test::only_pass(t));
  st::index_t bad = 0;
  for (st::index_t i = 0; i < rows; ++i)
    for (st::index_t j = 0; j < cols; ++j) {
      double x = vm[static_cast<std::size_t>(j * rows + i)] / 4;
      for (int k = 0; k < 20; ++k)
        x = sinter_test::ref_step(k, x, vb[static_cast<std::size_t>(j)] / 4, vc[static_cast<std::size_t>(i)] / 4);
      if (!(std::abs(out(i, j) - x) <= 1e-12 * std::max(1.0, std::abs(x)))) ++bad;
    }
  CHECK_MESSAGE(bad == 0, bad << " wrong");
}

TEST_CASE_TEMPLATE("buffered: a transposed output, reordered when its operands are transposed alike", PT,
                   SINTER_BUFFERED_TYPES) {
  using P = typename PT::first_type;
  using T = typename PT::second_type;
  for (const auto& [rows, cols] : shapes()) {
    if (rows < 2 || cols < 2) continue;
    const matrix<T, P> a(cols, rows, 74), m(rows, cols, 75);
    // transpose(b) = transpose(a) * 2 + 1: both sides transposed, so the
    // pass runs in b's memory order, contiguous (evaluate.hpp, output_order).
    st::array<T, 2, P> b({cols, rows});
    {
      st::trace_scope t;
      st::transpose(b) = st::transpose(a.a) * T(2) + T(1);
      CHECK_MESSAGE(sinter_test::only_pass(t).find("contiguous") == 0, sinter_test::only_pass(t));
    }
    // In place through the same transposed mapping, with a row-major
    // operand: not reordered, the output scattered from a buffer.
    st::array<T, 2, P> c({cols, rows});
    for (st::index_t i = 0; i < rows * cols; ++i) c.data()[i] = a.a.data()[i];
    {
      st::trace_scope t;
      st::transpose(c) = st::transpose(c) * T(3) - m.a;
      CHECK_MESSAGE(sinter_test::only_pass(t).find("strided") == 0, sinter_test::only_pass(t));
      CHECK(t.allocations() == 0);
    }
    st::index_t bad = 0;
    for (st::index_t j = 0; j < cols; ++j)
      for (st::index_t i = 0; i < rows; ++i) {
        if (!sinter_test::close<T>(static_cast<double>(b(j, i)), a(j, i, rows) * 2 + 1)) ++bad;
        if (!sinter_test::close<T>(static_cast<double>(c(j, i)), a(j, i, rows) * 3 - m(i, j, cols))) ++bad;
      }
    CHECK_MESSAGE(bad == 0, rows << " x " << cols << ": " << bad << " wrong");
  }
}

TEST_CASE_TEMPLATE("buffered: rank 3, a permuted output", P, st::host, st::par) {
  // permute(o) = permute(x) * 2 (contiguous in o's memory order), then
  // permute(o) = permute(x) + y: o's memory is (c, a, b), the pass is over
  // (a, b, c).
  const st::index_t na = 3, nb = 70, nc = 5;
  const auto vx = sinter_test::random_values<float>(static_cast<std::size_t>(na * nb * nc), 76);
  const auto vy = sinter_test::random_values<float>(static_cast<std::size_t>(na * nb * nc), 77);
  st::array<float, 3, P> o({nc, na, nb}), x({nc, na, nb}), y({na, nb, nc});
  for (std::size_t i = 0; i < vx.size(); ++i) {
    x.data()[i] = vx[i];
    y.data()[i] = vy[i];
  }
  {
    st::trace_scope t;
    st::permute(o, {1, 2, 0}) = st::permute(x, {1, 2, 0}) * 2.f;
    CHECK_MESSAGE(sinter_test::only_pass(t).find("contiguous") == 0, sinter_test::only_pass(t));
  }
  st::index_t bad = 0;
  for (std::size_t i = 0; i < vx.size(); ++i)
    if (o.data()[i] != vx[i] * 2.f) ++bad;
  CHECK_MESSAGE(bad == 0, bad << " wrong in the contiguous pass");
  st::trace_scope t;
  st::permute(o, {1, 2, 0}) = st::permute(x, {1, 2, 0}) + y;
  CHECK_MESSAGE(sinter_test::only_pass(t).find("strided") == 0, sinter_test::only_pass(t));
  bad = 0;
  for (st::index_t p = 0; p < na; ++p)
    for (st::index_t i = 0; i < nb; ++i)
      for (st::index_t k = 0; k < nc; ++k) {
        const double want = static_cast<double>(vx[static_cast<std::size_t>((k * na + p) * nb + i)]) +
                            static_cast<double>(vy[static_cast<std::size_t>((p * nb + i) * nc + k)]);
        if (!sinter_test::close<float>(static_cast<double>(o(k, p, i)), want)) ++bad;
      }
  CHECK_MESSAGE(bad == 0, bad << " wrong");
}
