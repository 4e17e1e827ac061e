#pragma once
/// \file reduce/cuda.hpp
/// reducer<cuda>: reductions on a CUDA device with CUB (included by
/// reduce.hpp in files compiled by nvcc).
///
///  - full: cub::DeviceReduce::Reduce over a counting iterator transformed by
///    reduce_element (the bound expression evaluated at flat index i, then
///    Op::lift(value, i)): the producer is never materialised. Op::combine is
///    the binary operator, Op::identity the initial value. CUB's temporary
///    storage and the one-element result come from the device memory pool on
///    the policy's stream; the result is copied to the host and the stream
///    synchronised: a full reduction waits for the work queued on its stream
///    (not for the whole device). CUB's final combine of its per-block
///    partials is a second, small kernel over those partials (a library's
///    final combine step): the input is still read once, in one fused pass.
///  - along axes: cub::DeviceSegmentedReduce::Reduce, segment o being flat
///    positions [o*len, (o+1)*len) of the permuted node (offsets from a
///    transformed counting iterator, no offset array), each result finished
///    on the device (transform output iterator) and written straight into the
///    result array. Asynchronous, like an elementwise pass.
///
/// Allocations: the trace hook (trace_scope::allocations, note_allocation)
/// counts array buffers only. The scratch here (CUB's temporary storage, the
/// block partials of its final combine, and a full reduction's one-value
/// result) is library workspace, taken with backend<cuda>::allocate_uncounted
/// and outside the count: a full reduction traces 0 allocations, an axis
/// reduction 1 (its result array), as on host and par. The scratch still
/// shows in cuda_memory_stats while it lives.
///
/// Determinism: CUB's DeviceReduce and DeviceSegmentedReduce are run-to-run
/// deterministic on one device for a given input (CCCL documents this for
/// pseudo-associative operators such as float addition); devices of another
/// compute capability may group differently, so float results can differ in
/// the last bits between GPUs and from the host's pairwise order. argmin /
/// argmax combine symmetrically (ties by index), so they agree everywhere.
#include <cstddef>
#include <cstdint>
#include <string>

#include <cub/device/device_reduce.cuh>
#include <cub/device/device_segmented_reduce.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/iterator/transform_output_iterator.h>

#include "../policy/cuda.hpp"
#include "../policy/host/loop.hpp"
#include "../policy/backend.hpp"

namespace sinter::detail {

namespace cuda_reduce {

/// Element i (row-major over `shape`) of a bound node, lifted into Op's
/// accumulator. `segment` > 0: elements enter with their index within their
/// segment of that length (i % segment); 0: with i itself (full reductions).
/// SINTER_HD: CUB calls it on the device, the tests on the host.
template <class Op, std::size_t R, class Node>
struct reduce_element {
  using V = typename Node::value_type;
  using A = typename Op::template acc_t<V>;
  Node node;
  extents<R> shape;
  index_t segment;
  bool unit;  ///< node.unit(): the linear cursor serves every index

  /// The expression's value at flat index i: the linear cursor when unit,
  /// else the multi-index of i (div/mod per element) and the row cursor.
  SINTER_HD V value(index_t i) const {
    if constexpr (R == 0) {
      (void)i;
      return convert<V>(node.linear().load(0));
    } else {
      if (unit) return convert<V>(node.linear().load(i));
      extents<R> idx{};
      const index_t inner = shape[R - 1];
      index_t r = i / inner;
      const index_t j = i - r * inner;
      for (std::size_t d = R - 1; d-- > 0;) {
        const index_t q = r / shape[d];
        idx[d] = r - q * shape[d];
        r = q;
      }
      return convert<V>(node.row(idx).load(j));
    }
  }

