#pragma once
/// \file scan/cuda.hpp
/// scanner<cuda>: scans on a CUDA device with CUB (included by scan.hpp in
/// files compiled by nvcc). Element i of the scan order (o, c, j) of the
/// (outer, len, inner) view is flat position (o * len + j) * inner + c.
///  - flat or one row (outer = inner = 1): cub::DeviceScan::InclusiveScan
///    over a counting iterator transformed by the expression at i, lifted
///    into the operator's accumulator: the producer is never materialised.
///  - along an axis: cub::DeviceScan::InclusiveScanByKey, key i / len (one
///    segment per lane), written through a permutation of the result to the
///    lane's positions.
/// Outputs are rounded to the result type as CUB writes them (a transform
/// output iterator). Temporary storage from the device pool on the
/// policy's stream, outside the trace's allocation count (as reduce/cuda.hpp);
/// asynchronous, like an elementwise pass. CUB's grouping differs from the
/// host's segments, so float results can differ from host in the last bits.
#include <cstddef>

#include <cub/device/device_scan.cuh>
#include <cuda/std/functional>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/permutation_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/iterator/transform_output_iterator.h>

#include "../reduce/cuda.hpp"
#include "ops.hpp"

namespace sinter::detail {

namespace cuda_scan {

/// Flat position of scan-order element i (file comment).
struct position {
  index_t len, inner;
  SINTER_HD index_t operator()(index_t i) const {
    const index_t r = i / len, j = i - r * len;
    const index_t o = r / inner, c = r - o * inner;
    return (o * len + j) * inner + c;
  }
};

/// The lane (segment) of scan-order element i.
struct lane_key {
  index_t len;
  SINTER_HD index_t operator()(index_t i) const { return i / len; }
};

/// The expression at scan-order element i, lifted into Op's accumulator.
template <class Op, std::size_t R, class Node>
struct scan_element {
  using V = typename Node::value_type;
  using A = typename Op::template acc_t<V>;
  cuda_reduce::reduce_element<reduce_ops::sum, R, Node> at;  ///< its value(p): the expression at flat p
  position pos;
  SINTER_HD A operator()(index_t i) const { return Op::template lift<V>(at.value(pos(i))); }
};

/// Op::combine as CUB's scan operator.
template <class Op>
struct combine_fn {
  template <class A>
  SINTER_HD A operator()(const A& a, const A& b) const {
    return Op::combine(a, b);
  }
};

/// An accumulator rounded to the result type, as CUB writes it.
template <class Rz>
struct to_result_fn {
  template <class A>
  SINTER_HD Rz operator()(const A& a) const {
    return scan_ops::to_result<Rz>(a);
  }
};

}  // namespace cuda_scan

/// The scanners (scan.hpp defines the CPU one).
template <class P>
struct scanner;

/// scanner<cuda>: CUB (file comment).
template <>
struct scanner<cuda> {
  template <class Op, class Rz, class Node, std::size_t Rank>
  static void run(const cuda& pol, Rz* out, const Node& node, const extents<Rank>& shape, index_t outer, index_t len,
                  index_t inner) {
    using V = typename Node::value_type;
    using A = typename Op::template acc_t<V>;
    const index_t n = outer * len * inner;
    if (n == 0) return;
    const cuda_scan::position pos{len, inner};
    using element_fn = cuda_scan::scan_element<Op, Rank, Node>;
    const element_fn element{{node, shape, 0, node.unit()}, pos};
    thrust::counting_iterator<index_t> first(0);
    thrust::transform_iterator<element_fn, thrust::counting_iterator<index_t>, A> in(first, element);
    thrust::transform_output_iterator<cuda_scan::to_result_fn<Rz>, Rz*> rounded(out, cuda_scan::to_result_fn<Rz>{});
    const cuda_scan::combine_fn<Op> op{};
    cuda_reduce::enter(pol);
    std::size_t temp_bytes = 0;
    if (outer == 1 && inner == 1) {
      cuda_detail::check(cub::DeviceScan::InclusiveScan(nullptr, temp_bytes, in, rounded, op, n, pol.stream),
                         "cub::DeviceScan::InclusiveScan (size query)");
      cuda_reduce::scratch mem(pol, temp_bytes == 0 ? 1 : temp_bytes);
      cuda_detail::check(cub::DeviceScan::InclusiveScan(mem.ptr, temp_bytes, in, rounded, op, n, pol.stream),
                         "cub::DeviceScan::InclusiveScan");
      return;
    }
    thrust::transform_iterator<cuda_scan::lane_key, thrust::counting_iterator<index_t>, index_t> keys(
        first, cuda_scan::lane_key{len});
    thrust::transform_iterator<cuda_scan::position, thrust::counting_iterator<index_t>, index_t> where(first, pos);
    const auto placed = thrust::make_permutation_iterator(rounded, where);
    const ::cuda::std::equal_to<> same{};
    cuda_detail::check(
        cub::DeviceScan::InclusiveScanByKey(nullptr, temp_bytes, keys, in, placed, op, n, same, pol.stream),
        "cub::DeviceScan::InclusiveScanByKey (size query)");
    cuda_reduce::scratch mem(pol, temp_bytes == 0 ? 1 : temp_bytes);
    cuda_detail::check(cub::DeviceScan::InclusiveScanByKey(mem.ptr, temp_bytes, keys, in, placed, op, n, same, pol.stream),
                       "cub::DeviceScan::InclusiveScanByKey");
  }
};

}  // namespace sinter::detail
