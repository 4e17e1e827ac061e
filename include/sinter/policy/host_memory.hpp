#pragma once
/// \file host_memory.hpp
/// Host memory shared by the host and par policies, which every device
/// stages through: 64-byte aligned (a cache line, an AVX-512 vector) and
/// counted for the trace. Every buffer is counted (in use, peak) against a
/// limit; buffers of at least `host_pool_threshold` bytes come from a pool
/// that keeps freed blocks for reuse, so a new large array does not fault
/// its pages in again (as PyTorch's and CuPy's caching allocators do, and
/// sinter's CUDA pool). Blocks of 2 MiB and more are 2 MiB aligned and
/// offered transparent huge pages (madvise, Linux). ASan builds bypass the
/// cache (SINTER_HOST_POOL).
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <limits>
#include <mutex>
#include <new>
#include <string>
#include <vector>

#ifdef __linux__
#include <sys/mman.h>
#endif

#include "../core/allocation_count.hpp"
#include "../core/byte_size.hpp"
#include "../core/error.hpp"

/// SINTER_HOST_POOL: 1 (the default) caches freed large host blocks for
/// reuse; 0 gives every block back at once. ASan builds default to 0, so
/// that ASan still sees each use after free and each overflow.
#ifndef SINTER_HOST_POOL
#if defined(__SANITIZE_ADDRESS__)
#define SINTER_HOST_POOL 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SINTER_HOST_POOL 0
#endif
#endif
#endif
#ifndef SINTER_HOST_POOL
#define SINTER_HOST_POOL 1
#endif

namespace sinter {

/// Host memory statistics (host_memory_stats()): bytes, and counts of pooled requests.
struct host_pool_stats {
  std::size_t in_use = 0;  ///< bytes held by live host and par arrays and temporaries
  std::size_t peak = 0;    ///< highest in_use so far
  std::size_t cached = 0;  ///< bytes of freed blocks kept for reuse
  std::size_t limit = std::numeric_limits<std::size_t>::max();  ///< set_host_memory_limit / SINTER_HOST_MEMORY_LIMIT
  std::size_t hits = 0;    ///< pooled requests served from the cache
  std::size_t misses = 0;  ///< pooled requests that asked the system
};

namespace detail {

/// The host pool's limit from a user's string ("512M", "4G").
inline std::size_t parse_byte_size(const std::string& s) { return parse_byte_size(s, "host memory limit"); }

/// Requests of at least this many bytes go through the cache; smaller ones
/// (most temporaries, small arrays) straight to the aligned allocator.
inline constexpr std::size_t host_pool_threshold = std::size_t{1} << 20;
/// A transparent huge page on x86-64 and most AArch64 kernels.
inline constexpr std::size_t host_huge_page = std::size_t{2} << 20;
/// The cache gives its oldest blocks back beyond this many bytes, so that
/// arrays of ever-new sizes do not pile up in it.
inline constexpr std::size_t host_cache_cap = std::size_t{1} << 30;
/// Every host buffer's alignment: a cache line, an AVX-512 vector.
inline constexpr std::size_t host_alignment = 64;

/// A pooled request's block size: whole 2 MiB pages from 2 MiB, else whole
/// 64 KiB, so that nearby sizes share blocks.
constexpr std::size_t host_block_size(std::size_t bytes) {
  const std::size_t g = bytes >= host_huge_page ? host_huge_page : std::size_t{64} << 10;
  return (bytes + g - 1) / g * g;
}

/// A block's alignment follows from its size, so deallocation finds it again.
constexpr std::size_t host_block_alignment(std::size_t size) {
  return size >= host_huge_page ? host_huge_page : host_alignment;
}

/// Memory from the system allocator; huge-page advice for large blocks.
inline void* host_system_allocate(std::size_t size) {
  void* p = ::operator new(size, std::align_val_t{host_block_alignment(size)});
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  if (size >= host_huge_page) (void)::madvise(p, size, MADV_HUGEPAGE);  // advice only: failure is harmless
#endif
  return p;
}

inline void host_system_free(void* p, std::size_t size) noexcept {
  ::operator delete(p, std::align_val_t{host_block_alignment(size)});
}

/// The accounting and the cache; thread-safe. A request under the threshold
/// with no limit set takes no lock (atomic counters): small temporaries are
/// made and freed often.
class host_pool {
 public:
  /// `caching`: keep freed large blocks (SINTER_HOST_POOL). Reads SINTER_HOST_MEMORY_LIMIT.
  explicit host_pool(bool caching = SINTER_HOST_POOL != 0) : caching_(caching) {
    if (const char* env = std::getenv("SINTER_HOST_MEMORY_LIMIT")) limit_.store(parse_byte_size(env));
  }
  host_pool(const host_pool&) = delete;
  host_pool& operator=(const host_pool&) = delete;
  ~host_pool() { empty_cache(); }

