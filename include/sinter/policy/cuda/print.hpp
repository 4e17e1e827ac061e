#pragma once
/// \file print.hpp
/// Printing CUDA device memory (`std::cout << cuda_array`): the cuda
/// specialisation of detail::device_gather (policy/backend.hpp), which
/// io.hpp calls for a summarised array: just its shown elements are copied,
/// one cudaMemcpyAsync per run of consecutive elements (two per shown row
/// of a contiguous matrix), then one synchronisation. An array printed
/// whole crosses in one transfer (sinter::to<host>, io.hpp).
#include <cstddef>
#include <span>

#include "../../core/shape.hpp"
#include "backend.hpp"
#include "../backend.hpp"
#include "transfer.hpp"

namespace sinter::detail {

/// Copies the shown elements of a CUDA device's memory to the host.
template <>
struct device_gather<cuda> {
  template <class T>
  static void gather(const cuda& c, const T* ptr, std::span<const index_t> offsets, T* values) {
    static_assert(compiled_as_cuda_v<T>,
                  "sinter::cuda: compile this file as CUDA (nvcc, or LANGUAGE CUDA in CMake) to use cuda arrays");
#if SINTER_HAS_CUDA()
    const std::size_t n = offsets.size();
    cuda_detail::set_device(c.device);
    for (std::size_t i = 0; i < n;) {
      std::size_t j = i + 1;
      while (j < n && offsets[j] == offsets[j - 1] + 1) ++j;
      cuda_detail::check(cudaMemcpyAsync(values + i, ptr + offsets[i], (j - i) * sizeof(T),
                                         cudaMemcpyDeviceToHost, c.stream),
                         "cudaMemcpyAsync");
      i = j;
    }
    cuda_detail::check(cudaStreamSynchronize(c.stream), "cudaStreamSynchronize");
#else
    (void)c;
    (void)ptr;
    (void)offsets;
    (void)values;
#endif
  }
};

}  // namespace sinter::detail
