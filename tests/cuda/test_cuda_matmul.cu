// matmul, matmul_into, dot and tensordot on sinter::cuda (cuBLAS,
// sinter/linalg_cuda.hpp), compiled by nvcc into sinter_cuda_matmul_tests
// (linked with sinter::cublas).
//
//  - no device needed: the cuBLAS call chosen for every operand layout
//    (row- and column-contiguous, padded leading dimensions, single rows and
//    columns; C^T = B^T A^T for a row-contiguous C), run through a
//    column-major GEMM written here, equals a double triple loop; the
//    strided-batched grouping of batch axes and the batched calls (broadcast,
//    transposed, 1-D, column-major C) on host memory; cuBLAS status names in
//    cuda_error; shape errors before any device call; the handle cache
//    refuses an absent device; c = P, c += P, c -= P, alpha P + beta c and
//    P alpha on cuda views of host memory (cuda_matmul_support.hpp's
//    recording product_core: one GEMM, its alpha, beta, transposes and
//    leading dimensions, values); the bias / ReLU-bias patterns and the
//    cublasLtMatmul arguments (epilogue, bias pointer) through a host
//    emulation of the epilogue.
//  - device: every entry point against a double triple loop; reports
//    "skipped: no CUDA device" where none answers.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <sinter/linalg.hpp>
#include <sinter/device.hpp>
#include <sinter/view_ops.hpp>
#include <string>
#include <vector>

#include "cuda_matmul_support.hpp"