  /// `bytes` (> 0), 64-byte aligned; `*fresh` tells whether the block is new
  /// from the system (its pages not yet touched). Past the limit, once the
  /// cache is empty: out_of_memory, and nothing changes.
  void* allocate(std::size_t bytes, bool* fresh = nullptr) {
    const bool pooled = caching_ && bytes >= host_pool_threshold;
    const std::size_t size = pooled ? host_block_size(bytes) : bytes;
    if (!pooled && limit_.load(std::memory_order_relaxed) == unlimited) {
      take(size);
    } else {
      std::lock_guard<std::mutex> lock(mutex_);
      if (pooled) {
        for (std::size_t i = free_.size(); i-- > 0;) {  // the most recently freed first
          if (free_[i].size != size) continue;
          void* p = free_[i].p;
          free_.erase(free_.begin() + static_cast<std::ptrdiff_t>(i));
          cached_ -= size;
          take(size);
          ++hits_;
          if (fresh) *fresh = false;
          return p;
        }
      }
      const std::size_t limit = limit_.load(), in_use = in_use_.load();
      const std::size_t avail = limit > in_use ? limit - in_use : 0;
      if (size > avail)
        throw out_of_memory("host memory: cannot allocate " + std::to_string(size) + " bytes: limit " +
                                std::to_string(limit) + ", in use " + std::to_string(in_use) +
                                ", available " + std::to_string(avail) +
                                "; free arrays or raise sinter::set_host_memory_limit",
                            size, avail);
      trim_locked(avail - size);
      take(size);
      if (pooled) ++misses_;
    }
    if (fresh) *fresh = true;
    try {
      return host_system_allocate(size);
    } catch (const std::bad_alloc&) {
      empty_cache();  // the system is short: what the cache holds may be enough
      try {
        return host_system_allocate(size);
      } catch (const std::bad_alloc&) {
        in_use_.fetch_sub(size);
        throw;
      }
    }
  }

  /// Give back what allocate(bytes) returned: into the cache when pooled and
  /// it fits under the limit and the cap, else to the system.
  void deallocate(void* p, std::size_t bytes) noexcept {
    if (!p) return;
    const bool pooled = caching_ && bytes >= host_pool_threshold;
    const std::size_t size = pooled ? host_block_size(bytes) : bytes;
    in_use_.fetch_sub(size);
    if (pooled) {
      std::lock_guard<std::mutex> lock(mutex_);
      const std::size_t limit = limit_.load(), in_use = in_use_.load();
      const std::size_t room = limit > in_use ? limit - in_use : 0;
      const std::size_t keep = room < host_cache_cap ? room : host_cache_cap;
      if (size <= keep) {
        trim_locked(keep - size);
        try {
          free_.push_back({p, size});
          cached_ += size;
          return;
        } catch (...) {  // no room to remember the block: give it back instead
        }
      }
    }
    host_system_free(p, size);
  }

  /// Give every cached block back to the system.
  void empty_cache() noexcept {
    std::lock_guard<std::mutex> lock(mutex_);
    trim_locked(0);
  }

  /// Limit the bytes in use plus cached; trims the cache to fit.
  void set_limit(std::size_t bytes) {
    std::lock_guard<std::mutex> lock(mutex_);
    limit_.store(bytes);
    const std::size_t in_use = in_use_.load();
    trim_locked(bytes > in_use ? bytes - in_use : 0);
  }

  host_pool_stats stats() const {
    std::lock_guard<std::mutex> lock(mutex_);
    host_pool_stats s;
    s.in_use = in_use_.load();
    s.peak = peak_.load();
    s.cached = cached_;
    s.limit = limit_.load();
    s.hits = hits_;
    s.misses = misses_;
    return s;
  }

  /// Whether freed large blocks are kept.
  bool caching() const { return caching_; }

