#pragma once
/// \file policy/cuda/backend.hpp
/// sinter::cuda: data in the memory of one CUDA device; each pass one
/// generated kernel on the policy's stream, asynchronous to the host.
/// Reading values on the host (to<host>, printing) synchronises.
///
/// The type exists in every translation unit, so headers can name it; using a
/// cuda array in a file not compiled as CUDA fails with one message:
/// "compile this file as CUDA".
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>

#include "../../core/allocation_count.hpp"
#include "../backend.hpp"
#include "error.hpp"
#include "kernel_body.hpp"
#include "memory_pool.hpp"
#if SINTER_HAS_CUDA()
#include "device_query.hpp"
#include "launch.hpp"
#endif

struct CUstream_st;  // cudaStream_t is CUstream_st*; declared here for host-only files

namespace sinter {

/// CUDA device policy: `sinter::array<float, 1, sinter::cuda> a({n}, sinter::cuda{0});`
/// `cuda{device, stream}`: work is queued on `stream` (default: the legacy default stream).
struct cuda {
  int device = 0;                 ///< CUDA device index
  CUstream_st* stream = nullptr;  ///< cudaStream_t to queue work on
  constexpr cuda() = default;
  constexpr explicit cuda(int dev, CUstream_st* s = nullptr) : device(dev), stream(s) {}
  friend constexpr bool operator==(const cuda& a, const cuda& b) {
    return a.device == b.device && a.stream == b.stream;
  }
};

namespace detail {

template <class D>
inline constexpr bool compiled_as_cuda_v = SINTER_HAS_CUDA() != 0;

#if SINTER_HAS_CUDA()
/// Once per device: keep freed blocks cached in its default memory pool
/// (release threshold = unlimited) instead of returning them at each sync.
inline void configure_pool(int device) {
  static std::once_flag flags[max_cuda_devices];
  std::call_once(flags[device], [device] {
    cudaMemPool_t pool;
    if (cudaDeviceGetDefaultMemPool(&pool, device) == cudaSuccess) {
      std::uint64_t threshold = UINT64_MAX;
      (void)cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold);
    }
    (void)cudaGetLastError();
  });
}
#endif

template <>
struct backend<cuda> {
  static constexpr bool host_accessible = false;
  static std::string label(const cuda& c) { return "cuda:" + std::to_string(c.device); }

  /// An array buffer from the device's pool (stream-ordered), counted by the
  /// trace hook (note_allocation). nullptr for 0 bytes.
  template <class D = void>
  static void* allocate(const cuda& c, std::size_t bytes) {
    static_assert(compiled_as_cuda_v<D>,
                  "sinter::cuda: compile this file as CUDA (nvcc, or LANGUAGE CUDA in CMake) to use cuda arrays");
#if SINTER_HAS_CUDA()
    void* p = allocate_uncounted(c, bytes);
    if (p) note_allocation();
    return p;
#else
    (void)c;
    (void)bytes;
    return nullptr;
#endif
  }

#if SINTER_HAS_CUDA()
  /// Device memory from the pool like allocate(), but not counted by the
  /// trace hook: library scratch that is not an array buffer (CUB's temporary
  /// storage and the one-value result of a reduction, reduce/cuda.hpp).
  /// Same accounting (memory_stats), errors and deallocate().
  static void* allocate_uncounted(const cuda& c, std::size_t bytes) {
    if (bytes == 0) return nullptr;
    (void)cuda_detail::props(c.device);  // device_error with the reason if absent
    configure_pool(c.device);
    auto& acct = device_accounting(c.device);
    acct.reserve(bytes, label(c));
    void* p = nullptr;
    const cudaError_t e = [&] {
      cudaError_t r = cudaSetDevice(c.device);
      if (r == cudaSuccess) r = cudaMallocAsync(&p, bytes, c.stream);
      return r;
    }();
    if (e != cudaSuccess) {
      acct.release(bytes);
      (void)cudaGetLastError();
      if (e == cudaErrorMemoryAllocation) {
        std::size_t free_b = 0, total_b = 0;
        (void)cudaMemGetInfo(&free_b, &total_b);
        throw out_of_memory(label(c) + ": cannot allocate " + std::to_string(bytes) +
                                " bytes: the device has " + std::to_string(free_b) + " free",
                            bytes, free_b);
      }
      cuda_detail::check(e, "cudaMallocAsync");
    }
    // Remembered so that an expression reading this memory runs on c.stream
    // (expr_policy<cuda>, policy/cuda/transfer.hpp).
    cuda_allocations().add(p, bytes, {c.device, c.stream});
    return p;
  }
#endif

  template <class D = void>
  static void deallocate(const cuda& c, void* p, std::size_t bytes) {
    // allocate() already refused a non-CUDA file; one message is enough.
#if SINTER_HAS_CUDA()
    if (!p) return;
    cuda_allocations().remove(p);
    // Errors here are ignored: a destructor must not throw, and a failing
    // device will report at the next checked call.
    (void)cudaSetDevice(c.device);
    if (cudaFreeAsync(p, c.stream) != cudaSuccess) (void)cudaGetLastError();
    device_accounting(c.device).release(bytes);
#else
    (void)c;
    (void)p;
    (void)bytes;
#endif
  }

  template <class T, std::size_t R, class Node>
  static void evaluate(const cuda& c, const memory_leaf<T, R>& out, const Node& bound, std::string* detail) {
    static_assert(compiled_as_cuda_v<T>,
                  "sinter::cuda: compile this file as CUDA (nvcc, or LANGUAGE CUDA in CMake) to use cuda arrays");
#if SINTER_HAS_CUDA()
    cuda_detail::launch(c.device, c.stream, out, bound, detail);
#else
    (void)c;
    (void)out;
    (void)bound;
    (void)detail;
#endif
  }
};

}  // namespace detail
#if SINTER_HAS_CUDA()
/// Memory statistics of `device`: in use and peak (sinter's own count),
/// cached (kept by the pool after frees), and the limit.
inline memory_stats cuda_memory_stats(int device = 0) {
  memory_stats s = detail::device_accounting(device).stats();
  cudaMemPool_t pool;
  std::uint64_t reserved = 0, used = 0;
  if (cudaDeviceGetDefaultMemPool(&pool, device) == cudaSuccess &&
      cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReservedMemCurrent, &reserved) == cudaSuccess &&
      cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used) == cudaSuccess)
    s.cached = static_cast<std::size_t>(reserved - used);
  (void)cudaGetLastError();
  return s;
}

/// Wait until all work queued on the policy's stream has finished.
inline void synchronize(const cuda& c) {
  detail::cuda_detail::check(cudaSetDevice(c.device), "cudaSetDevice");
  detail::cuda_detail::check(cudaStreamSynchronize(c.stream), "cudaStreamSynchronize");
}
#endif

}  // namespace sinter
