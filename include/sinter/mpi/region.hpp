#pragma once
/// \file mpi/region.hpp
/// The memory of distributed arrays: each array reserves an address range of
/// its whole global size on every rank (PROT_NONE, no swap reserved) and
/// makes readable and writable only the rows this rank owns plus the ghost
/// rows its passes read, so a stray access faults instead of corrupting. A
/// process-wide registry maps an address to its region (base, rows, row
/// bytes, owned rows, communicator); halo_of plans the exchange of rows
/// between ranks' regions (mpi/exchange.hpp moves them). A region in device
/// memory has a backing (the same design with the device's virtual memory
/// calls and grain, mpi/cuda_region.hpp).
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <utility>
#include <vector>

#include "../core/error.hpp"
#include "blocks.hpp"
#include "comm.hpp"
#include "exchange.hpp"

namespace sinter::mpi::detail {

/// Memory of a region that is not the host's (a device's, mpi/cuda_region.hpp):
/// reserves the range, commits parts of it, releases it; its stager moves
/// its bytes for MPI. Host regions have none (mmap and mprotect).
struct region_backing {
  virtual ~region_backing() = default;
  /// Commit and reservation unit in bytes (a power of two).
  virtual std::size_t grain() const = 0;
  /// Reserves `len` bytes (a grain multiple) of addresses; nullptr on failure.
  virtual void* reserve(std::size_t len) noexcept = 0;
  /// Makes [lo, hi) (bytes from base, grain multiples) usable; [clo, chi) already is (empty: clo == chi).
  virtual void commit(std::uintptr_t base, std::size_t lo, std::size_t hi, std::size_t clo, std::size_t chi) = 0;
  /// Frees the committed memory and the reservation.
  virtual void release(std::uintptr_t base, std::size_t len) noexcept = 0;
  /// How MPI reaches the memory.
  virtual stager* staging() noexcept = 0;
};

/// One distributed array's reserved address range and row layout.
struct region {
  std::uintptr_t base = 0;     ///< first byte (page aligned)
  std::size_t reserved = 0;    ///< bytes reserved (a page multiple, at least one page)
  std::size_t bytes = 0;       ///< the array's bytes
  MPI_Comm comm = MPI_COMM_WORLD;
  int rank = 0, size = 1;
  index_t n0 = -1;             ///< global rows; -1 until the layout is known (first whole write)
  std::size_t row_bytes = 0;   ///< bytes of one row (bytes / n0)
  index_t b = 0, e = 0;        ///< rows [b, e) owned by this rank
  std::size_t clo = 0, chi = 0;  ///< committed bytes [clo, chi), relative to base, page aligned
  bool replicated = false;     ///< every row valid on every rank (a result computed everywhere)
  /// Rows each rank is known (on every rank alike) to have committed: its own
  /// and the ghosts of earlier agreed exchanges (mpi/pass.hpp's agreed_halo).
  std::vector<std::pair<index_t, index_t>> known;
  std::shared_ptr<region_backing> backing;  ///< device memory (nullptr: host memory)
  /// Global row of the byte at relative offset `off` (row_bytes > 0).
  index_t row_of(std::size_t off) const { return static_cast<index_t>(off / row_bytes); }
  /// Rows [b, e) that rank q owns.
  std::pair<index_t, index_t> owned(int q) const { return block_rows(n0, size, q); }
};

/// The process-wide registry of regions, by base address.
struct region_registry {
  std::mutex m;
  std::map<std::uintptr_t, region> by_base;
};
inline region_registry& regions() {
  static region_registry r;
  return r;
}

inline std::size_t page_bytes() {
  static const std::size_t p = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  return p;
}

/// The region holding address p, or nullptr (a local array).
inline region* find_region(const void* p) {
  const auto a = reinterpret_cast<std::uintptr_t>(p);
  auto& reg = regions();
  std::lock_guard<std::mutex> lock(reg.m);
  auto it = reg.by_base.upper_bound(a);
  if (it == reg.by_base.begin()) return nullptr;
  --it;
  return a < it->first + it->second.reserved ? &it->second : nullptr;
}

/// Makes rows [lo, hi) of g readable and writable (rounded out to pages).
inline void commit_rows(region& g, index_t lo, index_t hi) {
  if (hi <= lo || g.row_bytes == 0) return;
  const std::size_t pg = g.backing ? g.backing->grain() : page_bytes();
  std::size_t blo = static_cast<std::size_t>(lo) * g.row_bytes / pg * pg;
  std::size_t bhi = (static_cast<std::size_t>(hi) * g.row_bytes + pg - 1) / pg * pg;
  if (g.chi > g.clo) {
    if (blo >= g.clo && bhi <= g.chi) return;
    blo = std::min(blo, g.clo);
    bhi = std::max(bhi, g.chi);
  }
  if (g.backing) g.backing->commit(g.base, blo, bhi, g.clo, g.chi);
  else if (mprotect(reinterpret_cast<void*>(g.base + blo), bhi - blo, PROT_READ | PROT_WRITE) != 0)
    throw std::bad_alloc();
  g.clo = blo;
  g.chi = bhi;
}

/// Sets g's row layout (n0 rows) and commits this rank's rows.
inline void set_rows(region& g, index_t n0) {
  if (n0 < 0 || (n0 > 0 && g.bytes % static_cast<std::size_t>(n0) != 0))
    throw value_error("sinter::mpi: distributed array of " + std::to_string(g.bytes) + " bytes cannot have " +
                      std::to_string(n0) + " rows; create it with its global shape");
  g.n0 = n0;
  g.row_bytes = n0 > 0 ? g.bytes / static_cast<std::size_t>(n0) : 0;
  const auto [b, e] = block_rows(n0, g.size, g.rank);
  g.b = b;
  g.e = e;
  commit_rows(g, b, e);
}

/// Reserves a region of `bytes` on communicator c (collective: a failure on
/// one rank throws on every rank, before any rank uses the array), in host
/// memory or, given a backing, in the backing's (device) memory.
inline void* reserve_region(const communicator& c, std::size_t bytes, std::shared_ptr<region_backing> dev = nullptr) {
  const std::size_t pg = dev ? dev->grain() : page_bytes();
  const std::size_t len = std::max<std::size_t>((bytes + pg - 1) / pg * pg, pg);
  void* p = dev ? dev->reserve(len) : mmap(nullptr, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (!p) p = MAP_FAILED;
  int ok = p != MAP_FAILED ? 1 : 0, all = 0;
  check(MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, c.get()), "MPI_Allreduce");
  if (all == 0) {
    if (ok && dev) dev->release(reinterpret_cast<std::uintptr_t>(p), len);
    else if (ok) munmap(p, len);
    throw std::bad_alloc();
  }
  region g;
  g.base = reinterpret_cast<std::uintptr_t>(p);
  g.reserved = len;
  g.bytes = bytes;
  g.comm = c.get();
  g.rank = c.rank();
  g.size = c.size();
  g.backing = std::move(dev);
  auto& reg = regions();
  std::lock_guard<std::mutex> lock(reg.m);
  reg.by_base[g.base] = g;
  return p;
}

/// Unmaps and forgets the region at p.
inline void release_region(void* p) noexcept {
  auto& reg = regions();
  std::size_t len = 0;
  std::shared_ptr<region_backing> dev;
  {
    std::lock_guard<std::mutex> lock(reg.m);
    auto it = reg.by_base.find(reinterpret_cast<std::uintptr_t>(p));
    if (it == reg.by_base.end()) return;
    len = it->second.reserved;
    dev = std::move(it->second.backing);
    reg.by_base.erase(it);
  }
  if (dev) dev->release(reinterpret_cast<std::uintptr_t>(p), len);
  else munmap(p, len);
}

/// The rows of one region that each rank's pass reads: need[q] = [lo, hi)
/// (empty when lo >= hi), the same table on every rank.
struct region_need {
  region* g = nullptr;
  std::vector<std::pair<index_t, index_t>> need;
};

/// The halo exchange of every region in `needs`, as one plan (exchange.hpp's
/// halo_plan per region, in order: between two ranks the k-th message of
/// one matches the k-th of the other); commits this rank's ghost rows first.
inline exchange_plan halo_of(const std::vector<region_need>& needs) {
  exchange_plan plan;
  for (const auto& n : needs) {
    region& g = *n.g;
    if (g.replicated || g.size == 1) continue;
    const auto [mlo, mhi] = n.need[static_cast<std::size_t>(g.rank)];
    if (mhi > mlo) commit_rows(g, mlo, mhi);
    auto p = halo_plan(g.n0, g.row_bytes, g.size, g.rank, reinterpret_cast<void*>(g.base),
                       [&n](int q) { return n.need[static_cast<std::size_t>(q)]; });
    if (g.backing) {  // device memory: MPI reaches it through the backing's stager
      for (auto& x : p.sends) x.via = g.backing->staging();
      for (auto& x : p.receives) x.via = g.backing->staging();
    }
    plan.sends.insert(plan.sends.end(), p.sends.begin(), p.sends.end());
    plan.receives.insert(plan.receives.end(), p.receives.begin(), p.receives.end());
  }
  return plan;
}

}  // namespace sinter::mpi::detail
