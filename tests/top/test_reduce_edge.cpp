// Reductions: accuracy of pairwise float sums, determinism across thread
// counts, edge cases (empty inputs, NaN, ties, ddof, norm, dot, bad axes) and
// fusion with the producer (trace hook: one pass, no array allocations).
#include <doctest/doctest.h>

#include "support/reduce_check.hpp"
#include "support/scale.hpp"

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <sinter/sinter.hpp>
#include <string>
#include <vector>

namespace st = sinter;
using sinter_test::make_array;
using sinter_test::make_data;

namespace {

// Restores the thread count when a test ends, even on failure.
struct thread_count_guard {
  int saved = st::get_num_threads();
  ~thread_count_guard() { st::set_num_threads(saved); }
};

// Bitwise equality of two arrays' contents.
template <class A, class B>
bool same_bits(const A& a, const B& b) {
  return a.size() == b.size() &&
         std::memcmp(a.data(), b.data(), static_cast<std::size_t>(a.size()) * sizeof(*a.data())) == 0;
}

template <class F>
std::string what_of(F&& f) {
  try {
    f();
  } catch (const st::value_error& e) {
    return e.what();
  }
  return "(no value_error)";
}

constexpr double qnan = std::numeric_limits<double>::quiet_NaN();

}  // namespace

// ---- accuracy --------------------------------------------------------------

TEST_CASE_TEMPLATE("reduce: pairwise float sum of 10^7 uniforms is accurate", P, st::host, st::par) {
  const std::int64_t n = 10'000'000 / sinter_test::scale;
  std::mt19937 g(5);
  std::uniform_real_distribution<float> u(0.f, 1.f);
  st::array<float, 1, P> a({n});
  double exact = 0;
  float naive = 0;
  for (auto& x : a) {
    x = u(g);
    exact += static_cast<double>(x);
    naive += x;
  }
  const float s = st::sum(a);
  const double err = std::abs(static_cast<double>(s) - exact) / exact;
  const double naive_err = std::abs(static_cast<double>(naive) - exact) / exact;
  INFO("pairwise relative error ", err, ", naive float loop ", naive_err);
  CHECK(err < 1e-6);
  CHECK(naive_err > 1e-6);  // the same data summed naively in float is far off: the test can tell
  CHECK(std::abs(static_cast<double>(st::mean(a)) - exact / static_cast<double>(n)) < 1e-6 * exact / static_cast<double>(n));
}

// ---- determinism -----------------------------------------------------------

TEST_CASE("reduce: par is bitwise identical to host for 1, 2, 3 and 8 threads") {
  thread_count_guard guard;
  const std::int64_t n = std::max<std::int64_t>(1000003 / sinter_test::scale, 3 * 65536 + 7);
  const auto d = make_data<float>(static_cast<std::size_t>(n), 41u);
  const auto h = make_array<float, 1, st::host>({n}, d);
  const auto p = make_array<float, 1, st::par>({n}, d);
  const std::int64_t rows = 301, cols = 997;  // > 2 * par_grain: the parallel axis path
  const auto dm = make_data<float>(static_cast<std::size_t>(rows * cols), 42u);
  const auto hm = make_array<float, 2, st::host>({rows, cols}, dm);
  const auto pm = make_array<float, 2, st::par>({rows, cols}, dm);

  const float hs = st::sum(h), hmean = st::mean(h), hvar = st::var(h), hstd = st::std(h);
  const float hmin = st::min(h * 3.f);
  const double hsd = st::sum(st::cast<double>(h) * 1e-3);
  const auto hi = st::argmax(h);
  const auto hax0 = st::sum(hm, st::axis(0)), hax1 = st::sum(hm, st::axis(1)), hvar0 = st::var(hm, st::axis(0));
  const float hexp = st::sum(st::exp(hm) - hm);

  for (const int threads : {1, 2, 3, 8}) {
    st::set_num_threads(threads);
    CAPTURE(threads);
    CHECK(std::bit_cast<std::uint32_t>(st::sum(p)) == std::bit_cast<std::uint32_t>(hs));
    CHECK(std::bit_cast<std::uint32_t>(st::mean(p)) == std::bit_cast<std::uint32_t>(hmean));
    CHECK(std::bit_cast<std::uint32_t>(st::var(p)) == std::bit_cast<std::uint32_t>(hvar));
    CHECK(std::bit_cast<std::uint32_t>(st::std(p)) == std::bit_cast<std::uint32_t>(hstd));
    CHECK(std::bit_cast<std::uint32_t>(st::min(p * 3.f)) == std::bit_cast<std::uint32_t>(hmin));
    CHECK(std::bit_cast<std::uint64_t>(st::sum(st::cast<double>(p) * 1e-3)) == std::bit_cast<std::uint64_t>(hsd));
    CHECK(st::argmax(p) == hi);
    CHECK(same_bits(st::sum(pm, st::axis(0)), hax0));
    CHECK(same_bits(st::sum(pm, st::axis(1)), hax1));
    CHECK(same_bits(st::var(pm, st::axis(0)), hvar0));
    CHECK(std::bit_cast<std::uint32_t>(st::sum(st::exp(pm) - pm)) == std::bit_cast<std::uint32_t>(hexp));
  }
}

