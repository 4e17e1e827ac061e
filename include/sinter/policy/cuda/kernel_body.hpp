#pragma once
/// \file kernel_body.hpp
/// The body of the fused CUDA kernel, as a SINTER_HD function separate from
/// the __global__ shell (launch.hpp): the shell passes its global thread
/// index and the grid's thread count, so the same body also runs on the CPU
/// under the grid emulator (tests/policy/test_cuda_kernel_body.cpp), heads,
/// tails and misalignment included.
///
/// Three paths, picked at launch from runtime facts (one kernel per
/// expression type serves them all, so one instantiation per expression):
///  - vector:     every operand contiguous, and one head of h < W elements
///                (W = 16 / sizeof(out)) after which every pointer is vector
///                aligned (h = 0 for sinter's own allocations; views sharing
///                one element offset get h = W - offset): each memory leaf is
///                read with one vector access per W elements (ld.global.v4.f32
///                for float) over [h, h + nv W), and the head [0, h) and the
///                tail [h + nv W, n) run as one scalar loop; when a leaf
///                views the same elements as an earlier leaf of its type (an
///                array used twice), the launch runs the dedup kernel, whose
///                vector loop loads it once (leaf_dedup.hpp);
///  - contiguous: every operand contiguous, but no head aligns every pointer
///                (different offsets, or an address not a multiple of the
///                element size): the whole pass is that scalar loop;
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
#include "leaf_dedup.hpp"

namespace sinter::detail::cuda_detail {

/// Which loop the kernel runs.
enum class kernel_path : int { vector = 0, contiguous = 1, strided = 2 };

/// Elements per vector step for output type T: 16 bytes' worth (at least 1).
template <class T>
inline constexpr int vector_width_v = sizeof(T) >= 16 ? 1 : static_cast<int>(16 / sizeof(T));

/// Whether the output and every memory leaf of `bound`, each advanced by
/// `head` elements, are aligned for vector_width_v<T>-wide accesses.
template <class T, std::size_t R, class Node>
bool vector_aligned(const memory_leaf<T, R>& out, const Node& bound, int head = 0) {
  constexpr int W = vector_width_v<T>;
  const auto h = static_cast<std::uintptr_t>(head);
  bool ok = (reinterpret_cast<std::uintptr_t>(out.ptr) + h * sizeof(T)) % vector_align_v<T, W> == 0;
  for_each_leaf(bound, [&](const auto& leaf) {
    using L = std::remove_cvref_t<decltype(leaf)>;
    if constexpr (is_memory_leaf<L>::value) {
      using V = typename L::value_type;
      ok = ok && (reinterpret_cast<std::uintptr_t>(leaf.ptr) + h * sizeof(V)) % vector_align_v<V, W> == 0;
    }
  });
  return ok;
}

/// What a pass runs: the path, and on the vector path the number of leading
/// elements done by the scalar loop so that the vector loop starts aligned.
struct kernel_plan {
  kernel_path path;
  int head;
};

/// The plan of a pass: strided unless every operand is contiguous; then the
/// head h in [0, W) that aligns the output (none if its address is not a
/// multiple of sizeof(T)), vector if that h aligns every memory leaf too,
/// else contiguous (all scalar). Independent of n: a pass shorter than
/// h + W runs no vector step.
template <class T, std::size_t R, class Node>
kernel_plan choose_plan(const memory_leaf<T, R>& out, const Node& bound) {
  if (!(out.unit() && bound.unit())) return {kernel_path::strided, 0};
  constexpr int W = vector_width_v<T>;
  for (int h = 0; h < W; ++h)
    if ((reinterpret_cast<std::uintptr_t>(out.ptr) + static_cast<std::uintptr_t>(h) * sizeof(T)) %
            vector_align_v<T, W> == 0)
      return vector_aligned(out, bound, h) ? kernel_plan{kernel_path::vector, h}
                                           : kernel_plan{kernel_path::contiguous, 0};
  return {kernel_path::contiguous, 0};
}

/// The path of choose_plan, without the head.
template <class T, std::size_t R, class Node>
kernel_path choose_path(const memory_leaf<T, R>& out, const Node& bound) {
  return choose_plan(out, bound).path;
}

/// Whether a pass over n elements runs with 32-bit indices (the shell's
/// switch): n ≤ INT_MAX = 2^31 - 1. Then every index i < n, and i + nthreads
/// of a grid-stride step (nthreads ≤ SMs × blocks_per_sm × block_size, far
/// below 2^31), fit in std::uint32_t; beyond, the body runs on index_t.
SINTER_HD constexpr bool use_32bit_index(index_t n) { return n <= static_cast<index_t>(INT_MAX); }

/// Whether a pass runs the dedup kernel (launch.hpp): on the vector path,
/// when some memory leaf repeats an earlier one (find_leaf_sources), which
/// only an expression type with two leaves of one type (has_twins_v) allows.
template <class Node>
bool use_dedup_kernel(const kernel_plan& plan, const leaf_sources<memory_leaf_count_v<Node>>& sources) {
  if constexpr (has_twins_v<Node>) return plan.path == kernel_path::vector && sources.repeats() > 0;
  else return ((void)plan, (void)sources, false);
}

/// out = node over [0, n) for one thread of a grid of `nthreads` threads.
/// I is the index type: 32-bit when n allows, 64-bit beyond 2^31 elements.
/// `head` (choose_plan; vector path only, else ignored) is where the vector
/// loop starts: it covers [head, head + nv W), and one scalar loop covers
/// both the head [0, head) and the tail [head + nv W, n) (one loop, not two:
/// fewer registers and a smaller kernel). With Dedup (the dedup kernel), the
/// vector loop loads a memory leaf only if `sources` (find_leaf_sources)
/// names it its own source, else takes its source's chunk; without, every
/// leaf loads and `sources` is not read. Probe (no_probe in the kernels)
/// sees every vector load of a leaf: the grid emulator test counts them.
template <class I, bool Dedup = false, class Probe = no_probe, class T, std::size_t R, class Node>
SINTER_HD void fused_body(const memory_leaf<T, R>& out, const Node& node,
                          const leaf_sources<memory_leaf_count_v<Node>>& sources, I n, kernel_path path, I head,
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
  I skip = 0;  // elements done by the vector loop: nv W
  if (path == kernel_path::vector) {
    constexpr int W = vector_width_v<T>;
    const I nv = n > head ? (n - head) / W : I{0};
    const auto cs = leaf_walk<std::remove_cvref_t<decltype(c)>>::cursors(c);
    for (I v = tid; v < nv; v += nthreads) {
      const index_t i = static_cast<index_t>(head) + static_cast<index_t>(v) * W;
      const auto x = load_step<W, Probe, Dedup>(c, cs, sources, i);
      lanes<T, W> y;
      for (int k = 0; k < W; ++k) y.v[k] = convert<T>(x.v[k]);
      store_chunk<W>(out.ptr + i, y);
    }
    skip = nv * W;
  }
  // scalar: j < head is the head, j ≥ head the tail past the vector loop
  // (contiguous path: skip = 0, so i = j throughout)
  for (I j = tid; j < n - skip; j += nthreads) {
    const I i = j < head ? j : j + skip;
    out.ptr[i] = convert<T>(c.load(static_cast<index_t>(i)));
  }
}

}  // namespace sinter::detail::cuda_detail
