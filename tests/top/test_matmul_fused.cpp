// matmul's result as a leaf of a fused expression (linalg_fused.hpp):
// `y = f(matmul(x, w))` against the two-step form (the product into an
// array by one GEMM, then the expression) and a double triple loop, on odd
// sizes, transposed and strided operands and outputs, host and par on 1, 2
// and 3 threads; the alpha/beta forms (`c += matmul(a, b)`, `c = alpha *
// matmul(a, b) + beta * c`) against a double triple loop; the fallbacks
// (two products, a reduction, a broadcast product, aliasing); the trace of
// each path. Part of sinter_tests_blas (linked to sinter::blas).
#include <doctest/doctest.h>

#include <cmath>
#include <random>
#include <sstream>
#include <sinter/linalg.hpp>
#include <sinter/sinter.hpp>
#include <sinter/trace.hpp>
#include <string>
#include <vector>

namespace test_matmul_fused {

namespace st = sinter;
using st::index_t;

template <class T, std::size_t R, class P = st::host>
st::array<T, R, P> random_array(const st::extents<R>& shape, unsigned seed) {
  st::array<T, R> a(shape);
  std::mt19937 g(seed);
  std::uniform_real_distribution<double> d(-1, 1);
  for (index_t i = 0; i < a.size(); ++i) a.data()[i] = static_cast<T>(d(g));
  return st::array<T, R, P>(a);
}

/// x(i, j) of a 2-D array, view or product, as double.
template <class X>
double at(const X& x, index_t i, index_t j) {
  return static_cast<double>(x.data()[i * x.strides()[0] + j * x.strides()[1]]);
}

/// The product of 2-D x and w in double (a triple loop).
template <class X, class W>
std::vector<double> ref_product(const X& x, const W& w) {
  const index_t m = x.shape()[0], k = x.shape()[1], n = w.shape()[1];
  std::vector<double> p(static_cast<std::size_t>(m * n), 0.0);
  for (index_t i = 0; i < m; ++i)
    for (index_t j = 0; j < n; ++j) {
      double s = 0;
      for (index_t l = 0; l < k; ++l) s += at(x, i, l) * at(w, l, j);
      p[static_cast<std::size_t>(i * n + j)] = s;
    }
  return p;
}

/// The largest |a - b| over two 2-D operands of one shape.
template <class A, class B>
double max_diff(const A& a, const B& b) {
  REQUIRE(a.shape() == b.shape());
  double worst = 0;
  for (index_t i = 0; i < a.shape()[0]; ++i)
    for (index_t j = 0; j < a.shape()[1]; ++j) worst = std::max(worst, std::abs(at(a, i, j) - at(b, i, j)));
  return worst;
}

/// Trace records whose expression contains `what`.
inline std::size_t count(const st::trace_scope& t, const std::string& what) {
  std::size_t c = 0;
  for (const auto& r : t.passes()) c += r.expression.find(what) != std::string::npos;
  return c;
}

template <class T>
double tolerance(index_t k) {
  return (std::is_same_v<T, float> ? 2e-6 : 1e-14) * static_cast<double>(k + 4);
}

/// Blocks of at least 32 rows: 4 KiB blocks cut every product below into several.
struct small_blocks {
  small_blocks() { st::detail::epilogue_block_bytes_override = 4096; }
  ~small_blocks() { st::detail::epilogue_block_bytes_override = 0; }
};

/// y = maximum(x @ w + bias, 0) * 0.5 + resid, fused, against the two-step
/// form and the triple loop; operands and output as views (one instance
/// per type and policy: the test's compile time).
template <class T, class P>
void check_epilogue(st::view<const T, 2, P> x, st::view<const T, 2, P> w, st::view<T, 2, P> y, unsigned seed) {
  const index_t m = x.shape()[0], k = x.shape()[1], n = w.shape()[1];
  const auto bias = random_array<T, 1, P>({n}, seed);
  const auto resid = random_array<T, 2, P>({m, n}, seed + 1);
  st::array<T, 2, P> p({m, n});
  st::matmul_into(p, x, w);  // two-step: one GEMM, then the expression
  const st::array<T, 2, P> two_step = st::maximum(p + bias, T(0)) * T(0.5) + resid;
  st::trace_scope t;
  y = st::maximum(st::matmul(x, w) + bias, T(0)) * T(0.5) + resid;
  // Blocks of rows may take another GEMM kernel path than the whole
  // product: agreement within the GEMM's rounding, and with the triple loop.
  CHECK(max_diff(y, two_step) <= tolerance<T>(k));
  const auto ref = ref_product(x, w);
  double worst = 0;
  for (index_t i = 0; i < m; ++i)
    for (index_t j = 0; j < n; ++j) {
      const double want = std::max(ref[std::size_t(i * n + j)] + double(bias.data()[j]), 0.0) * 0.5 + at(resid, i, j);
      worst = std::max(worst, std::abs(at(y, i, j) - want));
    }
  CHECK(worst <= tolerance<T>(k));
  // The fused path: one GEMM per block of rows and one pass per block, no
  // GEMM of the whole product.
  const index_t rows = st::detail::epilogue_block_rows(m, n, sizeof(T));
  const std::size_t blocks = m == 0 ? 0 : std::size_t((m + rows - 1) / rows);
  CHECK(count(t, "= matmul_epilogue(") == blocks);
  CHECK(count(t, "maximum(") == blocks);
  CHECK(count(t, "= matmul(") == 0);
}

}  // namespace test_matmul_fused

