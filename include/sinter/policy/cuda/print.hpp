#pragma once
/// \file print.hpp
/// Printing CUDA device memory (`std::cout << cuda_array`): the cuda
/// specialisation of detail::device_printer (see sinter/io.hpp). Only what is
/// shown crosses to the host: an array that is printed whole is copied in
/// one transfer (sinter::to<host>); a summarised one has just its shown
/// elements copied, one cudaMemcpyAsync per run of consecutive elements
/// (two per shown row of a contiguous matrix), then one synchronisation.
#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "../../io.hpp"
#include "../../transfer.hpp"
#include "../cuda.hpp"
#include "transfer.hpp"

namespace sinter::detail {

/// Prints the memory of a CUDA device, fetching only the shown elements.
template <>
struct device_printer<cuda> {
  template <class T, std::size_t R>
  static std::string format(const cuda& c, const T* ptr, const extents<R>& shape, const extents<R>& strides,
                            const print_options& o) {
    static_assert(compiled_as_cuda_v<T>,
                  "sinter::cuda: compile this file as CUDA (nvcc, or LANGUAGE CUDA in CMake) to use cuda arrays");
#if SINTER_HAS_CUDA()
    check_print_options(o);
    if (shape_size(shape) <= o.threshold) {
      // Everything is shown: one transfer (a device pass first if strided).
      const auto h = to<host>(view<const T, R, cuda>(ptr, shape, strides, c));
      return format_memory<T, R, host>(h.data(), h.shape(), h.strides(), host{}, o);
    }
    const print_grid<R> grid = make_print_grid(shape, o.threshold, o.edgeitems);
    std::vector<index_t> offsets;
    offsets.reserve(static_cast<std::size_t>(grid.size()));
    grid.for_each_index([&](const extents<R>& idx) {
      index_t off = 0;
      for (std::size_t d = 0; d != R; ++d) off += idx[d] * strides[d];
      offsets.push_back(off);
    });
    // Not std::vector: vector<bool> has no contiguous storage to copy into.
    const std::size_t n = offsets.size();
    const auto values = std::make_unique<T[]>(n);
    cuda_detail::set_device(c.device);
    for (std::size_t i = 0; i < n;) {
      std::size_t j = i + 1;
      while (j < n && offsets[j] == offsets[j - 1] + 1) ++j;
      cuda_detail::check(cudaMemcpyAsync(values.get() + i, ptr + offsets[i], (j - i) * sizeof(T),
                                         cudaMemcpyDeviceToHost, c.stream),
                         "cudaMemcpyAsync");
      i = j;
    }
    cuda_detail::check(cudaStreamSynchronize(c.stream), "cudaStreamSynchronize");
    return format_gathered<T, R>(grid, std::span<const T>(values.get(), n), o);
#else
    (void)c;
    (void)ptr;
    (void)shape;
    (void)strides;
    (void)o;
    return {};
#endif
  }
};

}  // namespace sinter::detail