// A user map is not plain arithmetic, so its sum keeps the lane arrays
// (reduce/host_engine.hpp, fold_leaf); a sum or product of plain arithmetic
// holds the same lanes in vector values of the target's width
// (vec_pairwise), and reads a leaf's last, partial row of lanes with masked
// vector loads where the explicit vector loop evaluates the expression
// (vec_fold_rest). Both must give the same bits: same lanes, same order, on
// every ISA. Every n from 0 to 300 ends a leaf on every lane count; the
// products of a * b and (a - b)^2 fuse with the lane's add where the
// scalar loop's do; a * b + 0.5 is 0.5 in the masked lanes, which must
// not reach the sum.
template <class T>
struct reduce_identity_map {
  SINTER_HD T operator()(T x) const { return x; }
};
TEST_CASE_TEMPLATE("reduce: the vector lanes fold in the lane arrays' order, bit for bit", T, float, double) {
  std::vector<std::int64_t> sizes;
  for (std::int64_t n = 0; n <= 300; ++n) sizes.push_back(n);
  for (const std::int64_t n : {1023, 1024, 1025, 2047, 2048, 2049, 4095, 4096, 4097, 6143, 8192, 12289, 65537})
    sizes.push_back(n);
  for (const std::int64_t n : sizes) {
    const auto d = make_data<T>(static_cast<std::size_t>(n), 43u);
    const auto a = make_array<T, 1, st::host>({n}, d);
    const T plain = st::sum(a), mapped = st::sum(st::map(reduce_identity_map<T>{}, a));
    CHECK_MESSAGE(std::memcmp(&plain, &mapped, sizeof(T)) == 0, "sum, n = " << n);
    // Factors near 1, so that a product of thousands stays finite.
    const T p1 = st::prod(a * T(1e-3) + T(1)), p2 = st::prod(st::map(reduce_identity_map<T>{}, a * T(1e-3) + T(1)));
    CHECK_MESSAGE(std::memcmp(&p1, &p2, sizeof(T)) == 0, "prod, n = " << n);
    const auto b = make_array<T, 1, st::host>({n}, make_data<T>(static_cast<std::size_t>(n), 47u));
    const auto id = [](const auto& e) { return st::map(reduce_identity_map<T>{}, e); };
    const T d1 = st::sum(a * b), d2 = st::sum(id(a) * id(b));
    CHECK_MESSAGE(std::memcmp(&d1, &d2, sizeof(T)) == 0, "sum(a * b), n = " << n);
    const T s1 = st::sum((a - b) * (a - b)), s2 = st::sum(id(a - b) * id(a - b));
    CHECK_MESSAGE(std::memcmp(&s1, &s2, sizeof(T)) == 0, "sum((a - b)^2), n = " << n);
    const T q1 = st::sum(a * b + T(0.5)), q2 = st::sum(id(a * b + T(0.5)));
    CHECK_MESSAGE(std::memcmp(&q1, &q2, sizeof(T)) == 0, "sum(a * b + 0.5), n = " << n);
  }
}

// ---- edge cases ------------------------------------------------------------

