// The step-2 row loop of host and par: when the output's rows are contiguous
// and every leaf reads its rows at stride 2 (`a[::2] * 2 + b[1::2]`, a
// step-2 slice of a generator, scalars), each row runs a loop with the
// stride known at compile time (trace "strided (step 2)"); mixed strides,
// other steps, a strided output, a column broadcast or scalars alone keep
// the run-time-stride loop (trace "strided"). Checked against a
// double-precision scalar loop on random data, at odd lengths (2, 15, 16,
// 17, 1000, 1031, and 100003 so that par splits rows), views starting one
// element in, and sentinels around every written element.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <sinter/sinter.hpp>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "support/filled.hpp"
#include "support/row_paths.hpp"
#include "support/streaming.hpp"

namespace st = sinter;

using sinter_test::close;
using sinter_test::only_pass;
using sinter_test::random_values;

#define SINTER_STEP2_TYPES \
  std::pair<st::host, float>, std::pair<st::host, double>, std::pair<st::par, float>, std::pair<st::par, double>

TEST_CASE_TEMPLATE("step 2: a[::2] * 2 + b[1::2] into a contiguous output", PT, SINTER_STEP2_TYPES) {
  using P = typename PT::first_type;
  using T = typename PT::second_type;
  for (const st::index_t n : {2, 15, 16, 17, 1000, 1031, 100003}) {
    const auto va = random_values<T>(static_cast<std::size_t>(2 * n + 1), 41);
    const auto vb = random_values<T>(static_cast<std::size_t>(2 * n + 1), 42);
    const auto a = sinter_test::filled<P>(va), b = sinter_test::filled<P>(vb);
    st::array<T, 1, P> buf({n + 2});
    buf = T(-5);
    auto out = buf(st::slice(1, n + 1));  // one element in
    st::trace_scope t;
    out = a(st::slice(1, st::end, 2)) * T(2) + b(st::slice(0, 2 * n, 2));
    const std::string detail = only_pass(t);
    CHECK_MESSAGE(detail.find("strided (step 2)") == 0, detail);
    st::index_t bad = 0;
    if (buf(0) != T(-5) || buf(n + 1) != T(-5)) ++bad;
    for (st::index_t i = 0; i < n; ++i) {
      const double want = static_cast<double>(va[static_cast<std::size_t>(2 * i + 1)]) * 2 +
                          static_cast<double>(vb[static_cast<std::size_t>(2 * i)]);
      if (!close<T>(static_cast<double>(buf(i + 1)), want)) ++bad;
    }
    CHECK_MESSAGE(bad == 0, "n = " << n << ": " << bad << " wrong elements");
  }
}