TEST_CASE_TEMPLATE("matmul fused: y = f(x @ w) on blocks of rows equals the two-step form", T, float, double) {
  using namespace test_matmul_fused;
  const small_blocks blocks;
  const index_t sizes[][3] = {{1, 1, 1}, {2, 3, 5}, {7, 11, 13}, {97, 1, 31}, {257, 129, 63}};
  unsigned seed = 1;
  for (const auto& s : sizes) {
    CAPTURE(s[0]);
    CAPTURE(s[1]);
    CAPTURE(s[2]);
    const auto x = random_array<T, 2>({s[0], s[1]}, seed++);
    const auto w = random_array<T, 2>({s[1], s[2]}, seed++);
    st::array<T, 2> y({s[0], s[2]});
    check_epilogue<T, st::host>(x, w, y(), seed++);
    // Transposed and strided operands, a transposed and a strided output.
    const auto xt = random_array<T, 2>({s[1], s[0]}, seed++);
    const auto wide = random_array<T, 2>({s[1], 2 * s[2] + 1}, seed++);
    const auto wv = wide(st::all, st::slice(1, 2 * s[2] + 1, 2));
    st::array<T, 2> yt({s[2], s[0]});
    check_epilogue<T, st::host>(st::transpose(xt), wv, st::transpose(yt), seed++);
    st::array<T, 2> ys({s[0], 3 * s[2]});
    check_epilogue<T, st::host>(x, w, ys(st::all, st::slice(0, 3 * s[2], 3)), seed++);
  }
}

TEST_CASE("matmul fused: par on 1, 2 and 3 threads") {
  using namespace test_matmul_fused;
  const small_blocks blocks;
  const int before = st::get_num_threads();
  for (int threads : {1, 2, 3}) {
    CAPTURE(threads);
    st::set_num_threads(threads);
    const auto x = random_array<float, 2, st::par>({131, 67}, 10), w = random_array<float, 2, st::par>({67, 89}, 11);
    st::array<float, 2, st::par> y({131, 89});
    check_epilogue<float, st::par>(x, w, y(), 12);
  }
  st::set_num_threads(before);
}