TEST_CASE_TEMPLATE("reduce: empty inputs", P, st::host, st::par) {
  const st::array<float, 1, P> e({0});
  CHECK(st::sum(e) == 0.f);
  CHECK(st::prod(e) == 1.f);
  CHECK(std::isnan(st::mean(e)));
  CHECK(std::isnan(st::var(e)));
  CHECK(st::any(e) == false);
  CHECK(st::all(e) == true);
  CHECK(st::count_nonzero(e) == 0);
  CHECK(st::norm(e) == 0.f);
  // max |x| of nothing: no identity, as numpy.linalg.norm(empty, inf) (ValueError).
  CHECK_THROWS_AS((void)st::norm(e, INFINITY), st::value_error);
  CHECK(what_of([&] { (void)st::norm(e, INFINITY); }).find("norm") != std::string::npos);
  CHECK(st::norm(e, 1) == 0.f);
  const st::array<std::int16_t, 1, P> ei({0});
  CHECK(st::sum(ei) == 0);
  CHECK(st::prod(ei) == 1);
  CHECK(std::isnan(st::mean(ei)));

  for (const char* op : {"min", "max", "argmin", "argmax"}) {
    CAPTURE(op);
    const std::string msg = what_of([&] {
      const std::string o = op;
      if (o == "min") (void)st::min(e);
      else if (o == "max") (void)st::max(e);
      else if (o == "argmin") (void)st::argmin(e);
      else (void)st::argmax(e);
    });
    CHECK(msg.find(op) != std::string::npos);
    CHECK(msg != "(no value_error)");
  }

  // An empty axis: (3, 0) reduced along axis 1 gives 3 identities, or throws.
  const st::array<double, 2, P> m({3, 0});
  const auto s1 = st::sum(m, st::axis(1));
  REQUIRE(s1.shape() == st::extents<1>{3});
  for (double x : s1) CHECK(x == 0.0);
  for (double x : st::prod(m, st::axis(1))) CHECK(x == 1.0);
  for (double x : st::mean(m, st::axis(1))) CHECK(std::isnan(x));
  for (bool x : st::any(m, st::axis(1))) CHECK(x == false);
  for (bool x : st::all(m, st::axis(1))) CHECK(x == true);
  CHECK(what_of([&] { (void)st::min(m, st::axis(1)); }).find("min") != std::string::npos);
  CHECK(what_of([&] { (void)st::max(m, st::axis(-1), st::keepdims); }).find("max") != std::string::npos);
  CHECK(what_of([&] { (void)st::argmin(m, st::axis(1)); }).find("argmin") != std::string::npos);
  CHECK(what_of([&] { (void)st::argmax(m, st::axes(0, 1)); }).find("argmax") != std::string::npos);
  // Reducing the non-empty axis of an empty array: an empty result, no error.
  const auto mn0 = st::min(m, st::axis(0));
  CHECK(mn0.shape() == st::extents<1>{0});
  CHECK(st::argmax(m, st::axis(0), st::keepdims).shape() == st::extents<2>{1, 0});
}

TEST_CASE_TEMPLATE("reduce: NaN propagates; argmin/argmax take the first occurrence or first NaN", P, st::host, st::par) {
  const auto x = make_array<double, 1, P>({5}, {1.0, qnan, 5.0, -2.0, qnan});
  CHECK(std::isnan(st::min(x)));
  CHECK(std::isnan(st::max(x)));
  CHECK(std::isnan(st::sum(x)));
  CHECK(std::isnan(st::mean(x)));
  CHECK(st::argmin(x) == 1);
  CHECK(st::argmax(x) == 1);
  CHECK(st::any(x));
  CHECK(st::count_nonzero(x) == 5);  // NaN is not zero

  // Ties: the first occurrence, within a tile and across tiles and tasks.
  const auto t = make_array<std::int32_t, 1, P>({6}, {1, 3, 3, 0, 0, 3});
  CHECK(st::argmax(t) == 1);
  CHECK(st::argmin(t) == 3);
  const std::int64_t n = 200003;
  st::array<float, 1, P> big({n});
  big = 1.f;
  CHECK(st::argmax(big) == 0);
  CHECK(st::argmin(big) == 0);
  big(150001) = 7.f;
  big(9000) = 7.f;
  big(120000) = -7.f;
  big(5000) = -7.f;
  CHECK(st::argmax(big) == 9000);
  CHECK(st::argmin(big) == 5000);
  CHECK(st::max(big) == 7.f);
  big(190000) = std::numeric_limits<float>::quiet_NaN();  // a NaN in a late tile wins
  big(70000) = std::numeric_limits<float>::quiet_NaN();
  CHECK(std::isnan(st::max(big)));
  CHECK(std::isnan(st::min(big)));
  CHECK(std::isnan(st::sum(big)));
  CHECK(st::argmax(big) == 70000);
  CHECK(st::argmin(big) == 70000);

  // Along an axis: the index within the reduced axis, per row.
  const auto m = make_array<double, 2, P>({3, 4}, {2, 9, 9, 1, 4, 4, qnan, qnan, 0, -1, -1, 0});
  const auto am = st::argmax(m, st::axis(1));
  const auto an = st::argmin(m, st::axis(1));
  CHECK(am(0) == 1);
  CHECK(am(1) == 2);
  CHECK(am(2) == 0);
  CHECK(an(0) == 3);
  CHECK(an(1) == 2);
  CHECK(an(2) == 1);
  const auto mx = st::max(m, st::axis(1));
  CHECK(mx(0) == 9.0);
  CHECK(std::isnan(mx(1)));
  const auto c0 = st::argmax(m, st::axis(0));
  CHECK(c0(0) == 1);
  CHECK(c0(1) == 0);
  CHECK(c0(2) == 1);
  CHECK(c0(3) == 1);
}

