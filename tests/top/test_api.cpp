// The user-facing API end to end: sinter::map with user lambdas and functors,
// views over user memory (as_view), the factories, value semantics, a rank-4
// broadcast, and the launch log (SINTER_LOG=launch / set_log_launches).
// Every value is checked against a plain scalar loop in double precision on
// random data (fixed seeds), at sizes 0, 1, 7, 1009 and one above par's
// threading threshold (so par really runs on several threads); every
// elementwise assignment is checked to be one pass with no allocation.
// The CUDA build also compiles this file with nvcc: plain host lambdas in
// sinter::map must compile there too, warning-free.

#include <doctest/doctest.h>

#include "support/random.hpp"
#include "support/scale.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <sinter/sinter.hpp>
#include <span>
#include <string>
#include <vector>

#if __has_include(<unistd.h>)
#include <unistd.h>
#define SINTER_TEST_HAS_DUP 1
#else
#define SINTER_TEST_HAS_DUP 0
#endif

namespace st = sinter;
using st::index_t;

namespace {

/// Above par's threshold (2 * par_grain elements), odd, so par splits the pass.
constexpr index_t big_n = 2 * st::detail::par_grain + 13;

/// The 1-D sizes every test sweeps.
constexpr index_t api_sizes[] = {0, 1, 7, 1009, big_n};

std::vector<float> api_random_floats(std::size_t n, unsigned seed, float lo = -2.f, float hi = 2.f) {
  return sinter_test::random_vector(n, seed, lo, hi);
}

std::vector<double> random_doubles(std::size_t n, unsigned seed, double lo = -2.0, double hi = 2.0) {
  return sinter_test::random_vector(n, seed, lo, hi);
}

std::size_t usize(index_t n) { return static_cast<std::size_t>(n); }

/// |got - ref| within rel * max(1, |ref|) (float results against double references).
bool close(double got, double ref, double rel = 2e-6) {
  return std::abs(got - ref) <= rel * std::max(1.0, std::abs(ref));
}

/// A host or par array holding a copy of v, with the given shape.
template <class P, std::size_t R, class T>
st::array<T, R, P> from_vector(const std::vector<T>& v, const st::extents<R>& shape) {
  st::array<T, R, P> a(shape);
  REQUIRE(usize(a.size()) == v.size());
  std::copy(v.begin(), v.end(), a.begin());
  return a;
}

/// Runs par passes on several threads whatever the machine, restoring the count.
struct threads_guard {
  int old = st::get_num_threads();
  threads_guard() { st::set_num_threads(3); }
  threads_guard(const threads_guard&) = delete;
  threads_guard& operator=(const threads_guard&) = delete;
  ~threads_guard() { st::set_num_threads(old); }
};

/// Checks that t saw exactly one pass of n elements, no allocation, and, for
/// par above the threshold, that the pass ran on several threads.
template <class P>
void check_one_pass(const st::trace_scope& t, index_t n) {
  const auto passes = t.passes();
  REQUIRE(passes.size() == 1);
  CHECK(t.allocations() == 0);
  CHECK(passes[0].elements == n);
  CHECK(passes[0].policy == (std::is_same_v<P, st::par> ? "par" : "host"));
  if (std::is_same_v<P, st::par> && n >= 2 * st::detail::par_grain)
    CHECK_MESSAGE(passes[0].detail.find(" threads") != std::string::npos, passes[0].detail);
  else
    CHECK(passes[0].detail.find(" threads") == std::string::npos);
}

/// A user functor struct: a smooth clamp with state (trivially copyable).
struct soft_clip {
  float lo, hi;
  SINTER_HD float operator()(float x, float y) const {
    const float v = x * y + 0.25f;
    return v < lo ? lo : (v > hi ? hi : v);
  }
};
double soft_clip_ref(double lo, double hi, double x, double y) {
  const double v = x * y + 0.25;
  return v < lo ? lo : (v > hi ? hi : v);
}

/// A functor of three operands of different types, returning double.
struct mix3 {
  SINTER_HD double operator()(float a, double b, std::int32_t k) const {
    return static_cast<double>(a) * b - static_cast<double>(k);
  }
};

}  // namespace

// ---- 1. sinter::map ---------------------------------------------------------