// Streamed, the step-2 loop computes each 256-byte block from its strided
// operands in registers and streams it (stream_range); it once gathered
// both operands into buffers first, which ran at 0.4-0.5 of the hand loop
// (docs/journal/bench-2026-11b.md, "A streamed step-2 pass"). Rows of 1 KiB or more stream: the trace
// says "strided (step 2) streaming", shorter ones take the unstreamed loop.
// Outputs start 0, 1 and 5 elements into their buffer (ordinary stores up
// to the first whole line); the plain expression takes stream_range's block
// buffer, the one with exp its explicit vector loop (stream_vectors).
// Each result is bit for bit the unstreamed pass's, and close to a double
// loop.
TEST_CASE_TEMPLATE("step 2: streaming stores", PT, SINTER_STEP2_TYPES) {
  using P = typename PT::first_type;
  using T = typename PT::second_type;
  for (const st::index_t n : {15, 255, 256, 257, 1031, 100003}) {
    const auto va = random_values<T>(static_cast<std::size_t>(2 * n + 1), 51);
    const auto vb = random_values<T>(static_cast<std::size_t>(2 * n + 1), 52);
    const auto a = sinter_test::filled<P>(va), b = sinter_test::filled<P>(vb);
    const auto as = a(st::slice(0, 2 * n, 2)), bs = b(st::slice(1, st::end, 2));
    const auto at = [&](st::index_t i) { return static_cast<double>(va[static_cast<std::size_t>(2 * i)]); };
    const auto bt = [&](st::index_t i) { return static_cast<double>(vb[static_cast<std::size_t>(2 * i + 1)]); };
    for (const st::index_t off : {0, 1, 5})
      for (const bool maths : {false, true}) {
        st::array<T, 1, P> buf({n + 6}), ref({n});
        buf = T(-5);
        auto out = buf(st::slice(off, off + n));
        const auto pass = [&](auto& dst) {
          if (maths) dst = st::exp(as * T(0.5)) - bs;
          else dst = as * T(2) + bs;
        };
        {
          const sinter_test::streaming_scope off_(false);
          pass(ref);
        }
        const sinter_test::streaming_scope on(true);
        st::trace_scope t;
        pass(out);
        const std::string detail = only_pass(t);
        const bool streams = n * static_cast<st::index_t>(sizeof(T)) >= 1024;
        CHECK_MESSAGE(detail.find(streams ? "strided (step 2) streaming" : "strided (step 2)") == 0, detail);
        if (!streams) CHECK_MESSAGE(detail.find("streaming") == std::string::npos, detail);
        st::index_t bad = 0, differ = 0;
        for (st::index_t i = 0; i < n + 6; ++i)
          if ((i < off || i >= off + n) && buf(i) != T(-5)) ++bad;
        for (st::index_t i = 0; i < n; ++i) {
          const double want = maths ? std::exp(at(i) * 0.5) - bt(i) : at(i) * 2 + bt(i);
          if (!close<T>(static_cast<double>(out(i)), want)) ++bad;
          if (out(i) != ref(i)) ++differ;
        }
        CHECK_MESSAGE(bad == 0, "n = " << n << ", offset " << off << ", exp " << maths << ": " << bad << " wrong");
        CHECK_MESSAGE(differ == 0, "n = " << n << ", offset " << off << ", exp " << maths << ": " << differ
                                          << " differ from the unstreamed pass");
      }
  }
}

TEST_CASE_TEMPLATE("step 2: matrix columns, a step-2 generator and a scalar into a sliced output", PT,
                   SINTER_STEP2_TYPES) {
  using P = typename PT::first_type;
  using T = typename PT::second_type;
  for (const st::index_t cols : {2, 17, 1031})
    for (const st::index_t rows : {2, 7}) {
      const st::index_t pitch = 2 * cols + 1;
      const auto vm = random_values<T>(static_cast<std::size_t>(rows * pitch), 43);
      st::array<T, 2, P> m({rows, pitch}), buf({rows, cols + 3});
      for (st::index_t i = 0; i < rows; ++i)
        for (st::index_t j = 0; j < pitch; ++j) m(i, j) = vm[static_cast<std::size_t>(i * pitch + j)];
      buf = T(-5);
      st::trace_scope t;
      // m's odd columns, 0, 2, 4, ... from arange, over rows cols + 3 apart.
      buf(st::all, st::slice(1, cols + 1)) =
          m(st::all, st::slice(1, st::end, 2)) * T(0.5) - st::arange<T>(2 * cols)(st::slice(0, st::end, 2)) * T(0.125) +
          T(1);
      const std::string detail = only_pass(t);
      CHECK_MESSAGE(detail.find("strided (step 2)") == 0, detail);
      st::index_t bad = 0;
      for (st::index_t i = 0; i < rows; ++i) {
        if (buf(i, 0) != T(-5) || buf(i, cols + 1) != T(-5) || buf(i, cols + 2) != T(-5)) ++bad;
        for (st::index_t j = 0; j < cols; ++j) {
          const double want = static_cast<double>(vm[static_cast<std::size_t>(i * pitch + 2 * j + 1)]) * 0.5 -
                              static_cast<double>(2 * j) * 0.125 + 1;
          if (!close<T>(static_cast<double>(buf(i, j + 1)), want)) ++bad;
        }
      }
      CHECK_MESSAGE(bad == 0, rows << " x " << cols << ": " << bad << " wrong elements");
    }
}

