#pragma once
/// \file linalg/blas.hpp
/// The host GEMM of linalg.hpp: one strided matrix product on CBLAS
/// (cblas_sgemm / cblas_dgemm). An operand whose rows or columns are
/// contiguous is passed as it lies (a transpose and a leading dimension);
/// any other layout is copied first. half and bfloat16: blocks widened to
/// float, one cblas_sgemm per block, rounded back once (linalg/half_blocks.hpp). Needs SINTER_HAS_BLAS, which the CMake
/// target sinter::blas defines with the library to link; without it a use
/// fails to compile with one message naming that target.
#include <algorithm>
#include <cstddef>
#include <limits>
#include <memory>
#include <string>
#include <type_traits>

#include "../config.hpp"
#include "../core/error.hpp"
#include "../core/half.hpp"
#include "../core/shape.hpp"
#include "../policy/host_memory.hpp"
#include "half_blocks.hpp"

#if defined(SINTER_HAS_BLAS)
#include <cblas.h>
#if defined(SINTER_BLAS_OPENBLAS_THREADS)
// Declared here, not taken from cblas.h: only OpenBLAS's copy declares it.
extern "C" void openblas_set_num_threads(int);
#endif
#endif

namespace sinter::detail {

/// Whether sinter was given a CBLAS (the CMake target sinter::blas).
#if defined(SINTER_HAS_BLAS)
inline constexpr bool blas_linked = true;
#else
inline constexpr bool blas_linked = false;
#endif
/// blas_linked, dependent on T: the static_assert fires only where used.
template <class T>
inline constexpr bool blas_linked_for = blas_linked && sizeof(T) > 0;

/// A strided matrix: rows x cols elements, element (i, j) at p[i*s0 + j*s1].
template <class T>
struct strided_matrix {
  T* p;
  index_t rows, cols, s0, s1;
};

/// How BLAS can read a matrix in place: transposed or not, and its leading
/// dimension; ok is false when neither fits (the matrix is then copied).
struct blas_form {
  bool ok, trans;
  index_t ld;
};
template <class T>
blas_form blas_form_of(const strided_matrix<T>& m) {
  // The stride of an axis of extent 1 is free: it is never multiplied.
  const bool unit_cols = m.cols <= 1 || m.s1 == 1, unit_rows = m.rows <= 1 || m.s0 == 1;
  if (unit_cols && (m.rows <= 1 || m.s0 >= std::max<index_t>(1, m.cols)))
    return {true, false, m.rows <= 1 ? std::max<index_t>(1, m.cols) : m.s0};
  if (unit_rows && (m.cols <= 1 || m.s1 >= std::max<index_t>(1, m.rows)))
    return {true, true, m.cols <= 1 ? std::max<index_t>(1, m.rows) : m.s1};
  return {false, false, 0};
}

/// Sets the BLAS's thread count before a call (OpenBLAS: detected at
/// configure time; other BLAS libraries keep their own setting).
inline void blas_set_threads([[maybe_unused]] int n) {
#if defined(SINTER_HAS_BLAS) && defined(SINTER_BLAS_OPENBLAS_THREADS)
  static thread_local int last = -1;
  if (n != last) {
    openblas_set_num_threads(n);
    last = n;
  }
#endif
}

/// BLAS takes 32-bit sizes (LP64 builds).
inline int blas_int(index_t v) {
  if (v > std::numeric_limits<int>::max())
    throw value_error("matmul: extent " + std::to_string(v) +
                      " exceeds the BLAS's 32-bit sizes; split the product");
  return static_cast<int>(v);
}

/// C = alpha * op(A) op(B) + beta * C, all row-major as given (C's rows
/// contiguous with leading dimension ldc).
template <class T>
void blas_gemm([[maybe_unused]] bool ta, [[maybe_unused]] bool tb, [[maybe_unused]] index_t m,
               [[maybe_unused]] index_t n, [[maybe_unused]] index_t k, [[maybe_unused]] T alpha,
               [[maybe_unused]] const T* a, [[maybe_unused]] index_t lda, [[maybe_unused]] const T* b,
               [[maybe_unused]] index_t ldb, [[maybe_unused]] T beta, [[maybe_unused]] T* c,
               [[maybe_unused]] index_t ldc) {
  static_assert(blas_linked_for<T>,
                "sinter: matmul needs a BLAS; link the CMake target sinter::blas "
                "(it defines SINTER_HAS_BLAS and links a CBLAS such as OpenBLAS)");
#if defined(SINTER_HAS_BLAS)
  const auto t = [](bool x) { return x ? CblasTrans : CblasNoTrans; };
  if constexpr (std::is_same_v<T, float>)
    cblas_sgemm(CblasRowMajor, t(ta), t(tb), blas_int(m), blas_int(n), blas_int(k), alpha, a, blas_int(lda), b,
                blas_int(ldb), beta, c, blas_int(ldc));
  else
    cblas_dgemm(CblasRowMajor, t(ta), t(tb), blas_int(m), blas_int(n), blas_int(k), alpha, a, blas_int(lda), b,
                blas_int(ldb), beta, c, blas_int(ldc));
#endif
}

/// A contiguous host buffer from sinter's host pool (a copied operand).
template <class T>
struct pooled_matrix {
  std::shared_ptr<T> data;
  strided_matrix<const T> view;
};
template <class T>
pooled_matrix<T> pooled_copy(const strided_matrix<const T>& m) {
  const std::size_t bytes = static_cast<std::size_t>(std::max<index_t>(1, m.rows * m.cols)) * sizeof(T);
  std::shared_ptr<T> d(static_cast<T*>(host_allocate(bytes)), [bytes](T* q) { host_deallocate(q, bytes); });
  for (index_t i = 0; i < m.rows; ++i)
    for (index_t j = 0; j < m.cols; ++j) d.get()[i * m.cols + j] = m.p[i * m.s0 + j * m.s1];
  return {d, {d.get(), m.rows, m.cols, m.cols, 1}};
}

/// gemm_strided for float and double: one BLAS call.
template <class T>
void gemm_strided_blas(strided_matrix<const T> a, strided_matrix<const T> b, strided_matrix<T> c, T alpha, T beta) {
  const index_t m = c.rows, n = c.cols, k = a.cols;
  if (k == 0) {  // no products: BLAS may skip the beta scaling
    for (index_t i = 0; i < m; ++i)
      for (index_t j = 0; j < n; ++j) {
        T& v = c.p[i * c.s0 + j * c.s1];
        v = beta == T(0) ? T(0) : beta * v;
      }
    return;
  }
  pooled_matrix<T> ca, cb;
  blas_form fa = blas_form_of(a), fb = blas_form_of(b);
  if (!fa.ok) ca = pooled_copy(a), a = ca.view, fa = blas_form_of(a);
  if (!fb.ok) cb = pooled_copy(b), b = cb.view, fb = blas_form_of(b);
  const strided_matrix<T> ct{c.p, n, m, c.s1, c.s0};
  const blas_form fc = blas_form_of(c), fct = blas_form_of(ct);
  if (fc.ok && !fc.trans) {
    blas_gemm<T>(fa.trans, fb.trans, m, n, k, alpha, a.p, fa.ld, b.p, fb.ld, beta, c.p, fc.ld);
  } else if (fct.ok && !fct.trans) {
    blas_gemm<T>(!fb.trans, !fa.trans, n, m, k, alpha, b.p, fb.ld, a.p, fa.ld, beta, c.p, fct.ld);
  } else {  // C neither row- nor column-contiguous: through a buffer
    pooled_matrix<T> tmp = pooled_copy(strided_matrix<const T>{c.p, m, n, c.s0, c.s1});
    T* t = tmp.data.get();
    blas_gemm<T>(fa.trans, fb.trans, m, n, k, alpha, a.p, fa.ld, b.p, fb.ld, beta, t, n);
    for (index_t i = 0; i < m; ++i)
      for (index_t j = 0; j < n; ++j) c.p[i * c.s0 + j * c.s1] = t[i * n + j];
  }
}

/// C = alpha * A B + beta * C for strided A (m x k), B (k x n), C (m x n):
/// one GEMM, the operands read in place where BLAS can, C written in place
/// where its rows or columns are contiguous (columns: C^T = B^T A^T).
/// half and bfloat16: half_gemm_blocks on cblas_sgemm.
template <class T>
void gemm_strided(strided_matrix<const T> a, strided_matrix<const T> b, strided_matrix<T> c, T alpha, T beta) {
  const index_t m = c.rows, n = c.cols, k = a.cols;
  if (m == 0 || n == 0) return;
  if constexpr (is_half_like_v<T>)
    half_gemm_blocks<T>(a.p, a.s0, a.s1, b.p, b.s0, b.s1, c.p, c.s0, c.s1, m, n, k, static_cast<float>(alpha),
                        static_cast<float>(beta),
                        [](const float* pa, const float* pb, float* pc, index_t r, index_t nn, index_t kk, float al,
                           float be) {
                          gemm_strided_blas<float>({pa, r, kk, kk, 1}, {pb, kk, nn, nn, 1}, {pc, r, nn, nn, 1}, al, be);
                        });
  else
    gemm_strided_blas<T>(a, b, c, alpha, beta);
}

}  // namespace sinter::detail