TEST_CASE_TEMPLATE("map: a user lambda and a user functor, one pass, no allocation", P, st::host, st::par) {
  threads_guard threads;
  for (const index_t n : api_sizes) {
    CAPTURE(n);
    const auto va = api_random_floats(usize(n), 11), vb = api_random_floats(usize(n), 12);
    const auto vd = random_doubles(usize(n), 13);
    std::vector<std::int32_t> vk(usize(n));
    for (std::size_t i = 0; i < vk.size(); ++i) vk[i] = static_cast<std::int32_t>(i % 17) - 8;
    const auto a = from_vector<P>(va, st::extents<1>{n}), b = from_vector<P>(vb, st::extents<1>{n});
    const auto d = from_vector<P>(vd, st::extents<1>{n});
    const auto k = from_vector<P>(vk, st::extents<1>{n});
    st::array<float, 1, P> out({n});
    st::array<double, 1, P> outd({n});

    // A lambda with a by-value capture (trivially copyable).
    const float s = 1.5f;
    auto lam = [s](float x, float y) { return x * s - y * y; };
    {
      st::trace_scope t;
      out = st::map(lam, a, b);
      check_one_pass<P>(t, n);
      CHECK(t.passes()[0].expression.find("map(") != std::string::npos);
    }
    index_t bad = 0;
    for (std::size_t i = 0; i < usize(n); ++i)
      if (!close(out(static_cast<index_t>(i)), double(va[i]) * 1.5 - double(vb[i]) * double(vb[i]))) ++bad;
    CHECK(bad == 0);

    // A functor struct with state, one operand a scalar.
    {
      st::trace_scope t;
      out = st::map(soft_clip{-0.5f, 0.75f}, a, 0.5f);
      check_one_pass<P>(t, n);
    }
    bad = 0;
    for (std::size_t i = 0; i < usize(n); ++i)
      if (!close(out(static_cast<index_t>(i)), soft_clip_ref(-0.5, 0.75, va[i], 0.5))) ++bad;
    CHECK(bad == 0);

    // Three operands of three element types (float, double, int32), result double.
    {
      st::trace_scope t;
      outd = st::map(mix3{}, a, d, k);
      check_one_pass<P>(t, n);
    }
    bad = 0;
    for (std::size_t i = 0; i < usize(n); ++i)
      if (!close(outd(static_cast<index_t>(i)), double(va[i]) * vd[i] - double(vk[i]), 1e-14)) ++bad;
    CHECK(bad == 0);

    // Mixed with built-in ops on both sides: built-ins inside map's operands,
    // map inside built-ins, two maps in one expression.
    {
      st::trace_scope t;
      out = st::sqrt(st::abs(st::map(lam, a + 1.f, st::tanh(b)))) * 0.5f + st::map(soft_clip{-1.f, 1.f}, b, a) - a;
      check_one_pass<P>(t, n);
    }
    bad = 0;
    for (std::size_t i = 0; i < usize(n); ++i) {
      const double x = double(va[i]) + 1.0, y = std::tanh(double(vb[i]));
      const double ref = std::sqrt(std::abs(x * 1.5 - y * y)) * 0.5 + soft_clip_ref(-1, 1, vb[i], va[i]) - va[i];
      if (!close(out(static_cast<index_t>(i)), ref, 1e-5)) ++bad;
    }
    CHECK(bad == 0);
  }
}

TEST_CASE_TEMPLATE("map: broadcasting a row and a column over a matrix", P, st::host, st::par) {
  threads_guard threads;
  // (rows, cols): empty, single, thin, prime-wide, and above par's threshold.
  const st::extents<2> shapes[] = {{0, 5}, {3, 0}, {1, 1}, {7, 1}, {1, 1009}, {7, 1009}, {257, 263}};
  for (const auto& sh : shapes) {
    const index_t rows = sh[0], cols = sh[1];
    CAPTURE(rows);
    CAPTURE(cols);
    const auto vm = api_random_floats(usize(rows * cols), 21), vr = api_random_floats(usize(cols), 22),
               vc = api_random_floats(usize(rows), 23);
    const auto m = from_vector<P>(vm, st::extents<2>{rows, cols});
    const auto row = from_vector<P>(vr, st::extents<1>{cols});
    const auto col = from_vector<P>(vc, st::extents<1>{rows});
    st::array<float, 2, P> out({rows, cols});

    auto f = [](float x, float r, float c) { return x * r + c; };
    st::trace_scope t;
    out = st::map(f, m, row, col(st::all, st::newaxis)) * 2.f + st::map(soft_clip{-1.f, 1.f}, row, 3.f);
    check_one_pass<P>(t, rows * cols);
    index_t bad = 0;
    for (index_t i = 0; i < rows; ++i)
      for (index_t j = 0; j < cols; ++j) {
        const double x = vm[usize(i * cols + j)], r = vr[usize(j)], c = vc[usize(i)];
        const double ref = (x * r + c) * 2.0 + soft_clip_ref(-1, 1, r, 3.0);
        if (!close(out(i, j), ref)) ++bad;
      }
    CHECK(bad == 0);
  }
}

// ---- 2. views over user memory ---------------------------------------------

TEST_CASE("as_view over std::vector and std::span: reading and writing the user's memory") {
  for (const index_t n : api_sizes) {
    CAPTURE(n);
    const auto va = api_random_floats(usize(n), 31), vb = api_random_floats(usize(n), 32);
    std::vector<float> out(usize(n), -7.f);

    // Reading: a const vector gives a const view, used in an expression; writing
    // into a mutable vector's view assigns its elements in place.
    static_assert(std::is_same_v<decltype(st::as_view(va)), st::view<const float, 1>>);
    static_assert(std::is_same_v<decltype(st::as_view(out)), st::view<float, 1>>);
    auto vw = st::as_view(out);
    CHECK(vw.data() == out.data());
    CHECK(vw.shape() == st::extents<1>{n});
    {
      st::trace_scope t;
      vw = st::as_view(va) * 2.f - st::exp(st::as_view(vb));
      check_one_pass<st::host>(t, n);
      CHECK(t.passes()[0].bytes_read == 2 * usize(n) * sizeof(float));
    }
    index_t bad = 0;
    for (std::size_t i = 0; i < usize(n); ++i)
      if (!close(out[i], 2.0 * va[i] - std::exp(double(vb[i])))) ++bad;
    CHECK(bad == 0);

    // A std::span starting one element in (misaligned for 16-byte vectors),
    // with sentinels either side that must stay untouched.
    std::vector<float> buf(usize(n) + 2, 99.f);
    std::span<float> sp(buf.data() + 1, usize(n));
    auto sv = st::as_view(sp);
    CHECK(sv.data() == buf.data() + 1);
    {
      st::trace_scope t;
      sv = st::as_view(va) + st::as_view(std::span<const float>(vb));
      check_one_pass<st::host>(t, n);
    }
    bad = 0;
    for (std::size_t i = 0; i < usize(n); ++i)
      if (!close(buf[i + 1], double(va[i]) + double(vb[i]))) ++bad;
    CHECK(bad == 0);
    CHECK(buf.front() == 99.f);
    CHECK(buf.back() == 99.f);

    // Reading the misaligned span into an array, and compound assignment into it.
    st::array<double, 1> back({n});
    {
      st::trace_scope t;
      back = st::cast<double>(sv) * 0.5;
      check_one_pass<st::host>(t, n);
    }
    for (std::size_t i = 0; i < usize(n); ++i) CHECK(back(static_cast<index_t>(i)) == double(buf[i + 1]) * 0.5);
    sv += 1.f;
    bad = 0;
    for (std::size_t i = 0; i < usize(n); ++i)
      if (!close(buf[i + 1], double(va[i]) + double(vb[i]) + 1.0)) ++bad;
    CHECK(bad == 0);
    CHECK(buf.front() == 99.f);
    CHECK(buf.back() == 99.f);
  }
}

