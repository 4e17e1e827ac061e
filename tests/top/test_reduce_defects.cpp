// Reduction defects found by a differential check against NumPy (issue 65):
//  - dot of 1-D operands of different lengths throws shape_error naming both
//    shapes (NumPy: "shapes (3,) and (1,) not aligned"), a length of 1 too,
//    which used to broadcast (dot({1, 2, 3}, {2}) gave 12);
//  - var/std divide by max(n - ddof, 0), as NumPy: ddof >= n gives inf, or
//    NaN where the sum of squared deviations is 0 (equal values, one element,
//    an empty lane); they used to give negative values and -0.0.
// Expected values are NumPy 1.24's (np.var([1, 3], ddof=3) -> inf,
// np.var([2, 2], ddof=2) -> nan, np.var([[5.]], axis=1, ddof=2) -> [nan]),
// random cases against plain double loops.
#include <doctest/doctest.h>

#include "support/random.hpp"

#include <cmath>
#include <cstdint>
#include <sinter/sinter.hpp>
#include <string>
#include <vector>

namespace st = sinter;
using st::index_t;

// Helpers in a namespace of this file's own: a test batch (tests/CMakeLists.txt)
// compiles several test files as one translation unit.
namespace reduce_defects {

/// An array of shape `shape` on policy P holding `v`.
template <class P, std::size_t R, class T>
st::array<T, R, P> defect_array(const st::extents<R>& shape, const std::vector<T>& v) {
  st::array<T, R, P> a(shape);
  std::size_t i = 0;
  for (auto& x : a) x = v[i++];
  return a;
}

/// The message of the shape_error that f throws, or "(no shape_error)".
template <class F>
std::string shape_error_text(F&& f) {
  try {
    f();
  } catch (const st::shape_error& e) {
    return e.what();
  }
  return "(no shape_error)";
}

bool contains_text(const std::string& s, const char* part) { return s.find(part) != std::string::npos; }

/// Population variance of v with ddof, as NumPy computes it, in double.
double ref_variance(const std::vector<double>& v, int ddof) {
  double mean = 0;
  for (double x : v) mean += x;
  mean /= static_cast<double>(v.size());
  double m2 = 0;
  for (double x : v) m2 += (x - mean) * (x - mean);
  const double dof = static_cast<double>(v.size()) - ddof;
  return m2 / (dof > 0 ? dof : 0.0);
}

bool is_pos_inf(double x) { return std::isinf(x) && x > 0; }

}  // namespace reduce_defects

TEST_CASE_TEMPLATE("defects: dot of different lengths throws shape_error naming both shapes", P, st::host, st::par) {
  using namespace reduce_defects;
  const auto a = defect_array<P, 1>({3}, std::vector<double>{1, 2, 3});
  const auto b = defect_array<P, 1>({1}, std::vector<double>{2});
  const std::string m = shape_error_text([&] { (void)st::dot(a, b); });
  CAPTURE(m);
  CHECK(contains_text(m, "dot"));
  CHECK(contains_text(m, "(3,)"));
  CHECK(contains_text(m, "(1,)"));
  CHECK(contains_text(m, "not aligned"));
  CHECK(contains_text(shape_error_text([&] { (void)st::dot(b, a); }), "dot: shapes (1,) and (3,)"));
  // Integers, an expression, a view and a generator: the same check.
  const auto ai = defect_array<P, 1>({5}, std::vector<std::int32_t>{1, 2, 3, 4, 5});
  CHECK(contains_text(shape_error_text([&] { (void)st::dot(ai, ai(st::slice(0, 1))); }), "(5,) and (1,)"));
  CHECK(contains_text(shape_error_text([&] { (void)st::dot(a * 2.0, st::arange<double>(4)); }), "(3,) and (4,)"));
  CHECK(contains_text(shape_error_text([&] { (void)st::dot(st::eval(a + 1.0), b); }), "(3,) and (1,)"));
  // Equal lengths of 1 still work.
  CHECK(st::dot(b, b) == 4.0);
}

TEST_CASE_TEMPLATE("defects: dot of equal lengths against a double loop", P, st::host, st::par) {
  using namespace reduce_defects;
  for (const index_t n : {index_t{0}, index_t{1}, index_t{7}, index_t{1009}, 2 * st::detail::par_grain + 13}) {
    const auto da = sinter_test::random_vector<double>(static_cast<std::size_t>(n), 3u, -1.0, 1.0);
    const auto db = sinter_test::random_vector<double>(static_cast<std::size_t>(n), 4u, -1.0, 1.0);
    const auto a = defect_array<P, 1>({n}, da);
    const auto b = defect_array<P, 1>({n}, db);
    double ref = 0, mag = 0;
    for (std::size_t i = 0; i < da.size(); ++i) {
      ref += da[i] * db[i];
      mag += std::abs(da[i] * db[i]);
    }
    INFO("n = ", n);
    CHECK(std::abs(st::dot(a, b) - ref) <= 1e-12 * mag);
  }
}

