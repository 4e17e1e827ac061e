// Host stand-ins for the device parts of dist<cuda> (tests/mpi): a stager
// that records its calls and copies with memcpy, and virtual memory calls
// that reserve with mmap and "map" with mprotect, recording each call. With
// them the staged halo exchange and the region's chunk mapping run on the
// host under mpirun, as tests/cuda/cuda_matmul_support.hpp stands in for cuBLAS.
#pragma once
#include <sys/mman.h>
#include <unistd.h>

#include <cstring>
#include <memory>
#include <vector>

#include "sinter/mpi.hpp"
#include "sinter/mpi/device_region.hpp"

namespace test_mpi_staging_support {
using sinter::index_t;
namespace md = sinter::mpi::detail;

/// A stager over host memory that counts what it is asked to do.
struct recording_stager final : md::stager {
  bool is_direct = false;
  bool poison = false;  ///< to_host then fills its source with NaN bytes (a host read of it must not happen)
  int settles = 0, syncs = 0, takes = 0, gives = 0, in_use = 0;
  std::size_t to_host_bytes = 0, to_device_bytes = 0, largest_take = 0;
  std::vector<std::vector<unsigned char>> buffers;  // kept: addresses stay valid

  bool direct() const override { return is_direct; }
  void settle() override { ++settles; }
  void* take_buffer(std::size_t bytes) override {
    ++takes;
    ++in_use;
    largest_take = bytes > largest_take ? bytes : largest_take;
    buffers.emplace_back(bytes, static_cast<unsigned char>(0xAB));  // garbage until copied
    return buffers.back().data();
  }
  void give_back(void*) noexcept override {
    ++gives;
    --in_use;
  }
  void to_host(void* dst, const void* src, std::size_t bytes) override {
    to_host_bytes += bytes;
    std::memcpy(dst, src, bytes);
    if (poison) std::memset(const_cast<void*>(src), 0xff, bytes);
  }
  void to_device(void* dst, const void* src, std::size_t bytes) override {
    to_device_bytes += bytes;
    std::memcpy(dst, src, bytes);
  }
  void sync() override { ++syncs; }
};

/// What the stand-in virtual memory calls saw (one process-wide log).
struct vmm_log {
  int reserves = 0, maps = 0, unmaps = 0, frees = 0;
  std::size_t mapped_bytes = 0, unmapped_bytes = 0;
  bool misaligned = false;  ///< a map or unmap not on the grain
  static constexpr std::size_t grain = 4 * 4096;
};
inline vmm_log& log() {
  static vmm_log l;
  return l;
}

/// vmm_calls over host pages (grain vmm_log::grain).
inline md::vmm_calls host_vmm() {
  md::vmm_calls c;
  c.device = 0;
  c.label = "stand-in:0";
  c.granularity = [](int) { return vmm_log::grain; };
  c.reserve = [](std::size_t bytes, std::size_t align) -> std::uintptr_t {
    ++log().reserves;
    if (bytes % align != 0) log().misaligned = true;
    // As cuMemAddressReserve: aligned to `align` (the ends beyond it unmapped).
    void* p = mmap(nullptr, bytes + align, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) return 0;
    const auto raw = reinterpret_cast<std::uintptr_t>(p);
    const std::uintptr_t at = (raw + align - 1) / align * align;
    if (at > raw) munmap(p, at - raw);
    if (raw + align > at) munmap(reinterpret_cast<void*>(at + bytes), raw + align - at);
    return at;
  };
  c.map = [](std::uintptr_t at, std::size_t bytes, int, std::uint64_t& h) {
    ++log().maps;
    log().mapped_bytes += bytes;
    if (at % vmm_log::grain != 0 || bytes % vmm_log::grain != 0) log().misaligned = true;
    h = at;
    return mprotect(reinterpret_cast<void*>(at), bytes, PROT_READ | PROT_WRITE) == 0;
  };
  c.unmap = [](std::uintptr_t at, std::size_t bytes, std::uint64_t) {
    ++log().unmaps;
    log().unmapped_bytes += bytes;
    mprotect(reinterpret_cast<void*>(at), bytes, PROT_NONE);
  };
  c.free = [](std::uintptr_t base, std::size_t bytes) {
    ++log().frees;
    munmap(reinterpret_cast<void*>(base), bytes);
  };
  return c;
}

/// A distributed float matrix of global shape {n0, n1} in stand-in device
/// memory, as a view of the distributed policy (released by the destructor).
struct standin_matrix {
  std::shared_ptr<recording_stager> via;
  std::shared_ptr<md::vmm_backing> backing;
  void* base = nullptr;
  index_t n0, n1;
  standin_matrix(index_t rows, index_t cols, std::shared_ptr<recording_stager> s)
      : via(std::move(s)), n0(rows), n1(cols) {
    backing = std::make_shared<md::vmm_backing>(host_vmm(), via);
    const auto bytes = static_cast<std::size_t>(rows * cols) * sizeof(float);
    base = md::reserve_region(sinter::mpi::communicator{}, bytes, backing);
  }
  standin_matrix(const standin_matrix&) = delete;
  standin_matrix& operator=(const standin_matrix&) = delete;
  ~standin_matrix() { md::release_region(base); }
  sinter::view<float, 2, sinter::mpi::dist<>> view() {
    return {static_cast<float*>(base), sinter::extents<2>{n0, n1}, sinter::mpi::dist<>{}};
  }
  md::region& region() { return *md::find_region(base); }
};

}  // namespace test_mpi_staging_support