TEST_CASE("as_view over pointer + shape: rank 1 and 2, misaligned, slices of it") {
  const st::extents<2> shapes[] = {{0, 3}, {1, 1}, {7, 1}, {1, 1009}, {7, 1009}, {257, 263}};
  for (const auto& sh : shapes) {
    const index_t rows = sh[0], cols = sh[1], n = rows * cols;
    CAPTURE(rows);
    CAPTURE(cols);
    const auto vm = random_doubles(usize(n), 41), vr = random_doubles(usize(cols), 42);
    // User memory with a sentinel either side; the views start at buf + 1
    // (8 bytes past an aligned start).
    std::vector<double> buf(usize(n) + 2, -99.0);
    std::copy(vm.begin(), vm.end(), buf.begin() + 1);
    double* p = buf.data() + 1;
    const double* cp = p;

    auto m = st::as_view(p, {rows, cols});
    static_assert(std::is_same_v<decltype(m), st::view<double, 2>>);
    static_assert(std::is_same_v<decltype(st::as_view(cp, {rows, cols})), st::view<const double, 2>>);
    CHECK(m.data() == p);
    CHECK(m.shape() == st::extents<2>{rows, cols});
    CHECK(m.is_contiguous());

    // Reading (rank 2, broadcasting a rank-1 user view) into an array.
    st::array<double, 2> out({rows, cols});
    {
      st::trace_scope t;
      out = st::as_view(cp, {rows, cols}) * st::as_view(vr) + 1.0;
      check_one_pass<st::host>(t, n);
    }
    index_t bad = 0;
    for (index_t i = 0; i < rows; ++i)
      for (index_t j = 0; j < cols; ++j)
        if (out(i, j) != vm[usize(i * cols + j)] * vr[usize(j)] + 1.0) ++bad;
    CHECK(bad == 0);

    // Writing: rank 2 through the view, in place (same mapping: no temporary).
    {
      st::trace_scope t;
      m = st::sin(m) - st::as_view(vr);
      check_one_pass<st::host>(t, n);
    }
    bad = 0;
    for (index_t i = 0; i < rows; ++i)
      for (index_t j = 0; j < cols; ++j)
        if (!close(buf[usize(i * cols + j) + 1], std::sin(vm[usize(i * cols + j)]) - vr[usize(j)], 1e-14)) ++bad;
    CHECK(bad == 0);
    CHECK(buf.front() == -99.0);
    CHECK(buf.back() == -99.0);

    // Rank 1 over the same memory, written from a generator.
    auto flat = st::as_view(p, {n});
    static_assert(std::is_same_v<decltype(flat), st::view<double, 1>>);
    flat = st::arange<double>(n) * 0.5;
    for (index_t i = 0; i < n; ++i) CHECK(buf[usize(i) + 1] == static_cast<double>(i) * 0.5);

    // A stepped slice and a reversed slice of a user view write only what they select.
    m(st::all, st::slice(0, st::end, 2)) = -1.0;
    m(st::all, st::slice(1, st::end, 2)) = m(st::all, st::slice(1, st::end, 2)) * 4.0;
    for (index_t i = 0; i < rows; ++i)
      for (index_t j = 0; j < cols; ++j) {
        const double before = static_cast<double>(i * cols + j) * 0.5;
        CHECK(buf[usize(i * cols + j) + 1] == (j % 2 == 0 ? -1.0 : before * 4.0));
      }
    auto rev = st::as_view(p, {n})(st::slice(st::none, st::none, -1));
    CHECK(rev.shape() == st::extents<1>{n});
    st::array<double, 1> r = rev;
    for (index_t i = 0; i < n; ++i) CHECK(r(i) == buf[usize(n - 1 - i) + 1]);
    CHECK(buf.front() == -99.0);
    CHECK(buf.back() == -99.0);
  }
}

TEST_CASE("a par view over user memory splits the pass over threads") {
  threads_guard threads;
  for (const index_t n : api_sizes) {
    CAPTURE(n);
    const auto va = api_random_floats(usize(n), 51);
    std::vector<float> buf(usize(n) + 2, 5.f);
    st::view<float, 1, st::par> v(buf.data() + 1, {n});
    const st::view<const float, 1, st::par> a(va.data(), {n});
    {
      st::trace_scope t;
      v = st::map([](float x) { return x * x; }, a) + 1.f;
      check_one_pass<st::par>(t, n);
    }
    index_t bad = 0;
    for (std::size_t i = 0; i < usize(n); ++i)
      if (buf[i + 1] != va[i] * va[i] + 1.f) ++bad;
    CHECK(bad == 0);
    CHECK(buf.front() == 5.f);
    CHECK(buf.back() == 5.f);
  }
}