  SINTER_HD A operator()(index_t i) const {
    return Op::template lift<V>(value(i), segment > 0 ? i % segment : i);
  }
};

/// Op::combine as CUB's binary operator.
template <class Op>
struct combine_fn {
  template <class A>
  SINTER_HD A operator()(const A& a, const A& b) const {
    return Op::combine(a, b);
  }
};

/// Segment o's first flat position, o * len.
struct segment_begin {
  index_t len;
  SINTER_HD index_t operator()(index_t o) const { return o * len; }
};

/// The finish of an axis reduction, applied as CUB writes each segment's result.
template <class Res, class Finish>
struct finish_fn {
  Finish finish;
  index_t len;
  template <class A>
  SINTER_HD Res operator()(const A& a) const {
    return static_cast<Res>(finish(a, len));
  }
};

#if SINTER_HAS_CUDA()
/// CUB's output: out[o] = finish(acc, len) as each segment's result is
/// written. thrust's transform_output_iterator, but with value_type the
/// accumulator: DeviceSegmentedReduce takes its initial value's type from
/// the output iterator's value_type.
template <class A, class Res, class Finish>
struct finishing_output : thrust::transform_output_iterator<finish_fn<Res, Finish>, Res*> {
  using base = thrust::transform_output_iterator<finish_fn<Res, Finish>, Res*>;
  using value_type = A;
  using base::base;
  SINTER_HD finishing_output(const base& b) : base(b) {}
};
#endif

/// The transform functor of a full reduction (tests evaluate it on the host).
template <class Op, std::size_t R, class Node>
reduce_element<Op, R, Node> full_element(const Node& bound, const extents<R>& shape) {
  return {bound, shape, 0, bound.unit()};
}

/// The transform functor of an axis reduction over the permuted bound node.
template <class Op, std::size_t R, class Node>
reduce_element<Op, R, Node> along_element(const Node& permuted, const extents<R>& pshape, index_t len) {
  return {permuted, pshape, len, permuted.unit()};
}

#if SINTER_HAS_CUDA()
/// Reduction workspace from the device's pool (stream-ordered), returned on
/// scope exit. Not an array buffer: not counted by the trace hook
/// (allocate_uncounted; see the file comment).
struct scratch {
  cuda pol;
  std::size_t bytes;
  void* ptr;
  scratch(const cuda& p, std::size_t b) : pol(p), bytes(b), ptr(backend<cuda>::allocate_uncounted(p, b)) {}
  scratch(const scratch&) = delete;
  scratch& operator=(const scratch&) = delete;
  ~scratch() { backend<cuda>::deallocate(pol, ptr, bytes); }
};

/// Round up to a multiple of 256 bytes (CUB's temporary storage alignment).
inline std::size_t align_up(std::size_t b) { return (b + 255) / 256 * 256; }

/// device_error (with the reason) when the device is not there, then select it.
inline void enter(const cuda& pol) {
  (void)cuda_detail::props(pol.device);
  cuda_detail::check(cudaSetDevice(pol.device), "cudaSetDevice");
}
#endif

}  // namespace cuda_reduce

#if SINTER_HAS_CUDA()
template <>
struct reducer<cuda> {
  template <class Op, class E>
  static auto full(const cuda& pol, const E& e) {
    using V = typename E::value_type;
    using A = typename Op::template acc_t<V>;
    const index_t n = e.size();
    if (n == 0) return Op::template identity<V>();  // no device call
    const auto bound = e.node().bind(e.shape());
    auto element = cuda_reduce::full_element<Op>(bound, e.shape());
    thrust::counting_iterator<index_t> first(0);
    thrust::transform_iterator<decltype(element), thrust::counting_iterator<index_t>, A> in(first, element);
    const cuda_reduce::combine_fn<Op> op{};
    const A init = Op::template identity<V>();
    cuda_reduce::enter(pol);
    std::size_t temp_bytes = 0;
    cuda_detail::check(cub::DeviceReduce::Reduce(nullptr, temp_bytes, in, static_cast<A*>(nullptr), n, op, init,
                                                 pol.stream),
                       "cub::DeviceReduce::Reduce (size query)");
    // One allocation: the result first, CUB's temporaries after it.
    const std::size_t head = cuda_reduce::align_up(sizeof(A));
    cuda_reduce::scratch mem(pol, head + temp_bytes);
    A* d_out = static_cast<A*>(mem.ptr);
    void* d_temp = temp_bytes ? static_cast<void*>(static_cast<char*>(mem.ptr) + head) : nullptr;
    cuda_detail::check(cub::DeviceReduce::Reduce(d_temp, temp_bytes, in, d_out, n, op, init, pol.stream),
                       "cub::DeviceReduce::Reduce");
    A result = init;
    cuda_detail::check(cudaMemcpyAsync(&result, d_out, sizeof(A), cudaMemcpyDeviceToHost, pol.stream),
                       "cudaMemcpyAsync (reduction result)");
    cuda_detail::check(cudaStreamSynchronize(pol.stream), "cudaStreamSynchronize (reduction result)");
    return result;
  }

  template <class Op, class Res, class Node, std::size_t RP, class Finish>
  static void along(const cuda& pol, Res* out, const Node& permuted, const extents<RP>& pshape, index_t outputs,
                    index_t len, Finish finish) {
    using V = typename Node::value_type;
    using A = typename Op::template acc_t<V>;
    if (outputs == 0) return;
    auto element = cuda_reduce::along_element<Op>(permuted, pshape, len);
    thrust::counting_iterator<index_t> first(0);
    thrust::transform_iterator<decltype(element), thrust::counting_iterator<index_t>, A> in(first, element);
    thrust::transform_iterator<cuda_reduce::segment_begin, thrust::counting_iterator<index_t>, index_t> begins(
        first, cuda_reduce::segment_begin{len});
    const auto ends = begins + 1;
    const cuda_reduce::finishing_output<A, Res, Finish> d_out(out, cuda_reduce::finish_fn<Res, Finish>{finish, len});
    const cuda_reduce::combine_fn<Op> op{};
    const A init = Op::template identity<V>();
    cuda_reduce::enter(pol);
    std::size_t temp_bytes = 0;
    cuda_detail::check(cub::DeviceSegmentedReduce::Reduce(nullptr, temp_bytes, in, d_out, outputs, begins, ends, op,
                                                          init, pol.stream),
                       "cub::DeviceSegmentedReduce::Reduce (size query)");
    cuda_reduce::scratch mem(pol, temp_bytes == 0 ? 1 : temp_bytes);
    cuda_detail::check(cub::DeviceSegmentedReduce::Reduce(mem.ptr, temp_bytes, in, d_out, outputs, begins, ends, op,
                                                          init, pol.stream),
                       "cub::DeviceSegmentedReduce::Reduce");
  }
};
#endif

}  // namespace sinter::detail
