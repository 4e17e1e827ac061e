#pragma once
/// \file mpi/cuda_region.hpp
/// dist<cuda>'s memory and its way to MPI (files compiled as CUDA only;
/// mpi.hpp includes it there). Memory: mpi/device_region.hpp's design on
/// CUDA's virtual memory management (cuMemAddressReserve for the global
/// range, cuMemCreate + cuMemMap + cuMemSetAccess for the committed rows,
/// at cuMemGetAllocationGranularity's grain). The driver functions are
/// looked up through the runtime (cudaGetDriverEntryPointByVersion): no
/// link to libcuda, so a program starts on a machine without a driver.
/// MPI: straight from device pointers when Open MPI says it is CUDA-aware
/// (MPIX_CUDA_AWARE_SUPPORT at compile time, MPIX_Query_cuda_support() at
/// run time, unless SINTER_MPI_CUDA_STAGED=1), else through a pinned host
/// buffer (cudaMallocHost) with cudaMemcpyAsync on the policy's stream.
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>

#include "../device.hpp"  // policy/cuda.hpp, through the front end (the mpi layer sits above it)
#include "collective.hpp"
#include "device_region.hpp"
#include "pass.hpp"
#if defined(OPEN_MPI) && OPEN_MPI
#include <mpi-ext.h>
#endif

namespace sinter::mpi::detail {

/// The CUDA driver's virtual memory functions, from the runtime's entry points.
struct cuda_driver_vmm {
  decltype(&cuMemGetAllocationGranularity) granularity = nullptr;
  decltype(&cuMemAddressReserve) reserve = nullptr;
  decltype(&cuMemAddressFree) address_free = nullptr;
  decltype(&cuMemCreate) create = nullptr;
  decltype(&cuMemRelease) release = nullptr;
  decltype(&cuMemMap) map = nullptr;
  decltype(&cuMemUnmap) unmap = nullptr;
  decltype(&cuMemSetAccess) set_access = nullptr;
  /// Whether every function was found.
  bool complete() const {
    return granularity && reserve && address_free && create && release && map && unmap && set_access;
  }
};

/// One driver function by name (CUDA 12.0's ABI), or nullptr.
template <class F>
F driver_entry(const char* name) {
  void* f = nullptr;
  cudaDriverEntryPointQueryResult found = cudaDriverEntryPointSymbolNotFound;
  if (cudaGetDriverEntryPointByVersion(name, &f, 12000, cudaEnableDefault, &found) != cudaSuccess ||
      found != cudaDriverEntryPointSuccess) {
    (void)cudaGetLastError();
    return nullptr;
  }
  return reinterpret_cast<F>(f);
}

/// The driver's functions, looked up once.
inline const cuda_driver_vmm& driver_vmm() {
  static const cuda_driver_vmm d = [] {
    cuda_driver_vmm v;
    v.granularity = driver_entry<decltype(v.granularity)>("cuMemGetAllocationGranularity");
    v.reserve = driver_entry<decltype(v.reserve)>("cuMemAddressReserve");
    v.address_free = driver_entry<decltype(v.address_free)>("cuMemAddressFree");
    v.create = driver_entry<decltype(v.create)>("cuMemCreate");
    v.release = driver_entry<decltype(v.release)>("cuMemRelease");
    v.map = driver_entry<decltype(v.map)>("cuMemMap");
    v.unmap = driver_entry<decltype(v.unmap)>("cuMemUnmap");
    v.set_access = driver_entry<decltype(v.set_access)>("cuMemSetAccess");
    return v;
  }();
  return d;
}

/// Device memory (pinned, on `device`) as cuMemCreate wants it described.
inline CUmemAllocationProp cuda_vmm_prop(int device) {
  CUmemAllocationProp p;
  std::memset(&p, 0, sizeof p);
  p.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  p.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  p.location.id = device;
  return p;
}

/// vmm_calls on the CUDA driver for `device` (its context made current first).
inline vmm_calls cuda_vmm_calls(int device) {
  (void)sinter::detail::cuda_detail::props(device);  // device_error with the reason when there is no such device
  sinter::detail::cuda_detail::check(cudaSetDevice(device), "cudaSetDevice");
  sinter::detail::cuda_detail::check(cudaFree(nullptr), "cudaFree (context)");
  if (!driver_vmm().complete())
    throw device_error("sinter::mpi: cuda:" + std::to_string(device) +
                       ": the CUDA driver lacks virtual memory management (cuMemCreate); update the driver");
  vmm_calls c;
  c.device = device;
  c.label = "cuda:" + std::to_string(device);
  c.granularity = [](int dev) -> std::size_t {
    const CUmemAllocationProp p = cuda_vmm_prop(dev);
    std::size_t g = 0;
    return driver_vmm().granularity(&g, &p, CU_MEM_ALLOC_GRANULARITY_RECOMMENDED) == CUDA_SUCCESS ? g : 0;
  };
  c.reserve = [](std::size_t bytes, std::size_t align) -> std::uintptr_t {
    CUdeviceptr p = 0;
    return driver_vmm().reserve(&p, bytes, align, 0, 0) == CUDA_SUCCESS ? static_cast<std::uintptr_t>(p) : 0;
  };
  c.map = [](std::uintptr_t at, std::size_t bytes, int dev, std::uint64_t& handle) {
    const auto& d = driver_vmm();
    const CUmemAllocationProp p = cuda_vmm_prop(dev);
    CUmemGenericAllocationHandle h = 0;
    if (d.create(&h, bytes, &p, 0) != CUDA_SUCCESS) return false;
    if (d.map(static_cast<CUdeviceptr>(at), bytes, 0, h, 0) != CUDA_SUCCESS) {
      (void)d.release(h);
      return false;
    }
    CUmemAccessDesc access;
    std::memset(&access, 0, sizeof access);
    access.location = p.location;
    access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    if (d.set_access(static_cast<CUdeviceptr>(at), bytes, &access, 1) != CUDA_SUCCESS) {
      (void)d.unmap(static_cast<CUdeviceptr>(at), bytes);
      (void)d.release(h);
      return false;
    }
    handle = static_cast<std::uint64_t>(h);
    return true;
  };
  c.unmap = [](std::uintptr_t at, std::size_t bytes, std::uint64_t handle) {
    (void)driver_vmm().unmap(static_cast<CUdeviceptr>(at), bytes);
    (void)driver_vmm().release(static_cast<CUmemGenericAllocationHandle>(handle));
  };
  c.free = [](std::uintptr_t base, std::size_t bytes) {
    (void)driver_vmm().address_free(static_cast<CUdeviceptr>(base), bytes);
  };
  return c;
}

/// Whether MPI can be handed device pointers: Open MPI built with CUDA
/// support that reports it at run time; SINTER_MPI_CUDA_STAGED=1 says no.
inline bool mpi_cuda_aware() {
  const char* staged = std::getenv("SINTER_MPI_CUDA_STAGED");
  if (staged && std::strcmp(staged, "1") == 0) return false;
#if defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
  return MPIX_Query_cuda_support() == 1;
#else
  return false;
#endif
}

/// The stager of dist<cuda>: copies on the policy's stream, one cached
/// pinned buffer (a second, concurrent one is allocated and freed).
class cuda_stager final : public stager {
 public:
  /// For memory of `c.device`, copies queued on `c.stream`.
  explicit cuda_stager(const cuda& c) : pol_(c), aware_(mpi_cuda_aware()) {}
  cuda_stager(const cuda_stager&) = delete;
  cuda_stager& operator=(const cuda_stager&) = delete;
  ~cuda_stager() override {
    if (cached_) (void)cudaFreeHost(cached_);
    (void)cudaGetLastError();
  }
  bool direct() const override { return aware_; }
  void settle() override { sync(); }
  void* take_buffer(std::size_t bytes) override {
    if (!cached_out_ && cached_bytes_ >= bytes) {
      cached_out_ = true;
      return cached_;
    }
    void* p = nullptr;
    sinter::detail::cuda_detail::check(cudaMallocHost(&p, bytes), "cudaMallocHost (MPI staging buffer)");
    if (!cached_out_) {  // the new buffer replaces the smaller cached one
      if (cached_) (void)cudaFreeHost(cached_);
      cached_ = p;
      cached_bytes_ = bytes;
      cached_out_ = true;
    }
    return p;
  }
  void give_back(void* buffer) noexcept override {
    if (buffer == cached_) cached_out_ = false;
    else (void)cudaFreeHost(buffer);
  }
  void to_host(void* dst, const void* src, std::size_t bytes) override {
    sinter::detail::cuda_detail::check(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost, pol_.stream),
                       "cudaMemcpyAsync (MPI staging, device to host)");
  }
  void to_device(void* dst, const void* src, std::size_t bytes) override {
    sinter::detail::cuda_detail::check(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, pol_.stream),
                       "cudaMemcpyAsync (MPI staging, host to device)");
  }
  void sync() override {
    sinter::detail::cuda_detail::check(cudaSetDevice(pol_.device), "cudaSetDevice");
    sinter::detail::cuda_detail::check(cudaStreamSynchronize(pol_.stream), "cudaStreamSynchronize (MPI exchange)");
  }

 private:
  cuda pol_;
  bool aware_;
  void* cached_ = nullptr;
  std::size_t cached_bytes_ = 0;
  bool cached_out_ = false;
};

