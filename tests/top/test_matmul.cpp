// sinter::matmul and the rest of linalg.hpp (dot for 2-D, vdot, outer,
// tensordot, matmul_into, matmul_epilogue) against a double-precision
// triple loop on random data: sizes 0, 1, primes, 257x129 . 129x63, 1-D
// operands, batches with broadcast batch axes, transposed, strided and
// reversed operands, float and double, host and par on 1, 2 and 3 threads,
// the fused epilogue against the unfused form, aliasing, and every error.
// Its own binary linked to sinter::blas (tests/CMakeLists.txt).
#include <doctest/doctest.h>

#include <cmath>
#include <sinter/linalg.hpp>
#include <sinter/sinter.hpp>
#include <sinter/trace.hpp>
#include <vector>

#include "support/random_array.hpp"

namespace test_matmul {

namespace st = sinter;
using st::index_t;

using sinter_test::random_array;  // values in [-1, 1)

/// Element at a multi-index of strided memory (run-time rank).
template <class T>
double at(const T* p, const std::vector<index_t>& strides, const std::vector<index_t>& idx) {
  index_t off = 0;
  for (std::size_t i = 0; i < idx.size(); ++i) off += idx[i] * strides[i];
  return static_cast<double>(p[off]);
}

template <class X>
std::vector<index_t> vec(const X& e) {
  return std::vector<index_t>(e.begin(), e.end());
}

/// numpy.matmul in double: operands given as memory, shape, strides.
struct ref_operand {
  std::vector<double> v;  // row-major copy
  std::vector<index_t> shape;
};
template <class V>
ref_operand ref_of(const V& x) {
  ref_operand r{{}, vec(x.shape())};
  const auto strides = vec(x.strides());
  std::vector<index_t> idx(r.shape.size(), 0);
  index_t n = 1;
  for (index_t e : r.shape) n *= e;
  for (index_t j = 0; j < n; ++j) {
    r.v.push_back(at(x.data(), strides, idx));
    for (std::size_t i = idx.size(); i-- > 0;) {
      if (++idx[i] < r.shape[i]) break;
      idx[i] = 0;
    }
  }
  return r;
}
/// Row-major result of matmul(a, b) in double, and its shape.
std::pair<std::vector<double>, std::vector<index_t>> ref_matmul(ref_operand a, ref_operand b) {
  const bool a1 = a.shape.size() == 1, b1 = b.shape.size() == 1;
  if (a1) a.shape.insert(a.shape.begin(), 1);
  if (b1) b.shape.push_back(1);
  const std::size_t ra = a.shape.size(), rb = b.shape.size(), nb = std::max(ra, rb) - 2;
  const index_t m = a.shape[ra - 2], k = a.shape[ra - 1], n = b.shape[rb - 1];
  std::vector<index_t> batch(nb), out_shape;
  index_t batches = 1;
  for (std::size_t i = 0; i < nb; ++i) {
    const index_t ea = i + ra - 2 >= nb ? a.shape[i + ra - 2 - nb] : 1;
    const index_t eb = i + rb - 2 >= nb ? b.shape[i + rb - 2 - nb] : 1;
    batch[i] = ea == 1 ? eb : ea;
    batches *= batch[i];
  }
  std::vector<double> out;
  std::vector<index_t> idx(nb, 0);
  for (index_t c = 0; c < batches; ++c) {
    index_t oa = 0, ob = 0, sa = m * k, sb = k * n;
    for (std::size_t i = nb; i-- > 0;) {
      const index_t ea = i + ra - 2 >= nb ? a.shape[i + ra - 2 - nb] : 1;
      const index_t eb = i + rb - 2 >= nb ? b.shape[i + rb - 2 - nb] : 1;
      oa += (ea == 1 ? 0 : idx[i]) * sa;
      ob += (eb == 1 ? 0 : idx[i]) * sb;
      sa *= ea;
      sb *= eb;
    }
    for (index_t i = 0; i < m; ++i)
      for (index_t j = 0; j < n; ++j) {
        double s = 0;
        for (index_t q = 0; q < k; ++q)
          s += a.v[static_cast<std::size_t>(oa + i * k + q)] * b.v[static_cast<std::size_t>(ob + q * n + j)];
        out.push_back(s);
      }
    for (std::size_t i = nb; i-- > 0;) {
      if (++idx[i] < batch[i]) break;
      idx[i] = 0;
    }
  }
  out_shape = batch;
  if (!a1) out_shape.push_back(m);
  if (!b1) out_shape.push_back(n);
  return {out, out_shape};
}

/// float: sums of k products of values in [-1, 1] in float; double: tight.
template <class T>
double tolerance(index_t k) {
  return (std::is_same_v<T, float> ? 1e-5 : 1e-13) * static_cast<double>(k + 4);
}

template <class T, class R>
void check_against(const R& got, const ref_operand& a, const ref_operand& b) {
  const auto [want, shape] = ref_matmul(a, b);
  REQUIRE(vec(got.shape()) == shape);
  const auto g = ref_of(got);
  const index_t k = a.shape.back();
  for (std::size_t i = 0; i < want.size(); ++i) REQUIRE(std::abs(g.v[i] - want[i]) <= tolerance<T>(k));
}

template <class T, class A, class B>
void check_pair(const A& a, const B& b) {
  const auto got = st::matmul(a, b);
  check_against<T>(got, ref_of(a), ref_of(b));
}

}  // namespace test_matmul