TEST_CASE_TEMPLATE("matmul fused: alpha and beta forms are one GEMM into c", T, float, double) {
  using namespace test_matmul_fused;
  const auto a = random_array<T, 2>({37, 29}, 20), b = random_array<T, 2>({29, 23}, 21);
  const auto ref = ref_product(a, b);
  const auto c0 = random_array<T, 2>({37, 23}, 22);
  const auto check = [&](const auto& c, double alpha, double beta, const char* name) {
    CAPTURE(name);
    double worst = 0;
    for (index_t i = 0; i < 37; ++i)
      for (index_t j = 0; j < 23; ++j)
        worst = std::max(worst, std::abs(at(c, i, j) - (alpha * ref[std::size_t(i * 23 + j)] + beta * at(c0, i, j))));
    CHECK(worst <= 4 * tolerance<T>(29));
  };
  // Each form: one GEMM record (alpha, beta into c), no elementwise pass.
  const auto one_gemm = [](const st::trace_scope& t, const char* call) {
    CHECK(t.passes().size() == 1);
    CHECK(count(t, call) == 1);
  };
  st::array<T, 2> c = c0;
  {
    st::trace_scope t;
    c += st::matmul(a, b);
    one_gemm(t, "= matmul_into(");
  }
  check(c, 1, 1, "c += a @ b");
  c = c0;
  {
    st::trace_scope t;
    c -= st::matmul(a, b);
    one_gemm(t, "= matmul_into(");
  }
  check(c, -1, 1, "c -= a @ b");
  c = c0;
  {
    st::trace_scope t;
    c = T(2) * st::matmul(a, b) + T(-0.5) * c;
    one_gemm(t, "= matmul_into(");
  }
  check(c, 2, -0.5, "c = 2 a @ b - 0.5 c");
  c = c0;
  {
    st::trace_scope t;
    c = c * T(0.25) - st::matmul(a, b) * T(3);
    one_gemm(t, "= matmul_into(");
  }
  check(c, -3, 0.25, "c = 0.25 c - (a @ b) 3");
  {
    st::trace_scope t;
    c = st::matmul(a, b) * T(3);
    one_gemm(t, "= matmul(");
  }
  check(c, 3, 0, "c = (a @ b) 3");
  // Into views: a transposed c and every other column of a wider one.
  st::array<T, 2> ct = st::transpose(c0);
  st::transpose(ct) += st::matmul(a, b);
  check(st::transpose(ct), 1, 1, "transposed c");
  st::array<T, 2> wide({37, 46});
  auto cv = wide(st::all, st::slice(0, 46, 2));
  cv = c0;
  cv = st::matmul(a, b) + cv;
  check(cv, 1, 1, "strided c");
  // An array of another shape (here empty) takes the product's: fused too.
  st::array<T, 2> fresh;
  {
    st::trace_scope t;
    fresh = st::matmul(a, b) + c0;
    CHECK(count(t, "= matmul_epilogue(") == 1);
    CHECK(count(t, "= matmul(") == 0);
  }
  check(fresh, 1, 1, "fresh = a @ b + c0");
  // Another array than the output is not beta: the blocked epilogue instead.
  st::array<T, 2> d({37, 23});
  {
    st::trace_scope t;
    d = st::matmul(a, b) + c0;
    CHECK(count(t, "= matmul_epilogue(") == 1);
  }
  check(d, 1, 1, "d = a @ b + c0");
}

