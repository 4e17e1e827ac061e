// matmul, dot, tensordot, matmul_into and matmul_epilogue of half and
// bfloat16 operands on host and par (linalg/half_blocks.hpp: blocks widened
// to float, one sgemm per block, rounded back once) against a double triple
// loop on the same 16-bit inputs, within the documented bound
//   |got - exact| <= u_T (|exact| + e) + e + denorm_min(T) / 2,
//   e = gamma(k + 2) (|alpha| sum |a_il b_lj| + |beta c_ij|),
//   gamma(j) = j u / (1 - j u), u = 2^-24 (float), u_T = 2^-11 (half), 2^-8 (bfloat16).
// Odd sizes (0, 1, primes, 257x129 . 129x63), transposed, strided and
// reversed operands, batches, par on 1-3 threads, several blocks, and
// half x float following promote_t (float). Binary sinter_tests_blas.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <sinter/linalg.hpp>
#include <sinter/sinter.hpp>
#include <vector>

#include "support/random_array.hpp"

namespace test_matmul_half {

namespace st = sinter;
using st::index_t;

/// Operands in [-2, 2), rounded to T.
template <class T, std::size_t R>
st::array<T, R> random_array(const st::extents<R>& shape, unsigned seed) {
  return sinter_test::random_array<T, R>(shape, seed, -2, 2);
}

/// A 2-D operand as a double matrix (its 16-bit values, exact).
struct dmat {
  index_t rows, cols;
  std::vector<double> v;
  double operator()(index_t i, index_t j) const { return v[static_cast<std::size_t>(i * cols + j)]; }
};
template <class X>
dmat dmat_of(const X& x) {
  dmat r{x.shape()[0], x.shape()[1], {}};
  for (index_t i = 0; i < r.rows; ++i)
    for (index_t j = 0; j < r.cols; ++j) r.v.push_back(static_cast<double>(static_cast<float>(x(i, j))));
  return r;
}

/// Unit roundoff of T's rounding to nearest (half 2^-11, bfloat16 2^-8, float 2^-24).
template <class T>
double unit_roundoff() {
  return static_cast<double>(static_cast<float>(std::numeric_limits<T>::epsilon())) / 2;
}

/// got(i, j) against alpha a @ b + beta c0 (double), within the bound above.
template <class T, class G>
void check_close(const G& got, const dmat& a, const dmat& b, double alpha = 1, double beta = 0,
                 const dmat* c0 = nullptr) {
  REQUIRE(got.shape()[0] == a.rows);
  REQUIRE(got.shape()[1] == b.cols);
  const index_t k = a.cols;
  const double u = std::ldexp(1.0, -24), ut = unit_roundoff<T>();
  const double gamma = double(k + 2) * u / (1 - double(k + 2) * u);
  const double tiny = static_cast<double>(static_cast<float>(std::numeric_limits<T>::denorm_min())) / 2;
  int bad = 0;
  for (index_t i = 0; i < a.rows; ++i)
    for (index_t j = 0; j < b.cols; ++j) {
      double s = 0, sa = 0;
      for (index_t l = 0; l < k; ++l) s += a(i, l) * b(l, j), sa += std::fabs(a(i, l) * b(l, j));
      const double cij = c0 ? (*c0)(i, j) : 0;
      const double want = alpha * s + beta * cij;
      const double e = gamma * (std::fabs(alpha) * sa + std::fabs(beta * cij));
      const double g = static_cast<double>(static_cast<float>(got(i, j)));
      if (!(std::fabs(g - want) <= ut * (std::fabs(want) + e) + e + tiny) && ++bad <= 3)
        CHECK_MESSAGE(false, "(" << i << ", " << j << "): got " << g << ", want " << want << ", k " << k);
    }
  CHECK(bad == 0);
}

template <class T>
void check_sizes() {
  const index_t sizes[][3] = {{1, 1, 1}, {1, 7, 1}, {2, 3, 5}, {7, 13, 11}, {31, 17, 29}, {257, 129, 63}, {3, 0, 4}};
  unsigned seed = 1;
  for (const auto& s : sizes) {
    const index_t m = s[0], k = s[1], n = s[2];
    const auto a = random_array<T, 2>({m, k}, seed++), b = random_array<T, 2>({k, n}, seed++);
    const auto c = st::matmul(a, b);
    static_assert(std::is_same_v<typename decltype(c)::value_type, T>);
    check_close<T>(c, dmat_of(a), dmat_of(b));
    check_close<T>(st::dot(a, b), dmat_of(a), dmat_of(b));
  }
  const auto e = st::matmul(st::array<T, 2>({0, 5}), st::array<T, 2>({5, 3}));
  CHECK(e.shape()[0] == 0);
}

template <class T>
void check_layouts() {
  const auto big = random_array<T, 2>({61, 80}, 11), b = random_array<T, 2>({37, 23}, 12);
  const auto at = random_array<T, 2>({37, 29}, 13);
  const auto tr = st::permute(at, {1, 0});                      // column-contiguous (29 x 37)
  const auto rows2 = big(st::slice(1, 59, 2), st::slice(3, 40));  // row step 2 (29 x 37)
  const auto cols2 = big(st::slice(0, 29), st::slice(0, 74, 2));  // column step 2 (29 x 37)
  const auto rev = big(st::slice(st::end, 31, -1), st::slice(0, 37));  // reversed rows (29 x 37)
  check_close<T>(st::matmul(tr, b), dmat_of(tr), dmat_of(b));
  check_close<T>(st::matmul(rows2, b), dmat_of(rows2), dmat_of(b));
  check_close<T>(st::matmul(cols2, b), dmat_of(cols2), dmat_of(b));
  check_close<T>(st::matmul(rev, st::permute(st::eval(st::permute(b, {1, 0})), {1, 0})), dmat_of(rev), dmat_of(b));
  const auto bb = random_array<T, 2>({38, 23}, 14);
  const auto brev = bb(st::slice(st::end, 0, -1), st::slice(0, 23, 2));  // 37 x 12, both axes strided
  check_close<T>(st::matmul(rev, brev), dmat_of(rev), dmat_of(brev));
  // A lazy operand of T is evaluated once (rounded to T) first.
  const auto lazy = st::eval(tr * T(2));
  check_close<T>(st::matmul(tr * T(2), b), dmat_of(lazy), dmat_of(b));
}

template <class T>
void check_batches_and_vectors() {
  const auto a = random_array<T, 3>({3, 13, 11}, 21), b = random_array<T, 3>({1, 11, 7}, 22);
  const auto c = st::matmul(a, b);  // b's batch axis broadcast
  REQUIRE(c.shape() == st::extents<3>{3, 13, 7});
  for (index_t q = 0; q < 3; ++q) {
    const auto aq = a(q, st::all, st::all), cq = c(q, st::all, st::all);
    check_close<T>(cq, dmat_of(aq), dmat_of(b(0, st::all, st::all)));
  }
  const auto v = random_array<T, 1>({11}, 23), w = random_array<T, 1>({11}, 24);
  const auto vm = st::matmul(v, b(0, st::all, st::all));  // (11) @ (11, 7) -> (7)
  REQUIRE(vm.shape()[0] == 7);
  st::array<T, 2> vm2({1, 7});
  for (index_t j = 0; j < 7; ++j) vm2(0, j) = vm(j);
  const auto v2 = st::eval(st::reshape(v, st::extents<2>{1, 11}));
  check_close<T>(vm2, dmat_of(v2), dmat_of(b(0, st::all, st::all)));
  const T s = st::matmul(v, w);  // two 1-D operands: a scalar
  st::array<T, 2> s2({1, 1});
  s2(0, 0) = s;
  check_close<T>(s2, dmat_of(v2), dmat_of(st::eval(st::reshape(w, st::extents<2>{11, 1}))));
  // tensordot over one axis: one GEMM through the same path.
  const auto t = st::tensordot(a(0, st::all, st::all), b(0, st::all, st::all), std::array<int, 1>{1}, std::array<int, 1>{0});
  check_close<T>(t, dmat_of(a(0, st::all, st::all)), dmat_of(b(0, st::all, st::all)));
}

template <class T>
void check_into_and_epilogue() {
  const auto a = random_array<T, 2>({41, 19}, 31), b = random_array<T, 2>({19, 23}, 32);
  auto c = random_array<T, 2>({41, 23}, 33);
  const dmat c0 = dmat_of(c);
  st::matmul_into(c, a, b, T(2), T(-0.5f));
  check_close<T>(c, dmat_of(a), dmat_of(b), 2.0, -0.5, &c0);
  // A column-contiguous output (a transposed view): strided writes.
  st::array<T, 2> ct({23, 41});
  auto cv = st::permute(ct, {1, 0});
  st::matmul_into(cv, a, b);
  check_close<T>(cv, dmat_of(a), dmat_of(b));
  // The fused epilogue equals the unfused form exactly (both round the product once).
  const auto bias = random_array<T, 1>({23}, 34);
  st::array<T, 2> fused({41, 23});
  st::detail::epilogue_block_bytes_override = 64;  // 32-row blocks: two of them
  st::matmul_epilogue(fused, a, b, [&](auto p) { return st::maximum(p + bias, T(0)); });
  st::detail::epilogue_block_bytes_override = 0;
  const st::array<T, 2> expr = st::maximum(st::matmul(a, b) + bias, T(0));  // assign's fused form
  const st::array<T, 2> prod = st::matmul(a, b);
  const st::array<T, 2> unfused = st::maximum(prod + bias, T(0));  // two steps
  int differ = 0;
  for (index_t i = 0; i < 41; ++i)
    for (index_t j = 0; j < 23; ++j)
      differ += (fused(i, j).bits != unfused(i, j).bits) + (expr(i, j).bits != unfused(i, j).bits);
  CHECK(differ == 0);
  check_close<T>(prod, dmat_of(a), dmat_of(b));
}

}  // namespace test_matmul_half

