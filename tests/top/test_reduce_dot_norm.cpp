// dot and norm (ord 1, 2 and INFINITY), host and par (host only under the sanitizers), on float, double,
// int32, int64, uint8, bool and half: in full (1-D, sizes 0, 1, 7, 1009 and
// one above par's threading threshold) and along each axis (and a pair of
// axes) of rank-2 and rank-3 arrays, with and without keepdims; contiguous,
// strided (step 2), reversed and broadcast (stride 0) operands. Every result
// is compared with an independent reference computed in double by plain
// loops over the generated data (support/reduce_check.hpp's data and
// grouping helpers).
//
// Tolerances (absolute, per result; `sa` below is the sum of |terms|):
//  - What sinter computes in: norm in compute_t<floating_t<T>> (float for
//    float and half, double for double, integers and bool); dot's products
//    and sum in the sum accumulator (float for float and half, double for
//    double, 64-bit integers for integers and bool).
//  - Summation error (support/reduce_check.hpp, file comment): the pairwise
//    engine puts every term through at most 25 rounded additions for
//    n <= 1e7, so |error| <= 25 u sa: 1.5e-6 sa in float, 2.8e-15 sa in
//    double. We allow acc_rel = 1e-5 (float) and 1e-12 (double).
//  - norm ord 1: sum of |x| (|x| exact): tol = acc_rel * ref.
//  - norm ord 2: each square rounds once (1 u), the sum as above, the square
//    root halves the relative error of its argument and rounds once more:
//    relative error <= (25 + 1) / 2 + 1 < 25 u: tol = acc_rel * ref.
//  - norm ord INFINITY: |x| and max are exact, and the result type holds the
//    value (a data value): tol = 0.
//  - dot: float products round once (1 u each): <= 26 u sa: tol = acc_rel * sa.
//    half products are exact in float (11 + 11 significant bits <= 24).
//    Integers and bool are exact in 64 bits (|products| <= 1e4, n < 1e5):
//    tol = 0.
//  - half results are rounded once to half at the end: + 2^-11 * |ref|.
#include <doctest/doctest.h>

#include "support/reduce_check.hpp"
#include "support/scale.hpp"

#include <cmath>
#include <cstdint>
#include <sinter/sinter.hpp>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

namespace st = sinter;
using namespace sinter_test;

