#pragma once
/// \file mpi/device_region.hpp
/// A region's memory on a device with virtual memory management (CUDA's
/// cuMemAddressReserve / cuMemCreate / cuMemMap / cuMemSetAccess): the
/// whole global range reserved as addresses only, the owned and ghost rows
/// mapped in grain-sized chunks as passes need them, everything unmapped
/// and freed with the array. The calls come as a table (vmm_calls):
/// mpi/cuda_region.hpp fills it from the CUDA driver, the tests with a host
/// stand-in, so this logic compiles and is tested without CUDA.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "../core/error.hpp"
#include "region.hpp"

namespace sinter::mpi::detail {

/// The device's virtual memory calls (all must be set).
struct vmm_calls {
  int device = 0;  ///< the device the memory lives on
  /// Mapping grain in bytes (cuMemGetAllocationGranularity); 0 on failure.
  std::size_t (*granularity)(int device) = nullptr;
  /// Reserves `bytes` of addresses aligned to `align`; 0 on failure.
  std::uintptr_t (*reserve)(std::size_t bytes, std::size_t align) = nullptr;
  /// Creates `bytes` of physical memory, maps it at `at` and makes it
  /// readable and writable from `device`; false (nothing left) on failure.
  bool (*map)(std::uintptr_t at, std::size_t bytes, int device, std::uint64_t& handle) = nullptr;
  /// Unmaps [at, at + bytes) and releases its handle.
  void (*unmap)(std::uintptr_t at, std::size_t bytes, std::uint64_t handle) = nullptr;
  /// Frees a reservation.
  void (*free)(std::uintptr_t base, std::size_t bytes) = nullptr;
  /// Names the device in error messages ("cuda:0").
  std::string label;
};

/// region_backing over vmm_calls; the stager moves its bytes for MPI.
class vmm_backing final : public region_backing {
 public:
  /// Memory through `calls`, reached by MPI through `via`.
  vmm_backing(vmm_calls calls, std::shared_ptr<stager> via) : calls_(std::move(calls)), via_(std::move(via)) {
    grain_ = calls_.granularity(calls_.device);
    if (grain_ == 0 || (grain_ & (grain_ - 1)) != 0)
      throw device_error("sinter::mpi: " + calls_.label +
                         ": no virtual memory granularity (the device lacks virtual memory management); "
                         "use host or par local blocks");
  }
  vmm_backing(const vmm_backing&) = delete;
  vmm_backing& operator=(const vmm_backing&) = delete;
  ~vmm_backing() override = default;

  std::size_t grain() const override { return grain_; }
  void* reserve(std::size_t len) noexcept override {
    return reinterpret_cast<void*>(calls_.reserve(len, grain_));
  }
  /// Maps the parts of [lo, hi) outside [clo, chi): one chunk below, one above.
  void commit(std::uintptr_t base, std::size_t lo, std::size_t hi, std::size_t clo, std::size_t chi) override {
    if (chi <= clo) return map_chunk(base, lo, hi);
    if (lo < clo) map_chunk(base, lo, clo);
    if (hi > chi) map_chunk(base, chi, hi);
  }
  void release(std::uintptr_t base, std::size_t len) noexcept override {
    for (const auto& c : chunks_) calls_.unmap(c.at, c.bytes, c.handle);
    chunks_.clear();
    calls_.free(base, len);
  }
  stager* staging() noexcept override { return via_.get(); }

  /// Mapped chunks (the tests read them).
  struct chunk {
    std::uintptr_t at;      ///< first byte
    std::size_t bytes;      ///< length (a grain multiple)
    std::uint64_t handle;   ///< the physical allocation
  };
  /// The chunks mapped so far, in mapping order.
  const std::vector<chunk>& chunks() const noexcept { return chunks_; }

 private:
  void map_chunk(std::uintptr_t base, std::size_t lo, std::size_t hi) {
    if (hi <= lo) return;
    std::uint64_t h = 0;
    if (!calls_.map(base + lo, hi - lo, calls_.device, h))
      throw out_of_memory("sinter::mpi: " + calls_.label + ": cannot map " + std::to_string(hi - lo) +
                              " bytes of a distributed array's rows; use fewer or smaller arrays, or more ranks",
                          hi - lo, 0);
    chunks_.push_back({base + lo, hi - lo, h});
  }
  vmm_calls calls_;
  std::shared_ptr<stager> via_;
  std::size_t grain_ = 0;
  std::vector<chunk> chunks_;
};

/// The backing of region p (nullptr: host memory or not a region).
inline region_backing* backing_of(const void* p) {
  region* g = find_region(p);
  return g ? g->backing.get() : nullptr;
}

}  // namespace sinter::mpi::detail