// ---- 3. factories -----------------------------------------------------------

TEST_CASE_TEMPLATE("empty, zeros, ones, full: shapes and values", P, st::host, st::par) {
  threads_guard threads;
  {
    st::trace_scope t;
    auto e = st::empty<float>({3, 4}, P{});
    static_assert(std::is_same_v<decltype(e), st::array<float, 2, P>>);
    CHECK(e.shape() == st::extents<2>{3, 4});
    CHECK(e.size() == 12);
    CHECK(e.data() != nullptr);
    CHECK(t.passes().empty());  // shape only: nothing is written
    CHECK(t.allocations() == 1);
    auto z = st::empty<double>(st::extents<3>{2, 0, 5}, P{});
    CHECK(z.shape() == st::extents<3>{2, 0, 5});
    CHECK(z.size() == 0);
  }
  for (const index_t n : api_sizes) {
    CAPTURE(n);
    {
      st::trace_scope t;
      auto z = st::zeros<double>({n}, P{});
      auto o = st::ones<std::int32_t>({n}, P{});
      auto f = st::full<float>({n}, -2.5f, P{});
      static_assert(std::is_same_v<decltype(o), st::array<std::int32_t, 1, P>>);
      CHECK(t.passes().size() == 3);  // one fill pass each
      CHECK(t.allocations() == (n > 0 ? 3u : 0u));
      CHECK(z.shape() == st::extents<1>{n});
      CHECK(std::all_of(z.begin(), z.end(), [](double v) { return v == 0.0; }));
      CHECK(std::all_of(o.begin(), o.end(), [](std::int32_t v) { return v == 1; }));
      CHECK(std::all_of(f.begin(), f.end(), [](float v) { return v == -2.5f; }));
    }
    // Rank 3 with the prime inside, and the extents<R> overloads.
    auto z3 = st::zeros<float>(st::extents<3>{2, n, 3}, P{});
    auto o3 = st::ones<double>(st::extents<3>{3, 1, n}, P{});
    auto f2 = st::full<std::int64_t>({n, 2}, std::int64_t{-7}, P{});
    auto f3 = st::full<std::uint8_t>(st::extents<3>{1, 2, n}, std::uint8_t{200}, P{});
    CHECK(z3.shape() == st::extents<3>{2, n, 3});
    CHECK(o3.shape() == st::extents<3>{3, 1, n});
    CHECK(f2.shape() == st::extents<2>{n, 2});
    CHECK(std::all_of(z3.begin(), z3.end(), [](float v) { return v == 0.f; }));
    CHECK(std::all_of(o3.begin(), o3.end(), [](double v) { return v == 1.0; }));
    CHECK(std::all_of(f2.begin(), f2.end(), [](std::int64_t v) { return v == -7; }));
    CHECK(std::all_of(f3.begin(), f3.end(), [](std::uint8_t v) { return v == 200; }));
  }
  // The default policy is host; bool works.
  auto b = st::full<bool>({5}, true);
  static_assert(std::is_same_v<decltype(b), st::array<bool, 1, st::host>>);
  CHECK(std::all_of(b.begin(), b.end(), [](bool v) { return v; }));
  CHECK_THROWS_AS(st::zeros<float>({3, -1}), st::value_error);
}

TEST_CASE("arange: start, stop, step, negative and float steps, against numpy's rule") {
  // numpy: length ceil((stop - start) / step), values start + i * step.
  auto check = [](auto g, double start, double stop, double step, auto as) {
    using T = decltype(as);
    const double len = std::ceil((stop - start) / step);
    const index_t n = len > 0 ? static_cast<index_t>(len) : 0;
    CAPTURE(start);
    CAPTURE(stop);
    CAPTURE(step);
    REQUIRE(g.shape() == st::extents<1>{n});
    const auto a = st::eval(g);
    static_assert(std::is_same_v<typename decltype(a)::value_type, T>);
    for (index_t i = 0; i < n; ++i) CHECK(a(i) == static_cast<T>(start + static_cast<double>(i) * step));
  };
  check(st::arange<double>(0, 10, 1), 0, 10, 1, 0.0);
  check(st::arange<double>(2, 11, 3), 2, 11, 3, 0.0);         // 2 5 8
  check(st::arange<double>(10, 0, -3), 10, 0, -3, 0.0);       // 10 7 4 1
  check(st::arange<std::int32_t>(10, -1, -2), 10, -1, -2, std::int32_t{});  // 10 8 6 4 2 0
  check(st::arange<std::int64_t>(-5, 1009, 7), -5, 1009, 7, std::int64_t{});
  check(st::arange<float>(-1, 1, 0.25), -1, 1, 0.25, 0.f);   // 8 values
  check(st::arange<double>(0.5, -1.0, -0.375), 0.5, -1.0, -0.375, 0.0);  // 0.5 .125 -.25 -.625
  check(st::arange<double>(0, 1, 0.1), 0, 1, 0.1, 0.0);      // 10 values, as numpy
  check(st::arange<float>(1.5, 2.0, 0.2), 1.5, 2.0, 0.2, 0.f);  // 1.5 1.7 1.9
  check(st::arange<double>(5, 0), 5, 0, 1, 0.0);              // empty
  check(st::arange<double>(0, 5, -1), 0, 5, -1, 0.0);         // empty
  check(st::arange<double>(3, 3), 3, 3, 1, 0.0);              // empty
  check(st::arange<double>(0, 1, 2), 0, 1, 2, 0.0);           // one value

  // arange(n) counts 0..n-1 (index_t by default).
  for (const index_t n : api_sizes) {
    const auto a = st::eval(st::arange(n));
    static_assert(std::is_same_v<decltype(a), const st::array<index_t, 1>>);
    REQUIRE(a.size() == n);
    index_t bad = 0;
    for (index_t i = 0; i < n; ++i)
      if (a(i) != i) ++bad;
    CHECK(bad == 0);
  }
  CHECK_THROWS_AS(st::arange<float>(0, 1, 0), st::value_error);
}

