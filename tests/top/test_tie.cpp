// sinter::tie (tie.hpp): one pass writing several outputs. Checked against
// double references on random data at odd sizes and misaligned views, bit
// for bit against the same expressions assigned one by one, with outputs
// that the expressions read (swaps, other mappings), on strided and
// broadcast layouts (one pass over rows) and mixed element types, and for
// its errors.
#include <doctest/doctest.h>

#include "support/filled.hpp"
#include "support/random.hpp"
#include "support/scale.hpp"
#include "support/streaming.hpp"

#include <cmath>
#include <cstring>
#include <sinter/sinter.hpp>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

namespace st = sinter;
using sinter_test::random_vector;

namespace {


template <class T>
bool tie_same_bits(T x, T y) {
  return std::memcmp(&x, &y, sizeof x) == 0;
}

bool has(const std::string& s, const char* what) { return s.find(what) != std::string::npos; }

constexpr double bs_r = 0.02, bs_v = 0.3, bs_c = 0.70710678118654752440;

// Black-Scholes call (k = 0) and put (k = 1) in double.
double bs_reference(double s, double k, double t, int which) {
  const double vs = bs_v * std::sqrt(t), d1 = (std::log(s / k) + (bs_r + 0.5 * bs_v * bs_v) * t) / vs, d2 = d1 - vs;
  const double ke = k * std::exp(-bs_r * t);
  if (which == 0) return s * 0.5 * std::erfc(-d1 * bs_c) - ke * 0.5 * std::erfc(-d2 * bs_c);
  return ke * 0.5 * std::erfc(d2 * bs_c) - s * 0.5 * std::erfc(d1 * bs_c);
}

// The call and put expressions, d1 written once and used four times.
template <class T, class V>
auto bs_prices(const V& s, const V& k, const V& t) {
  const T c = T(bs_c);
  const auto vs = st::sqrt(t) * T(bs_v);
  const auto d1 = (st::log(s / k) + t * T(bs_r + 0.5 * bs_v * bs_v)) / vs;
  const auto d2 = d1 - vs;
  const auto ke = k * st::exp(t * T(-bs_r));
  return std::tuple(s * T(0.5) * st::erfc(d1 * -c) - ke * T(0.5) * st::erfc(d2 * -c),
                    ke * T(0.5) * st::erfc(d2 * c) - s * T(0.5) * st::erfc(d1 * c));
}

template <class T, class P>
void check_black_scholes() {
  // Prices are differences of terms up to 100: float keeps ~1e-5 of those.
  const double tol = sizeof(T) == 4 ? 2e-4 : 1e-11;
  for (bool stream : {false, true}) {
    sinter_test::streaming_scope scope(stream);
    // Tiles of 1024 floats (512 doubles); 70001 > 2 * par_grain, so par
    // splits it; offset 1 misaligns every vector. Unoptimised builds
    // (support/scale.hpp) give host 4099 as its largest: more tiles of the
    // same loop. Sanitizer builds split par's 70001 for two of the four
    // (stream, offset) pairs: each mode and each offset still once.
    const bool big = std::is_same_v<P, st::par> || sinter_test::scale == 1;
#if defined(SINTER_TEST_SANITIZED)
    constexpr bool sample_split = true;
#else
    constexpr bool sample_split = false;
#endif
    for (st::index_t n : {0, 1, 7, 17, 511, 1024, 1025, 4099, 70001}) {
      if (n == 70001 && !big) continue;
      for (st::index_t off : {0, 1}) {
        if (n == 70001 && sample_split && stream != (off == 1)) continue;
        const auto m = static_cast<std::size_t>(n + off);
        const auto vs = random_vector<T>(m, 61, T(5), T(30)), vk = random_vector<T>(m, 62, T(1), T(100)),
                   vt = random_vector<T>(m, 63, T(0.25), T(10));
        const auto s0 = sinter_test::filled<P>(vs), k0 = sinter_test::filled<P>(vk), t0 = sinter_test::filled<P>(vt);
        const auto s = s0(st::slice(off, st::end)), k = k0(st::slice(off, st::end)), t = t0(st::slice(off, st::end));
        st::array<T, 1, P> call({n + off}), put({n + off}), call1({n}), put1({n});
        call = T(0);
        put = T(0);
        auto c = call(st::slice(off, st::end)), p = put(st::slice(off, st::end));
        const auto [ce, pe] = bs_prices<T>(s, k, t);
        std::vector<st::pass_record> passes;
        {
          st::trace_scope tr;
          st::tie(c, p) = bs_prices<T>(s, k, t);
          passes = tr.passes();
        }
        call1 = ce;  // one by one, for the bits
        put1 = pe;
        REQUIRE(passes.size() == 1);
        const auto& r = passes[0];
        if (n > 0) {
          CHECK_MESSAGE(has(r.detail, "tie contiguous"), r.detail);
          CHECK_MESSAGE(has(r.detail, "shared subexpression computed once"), r.detail);
          CHECK_MESSAGE(has(r.detail, "streaming") == stream, r.detail);
        }
        CHECK(r.elements == n);
        CHECK(r.bytes_read == 3 * static_cast<std::size_t>(n) * sizeof(T));
        CHECK(r.bytes_written == 2 * static_cast<std::size_t>(n) * sizeof(T));
        st::index_t bad = 0, differ = 0;
        for (st::index_t i = 0; i < n; ++i) {
          const auto u = static_cast<std::size_t>(i + off);
          for (int w = 0; w < 2; ++w) {
            const double ref = bs_reference(vs[u], vk[u], vt[u], w);
            const T got = w == 0 ? c(i) : p(i);
            if (!(std::abs(got - ref) <= tol)) ++bad;
            if (!tie_same_bits(got, w == 0 ? call1(i) : put1(i))) ++differ;
          }
        }
        CHECK_MESSAGE(bad == 0, "n = " << n << ", offset " << off << ", stream " << stream << ": " << bad
                                       << " prices differ from the reference");
        CHECK_MESSAGE(differ == 0, "n = " << n << ": " << differ << " prices differ from one-by-one assignment");
        if (off == 1 && n > 0) {  // the element before the views is not written
          CHECK(call(0) == T(0));
          CHECK(put(0) == T(0));
        }
      }
    }
  }
}

}  // namespace