namespace test_cuda_matmul {
namespace st = sinter;
namespace sd = sinter::detail;
using st::index_t;

/// A rows x cols matrix in `buf`: layout 0 row-contiguous (padded rows),
/// 1 column-contiguous (padded columns), 2 neither (every other element).
template <class T>
sd::strided_matrix<T> laid_out(std::vector<T>& buf, index_t rows, index_t cols, int layout) {
  const index_t s0 = layout == 0 ? cols + 3 : layout == 1 ? 1 : 2 * cols;
  const index_t s1 = layout == 0 ? 1 : layout == 1 ? rows + 2 : 2;
  buf.assign(static_cast<std::size_t>(2 * (rows + 3) * (cols + 3)), T(-7));
  return {buf.data(), rows, cols, s0, s1};
}

template <class T>
void check_plans() {
  std::mt19937 gen(7);
  std::uniform_real_distribution<double> dist(-1, 1);
  const index_t sizes[][3] = {{1, 1, 1}, {3, 5, 7}, {1, 4, 3}, {4, 1, 3}, {5, 3, 1}, {13, 11, 17}};
  for (const auto& s : sizes)
    for (int la = 0; la < 3; ++la)
      for (int lb = 0; lb < 3; ++lb)
        for (int lc = 0; lc < 3; ++lc) {
          const index_t m = s[0], n = s[1], k = s[2];
          std::vector<T> ba, bb, bc;
          auto a = laid_out(ba, m, k, la);
          auto b = laid_out(bb, k, n, lb);
          auto c = laid_out(bc, m, n, lc);
          for (index_t i = 0; i < m; ++i)
            for (index_t l = 0; l < k; ++l) a.p[i * a.s0 + l * a.s1] = static_cast<T>(dist(gen));
          for (index_t l = 0; l < k; ++l)
            for (index_t j = 0; j < n; ++j) b.p[l * b.s0 + j * b.s1] = static_cast<T>(dist(gen));
          for (index_t i = 0; i < m; ++i)
            for (index_t j = 0; j < n; ++j) c.p[i * c.s0 + j * c.s1] = static_cast<T>(dist(gen));
          const sd::strided_matrix<const T> ca{a.p, m, k, a.s0, a.s1}, cb{b.p, k, n, b.s0, b.s1};
          const bool a_ok = sd::blas_form_of(ca).ok, b_ok = sd::blas_form_of(cb).ok;
          // Layout 2 is read in place only where an extent of 1 frees a stride.
          CHECK(a_ok == (la != 2 || m == 1 || k == 1));
          CHECK(b_ok == (lb != 2 || k == 1 || n == 1));
          if (!a_ok || !b_ok) continue;
          const sd::cublas_call call = sd::plan_cublas_gemm(ca, cb, c);
          CHECK(call.ok == (lc != 2 || m == 1 || n == 1));
          if (!call.ok) continue;
          CHECK(call.k == k);
          std::vector<double> want(static_cast<std::size_t>(m * n));
          for (index_t i = 0; i < m; ++i)
            for (index_t j = 0; j < n; ++j) {
              double acc = 0;
              for (index_t l = 0; l < k; ++l) acc += double(a.p[i * a.s0 + l * a.s1]) * double(b.p[l * b.s0 + j * b.s1]);
              want[static_cast<std::size_t>(i * n + j)] = 2.0 * acc + 0.5 * double(c.p[i * c.s0 + j * c.s1]);
            }
          emulate<T>(call, call.swapped ? cb.p : ca.p, call.swapped ? ca.p : cb.p, c.p, T(2), T(0.5));
          for (index_t i = 0; i < m; ++i)
            for (index_t j = 0; j < n; ++j)
              CHECK(double(c.p[i * c.s0 + j * c.s1]) ==
                    doctest::Approx(want[static_cast<std::size_t>(i * n + j)]).epsilon(1e-5));
        }
}

/// The batched calls (cublas_batched) run through `emulate` on host memory:
/// out = a @ b against loops over the broadcast batch; `calls` expected.
/// half and bfloat16: through cublas_ex_of's arguments (emulate_ex).
template <class T = double>
void check_batched(const std::vector<index_t>& sha, const std::vector<index_t>& sta, const std::vector<index_t>& shb,
                   const std::vector<index_t>& stb, bool c_columns, index_t calls) {
  std::mt19937 gen(5);
  std::uniform_real_distribution<double> dist(-1, 1);
  const auto extent = [](const std::vector<index_t>& sh, const std::vector<index_t>& st) {
    index_t e = 1;
    for (std::size_t i = 0; i < sh.size(); ++i) e += (sh[i] - 1) * st[i];
    return e;
  };
  std::vector<T> ba(static_cast<std::size_t>(extent(sha, sta))), bb(static_cast<std::size_t>(extent(shb, stb)));
  for (auto& v : ba) v = static_cast<T>(dist(gen));
  for (auto& v : bb) v = static_cast<T>(dist(gen));
  const sd::linalg_operand<T> a{ba.data(), sha.size(), sha.data(), sta.data()};
  const sd::linalg_operand<T> b{bb.data(), shb.size(), shb.data(), stb.data()};
  const std::vector<index_t> sho = sd::matmul_shape(a, b);
  const std::size_t ro = sho.size(), nb = ro - (a.rank >= 2) - (b.rank >= 2);
  std::vector<index_t> sto(ro, 1);
  for (std::size_t i = ro; i-- > 1;) sto[i - 1] = sto[i] * sho[i];
  const index_t size = ro ? sto[0] * sho[0] : 1;
  if (c_columns) sto[ro - 2] = 1, sto[ro - 1] = sho[ro - 2];  // each matrix column-major
  std::vector<T> bo(static_cast<std::size_t>(size), T(0));
  const index_t got = sd::cublas_batched<T>(
      a, b, {bo.data(), ro, sho.data(), sto.data()},
      [](const sd::cublas_call& c, const T* f, const T* x, T* o, index_t count, index_t sf, index_t sx, index_t so) {
        if constexpr (st::is_half_like_v<T>)
          emulate_ex<T>(sd::cublas_ex_of<T>(c, f, x, o, T(1), T(0), count, sf, sx, so));
        else
          for (index_t q = 0; q < count; ++q) emulate<T>(c, f + q * sf, x + q * sx, o + q * so, T(1), T(0));
      });
  CHECK(got == calls);
  const index_t k = sha.back();
  std::vector<index_t> idx(ro, 0);
  for (index_t flat = 0; flat < size; ++flat) {
    index_t r = flat, oo = 0;
    for (std::size_t d = ro; d-- > 0;) idx[d] = r % sho[d], r /= sho[d], oo += idx[d] * sto[d];
    index_t oa = 0, ob = 0;  // batch axes right-aligned, extent 1 broadcast
    for (std::size_t d = 0; d < nb; ++d) {
      const std::size_t xa = sha.size() - 2, xb = shb.size() - 2;
      if (sha.size() > 2 && d + xa >= nb && sha[d + xa - nb] != 1) oa += idx[d] * sta[d + xa - nb];
      if (shb.size() > 2 && d + xb >= nb && shb[d + xb - nb] != 1) ob += idx[d] * stb[d + xb - nb];
    }
    if (a.rank >= 2) oa += idx[nb] * sta[sha.size() - 2];
    if (b.rank >= 2) ob += idx[ro - 1] * stb[shb.size() - 1];
    double want = 0;
    for (index_t l = 0; l < k; ++l)
      want += double(ba[static_cast<std::size_t>(oa + l * sta.back())]) *
              double(bb[static_cast<std::size_t>(ob + l * stb[b.rank >= 2 ? shb.size() - 2 : 0])]);
    // 16-bit outputs: one rounding (unit roundoff 2^-11 half, 2^-8 bfloat16).
    CHECK(double(bo[static_cast<std::size_t>(oo)]) ==
          doctest::Approx(want).epsilon(st::is_half_like_v<T> ? 4e-3 : 1e-12));
  }
}

/// A double triple loop over host copies: a (.., m, k) @ b (.., k, n), both 3-D.
std::vector<double> reference(const st::array<double, 3>& a, const st::array<double, 3>& b, index_t batches) {
  const index_t m = a.shape()[1], k = a.shape()[2], n = b.shape()[2];
  std::vector<double> r;
  for (index_t q = 0; q < batches; ++q)
    for (index_t i = 0; i < m; ++i)
      for (index_t j = 0; j < n; ++j) {
        double acc = 0;
        for (index_t l = 0; l < k; ++l)
          acc += a(a.shape()[0] == 1 ? 0 : q, i, l) * b(b.shape()[0] == 1 ? 0 : q, l, j);
        r.push_back(acc);
      }
  return r;
}

template <class X>
std::vector<double> host_values(const X& x) {
  const auto h = st::to<st::host>(st::eval(x));
  std::vector<double> out;
  for (auto v : h) out.push_back(static_cast<double>(v));
  return out;
}

template <class T>
void check_device() {
  std::mt19937 gen(11);
  std::uniform_real_distribution<double> dist(-1, 1);
  const double tol = sizeof(T) == 2 ? 1e-2 : sizeof(T) == 4 ? 1e-4 : 1e-12;  // 16-bit: one rounding of the sum
  const auto close = [&](const std::vector<double>& got, const std::vector<double>& want) {
    REQUIRE(got.size() == want.size());
    for (std::size_t i = 0; i < got.size(); ++i) CHECK(got[i] == doctest::Approx(want[i]).epsilon(tol));
  };
  const index_t dims[][4] = {{1, 1, 1, 1}, {3, 13, 7, 5}, {1, 31, 17, 29}, {4, 1, 3, 2}};
  for (const auto& d : dims) {
    const index_t q = d[0], m = d[1], k = d[2], n = d[3];
    st::array<double, 3> ha({q, m, k}), hb({1, k, n}), hbt({q, n, k});
    for (auto& v : ha) v = dist(gen);
    for (auto& v : hb) v = dist(gen);
    for (auto& v : hbt) v = dist(gen);
    const auto da = st::to<st::cuda>(st::eval(st::cast<T>(ha)));
    const auto db = st::to<st::cuda>(st::eval(st::cast<T>(hb)));
    const auto dbt = st::to<st::cuda>(st::eval(st::cast<T>(hbt)));
    const auto ra = st::eval(st::cast<double>(st::to<st::host>(da)));
    const auto rb = st::eval(st::cast<double>(st::to<st::host>(db)));
    const auto rbt = st::eval(st::cast<double>(st::to<st::host>(dbt)));
    close(host_values(st::matmul(da, db)), reference(ra, rb, q));  // broadcast batch: stride 0
    // Transposed operand (CUBLAS_OP_T) and a lazy one (evaluated first).
    st::array<double, 3> rbtt({q, k, n});
    for (index_t x = 0; x < q; ++x)
      for (index_t l = 0; l < k; ++l)
        for (index_t j = 0; j < n; ++j) rbtt(x, l, j) = rbt(x, j, l);
    close(host_values(st::matmul(da, st::permute(dbt, {0, 2, 1}))), reference(ra, rbtt, q));
    close(host_values(st::matmul(da * T(1), db)), reference(ra, rb, q));
    // Strided (every other column: copied), 2-D dot and matmul_into with beta.
    const auto a2 = da(0, st::all, st::slice(0, st::end, 2));
    const index_t k2 = (k + 1) / 2;
    st::array<double, 3> ra2({1, m, k2}), rb2({1, k2, n});
    for (index_t i = 0; i < m; ++i)
      for (index_t l = 0; l < k2; ++l) ra2(0, i, l) = ra(0, i, 2 * l);
    for (index_t l = 0; l < k2; ++l)
      for (index_t j = 0; j < n; ++j) rb2(0, l, j) = rb(0, l, j);
    const auto b2 = db(0, st::slice(0, k2), st::all);
    close(host_values(st::dot(a2, b2)), reference(ra2, rb2, 1));
    st::array<T, 2, st::cuda> c = st::matmul(a2, b2);
    st::matmul_into(c, a2, b2, T(2), T(-1));  // 2 p - p = p
    const std::vector<double> p1 = reference(ra2, rb2, 1);
    close(host_values(c), p1);
    // The alpha/beta forms (one GEMM each), then relu(P + bias) (GEMM, then a kernel).
    const auto times = [&](double f) {
      std::vector<double> r = p1;
      for (auto& v : r) v *= f;
      return r;
    };
    c += st::matmul(a2, b2);
    close(host_values(c), times(2));
    c = T(2) * st::matmul(a2, b2) - T(0.5) * c;
    close(host_values(c), times(1));
    c = st::matmul(a2, b2) * T(3);
    close(host_values(c), times(3));
    c -= st::matmul(a2, b2);
    close(host_values(c), times(2));
    const auto bias = db(0, 0, st::all);
    const std::vector<double> hb0 = host_values(bias);
    c = st::maximum(st::matmul(a2, b2) + bias, T(0));
    std::vector<double> relu = p1;
    for (std::size_t i = 0; i < relu.size(); ++i) relu[i] = std::max(relu[i] + hb0[i % hb0.size()], 0.0);
    close(host_values(c), relu);
    close(host_values(st::tensordot(da(0, st::all, st::all), db(0, st::all, st::all), std::array<int, 1>{1},
                                    std::array<int, 1>{0})),
          reference(st::eval(ra(st::slice(0, 1), st::all, st::all)), rb, 1));
  }
}

}  // namespace test_cuda_matmul