namespace {

using shape_v = std::vector<std::int64_t>;

/// Above par's threshold (a pass of >= 2 * par_grain elements is split over threads);
/// under the sanitizers, which run host only (support/scale.hpp), above two of
/// the host's 4096-element tiles: the host paths of the larger sizes, sampled.
#if defined(SINTER_TEST_SANITIZED)
constexpr std::int64_t dot_norm_wide = 4096;
#else
constexpr std::int64_t dot_norm_wide = st::detail::par_grain;
#endif
constexpr std::int64_t big = 2 * dot_norm_wide + 7;

enum class nord { l1, l2, inf };

double ord_of(nord o) { return o == nord::l1 ? 1.0 : o == nord::l2 ? 2.0 : INFINITY; }
std::string ord_name(nord o) { return o == nord::l1 ? "ord 1" : o == nord::l2 ? "ord 2" : "ord inf"; }
constexpr nord all_ords[] = {nord::l1, nord::l2, nord::inf};

/// numpy.linalg.norm's result type, written out independently: the float type
/// itself for floats (half included), double for integers and bool.
template <class T>
using norm_result_t = std::conditional_t<is_float_like<T>, T, double>;
/// dot's result type: that of sum (int64 for signed and bool, uint64 for unsigned).
template <class T>
using dot_result_t = result_of_t<rop::sum, T>;

/// The accuracy of what sinter computes in for T (see the file comment).
struct nd_traits {
  double acc_rel;     ///< relative error bound of the accumulation
  double result_eps;  ///< relative rounding of the result (half)
  bool exact_dot;     ///< integers and bool: dot is exact
};
template <class T>
constexpr nd_traits nd_traits_of() {
  constexpr bool in_float = std::is_same_v<T, float> || is_16bit_float<T>;
  return {in_float ? 1e-5 : 1e-12, std::is_same_v<T, st::half> ? 0x1p-11 : 0.0, !is_float_like<T>};
}

template <class T>
std::string dtype_name() {
  if constexpr (std::is_same_v<T, float>) return "float";
  else if constexpr (std::is_same_v<T, double>) return "double";
  else if constexpr (std::is_same_v<T, std::int32_t>) return "int32";
  else if constexpr (std::is_same_v<T, std::int64_t>) return "int64";
  else if constexpr (std::is_same_v<T, std::uint8_t>) return "uint8";
  else if constexpr (std::is_same_v<T, bool>) return "bool";
  else return "half";
}

/// The reference norm of xs, in double, with its tolerance.
ref_value norm_ref(nord o, const nd_traits& t, std::span<const double> xs) {
  double r = 0;
  if (o == nord::l1) {
    for (double x : xs) r += std::abs(x);
  } else if (o == nord::l2) {
    for (double x : xs) r += x * x;
    r = std::sqrt(r);
  } else {
    for (double x : xs) r = std::max(r, std::abs(x));
  }
  if (o == nord::inf) return {r, 0.0};
  return {r, (t.acc_rel + t.result_eps) * r};
}

/// The reference dot product of xs and ys, in double, with its tolerance.
ref_value dot_ref(const nd_traits& t, const std::vector<double>& xs, const std::vector<double>& ys) {
  REQUIRE(xs.size() == ys.size());
  double r = 0, sa = 0;
  for (std::size_t i = 0; i < xs.size(); ++i) {
    r += xs[i] * ys[i];
    sa += std::abs(xs[i] * ys[i]);
  }
  if (t.exact_dot) return {r, 0.0};
  return {r, t.acc_rel * sa + t.result_eps * std::abs(r)};
}

/// Row-major values of the strided selection of row-major data `d` (of
/// `shape`): along axis k, `count[k]` elements from `start[k]` by `step[k]`.
std::vector<double> strided_ref(const std::vector<double>& d, const shape_v& shape, const shape_v& start,
                                const shape_v& step, const shape_v& count) {
  const std::size_t R = shape.size();
  std::vector<double> out;
  std::int64_t total = 1;
  for (auto c : count) total *= c;
  if (total == 0) return out;
  shape_v idx(R, 0);
  for (std::int64_t n = 0; n < total; ++n) {
    std::int64_t flat = 0;
    for (std::size_t k = 0; k < R; ++k) flat = flat * shape[k] + start[k] + idx[k] * step[k];
    out.push_back(d[static_cast<std::size_t>(flat)]);
    for (std::size_t k = R; k-- > 0;) {
      if (++idx[k] < count[k]) break;
      idx[k] = 0;
    }
  }
  return out;
}

/// A full norm of x (1-D or not) against the reference.
template <class X>
void check_norm_full(const X& x, const std::vector<double>& vals, const std::string& what) {
  using T = value_t<X>;
  static_assert(std::is_same_v<decltype(st::norm(x)), norm_result_t<T>>, "norm: wrong result type");
  static_assert(std::is_same_v<decltype(st::norm(x, 1)), norm_result_t<T>>, "norm: wrong result type");
  const std::size_t n = vals.size();
  for (const nord o : all_ords) {
    INFO(dtype_name<T>(), " ", what, " norm(", ord_name(o), ") n=", n);
    if (o == nord::inf && vals.empty()) {
      CHECK_THROWS_AS((void)st::norm(x, ord_of(o)), st::value_error);
      continue;
    }
    const auto r = norm_ref(o, nd_traits_of<T>(), vals);
    const double got = to_double(st::norm(x, ord_of(o)));
    INFO("got ", got, ", want ", r.value, " +- ", r.tol);
    CHECK(close(got, r));
    if (o == nord::l2) CHECK(to_double(st::norm(x)) == got);  // ord 2 is the default
  }
}

/// dot(a, b) against the reference.
template <class A, class B>
void check_dot(const A& a, const B& b, const std::vector<double>& xs, const std::vector<double>& ys,
               const std::string& what) {
  using T = value_t<A>;
  static_assert(std::is_same_v<decltype(st::dot(a, b)), dot_result_t<T>>, "dot: wrong result type");
  const auto r = dot_ref(nd_traits_of<T>(), xs, ys);
  const double got = to_double(st::dot(a, b));
  const std::size_t n = xs.size();
  INFO(dtype_name<T>(), " ", what, " dot n=", n, ": got ", got, ", want ", r.value, " +- ", r.tol);
  CHECK(close(got, r));
}

/// norm(x, ord, ax[, keepdims]) against the reference of every output.
template <bool Keep, std::size_t N, class X>
void check_norm_along(const X& x, nord o, const std::vector<double>& vals, const shape_v& shape,
                      const st::axes_t<N>& ax, const std::string& what) {
  using T = value_t<X>;
  constexpr std::size_t R = rank_v<X>;
  std::vector<bool> reduced(R, false);
  std::string axs;
  std::int64_t len = 1;
  for (std::size_t k = 0; k < N; ++k) {
    const int a = ax.a[k] < 0 ? ax.a[k] + static_cast<int>(R) : ax.a[k];
    reduced[static_cast<std::size_t>(a)] = true;
    len *= shape[static_cast<std::size_t>(a)];
    axs += (k ? "," : "") + std::to_string(ax.a[k]);
  }
  INFO(dtype_name<T>(), " ", what, " norm(", ord_name(o), ", axes ", axs, std::string(Keep ? ", keepdims" : ""), ")");
  const auto groups = group_by_output(vals, shape, reduced);
  auto run = [&] {
    if constexpr (Keep) return st::norm(x, ord_of(o), ax, st::keepdims);
    else return st::norm(x, ord_of(o), ax);
  };
  if (o == nord::inf && len == 0 && !groups.empty()) {
    CHECK_THROWS_AS((void)run(), st::value_error);  // max |x| of an empty lane
    return;
  }
  const auto out = run();
  using Out = std::remove_cvref_t<decltype(out)>;
  static_assert(std::is_same_v<Out, st::array<norm_result_t<T>, Keep ? R : R - N, typename Out::policy_type>>,
                "norm along axes: wrong result type");
  shape_v want_shape;
  for (std::size_t d = 0; d < R; ++d)
    if (!reduced[d]) want_shape.push_back(shape[d]);
    else if (Keep) want_shape.push_back(1);
  const auto gs = out.shape();
  REQUIRE(shape_v(gs.begin(), gs.end()) == want_shape);
  REQUIRE(static_cast<std::size_t>(out.size()) == groups.size());
  std::size_t bad = 0, first = 0;
  double first_got = 0, first_want = 0;
  for (std::size_t i = 0; i < groups.size(); ++i) {
    const auto r = norm_ref(o, nd_traits_of<T>(), groups[i]);
    const double got = to_double(out.data()[i]);
    if (!close(got, r) && bad++ == 0) {
      first = i;
      first_got = got;
      first_want = r.value;
    }
  }
  INFO("first mismatch at output ", first, ": got ", first_got, ", want ", first_want);
  CHECK(bad == 0);
}

/// Every ord along each single axis (also as a negative index), and axes
/// (0, R - 1) for rank 3, with and without keepdims.
template <class X>
void check_norm_axes(const X& x, const std::vector<double>& vals, const shape_v& shape, const std::string& what) {
  constexpr int R = static_cast<int>(rank_v<X>);
  for (const nord o : all_ords) {
    for (int d = 0; d < R; ++d) {
      check_norm_along<false>(x, o, vals, shape, st::axis(d), what);
      check_norm_along<true>(x, o, vals, shape, st::axis(d), what);
    }
    check_norm_along<false>(x, o, vals, shape, st::axis(-1), what);
    if constexpr (R == 3) {
      check_norm_along<false>(x, o, vals, shape, st::axes(0, 2), what);
      check_norm_along<true>(x, o, vals, shape, st::axes(2, 0), what);
    }
  }
}

// ---- the drivers -------------------------------------------------------------

/// dot and the full norms of 1-D arrays of every size: contiguous, step 2,
/// reversed and broadcast (one element repeated, stride 0).
template <class T, class P>
void full_1d() {
  for (const std::int64_t n : {std::int64_t{0}, std::int64_t{1}, std::int64_t{7}, std::int64_t{1009}, big}) {
    const auto da = make_data<T>(static_cast<std::size_t>(n), 101u + static_cast<unsigned>(n));
    const auto db = make_data<T>(static_cast<std::size_t>(n), 202u + static_cast<unsigned>(n));
    const auto a = make_array<T, 1, P>({n}, da);
    const auto b = make_array<T, 1, P>({n}, db);
    const auto xa = to_doubles(da), xb = to_doubles(db);
    const std::string sz = " (n=" + std::to_string(n) + ")";
    check_dot(a, b, xa, xb, "a . b" + sz);
    check_norm_full(a, xa, "a" + sz);
    // Step 2 and reversed (both of length ceil(n / 2) for the dot).
    const std::int64_t half_n = (n + 1) / 2;
    const auto a2 = strided_ref(xa, {n}, {0}, {2}, {half_n});
    const auto brev2 = strided_ref(xb, {n}, {n - 1}, {-2}, {half_n});
    const auto arev = strided_ref(xa, {n}, {n - 1}, {-1}, {n});
    check_norm_full(a(st::slice(st::none, st::none, 2)), a2, "a[::2]" + sz);
    check_norm_full(a(st::slice(st::none, st::none, -1)), arev, "a[::-1]" + sz);
    check_dot(a(st::slice(st::none, st::none, 2)), b(st::slice(st::none, st::none, -2)), a2, brev2,
              "a[::2] . b[::-2]" + sz);
    check_dot(a(st::slice(st::none, st::none, -1)), b, arev, xb, "a[::-1] . b" + sz);
    if (n > 0) {
      // b[0] broadcast to n elements: a stride-0 operand.
      const std::vector<double> b0(static_cast<std::size_t>(n), xb[0]);
      const auto bc = st::broadcast_to(b(st::slice(0, 1)), {n});
      check_dot(a, bc, xa, b0, "a . broadcast(b[0])" + sz);
      check_norm_full(bc, b0, "broadcast(b[0])" + sz);
    }
  }
}

/// Norms of rank-2 arrays: full and along each axis; sizes 0, 1, 7 x 1009
/// and above the threading threshold; a strided-and-reversed view and row /
/// column broadcasts.
template <class T, class P>
void along_rank2() {
  const shape_v shapes[] = {{0, 7}, {7, 0}, {1, 1}, {7, 1009}, {2, dot_norm_wide + 5}};
  unsigned seed = 300;
  for (const shape_v& s : shapes) {
    const auto d = make_data<T>(count_of(s), seed++);
    const auto m = make_array<T, 2, P>({s[0], s[1]}, d);
    const auto x = to_doubles(d);
    const std::string sz = "(" + std::to_string(s[0]) + ", " + std::to_string(s[1]) + ")";
    check_norm_full(m, x, "m " + sz);
    check_norm_axes(m, x, s, "m " + sz);
    // m[::2, ::-1]
    const shape_v vs{(s[0] + 1) / 2, s[1]};
    const auto vx = strided_ref(x, s, {0, s[1] - 1}, {2, -1}, vs);
    const auto v = m(st::slice(st::none, st::none, 2), st::slice(st::none, st::none, -1));
    check_norm_full(v, vx, "m[::2, ::-1] of " + sz);
    check_norm_axes(v, vx, vs, "m[::2, ::-1] of " + sz);
  }
  // Broadcasts: a row over 5 rows (stride 0 along axis 0), a column over 1009 columns.
  const std::int64_t rows = 5, cols = 1009;
  const auto dr = make_data<T>(static_cast<std::size_t>(cols), 401u);
  const auto dc = make_data<T>(static_cast<std::size_t>(rows), 402u);
  const auto row = make_array<T, 1, P>({cols}, dr);
  const auto col = make_array<T, 2, P>({rows, 1}, dc);
  std::vector<double> xr, xc;
  for (std::int64_t i = 0; i < rows; ++i)
    for (std::int64_t j = 0; j < cols; ++j) {
      xr.push_back(to_double(dr[static_cast<std::size_t>(j)]));
      xc.push_back(to_double(dc[static_cast<std::size_t>(i)]));
    }
  const auto br = st::broadcast_to(row, {rows, cols});
  const auto bcol = st::broadcast_to(col, {rows, cols});
  check_norm_full(br, xr, "row broadcast");
  check_norm_axes(br, xr, {rows, cols}, "row broadcast");
  check_norm_axes(bcol, xc, {rows, cols}, "column broadcast");
}

/// Norms of rank-3 arrays along each axis and a pair: sizes 0, 1, 3 x 7 x 5
/// and above the threading threshold, and a strided-and-reversed view.
template <class T, class P>
void along_rank3() {
  const shape_v shapes[] = {{3, 0, 5}, {1, 1, 1}, {3, 7, 5}, {3, 5, 4373}};
  unsigned seed = 500;
  for (const shape_v& s : shapes) {
    const auto d = make_data<T>(count_of(s), seed++);
    const auto x3 = make_array<T, 3, P>({s[0], s[1], s[2]}, d);
    const auto x = to_doubles(d);
    const std::string sz = "(" + std::to_string(s[0]) + ", " + std::to_string(s[1]) + ", " + std::to_string(s[2]) + ")";
    check_norm_full(x3, x, "x " + sz);
    check_norm_axes(x3, x, s, "x " + sz);
    // x[::-1, :, ::2]
    const shape_v vs{s[0], s[1], (s[2] + 1) / 2};
    const auto vx = strided_ref(x, s, {s[0] - 1, 0, 0}, {-1, 1, 2}, vs);
    const auto v = x3(st::slice(st::none, st::none, -1), st::all, st::slice(st::none, st::none, 2));
    check_norm_axes(v, vx, vs, "x[::-1, :, ::2] of " + sz);
  }
}

template <class T, class P>
void all_for() {
  full_1d<T, P>();
  along_rank2<T, P>();
  along_rank3<T, P>();
}

}  // namespace

