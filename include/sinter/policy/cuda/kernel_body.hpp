#pragma once
/// \file kernel_body.hpp
/// The body of the fused CUDA kernel, as a SINTER_HD function separate from
/// the __global__ shell (launch.hpp): the shell passes its global thread
/// index and the grid's thread count, so the same body also runs on the CPU
/// under the grid emulator (tests/cuda/), tails and misalignment included.
///
/// Three paths, picked at launch from runtime facts (one kernel per
/// expression serves them all, so one instantiation per expression type):
///  - vector:     every operand contiguous and vector aligned: W = 16 /
///                sizeof(out) elements per step, each memory leaf read with
///                one vector access per step (ld.global.v4.f32 for float),
///                a scalar tail for the last n % W elements;
///  - contiguous: every operand contiguous, some pointer misaligned: scalar;
///  - strided:    anything else (broadcast, strided views): the multi-index
///                of each element from its linear index (div/mod per element,
///                cheap next to a global load on a GPU).
/// Grid-stride loops throughout: any grid size is correct.
#include <climits>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "../../core/leaf.hpp"
#include "../../core/map_node.hpp"
#include "../host_loop.hpp"

namespace sinter::detail::cuda_detail {

/// Which loop the kernel runs.
enum class kernel_path : int { vector = 0, contiguous = 1, strided = 2 };

/// Elements per vector step for output type T: 16 bytes' worth (at least 1).
template <class T>
inline constexpr int vector_width_v = sizeof(T) >= 16 ? 1 : static_cast<int>(16 / sizeof(T));

/// Whether every memory leaf of `bound` and the output are aligned for
/// vector_width_v<T>-wide accesses.
template <class T, std::size_t R, class Node>
bool vector_aligned(const memory_leaf<T, R>& out, const Node& bound) {
  constexpr int W = vector_width_v<T>;
  bool ok = reinterpret_cast<std::uintptr_t>(out.ptr) % vector_align_v<T, W> == 0;
  for_each_leaf(bound, [&](const auto& leaf) {
    using L = std::remove_cvref_t<decltype(leaf)>;
    if constexpr (is_memory_leaf<L>::value)
      ok = ok && reinterpret_cast<std::uintptr_t>(leaf.ptr) %
                         vector_align_v<typename L::value_type, W> == 0;
  });
  return ok;
}

/// The path a pass takes.
template <class T, std::size_t R, class Node>
kernel_path choose_path(const memory_leaf<T, R>& out, const Node& bound) {
  if (!(out.unit() && bound.unit())) return kernel_path::strided;
  return vector_aligned(out, bound) ? kernel_path::vector : kernel_path::contiguous;
}

/// Whether a pass over n elements runs with 32-bit indices (the shell's
/// switch): n ≤ INT_MAX = 2^31 - 1. Then every index i < n, and i + nthreads
/// of a grid-stride step (nthreads ≤ SMs × blocks_per_sm × block_size, far
/// below 2^31), fit in std::uint32_t; beyond, the body runs on index_t.
SINTER_HD constexpr bool use_32bit_index(index_t n) { return n <= static_cast<index_t>(INT_MAX); }

/// out = node over [0, n) for one thread of a grid of `nthreads` threads.
/// I is the index type: 32-bit when n allows, 64-bit beyond 2^31 elements.
template <class I, class T, std::size_t R, class Node>
SINTER_HD void fused_body(const memory_leaf<T, R>& out, const Node& node, I n, kernel_path path,
                          I tid, I nthreads) {
  if (path == kernel_path::strided) {
    if constexpr (R >= 1) {
      const I inner = static_cast<I>(out.shape[R - 1]);
      for (I i = tid; i < n; i += nthreads) {
        extents<R> idx{};
        I r = i / inner;
        const I j = i - r * inner;
        for (std::size_t d = R - 1; d-- > 0;) {
          const I e = static_cast<I>(out.shape[d]);
          const I q = r / e;
          idx[d] = static_cast<index_t>(r - q * e);
          r = q;
        }
        const auto c = node.row(idx);
        out.ptr[row_offset(idx, out.strides) + static_cast<index_t>(j) * out.strides[R - 1]] =
            convert<T>(c.load(static_cast<index_t>(j)));
      }
      return;
    }
  }
  const auto c = node.linear();
  I start = 0;
  if (path == kernel_path::vector) {
    constexpr int W = vector_width_v<T>;
    const I nv = n / W;
    for (I v = tid; v < nv; v += nthreads) {
      const index_t i = static_cast<index_t>(v) * W;
      const auto x = c.template load_n<W>(i);
      lanes<T, W> y;
      for (int k = 0; k < W; ++k) y.v[k] = convert<T>(x.v[k]);
      store_chunk<W>(out.ptr + i, y);
    }
    start = nv * W;
  }
  for (I i = start + tid; i < n; i += nthreads)
    out.ptr[i] = convert<T>(c.load(static_cast<index_t>(i)));
}

}  // namespace sinter::detail::cuda_detail