TEST_CASE_TEMPLATE("matmul: 2-D against a double triple loop, sizes 0, 1, primes", T, float, double) {
  using namespace test_matmul;
  const index_t sizes[][3] = {{0, 3, 4}, {3, 0, 4}, {3, 4, 0}, {1, 1, 1}, {1, 7, 1}, {2, 3, 5},
                              {7, 11, 13}, {31, 1, 17}, {257, 129, 63}};
  unsigned seed = 1;
  for (const auto& s : sizes) {
    CAPTURE(s[0]);
    CAPTURE(s[1]);
    CAPTURE(s[2]);
    const auto a = random_array<T, 2>({s[0], s[1]}, seed++);
    const auto b = random_array<T, 2>({s[1], s[2]}, seed++);
    check_pair<T>(a, b);
  }
}

TEST_CASE_TEMPLATE("matmul: 1-D operands as NumPy", T, float, double) {
  using namespace test_matmul;
  const auto v = random_array<T, 1>({13}, 3), w = random_array<T, 1>({13}, 4);
  const auto m = random_array<T, 2>({13, 5}, 5), mt = random_array<T, 2>({6, 13}, 6);
  check_pair<T>(v, m);   // (13) @ (13, 5) -> (5)
  check_pair<T>(mt, v);  // (6, 13) @ (13) -> (6)
  const T s = st::matmul(v, w);
  double want = 0;
  for (index_t i = 0; i < 13; ++i) want += double(v.data()[i]) * double(w.data()[i]);
  CHECK(std::abs(double(s) - want) <= tolerance<T>(13));
  const auto b3 = random_array<T, 3>({4, 13, 3}, 7);
  check_pair<T>(v, b3);  // (13) @ (4, 13, 3) -> (4, 3)
}

TEST_CASE_TEMPLATE("matmul: batches with broadcast batch axes", T, float, double) {
  using namespace test_matmul;
  check_pair<T>(random_array<T, 3>({5, 7, 3}, 10), random_array<T, 3>({5, 3, 4}, 11));
  check_pair<T>(random_array<T, 3>({1, 7, 3}, 12), random_array<T, 3>({5, 3, 4}, 13));
  check_pair<T>(random_array<T, 4>({2, 1, 7, 3}, 14), random_array<T, 3>({3, 3, 4}, 15));
  check_pair<T>(random_array<T, 2>({7, 3}, 16), random_array<T, 4>({2, 3, 3, 4}, 17));
  check_pair<T>(random_array<T, 3>({0, 7, 3}, 18), random_array<T, 3>({1, 3, 4}, 19));
}

TEST_CASE_TEMPLATE("matmul: transposed, strided, reversed and lazy operands", T, float, double) {
  using namespace test_matmul;
  const auto a = random_array<T, 2>({29, 37}, 20), b = random_array<T, 2>({37, 23}, 21);
  const auto big = random_array<T, 2>({60, 80}, 22);
  check_pair<T>(st::transpose(b), st::transpose(a));                              // both transposed in place
  check_pair<T>(a(st::slice(0, 29), st::slice(0, 37, 1)), b(st::slice(0, 37), st::slice(0, 23)));
  check_pair<T>(big(st::slice(1, 58, 2), st::slice(3, 40)), big(st::slice(2, 39), st::slice(5, 28)));  // row step 2
  check_pair<T>(big(st::slice(0, 29), st::slice(0, 74, 2)), b);                   // column step 2: copied
  check_pair<T>(a(st::slice(st::end, 0, -1), st::all), b);                        // reversed rows: copied
  const st::array<T, 2> ea = st::exp(a) * T(0.5);
  check_against<T>(st::matmul(st::exp(a) * T(0.5), b), ref_of(ea), ref_of(b));    // lazy: evaluated once
  check_against<T>(st::matmul(st::array<T, 2>(a), b), ref_of(a), ref_of(b));      // rvalue array
  // float @ double promotes to double.
  const auto bd = random_array<double, 2>({37, 23}, 23);
  const auto mixed = st::matmul(a, bd);
  static_assert(std::is_same_v<typename decltype(mixed)::value_type, double>);
}