TEST_CASE_TEMPLATE("reduce: var and std with ddof", P, st::host, st::par) {
  const auto x = make_array<double, 1, P>({4}, {1, 2, 3, 4});
  CHECK(st::var(x) == doctest::Approx(1.25));
  CHECK(st::var(x, 1) == doctest::Approx(5.0 / 3.0));
  CHECK(st::std(x, 1) == doctest::Approx(std::sqrt(5.0 / 3.0)));
  const auto m = make_array<std::int32_t, 2, P>({2, 4}, {1, 2, 3, 4, 2, 2, 2, 2});
  static_assert(std::is_same_v<decltype(st::var(m, 1)), double>);
  const auto v = st::var(m, st::axis(1), 1);
  CHECK(v(0) == doctest::Approx(5.0 / 3.0));
  CHECK(v(1) == 0.0);
  const auto sk = st::std(m, st::axis(-1), st::keepdims, 1);
  CHECK(sk.shape() == st::extents<2>{2, 1});
  CHECK(sk(0, 0) == doctest::Approx(std::sqrt(5.0 / 3.0)));
  CHECK(std::isinf(st::var(st::asarray<double>({3.0}), 1)) == false);  // 0/0: NaN, as numpy
  CHECK(std::isnan(st::var(st::asarray<double>({3.0}), 1)));
}

TEST_CASE_TEMPLATE("reduce: norm and dot", P, st::host, st::par) {
  const auto x = make_array<float, 1, P>({2}, {3, -4});
  CHECK(st::norm(x) == 5.f);
  CHECK(st::norm(x, 2) == 5.f);
  CHECK(st::norm(x, 1) == 7.f);
  CHECK(st::norm(x, INFINITY) == 4.f);
  static_assert(std::is_same_v<decltype(st::norm(x)), float>);
  const auto xi = make_array<std::int32_t, 1, P>({3}, {1, -2, 2});
  static_assert(std::is_same_v<decltype(st::norm(xi)), double>);
  CHECK(st::norm(xi) == 3.0);
  CHECK(st::norm(xi, 1) == 5.0);
  CHECK(st::norm(xi, INFINITY) == 2.0);
  CHECK(what_of([&] { (void)st::norm(x, 3); }).find("norm") != std::string::npos);

  const std::int64_t n = 70001;
  const auto da = make_data<double>(static_cast<std::size_t>(n), 51u), db = make_data<double>(static_cast<std::size_t>(n), 52u);
  const auto a = make_array<double, 1, P>({n}, da), b = make_array<double, 1, P>({n}, db);
  double ref = 0, sa = 0;
  for (std::size_t i = 0; i < da.size(); ++i) {
    ref += da[i] * db[i];
    sa += std::abs(da[i] * db[i]);
  }
  CHECK(std::abs(st::dot(a, b) - ref) <= 1e-12 * sa);
  CHECK(st::dot(xi, xi) == 9);
  CHECK(st::dot(a(st::slice(st::none, st::none, -1)), st::arange<double>(static_cast<double>(n))) ==
        doctest::Approx([&] {
          double r = 0;
          for (std::int64_t i = 0; i < n; ++i) r += da[static_cast<std::size_t>(n - 1 - i)] * static_cast<double>(i);
          return r;
        }()));
}

TEST_CASE_TEMPLATE("reduce: bad axes throw value_error", P, st::host, st::par) {
  const st::array<float, 2, P> m = st::zeros<float>({2, 3}, P{});
  CHECK(what_of([&] { (void)st::sum(m, st::axis(2)); }).find("sum") != std::string::npos);
  CHECK(what_of([&] { (void)st::mean(m, st::axis(-3)); }).find("mean") != std::string::npos);
  CHECK(what_of([&] { (void)st::max(m, st::axes(0, 0)); }).find("repeated") != std::string::npos);
  CHECK(what_of([&] { (void)st::var(m, st::axes(1, -1)); }).find("repeated") != std::string::npos);
  CHECK(what_of([&] { (void)st::all(m, st::axes(0, 5), st::keepdims); }).find("all") != std::string::npos);
  // sinter::all is still the whole-axis slice.
  const auto col = m(st::all, 1);
  CHECK(col.shape() == st::extents<1>{2});
}

// ---- fusion ----------------------------------------------------------------