TEST_CASE_TEMPLATE("step 2: mixed strides, step 3, reversed, strided output, column broadcast keep the strided loop",
                   PT, SINTER_STEP2_TYPES) {
  using P = typename PT::first_type;
  using T = typename PT::second_type;
  const st::index_t n = 1031;
  const auto va = random_values<T>(static_cast<std::size_t>(3 * n), 44);
  const auto vc = random_values<T>(static_cast<std::size_t>(n), 45);
  const auto a = sinter_test::filled<P>(va), c = sinter_test::filled<P>(vc);
  const auto at = [&](st::index_t i) { return static_cast<double>(va[static_cast<std::size_t>(i)]); };
  const auto ct = [&](st::index_t i) { return static_cast<double>(vc[static_cast<std::size_t>(i)]); };
  st::array<T, 1, P> out({n}), wide({2 * n});
  for (int which = 0; which < 4; ++which) {
    out = T(-5);
    wide = T(-5);
    st::trace_scope t;
    if (which == 0) out = a(st::slice(0, 2 * n, 2)) + c;          // strides 2 and 1
    if (which == 1) out = a(st::slice(0, st::end, 3)) * T(2);     // step 3
    if (which == 2) out = a(st::slice(2 * n - 2, st::none, -2));  // step -2
    if (which == 3) wide(st::slice(0, st::end, 2)) = a(st::slice(0, 2 * n, 2));  // output stride 2
    const std::string detail = only_pass(t);
    CHECK_MESSAGE(detail.find("strided") == 0, which << ": " << detail);
    CHECK_MESSAGE(detail.find("step 2") == std::string::npos, which << ": " << detail);
    st::index_t bad = 0;
    for (st::index_t i = 0; i < n; ++i) {
      double want = 0, got = 0;
      if (which == 0) want = at(2 * i) + ct(i), got = static_cast<double>(out(i));
      if (which == 1) want = at(3 * i) * 2, got = static_cast<double>(out(i));
      if (which == 2) want = at(2 * n - 2 - 2 * i), got = static_cast<double>(out(i));
      if (which == 3) {
        want = at(2 * i), got = static_cast<double>(wide(2 * i));
        if (wide(2 * i + 1) != T(-5)) ++bad;
      }
      if (!close<T>(got, want)) ++bad;
    }
    CHECK_MESSAGE(bad == 0, which << ": " << bad << " wrong elements");
  }
  // A column broadcast over step-2 columns (the column's rows have stride
  // 0), and a scalar alone into rows cols + 2 apart.
  const st::index_t rows = 5, cols = 17;
  const auto vm = random_values<T>(static_cast<std::size_t>(rows * 2 * cols), 46);
  st::array<T, 2, P> m({rows, 2 * cols}), o2({rows, cols}), o3({rows, cols + 2});
  for (st::index_t i = 0; i < rows * 2 * cols; ++i) m.data()[i] = vm[static_cast<std::size_t>(i)];
  o3 = T(-5);
  for (const bool scalar : {false, true}) {
    st::trace_scope t;
    if (scalar) o3(st::all, st::slice(1, cols + 1)) = T(3);
    else o2 = m(st::all, st::slice(0, st::end, 2)) - c(st::slice(0, rows))(st::all, st::newaxis);
    const std::string detail = only_pass(t);
    CHECK_MESSAGE(detail.find("strided") == 0, detail);
    CHECK_MESSAGE(detail.find("step 2") == std::string::npos, detail);
  }
  st::index_t bad = 0;
  for (st::index_t i = 0; i < rows; ++i) {
    if (o3(i, 0) != T(-5) || o3(i, cols + 1) != T(-5)) ++bad;
    for (st::index_t j = 0; j < cols; ++j) {
      const double want = static_cast<double>(vm[static_cast<std::size_t>(i * 2 * cols + 2 * j)]) - ct(i);
      if (!close<T>(static_cast<double>(o2(i, j)), want)) ++bad;
      if (o3(i, j + 1) != T(3)) ++bad;
    }
  }
  CHECK_MESSAGE(bad == 0, "column broadcast and scalar: " << bad << " wrong elements");
}

