#pragma once
/// \file transfer.hpp
/// Transfers between host memory and CUDA device memory, and between CUDA
/// devices: the cuda specialisations of detail::memory_space,
/// detail::expr_policy and detail::transfer (policy/backend.hpp; used by
/// sinter/transfer.hpp, whose transfer_passes runs the passes below).
///
/// Every transfer is at most three steps, whatever the strides, broadcasting
/// or element types on either side:
///  1. make the source contiguous where it lives (a pass into a scratch
///     buffer, on the host or on the source's device), unless it already is
///     one contiguous leaf;
///  2. one cudaMemcpyAsync of the source's elements, in the source's type;
///  3. a pass of the destination's policy from a contiguous scratch copy into
///     the destination (converting, broadcasting, writing strides), unless
///     the destination has exactly the source's layout and type, in which
///     case step 2 wrote it directly.
/// Host → device is queued on the destination's stream and returns without
/// waiting (pageable host memory is staged by the runtime before
/// cudaMemcpyAsync returns, so host buffers may be reused at once). Device →
/// host synchronises the source's stream before returning: the values are
/// then on the host. Device → device on one device is a single kernel of the
/// destination reading the source; across devices, one cudaMemcpyPeerAsync.
/// Either way, between two streams, the copy waits for the source's stream
/// and the source's stream then waits for the copy (events, no host wait).
#include <cstddef>
#include <optional>
#include <string>
#include <type_traits>

#include "../../core/leaf.hpp"
#include "../../core/map_node.hpp"
#include "../../core/shape.hpp"
#include "backend.hpp"
#include "../backend.hpp"