TEST_CASE("linspace: with and without endpoint, integer types, edge counts") {
  auto ref = [](double start, double stop, index_t num, bool endpoint, index_t i) {
    const double div = static_cast<double>(endpoint ? num - 1 : num);
    if (endpoint && i == num - 1 && num > 1) return stop;
    return div > 0 ? start + static_cast<double>(i) * ((stop - start) / div) : start;
  };
  const double starts[] = {0.0, -1.0, 0.1, 3.0};
  const double stops[] = {1.0, 2.5, 0.7, -4.0};
  for (const index_t n : api_sizes)
    for (std::size_t c = 0; c < 4; ++c)
      for (const bool endpoint : {true, false}) {
        CAPTURE(n);
        CAPTURE(c);
        CAPTURE(endpoint);
        const auto a = st::eval(st::linspace<double>(starts[c], stops[c], n, endpoint));
        REQUIRE(a.size() == n);
        index_t bad = 0;
        for (index_t i = 0; i < n; ++i)
          if (!close(a(i), ref(starts[c], stops[c], n, endpoint, i), 1e-15)) ++bad;
        CHECK(bad == 0);
        if (n > 1 && endpoint) CHECK(a(n - 1) == stops[c]);  // exactly stop
        if (n > 0) CHECK(a(0) == starts[c]);
      }
  // The default endpoint is true; float and integer element types.
  const auto f = st::eval(st::linspace<float>(0, 1, 5));
  static_assert(std::is_same_v<decltype(f), const st::array<float, 1>>);
  for (index_t i = 0; i < 5; ++i) CHECK(f(i) == 0.25f * static_cast<float>(i));
  const auto half_open = st::eval(st::linspace<double>(0, 1, 4, false));
  for (index_t i = 0; i < 4; ++i) CHECK(half_open(i) == 0.25 * static_cast<double>(i));
  const auto k = st::eval(st::linspace<std::int32_t>(0, 10, 4));  // numpy: floor -> 0 3 6 10
  CHECK(k(0) == 0);
  CHECK(k(1) == 3);
  CHECK(k(2) == 6);
  CHECK(k(3) == 10);
  const auto neg = st::eval(st::linspace<std::int32_t>(0, -10, 4));  // floor -> 0 -4 -7 -10
  CHECK(neg(1) == -4);
  CHECK(neg(2) == -7);
  CHECK(neg(3) == -10);
  // One sample is start, with or without endpoint.
  const auto one = st::eval(st::linspace<double>(3, 7, 1)), one_open = st::eval(st::linspace<double>(3, 7, 1, false));
  CHECK(one.shape() == st::extents<1>{1});
  CHECK(one(0) == 3.0);
  CHECK(one_open(0) == 3.0);
  CHECK_THROWS_AS(st::linspace<double>(0, 1, -1), st::value_error);
}

TEST_CASE_TEMPLATE("arange and linspace allocate nothing until assigned", P, st::host, st::par) {
  threads_guard threads;
  for (const index_t n : api_sizes) {
    CAPTURE(n);
    st::trace_scope t;
    auto g1 = st::arange<float>(-3.0, -3.0 + 0.5 * static_cast<double>(n), 0.5);
    auto g2 = st::linspace<double>(-1, 1, n);
    auto e = st::cast<double>(g1) * g2 + 1.0;  // still lazy
    CHECK(g1.shape() == st::extents<1>{n});
    CHECK(e.shape() == st::extents<1>{n});
    CHECK(t.passes().empty());
    CHECK(t.allocations() == 0);

    st::array<double, 1, P> out({n});
    const auto allocs = t.allocations();
    out = e;  // one pass that reads no memory
    CHECK(t.allocations() == allocs);
    REQUIRE(t.passes().size() == 1);
    CHECK(t.passes()[0].bytes_read == 0);
    CHECK(t.passes()[0].elements == n);
    index_t bad = 0;
    for (index_t i = 0; i < n; ++i) {
      const double x = static_cast<double>(static_cast<float>(-3.0 + 0.5 * static_cast<double>(i)));
      const double l = n == 1 ? -1.0 : (i == n - 1 ? 1.0 : -1.0 + static_cast<double>(i) * (2.0 / static_cast<double>(n - 1)));
      if (!close(out(i), x * l + 1.0, 1e-14)) ++bad;
    }
    CHECK(bad == 0);

    // Constructing an array from a generator allocates only the result.
    st::trace_scope t2;
    st::array<float, 1, P> lin = st::linspace<float>(0, 1, n);
    CHECK(lin.size() == n);
    CHECK(t2.allocations() == (n > 0 ? 1u : 0u));
    CHECK(t2.passes().size() == 1);
  }
}