// An array's leaf is dense (leaf.hpp): a tree holding one never reads all
// its rows at stride 2, so host passes over it do not compile the step-2
// loop; views and slices of the same array are ordinary leaves.
TEST_CASE_TEMPLATE("step 2: trees holding a whole array do not compile the step-2 loop", PT, SINTER_STEP2_TYPES) {
  using P = typename PT::first_type;
  using T = typename PT::second_type;
  const st::index_t n = 1031;
  const auto va = random_values<T>(static_cast<std::size_t>(n), 47);
  const auto vb = random_values<T>(static_cast<std::size_t>(2 * n), 48);
  auto a = sinter_test::filled<P>(va);
  const auto b = sinter_test::filled<P>(vb);
  const auto b2 = b(st::slice(0, st::end, 2));
  using dense = typename decltype(a.as_expr())::node_type;
  using sliced = typename decltype(a(st::slice(1, n)).as_expr())::node_type;
  using transposed = typename decltype(st::transpose(a).as_expr())::node_type;
  static_assert(std::is_same_v<dense, st::detail::memory_leaf<const T, 1, true>>);
  static_assert(std::is_same_v<sliced, st::detail::memory_leaf<const T, 1>>);
  static_assert(std::is_same_v<transposed, st::detail::memory_leaf<const T, 1>>);
  static_assert(st::detail::is_memory_leaf<dense>::value);
  static_assert(!st::detail::step2_possible_v<typename decltype(a + b2)::node_type>);
  static_assert(!st::detail::step2_possible_v<typename decltype(st::exp(b2 * T(2)) - a)::node_type>);
  static_assert(st::detail::step2_possible_v<typename decltype(b2 * T(2) + b2)::node_type>);

  // Values: an array beside a step-2 view, and in-place passes where an
  // array's dense leaf and a view of the same memory overlap the output
  // (the overlap check sees dense leaves: a temporary is taken).
  st::array<T, 1, P> out({n});
  {
    st::trace_scope t;
    out = a * T(3) - b2;
    const std::string detail = only_pass(t);
    CHECK_MESSAGE(detail.find("strided") == 0, detail);
    CHECK_MESSAGE(detail.find("step 2") == std::string::npos, detail);
  }
  st::index_t bad = 0;
  for (st::index_t i = 0; i < n; ++i) {
    const double want = static_cast<double>(va[static_cast<std::size_t>(i)]) * 3 -
                        static_cast<double>(vb[static_cast<std::size_t>(2 * i)]);
    if (!close<T>(static_cast<double>(out(i)), want)) ++bad;
  }
  CHECK_MESSAGE(bad == 0, bad << " wrong elements in a * 3 - b[::2]");
  a = a(st::slice(n - 1, st::none, -1)) + a * T(2);  // reversed self: needs a temporary
  bad = 0;
  for (st::index_t i = 0; i < n; ++i) {
    const double want = static_cast<double>(va[static_cast<std::size_t>(n - 1 - i)]) +
                        2 * static_cast<double>(va[static_cast<std::size_t>(i)]);
    if (!close<T>(static_cast<double>(a(i)), want)) ++bad;
  }
  CHECK_MESSAGE(bad == 0, bad << " wrong elements in a = a[::-1] + a * 2");
  // Only the dense leaf reads the output's memory here, in another order.
  std::vector<double> before(static_cast<std::size_t>(n));
  for (st::index_t i = 0; i < n; ++i) before[static_cast<std::size_t>(i)] = static_cast<double>(a(i));
  a(st::slice(n - 1, st::none, -1)) = a * T(2);
  bad = 0;
  for (st::index_t i = 0; i < n; ++i)
    if (!close<T>(static_cast<double>(a(i)), 2 * before[static_cast<std::size_t>(n - 1 - i)])) ++bad;
  CHECK_MESSAGE(bad == 0, bad << " wrong elements in a[::-1] = a * 2");
}