TEST_CASE_TEMPLATE("tie: Black-Scholes call and put in one pass, d1 computed once, values as written", P, st::host,
                   st::par) {
  check_black_scholes<float, P>();
  check_black_scholes<double, P>();
}

TEST_CASE_TEMPLATE("tie: outputs that the expressions read get the values from before the pass", P, st::host,
                   st::par) {
  for (st::index_t n : {1, 5, 1025, 70001}) {
    const auto m = static_cast<std::size_t>(n);
    const auto va = random_vector<float>(m, 71, -2.f, 2.f), vb = random_vector<float>(m, 72, -2.f, 2.f);
    auto a = sinter_test::filled<P>(va), b = sinter_test::filled<P>(vb);
    const auto expect = [&](const char* what, auto fa, auto fb) {
      st::index_t bad = 0;
      for (std::size_t i = 0; i < m; ++i) {
        const auto j = static_cast<st::index_t>(i);
        if (a(j) != fa(i) || b(j) != fb(i)) ++bad;
      }
      CHECK_MESSAGE(bad == 0, what << ", n = " << n << ": " << bad << " elements wrong");
    };
    {
      st::trace_scope tr;
      st::tie(a, b) = std::tie(b, a);  // a swap: each output read by the other expression
      expect("swap", [&](std::size_t i) { return vb[i]; }, [&](std::size_t i) { return va[i]; });
      CHECK(tr.passes().size() == 4);  // two temporaries, two copies
    }
    {
      a = sinter_test::filled<P>(va);
      b = sinter_test::filled<P>(vb);
      st::tie(a, b) = std::tuple(a + 1.f, a * 2.f);  // b reads a's old values
      expect("a + 1, a * 2", [&](std::size_t i) { return va[i] + 1.f; }, [&](std::size_t i) { return va[i] * 2.f; });
    }
    {
      a = sinter_test::filled<P>(va);
      b = sinter_test::filled<P>(vb);
      const auto ra = a(st::slice(st::none, st::none, -1));  // a reversed
      st::tie(a, b) = std::tuple(ra * 3.f, b - 1.f);  // a read through another mapping
      expect("reversed", [&](std::size_t i) { return va[m - 1 - i] * 3.f; }, [&](std::size_t i) { return vb[i] - 1.f; });
    }
    {
      a = sinter_test::filled<P>(va);
      b = sinter_test::filled<P>(vb);
      st::trace_scope tr;
      st::tie(a, b) = std::tuple(a * 2.f, b * 3.f);  // each reads only itself, same mapping: one pass
      expect("in place", [&](std::size_t i) { return va[i] * 2.f; }, [&](std::size_t i) { return vb[i] * 3.f; });
      REQUIRE(tr.passes().size() == 1);
      CHECK_MESSAGE(has(tr.passes()[0].detail, "tie contiguous"), tr.passes()[0].detail);
      CHECK(!has(tr.passes()[0].detail, "shared"));
    }
  }
}

