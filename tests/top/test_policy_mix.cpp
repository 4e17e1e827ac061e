// host and par share one memory space (issue 65, papercut 4): their arrays
// and views mix in one expression, in assignments both ways, in reductions
// and in tie, copying nothing. The rule: an assignment runs on the output's
// policy; an expression's own policy (eval, a whole reduction, an axis
// reduction's result) is par if any operand is par, else host. Checked on
// random data at odd sizes (one above par's threading threshold) against
// plain double loops; the trace tells which policy ran each pass and counts
// allocations (none where nothing needs a temporary). Mixing host or par
// with cuda stays a compile error (tests/fail/mixed_policies*.cpp).
#include <doctest/doctest.h>

#include "support/random.hpp"

#include <cmath>
#include <cstdint>
#include <sinter/sinter.hpp>
#include <span>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

namespace st = sinter;
using st::index_t;

// Helpers in a namespace of this file's own: a test batch (tests/CMakeLists.txt)
// compiles several test files as one translation unit.
namespace policy_mix {

/// Above par's threshold (2 * par_grain elements), odd, so par splits the pass.
constexpr index_t mix_big = 2 * st::detail::par_grain + 13;
constexpr index_t mix_sizes[] = {0, 1, 7, 1009, mix_big};

std::size_t usz(index_t n) { return static_cast<std::size_t>(n); }

/// A 1-D array of policy P holding v.
template <class P, class T>
st::array<T, 1, P> mix_array(const std::vector<T>& v) {
  st::array<T, 1, P> a({static_cast<index_t>(v.size())});
  std::size_t i = 0;
  for (auto& x : a) x = v[i++];
  return a;
}

/// |got - ref| within rel * max(1, |ref|).
bool near(double got, double ref, double rel = 1e-12) {
  return std::abs(got - ref) <= rel * std::max(1.0, std::abs(ref));
}

/// The policies of the passes t recorded, in order ("host", "par").
std::vector<std::string> policies_of(const st::trace_scope& t) {
  std::vector<std::string> out;
  for (const auto& p : t.passes()) out.push_back(p.policy);
  return out;
}

using strings = std::vector<std::string>;

/// Element checks count their failures (one doctest assertion per element
/// was most of this file's run time in sanitizer builds); each test case
/// ends with CHECK(mismatches == 0), and the first few are printed.
inline int mismatches = 0;
inline void expect_at(bool ok, const char* what, int line) {
  if (!ok && ++mismatches <= 5) MESSAGE("mismatch at line ", line, ": ", std::string(what));
}
#define MIX_EXPECT(...) policy_mix::expect_at(static_cast<bool>(__VA_ARGS__), #__VA_ARGS__, __LINE__)

}  // namespace policy_mix

TEST_CASE("policy mix: the expression's policy is par if any operand is par") {
  using namespace policy_mix;
  mismatches = 0;
  st::array<float, 1, st::host> h({3});
  st::array<float, 1, st::par> p({3});
  static_assert(std::is_same_v<decltype(h + p)::policy_type, st::par>);
  static_assert(std::is_same_v<decltype(p + h)::policy_type, st::par>);
  static_assert(std::is_same_v<decltype(h * 2.f + h)::policy_type, st::host>);
  static_assert(std::is_same_v<decltype(st::exp(h) + st::arange<float>(3) * p)::policy_type, st::par>);
  static_assert(std::is_same_v<decltype(st::eval(h + p)), st::array<float, 1, st::par>>);
  static_assert(std::is_same_v<decltype(st::eval(h + h)), st::array<float, 1, st::host>>);
  static_assert(std::is_same_v<decltype(st::sum(h + p, st::axis(0))), st::array<float, 0, st::par>>);
  static_assert(std::is_same_v<decltype(st::where(h > 0.f, p, h))::policy_type, st::par>);
  // A par view of a host array's memory, and the other way round.
  const st::view<float, 1, st::par> pv(h.data(), h.shape());
  static_assert(std::is_same_v<decltype(pv - h)::policy_type, st::par>);
}

