#pragma once
// A grid emulator for the CUDA kernel body (policy/cuda/kernel_body.hpp):
// every (block, thread) of a grid runs the SINTER_HD body on the CPU, as a
// launch would, for the kernel-body tests of generators and gathers.
#include <cstdint>
#include <cstring>
#include <memory>
#include <sinter/sinter.hpp>

namespace grid_emulator {

namespace st = sinter;
using st::index_t;

/// Runs `out = bound` over an emulated grid, as a launch does.
template <class I, class T, std::size_t R, class Node>
void emulate_grid(const st::detail::memory_leaf<T, R>& out, const Node& bound, unsigned grid, unsigned block) {
  const index_t n = st::detail::shape_size(out.shape);
  const st::detail::cuda_detail::kernel_plan plan = st::detail::cuda_detail::choose_plan(out, bound);
  const auto sources = st::detail::cuda_detail::find_leaf_sources(bound);
  const bool dedup = st::detail::cuda_detail::use_dedup_kernel<Node>(plan, sources);
  const I nthreads = static_cast<I>(grid) * static_cast<I>(block);
  for (unsigned b = 0; b < grid; ++b)
    for (unsigned t = 0; t < block; ++t) {
      const I tid = static_cast<I>(b) * block + t;
      if (dedup)
        st::detail::cuda_detail::fused_body<I, true>(out, bound, sources, static_cast<I>(n), st::detail::cuda_detail::kernel_path::vector,
                                 static_cast<I>(plan.head), tid, nthreads);
      else
        st::detail::cuda_detail::fused_body<I, false>(out, bound, sources, static_cast<I>(n), plan.path, static_cast<I>(plan.head), tid,
                                  nthreads);
    }
}

/// Emulates `e` into an output of `shape` starting `offset` elements past a
/// 64-byte boundary on several grids and both index widths; counts elements
/// whose bits differ from the host policy's.
template <class T, std::size_t R, class E>
std::size_t emulated_mismatches(const E& expression, const st::extents<R>& shape, std::size_t offset,
                           st::detail::cuda_detail::kernel_path* path_taken = nullptr) {
  const auto e = st::detail::as_expr(expression);
  const st::array<T, R> ref = e;
  const auto n = static_cast<std::size_t>(st::detail::shape_size(shape));
  std::size_t bad = 0;
  for (unsigned grid : {1u, 3u, 7u})
    for (unsigned block : {1u, 32u, 256u})
      for (int wide = 0; wide < 2; ++wide) {
        std::unique_ptr<T[]> buf(new T[n + 64 / sizeof(T) + offset + 1]);
        std::size_t first = 0;
        while (reinterpret_cast<std::uintptr_t>(buf.get() + first) % 64 != 0) ++first;
        T* o = buf.get() + first + offset;
        std::memset(static_cast<void*>(o), 0x5A, n * sizeof(T));
        const st::detail::memory_leaf<T, R> out{o, shape, st::detail::row_major_strides(shape)};
        const auto bound = e.node().bind(shape);
        if (path_taken) *path_taken = st::detail::cuda_detail::choose_plan(out, bound).path;
        if (wide) emulate_grid<index_t>(out, bound, grid, block);
        else emulate_grid<std::uint32_t>(out, bound, grid, block);
        bad += n == 0 ? 0 : static_cast<std::size_t>(std::memcmp(o, ref.data(), n * sizeof(T)) != 0);
      }
  return bad;
}

}  // namespace grid_emulator