TEST_CASE_TEMPLATE("matmul half: 2-D against a double triple loop, sizes 0, 1, primes", T, sinter::half,
                   sinter::bfloat16) {
  test_matmul_half::check_sizes<T>();
}

TEST_CASE_TEMPLATE("matmul half: transposed, strided, reversed and lazy operands", T, sinter::half, sinter::bfloat16) {
  test_matmul_half::check_layouts<T>();
}

TEST_CASE_TEMPLATE("matmul half: batches, 1-D operands, tensordot", T, sinter::half, sinter::bfloat16) {
  test_matmul_half::check_batches_and_vectors<T>();
}

TEST_CASE_TEMPLATE("matmul half: matmul_into's alpha and beta, strided output, fused epilogue", T, sinter::half,
                   sinter::bfloat16) {
  test_matmul_half::check_into_and_epilogue<T>();
}

TEST_CASE_TEMPLATE("matmul half: several blocks of rows (block edges, beta)", T, sinter::half, sinter::bfloat16) {
  using namespace test_matmul_half;
  st::detail::half_block_bytes_override = 1000;  // (19 + 23) floats a row: 5 rows a block, 41 = 8 * 5 + 1
  const auto a = random_array<T, 2>({41, 19}, 41), b = random_array<T, 2>({19, 23}, 42);
  auto c = random_array<T, 2>({41, 23}, 43);
  const dmat c0 = dmat_of(c);
  const auto p = st::matmul(a, b);
  st::matmul_into(c, a, b, T(1), T(1));
  st::detail::half_block_bytes_override = 0;
  check_close<T>(p, dmat_of(a), dmat_of(b));
  check_close<T>(c, dmat_of(a), dmat_of(b), 1.0, 1.0, &c0);
}