TEST_CASE_TEMPLATE("dot and norm: float", P, SINTER_TEST_REDUCE_POLICIES) { all_for<float, P>(); }
TEST_CASE_TEMPLATE("dot and norm: double", P, SINTER_TEST_REDUCE_POLICIES) { all_for<double, P>(); }
TEST_CASE_TEMPLATE("dot and norm: int32", P, SINTER_TEST_REDUCE_POLICIES) { all_for<std::int32_t, P>(); }
TEST_CASE_TEMPLATE("dot and norm: int64", P, SINTER_TEST_REDUCE_POLICIES) { all_for<std::int64_t, P>(); }
TEST_CASE_TEMPLATE("dot and norm: uint8", P, SINTER_TEST_REDUCE_POLICIES) { all_for<std::uint8_t, P>(); }
TEST_CASE_TEMPLATE("dot and norm: bool", P, SINTER_TEST_REDUCE_POLICIES) { all_for<bool, P>(); }
TEST_CASE_TEMPLATE("dot and norm: half", P, SINTER_TEST_REDUCE_POLICIES) { all_for<st::half, P>(); }

TEST_CASE_TEMPLATE("dot: products do not wrap or round in the element type", P, SINTER_TEST_REDUCE_POLICIES) {
  // uint8: 200 * 200 = 40000 would wrap to 64 in uint8; bool * bool is not
  // even arithmetic. dot forms the products in the 64-bit accumulator.
  const auto a = make_array<std::uint8_t, 1, P>({3}, {200, 255, 1});
  CHECK(st::dot(a, a) == 200u * 200u + 255u * 255u + 1u);
  const auto t = make_array<bool, 1, P>({4}, {true, true, false, true});
  const auto u = make_array<bool, 1, P>({4}, {true, false, false, true});
  CHECK(st::dot(t, u) == 2);
  // half: 300 * 300 = 90000 overflows half (max 65504); formed and summed in
  // float, only the result (2 * 300^2 - 2 * 299^2 = 1198, exact in half) is
  // rounded to half.
  const auto h = make_array<st::half, 1, P>({4}, {st::half(300.f), st::half(300.f), st::half(299.f), st::half(299.f)});
  const auto k = make_array<st::half, 1, P>({4}, {st::half(300.f), st::half(300.f), st::half(-299.f), st::half(-299.f)});
  CHECK(static_cast<float>(st::dot(h, k)) == 1198.f);
  // Mixed types: promote_t (int32 . uint8 -> int64 accumulation).
  const auto i = make_array<std::int32_t, 1, P>({3}, {-1, 2, 3});
  CHECK(st::dot(i, a) == -200 + 510 + 3);
}