TEST_CASE("cuda matmul: the cuBLAS call for every layout equals a triple loop (host)") {
  test_cuda_matmul::check_plans<float>();
  test_cuda_matmul::check_plans<double>();
}

TEST_CASE("cuda matmul: strided-batched runs of batch axes") {
  using sinter::index_t;
  namespace sd = sinter::detail;
  {  // (4, 3) batch of a contiguous stack: one run of 12, a broadcast b (stride 0)
    const index_t sh[] = {4, 3}, sa[] = {30, 10}, sb[] = {0, 0}, sc[] = {18, 6};
    const auto r = sd::cublas_batch_run(2, sh, sa, sb, sc);
    CHECK(r.first == 0);
    CHECK(r.count == 12);
    CHECK(r.sa == 10);
    CHECK(r.sb == 0);
    CHECK(r.sc == 6);
  }
  {  // b broadcast along the outer axis only: the inner axis alone, a loop of 4
    const index_t sh[] = {4, 3}, sa[] = {30, 10}, sb[] = {0, 20}, sc[] = {18, 6};
    const auto r = sd::cublas_batch_run(2, sh, sa, sb, sc);
    CHECK(r.first == 1);
    CHECK(r.count == 3);
    CHECK(r.sb == 20);
  }
  {  // extent-1 axes join any run; a negative stride ends it before it starts
    const index_t sh[] = {1, 5, 1}, sa[] = {99, 7, 1}, sb[] = {0, 0, 0}, sc[] = {3, 2, 1};
    const auto r = sd::cublas_batch_run(3, sh, sa, sb, sc);
    CHECK(r.first == 0);
    CHECK(r.count == 5);
    const index_t na[] = {1, -7, 1};
    const auto s = sd::cublas_batch_run(3, sh, na, sb, sc);
    CHECK(s.first == 2);
    CHECK(s.count == 1);
  }
}

