// A costly subexpression written more than once (`d` in exp(d) * c - tanh(d))
// is computed once per element on contiguous CPU passes
// (core/shared_nodes.hpp, policy/host/tie.hpp): the trace says so, and
// the values are those of the expression as written. They are checked
// against a double reference, and bit for bit against the same tree run
// unshared into a strided output. Full reductions share it too (their folds
// equal those of the materialised values, bit for bit). Occurrences that
// differ (other arrays, other views of one array, other scalars) are never
// shared.
#include <doctest/doctest.h>

#include "support/filled.hpp"
#include "support/random.hpp"
#include "support/streaming.hpp"

#include <cmath>
#include <cstring>
#include <sinter/sinter.hpp>
#include <string>
#include <vector>

namespace st = sinter;
using sinter_test::random_vector;

namespace {

bool is_shared(const std::string& detail) {
  return detail.find("shared subexpression computed once") != std::string::npos;
}

// exp(d) * c - tanh(d), d = log(a) * b + 1, in double.
double shared_reference(float a, float b, float c) {
  const double d = std::log(static_cast<double>(a)) * static_cast<double>(b) + 1.0;
  return std::exp(d) * static_cast<double>(c) - std::tanh(d);
}

}  // namespace

TEST_CASE_TEMPLATE("shared: a costly subexpression written twice is computed once, values as written", P, st::host,
                   st::par) {
  // Tiles hold 1024 floats: sizes around one and several tiles; 70001 >
  // 2 * par_grain, so par splits it; offset 1 misaligns every vector.
  for (bool stream : {false, true}) {
    sinter_test::streaming_scope scope(stream);
    for (st::index_t n : {1, 7, 17, 1023, 1024, 1025, 4099, 70001}) {
      for (st::index_t off : {0, 1}) {
        const auto va = random_vector<float>(static_cast<std::size_t>(n + off), 41, 0.5f, 2.f);
        const auto vb = random_vector<float>(static_cast<std::size_t>(n + off), 42, -1.f, 1.f);
        const auto vc = random_vector<float>(static_cast<std::size_t>(n + off), 43, -1.f, 1.f);
        const auto a0 = sinter_test::filled<P>(va), b0 = sinter_test::filled<P>(vb), c0 = sinter_test::filled<P>(vc);
        const auto a = a0(st::slice(off, st::end)), b = b0(st::slice(off, st::end)), c = c0(st::slice(off, st::end));
        st::array<float, 1, P> out({n}), wide({2 * n});
        auto strided = wide(st::slice(0, st::end, 2));
        st::trace_scope t;
        const auto d = st::log(a) * b + 1.f;
        out = st::exp(d) * c - st::tanh(d);
        strided = st::exp(d) * c - st::tanh(d);
        const auto passes = t.passes();
        REQUIRE(passes.size() == 2);
        CHECK_MESSAGE(is_shared(passes[0].detail), passes[0].detail);
        // A strided output of one element is contiguous, and shares too.
        if (n > 1) CHECK_MESSAGE(!is_shared(passes[1].detail), passes[1].detail);
        CHECK_MESSAGE((passes[0].detail.find("streaming") != std::string::npos) == stream, passes[0].detail);
        st::index_t bad = 0, differ = 0;
        for (st::index_t i = 0; i < n; ++i) {
          const auto u = static_cast<std::size_t>(i + off);
          const double ref = shared_reference(va[u], vb[u], vc[u]);
          // d to a few ulps (|d| < 1.7), exp(d) * c up to 5.5: 1e-5 absolute is
          // about 20 float ulps of the largest values.
          if (!(std::abs(out(i) - ref) <= 1e-5)) ++bad;
          if (!sinter_test::same_bits(out(i), strided(i))) ++differ;
        }
        CHECK_MESSAGE(bad == 0, "n = " << n << ", offset " << off << ", stream " << stream << ": " << bad
                                       << " elements differ from the reference");
        CHECK_MESSAGE(differ == 0, "n = " << n << ": " << differ << " elements differ from the unshared pass");
      }
    }
  }
}

TEST_CASE_TEMPLATE("shared: the output may be an operand (same mapping)", P, st::host, st::par) {
  const st::index_t n = 3001;
  const auto va = random_vector<float>(static_cast<std::size_t>(n), 51, 0.1f, 9.f);
  auto a = sinter_test::filled<P>(va);
  st::trace_scope t;
  a = st::exp(st::log(a) * 0.5f) + st::exp(st::log(a) * 0.5f) * 2.f;  // 3 sqrt(a)
  REQUIRE(t.passes().size() == 1);
  CHECK_MESSAGE(is_shared(t.passes()[0].detail), t.passes()[0].detail);
  st::index_t bad = 0;
  for (st::index_t i = 0; i < n; ++i) {
    const double ref = 3 * std::sqrt(static_cast<double>(va[static_cast<std::size_t>(i)]));
    if (!(std::abs(a(i) - ref) <= 4e-6 * ref)) ++bad;
  }
  CHECK_MESSAGE(bad == 0, bad << " elements differ from 3 sqrt(a)");
}