TEST_CASE_TEMPLATE("defects: var and std of the whole array with ddof >= n", P, st::host, st::par) {
  using namespace reduce_defects;
  const auto x = defect_array<P, 1>({2}, std::vector<double>{1, 3});
  CHECK(is_pos_inf(st::var(x, 3)));  // numpy: inf (was -2)
  CHECK(is_pos_inf(st::var(x, 2)));  // n - ddof = 0: inf
  CHECK(is_pos_inf(st::std(x, 3)));
  CHECK(st::var(x, 1) == 2.0);
  const auto eq = defect_array<P, 1>({2}, std::vector<double>{2, 2});
  CHECK(std::isnan(st::var(eq, 2)));  // 0 / 0
  CHECK(std::isnan(st::var(eq, 5)));
  CHECK(std::isnan(st::std(eq, 3)));
  const auto f = defect_array<P, 1>({2}, std::vector<float>{1, 3});
  static_assert(std::is_same_v<decltype(st::var(f, 3)), float>);
  CHECK(is_pos_inf(static_cast<double>(st::var(f, 3))));
  const auto i = defect_array<P, 1>({3}, std::vector<std::int16_t>{4, -1, 9});
  CHECK(is_pos_inf(st::var(i, 4)));
  const st::array<double, 1, P> empty({0});
  CHECK(std::isnan(st::var(empty)));
  CHECK(std::isnan(st::var(empty, 1)));
  CHECK(std::isnan(st::std(empty, 2)));
  // Above par's threshold (several threads): ddof = n and n + 1.
  const index_t n = 2 * st::detail::par_grain + 13;
  const auto d = sinter_test::random_vector<double>(static_cast<std::size_t>(n), 9u, -1.0, 1.0);
  const auto big = defect_array<P, 1>({n}, d);
  CHECK(is_pos_inf(st::var(big, static_cast<int>(n))));
  CHECK(is_pos_inf(st::std(big, static_cast<int>(n) + 1)));
  CHECK(st::var(big, 1) == doctest::Approx(ref_variance(d, 1)).epsilon(1e-12));
}

TEST_CASE_TEMPLATE("defects: var and std along an axis with ddof >= the lane's length", P, st::host, st::par) {
  using namespace reduce_defects;
  // Shape (2, 1): numpy var(axis=1, ddof=2) -> [nan, nan] (was -0.0).
  const auto col = defect_array<P, 2>({2, 1}, std::vector<double>{5, 7});
  const auto v = st::var(col, st::axis(1), 2);
  REQUIRE(v.shape() == st::extents<1>{2});
  CHECK(std::isnan(v(0)));
  CHECK(std::isnan(v(1)));
  const auto s = st::std(col, st::axis(1), st::keepdims, 2);
  CHECK(s.shape() == st::extents<2>{2, 1});
  CHECK(std::isnan(s(0, 0)));
  // Rows of 3 with ddof 3 and 4: inf, NaN for the row of equal values.
  const auto m = defect_array<P, 2>({3, 3}, std::vector<float>{1, 2, 4, 3, 3, 3, -1, 0, 5});
  for (const int ddof : {3, 4}) {
    const auto r = st::var(m, st::axis(-1), ddof);
    CHECK(is_pos_inf(static_cast<double>(r(0))));
    CHECK(std::isnan(r(1)));
    CHECK(is_pos_inf(static_cast<double>(r(2))));
    const auto c = st::std(m, st::axis(0), st::keepdims, ddof);
    CHECK(is_pos_inf(static_cast<double>(c(0, 0))));
    CHECK(is_pos_inf(static_cast<double>(c(0, 1))));
  }
  // Along the only axis of a 1-D array: a rank-0 result (numpy: inf, nan).
  const auto x = defect_array<P, 1>({2}, std::vector<double>{1, 3});
  const auto r0 = st::var(x, st::axis(0), 3);
  static_assert(decltype(r0)::rank == 0);
  CHECK(is_pos_inf(r0()));
  const auto s0 = st::std(col(st::all, 0)(st::slice(0, 1)), st::axis(0), 1);  // one element, ddof 1
  CHECK(std::isnan(s0()));
  // Empty lanes: NaN, whatever the ddof (numpy: [nan, nan]).
  const st::array<double, 2, P> e({2, 0});
  for (const int ddof : {0, 1}) {
    const auto r = st::var(e, st::axis(1), ddof);
    REQUIRE(r.shape() == st::extents<1>{2});
    CHECK(std::isnan(r(0)));
    CHECK(std::isnan(r(1)));
  }
}

TEST_CASE_TEMPLATE("defects: var along axes with ddof < n still matches a double loop", P, st::host, st::par) {
  using namespace reduce_defects;
  // Odd shapes, with rows long and many enough for par's threads.
  for (const index_t rows : {index_t{1}, index_t{3}, index_t{17}}) {
    for (const index_t cols : {index_t{1}, index_t{2}, index_t{7}, st::detail::par_grain / 4 + 3}) {
      const auto d = sinter_test::random_vector<double>(static_cast<std::size_t>(rows * cols), 11u, -3.0, 3.0);
      const auto m = defect_array<P, 2>({rows, cols}, d);
      for (const int ddof : {0, 1, 2}) {
        const auto got = st::var(m, st::axis(1), ddof);
        for (index_t r = 0; r < rows; ++r) {
          const std::vector<double> lane(d.begin() + r * cols, d.begin() + (r + 1) * cols);
          const double ref = ref_variance(lane, ddof);
          INFO("rows ", rows, " cols ", cols, " ddof ", ddof, " row ", r);
          if (std::isnan(ref)) CHECK(std::isnan(got(r)));
          else if (std::isinf(ref)) CHECK(is_pos_inf(got(r)));
          else CHECK(got(r) == doctest::Approx(ref).epsilon(1e-12));
        }
      }
    }
  }
}