TEST_CASE("cuda matmul: batched calls, broadcast and transposed, equal loops (host)") {
  using test_cuda_matmul::check_batched;
  check_batched({4, 3, 5, 7}, {105, 35, 7, 1}, {7, 2}, {2, 1}, false, 1);          // one run of 12, b stride 0
  check_batched({4, 1, 5, 7}, {35, 35, 7, 1}, {3, 7, 2}, {14, 2, 1}, false, 4);    // outer loop of 4, runs of 3
  check_batched({2, 5, 7}, {35, 1, 5}, {2, 7, 3}, {21, 1, 7}, false, 1);           // transposed operands (OP_T)
  check_batched({3, 5, 7}, {40, 7, 1}, {3, 7, 2}, {14, 2, 1}, false, 1);         // padded batch stride
  check_batched({7}, {1}, {3, 7, 2}, {14, 2, 1}, false, 1);                        // 1-D first operand
  check_batched({3, 5, 7}, {35, 7, 1}, {7}, {1}, false, 1);                        // 1-D second operand
  check_batched({3, 5, 7}, {35, 7, 1}, {3, 7, 4}, {28, 4, 1}, true, 1);            // C column-major: C = A B
  check_batched({2, 3, 5, 7}, {0, 35, 7, 1}, {2, 1, 7, 4}, {28, 0, 4, 1}, false, 2);  // a broadcast outer, b inner
}

