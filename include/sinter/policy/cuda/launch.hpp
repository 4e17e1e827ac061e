#pragma once
/// \file launch.hpp
/// The __global__ shell of the fused kernel and its launch (nvcc only).
/// One kernel per (output type, rank, expression type): the index width and
/// the plan (vector with its scalar head / contiguous / strided) are runtime
/// choices inside it, so each expression instantiates one kernel; plus, for
/// an expression with two memory leaves of one type, the vector-only dedup
/// kernel launched when the host finds an array used twice (leaf_dedup.hpp).
#include <cstdint>
#include <string>

#include "device_query.hpp"
#include "kernel_body.hpp"

#if SINTER_HAS_CUDA()
namespace sinter::detail::cuda_detail {

/// Threads per block of the fused kernel (plain data: the launch tuning).
inline constexpr int block_size = 256;
/// Upper bound on resident blocks per SM used to size a grid-stride grid.
inline constexpr int blocks_per_sm = 8;

/// The fused kernel: out = node, every path, every memory leaf loaded.
template <class T, std::size_t R, class Node>
__global__ void __launch_bounds__(block_size)
    fused_kernel(memory_leaf<T, R> out, Node node, index_t n, kernel_plan plan) {
  const leaf_sources<memory_leaf_count_v<Node>> sources{};  // not read: every leaf loads
  if (use_32bit_index(n)) {
    const std::uint32_t tid = blockIdx.x * blockDim.x + threadIdx.x;
    const std::uint32_t nthreads = gridDim.x * blockDim.x;
    fused_body<std::uint32_t>(out, node, sources, static_cast<std::uint32_t>(n), plan.path,
                              static_cast<std::uint32_t>(plan.head), tid, nthreads);
  } else {
    const index_t tid = static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    const index_t nthreads = static_cast<index_t>(gridDim.x) * blockDim.x;
    fused_body<index_t>(out, node, sources, n, plan.path, static_cast<index_t>(plan.head), tid, nthreads);
  }
}

/// The dedup kernel: the vector path only, each memory leaf loaded only if
/// it is its own source (leaf_dedup.hpp). Launched instead of fused_kernel
/// when use_dedup_kernel; instantiated only for expression types with two
/// memory leaves of one type (has_twins_v), so the common pass, no array
/// repeated, runs fused_kernel with no guard and no extra register.
template <class T, std::size_t R, class Node>
__global__ void __launch_bounds__(block_size)
    fused_dedup_kernel(memory_leaf<T, R> out, Node node, leaf_sources<memory_leaf_count_v<Node>> sources,
                       index_t n, int head) {
  constexpr auto vector = kernel_path::vector;
  if (use_32bit_index(n)) {
    const std::uint32_t tid = blockIdx.x * blockDim.x + threadIdx.x;
    const std::uint32_t nthreads = gridDim.x * blockDim.x;
    fused_body<std::uint32_t, true>(out, node, sources, static_cast<std::uint32_t>(n), vector,
                                    static_cast<std::uint32_t>(head), tid, nthreads);
  } else {
    const index_t tid = static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    const index_t nthreads = static_cast<index_t>(gridDim.x) * blockDim.x;
    fused_body<index_t, true>(out, node, sources, n, vector, static_cast<index_t>(head), tid, nthreads);
  }
}

/// Grid size: enough blocks to cover n (W elements per thread on the vector
/// path), at most what fills every SM `blocks_per_sm` times.
inline unsigned grid_size(index_t n, int per_thread, const device_props& p) {
  const index_t work = (n + per_thread - 1) / per_thread;
  index_t blocks = (work + block_size - 1) / block_size;
  const index_t cap = static_cast<index_t>(p.multiprocessors) * blocks_per_sm;
  if (blocks > cap) blocks = cap;
  return static_cast<unsigned>(blocks < 1 ? 1 : blocks);
}

/// Launch `out = bound` on the policy's device and stream; when `detail` is
/// not null, describe the launch there (for the trace).
template <class T, std::size_t R, class Node>
void launch(int device, cudaStream_t stream, const memory_leaf<T, R>& out, const Node& bound, std::string* detail) {
  const index_t n = shape_size(out.shape);
  if (n == 0) {
    if (detail) *detail = "empty";
    return;
  }
  const device_props& p = props(device);
  check(cudaSetDevice(device), "cudaSetDevice");
  const kernel_plan plan = choose_plan(out, bound);
  // which leaves repeat an earlier one (used on the vector path only)
  const auto sources = find_leaf_sources(bound);
  const int per_thread = plan.path == kernel_path::vector ? vector_width_v<T> : 1;
  const unsigned grid = grid_size(n, per_thread, p);
  const bool dedup = use_dedup_kernel<Node>(plan, sources);
  if constexpr (has_twins_v<Node>) {
    if (dedup) fused_dedup_kernel<T, R, Node><<<grid, block_size, 0, stream>>>(out, bound, sources, n, plan.head);
  }
  if (!dedup) fused_kernel<T, R, Node><<<grid, block_size, 0, stream>>>(out, bound, n, plan);
  check(cudaGetLastError(), "fused kernel launch");
  if (!detail) return;
  static const char* names[] = {"vector", "contiguous", "strided"};
  const std::string head = plan.head > 0 ? " head=" + std::to_string(plan.head) : std::string();
  // " repeats=k": the dedup kernel ran, k memory leaves not loaded (same array)
  const std::string repeats = dedup ? " repeats=" + std::to_string(sources.repeats()) : std::string();
  *detail = std::string(names[static_cast<int>(plan.path)]) + head + " grid=" + std::to_string(grid) +
            " block=" + std::to_string(block_size) + repeats;
}

}  // namespace sinter::detail::cuda_detail
#endif