TEST_CASE("asarray: nested initializer lists of rank 1 to 4; ragged lists throw") {
  const auto a1 = st::asarray<float>({1.5f, -2.f, 3.25f});
  static_assert(std::is_same_v<decltype(a1), const st::array<float, 1>>);
  CHECK(a1.shape() == st::extents<1>{3});
  CHECK(a1(0) == 1.5f);
  CHECK(a1(1) == -2.f);
  CHECK(a1(2) == 3.25f);

  const auto a2 = st::asarray<double>({{1, 2, 3}, {4, 5, 6}});
  static_assert(std::is_same_v<decltype(a2), const st::array<double, 2>>);
  CHECK(a2.shape() == st::extents<2>{2, 3});
  for (index_t i = 0; i < 2; ++i)
    for (index_t j = 0; j < 3; ++j) CHECK(a2(i, j) == static_cast<double>(i * 3 + j + 1));

  const auto a3 = st::asarray<std::int32_t>({{{1, 2}, {3, 4}, {5, 6}}, {{7, 8}, {9, 10}, {11, 12}}});
  static_assert(std::is_same_v<decltype(a3), const st::array<std::int32_t, 3>>);
  CHECK(a3.shape() == st::extents<3>{2, 3, 2});
  for (index_t i = 0; i < 2; ++i)
    for (index_t j = 0; j < 3; ++j)
      for (index_t k = 0; k < 2; ++k) CHECK(a3(i, j, k) == i * 6 + j * 2 + k + 1);

  const auto a4 = st::asarray<std::int64_t>({{{{1, 2, 3}, {4, 5, 6}}}, {{{7, 8, 9}, {10, 11, 12}}}});
  static_assert(std::is_same_v<decltype(a4), const st::array<std::int64_t, 4>>);
  CHECK(a4.shape() == st::extents<4>{2, 1, 2, 3});
  for (index_t i = 0; i < 2; ++i)
    for (index_t j = 0; j < 2; ++j)
      for (index_t k = 0; k < 3; ++k) CHECK(a4(i, 0, j, k) == i * 6 + j * 3 + k + 1);

  // Innermost lists of one element, such as a column {{1}, {2}}, are
  // ambiguous between ranks in C++ (`float x = {1}` is valid): the rank is given.
  const auto col = st::asarray<float, 2>({{1.5f}, {-2.f}, {3.f}});
  static_assert(std::is_same_v<decltype(col), const st::array<float, 2>>);
  CHECK(col.shape() == st::extents<2>{3, 1});
  CHECK(col(0, 0) == 1.5f);
  CHECK(col(1, 0) == -2.f);
  CHECK(col(2, 0) == 3.f);
  const auto one = st::asarray<int, 3>({{{7}}});
  CHECK(one.shape() == st::extents<3>{1, 1, 1});
  CHECK(one(0, 0, 0) == 7);
  const auto row1 = st::asarray<double, 1>({4.0, 5.0});
  CHECK(row1.shape() == st::extents<1>{2});
  CHECK(row1(1) == 5.0);
  CHECK_THROWS_AS((st::asarray<int, 2>({{1}, {2, 3}})), st::shape_error);

  // Extent-1 outer axes.
  const auto a4one = st::asarray<double>({{{{42.0, -1.0}}}});
  CHECK(a4one.shape() == st::extents<4>{1, 1, 1, 2});
  CHECK(a4one(0, 0, 0, 0) == 42.0);
  CHECK(a4one(0, 0, 0, 1) == -1.0);

  // asarray arrays take part in expressions (and broadcast).
  const st::array<double, 2> s = a2 + st::asarray<double>({10, 20, 30});
  CHECK(s(1, 2) == 36.0);

  // Ragged lists, at every axis: shape_error naming the axis.
  CHECK_THROWS_AS(st::asarray<float>({{1.f, 2.f}, {3.f}}), st::shape_error);
  CHECK_THROWS_AS(st::asarray<float>({{1.f}, {2.f, 3.f}}), st::shape_error);
  CHECK_THROWS_AS(st::asarray<int>({{{1, 2}, {3, 4}}, {{5, 6}, {7}}}), st::shape_error);
  CHECK_THROWS_AS(st::asarray<int>({{{1, 2}, {3, 4}}, {{5, 6}}}), st::shape_error);
  CHECK_THROWS_AS(st::asarray<int>({{{{1, 0}, {2, 0}}}, {{{3, 0}, {4, 5, 6}}}}), st::shape_error);
  CHECK_THROWS_AS(st::asarray<int>({{{{1, 0}, {2, 0}}}, {{{3, 0}}, {{4, 0}}}}), st::shape_error);
  try {
    (void)st::asarray<float>({{1.f, 2.f}, {3.f}});
    FAIL("no shape_error");
  } catch (const st::shape_error& e) {
    const std::string m = e.what();
    CHECK(m.find("ragged") != std::string::npos);
    CHECK(m.find("axis 1") != std::string::npos);
  }
}

// ---- 4. value semantics -------------------------------------------------------