TEST_CASE_TEMPLATE("cuda matmul: half and bfloat16 through cublasGemmEx's arguments (host)", T, sinter::half,
                   sinter::bfloat16) {
  using test_cuda_matmul::check_batched;
  check_batched<T>({4, 3, 5, 7}, {105, 35, 7, 1}, {7, 2}, {2, 1}, false, 1);        // strided-batched, b stride 0
  check_batched<T>({4, 1, 5, 7}, {35, 35, 7, 1}, {3, 7, 2}, {14, 2, 1}, false, 4);  // outer loop of 4, runs of 3
  check_batched<T>({2, 5, 7}, {35, 1, 5}, {2, 7, 3}, {21, 1, 7}, false, 1);         // transposed operands (OP_T)
  check_batched<T>({3, 5, 7}, {40, 7, 1}, {3, 7, 2}, {14, 2, 1}, false, 1);         // padded batch stride
  check_batched<T>({7}, {1}, {3, 7, 2}, {14, 2, 1}, false, 1);                      // 1-D first operand
  check_batched<T>({3, 5, 7}, {35, 7, 1}, {3, 7, 4}, {28, 4, 1}, true, 1);          // C column-major: C = A B
  // alpha and beta reach cuBLAS as float (CUBLAS_COMPUTE_32F's scalar type).
  const sinter::detail::cublas_call c{true, true, false, true, 3, 4, 5, 6, 7, 8};
  T buf[1] = {T(0)};
  const auto x = sinter::detail::cublas_ex_of<T>(c, buf, buf, buf, T(2), T(-0.5f), 3, 10, 0, 12);
  CHECK(x.alpha == 2.0f);
  CHECK(x.beta == -0.5f);
  CHECK(x.op_first == CUBLAS_OP_N);
  CHECK(x.op_second == CUBLAS_OP_T);
  CHECK((x.ld_first == 6 && x.ld_second == 7 && x.ldc == 8 && x.count == 3));
  CHECK((x.stride_first == 10 && x.stride_second == 0 && x.stride_out == 12));
  CHECK(x.type_out == (std::is_same_v<T, sinter::half> ? CUDA_R_16F : CUDA_R_16BF));
}

TEST_CASE_TEMPLATE("cuda matmul: c = P, c += P, c -= P, alpha P + beta c, P alpha are one GEMM (host)", T, float,
                   double) {
  const sinter::index_t dims[][3] = {{1, 1, 1}, {3, 7, 5}, {13, 1, 11}, {1, 17, 2}};
  for (const auto& d : dims)
    for (int lay = 0; lay < 8; ++lay) {
      CAPTURE(lay);
      test_cuda_matmul::check_forms<T>(d[0], d[1], d[2], lay & 1, lay & 2, lay & 4);
    }
  test_cuda_matmul::check_forms<T>(257, 129, 63, true, false, true);
  test_cuda_matmul::check_declined<T>();
}

TEST_CASE_TEMPLATE("cuda matmul: the alpha/beta forms of half and bfloat16 (host)", T, sinter::half,
                   sinter::bfloat16) {
  for (int lay = 0; lay < 8; ++lay) test_cuda_matmul::check_forms<T>(13, 7, 11, lay & 1, lay & 2, lay & 4);
  test_cuda_matmul::check_declined<T>();
}