TEST_CASE_TEMPLATE("norm along axes: NaN, the default ord, bad arguments, rows normalised", P, SINTER_TEST_REDUCE_POLICIES) {
  const auto m = make_array<float, 2, P>({2, 3}, {3, -4, 0, 1, NAN, -1});
  const auto l2 = st::norm(m, st::axis(1));
  CHECK(l2(0) == 5.f);
  CHECK(std::isnan(l2(1)));
  const auto li = st::norm(m, INFINITY, st::axis(1));
  CHECK(li(0) == 4.f);
  CHECK(std::isnan(li(1)));
  const auto l1 = st::norm(m, 1, st::axis(0));
  CHECK(l1(0) == 4.f);
  CHECK(std::isnan(l1(1)));
  CHECK(l1(2) == 1.f);
  const auto k = st::norm(m, st::axis(0), st::keepdims);
  CHECK(k.shape() == st::extents<2>{1, 3});
  CHECK(k(0, 0) == std::sqrt(10.f));
  CHECK_THROWS_AS((void)st::norm(m, 3, st::axis(0)), st::value_error);
  CHECK_THROWS_AS((void)st::norm(m, -INFINITY, st::axis(0), st::keepdims), st::value_error);
  try {
    (void)st::norm(m, 2, st::axis(2));
    FAIL("norm along axis 2 of a matrix succeeded");
  } catch (const st::value_error& e) {
    CHECK(std::string(e.what()).find("norm") != std::string::npos);
  }
  // x / norm(x, 2, axis(1), keepdims) normalises rows: unit L2 norm each.
  const auto d = make_data<double>(7 * 1009, 77u);
  const auto x = make_array<double, 2, P>({7, 1009}, d);
  const st::array<double, 2, P> unit = x / st::norm(x, 2, st::axis(1), st::keepdims);
  for (std::int64_t i = 0; i < 7; ++i) {
    double s = 0;
    for (std::int64_t j = 0; j < 1009; ++j) s += unit(i, j) * unit(i, j);
    CHECK(std::abs(s - 1.0) <= 1e-12);
  }
}