namespace sinter::detail {

/// The memory of CUDA devices (the device index is a runtime value of the policy).
struct cuda_space {};
template <>
struct memory_space<cuda> {
  using type = cuda_space;
};

#if SINTER_HAS_CUDA()
namespace cuda_detail {

/// Make `device` current (a stream handle of nullptr means that device's default stream).
inline void set_device(int device) { check(cudaSetDevice(device), "cudaSetDevice"); }

/// Work queued on `waiter` (of device `waiter_device`) from now on starts
/// after the work queued so far on `signaller` (of `signaller_device`); no
/// host synchronisation.
inline void stream_wait(int waiter_device, cudaStream_t waiter, int signaller_device, cudaStream_t signaller) {
  if (waiter_device == signaller_device && waiter == signaller) return;
  set_device(signaller_device);
  cudaEvent_t ev{};
  check(cudaEventCreateWithFlags(&ev, cudaEventDisableTiming), "cudaEventCreateWithFlags");
  cudaError_t e = cudaEventRecord(ev, signaller);
  const char* what = "cudaEventRecord";
  if (e == cudaSuccess) {
    e = cudaSetDevice(waiter_device);
    what = "cudaSetDevice";
  }
  if (e == cudaSuccess) {
    e = cudaStreamWaitEvent(waiter, ev, 0);
    what = "cudaStreamWaitEvent";
  }
  (void)cudaEventDestroy(ev);  // released once the wait has been satisfied
  check(e, what);
}

/// The device of a pointer to device (or managed) memory, or -1.
inline int device_of(const void* p) {
  cudaPointerAttributes a{};
  if (p == nullptr || cudaPointerGetAttributes(&a, p) != cudaSuccess) {
    (void)cudaGetLastError();
    return -1;
  }
  return a.type == cudaMemoryTypeDevice || a.type == cudaMemoryTypeManaged ? a.device : -1;
}

/// Copy `bytes` between host and device memory on `stream` of `device`.
inline void memcpy_async(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind, int device,
                         cudaStream_t stream) {
  set_device(device);
  check(cudaMemcpyAsync(dst, src, bytes, kind, stream), "cudaMemcpyAsync");
}

}  // namespace cuda_detail

/// A cuda expression (which carries only its policy type) runs with the
/// policy of its first memory operand: for memory sinter allocated (arrays,
/// their views), the device and stream it was allocated for (the array's
/// `cuda{device, stream}`, from the allocation registry), so the pass is
/// queued after the work already queued on that stream. For device memory
/// sinter did not allocate (a view of a user's pointer), the device holding
/// it and that device's legacy default stream; with no device operand,
/// cuda{0}. Operands on other streams are not waited for: keep an
/// expression's arrays on one stream, or synchronise them first.
template <>
struct expr_policy<cuda> {
  template <class E>
  static cuda get(const E& e) {
    std::optional<cuda> first;
    for_each_leaf(e.node(), [&](const auto& leaf) {
      using L = std::remove_cvref_t<decltype(leaf)>;
      if constexpr (is_memory_leaf<L>::value) {
        if (first) return;
        if (const auto owner = cuda_allocations().find(leaf.ptr)) {
          first = cuda{owner->device, owner->stream};
        } else if (const int device = cuda_detail::device_of(leaf.ptr); device >= 0) {
          first = cuda{device};
        }
      }
    });
    return first ? *first : cuda{0};
  }
};

namespace cuda_detail {

/// The elements of `e` when it is one contiguous row-major memory leaf (no
/// broadcast), else nullptr: then it needs a pass into a scratch buffer first.
template <class E>
const typename E::value_type* contiguous_source(const E& e) {
  using N = typename E::node_type;
  if constexpr (is_memory_leaf<N>::value) {
    if (e.node().unit()) return e.node().ptr;
  }
  return nullptr;
}

/// Whether copying the contiguous source's elements (type U, shape `from`)
/// byte for byte produces `out`: same type, same shape, contiguous out.
template <class U, std::size_t RE, class T, std::size_t R>
bool writes_directly(const extents<RE>& from, const memory_leaf<T, R>& out) {
  if constexpr (std::is_same_v<U, T> && RE == R) return from == out.shape && out.unit();
  else return false;
}

/// shape_error unless `from` broadcasts to `to`.
template <std::size_t RE, std::size_t R>
void check_copy_shapes(const extents<RE>& from, const extents<R>& to) {
  if (!broadcasts_to(from, to))
    throw shape_error("sinter::copy: cannot broadcast shape " + shape_string(from) + " to " + shape_string(to));
}

/// A contiguous row-major leaf over `n = prod(shape)` elements at p.
template <class U, std::size_t R>
memory_leaf<U, R> dense_leaf(U* p, const extents<R>& shape) {
  return {p, shape, row_major_strides(shape)};
}

}  // namespace cuda_detail

/// Host memory → a CUDA device, queued on the destination's stream.
template <>
struct transfer<host_space, cuda_space> {
  template <class T, std::size_t R, class E, class PS, class Passes>
  static void copy(const cuda& dst, const memory_leaf<T, R>& out, const E& src, const PS& spol,
                   const Passes& passes) {
    using U = typename E::value_type;
    cuda_detail::check_copy_shapes(src.shape(), out.shape);
    const index_t n = src.size();
    if (n == 0 || shape_size(out.shape) == 0) return;
    const std::size_t bytes = static_cast<std::size_t>(n) * sizeof(U);
    // 1. the source as contiguous host memory (a host pass of its own policy if needed)
    std::optional<host_scratch<U>> staged_host;
    const U* from = cuda_detail::contiguous_source(src);
    if (!from) {
      staged_host.emplace(n);
      passes.run(spol, cuda_detail::dense_leaf(staged_host->ptr, src.shape()), src);
      from = staged_host->ptr;
    }
    // 2. one copy to the device; 3. a device pass into out if it differs in layout or type
    if (cuda_detail::writes_directly<U>(src.shape(), out)) {
      cuda_detail::memcpy_async(out.ptr, from, bytes, cudaMemcpyHostToDevice, dst.device, dst.stream);
      return;
    }
    scratch<U, cuda> staged_device(dst, n);
    cuda_detail::memcpy_async(staged_device.ptr, from, bytes, cudaMemcpyHostToDevice, dst.device, dst.stream);
    passes.run_dense(dst, out, static_cast<const U*>(staged_device.ptr), src.shape());
  }
};

/// A CUDA device → host memory; returns once the values are on the host.
template <>
struct transfer<cuda_space, host_space> {
  template <class PD, class T, std::size_t R, class E, class Passes>
  static void copy(const PD& dst, const memory_leaf<T, R>& out, const E& src, const cuda& spol,
                   const Passes& passes) {
    using U = typename E::value_type;
    cuda_detail::check_copy_shapes(src.shape(), out.shape);
    const index_t n = src.size();
    if (n == 0 || shape_size(out.shape) == 0) return;
    const std::size_t bytes = static_cast<std::size_t>(n) * sizeof(U);
    // 1. the source as contiguous device memory (a kernel on the source's stream if needed)
    std::optional<scratch<U, cuda>> staged_device;
    const U* from = cuda_detail::contiguous_source(src);
    if (!from) {
      staged_device.emplace(spol, n);
      passes.run(spol, cuda_detail::dense_leaf(staged_device->ptr, src.shape()), src);
      from = staged_device->ptr;
    }
    // 2. one copy to the host, then wait for it
    const bool direct = cuda_detail::writes_directly<U>(src.shape(), out);
    std::optional<host_scratch<U>> staged_host;
    U* to_ptr = nullptr;
    if constexpr (std::is_same_v<U, T>) {
      if (direct) to_ptr = out.ptr;
    }
    if (!direct) {
      staged_host.emplace(n);
      to_ptr = staged_host->ptr;
    }
    cuda_detail::memcpy_async(to_ptr, from, bytes, cudaMemcpyDeviceToHost, spol.device, spol.stream);
    cuda_detail::check(cudaStreamSynchronize(spol.stream), "cudaStreamSynchronize");
    // 3. a host pass into out if it differs in layout or type
    if (!direct) passes.run_dense(dst, out, static_cast<const U*>(to_ptr), src.shape());
  }
};

/// One CUDA device → the same or another CUDA device.
template <>
struct transfer<cuda_space, cuda_space> {
  template <class T, std::size_t R, class E, class Passes>
  static void copy(const cuda& dst, const memory_leaf<T, R>& out, const E& src, const cuda& spol,
                   const Passes& passes) {
    if (dst.device == spol.device) {
      // One device: the destination's kernel reads the source in place, after
      // the work already queued on the source's stream; then the source's
      // stream waits for that kernel, so that the source (freed on its own
      // stream right after the copy, say) is not reused while it is read.
      // Nothing to order when both are one stream (stream_wait returns).
      cuda_detail::stream_wait(dst.device, dst.stream, spol.device, spol.stream);
      passes.run_in_place(dst, out, src);
      cuda_detail::stream_wait(spol.device, spol.stream, dst.device, dst.stream);
      return;
    }
    using U = typename E::value_type;
    cuda_detail::check_copy_shapes(src.shape(), out.shape);
    const index_t n = src.size();
    if (n == 0 || shape_size(out.shape) == 0) return;
    const std::size_t bytes = static_cast<std::size_t>(n) * sizeof(U);
    // 1. contiguous on the source device
    std::optional<scratch<U, cuda>> staged_src;
    const U* from = cuda_detail::contiguous_source(src);
    if (!from) {
      staged_src.emplace(spol, n);
      passes.run(spol, cuda_detail::dense_leaf(staged_src->ptr, src.shape()), src);
      from = staged_src->ptr;
    }
    // 2. one peer copy on the destination's stream, ordered after the source's work
    const bool direct = cuda_detail::writes_directly<U>(src.shape(), out);
    std::optional<scratch<U, cuda>> staged_dst;
    U* to_ptr = nullptr;
    if constexpr (std::is_same_v<U, T>) {
      if (direct) to_ptr = out.ptr;
    }
    if (!direct) {
      staged_dst.emplace(dst, n);
      to_ptr = staged_dst->ptr;
    }
    cuda_detail::stream_wait(dst.device, dst.stream, spol.device, spol.stream);
    cuda_detail::set_device(dst.device);
    cuda_detail::check(cudaMemcpyPeerAsync(to_ptr, dst.device, from, spol.device, bytes, dst.stream),
                       "cudaMemcpyPeerAsync");
    // The source (and its scratch, freed on its stream) stays untouched until the copy is done.
    cuda_detail::stream_wait(spol.device, spol.stream, dst.device, dst.stream);
    // 3. a destination pass if out differs in layout or type
    if (!direct) passes.run_dense(dst, out, static_cast<const U*>(to_ptr), src.shape());
  }
};

#else   // not compiled as CUDA: any transfer touching device memory is refused

/// Refuses, at compile time, a transfer to or from device memory in a file not compiled as CUDA.
struct cuda_transfer_refused {
  template <class PD, class T, std::size_t R, class E, class PS, class Passes>
  static void copy(const PD&, const memory_leaf<T, R>&, const E&, const PS&, const Passes&) {
    static_assert(compiled_as_cuda_v<T>,
                  "sinter::cuda: compile this file as CUDA (nvcc, or LANGUAGE CUDA in CMake) to use cuda arrays");
  }
};
template <> struct transfer<host_space, cuda_space> : cuda_transfer_refused {};
template <> struct transfer<cuda_space, host_space> : cuda_transfer_refused {};
template <> struct transfer<cuda_space, cuda_space> : cuda_transfer_refused {};

#endif

}  // namespace sinter::detail