TEST_CASE("policy mix: values of mixed expressions against a double loop, both output policies") {
  using namespace policy_mix;
  mismatches = 0;
  for (const index_t n : mix_sizes) {
    INFO("n = ", n);
    const auto da = sinter_test::random_vector<double>(usz(n), 1u, -2.0, 2.0);
    const auto db = sinter_test::random_vector<double>(usz(n), 2u, -2.0, 2.0);
    const auto h = mix_array<st::host>(da);
    const auto p = mix_array<st::par>(db);
    std::vector<double> ref(usz(n));
    for (std::size_t i = 0; i < ref.size(); ++i) ref[i] = std::exp(da[i]) * 0.5 - db[i] * da[i] + 1.0;

    st::array<double, 1, st::host> out_h({n});
    st::array<double, 1, st::par> out_p({n});
    {
      st::trace_scope t;
      out_h = st::exp(h) * 0.5 - p * h + 1.0;  // a par expression into a host array: host runs it
      out_p = st::exp(h) * 0.5 - p * h + 1.0;  // into a par array: par runs it
      CHECK(policies_of(t) == strings{"host", "par"});
      CHECK(t.allocations() == 0);  // nothing copied
    }
    const auto ev = st::eval(st::exp(h) * 0.5 - p * h + 1.0);
    static_assert(std::is_same_v<decltype(ev), const st::array<double, 1, st::par>>);
    for (std::size_t i = 0; i < ref.size(); ++i) {
      const auto k = static_cast<index_t>(i);
      MIX_EXPECT(near(out_h(k), ref[i]));
      MIX_EXPECT(near(out_p(k), ref[i]));
      MIX_EXPECT(near(ev(k), ref[i]));
    }
  }
  CHECK(mismatches == 0);
}

TEST_CASE("policy mix: views, strides and compound assignments across host and par") {
  using namespace policy_mix;
  mismatches = 0;
  const index_t n = mix_big;
  const auto da = sinter_test::random_vector<float>(usz(n), 3u, -1.f, 1.f);
  const auto db = sinter_test::random_vector<float>(usz(n), 4u, -1.f, 1.f);
  auto h = mix_array<st::host>(da);
  auto p = mix_array<st::par>(db);
  const index_t n_half = (n + 1) / 2;
  st::array<float, 1, st::host> out({n_half});
  {
    st::trace_scope t;
    // A reversed par view and a step-2 host view into a host array.
    out = p(st::slice(st::none, st::none, -2)) * 2.f + h(st::slice(0, st::none, 2));
    CHECK(policies_of(t) == strings{"host"});
    CHECK(t.allocations() == 0);
  }
  for (index_t i = 0; i < n_half; ++i) MIX_EXPECT(out(i) == db[usz(n - 1 - 2 * i)] * 2.f + da[usz(2 * i)]);

  // Compound assignment: host += par runs on host, par -= host on par.
  {
    st::trace_scope t;
    h += p;
    p -= h;
    CHECK(policies_of(t) == strings{"host", "par"});
    CHECK(t.allocations() == 0);
  }
  for (std::size_t i = 0; i < da.size(); ++i) {
    const float hi = da[i] + db[i];
    MIX_EXPECT(h(static_cast<index_t>(i)) == hi);
    MIX_EXPECT(p(static_cast<index_t>(i)) == db[i] - hi);
  }

  // A par view of a host array's memory: writes land in the host array (no copy).
  st::view<float, 1, st::par> pv(h.data(), h.shape());
  {
    st::trace_scope t;
    pv = h * 3.f;  // the same mapping as the output: in place, one pass
    CHECK(policies_of(t) == strings{"par"});
    CHECK(t.allocations() == 0);
  }
  for (std::size_t i = 0; i < da.size(); ++i) MIX_EXPECT(h(static_cast<index_t>(i)) == (da[i] + db[i]) * 3.f);

  // Overlap across policies is still detected: reversing in place through a
  // par view of the host array's memory goes through one temporary.
  std::vector<float> before(h.begin(), h.end());
  {
    st::trace_scope t;
    h = pv(st::slice(st::none, st::none, -1));
    CHECK(t.allocations() == 1);
    CHECK(policies_of(t) == strings{"host", "host"});
  }
  for (std::size_t i = 0; i < before.size(); ++i) MIX_EXPECT(h(static_cast<index_t>(i)) == before[before.size() - 1 - i]);

  // Array = array of the other policy: an assignment, the output's policy runs it.
  st::array<float, 1, st::par> q({n});
  {
    st::trace_scope t;
    q = h;
    CHECK(policies_of(t) == strings{"par"});
    CHECK(t.allocations() == 0);
  }
  for (index_t i = 0; i < n; ++i) MIX_EXPECT(q(i) == h(i));
  // An array constructed from a mixed expression, of an explicit policy.
  const st::array<float, 1, st::host> c(h + q);
  for (index_t i = 0; i < n; ++i) MIX_EXPECT(c(i) == 2.f * h(i));
  CHECK(mismatches == 0);
}