TEST_CASE_TEMPLATE("norm along axes: one pass, one allocation (the result)", P, SINTER_TEST_REDUCE_POLICIES) {
  const std::int64_t rows = 3, cols = st::detail::par_grain + 11;
  const auto a = make_array<float, 2, P>({rows, cols}, make_data<float>(static_cast<std::size_t>(rows * cols), 88u));
  for (const double ord : {1.0, 2.0, static_cast<double>(INFINITY)}) {
    CAPTURE(ord);
    st::trace_scope t;
    const auto r = st::norm(a * 2.f - 1.f, ord, st::axis(1));
    CHECK(t.passes().size() == 1);
    CHECK(t.allocations() == 1);
    REQUIRE(t.passes().size() == 1);
    CHECK(t.passes()[0].expression.find("norm") == 0);
    CHECK(r.size() == rows);
  }
  {
    st::trace_scope t;
    (void)st::norm(a, 1);
    (void)st::dot(a(0, st::all), a(1, st::all));
    CHECK(t.passes().size() == 2);
    CHECK(t.allocations() == 0);
  }
}

TEST_CASE("norm along axes: par is bitwise the same for any thread count") {
  const int saved = st::get_num_threads();
  const auto d = make_data<float>(5 * 30011, 99u);
  const auto h = make_array<float, 2, st::host>({5, 30011}, d);
  const auto p = make_array<float, 2, st::par>({5, 30011}, d);
  const auto want0 = st::norm(h, 2, st::axis(0));
  const auto want1 = st::norm(h, 1, st::axis(1));
  for (const int threads : {1, 2, 3, 8}) {
    CAPTURE(threads);
    st::set_num_threads(threads);
    const auto got0 = st::norm(p, 2, st::axis(0));
    const auto got1 = st::norm(p, 1, st::axis(1));
    bool same = true;
    for (std::int64_t i = 0; i < got0.size(); ++i) same = same && got0.data()[i] == want0.data()[i];
    for (std::int64_t i = 0; i < got1.size(); ++i) same = same && got1.data()[i] == want1.data()[i];
    CHECK(same);
    CHECK(st::norm(p) == st::norm(h));
  }
  st::set_num_threads(saved);
}