TEST_CASE_TEMPLATE("reduce: a full reduction is one pass with no allocation", P, st::host, st::par) {
  const std::int64_t n = (1 << 20) + 3;  // many tiles: the engine's partials must not count
  const auto a = make_array<float, 1, P>({n}, make_data<float>(static_cast<std::size_t>(n), 61u));
  const auto b = make_array<float, 1, P>({n}, make_data<float>(static_cast<std::size_t>(n), 62u));
  const auto c = make_array<float, 1, P>({n}, make_data<float>(static_cast<std::size_t>(n), 63u));
  const std::int64_t rows = 257, cols = 4099;
  const auto m = make_array<float, 2, P>({rows, cols}, make_data<float>(static_cast<std::size_t>(rows * cols), 64u));
  const auto row = make_array<float, 1, P>({cols}, make_data<float>(static_cast<std::size_t>(cols), 65u));

  auto one_pass = [&](auto&& f, const char* what) {
    CAPTURE(what);
    st::trace_scope t;
    (void)f();
    CHECK(t.passes().size() == 1);
    CHECK(t.allocations() == 0);
  };
  one_pass([&] { return st::sum(st::exp(a + b) * 2); }, "sum(exp(a + b) * 2)");
  // Ten elementwise operations.
  one_pass([&] { return st::sum(st::sqrt(st::abs(st::tanh((a + b) * 0.5f - c) * b + 1.f)) / (c * c + 1.f) - a); },
           "10-op chain");
  one_pass([&] { return st::max(a(st::slice(0, n - 1, 2)) * b(st::slice(1, st::none, 2))); }, "strided");
  one_pass([&] { return st::mean(a(st::slice(st::none, st::none, -1)) - b); }, "reversed");
  one_pass([&] { return st::var(m + row); }, "broadcast row");
  one_pass([&] { return st::argmax(m * 2.f - row); }, "argmax of broadcast");
  one_pass([&] { return st::any(a > 3.f); }, "any");
  one_pass([&] { return st::count_nonzero(a > b); }, "count_nonzero");
  one_pass([&] { return st::dot(a, b); }, "dot");
  one_pass([&] { return st::norm(a - b); }, "norm");
  {
    st::trace_scope t;
    const float s = st::sum(st::exp(a + b) * 2);
    const auto passes = t.passes();
    REQUIRE(passes.size() == 1);
    const auto& rec = passes[0];
    CHECK(rec.elements == n);
    CHECK(rec.bytes_read == 2 * static_cast<std::size_t>(n) * sizeof(float));  // a and b, once
    CHECK(rec.expression.find("sum") != std::string::npos);
    CHECK(s > 0.f);
  }
  {  // along an axis: one pass, one allocation (the result)
    st::trace_scope t;
    const auto s = st::sum(st::exp(m) + row, st::axis(0));
    CHECK(t.passes().size() == 1);
    CHECK(t.allocations() == 1);
    CHECK(s.size() == cols);
  }
}

TEST_CASE_TEMPLATE("reduce: x - mean(x, axis(1), keepdims) is two passes, the means computed once", P, st::host, st::par) {
  const std::int64_t rows = 301, cols = 1001;
  const auto d = make_data<float>(static_cast<std::size_t>(rows * cols), 71u);
  const auto x = make_array<float, 2, P>({rows, cols}, d);
  st::array<float, 2, P> out({rows, cols});
  {
    st::trace_scope t;
    out = x - st::mean(x, st::axis(1), st::keepdims);
    const auto passes = t.passes();
    REQUIRE(passes.size() == 2);
    CHECK(t.allocations() == 1);  // the (rows, 1) means
    CHECK(passes[0].expression.find("mean") != std::string::npos);
    CHECK(passes[0].elements == rows * cols);
    CHECK(passes[1].elements == rows * cols);
    // The subtraction reads the stored means, not a recomputation.
    CHECK(passes[1].expression.find("mean") == std::string::npos);
    CHECK(passes[1].bytes_read == static_cast<std::size_t>(rows * cols + rows) * sizeof(float));
  }
  for (std::int64_t i = 0; i < rows; ++i) {
    double s = 0;
    for (std::int64_t j = 0; j < cols; ++j) s += static_cast<double>(d[static_cast<std::size_t>(i * cols + j)]);
    const double mu = s / static_cast<double>(cols);
    for (std::int64_t j = 0; j < cols; j += 97)
      CHECK(std::abs(static_cast<double>(out(i, j)) - (static_cast<double>(d[static_cast<std::size_t>(i * cols + j)]) - mu)) < 1e-5);
  }
}
