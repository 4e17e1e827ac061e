// Reductions over the inputs that stress the engine: sizes around the 4096
// tile and the par task boundaries, strided and reversed views, broadcast
// operands, generators, and elementwise expressions — host and par (host only under the sanitizers: support/scale.hpp), against a
// double reference (support/reduce_check.hpp). Strided and broadcast inputs
// on float, double, int32, and (sum, min, max, argmax, mean) on int64,
// uint16, bool, half and bfloat16.
#include <doctest/doctest.h>

#include "support/reduce_check.hpp"
#include "support/scale.hpp"

#include <cmath>
#include <cstdint>
#include <sinter/sinter.hpp>
#include <string>
#include <vector>

namespace st = sinter;
using namespace sinter_test;

namespace {

// Under the sanitizers (host only, support/scale.hpp) the sizes chosen to
// pass par's threading threshold shrink to a few rows over the 4096 tile,
// and the axis-length sweep runs each reduction in one orientation per length.
#if defined(SINTER_TEST_SANITIZED)
constexpr bool reduce_inputs_sampled = true;
#else
constexpr bool reduce_inputs_sampled = false;
#endif

// Every full reduction of a 1-D array of n elements (min/max/arg* need n > 0).
template <class T, class P>
void check_sizes() {
  const std::int64_t sizes[] = {0, 1, 7, 127, 128, 129, 4095, 4096, 4097, 8 * 4096 + 1, 65537, 1000003 / scale};
  for (const std::int64_t n : sizes) {
    for_each_rop([&]<rop O>() {
      if constexpr (O == rop::min || O == rop::max || O == rop::argmin || O == rop::argmax)
        if (n == 0) return;
      const auto d = make_data<T>(static_cast<std::size_t>(n), static_cast<unsigned>(n) + 7u, kind_for(O));
      const auto a = make_array<T, 1, P>({n}, d);
      check_full<O>(a, to_doubles(d), "n=" + std::to_string(n));
    });
  }
}

}  // namespace

TEST_CASE_TEMPLATE("reduce: sizes around tile and task boundaries, float", P, SINTER_TEST_REDUCE_POLICIES) {
  check_sizes<float, P>();
}
TEST_CASE_TEMPLATE("reduce: sizes around tile and task boundaries, double", P, SINTER_TEST_REDUCE_POLICIES) {
  check_sizes<double, P>();
}
TEST_CASE_TEMPLATE("reduce: sizes around tile and task boundaries, int32", P, SINTER_TEST_REDUCE_POLICIES) {
  check_sizes<std::int32_t, P>();
}
TEST_CASE_TEMPLATE("reduce: sizes around tile and task boundaries, half", P, SINTER_TEST_REDUCE_POLICIES) {
  check_sizes<st::half, P>();
}

TEST_CASE_TEMPLATE("reduce: axis lengths around the tile boundary", P, SINTER_TEST_REDUCE_POLICIES) {
  // Reduced lengths 4095..4097 along the contiguous axis and along a strided one.
  int shape_no = 0;
  for (const std::int64_t len : {4095, 4096, 4097}) {
    for (const std::vector<std::int64_t>& s : {std::vector<std::int64_t>{3, len}, std::vector<std::int64_t>{len, 3}}) {
      ++shape_no;
      for_each_rop([&]<rop O>() {
        if (reduce_inputs_sampled && (static_cast<int>(O) + shape_no) % 2 != 0) return;
        const auto d = make_data<float>(count_of(s), 3u + static_cast<unsigned>(len), kind_for(O));
        const auto a = make_array<float, 2, P>({s[0], s[1]}, d);
        check_op<O>(a, to_doubles(d), s, "shape (" + std::to_string(s[0]) + ", " + std::to_string(s[1]) + ")");
      });
    }
  }
}

TEST_CASE_TEMPLATE("reduce: strided and reversed views", P, SINTER_TEST_REDUCE_POLICIES) {
  const std::int64_t n = 2 * 4097 + 1;
  for_each_rop([&]<rop O>() {
    const auto d = make_data<double>(static_cast<std::size_t>(n), 11u, kind_for(O));
    const auto a = make_array<double, 1, P>({n}, d);
    {  // step 2
      const auto v = a(st::slice(st::none, st::none, 2));
      std::vector<double> ref;
      for (std::size_t i = 0; i < d.size(); i += 2) ref.push_back(d[i]);
      check_op<O>(v, ref, {static_cast<std::int64_t>(ref.size())}, "a[::2]");
    }
    {  // step -1
      const auto v = a(st::slice(st::none, st::none, -1));
      std::vector<double> ref(d.rbegin(), d.rend());
      check_op<O>(v, ref, {n}, "a[::-1]");
    }
    // 2-D: every other row, columns reversed.
    const std::vector<std::int64_t> s{9, 301};
    const auto d2 = make_data<float>(count_of(s), 12u, kind_for(O));
    const auto m = make_array<float, 2, P>({9, 301}, d2);
    const auto v = m(st::slice(st::none, st::none, 2), st::slice(st::none, st::none, -1));
    std::vector<double> ref;
    for (std::int64_t i = 0; i < 9; i += 2)
      for (std::int64_t j = 300; j >= 0; --j) ref.push_back(static_cast<double>(d2[static_cast<std::size_t>(i * 301 + j)]));
    check_op<O>(v, ref, {5, 301}, "m[::2, ::-1]");
  });
}

