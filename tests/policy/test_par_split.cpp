// How par splits strided passes: in chunks of flat positions that may start
// and end inside a row, so passes with fewer rows than chunks (a 1-D strided
// view is a single row) still run on every thread. Results are checked
// against a double-precision scalar loop, with and without streaming stores,
// for 1-D strided inputs and outputs and for 2-D passes of 1 to 5 long rows;
// the trace shows how many threads ran.
#include <doctest/doctest.h>

#include <cmath>
#include <random>
#include <sinter/sinter.hpp>
#include <string>
#include <vector>

#include "support/random.hpp"
#include "support/row_paths.hpp"
#include "support/streaming.hpp"

namespace st = sinter;

namespace {

std::vector<float> split_random_floats(std::size_t n, unsigned seed) {
  return sinter_test::random_vector(n, seed, -8.f, 8.f);
}

// The detail of the one pass the trace recorded.
using sinter_test::only_pass;

// A pass this large must be cut into at least as many chunks as there are
// threads ("... 2 threads, 8 chunks"), so that every thread gets work.
void check_threads(const std::string& detail) {
  const int threads = st::get_num_threads();
  if (threads < 2) return;
  const std::string tag = std::to_string(threads) + " threads, ";
  const auto at = detail.find(tag);
  REQUIRE_MESSAGE(at != std::string::npos, detail);
  const long chunks = std::stol(detail.substr(at + tag.size()));
  CHECK_MESSAGE(chunks >= threads, detail);
}

}  // namespace

TEST_CASE("par: a 1-D strided pass is split over the threads") {
  // 100003 (prime) outputs: chunk boundaries fall at odd places in the row.
  for (const bool stream : {false, true}) {
    sinter_test::streaming_scope mode(stream);
    for (const st::index_t n : {st::index_t{100003}, st::index_t{65536 * 2 + 17}}) {
      const auto va = split_random_floats(static_cast<std::size_t>(3 * n), 1), vb = split_random_floats(static_cast<std::size_t>(3 * n), 2);
      st::array<float, 1, st::par> a({3 * n}), b({3 * n}), out({n});
      for (st::index_t i = 0; i < 3 * n; ++i) {
        a(i) = va[static_cast<std::size_t>(i)];
        b(i) = vb[static_cast<std::size_t>(i)];
      }
      out = -1.f;
      st::trace_scope t;
      out = a(st::slice(1, st::end, 3)) * 2.f + b(st::slice(0, 3 * n, 3));
      const std::string detail = only_pass(t);
      CHECK_MESSAGE(detail.find("strided") == 0, detail);
      check_threads(detail);
      st::index_t bad = 0;
      for (st::index_t i = 0; i < n; ++i) {
        const double want = static_cast<double>(va[static_cast<std::size_t>(3 * i + 1)]) * 2 + vb[static_cast<std::size_t>(3 * i)];
        if (std::abs(static_cast<double>(out(i)) - want) > 1e-6 * (std::abs(want) + 1)) ++bad;
      }
      CHECK_MESSAGE(bad == 0, "n = " << n << ", streaming = " << stream << ": " << bad << " wrong elements");
    }
  }
}

TEST_CASE("par: a strided output with few rows is split, and nothing outside it is written") {
  const st::index_t n = 99991;  // prime
  const auto va = split_random_floats(static_cast<std::size_t>(n), 3);
  st::array<float, 1, st::par> a({n}), buf({2 * n + 1});
  for (st::index_t i = 0; i < n; ++i) a(i) = va[static_cast<std::size_t>(i)];
  buf = 5.f;
  st::trace_scope t;
  buf(st::slice(1, st::end, 2)) = st::abs(a) - 1.f;  // output stride 2: the scalar store loop
  check_threads(only_pass(t));
  st::index_t bad = 0;
  for (st::index_t i = 0; i < n; ++i) {
    if (buf(2 * i) != 5.f) ++bad;
    if (static_cast<double>(buf(2 * i + 1)) != static_cast<double>(std::abs(va[static_cast<std::size_t>(i)]) - 1.f)) ++bad;
  }
  if (buf(2 * n) != 5.f) ++bad;
  CHECK(bad == 0);
}

TEST_CASE("par: 2-D strided passes of 1 to 5 long rows, streaming or not") {
  for (const bool stream : {false, true})
    for (const st::index_t rows : {1, 2, 3, 5}) {
      sinter_test::streaming_scope mode(stream);
      const st::index_t cols = 40009;  // prime, so rows end at odd chunk offsets
      const auto vm = split_random_floats(static_cast<std::size_t>(rows * (cols + 1)), 4);
      const auto vr = split_random_floats(static_cast<std::size_t>(cols), 5);
      st::array<float, 2, st::par> m({rows, cols + 1}), out({rows, cols + 2});
      st::array<float, 1, st::par> row({cols});
      for (st::index_t i = 0; i < rows; ++i)
        for (st::index_t j = 0; j <= cols; ++j) m(i, j) = vm[static_cast<std::size_t>(i * (cols + 1) + j)];
      for (st::index_t j = 0; j < cols; ++j) row(j) = vr[static_cast<std::size_t>(j)];
      out = -3.f;
      st::trace_scope t;
      // Input rows cols + 1 apart, output rows cols + 2 apart: neither collapses.
      out(st::all, st::slice(2, st::end)) = m(st::all, st::slice(1, st::end)) * row + 0.5f;
      const std::string detail = only_pass(t);
      // One row is contiguous (extent-1 axes do not count) and below par's grain.
      const char* want_path = rows == 1 ? (stream ? "contiguous streaming" : "contiguous") : (stream ? "strided streaming" : "strided");
      CHECK_MESSAGE(detail.find(want_path) == 0, detail);
      if (rows * cols >= 65536) check_threads(detail);
      st::index_t bad = 0;
      for (st::index_t i = 0; i < rows; ++i) {
        if (out(i, 0) != -3.f || out(i, 1) != -3.f) ++bad;
        for (st::index_t j = 0; j < cols; ++j) {
          const double want = static_cast<double>(vm[static_cast<std::size_t>(i * (cols + 1) + j + 1)]) * vr[static_cast<std::size_t>(j)] + 0.5;
          if (std::abs(static_cast<double>(out(i, j + 2)) - want) > 1e-6 * (std::abs(want) + 1)) ++bad;
        }
      }
      CHECK_MESSAGE(bad == 0, "rows = " << rows << ", streaming = " << stream << ": " << bad << " wrong elements");
    }
}
