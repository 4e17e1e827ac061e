// Lifetimes of expressions kept in `auto` and returned from functions
// (issue 65, papercut 6). An expression references the memory of the arrays
// and views it was given as lvalues, and owns the arrays moved into it
// (rvalues: temporaries, std::move of a local), which it keeps alive; scalars
// are copied. Composing expressions copies the node tree and shares the
// owned arrays, so an expression never refers to another expression object.
// So returning `a * 2` of a local array `a` reads freed memory (not tested:
// undefined), while the patterns below are safe: returning sinter::eval(e),
// returning the array, and returning an expression whose local arrays were
// moved into it. After each call, arrays of the same size are allocated and
// filled with a sentinel, so that a read of freed memory would likely see
// it; the sanitizer build (ASan) reports any such read.
#include <doctest/doctest.h>

#include "support/random.hpp"

#include <cmath>
#include <cstdint>
#include <sinter/sinter.hpp>
#include <utility>
#include <vector>

namespace st = sinter;
using st::index_t;

// Helpers in a namespace of this file's own: a test batch (tests/CMakeLists.txt)
// compiles several test files as one translation unit.
namespace lifetimes {

constexpr index_t sizes[] = {1, 7, 1009, 2 * st::detail::par_grain + 13};

std::vector<double> data(index_t n, unsigned seed) {
  return sinter_test::random_vector<double>(static_cast<std::size_t>(n), seed, -1.0, 1.0);
}

template <class P = st::host>
st::array<double, 1, P> make(index_t n, unsigned seed) {
  const auto d = data(n, seed);
  st::array<double, 1, P> a({n});
  std::size_t i = 0;
  for (auto& x : a) x = d[i++];
  return a;
}

/// Allocates and fills arrays of n doubles, so freed buffers get reused.
void clobber(index_t n) {
  std::vector<st::array<double, 1>> junk;
  for (int k = 0; k < 4; ++k) junk.emplace_back(st::full<double>({n}, 1e300));
}

// The safe patterns, each returning 2 * a + 1 of a local array a.
auto returns_eval(index_t n) {
  const auto a = make(n, 1);
  return st::eval(a * 2.0 + 1.0);
}
st::array<double, 1> returns_array(index_t n) {
  auto a = make(n, 1);
  a = a * 2.0 + 1.0;
  return a;
}
auto returns_owning_expr(index_t n) {
  auto a = make(n, 1);
  return std::move(a) * 2.0 + 1.0;  // a is moved into the expression
}
auto returns_composed(index_t n) {
  auto a = make(n, 1);
  const auto inner = std::move(a) * 2.0;
  return inner + 1.0;  // inner dies here; its node and its array live on in the result
}
// Temporaries are moved in as well: exp(a2) + a1 of two local arrays.
auto returns_from_temporaries(index_t n) { return st::exp(make(n, 2)) + make(n, 1); }
// host and par arrays moved into one (par) expression.
auto returns_mixed(index_t n) { return make<st::host>(n, 1) * 2.0 + make<st::par>(n, 2); }

/// Whether e (anything sinter evaluates) holds f(i) at every i of [0, n).
template <class E, class F>
bool holds(const E& e, index_t n, F f) {
  const st::array<double, 1> got = e;
  bool ok = got.size() == n;
  for (index_t i = 0; ok && i < n; ++i) ok = std::abs(got(i) - f(static_cast<std::size_t>(i))) <= 1e-14;
  return ok;
}

}  // namespace lifetimes

TEST_CASE("lifetimes: eval, the array, and expressions owning their arrays are safe to return") {
  using namespace lifetimes;
  static_assert(decltype(returns_owning_expr(1))::keep_count() == 1);
  static_assert(decltype(returns_composed(1))::keep_count() == 1);
  static_assert(decltype(returns_from_temporaries(1))::keep_count() == 2);
  static_assert(std::is_same_v<decltype(returns_mixed(1))::policy_type, st::par>);
  for (const index_t n : sizes) {
    INFO("n = ", n);
    const auto d1 = data(n, 1), d2 = data(n, 2);
    const auto lin = [&](std::size_t i) { return 2.0 * d1[i] + 1.0; };
    const auto r1 = returns_eval(n);
    clobber(n);
    CHECK(holds(r1, n, lin));
    const auto r2 = returns_array(n);
    clobber(n);
    CHECK(holds(r2, n, lin));
    const auto e3 = returns_owning_expr(n);
    clobber(n);
    CHECK(holds(e3, n, lin));
    CHECK(holds(e3, n, lin));  // evaluating does not use up the expression
    const auto e4 = returns_composed(n);
    clobber(n);
    CHECK(holds(e4, n, lin));
    const auto e5 = returns_from_temporaries(n);
    clobber(n);
    CHECK(holds(e5, n, [&](std::size_t i) { return std::exp(d2[i]) + d1[i]; }));
    const auto e6 = returns_mixed(n);
    clobber(n);
    CHECK(holds(e6, n, [&](std::size_t i) { return 2.0 * d1[i] + d2[i]; }));
    CHECK(std::abs(st::sum(e6) - [&] {
            double s = 0;
            for (std::size_t i = 0; i < d1.size(); ++i) s += 2.0 * d1[i] + d2[i];
            return s;
          }()) <= 1e-12 * static_cast<double>(n) * 3.0);
  }
}

TEST_CASE("lifetimes: an expression kept in auto reads its lvalue arrays when evaluated") {
  using namespace lifetimes;
  for (const index_t n : sizes) {
    auto a = make(n, 3);
    const auto e = a * 2.0;  // references a
    a = 4.0;                 // same shape: written in place, no reallocation
    CHECK(holds(e, n, [](std::size_t) { return 8.0; }));
    // A copy of the expression shares what it owns and references the same arrays.
    const auto owning = std::move(a) + 1.0;
    auto copy = owning;
    CHECK(copy.keep()[0] == owning.keep()[0]);
    CHECK(holds(copy, n, [](std::size_t) { return 5.0; }));
  }
}