TEST_CASE_TEMPLATE("reduce: broadcast operands", P, SINTER_TEST_REDUCE_POLICIES) {
  // A row broadcast over a matrix, through an expression: (m + row) and (m * col).
  const std::int64_t rows = reduce_inputs_sampled ? 5 : 13, cols = 4097;
  for_each_rop([&]<rop O>() {
    const data_kind k = kind_for(O);
    // prod: ±1/2 data times ±1 keeps products exact; others any data.
    const auto dm = make_data<std::int32_t>(static_cast<std::size_t>(rows * cols), 21u, k);
    const auto dr = make_data<std::int32_t>(static_cast<std::size_t>(cols), 22u, O == rop::prod ? data_kind{} : k);
    const auto m = make_array<std::int32_t, 2, P>({rows, cols}, dm);
    auto row = make_array<std::int32_t, 1, P>({cols}, dr);
    if constexpr (O == rop::prod)
      for (auto& x : row) x = 0;  // m + 0: products of m alone stay exact
    std::vector<double> ref(dm.size());
    for (std::int64_t i = 0; i < rows; ++i)
      for (std::int64_t j = 0; j < cols; ++j) {
        const auto f = static_cast<std::size_t>(i * cols + j);
        ref[f] = static_cast<double>(dm[f]) + static_cast<double>(row.data()[j]);
      }
    check_op<O>(m + row, ref, {rows, cols}, "m + row");
    // A row of a single broadcast over rows (stride 0 along the reduced axis).
    std::vector<double> ref2(dm.size());
    for (std::int64_t i = 0; i < rows; ++i)
      for (std::int64_t j = 0; j < cols; ++j) ref2[static_cast<std::size_t>(i * cols + j)] = static_cast<double>(row.data()[j]);
    check_op<O>(row + st::zeros<std::int32_t>({rows, cols}, P{}), ref2, {rows, cols}, "row broadcast over zeros");
  });
}

TEST_CASE("reduce: generators") {
  const std::int64_t n = 100003 / scale;
  for_each_rop([&]<rop O>() {
    if constexpr (O != rop::prod) {
      std::vector<double> ref(static_cast<std::size_t>(n));
      for (std::int64_t i = 0; i < n; ++i) ref[static_cast<std::size_t>(i)] = static_cast<double>(i);
      check_op<O>(st::arange<std::int64_t>(n), ref, {n}, "arange<int64>(n)");
      check_op<O>(st::arange<double>(0, static_cast<double>(n), 1), ref, {n}, "arange<double>(0, n)");
    }
  });
  CHECK(st::sum(st::arange<std::int64_t>(n)) == n * (n - 1) / 2);
  CHECK(st::sum(st::linspace<double>(0, 1, 5)) == doctest::Approx(2.5));
}

TEST_CASE_TEMPLATE("reduce: reductions of expressions", P, SINTER_TEST_REDUCE_POLICIES) {
  const std::int64_t n = reduce_inputs_sampled ? 8209 : 100003;
  const auto da = make_data<float>(static_cast<std::size_t>(n), 31u), db = make_data<float>(static_cast<std::size_t>(n), 32u);
  const auto a = make_array<float, 1, P>({n}, da), b = make_array<float, 1, P>({n}, db);
  std::vector<double> ref(static_cast<std::size_t>(n));
  // The elements are computed in float; the reference sums them in double.
  for (std::size_t i = 0; i < ref.size(); ++i) ref[i] = static_cast<double>(std::exp(da[i] + db[i]) * 2.f);
  const float s = st::sum(st::exp(a + b) * 2);
  double sa = 0, r = 0;
  for (double x : ref) {
    sa += std::abs(x);
    r += x;
  }
  CHECK(std::abs(static_cast<double>(s) - r) <= 1e-5 * sa);
  for_each_rop([&]<rop O>() {
    if constexpr (O != rop::prod) check_op<O>(st::exp(a + b) * 2, ref, {n}, "exp(a + b) * 2");
  });
  // A 2-D expression along each axis.
  const std::int64_t mr = reduce_inputs_sampled ? 13 : 101;
  const auto m = make_array<float, 2, P>({mr, 990}, make_data<float>(static_cast<std::size_t>(mr * 990), 33u));
  std::vector<double> ref2(static_cast<std::size_t>(mr * 990));
  for (std::size_t i = 0; i < ref2.size(); ++i) ref2[i] = static_cast<double>(m.data()[i] * m.data()[i] - 0.25f);
  check_op<rop::sum>(m * m - 0.25f, ref2, {mr, 990}, "m * m - 0.25");
  check_op<rop::argmax>(m * m - 0.25f, ref2, {mr, 990}, "m * m - 0.25");
  check_op<rop::var>(m * m - 0.25f, ref2, {mr, 990}, "m * m - 0.25");
}

