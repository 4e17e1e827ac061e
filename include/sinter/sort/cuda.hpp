#pragma once
/// \file sort/cuda.hpp
/// The cuda sort engine (included by sort.hpp in files compiled by nvcc):
/// CUB's DeviceRadixSort::SortPairs for one row, DeviceSegmentedSort::
/// StableSortPairs for rows of equal length laid out one after another
/// (segment o = [o len, (o + 1) len), offsets from a transformed counting
/// iterator, no offset array). Temporary storage from the device pool on
/// the policy's stream; asynchronous, like an elementwise pass.
///
/// Keys are sort_key's unsigned bit patterns (sort/radix.hpp), computed by
/// the caller, so NaN and ±0 sort as on the host. CUB 3.0's own float order
/// (CCCL 3.0.1, cub/device/device_radix_sort.cuh) already treats -0.0 and
/// +0.0 as equal and stable, but sorts NaN by its twiddled bits: -NaN
/// before -inf, +NaN after +inf; sorting the transformed keys puts every NaN last.
#include <cstddef>
#include <cstdint>

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_segmented_sort.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include "../policy/backend.hpp"
#include "../policy/cuda.hpp"
#include "../reduce/cuda.hpp"

namespace sinter::detail::cuda_sort {

/// Stable sort of (kin, vin) into (kout, vout) by key, each of `rows` rows of
/// `len` elements sorted on its own; on pol's stream.
template <class U, class V>
void sort_pairs(const cuda& pol, const U* kin, U* kout, const V* vin, V* vout, index_t rows, index_t len) {
  const index_t n = rows * len;
  if (n == 0) return;
  cuda_reduce::enter(pol);
  std::size_t bytes = 0;
  if (rows == 1) {
    cuda_detail::check(cub::DeviceRadixSort::SortPairs(nullptr, bytes, kin, kout, vin, vout, n, 0,
                                                       static_cast<int>(8 * sizeof(U)), pol.stream),
                       "cub::DeviceRadixSort::SortPairs (size query)");
    cuda_reduce::scratch mem(pol, bytes == 0 ? 1 : bytes);
    cuda_detail::check(cub::DeviceRadixSort::SortPairs(mem.ptr, bytes, kin, kout, vin, vout, n, 0,
                                                       static_cast<int>(8 * sizeof(U)), pol.stream),
                       "cub::DeviceRadixSort::SortPairs");
    return;
  }
  thrust::counting_iterator<index_t> first(0);
  thrust::transform_iterator<cuda_reduce::segment_begin, thrust::counting_iterator<index_t>, index_t> begins(
      first, cuda_reduce::segment_begin{len});
  const auto ends = begins + 1;
  cuda_detail::check(cub::DeviceSegmentedSort::StableSortPairs(nullptr, bytes, kin, kout, vin, vout, n, rows, begins,
                                                               ends, pol.stream),
                     "cub::DeviceSegmentedSort::StableSortPairs (size query)");
  cuda_reduce::scratch mem(pol, bytes == 0 ? 1 : bytes);
  cuda_detail::check(cub::DeviceSegmentedSort::StableSortPairs(mem.ptr, bytes, kin, kout, vin, vout, n, rows, begins,
                                                               ends, pol.stream),
                     "cub::DeviceSegmentedSort::StableSortPairs");
}

}  // namespace sinter::detail::cuda_sort
