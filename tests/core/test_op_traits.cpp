// The op table's traits (core/op_traits.hpp) against the passes that read
// them. In the plain suite: every op's traits are consistent, and the
// shared- and repeated-subexpression logic and the reductions' plain lanes
// decide by them. Included by tests/fma/test_host_simd_v3.cpp and _v4.cpp
// (AVX2 + FMA, AVX-512: SINTER_HOST_SIMD) as well: there every op whose
// traits declare a vector form must take the explicit vector loop
// (policy/host/simd.hpp), checked at compile time on its pass's cursor and at
// run time through the trace, with values against double references on
// random data at odd sizes.
#include <doctest/doctest.h>

#include <cmath>
#include <cstddef>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>
#include <sinter/sinter.hpp>
#include <vector>

#include "support/random.hpp"

namespace op_traits_test {

namespace st = sinter;
namespace sd = sinter::detail;
namespace ops = sinter::detail::ops;
using sd::op_cost;
using sd::op_traits;
using sd::vector_form;

template <class... F>
struct op_list {};

/// A user functor for sinter::map (user_fn's defaults).
struct user_twice {
  float operator()(float x) const { return 2.0f * x; }
};

// Every functor of core/ops.hpp, in its order there (66: each one is a
// SINTER_OP_NAME there). A new op goes here too; the lane-kernel rows are
// checked to be here below.
using op_table = op_list<
    ops::add, ops::sub, ops::mul, ops::div, ops::mod, ops::fmod, ops::neg, ops::abs, ops::square, ops::sign,
    ops::minimum, ops::maximum, ops::clip, ops::fma, ops::pow, ops::floor, ops::ceil, ops::trunc, ops::round,
    ops::cbrt, ops::rsqrt, ops::sin, ops::cos, ops::tan, ops::asin, ops::acos, ops::atan, ops::sqrt, ops::exp,
    ops::tanh, ops::exp2, ops::expm1, ops::log, ops::log2, ops::log10, ops::log1p, ops::sinh, ops::cosh,
    ops::asinh, ops::acosh, ops::atanh, ops::erf, ops::erfc, ops::atan2, ops::hypot, ops::eq, ops::ne, ops::lt,
    ops::le, ops::gt, ops::ge, ops::isnan, ops::isinf, ops::isfinite, ops::logical_and, ops::logical_or,
    ops::logical_not, ops::bit_and, ops::bit_or, ops::bit_xor, ops::bit_not, ops::shl, ops::shr, ops::where,
    ops::cast_to<float>, ops::user_fn<user_twice>>;

template <class F, class L>
struct count_in;
template <class F, class... G>
struct count_in<F, op_list<G...>> {
  static constexpr int value = (0 + ... + (std::is_same_v<F, G> ? 1 : 0));
};

// The ops of SINTER_DETAIL_LANE_KERNEL_OPS (core/ops.hpp): each in the table
// once, and no other op declares a lane kernel (checked per op below).
#define OP_TRAITS_TEST_ROW(op, fk, fl, dk, pairs)                   \
  static_assert(count_in<ops::op, op_table>::value == 1,              \
                "test_op_traits: a lane-kernel row missing from op_table");
SINTER_DETAIL_LANE_KERNEL_OPS(OP_TRAITS_TEST_ROW)
#undef OP_TRAITS_TEST_ROW
#define OP_TRAITS_TEST_ROW(op, fk, fl, dk, pairs) || std::is_same_v<F, ops::op>
template <class F>
constexpr bool in_rows_v = false SINTER_DETAIL_LANE_KERNEL_OPS(OP_TRAITS_TEST_ROW);
#undef OP_TRAITS_TEST_ROW

// How many operands F::apply takes (0: no static apply: where, cast, map).
template <class F>
constexpr int arity_v = [] {
  if constexpr (requires { F::apply(1.0f); }) return 1;
  else if constexpr (requires { F::apply(1.0f, 1.0f); }) return 2;
  else if constexpr (requires { F::apply(1.0f, 1.0f, 1.0f); }) return 3;
  else return 0;
}();

template <class T, std::size_t>
using same_t = T;

// A leaf of an element type F takes: int for bitwise ops, else float.
template <class F>
using leaf_t = sd::memory_leaf<const std::conditional_t<op_traits<F>::category == sd::op_category::bitwise, int, float>,
                               1, false>;
template <class F>
using inner_t = sd::map_node<ops::neg, leaf_t<F>>;  // an interior node, for twins
template <class F, std::size_t... I>
auto node_of(std::index_sequence<I...>) -> sd::map_node<F, same_t<leaf_t<F>, I>...>;
template <class F>
using node_t = decltype(node_of<F>(std::make_index_sequence<arity_v<F>>{}));

// The contiguous cursor a pass over expression E evaluates.
template <class E>
using cursor_t = decltype(std::declval<const E&>().node().bind(std::declval<const E&>().shape()).linear());

// The traits of one op, and what the readers make of them.
template <class F>
constexpr bool consistent() {
  using tr = op_traits<F>;
  constexpr bool maths_ok = (tr::cost == op_cost::maths) ==
                            (tr::category == sd::op_category::floating || std::is_same_v<F, ops::pow>);
  constexpr bool vector_ok = tr::vector == vector_form::none || tr::category == sd::op_category::arith ||
                             tr::category == sd::op_category::floating;
  constexpr bool kernel_ok = (tr::vector == vector_form::lane_kernel) == in_rows_v<F>;
  constexpr bool pairs_ok = !tr::vector_pairs || tr::vector != vector_form::none;
  constexpr bool plain_ok = tr::cost != op_cost::plain || tr::category == sd::op_category::arith;
  static_assert(maths_ok, "test_op_traits: cost maths is the floating category (and pow)");
  static_assert(vector_ok, "test_op_traits: a vector form computes in its operands' type");
  static_assert(kernel_ok, "test_op_traits: a lane kernel needs a row in SINTER_DETAIL_LANE_KERNEL_OPS");
  static_assert(pairs_ok, "test_op_traits: pairs without a vector form");
  static_assert(plain_ok, "test_op_traits: only arithmetic is plain");
  if constexpr (arity_v<F> > 0) {
    using N = node_t<F>;
    // A repeat of a maths op is computed once (core/shared_nodes.hpp).
    static_assert(sd::has_shared_v<sd::map_node<ops::add, N, N>> == (tr::cost == op_cost::maths));
#if SINTER_DETAIL_VEC_LANES
    // A reduction keeps its lanes in registers over plain ops only (GCC).
    using C = decltype(std::declval<const N&>().linear());
    static_assert(sd::reduce_host::plain_cursor_v<C> == (tr::cost == op_cost::plain));
#endif
    // Two equal interior children of a twin-pair op are merged.
    if constexpr (arity_v<F> == 2)
      static_assert(sd::has_twins_v<sd::map_node<F, inner_t<F>, inner_t<F>>> == tr::twin_pair);
  }
  return true;
}
template <class... F>
constexpr bool all_consistent(op_list<F...>) {
  return (true && ... && (consistent<F>() && count_in<F, op_table>::value == 1));
}
static_assert(all_consistent(op_table{}));

// The defaults: no traits declared (cast, map) gives cheap, no vector form.
static_assert(op_traits<ops::cast_to<double>>::cost == op_cost::cheap);
static_assert(op_traits<ops::cast_to<double>>::vector == vector_form::none);
static_assert(op_traits<ops::user_fn<user_twice>>::category == sd::op_category::user);
static_assert(op_traits<ops::user_fn<user_twice>>::vector == vector_form::none);
static_assert(op_traits<sd::twin_fn<ops::mul>>::cost == op_cost::plain);

TEST_CASE("op traits: the op table's traits, as declared") {
  // Spot values (the static checks above hold for every op).
  CHECK(op_traits<ops::exp>::vector == vector_form::lane_kernel);
  CHECK(op_traits<ops::exp>::vector_pairs);
  CHECK(!op_traits<ops::log>::vector_pairs);
  CHECK(op_traits<ops::sqrt>::vector == vector_form::sqrt_instruction);
  CHECK(op_traits<ops::abs>::vector == vector_form::clear_sign);
  CHECK(op_traits<ops::add>::vector == vector_form::apply);
  CHECK(op_traits<ops::fma>::vector == vector_form::none);
  CHECK(op_traits<ops::fma>::cost == op_cost::plain);
  CHECK(op_traits<ops::pow>::cost == op_cost::maths);
  CHECK(op_traits<ops::sin>::vector == vector_form::none);
  CHECK(op_traits<ops::mul>::twin_pair);
  CHECK(!op_traits<ops::add>::twin_pair);
}

#if SINTER_HOST_SIMD
// ---- every op with a vector form takes the explicit vector loop --------------

// Whether F is a call in GCC's loop (what the explicit loop is for).
template <class F>
constexpr bool call_v = op_traits<F>::vector == vector_form::sqrt_instruction ||
                        op_traits<F>::vector == vector_form::lane_kernel;

// The expression of a pass through F on vectors of T: F(x) for a call; with
// a call beside it otherwise (F(x) + sqrt(y) or F(x, sqrt(y))), since a tree
// without one keeps GCC's loop.
template <class F, class V>
auto expression(const V& x, const V& y) {
  if constexpr (call_v<F>) return sd::make_map(F::name, F{}, x);
  else if constexpr (arity_v<F> == 1) return sd::make_map(F::name, F{}, x) + st::sqrt(y);
  else return sd::make_map(F::name, F{}, x, st::sqrt(y));
}

template <class F, class T>
constexpr bool takes_loop_v = sd::simd::applies_v<T, cursor_t<decltype(expression<F>(
                                                         std::declval<const st::view<const T, 1>&>(),
                                                         std::declval<const st::view<const T, 1>&>()))>>;

template <class F, class T>
constexpr bool pairs_v = sd::simd::eval<cursor_t<decltype(expression<F>(std::declval<const st::view<const T, 1>&>(),
                                                                       std::declval<const st::view<const T, 1>&>()))>,
                                        T>::pairs;

// At compile time: the selector accepts F's pass exactly where F has a
// vector form (for every op with a static apply of one or two operands that
// takes floating values: all but the bitwise ones), float and double.
template <class F>
constexpr bool selector_agrees() {
  if constexpr ((arity_v<F> == 1 || arity_v<F> == 2) && op_traits<F>::category != sd::op_category::bitwise) {
    constexpr bool has = op_traits<F>::vector != vector_form::none;
    static_assert(takes_loop_v<F, float> == has, "test_op_traits: float pass and vector form disagree");
    static_assert(takes_loop_v<F, double> == has, "test_op_traits: double pass and vector form disagree");
    // On AVX-512, it steps by pairs of vectors where its traits say so.
    if constexpr (has && sd::simd::pair_steps) {
      static_assert(pairs_v<F, float> == op_traits<F>::vector_pairs, "test_op_traits: float pairs disagree");
      static_assert(pairs_v<F, double> == op_traits<F>::vector_pairs, "test_op_traits: double pairs disagree");
    }
  }
  return true;
}
template <class... F>
constexpr bool selector_agrees_all(op_list<F...>) {
  return (true && ... && selector_agrees<F>());
}
static_assert(selector_agrees_all(op_table{}));

// The double reference of an op, by its name (NaN: no reference).
inline double reference(const std::string& name, double a, double b) {
  if (name == "add") return a + b;
  if (name == "subtract") return a - b;
  if (name == "multiply") return a * b;
  if (name == "divide") return a / b;
  if (name == "negative") return -a;
  if (name == "abs") return std::fabs(a);
  if (name == "square") return a * a;
  if (name == "minimum") return (a != a || b != b) ? a + b : (a < b ? a : b);
  if (name == "maximum") return (a != a || b != b) ? a + b : (a > b ? a : b);
  if (name == "sqrt") return std::sqrt(a);
  if (name == "exp") return std::exp(a);
  if (name == "tanh") return std::tanh(a);
  if (name == "exp2") return std::exp2(a);
  if (name == "expm1") return std::expm1(a);
  if (name == "log") return std::log(a);
  if (name == "log2") return std::log2(a);
  if (name == "log10") return std::log10(a);
  if (name == "log1p") return std::log1p(a);
  if (name == "sinh") return std::sinh(a);
  if (name == "cosh") return std::cosh(a);
  if (name == "asinh") return std::asinh(a);
  if (name == "acosh") return std::acosh(a);
  if (name == "atanh") return std::atanh(a);
  if (name == "erf") return std::erf(a);
  if (name == "erfc") return std::erfc(a);
  FAIL("test_op_traits: no reference for op ", name);
  return 0;
}

// Random values of x over the functions' domains and beyond, with specials.
template <class T>
std::vector<T> x_values(std::size_t n, unsigned seed) {
  std::vector<T> v = sinter_test::random_vector<T>(n, seed, T(-4), T(4));
  const std::vector<T> wide = sinter_test::random_vector<T>(n, seed + 7, T(-80), T(80));
  const std::vector<T> unit = sinter_test::random_vector<T>(n, seed + 9, T(-1), T(1));
  for (std::size_t i = 0; i < n; ++i) v[i] = i % 4 == 1 ? wide[i] : (i % 4 == 2 ? unit[i] : v[i]);
  using L = std::numeric_limits<T>;
  const T sp[] = {T(0), -T(0), T(1), L::infinity(), -L::infinity(), L::quiet_NaN(), L::denorm_min()};
  for (std::size_t i = 0; i < std::size(sp) && 3 * i < n; ++i) v[3 * i] = sp[i];
  return v;
}

// One pass of F over n elements of T: one contiguous pass whose cursor the
// explicit loop takes, and values within a few units in the last place of
// the double reference.
template <class F, class T>
void check_pass(std::size_t n, unsigned seed) {
  const std::vector<T> xs = x_values<T>(n, seed);
  const std::vector<T> ys = sinter_test::random_vector<T>(n, seed + 1, T(0), T(9));
  const auto len = static_cast<st::index_t>(n);
  const st::view<const T, 1> x(xs.data(), {len}), y(ys.data(), {len});
  st::array<T, 1> out({len});
  auto e = expression<F>(x, y);
  static_assert(sd::simd::applies_v<T, cursor_t<decltype(e)>>);
  std::vector<st::pass_record> passes;
  {
    st::trace_scope t;
    out = e;
    passes = t.passes();
  }
  REQUIRE(passes.size() == 1);
  CHECK_MESSAGE(passes[0].detail == "contiguous", passes[0].detail);
  const std::string name = F::name;
  const double eps = std::numeric_limits<T>::epsilon();
  int bad = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double a = xs[i], s = std::sqrt(static_cast<double>(ys[i]));
    double ref, scale;
    if constexpr (call_v<F>) {
      ref = reference(name, a, 0.0), scale = std::fabs(ref);
    } else if constexpr (arity_v<F> == 1) {
      const double fa = reference(name, a, 0.0);
      ref = fa + s, scale = std::fabs(fa) + s + std::fabs(ref);
    } else {
      ref = reference(name, a, s), scale = std::fabs(a) + s + std::fabs(ref);
    }
    // Float's and double's smallest normal as the floor: the kernels flush
    // nothing, but a reference rounded to T may be subnormal.
    const double tol = 8 * eps * scale + static_cast<double>(std::numeric_limits<T>::min());
    const double got = out.data()[i];
    const bool ok = (ref != ref) ? got != got : (got == ref || std::fabs(got - ref) <= tol);
    if (!ok && ++bad <= 3)
      FAIL_CHECK(name, " of ", std::string(sizeof(T) == 4 ? "float" : "double"), " n=", n, " i=", i, ": x=", a,
                 " got ", got, " want ", ref);
  }
  CHECK(bad == 0);
}

template <class F>
void check_op() {
  if constexpr ((arity_v<F> == 1 || arity_v<F> == 2) && op_traits<F>::vector != vector_form::none) {
    CAPTURE(F::name);
    unsigned seed = 11;
    for (std::size_t n : {std::size_t{1}, std::size_t{7}, std::size_t{13}, std::size_t{61}, std::size_t{1031}}) {
      check_pass<F, float>(n, seed++);
      check_pass<F, double>(n, seed++);
    }
  }
}
template <class... F>
void check_all(op_list<F...>) {
  (check_op<F>(), ...);
}

TEST_CASE("op traits: every op with a vector form takes the explicit vector loop, with its values") {
  check_all(op_table{});
}
#endif

}  // namespace op_traits_test