// ---- strided and broadcast inputs of more element types ----------------------

namespace {

/// Strided, reversed and broadcast operands of element type T for reduction
/// O: a[::2] and a[::-1] (1-D, across tiles), m[::2, ::-1] (2-D, along each
/// axis), a row broadcast over rows as a stride-0 view, and through an
/// expression with a matrix (m + row; bool: m != row, as bool has no
/// arithmetic) of more than 2 * par_grain elements, for par's parallel paths.
template <class T, class P, rop O>
void strided_and_broadcast() {
  const data_kind k = kind_for(O);
  const unsigned seed = 40u + 3u * static_cast<unsigned>(O);
  {
    const std::int64_t n = 2 * 4097 + 1;
    const auto d = make_data<T>(static_cast<std::size_t>(n), seed, k);
    const auto a = make_array<T, 1, P>({n}, d);
    const auto x = to_doubles(d);
    std::vector<double> ref;
    for (std::size_t i = 0; i < x.size(); i += 2) ref.push_back(x[i]);
    check_op<O>(a(st::slice(st::none, st::none, 2)), ref, {static_cast<std::int64_t>(ref.size())}, "a[::2]");
    check_op<O>(a(st::slice(st::none, st::none, -1)), std::vector<double>(x.rbegin(), x.rend()), {n}, "a[::-1]");
  }
  {
    const std::vector<std::int64_t> s{9, 301};
    const auto d = make_data<T>(count_of(s), seed + 1, k);
    const auto m = make_array<T, 2, P>({9, 301}, d);
    std::vector<double> ref;
    for (std::size_t i = 0; i < 9; i += 2)
      for (std::size_t j = 301; j-- > 0;) ref.push_back(to_double(d[i * 301 + j]));
    check_op<O>(m(st::slice(st::none, st::none, 2), st::slice(st::none, st::none, -1)), ref, {5, 301},
                "m[::2, ::-1]");
  }
  {
    const std::int64_t rows = reduce_inputs_sampled ? 5 : 17, cols = 4097;  // 17: 69649 > 2 * par_grain elements
    const auto dm = make_data<T>(static_cast<std::size_t>(rows * cols), seed + 2, k);
    const auto dr = make_data<T>(static_cast<std::size_t>(cols), seed + 3, k);
    const auto m = make_array<T, 2, P>({rows, cols}, dm);
    const auto row = make_array<T, 1, P>({cols}, dr);
    std::vector<double> ref_row, ref_expr;
    for (std::int64_t i = 0; i < rows; ++i)
      for (std::int64_t j = 0; j < cols; ++j) {
        const double mv = to_double(dm[static_cast<std::size_t>(i * cols + j)]);
        const double rv = to_double(dr[static_cast<std::size_t>(j)]);
        ref_row.push_back(rv);
        // Exact in T: integers well inside their range, 16-bit floats on a 1/64 grid in [-2, 2].
        ref_expr.push_back(std::is_same_v<T, bool> ? (mv != rv ? 1.0 : 0.0) : mv + rv);
      }
    check_op<O>(st::broadcast_to(row, {rows, cols}), ref_row, {rows, cols}, "broadcast_to(row)");
    if constexpr (std::is_same_v<T, bool>) check_op<O>(m != row, ref_expr, {rows, cols}, "m != row");
    else check_op<O>(m + row, ref_expr, {rows, cols}, "m + row");
  }
}

template <class T, class P>
void strided_and_broadcast_ops() {
  strided_and_broadcast<T, P, rop::sum>();
  strided_and_broadcast<T, P, rop::min>();
  strided_and_broadcast<T, P, rop::max>();
  strided_and_broadcast<T, P, rop::argmax>();
  strided_and_broadcast<T, P, rop::mean>();
}

}  // namespace

TEST_CASE_TEMPLATE("reduce: strided and broadcast inputs, int64", P, SINTER_TEST_REDUCE_POLICIES) {
  strided_and_broadcast_ops<std::int64_t, P>();
}
TEST_CASE_TEMPLATE("reduce: strided and broadcast inputs, uint16", P, SINTER_TEST_REDUCE_POLICIES) {
  strided_and_broadcast_ops<std::uint16_t, P>();
}
TEST_CASE_TEMPLATE("reduce: strided and broadcast inputs, bool", P, SINTER_TEST_REDUCE_POLICIES) {
  strided_and_broadcast_ops<bool, P>();
}
TEST_CASE_TEMPLATE("reduce: strided and broadcast inputs, half", P, SINTER_TEST_REDUCE_POLICIES) {
  strided_and_broadcast_ops<st::half, P>();
}
TEST_CASE_TEMPLATE("reduce: strided and broadcast inputs, bfloat16", P, SINTER_TEST_REDUCE_POLICIES) {
  strided_and_broadcast_ops<st::bfloat16, P>();
}