// Untraced, a small rank-1 pass whose leaves all read at stride 2 runs the
// step-2 loop first thing in assign_bound (evaluate.hpp, direct_step2_ok),
// after rows_overlap<2> has checked every input against the output: a trace
// sends it down the rest of the general path, as in the cases above. Values against a double
// loop at odd lengths, an output one element into its buffer between
// sentinels, with and without a maths call; then outputs inside the array
// they read. Written over the elements it reads later (out[i] is a[n/2 + i],
// read as a[2 j] at j = (n/2 + i) / 2 > i), a pass without a temporary
// reads values it has already written.
TEST_CASE_TEMPLATE("step 2: untraced, through assign_bound's direct step-2 pass", PT, SINTER_STEP2_TYPES) {
  using P = typename PT::first_type;
  using T = typename PT::second_type;
  for (const st::index_t n : {1, 2, 15, 16, 17, 31, 33, 1000, 1031, 4099}) {
    CAPTURE(n);
    const auto un = static_cast<std::size_t>(n);
    const auto va = random_values<T>(2 * un + 1, 51);
    const auto vb = random_values<T>(2 * un + 1, 52);
    const auto a = sinter_test::filled<P>(va), b = sinter_test::filled<P>(vb);
    const auto a2 = a(st::slice(1, st::end, 2)), b2 = b(st::slice(0, 2 * n, 2));
    st::array<T, 1, P> buf({n + 2});
    auto out = buf(st::slice(1, n + 1));
    auto check = [&](auto f, const char* what) {
      st::index_t bad = buf(0) != T(-5) || buf(n + 1) != T(-5);
      for (st::index_t i = 0; i < n; ++i) {
        const auto u = static_cast<std::size_t>(i);
        if (!close<T>(static_cast<double>(buf(i + 1)), f(static_cast<double>(va[2 * u + 1]),
                                                        static_cast<double>(vb[2 * u]))))
          ++bad;
      }
      CHECK_MESSAGE(bad == 0, what << ": " << bad << " wrong elements");
    };
    buf = T(-5);
    out = a2 * T(2) + b2;
    check([](double x, double y) { return x * 2 + y; }, "a[1::2] * 2 + b[::2]");
    buf = T(-5);
    out = st::exp(a2 * T(0.25)) - b2;
    check([](double x, double y) { return std::exp(x * 0.25) - y; }, "exp(a[1::2] / 4) - b[::2]");

    // In place: c[h:h+n] = c[:2n:2] + 1 with h = n / 2, and c[:n] = c[1::2] * 2.
    std::vector<T> ref(2 * un + 1);
    for (std::size_t i = 0; i < ref.size(); ++i) ref[i] = va[i];
    auto c = sinter_test::filled<P>(ref);
    const st::index_t h = n / 2;
    c(st::slice(h, h + n)) = c(st::slice(0, 2 * n, 2)) + T(1);
    st::index_t bad = 0;
    for (std::size_t i = 0; i < ref.size(); ++i) {
      const bool written = i >= static_cast<std::size_t>(h) && i < static_cast<std::size_t>(h + n);
      const T want = written ? T(ref[2 * (i - static_cast<std::size_t>(h))] + T(1)) : ref[i];
      bad += c.data()[i] != want;
    }
    CHECK_MESSAGE(bad == 0, "c[n/2:n/2+n] = c[:2n:2] + 1: " << bad << " wrong elements");
    auto d = sinter_test::filled<P>(ref);
    d(st::slice(0, n)) = d(st::slice(1, st::end, 2)) * T(2);
    bad = 0;
    for (std::size_t i = 0; i < ref.size(); ++i) bad += d.data()[i] != (i < un ? T(ref[2 * i + 1] * T(2)) : ref[i]);
    CHECK_MESSAGE(bad == 0, "c[:n] = c[1::2] * 2: " << bad << " wrong elements");
  }
}
