// Host stand-ins of test_cuda_matmul.cu (its only includer): cuBLAS's
// GEMM, cublasGemmEx and cublasLtMatmul's bias epilogue emulated on host
// memory, a recording product_core behind cuda views of host memory, and
// the checks of cuda's alpha/beta forms and cuBLASLt arguments that use them.
#pragma once
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <random>
#include <sinter/linalg.hpp>
#include <string>
#include <vector>

namespace test_cuda_matmul {
namespace st = sinter;
namespace sd = sinter::detail;
using st::index_t;


/// cuBLAS's GEMM on the host: column-major C = alpha op(F) op(S) + beta C.
template <class T>
void emulate(const sd::cublas_call& c, const T* f, const T* s, T* out, T alpha, T beta) {
  for (index_t i = 0; i < c.m; ++i)
    for (index_t j = 0; j < c.n; ++j) {
      double acc = 0;
      for (index_t l = 0; l < c.k; ++l) {
        const double x = c.trans_first ? f[l + i * c.ld_first] : f[i + l * c.ld_first];
        const double y = c.trans_second ? s[j + l * c.ld_second] : s[l + j * c.ld_second];
        acc += x * y;
      }
      T& o = out[i + j * c.ldc];
      o = static_cast<T>(alpha * acc + (beta == T(0) ? 0.0 : beta * double(o)));
    }
}

/// cublasGemmEx / cublasGemmStridedBatchedEx on the host: the memory read
/// as the types x names (T must match), column-major, summed in double.
template <class T>
void emulate_ex(const sd::cublas_ex_args& x) {
  REQUIRE(x.type_first == sd::cublas_data_type<T>);
  REQUIRE(x.type_second == x.type_first);
  REQUIRE(x.type_out == x.type_first);
  REQUIRE(x.compute == CUBLAS_COMPUTE_32F);
  const sd::cublas_call c{true, false, x.op_first == CUBLAS_OP_T, x.op_second == CUBLAS_OP_T, x.m, x.n, x.k,
                          x.ld_first, x.ld_second, x.ldc};
  for (int q = 0; q < x.count; ++q)
    emulate<T>(c, static_cast<const T*>(x.first) + q * x.stride_first,
               static_cast<const T*>(x.second) + q * x.stride_second, static_cast<T*>(x.out) + q * x.stride_out,
               T(x.alpha), T(x.beta));
}

/// A pending cuda product over host memory (no device): each gemm records
/// its alpha, beta, output and cuBLAS calls and runs them through `emulate`
/// (half, bfloat16: through cublas_ex_of's arguments). Anything that binds
/// the leaf would allocate device memory and throw without a device.
template <class T>
struct recorder final : sd::product_core<T, 2, st::cuda> {
  const T *pa, *pb;
  st::extents<2> sha, sta, shb, stb;
  mutable int calls = 0;
  mutable T alpha{}, beta{};
  mutable const T* out = nullptr;
  mutable std::string name;
  mutable std::vector<sd::cublas_call> seen;
  recorder(const T* a, st::extents<2> ash, st::extents<2> ast, const T* b, st::extents<2> bsh, st::extents<2> bst)
      : pa(a), pb(b), sha(ash), sta(ast), shb(bsh), stb(bst) {
    this->shape = {ash[0], bsh[1]};
  }
  void gemm(const sd::linalg_output<T>& o, T al, T be, const char* nm) const override {
    ++calls, alpha = al, beta = be, out = o.p, name = nm;
    const sd::linalg_operand<T> a{pa, 2, sha.data(), sta.data()}, b{pb, 2, shb.data(), stb.data()};
    sd::cublas_batched<T>(a, b, o, [&](const sd::cublas_call& c, const T* f, const T* x, T* r, index_t count,
                                       index_t sf, index_t sx, index_t so) {
      seen.push_back(c);
      if constexpr (st::is_half_like_v<T>)
        emulate_ex<T>(sd::cublas_ex_of<T>(c, f, x, r, al, be, count, sf, sx, so));
      else
        for (index_t q = 0; q < count; ++q) emulate<T>(c, f + q * sf, x + q * sx, r + q * so, al, be);
    });
  }
  void gemm_rows(index_t, index_t, T*) const override { FAIL("gemm_rows on cuda"); }
  bool matrices() const override { return true; }
  bool reads(const T* p, const st::extents<2>& sh, const st::extents<2>& s) const override {
    return sd::linalg_overlap(p, sh, s, pa, sha, sta) || sd::linalg_overlap(p, sh, s, pb, shb, stb);
  }
};

/// A rows x cols matrix of random values in buf: row-major with padded rows
/// (ld cols + 2), or column-major with padded columns (a transposed view).
template <class T>
st::view<T, 2, st::cuda> host_matrix(std::vector<T>& buf, index_t rows, index_t cols, bool columns,
                                     std::mt19937& gen) {
  std::uniform_real_distribution<double> dist(-1, 1);
  buf.assign(static_cast<std::size_t>((rows + 2) * (cols + 2)), T(0));
  for (auto& v : buf) v = static_cast<T>(dist(gen));
  const st::extents<2> sh{rows, cols}, s = columns ? st::extents<2>{1, rows + 2} : st::extents<2>{cols + 2, 1};
  return st::view<T, 2, st::cuda>(buf.data(), sh, s);
}

/// Element (i, j) of a cuda view of host memory.
template <class T>
double at(const st::view<T, 2, st::cuda>& v, index_t i, index_t j) {
  return double(v.data()[i * v.strides()[0] + j * v.strides()[1]]);
}

/// Each alpha/beta form on a cuda view of host memory: one gemm with the
/// form's alpha and beta into c itself, values against a double loop.
template <class T>
void check_forms(index_t m, index_t k, index_t n, bool ta, bool tb, bool tc) {
  std::mt19937 gen(static_cast<unsigned>(m * 131 + k * 7 + n + 1000 * ta + 2000 * tb + 4000 * tc));
  std::vector<T> ba, bb, bc;
  const auto a = host_matrix(ba, m, k, ta, gen), b = host_matrix(bb, k, n, tb, gen);
  auto c = host_matrix(bc, m, n, tc, gen);
  const double tol = st::is_half_like_v<T> ? 1e-2 : sizeof(T) == 4 ? 1e-5 : 1e-12;
  std::vector<double> ab;  // a @ b, a double triple loop
  for (index_t i = 0; i < m; ++i)
    for (index_t j = 0; j < n; ++j) {
      double acc = 0;
      for (index_t l = 0; l < k; ++l) acc += at(a, i, l) * at(b, l, j);
      ab.push_back(acc);
    }
  for (int form = 0; form < 6; ++form) {
    CAPTURE(form);
    auto rec = std::make_shared<recorder<T>>(a.data(), a.shape(), a.strides(), b.data(), b.shape(), b.strides());
    const st::product<T, 2, st::cuda> p(rec);
    std::vector<double> c0;
    for (index_t i = 0; i < m; ++i)
      for (index_t j = 0; j < n; ++j) c0.push_back(at(c, i, j));
    const double al[] = {1, 1, -1, 2, 3, -3}, be[] = {0, 1, 1, 0.5, 0, 0.25};
    if (form == 0) c = p;
    if (form == 1) c += p;
    if (form == 2) c -= p;
    if (form == 3) c = T(2) * p + T(0.5) * c;
    if (form == 4) c = p * T(3);
    if (form == 5) c = T(0.25) * c - p * T(3);
    CHECK(rec->calls == 1);
    CHECK(double(rec->alpha) == al[form]);
    CHECK(double(rec->beta) == be[form]);
    CHECK(rec->out == c.data());
    CHECK(rec->name == (be[form] != 0 ? "matmul_into" : "matmul"));  // a C term: matmul_into
    REQUIRE(rec->seen.size() == 1);
    const sd::cublas_call& call = rec->seen[0];
    // C row-contiguous: C^T = B^T A^T (B first; a row-major operand is read
    // as its column-major transpose, CUBLAS_OP_N); column-contiguous: C = A B.
    // (An extent of 1 frees a stride: either reading is right there.)
    if (m > 1 && k > 1 && n > 1) {
      CHECK(call.swapped == !tc);
      CHECK(call.trans_first == (tc ? !ta : tb));
      CHECK(call.trans_second == (tc ? !tb : ta));
      CHECK(call.ld_first == (tc ? (ta ? m : k) : (tb ? k : n)) + 2);
      CHECK(call.ld_second == (tc ? (tb ? k : n) : (ta ? m : k)) + 2);
      CHECK(call.ldc == (tc ? m : n) + 2);
    }
    for (index_t i = 0; i < m; ++i)
      for (index_t j = 0; j < n; ++j) {
        const std::size_t ij = static_cast<std::size_t>(i * n + j);
        const double want = al[form] * ab[ij] + be[form] * c0[ij];
        CHECK(std::abs(at(c, i, j) - want) <= tol * double(k + 1));
      }
  }
}

/// Trees that are no alpha/beta form: the cuda hook declines, no gemm runs.
template <class T>
void check_declined() {
  std::mt19937 gen(3);
  std::vector<T> ba, bb, bc, bd;
  const auto a = host_matrix(ba, 5, 3, false, gen), b = host_matrix(bb, 3, 4, false, gen);
  const auto c = host_matrix(bc, 5, 4, false, gen), d = host_matrix(bd, 5, 4, false, gen);
  auto rec = std::make_shared<recorder<T>>(a.data(), a.shape(), a.strides(), b.data(), b.shape(), b.strides());
  const st::product<T, 2, st::cuda> p(rec);
  const st::view<T, 1, st::cuda> bias(bd.data(), st::extents<1>{4});
  const st::cuda pol{};
  CHECK_FALSE(sd::assign_product(pol, c.leaf(), st::maximum(p + bias, T(0))));  // relu(P + b): product, then kernel
  CHECK_FALSE(sd::assign_product(pol, c.leaf(), p + d));                        // C is not the output
  CHECK_FALSE(sd::assign_product(pol, c.leaf(), p + bias));                     // a 1-D bias is no C
  CHECK_FALSE(sd::assign_product(pol, c.leaf(), T(2) * p - bias));
  CHECK_FALSE(sd::assign_product(pol, c.leaf(), p * p));
  const st::view<T, 2, st::cuda> over(ba.data(), st::extents<2>{5, 3}), bt(bb.data(), st::extents<2>{3, 3});
  auto rec2 = std::make_shared<recorder<T>>(ba.data(), st::extents<2>{5, 3}, st::extents<2>{5, 1}, bb.data(),
                                            st::extents<2>{3, 3}, st::extents<2>{5, 1});
  const st::product<T, 2, st::cuda> q(rec2);
  CHECK_FALSE(sd::assign_product(pol, over.leaf(), q + over));  // out is an operand
  CHECK(rec->calls == 0);
  CHECK(rec2->calls == 0);
  CHECK(sd::assign_product(pol, c.leaf(), p - c));
  CHECK(rec->calls == 1);
}

/// cublasLtMatmul with a bias epilogue on the host: D = act(op(F) op(S) + bias[row]).
template <class T>
void emulate_lt(const sd::cublas_lt_args& x, const T* f, const T* s, T* out) {
  REQUIRE(x.ok);
  const sd::cublas_call c{true, true, x.trans_first, x.trans_second, x.m, x.n, x.k, x.ld_first, x.ld_second, x.ldc};
  emulate<T>(c, f, s, out, T(1), T(0));
  const T* bias = static_cast<const T*>(x.bias);
  for (index_t j = 0; j < c.n; ++j)
    for (index_t i = 0; i < c.m; ++i) {
      T& o = out[i + j * c.ldc];
      const double v = double(o) + double(bias[i]);
      o = static_cast<T>(x.epilogue == int(CUBLASLT_EPILOGUE_RELU_BIAS) ? std::max(v, 0.0) : v);
    }
}

/// cublas_lt_of for out (row-major, padded) = act(a @ b + bias), a and b
/// row- or column-major, emulated against a double loop.
template <class T>
void check_lt(index_t m, index_t k, index_t n, bool ta, bool tb, bool relu) {
  std::mt19937 gen(static_cast<unsigned>(m + 7 * k + 31 * n + 100 * ta + 200 * tb + 400 * relu));
  std::vector<T> ba, bb, bc, bbias;
  const auto a = host_matrix(ba, m, k, ta, gen), b = host_matrix(bb, k, n, tb, gen);
  auto c = host_matrix(bc, m, n, false, gen);
  const auto bias = host_matrix(bbias, 1, n, false, gen);
  const sd::strided_matrix<const T> ma{a.data(), m, k, a.strides()[0], a.strides()[1]};
  const sd::strided_matrix<const T> mb{b.data(), k, n, b.strides()[0], b.strides()[1]};
  const sd::cublas_lt_args x =
      sd::cublas_lt_of(ma, mb, sd::strided_matrix<T>{c.data(), m, n, n + 2, 1}, bias.data(), relu);
  CHECK(x.ok);
  CHECK(x.epilogue == int(relu ? CUBLASLT_EPILOGUE_RELU_BIAS : CUBLASLT_EPILOGUE_BIAS));
  CHECK(x.bias == static_cast<const void*>(bias.data()));
  CHECK((x.m == n && x.n == m && x.k == k));  // C^T = B^T A^T: bias along cuBLAS's rows
  if (m > 1 && k > 1 && n > 1) {
    CHECK(x.ldc == n + 2);
    CHECK(x.trans_first == tb);
    CHECK(x.trans_second == ta);
    CHECK(x.ld_first == (tb ? k : n) + 2);
    CHECK(x.ld_second == (ta ? m : k) + 2);
  }
  emulate_lt<T>(x, b.data(), a.data(), c.data());
  const double tol = st::is_half_like_v<T> ? 1e-2 : 1e-5;
  for (index_t i = 0; i < m; ++i)
    for (index_t j = 0; j < n; ++j) {
      double want = at(bias, 0, j);
      for (index_t l = 0; l < k; ++l) want += at(a, i, l) * at(b, l, j);
      if (relu) want = std::max(want, 0.0);
      CHECK(std::abs(at(c, i, j) - want) <= tol * double(k + 2));
    }
  // A column-major output has its bias along cuBLAS's columns: not this call.
  if (m > 1 && n > 1)
    CHECK_FALSE(sd::cublas_lt_of(ma, mb, sd::strided_matrix<T>{c.data(), m, n, 1, m + 2}, bias.data(), relu).ok);
}

}  // namespace test_cuda_matmul