TEST_CASE("matmul: par on 1, 2 and 3 threads equals host") {
  using namespace test_matmul;
  const auto a = random_array<float, 2>({131, 67}, 30), b = random_array<float, 2>({67, 89}, 31);
  const int before = st::get_num_threads();
  for (int threads : {1, 2, 3}) {
    st::set_num_threads(threads);
    st::array<float, 2, st::par> pa(a), pb(b);
    const auto got = st::matmul(pa, pb);
    check_against<float>(got, ref_of(a), ref_of(b));
  }
  st::set_num_threads(before);
}

TEST_CASE_TEMPLATE("matmul_into: alpha and beta, views, aliasing", T, float, double) {
  using namespace test_matmul;
  const auto a = random_array<T, 2>({17, 19}, 40), b = random_array<T, 2>({19, 11}, 41);
  const auto [p, shape] = ref_matmul(ref_of(a), ref_of(b));
  auto c = random_array<T, 2>({17, 11}, 42);
  const auto c0 = ref_of(c);
  st::matmul_into(c, a, b, T(2), T(-0.5));  // c = 2 a@b - 0.5 c
  for (std::size_t i = 0; i < p.size(); ++i) REQUIRE(std::abs(double(c.data()[i]) - (2 * p[i] - 0.5 * c0.v[i])) <= 3 * tolerance<T>(19));
  // A transposed output (columns contiguous) and a strided one.
  st::array<T, 2> ct({11, 17});
  st::matmul_into(st::transpose(ct), a, b);
  for (index_t i = 0; i < 17; ++i)
    for (index_t j = 0; j < 11; ++j) REQUIRE(std::abs(double(ct(j, i)) - p[std::size_t(i * 11 + j)]) <= tolerance<T>(19));
  st::array<T, 2> wide({17, 33});
  wide = T(7);
  st::matmul_into(wide(st::all, st::slice(0, 33, 3)), a, b);
  for (index_t i = 0; i < 17; ++i)
    for (index_t j = 0; j < 33; ++j)
      REQUIRE(std::abs(double(wide(i, j)) - (j % 3 ? 7.0 : p[std::size_t(i * 11 + j / 3)])) <= tolerance<T>(19));
  // Aliasing: the output is an operand (large enough that BLAS writes C
  // before it has read all of A and B).
  auto sq = random_array<T, 2>({301, 301}, 43);
  const auto sq0 = ref_of(sq);
  const auto [s2, s2shape] = ref_matmul(sq0, sq0);
  st::matmul_into(sq, sq, sq, T(1), T(1));  // sq += sq @ sq
  for (std::size_t i = 0; i < s2.size(); ++i) REQUIRE(std::abs(double(sq.data()[i]) - (s2[i] + sq0.v[i])) <= tolerance<T>(301));
}

TEST_CASE_TEMPLATE("matmul_epilogue: fused relu(x @ w + b) equals the unfused form", T, float, double) {
  using namespace test_matmul;
  // n = 515: blocks of 2036 (float) or 1018 (double) rows (plan.hpp's
  // epilogue_block_bytes), so m = 4099 runs several, the last one partial.
  for (index_t m : {index_t(0), index_t(1), index_t(97), index_t(4099)}) {
    CAPTURE(m);
    const index_t n = 515;
    const auto x = random_array<T, 2>({m, 53}, 50), w = random_array<T, 2>({53, n}, 51);
    const auto bias = random_array<T, 1>({n}, 52);
    const auto resid = random_array<T, 2>({m, n}, 53);
    const st::array<T, 2> want = st::maximum(st::matmul(x, w) + bias, T(0)) + resid;
    st::array<T, 2> got({m, n});
    st::trace_scope t;
    st::matmul_epilogue(got, x, w, [&](auto p, st::slice r) { return st::maximum(p + bias, T(0)) + resid(r, st::all); });
    // The same epilogue on the same products; OpenBLAS may sum a row's
    // products in another order when called on a block of rows, so the
    // values agree within the GEMM's rounding, not bit for bit.
    double worst = 0;
    for (index_t i = 0; i < got.size(); ++i)
      worst = std::max(worst, std::abs(double(got.data()[i]) - double(want.data()[i])));
    REQUIRE(worst <= tolerance<T>(53));
    std::size_t gemms = 0, passes = 0;
    for (const auto& r : t.passes()) {
      gemms += r.expression.find("matmul_epilogue") != std::string::npos;
      passes += r.expression.find("max") != std::string::npos;
    }
    const std::size_t blocks = m == 0 ? 0 : m < 1000 ? 1 : (std::is_same_v<T, float> ? 3 : 5);
    CHECK(gemms == blocks);
    CHECK(passes == blocks);
  }
}