/// A dist<cuda> array's backing: virtual memory of c.device, cuda_stager on c.stream.
inline std::shared_ptr<region_backing> cuda_backing(const cuda& c) {
  return std::make_shared<vmm_backing>(cuda_vmm_calls(c.device), std::make_shared<cuda_stager>(c));
}

}  // namespace sinter::mpi::detail

namespace sinter::detail {

/// The distributed policy on cuda local blocks: memory from cuda_backing
/// (agreed: a rank without the device fails every rank), passes as for host
/// and par (mpi/pass.hpp), each rank's rows by the cuda engine.
template <>
struct backend<mpi::dist<cuda>> : mpi::detail::dist_backend_hooks<mpi::dist<cuda>> {
  static void* allocate(const mpi::dist<cuda>& p, std::size_t bytes) {
    mpi::detail::require_mpi("distributed array");
    std::shared_ptr<mpi::detail::region_backing> dev;
    mpi::detail::run_agreed(p.comm, [&] { dev = mpi::detail::cuda_backing(p.local); });
    void* base = mpi::detail::reserve_region(p.comm, bytes, std::move(dev));
    const mpi::detail::region* g = mpi::detail::find_region(base);
    cuda_allocations().add(base, g->reserved, {p.local.device, p.local.stream});  // expressions run on its stream
    return base;
  }
  static void deallocate(const mpi::dist<cuda>&, void* p, std::size_t) {
    cuda_allocations().remove(p);
    mpi::detail::release_region(p);
  }
};

}  // namespace sinter::detail