 private:
  struct block {
    void* p;
    std::size_t size;
  };
  static constexpr std::size_t unlimited = std::numeric_limits<std::size_t>::max();
  void take(std::size_t size) noexcept {
    const std::size_t now = in_use_.fetch_add(size, std::memory_order_relaxed) + size;
    std::size_t peak = peak_.load(std::memory_order_relaxed);
    while (now > peak && !peak_.compare_exchange_weak(peak, now, std::memory_order_relaxed)) {
    }
  }
  // Frees the oldest cached blocks until at most `keep` bytes stay cached.
  void trim_locked(std::size_t keep) noexcept {
    std::size_t n = 0;
    while (cached_ > keep && n < free_.size()) {
      host_system_free(free_[n].p, free_[n].size);
      cached_ -= free_[n].size;
      ++n;
    }
    free_.erase(free_.begin(), free_.begin() + static_cast<std::ptrdiff_t>(n));
  }

  const bool caching_;
  mutable std::mutex mutex_;
  std::vector<block> free_;  // oldest first; few (the cap over the threshold at most)
  std::atomic<std::size_t> limit_{unlimited}, in_use_{0}, peak_{0};
  std::size_t cached_ = 0, hits_ = 0, misses_ = 0;  // guarded by mutex_
};

/// The process's host pool (never destroyed, so that arrays freed during
/// static destruction can still return their blocks).
inline host_pool& host_memory() {
  static host_pool* p = new host_pool;
  return *p;
}

}  // namespace detail

/// Limit the host memory sinter may hold (host and par arrays, temporaries
/// and cached blocks); past it, once the cache is emptied, allocation throws
/// sinter::out_of_memory. Also settable by the environment: SINTER_HOST_MEMORY_LIMIT=4G.
inline void set_host_memory_limit(std::size_t bytes) { detail::host_memory().set_limit(bytes); }

/// Host memory statistics: in use, peak, cached, limit, and the pool's hits and misses.
inline host_pool_stats host_memory_stats() { return detail::host_memory().stats(); }

/// Give every cached host block back to the system (arrays are untouched).
inline void host_empty_cache() { detail::host_memory().empty_cache(); }

}  // namespace sinter

namespace sinter::detail {

/// `bytes` of host memory (nullptr for 0). A pool hit counts as an
/// allocation too: the trace counts the buffers an expression asks for.
inline void* host_allocate(std::size_t bytes, bool* fresh = nullptr) {
  if (bytes == 0) return nullptr;
  // No object is larger (a negative size wrapped); bounding it also keeps
  // GCC 12 from a false -Walloc-size-larger-than on a path that threw.
  if (bytes > static_cast<std::size_t>(PTRDIFF_MAX)) throw std::bad_alloc();
  void* p = host_memory().allocate(bytes, fresh);
  note_allocation();
  return p;
}

inline void host_deallocate(void* p, std::size_t bytes) noexcept { host_memory().deallocate(p, bytes); }

/// Touch each page of [p, p + bytes) once, one 2 MiB run per task of
/// `parallel_for(n_tasks, f)` (thread_pool::parallel_for's form), so that
/// the pool's threads fault the pages in, in parallel and on their own
/// NUMA nodes, before the first pass writes them.
template <class ParallelFor>
void host_first_touch(void* p, std::size_t bytes, ParallelFor&& parallel_for) {
  if (!p || bytes == 0) return;
  auto* base = static_cast<volatile unsigned char*>(p);
  const std::size_t run = host_huge_page, page = 4096;
  const auto tasks = static_cast<std::int64_t>((bytes + run - 1) / run);
  parallel_for(tasks, [&](std::int64_t t) {
    const std::size_t b = static_cast<std::size_t>(t) * run, e = b + run < bytes ? b + run : bytes;
    for (std::size_t i = b; i < e; i += page) base[i] = 0;
  });
}

/// host_allocate for par: a large block new from the system is first
/// touched over `parallel_for` (host_first_touch); a reused one is not.
template <class ParallelFor>
void* host_allocate_touched(std::size_t bytes, ParallelFor&& parallel_for) {
  bool fresh = false;
  void* p = host_allocate(bytes, &fresh);
  if (fresh && bytes >= host_pool_threshold) host_first_touch(p, bytes, parallel_for);
  return p;
}

}  // namespace sinter::detail