TEST_CASE_TEMPLATE("matmul half: par on 1, 2 and 3 threads", T, sinter::half, sinter::bfloat16) {
  using namespace test_matmul_half;
  const auto a = random_array<T, 2>({131, 67}, 51), b = random_array<T, 2>({67, 89}, 52);
  const auto host = st::matmul(a, b);
  const int before = st::get_num_threads();
  for (int threads : {1, 2, 3}) {
    st::set_num_threads(threads);
    st::array<T, 2, st::par> pa(a), pb(b);
    const auto got = st::matmul(pa, pb);
    static_assert(std::is_same_v<typename std::remove_cvref_t<decltype(got)>::policy_type, st::par>);
    check_close<T>(got, dmat_of(a), dmat_of(b));
  }
  st::set_num_threads(before);
  check_close<T>(host, dmat_of(a), dmat_of(b));
}

TEST_CASE_TEMPLATE("matmul half: half x float follows promote_t (float)", T, sinter::half, sinter::bfloat16) {
  using namespace test_matmul_half;
  const auto a = random_array<T, 2>({17, 31}, 61);
  const auto b = random_array<float, 2>({31, 13}, 62);
  const auto c = st::matmul(a, b);
  static_assert(std::is_same_v<typename decltype(c)::value_type, float>);
  static_assert(std::is_same_v<typename decltype(st::matmul(b, st::permute(a, {1, 0})))::value_type, float>);
  check_close<float>(c, dmat_of(a), dmat_of(b));
}
