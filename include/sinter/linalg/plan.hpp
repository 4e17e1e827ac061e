#pragma once
/// \file linalg/plan.hpp
/// numpy.matmul's shape rules and the batch loop of linalg.hpp, on run-time
/// ranks (one copy of the code per element type, not per pair of ranks):
/// the result's shape, the broadcast of the batch axes, and one strided GEMM
/// (linalg/blas.hpp) per matrix of the batch.
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "../core/error.hpp"
#include "../core/shape.hpp"
#include "blas.hpp"

namespace sinter::detail {

/// An operand of a product: strided memory of run-time rank.
template <class T>
struct linalg_operand {
  const T* p;
  std::size_t rank;
  const index_t* shape;
  const index_t* strides;
};
/// The output of a product: its memory, shape and strides.
template <class T>
struct linalg_output {
  T* p;
  std::size_t rank;
  const index_t* shape;
  const index_t* strides;
  index_t size() const {
    index_t s = 1;
    for (std::size_t i = 0; i < rank; ++i) s *= shape[i];
    return s;
  }
};

/// "(3, 4)" for a run-time shape.
inline std::string shape_text(std::size_t rank, const index_t* shape) {
  std::string s = "[";
  for (std::size_t i = 0; i < rank; ++i) {
    if (i) s += ',';
    s += std::to_string(shape[i]);
  }
  s += ']';
  return s;
}

/// numpy.matmul's result shape; shape_error naming both shapes when the
/// inner extents differ or the batch axes do not broadcast.
template <class T>
std::vector<index_t> matmul_shape(const linalg_operand<T>& a, const linalg_operand<T>& b) {
  const index_t k_a = a.shape[a.rank - 1], k_b = b.shape[b.rank >= 2 ? b.rank - 2 : 0];
  const auto fail = [&](const std::string& why) {
    throw shape_error("matmul: shapes " + shape_text(a.rank, a.shape) + " and " + shape_text(b.rank, b.shape) +
                      " " + why);
  };
  if (k_a != k_b)
    fail("not aligned: " + std::to_string(k_a) + " (last axis of the first) != " + std::to_string(k_b) +
         " (" + (b.rank >= 2 ? "second-to-last" : "only") + " axis of the second); the inner extents must match");
  const std::size_t ba = a.rank > 2 ? a.rank - 2 : 0, bb = b.rank > 2 ? b.rank - 2 : 0;
  const std::size_t nb = ba > bb ? ba : bb;
  std::vector<index_t> out(nb);
  for (std::size_t i = 0; i < nb; ++i) {
    const index_t ea = i + ba >= nb ? a.shape[i + ba - nb] : 1, eb = i + bb >= nb ? b.shape[i + bb - nb] : 1;
    if (ea != eb && ea != 1 && eb != 1) fail("do not broadcast in their batch axes; batch extents must match or be 1");
    out[i] = ea == 1 ? eb : ea;
  }
  if (a.rank >= 2) out.push_back(a.shape[a.rank - 2]);
  if (b.rank >= 2) out.push_back(b.shape[b.rank - 1]);
  return out;
}

/// The matrix of operand x at batch offset `off`: the last two axes, or a
/// 1-D operand as a row (first operand) or a column (second).
template <class T>
strided_matrix<const T> matrix_at(const linalg_operand<T>& x, bool first, index_t off) {
  if (x.rank == 1)
    return first ? strided_matrix<const T>{x.p + off, 1, x.shape[0], 0, x.strides[0]}
                 : strided_matrix<const T>{x.p + off, x.shape[0], 1, x.strides[0], 0};
  const std::size_t r = x.rank;
  return {x.p + off, x.shape[r - 2], x.shape[r - 1], x.strides[r - 2], x.strides[r - 1]};
}

/// out = alpha * a @ b + beta * out, out of matmul_shape(a, b)'s shape: one
/// GEMM per matrix of the batch. Returns the number of GEMM calls.
template <class T>
index_t run_batched_gemm(const linalg_operand<T>& a, const linalg_operand<T>& b, const linalg_output<T>& out,
                         T alpha, T beta) {
  const std::size_t ba = a.rank > 2 ? a.rank - 2 : 0, bb = b.rank > 2 ? b.rank - 2 : 0;
  const std::size_t nb = ba > bb ? ba : bb;
  // The output's matrix: its axes of m (when a is 2-D or more) and n.
  const index_t m = a.rank >= 2 ? a.shape[a.rank - 2] : 1, n = b.rank >= 2 ? b.shape[b.rank - 1] : 1;
  const std::size_t ro = out.rank;
  const index_t cs0 = a.rank >= 2 ? out.strides[ro - (b.rank >= 2 ? 2 : 1)] : 0;
  const index_t cs1 = b.rank >= 2 ? out.strides[ro - 1] : 0;
  index_t batches = 1;
  for (std::size_t i = 0; i < nb; ++i) batches *= out.shape[i];
  if (batches == 0) return 0;
  std::vector<index_t> idx(nb, 0);
  index_t calls = 0;
  for (index_t c = 0; c < batches; ++c) {
    index_t oa = 0, ob = 0, oc = 0;
    for (std::size_t i = 0; i < nb; ++i) {
      if (i + ba >= nb && a.shape[i + ba - nb] != 1) oa += idx[i] * a.strides[i + ba - nb];
      if (i + bb >= nb && b.shape[i + bb - nb] != 1) ob += idx[i] * b.strides[i + bb - nb];
      oc += idx[i] * out.strides[i];
    }
    gemm_strided<T>(matrix_at(a, true, oa), matrix_at(b, false, ob), strided_matrix<T>{out.p + oc, m, n, cs0, cs1},
                    alpha, beta);
    ++calls;
    for (std::size_t i = nb; i-- > 0;) {  // next batch index, last axis fastest
      if (++idx[i] < out.shape[i]) break;
      idx[i] = 0;
    }
  }
  return calls;
}

/// Rows per block of matmul_epilogue: a block of the product that stays in
/// the last-level cache for its epilogue, yet tall enough that each GEMM
/// call's repacking of the second operand stays a small part of its work
/// (docs/journal/2026-12-05-matmul.md: 1 MB blocks lost that balance).
inline constexpr std::size_t epilogue_block_bytes = std::size_t{4} << 20;
/// Tests set this (bytes, 0: epilogue_block_bytes) to cut small products
/// into several blocks.
inline std::size_t epilogue_block_bytes_override = 0;
inline index_t epilogue_block_rows(index_t m, index_t n, std::size_t elem) {
  const index_t row = n * static_cast<index_t>(elem);
  const std::size_t bytes = epilogue_block_bytes_override ? epilogue_block_bytes_override : epilogue_block_bytes;
  index_t rows = row > 0 ? static_cast<index_t>(bytes) / row : m;
  if (rows < 32) rows = 32;
  return rows < m ? rows : (m > 0 ? m : 1);
}

/// tensordot's axis order of one operand: its free axes then its contracted
/// ones (first operand), or contracted then free (second). value_error for
/// an axis out of range or given twice.
inline std::vector<std::size_t> tensordot_order(std::size_t rank, const index_t* shape, const int* axes,
                                                std::size_t n, bool contracted_last, const char* which) {
  std::vector<bool> taken(rank, false);
  std::vector<std::size_t> contracted;
  for (std::size_t i = 0; i < n; ++i) {
    const long ax = axes[i] < 0 ? axes[i] + static_cast<long>(rank) : axes[i];
    if (ax < 0 || ax >= static_cast<long>(rank) || taken[static_cast<std::size_t>(ax)])
      throw value_error("tensordot: axis " + std::to_string(axes[i]) + " of the " + which + " operand (shape " +
                        shape_text(rank, shape) + ") is out of range or repeated; give distinct axes in range");
    taken[static_cast<std::size_t>(ax)] = true;
    contracted.push_back(static_cast<std::size_t>(ax));
  }
  std::vector<std::size_t> order;
  if (!contracted_last) order = contracted;
  for (std::size_t i = 0; i < rank; ++i)
    if (!taken[i]) order.push_back(i);
  if (contracted_last) order.insert(order.end(), contracted.begin(), contracted.end());
  return order;
}

/// A contiguous pooled copy of strided memory with its axes in `perm` order.
template <class T>
std::shared_ptr<T> permuted_copy(const T* p, std::size_t rank, const index_t* shape, const index_t* strides,
                                 const std::vector<std::size_t>& perm) {
  index_t size = 1;
  for (std::size_t i = 0; i < rank; ++i) size *= shape[i];
  const std::size_t bytes = static_cast<std::size_t>(size > 0 ? size : 1) * sizeof(T);
  std::shared_ptr<T> d(static_cast<T*>(host_allocate(bytes)), [bytes](T* q) { host_deallocate(q, bytes); });
  if (size == 0) return d;
  std::vector<index_t> idx(rank, 0);
  index_t off = 0;
  for (index_t j = 0; j < size; ++j) {
    d.get()[j] = p[off];
    for (std::size_t i = rank; i-- > 0;) {  // next index in perm order
      const std::size_t ax = perm[i];
      off += strides[ax];
      if (++idx[i] < shape[ax]) break;
      off -= strides[ax] * shape[ax];
      idx[i] = 0;
    }
  }
  return d;
}

}  // namespace sinter::detail