TEST_CASE_TEMPLATE("arrays: copies are deep, moves are cheap", P, st::host, st::par) {
  threads_guard threads;
  const st::extents<2> shapes[] = {{0, 4}, {1, 1}, {7, 1}, {1, 1009}, {257, 263}};
  for (const auto& sh : shapes) {
    const index_t n = sh[0] * sh[1];
    CAPTURE(n);
    const auto v = api_random_floats(usize(n), 61);
    auto a = from_vector<P>(v, sh);
    const float* pa = a.data();

    // Copy construction: a new buffer, one copy pass; changing the copy leaves a alone.
    {
      st::trace_scope t;
      st::array<float, 2, P> b = a;
      CHECK(t.allocations() == (n > 0 ? 1u : 0u));
      CHECK(t.passes().size() == 1);
      if (n > 0) CHECK(b.data() != pa);
      CHECK(b.shape() == sh);
      b = b * 2.f + 1.f;
      if (n > 0) b(0, 0) = 1234.f;
      CHECK(std::equal(a.begin(), a.end(), v.begin()));
      index_t bad = 0;
      for (index_t i = 0; i < n; ++i) {
        const float expect = i == 0 ? 1234.f : v[usize(i)] * 2.f + 1.f;
        if (b.data()[i] != expect) ++bad;
      }
      CHECK(bad == 0);
    }
    // Copy assignment, into an array of another shape: deep as well.
    {
      st::array<float, 2, P> c({2, 2});
      c = a;
      CHECK(c.shape() == sh);
      if (n > 0) CHECK(c.data() != pa);
      c = 0.f;
      CHECK(std::equal(a.begin(), a.end(), v.begin()));
    }
    // Move construction and move assignment: the same buffer, nothing allocated or run.
    {
      st::trace_scope t;
      st::array<float, 2, P> m = std::move(a);
      CHECK(m.data() == pa);
      CHECK(m.shape() == sh);
      CHECK(a.size() == 0);  // NOLINT(bugprone-use-after-move): moved-from is empty
      CHECK(a.data() == nullptr);
      st::array<float, 2, P> m2({3, 3});
      const auto allocs = t.allocations();
      m2 = std::move(m);
      CHECK(m2.data() == pa);
      CHECK(t.allocations() == allocs);
      CHECK(t.passes().empty());
      CHECK(std::equal(m2.begin(), m2.end(), v.begin()));
      a = std::move(m2);  // give it back
    }
    CHECK(a.data() == pa);
    CHECK(std::equal(a.begin(), a.end(), v.begin()));
    // A view is not a copy: it shares the array's memory.
    if (n > 0) {
      auto w = a(st::all, st::all);
      w(0, 0) = -5.f;
      CHECK(a(0, 0) == -5.f);
    }
  }
}

// ---- 5. rank 4 ----------------------------------------------------------------

// `a = expr` where expr has a's rank and another shape: a takes the shape,
// in a new buffer, by one pass (array::assign_reshaped), which may read a's
// old elements (`a = a(slice) * 2 + a(slice)`, the shape shrinking or growing).
TEST_CASE_TEMPLATE("arrays: assigning an expression of another shape reallocates, one pass", P, st::host, st::par) {
  threads_guard threads;
  for (const index_t n : {index_t{2}, index_t{3}, index_t{7}, index_t{1009}, big_n}) {
    CAPTURE(n);
    const auto v = api_random_floats(usize(n), 67);
    auto a = from_vector<P>(v, st::extents<1>{n});
    const index_t m = (n + 1) / 2;  // a[::2] has m elements
    {
      st::trace_scope t;
      a = a(st::slice(0, st::end, 2)) * 2.f + a(st::slice(n - m, n));
      CHECK(t.passes().size() == 1);
      CHECK(t.allocations() == 1u);
    }
    REQUIRE(a.shape() == st::extents<1>{m});
    index_t bad = 0;
    for (index_t i = 0; i < m; ++i) {
      const double want = 2.0 * v[usize(2 * i)] + v[usize(n - m + i)];
      if (std::abs(static_cast<double>(a(i)) - want) > 1e-5 * (std::abs(want) + 1)) ++bad;
    }
    CHECK(bad == 0);
    if (m > 600) continue;
    // Growing: a broadcast outer product of a with itself, rank 2 into rank 2.
    auto g = from_vector<P>(std::vector<float>(6, 1.f), st::extents<2>{2, 3});
    g = a(st::all, st::newaxis) * a(st::newaxis, st::all) - g(0, 0);
    REQUIRE(g.shape() == st::extents<2>{m, m});
    bad = 0;
    for (index_t i = 0; i < m; ++i)
      for (index_t j = 0; j < m; ++j) {
        const double want = static_cast<double>(a(i)) * static_cast<double>(a(j)) - 1.0;
        if (std::abs(static_cast<double>(g(i, j)) - want) > 1e-5 * (std::abs(want) + 1)) ++bad;
      }
    CHECK(bad == 0);
  }
}

TEST_CASE_TEMPLATE("rank 4: {2,3,1,5} op {3,4,1} broadcasts to {2,3,4,5} in one pass", P, st::host, st::par) {
  threads_guard threads;
  struct dims {
    index_t a0, a1, a3, b1;  // a: {a0, a1, 1, a3}, b: {a1, b1, 1} -> {a0, a1, b1, a3}
  };
  const dims cases[] = {{2, 3, 5, 4}, {1, 1, 1, 1}, {2, 7, 0, 3}, {3, 7, 211, 37}};  // the last above par's threshold
  for (const auto& c : cases) {
    const st::extents<4> sa{c.a0, c.a1, 1, c.a3};
    const st::extents<3> sb{c.a1, c.b1, 1};
    const st::extents<4> so{c.a0, c.a1, c.b1, c.a3};
    const index_t n = c.a0 * c.a1 * c.b1 * c.a3;
    CAPTURE(n);
    const auto va = api_random_floats(usize(c.a0 * c.a1 * c.a3), 71), vb = api_random_floats(usize(c.a1 * c.b1), 72);
    const auto a = from_vector<P>(va, sa);
    const auto b = from_vector<P>(vb, sb);
    CHECK((a + b).shape() == so);

    st::array<float, 4, P> sum(so), out(so);
    {
      st::trace_scope t;
      sum = a + b;
      check_one_pass<P>(t, n);
    }
    {
      st::trace_scope t;
      out = st::maximum(a, b) * st::sin(b) - st::exp(a * 0.5f);
      check_one_pass<P>(t, n);
    }
    index_t bad = 0;
    for (index_t i = 0; i < c.a0; ++i)
      for (index_t j = 0; j < c.a1; ++j)
        for (index_t k = 0; k < c.b1; ++k)
          for (index_t l = 0; l < c.a3; ++l) {
            const double x = va[usize((i * c.a1 + j) * c.a3 + l)], y = vb[usize(j * c.b1 + k)];
            if (sum(i, j, k, l) != static_cast<float>(x + y)) ++bad;
            if (!close(out(i, j, k, l), std::max(x, y) * std::sin(y) - std::exp(x * 0.5), 1e-5)) ++bad;
          }
    CHECK(bad == 0);
    // eval gives the broadcast shape, on the operands' policy.
    const auto e = st::eval(a + b);
    static_assert(std::is_same_v<decltype(e), const st::array<float, 4, P>>);
    CHECK(e.shape() == so);
  }
}