TEST_CASE("matmul_epilogue: the output is an operand (several blocks)") {
  using namespace test_matmul;
  // Blocks of 32 rows: without a temporary, the second block's GEMM would
  // read rows of w that the first block's epilogue wrote.
  st::detail::epilogue_block_bytes_override = 4096;
  auto w = random_array<float, 2>({97, 64}, 81);
  const auto x = random_array<float, 2>({97, 97}, 80);
  const st::array<float, 2> want = st::maximum(st::matmul(x, w), 0.f) + w;
  st::matmul_epilogue(w, x, w, [&](auto p, st::slice r) { return st::maximum(p, 0.f) + w(r, st::all); });
  double worst = 0;
  for (index_t i = 0; i < w.size(); ++i) worst = std::max(worst, std::abs(double(w.data()[i]) - double(want.data()[i])));
  CHECK(worst <= tolerance<float>(97));
  // The output is the first operand: row r of the product reads row r of x only.
  auto y = random_array<float, 2>({97, 97}, 82);
  const st::array<float, 2> want_y = st::matmul(y, x) * 2.f;
  st::matmul_epilogue(y, y, x, [](auto p) { return p * 2.f; });
  worst = 0;
  for (index_t i = 0; i < y.size(); ++i) worst = std::max(worst, std::abs(double(y.data()[i]) - double(want_y.data()[i])));
  CHECK(worst <= 2 * tolerance<float>(97));
  st::detail::epilogue_block_bytes_override = 0;
}

TEST_CASE("dot 2-D, vdot, outer, tensordot against NumPy's definitions") {
  using namespace test_matmul;
  const auto a = random_array<double, 2>({6, 5}, 60), b = random_array<double, 2>({5, 4}, 61);
  check_against<double>(st::dot(a, b), ref_of(a), ref_of(b));
  const auto v = random_array<double, 1>({5}, 62);
  CHECK(st::dot(v, v) == doctest::Approx(st::vdot(v, v)));
  double want = 0;
  for (index_t i = 0; i < 30; ++i) want += a.data()[i] * a.data()[i];
  CHECK(st::vdot(st::transpose(a), st::transpose(a)) == doctest::Approx(want));
  const st::array<double, 2> o = st::outer(v, st::exp(v));
  for (index_t i = 0; i < 5; ++i)
    for (index_t j = 0; j < 5; ++j) CHECK(o(i, j) == doctest::Approx(v.data()[i] * std::exp(v.data()[j])).epsilon(1e-14));
  // tensordot over a's axes {0, 2} and b's {1, 0}: out[i, l] = sum_{j,k} a[j, i, k] b[k, j, l].
  const auto t3 = random_array<double, 3>({3, 4, 5}, 63), u3 = random_array<double, 3>({5, 3, 2}, 64);
  const auto td = st::tensordot(t3, u3, std::array<int, 2>{0, 2}, std::array<int, 2>{1, 0});
  REQUIRE(td.shape() == st::extents<2>{4, 2});
  for (index_t i = 0; i < 4; ++i)
    for (index_t l = 0; l < 2; ++l) {
      double s = 0;
      for (index_t j = 0; j < 3; ++j)
        for (index_t k = 0; k < 5; ++k) s += t3(j, i, k) * u3(k, j, l);
      CHECK(td(i, l) == doctest::Approx(s).epsilon(1e-12));
    }
  // dot of a 3-D and a 2-D operand: numpy.dot sums a's last axis with b's first.
  const auto d3 = st::dot(t3, random_array<double, 2>({5, 2}, 65));
  CHECK(d3.shape() == st::extents<3>{3, 4, 2});
}

TEST_CASE("matmul: errors name both shapes; the output is untouched") {
  using namespace test_matmul;
  const auto a = random_array<float, 2>({3, 4}, 70), b = random_array<float, 2>({5, 2}, 71);
  CHECK_THROWS_WITH_AS(st::matmul(a, b), doctest::Contains("matmul: shapes [3,4] and [5,2] not aligned"), st::shape_error);
  CHECK_THROWS_AS(st::matmul(random_array<float, 3>({2, 3, 4}, 72), random_array<float, 3>({3, 4, 2}, 73)), st::shape_error);
  auto c = random_array<float, 2>({3, 3}, 74);
  const auto c0 = ref_of(c);
  CHECK_THROWS_AS(st::matmul_into(c, a, random_array<float, 2>({4, 2}, 75)), st::shape_error);
  CHECK(ref_of(c).v == c0.v);
  CHECK_THROWS_AS(st::tensordot(a, b, std::array<int, 1>{1}, std::array<int, 1>{0}), st::shape_error);
  CHECK_THROWS_AS(st::tensordot(a, b, std::array<int, 1>{2}, std::array<int, 1>{0}), st::value_error);
}
