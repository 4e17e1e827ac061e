#pragma once
/// \file mask_cuda.hpp
/// mask_selector<cuda>: boolean-mask extraction on a CUDA device with CUB
/// (included by mask.hpp in files compiled by nvcc).
///
/// The mask and the source are read through transform iterators over a
/// counting iterator, each evaluating its bound expression at a flat index
/// (reduce/cuda.hpp's reduce_element): nothing is materialised. First
/// cub::DeviceReduce::Sum counts the true flags (the result is then
/// allocated at its exact size, so the count is copied back and the stream
/// synchronised), then cub::DeviceSelect::Flagged writes the selected values
/// in order into the result. Both on the policy's stream; CUB's temporary
/// storage from the device pool, outside the trace's allocation count, as
/// reductions' (reduce/cuda.hpp). DeviceSelect reads the source's value at
/// every position of a tile (a lazy source is computed everywhere on the
/// device, in one pass); the order of the output is the input's, as on the host.
#include <cstddef>
#include <cstdint>

#include <cub/device/device_reduce.cuh>
#include <cub/device/device_select.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include "array.hpp"
#include "policy/cuda.hpp"
#include "reduce/cuda.hpp"
#include "reduce/ops.hpp"

namespace sinter::detail {

/// How a policy extracts masked values (the primary template is mask.hpp's).
template <class P>
struct mask_selector;

namespace cuda_mask {

/// The mask's flag at a flat index: 1 where non-zero, else 0 (as count_nonzero lifts it).
template <std::size_t R, class Node>
using flag_count = cuda_reduce::reduce_element<reduce_ops::count_nonzero, R, Node>;

/// The mask's flag as bool, for DeviceSelect::Flagged.
template <std::size_t R, class Node>
struct flag_fn {
  flag_count<R, Node> e;
  SINTER_HD bool operator()(index_t i) const { return e(i) != 0; }
};

/// The source's value at a flat index, as V.
template <class V, std::size_t R, class Node>
struct value_fn {
  cuda_reduce::reduce_element<reduce_ops::count_nonzero, R, Node> e;
  SINTER_HD V operator()(index_t i) const { return convert<V>(e.value(i)); }
};

}  // namespace cuda_mask

template <>
struct mask_selector<cuda> {
  template <class V, std::size_t R, class MNode, class XNode>
  static array<V, 1, cuda> select(const cuda& pol, const MNode& m, const XNode& x, const extents<R>& shape) {
    const index_t n = shape_size(shape);
    if (n == 0) return array<V, 1, cuda>(extents<1>{0}, pol);  // no device call
    thrust::counting_iterator<index_t> first(0);
    const cuda_mask::flag_count<R, MNode> count_fn{m, shape, 0, m.unit()};
    thrust::transform_iterator<cuda_mask::flag_count<R, MNode>, thrust::counting_iterator<index_t>, std::int64_t> ones(
        first, count_fn);
    cuda_reduce::enter(pol);
    std::size_t sum_bytes = 0;
    cuda_detail::check(cub::DeviceReduce::Sum(nullptr, sum_bytes, ones, static_cast<std::int64_t*>(nullptr), n,
                                              pol.stream),
                       "cub::DeviceReduce::Sum (size query)");
    const std::size_t head = cuda_reduce::align_up(sizeof(std::int64_t));
    std::int64_t count = 0;
    {
      cuda_reduce::scratch mem(pol, head + sum_bytes);
      auto* d_count = static_cast<std::int64_t*>(mem.ptr);
      void* d_temp = sum_bytes ? static_cast<void*>(static_cast<char*>(mem.ptr) + head) : nullptr;
      cuda_detail::check(cub::DeviceReduce::Sum(d_temp, sum_bytes, ones, d_count, n, pol.stream),
                         "cub::DeviceReduce::Sum");
      cuda_detail::check(cudaMemcpyAsync(&count, d_count, sizeof count, cudaMemcpyDeviceToHost, pol.stream),
                         "cudaMemcpyAsync (mask count)");
      cuda_detail::check(cudaStreamSynchronize(pol.stream), "cudaStreamSynchronize (mask count)");
    }
    array<V, 1, cuda> out(extents<1>{count}, pol);
    if (count == 0) return out;
    thrust::transform_iterator<cuda_mask::flag_fn<R, MNode>, thrust::counting_iterator<index_t>, bool> flags(
        first, cuda_mask::flag_fn<R, MNode>{count_fn});
    thrust::transform_iterator<cuda_mask::value_fn<V, R, XNode>, thrust::counting_iterator<index_t>, V> values(
        first, cuda_mask::value_fn<V, R, XNode>{{x, shape, 0, x.unit()}});
    std::size_t sel_bytes = 0;
    cuda_detail::check(cub::DeviceSelect::Flagged(nullptr, sel_bytes, values, flags, out.data(),
                                                  static_cast<std::int64_t*>(nullptr), n, pol.stream),
                       "cub::DeviceSelect::Flagged (size query)");
    cuda_reduce::scratch mem(pol, head + sel_bytes);
    auto* d_selected = static_cast<std::int64_t*>(mem.ptr);
    void* d_temp = sel_bytes ? static_cast<void*>(static_cast<char*>(mem.ptr) + head) : nullptr;
    cuda_detail::check(
        cub::DeviceSelect::Flagged(d_temp, sel_bytes, values, flags, out.data(), d_selected, n, pol.stream),
        "cub::DeviceSelect::Flagged");
    return out;
  }
};

}  // namespace sinter::detail
