#pragma once
/// \file linalg/half_blocks.hpp
/// The host GEMM of half and bfloat16 operands (linalg/blas.hpp): the
/// second operand widened to float once, the first operand and the output
/// by blocks of rows, one float GEMM per block (so the sum over k is
/// accumulated in float), and each output element rounded back once, to
/// nearest even. The float GEMM is a callable: blas.hpp passes cblas_sgemm's
/// strided form, the tests a loop.
#include <cstddef>

#include "../core/half.hpp"
#include "../core/shape.hpp"
#include "../policy/host_memory.hpp"

namespace sinter::detail {

/// A float buffer from sinter's host pool, given back when destroyed.
struct half_float_buffer {
  float* p;
  std::size_t bytes;
  explicit half_float_buffer(index_t n)
      : p(nullptr), bytes(static_cast<std::size_t>(n > 0 ? n : 1) * sizeof(float)) {
    p = static_cast<float*>(host_allocate(bytes));
  }
  half_float_buffer(const half_float_buffer&) = delete;
  half_float_buffer& operator=(const half_float_buffer&) = delete;
  ~half_float_buffer() { host_deallocate(p, bytes); }
};

/// dst (rows x cols, row-major) = float(x(i, j)), x(i, j) at p[i*s0 + j*s1]
/// (exact: every half and bfloat16 is a float).
template <class T>
void half_widen(const T* p, index_t rows, index_t cols, index_t s0, index_t s1, float* dst) {
  for (index_t i = 0; i < rows; ++i) {
    const T* r = p + i * s0;
    float* d = dst + i * cols;
    if (s1 == 1)  // the common case, a loop the compiler vectorises (also at -O2)
      to_float_n(r, cols, d);
    else
      for (index_t j = 0; j < cols; ++j) d[j] = static_cast<float>(r[j * s1]);
  }
}

/// x(i, j) = T(src(i, j)), rounded to nearest even; src row-major rows x cols.
template <class T>
void half_narrow(const float* src, index_t rows, index_t cols, T* p, index_t s0, index_t s1) {
  for (index_t i = 0; i < rows; ++i) {
    T* r = p + i * s0;
    const float* s = src + i * cols;
    if (s1 == 1)
      from_float_n(s, cols, r);
    else
      for (index_t j = 0; j < cols; ++j) r[j * s1] = T(s[j]);
  }
}

/// Bytes of one block (its rows of the first operand and of the output, in
/// float): large enough that each GEMM call's repacking of the widened
/// second operand stays a small part of its work.
inline constexpr std::size_t half_block_bytes = std::size_t{4} << 20;
/// Tests set this (bytes; 0: half_block_bytes) to cut small products into blocks.
inline std::size_t half_block_bytes_override = 0;
/// Rows of the first operand per block for an m x k by k x n product.
inline index_t half_block_rows(index_t m, index_t n, index_t k) {
  const std::size_t bytes = half_block_bytes_override ? half_block_bytes_override : half_block_bytes;
  const index_t row = (n + k) * static_cast<index_t>(sizeof(float));
  index_t rows = row > 0 ? static_cast<index_t>(bytes) / row : m;
  if (rows < 1) rows = 1;
  return rows < m ? rows : (m > 0 ? m : 1);
}

/// C = alpha A B + beta C for T half or bfloat16, A m x k at a[i*as0 + l*as1],
/// B k x n at b[l*bs0 + j*bs1], C m x n at c[i*cs0 + j*cs1]. sgemm(a, b, c,
/// rows, n, k, alpha, beta) is a float GEMM on row-major contiguous blocks
/// (c = alpha a b + beta c). C must not overlap A or B (linalg.hpp copies).
template <class T, class Sgemm>
void half_gemm_blocks(const T* a, index_t as0, index_t as1, const T* b, index_t bs0, index_t bs1, T* c, index_t cs0,
                      index_t cs1, index_t m, index_t n, index_t k, float alpha, float beta, Sgemm&& sgemm) {
  static_assert(is_half_like_v<T>, "half_gemm_blocks: half or bfloat16 only");
  if (m == 0 || n == 0) return;
  half_float_buffer wb(k * n);
  half_widen(b, k, n, bs0, bs1, wb.p);
  const index_t rows = half_block_rows(m, n, k);
  half_float_buffer wa(rows * k), wc(rows * n);
  for (index_t r0 = 0; r0 < m; r0 += rows) {
    const index_t r = r0 + rows < m ? rows : m - r0;
    half_widen(a + r0 * as0, r, k, as0, as1, wa.p);
    if (beta != 0.0f) half_widen(c + r0 * cs0, r, n, cs0, cs1, wc.p);
    sgemm(static_cast<const float*>(wa.p), static_cast<const float*>(wb.p), wc.p, r, n, k, alpha, beta);
    half_narrow(wc.p, r, n, c + r0 * cs0, cs0, cs1);
  }
}

}  // namespace sinter::detail