TEST_CASE("policy mix: rank 2 with broadcasting, host rows and a par column") {
  using namespace policy_mix;
  mismatches = 0;
  const index_t rows = 131, cols = 509;  // above par's threshold in all
  const auto dm = sinter_test::random_vector<double>(usz(rows * cols), 5u, -1.0, 1.0);
  const auto dr = sinter_test::random_vector<double>(usz(cols), 6u, -1.0, 1.0);
  const auto dc = sinter_test::random_vector<double>(usz(rows), 7u, -1.0, 1.0);
  st::array<double, 2, st::par> m({rows, cols});
  std::size_t k = 0;
  for (auto& x : m) x = dm[k++];
  const auto row = mix_array<st::host>(dr);
  const auto col = mix_array<st::par>(dc);
  st::array<double, 2, st::host> out({rows, cols});
  out = m * row - col(st::all, st::newaxis);
  for (index_t i = 0; i < rows; ++i)
    for (index_t j = 0; j < cols; ++j)
      MIX_EXPECT(near(out(i, j), dm[usz(i * cols + j)] * dr[usz(j)] - dc[usz(i)]));
  CHECK(mismatches == 0);
}

TEST_CASE("policy mix: reductions of mixed expressions run on par") {
  using namespace policy_mix;
  mismatches = 0;
  for (const index_t n : mix_sizes) {
    INFO("n = ", n);
    const auto da = sinter_test::random_vector<double>(usz(n), 8u, -1.0, 1.0);
    const auto db = sinter_test::random_vector<double>(usz(n), 9u, -1.0, 1.0);
    const auto h = mix_array<st::host>(da);
    const auto p = mix_array<st::par>(db);
    double s = 0, d = 0, mag = 0;
    for (std::size_t i = 0; i < da.size(); ++i) {
      s += da[i] - db[i];
      d += da[i] * db[i];
      mag += std::abs(da[i]) + std::abs(db[i]);
    }
    st::trace_scope t;
    CHECK(std::abs(st::sum(h - p) - s) <= 1e-12 * mag);
    CHECK(std::abs(st::dot(h, p) - d) <= 1e-12 * mag);
    CHECK(std::abs(st::dot(p, h) - d) <= 1e-12 * mag);
    CHECK(policies_of(t) == strings{"par", "par", "par"});
    CHECK(t.allocations() == 0);
    // A host expression alone still reduces on host.
    st::trace_scope t2;
    (void)st::sum(h * 2.0);
    CHECK(policies_of(t2) == strings{"host"});
  }
  // Along an axis: the result is a par array; variance against a double loop.
  const index_t rows = 37, cols = 2 * st::detail::par_grain / 37 + 11;
  const auto dm = sinter_test::random_vector<double>(usz(rows * cols), 10u, -1.0, 1.0);
  const auto dr = sinter_test::random_vector<double>(usz(cols), 11u, -1.0, 1.0);
  st::array<double, 2, st::host> m({rows, cols});
  std::size_t k = 0;
  for (auto& x : m) x = dm[k++];
  const auto row = mix_array<st::par>(dr);
  st::trace_scope t;
  const auto v = st::var(m + row, st::axis(1), 1);
  static_assert(std::is_same_v<decltype(v), const st::array<double, 1, st::par>>);
  CHECK(policies_of(t) == strings{"par"});
  CHECK(t.allocations() == 1);  // the result
  for (index_t i = 0; i < rows; ++i) {
    double mean = 0, m2 = 0;
    for (index_t j = 0; j < cols; ++j) mean += dm[usz(i * cols + j)] + dr[usz(j)];
    mean /= static_cast<double>(cols);
    for (index_t j = 0; j < cols; ++j) {
      const double x = dm[usz(i * cols + j)] + dr[usz(j)] - mean;
      m2 += x * x;
    }
    MIX_EXPECT(near(v(i), m2 / static_cast<double>(cols - 1), 1e-10));
  }
  CHECK(mismatches == 0);
}