TEST_CASE_TEMPLATE("tie: strided and broadcast outputs, mixed element types, three outputs", P, st::host, st::par) {
  // 600 x 130 > 2 * par_grain: par splits the row pass (chunks end inside rows).
  for (st::index_t rows : {1, 3, 17, 600}) {
    for (st::index_t cols : {1, 7, 130}) {
      const auto mr = static_cast<std::size_t>(rows), mc = static_cast<std::size_t>(cols);
      const auto vx = random_vector<double>(mr * mc, 81, -3.0, 3.0), vrow = random_vector<double>(mc, 82, -1.0, 1.0);
      st::array<double, 2, P> x({rows, cols}), wide({rows, 2 * cols});
      wide = 0.0;
      st::array<double, 1, P> row({cols});
      for (std::size_t i = 0; i < mr * mc; ++i)
        x(static_cast<st::index_t>(i / mc), static_cast<st::index_t>(i % mc)) = vx[i];
      for (std::size_t j = 0; j < mc; ++j) row(static_cast<st::index_t>(j)) = vrow[j];
      st::array<float, 2, P> f({rows, cols});
      st::array<std::int32_t, 2, P> sign({rows, cols});
      auto w = wide(st::all, st::slice(0, st::end, 2));  // every other column: strided
      std::vector<st::pass_record> passes;
      {
        st::trace_scope tr;
        st::tie(w, f, sign) = std::tuple(st::exp(x) + row, st::tanh(x - row), x > row);
        passes = tr.passes();
      }
      // A strided output: one pass over rows (one row of it is contiguous).
      REQUIRE(passes.size() == 1);
      CHECK_MESSAGE(has(passes[0].detail, w.is_contiguous() ? "tie contiguous" : "tie strided"), passes[0].detail);
      st::index_t bad = 0;
      for (std::size_t i = 0; i < mr; ++i)
        for (std::size_t j = 0; j < mc; ++j) {
          const auto r = static_cast<st::index_t>(i), c = static_cast<st::index_t>(j);
          const double xv = vx[i * mc + j], rv = vrow[j];
          if (!(std::abs(w(r, c) - (std::exp(xv) + rv)) <= 1e-13 * (std::exp(xv) + 2))) ++bad;
          if (!(std::abs(f(r, c) - std::tanh(xv - rv)) <= 1e-6)) ++bad;
          if (sign(r, c) != (xv > rv ? 1 : 0)) ++bad;
          if (wide(r, 2 * c + 1) != 0) ++bad;  // untouched
        }
      CHECK_MESSAGE(bad == 0, rows << " x " << cols << ": " << bad << " elements wrong");
      // Contiguous outputs and a broadcast expression: a scalar and a row.
      st::array<double, 2, P> g({rows, cols});
      {
        st::trace_scope tr;
        st::tie(g, f) = std::tuple(2.5, row * 2.0);
        // A broadcast row: one pass over rows (into one row, it is contiguous).
        REQUIRE(tr.passes().size() == 1);
        CHECK_MESSAGE(has(tr.passes()[0].detail, rows == 1 ? "tie contiguous" : "tie strided"), tr.passes()[0].detail);
      }
      bad = 0;
      for (std::size_t i = 0; i < mr; ++i)
        for (std::size_t j = 0; j < mc; ++j) {
          const auto r = static_cast<st::index_t>(i), c = static_cast<st::index_t>(j);
          if (g(r, c) != 2.5 || f(r, c) != static_cast<float>(vrow[j] * 2.0)) ++bad;
        }
      CHECK_MESSAGE(bad == 0, rows << " x " << cols << ": " << bad << " broadcast elements wrong");
    }
  }
}

TEST_CASE("tie: errors name the shapes or outputs, and nothing is written") {
  st::array<float, 1> a = st::arange<float>(4), b = st::arange<float>(4) + 10.f, c({5}), d({3});
  st::array<float, 2> m({2, 4});
  // Outputs of different shapes.
  CHECK_THROWS_WITH_AS(st::tie(a, c) = std::tuple(b, b), "tie: outputs of shapes (4,) and (5,): one pass writes one shape",
                       st::shape_error);
  // An expression that does not broadcast to its output.
  CHECK_THROWS_WITH_AS(st::tie(a, b) = std::tuple(a * 2.f, d), "tie: cannot broadcast shape (3,) to (4,)",
                       st::shape_error);
  CHECK_THROWS_AS(st::tie(a, b) = std::tuple(m, a), st::shape_error);
  // Outputs sharing elements.
  CHECK_THROWS_WITH_AS(st::tie(a, a) = std::tuple(b, b), "tie: outputs 0 and 1 overlap: one pass cannot write an element twice",
                       st::value_error);
  CHECK_THROWS_WITH_AS(st::tie(b(st::slice(0, 2)), a(st::slice(0, 2)), a(st::slice(1, 3))) =
                           std::tuple(a(st::slice(2, 4)), b(st::slice(0, 2)), d(st::slice(0, 2))),
                       "tie: outputs 1 and 2 overlap: one pass cannot write an element twice", st::value_error);
  for (st::index_t i = 0; i < 4; ++i) {
    CHECK(a(i) == static_cast<float>(i));
    CHECK(b(i) == static_cast<float>(i) + 10.f);
  }
  // Views of disjoint halves of one array are fine.
  st::array<float, 1> e({8});
  st::tie(e(st::slice(0, 4)), e(st::slice(4, 8))) = std::tuple(a, b);
  for (st::index_t i = 0; i < 4; ++i) {
    CHECK(e(i) == static_cast<float>(i));
    CHECK(e(i + 4) == static_cast<float>(i) + 10.f);
  }
}