TEST_CASE("matmul fused: elsewhere the product is computed once, values unchanged") {
  using namespace test_matmul_fused;
  const auto a = random_array<double, 2>({19, 17}, 30), b = random_array<double, 2>({17, 13}, 31);
  st::array<double, 2> p({19, 13});
  st::matmul_into(p, a, b);
  // A reduction, two products, a broadcast product: one whole GEMM each.
  {
    st::trace_scope t;
    CHECK(st::sum(st::matmul(a, b)) == st::sum(p));
    CHECK(count(t, "= matmul(") == 1);
  }
  st::array<double, 2> y({19, 13});
  {
    st::trace_scope t;
    y = st::matmul(a, b) - st::matmul(a, b) * 2.0;
    CHECK(count(t, "= matmul(") == 2);
    CHECK(count(t, "matmul_epilogue") == 0);
  }
  const st::array<double, 2> want = p - p * 2.0;
  CHECK(max_diff(y, want) == 0);
  const auto v = random_array<double, 1>({17}, 32);
  st::array<double, 2> col({19, 4});
  col = st::matmul(a, v)(st::all, st::newaxis) + st::zeros<double>({19, 4});
  for (index_t i = 0; i < 19; ++i) {
    double s = 0;
    for (index_t l = 0; l < 17; ++l) s += a(i, l) * v(l);
    CHECK(col(i, 3) == doctest::Approx(s).epsilon(1e-13));
  }
  std::ostringstream printed, want_printed;
  printed << st::matmul(a, b);
  want_printed << p;
  CHECK(printed.str() == want_printed.str());
  // Kept in a variable: computed once by its first whole use, then read as memory.
  const auto q = st::matmul(a, b);
  CHECK(q(3, 4) == p(3, 4));
  {
    st::trace_scope t;
    y = q + 1.0;
    CHECK(count(t, "= matmul") == 0);  // no GEMM; the pass reads "matmul<f64[19,13]>"
    CHECK(count(t, "matmul<") == 1);
  }
  CHECK(max_diff(y, st::array<double, 2>(p + 1.0)) == 0);
  // A lazy operand is evaluated once, though the product runs in blocks.
  const small_blocks blocks;
  const auto x = random_array<double, 2>({131, 17}, 33);
  st::array<double, 2> h({131, 13});
  {
    st::trace_scope t;
    h = st::maximum(st::matmul(st::exp(x), b), 0.0);
    CHECK(count(t, "exp(") == 1);
    CHECK(count(t, "= matmul_epilogue(") == 4);  // blocks of 39 rows
  }
  const st::array<double, 2> ex = st::exp(x);
  const auto r = ref_product(ex, b);
  for (index_t i = 0; i < 131; ++i)
    for (index_t j = 0; j < 13; ++j) REQUIRE(std::abs(h(i, j) - std::max(r[std::size_t(i * 13 + j)], 0.0)) <= 1e-12);
}

TEST_CASE("matmul fused: the output is an operand (through a temporary)") {
  using namespace test_matmul_fused;
  const small_blocks blocks;  // several blocks: a later block's GEMM would read rows an earlier pass wrote
  auto x = random_array<float, 2>({97, 97}, 40);
  auto w = random_array<float, 2>({97, 97}, 41);
  const auto x0 = st::array<float, 2>(x), w0 = st::array<float, 2>(w);
  st::array<float, 2> p({97, 97});
  st::matmul_into(p, x0, w0);
  x = st::maximum(st::matmul(x, w), 0.f);
  CHECK(max_diff(x, st::array<float, 2>(st::maximum(p, 0.f))) <= tolerance<float>(97));
  x = x0;
  w = st::maximum(st::matmul(x, w), 0.f) + w;
  CHECK(max_diff(w, st::array<float, 2>(st::maximum(p, 0.f) + w0)) <= tolerance<float>(97));
  // One GEMM with beta = 1 writing its own operand: large enough that BLAS
  // writes C before it has read all of A (at 97x97 it packs A first).
  auto z = random_array<float, 2>({301, 301}, 42);
  const auto z0 = st::array<float, 2>(z);
  st::array<float, 2> zz({301, 301});
  st::matmul_into(zz, z0, z0);
  z += st::matmul(z, z);
  CHECK(max_diff(z, st::array<float, 2>(zz + z0)) <= tolerance<float>(301));
  // The epilogue reads the output with another mapping (rows reversed).
  st::array<float, 2> y = x0;
  y = st::matmul(x0, w0) + y(st::slice(st::none, st::none, -1), st::all);
  CHECK(max_diff(y, st::array<float, 2>(p + x0(st::slice(st::none, st::none, -1), st::all))) <= tolerance<float>(97));
}