TEST_CASE("policy mix: tie with mixed operands and mixed outputs") {
  using namespace policy_mix;
  mismatches = 0;
  for (const index_t n : mix_sizes) {
    INFO("n = ", n);
    const auto da = sinter_test::random_vector<float>(usz(n), 12u, -1.f, 1.f);
    const auto db = sinter_test::random_vector<float>(usz(n), 13u, -1.f, 1.f);
    const auto h = mix_array<st::host>(da);
    const auto p = mix_array<st::par>(db);
    st::array<float, 1, st::host> o1({n}), o2({n});
    st::array<float, 1, st::par> o3({n});
    {
      st::trace_scope t;
      st::tie(o1, o2) = std::tuple(h + p, h * p);  // host outputs: host runs the pass
      st::tie(o1, o3) = std::tuple(h - p, p * 2.f - h);  // a par output: par runs it
      CHECK(policies_of(t) == strings{"host", "par"});
      CHECK(t.allocations() == 0);
    }
    for (std::size_t i = 0; i < da.size(); ++i) {
      const auto j = static_cast<index_t>(i);
      MIX_EXPECT(o2(j) == da[i] * db[i]);
      MIX_EXPECT(o1(j) == da[i] - db[i]);
      MIX_EXPECT(o3(j) == db[i] * 2.f - da[i]);
    }
    // Outputs that are inputs, across policies: a swap.
    auto hs = mix_array<st::host>(da);
    auto ps = mix_array<st::par>(db);
    st::tie(hs, ps) = std::tuple(ps, hs);
    for (std::size_t i = 0; i < da.size(); ++i) {
      MIX_EXPECT(hs(static_cast<index_t>(i)) == db[i]);
      MIX_EXPECT(ps(static_cast<index_t>(i)) == da[i]);
    }
  }
  CHECK(mismatches == 0);
}

TEST_CASE("policy mix: as_view of user memory as par: pointer + shape, std::vector, std::span") {
  using namespace policy_mix;
  mismatches = 0;
  for (const index_t n : mix_sizes) {
    INFO("n = ", n);
    const auto da = sinter_test::random_vector<double>(usz(n), 15u, -1.0, 1.0);
    auto db = sinter_test::random_vector<double>(usz(n), 16u, -1.0, 1.0);
    std::vector<double> out(usz(n)), out2(usz(n));
    const auto pa = st::as_view(da, st::par{});
    auto pout = st::as_view(out.data(), {n}, st::par{});
    static_assert(std::is_same_v<decltype(pa), const st::view<const double, 1, st::par>>);
    static_assert(std::is_same_v<decltype(pout), st::view<double, 1, st::par>>);
    static_assert(std::is_same_v<decltype(st::as_view(da)), st::view<const double, 1, st::host>>);
    CHECK(pa.data() == da.data());  // the user's memory, not a copy
    CHECK(pout.data() == out.data());
    {
      st::trace_scope t;
      pout = pa * 2.0 - st::as_view(db);  // a host view in a par pass
      st::as_view(out2) = pa + st::as_view(std::span<double>(db), st::par{});  // a par expression into a host view
      CHECK(policies_of(t) == strings{"par", "host"});
      CHECK(t.allocations() == 0);
    }
    for (std::size_t i = 0; i < da.size(); ++i) {
      MIX_EXPECT(near(out[i], da[i] * 2.0 - db[i]));
      MIX_EXPECT(out2[i] == da[i] + db[i]);
    }
    if (n > 1) {  // a 2-D par view of the same memory, rows of 1 and an odd count
      auto m = st::as_view(db.data(), {std::size_t{1}, static_cast<std::size_t>(n)}, st::par{});
      m(0, st::slice(0, 1)) = 5.0;
      MIX_EXPECT(db[0] == 5.0);
    }
  }
  CHECK(mismatches == 0);
}

TEST_CASE("policy mix: to<P> between host and par still makes a copy; copy() writes in place") {
  using namespace policy_mix;
  mismatches = 0;
  const auto d = sinter_test::random_vector<float>(1009, 14u, -1.f, 1.f);
  const auto h = mix_array<st::host>(d);
  st::trace_scope t;
  const auto p = st::to<st::par>(h);
  static_assert(std::is_same_v<decltype(p), const st::array<float, 1, st::par>>);
  CHECK(t.allocations() == 1);
  CHECK(static_cast<const void*>(p.data()) != static_cast<const void*>(h.data()));
  for (index_t i = 0; i < 1009; ++i) MIX_EXPECT(p(i) == h(i));
  st::array<float, 1, st::par> q({1009});
  st::copy(q, h * 2.f);
  CHECK(t.allocations() == 2);  // q itself only
  for (index_t i = 0; i < 1009; ++i) MIX_EXPECT(q(i) == 2.f * h(i));
  CHECK(mismatches == 0);
}