// ---- 6. the launch log ------------------------------------------------------

#if SINTER_TEST_HAS_DUP
namespace {
/// Runs f with stderr (file descriptor 2) redirected to a temporary file and
/// returns what was written to it.
template <class F>
std::string capture_stderr(F f) {
  std::fflush(stderr);
  std::FILE* tmp = std::tmpfile();
  REQUIRE(tmp != nullptr);
  const int saved = ::dup(2);
  REQUIRE(saved >= 0);
  REQUIRE(::dup2(::fileno(tmp), 2) >= 0);
  f();
  std::fflush(stderr);
  ::dup2(saved, 2);
  ::close(saved);
  std::string out;
  std::rewind(tmp);
  for (int ch; (ch = std::fgetc(tmp)) != EOF;) out += static_cast<char>(ch);
  std::fclose(tmp);
  return out;
}
}  // namespace

TEST_CASE_TEMPLATE("SINTER_LOG=launch: one line per pass on stderr (set_log_launches)", P, st::host, st::par) {
  threads_guard threads;
  for (const index_t n : {index_t{7}, index_t{1009}, big_n}) {
    CAPTURE(n);
    const auto a = from_vector<P>(api_random_floats(usize(n), 81), st::extents<1>{n});
    const auto b = from_vector<P>(api_random_floats(usize(n), 82), st::extents<1>{n});
    st::array<float, 1, P> c({n});
    const std::string log = capture_stderr([&] {
      const bool was = st::set_log_launches(true);
      c = st::exp(a + b) * 2.f;
      st::set_log_launches(was);
    });
    CAPTURE(log);
    REQUIRE(std::count(log.begin(), log.end(), '\n') == 1);
    const std::string policy = std::is_same_v<P, st::par> ? "par" : "host";
    const std::string shape = "float32[" + std::to_string(n) + "]";
    CHECK(log.rfind("sinter: " + policy + " ", 0) == 0);
    CHECK(log.find(shape + " = multiply(exp(add(" + shape + ", " + shape + ")), scalar<float32>)") != std::string::npos);
    CHECK(log.find("elements=" + std::to_string(n) + " ") != std::string::npos);
    CHECK(log.find("read=" + std::to_string(2 * usize(n) * 4) + "B") != std::string::npos);
    CHECK(log.find("written=" + std::to_string(usize(n) * 4) + "B") != std::string::npos);
    for (index_t i = 0; i < n; ++i) CHECK(close(c(i), std::exp(double(a(i)) + double(b(i))) * 2.0, 1e-5));

    // Two passes, two lines; switched off, nothing (the trace hook still works).
    const std::string two = capture_stderr([&] {
      const bool was = st::set_log_launches(true);
      c = a * b;
      c += 1.f;
      st::set_log_launches(was);
    });
    CHECK(std::count(two.begin(), two.end(), '\n') == 2);
    const bool was = st::set_log_launches(false);  // SINTER_LOG may be set for the whole run
    st::trace_scope t;
    const std::string none = capture_stderr([&] { c = a - b; });
    st::set_log_launches(was);
    CHECK(none.empty());
    CHECK(t.passes().size() == 1);
  }
}
#endif

TEST_CASE_TEMPLATE("minimum and maximum: signed zeros and ties as numpy (the second operand wins a tie)", P, st::host,
                   st::par) {
  // numpy: minimum(0.0, -0.0) = -0.0, minimum(-0.0, 0.0) = 0.0, same for maximum.
  st::array<double, 1, P> a = st::to<P>(st::asarray<double>({0.0, -0.0, 1.5, -2.0}));
  st::array<double, 1, P> b = st::to<P>(st::asarray<double>({-0.0, 0.0, 1.5, 3.0}));
  st::array<double, 1, P> lo = st::minimum(a, b), hi = st::maximum(a, b);
  CHECK(std::signbit(lo(0)));
  CHECK(!std::signbit(lo(1)));
  CHECK(std::signbit(hi(0)));
  CHECK(!std::signbit(hi(1)));
  CHECK(lo(3) == -2.0);
  CHECK(hi(3) == 3.0);
  st::array<float, 1, P> fa = st::cast<float>(a), fb = st::cast<float>(b);
  st::array<float, 1, P> flo = st::minimum(fa, fb);
  CHECK(std::signbit(flo(0)));
  CHECK(!std::signbit(flo(1)));
}