TEST_CASE_TEMPLATE("shared: full reductions compute it once too, with the folds of the materialised values", P, st::host,
                   st::par) {
  // Reduction tiles hold 4096 elements; 70001 > 2 * par_grain (par folds
  // tiles on several threads, in the same order).
  for (st::index_t n : {1, 17, 4095, 4096, 4097, 70001}) {
    const auto va = random_vector<float>(static_cast<std::size_t>(n), 71, 0.5f, 2.f);
    const auto vb = random_vector<float>(static_cast<std::size_t>(n), 72, -1.f, 1.f);
    const auto vc = random_vector<float>(static_cast<std::size_t>(n), 73, -1.f, 1.f);
    const auto a = sinter_test::filled<P>(va), b = sinter_test::filled<P>(vb), c = sinter_test::filled<P>(vc);
    const auto d = st::log(a) * b + 1.f;
    st::array<float, 1, P> out({n});
    out = st::exp(d) * c - st::tanh(d);
    st::trace_scope t;
    const float s = st::sum(st::exp(d) * c - st::tanh(d));
    const float m = st::max(st::exp(d) * c - st::tanh(d));
    const auto am = st::argmax(st::exp(d) * c - st::tanh(d));
    const auto rows = st::sum(st::exp(d) * c - st::tanh(d), st::axis(0));  // along an axis: as written
    const auto passes = t.passes();
    REQUIRE(passes.size() == 4);
    for (std::size_t k = 0; k < 3; ++k) CHECK_MESSAGE(is_shared(passes[k].detail), passes[k].detail);
    CHECK_MESSAGE(!is_shared(passes[3].detail), passes[3].detail);
    // The same fold of the same values: bit for bit.
    CHECK(sinter_test::same_bits(s, st::sum(out)));
    CHECK(sinter_test::same_bits(m, st::max(out)));
    CHECK(am == st::argmax(out));
    const auto rows_out = st::sum(out, st::axis(0));
    CHECK(sinter_test::same_bits(rows(), rows_out()));
    double ref = 0, mag = 0, best = -1e300;
    for (std::size_t i = 0; i < static_cast<std::size_t>(n); ++i) {
      const double v = shared_reference(va[i], vb[i], vc[i]);
      ref += v;
      mag += std::abs(v);
      best = std::max(best, v);
    }
    CHECK_MESSAGE(std::abs(s - ref) <= 1e-5 * mag + 1e-6, "n = " << n << ": sum " << s << " against " << ref);
    CHECK(std::abs(m - best) <= 1e-5);
  }
}

// Whether a pass shares is decided before the policy runs (shared_equal),
// the same code for host and par: host only (CI time).
TEST_CASE("shared: occurrences that differ, and strided passes, run as written") {
  using P = st::host;
  const st::index_t n = 1500;
  const auto va = random_vector<float>(static_cast<std::size_t>(n + 1), 61, -2.f, 2.f);
  const auto vb = random_vector<float>(static_cast<std::size_t>(n + 1), 62, -2.f, 2.f);
  const auto a = sinter_test::filled<P>(va), b = sinter_test::filled<P>(vb);
  st::array<float, 1, P> out({n});
  const auto a_lo = a(st::slice(0, n)), a_hi = a(st::slice(1, n + 1)), b_lo = b(st::slice(0, n));
  auto expect = [&](const auto& e, auto ref, bool want, const std::string& what) {
    st::trace_scope t;
    out = e;
    REQUIRE(t.passes().size() == 1);
    CHECK_MESSAGE(is_shared(t.passes()[0].detail) == want, what << ": " << t.passes()[0].detail);
    st::index_t bad = 0;
    for (st::index_t i = 0; i < n; ++i) {
      const double r = ref(static_cast<std::size_t>(i));
      if (!(std::abs(out(i) - r) <= 2e-6 * (std::abs(r) + 1))) {
        if (bad == 0) MESSAGE(what << ": first difference at " << i << ": " << out(i) << " against " << r);
        ++bad;
      }
    }
    CHECK_MESSAGE(bad == 0, what << ": " << bad << " elements differ from the reference");
  };
  auto ex = [](double x) { return std::exp(x); };
  expect(st::exp(a_lo * 0.5f) + st::exp(b_lo * 0.5f), [&](std::size_t i) { return ex(va[i] * 0.5) + ex(vb[i] * 0.5); },
         false, "other arrays");
  expect(st::exp(a_lo * 0.5f) + st::exp(a_hi * 0.5f),
         [&](std::size_t i) { return ex(va[i] * 0.5) + ex(va[i + 1] * 0.5); }, false, "other views of one array");
  expect(st::exp(a_lo * 0.5f) + st::exp(a_lo * 0.25f),
         [&](std::size_t i) { return ex(va[i] * 0.5) + ex(va[i] * 0.25); }, false, "other scalars");
  expect(st::exp(a_lo * 0.5f) - st::exp(a_lo * 0.5f) * b_lo,
         [&](std::size_t i) { return ex(va[i] * 0.5) * (1 - static_cast<double>(vb[i])); }, true, "equal occurrences");
  // Cheap repeats (no maths function) are not worth a buffer.
  expect((a_lo - b_lo) / (a_lo - b_lo + 5.f),
         [&](std::size_t i) {
           const double d = static_cast<double>(va[i]) - vb[i];
           return d / (d + 5);
         },
         false, "a cheap repeat");
  // A strided input: the pass runs by rows, as written.
  const auto a_odd = a(st::slice(0, n, 1));
  st::array<float, 1, P> wide({2 * n});
  for (st::index_t i = 0; i < 2 * n; ++i) wide(i) = va[static_cast<std::size_t>(i / 2)];
  const auto w = wide(st::slice(0, st::end, 2));
  expect(st::exp(w * 0.5f) + st::exp(w * 0.5f) * a_odd,
         [&](std::size_t i) { return ex(va[i] * 0.5) * (1 + static_cast<double>(va[i])); }, false, "strided input");
}