TEST_CASE_TEMPLATE("cuda matmul: (relu of) matmul + bias as one cublasLtMatmul's arguments (host)", T, float,
                   sinter::half, sinter::bfloat16) {
  namespace st = sinter;
  namespace sd = sinter::detail;
  using P = st::product<T, 2, st::cuda>;
  using B = st::view<T, 1, st::cuda>;
  using C = st::view<T, 2, st::cuda>;
#define TEST_LT_P std::declval<const P&>
#define TEST_LT_B std::declval<const B&>
#define TEST_LT_C std::declval<const C&>
#define TEST_LT_KIND(e) sd::lt_epilogue_kind<T, typename std::remove_cvref_t<decltype(e)>::node_type>()
  CHECK(TEST_LT_KIND(TEST_LT_P() + TEST_LT_B()) == 1);
  CHECK(TEST_LT_KIND(TEST_LT_B() + TEST_LT_P()) == 1);
  CHECK(TEST_LT_KIND(st::maximum(TEST_LT_P() + TEST_LT_B(), T(0))) == 2);
  CHECK(TEST_LT_KIND(st::maximum(T(0), TEST_LT_B() + TEST_LT_P())) == 2);
  CHECK(TEST_LT_KIND(TEST_LT_P() + TEST_LT_C()) == 0);                     // a 2-D addend: no bias
  CHECK(TEST_LT_KIND(TEST_LT_P() - TEST_LT_B()) == 0);
  CHECK(TEST_LT_KIND(TEST_LT_P() * TEST_LT_B()) == 0);
  CHECK(TEST_LT_KIND(st::maximum(TEST_LT_P() + TEST_LT_B(), TEST_LT_B())) == 0);
  CHECK(TEST_LT_KIND(st::maximum(TEST_LT_P() * T(2) + TEST_LT_B(), T(0))) == 0);
  CHECK(TEST_LT_KIND(st::minimum(TEST_LT_P() + TEST_LT_B(), T(0))) == 0);
#undef TEST_LT_KIND
#undef TEST_LT_P
#undef TEST_LT_B
#undef TEST_LT_C
  {  // ReLU's scalar must be zero at run time
    std::vector<T> hb(3, T(0));
    const B bias(hb.data(), st::extents<1>{3});
    auto rec = std::make_shared<test_cuda_matmul::recorder<T>>(hb.data(), st::extents<2>{3, 1}, st::extents<2>{1, 1},
                                                               hb.data(), st::extents<2>{1, 3}, st::extents<2>{3, 1});
    const P q(rec);
    bool zero = true;
    CHECK(sd::lt_bias_of<T>(st::maximum(q + bias, T(0)).node(), zero).ptr == hb.data());
    CHECK(zero);
    (void)sd::lt_bias_of<T>(st::maximum(T(1), bias + q).node(), zero);
    CHECK_FALSE(zero);
  }
  for (int lay = 0; lay < 4; ++lay)
    for (int relu = 0; relu < 2; ++relu) {
      test_cuda_matmul::check_lt<T>(1, 1, 1, lay & 1, lay & 2, relu);
      test_cuda_matmul::check_lt<T>(13, 7, 11, lay & 1, lay & 2, relu);
      test_cuda_matmul::check_lt<T>(2, 17, 3, lay & 1, lay & 2, relu);
    }
  if constexpr (std::is_same_v<T, float>) test_cuda_matmul::check_lt<T>(257, 129, 63, true, false, true);
}

TEST_CASE("cuda matmul: errors without a device") {
  namespace st = sinter;
  try {
    st::detail::cublas_check(CUBLAS_STATUS_INVALID_VALUE, "cublasSgemm");
    FAIL("no throw");
  } catch (const st::cuda_error& e) {
    CHECK(std::string(e.what()).find("cublasSgemm: CUBLAS_STATUS_INVALID_VALUE") == 0);
    CHECK(e.code == static_cast<int>(CUBLAS_STATUS_INVALID_VALUE));
  }
  // Shapes are checked before any device call (the pointer is never read).
  const auto* fake = reinterpret_cast<const float*>(std::uintptr_t{256});
  const st::view<const float, 2, st::cuda> a(fake, {3, 4}), b(fake, {5, 2});
  CHECK_THROWS_WITH_AS(st::matmul(a, b), doctest::Contains("not aligned"), st::shape_error);
  if (!st::cuda_available())
    CHECK_THROWS_AS(st::detail::cublas_handle(st::cuda{0}), st::device_error);
}

TEST_CASE("cuda matmul: matmul, matmul_into, dot and tensordot against a triple loop") {
  if (!sinter::cuda_available()) {
    MESSAGE("skipped: no CUDA device");
    return;
  }
  test_cuda_matmul::check_device<float>();
  test_cuda_matmul::check_device<double>();
  test_cuda_matmul::check_device<sinter::half>();
  test_cuda_matmul::check_device<sinter::bfloat16>();
}
