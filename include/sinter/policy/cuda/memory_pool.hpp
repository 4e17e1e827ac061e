#pragma once
/// \file memory_pool.hpp
/// Device memory accounting: a settable limit and statistics (in use, peak,
/// cached) in front of CUDA's stream-ordered allocator (cudaMallocAsync on
/// the device's default memory pool, whose release threshold is raised so
/// that freed blocks stay cached for reuse, as CuPy's and TensorFlow's
/// allocators do). It also remembers which (device, stream) each live
/// allocation was made for, so that an expression, which carries only its
/// policy type, runs on its arrays' stream. The accounting and that registry
/// are plain host code, tested without a GPU.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <map>
#include <mutex>
#include <optional>
#include <string>

#include "../../core/byte_size.hpp"
#include "../../core/error.hpp"

struct CUstream_st;  // cudaStream_t is CUstream_st*; declared here for host-only files

namespace sinter {

/// Device memory statistics, in bytes.
struct memory_stats {
  std::size_t in_use = 0;  ///< held by live arrays and temporaries
  std::size_t peak = 0;    ///< highest in_use so far
  std::size_t cached = 0;  ///< freed but kept by the pool for reuse
  std::size_t limit = std::numeric_limits<std::size_t>::max();  ///< set_cuda_memory_limit / SINTER_CUDA_MEMORY_LIMIT
};

namespace detail {

/// The device pool's limit from a user's string ("512M", "4G").
inline std::size_t parse_memory_size(const std::string& s) { return parse_byte_size(s, "cuda memory limit"); }

/// Limit and counters for one device; thread-safe.
class pool_accounting {
 public:
  pool_accounting() {
    if (const char* env = std::getenv("SINTER_CUDA_MEMORY_LIMIT")) limit_ = parse_memory_size(env);
  }
  /// Count `bytes` as in use, or throw out_of_memory (nothing changes) past the limit.
  void reserve(std::size_t bytes, const std::string& where) {
    std::lock_guard<std::mutex> lock(mutex_);
    const std::size_t avail = limit_ > in_use_ ? limit_ - in_use_ : 0;
    if (bytes > avail)
      throw out_of_memory(where + ": cannot allocate " + std::to_string(bytes) + " bytes: limit " +
                              std::to_string(limit_) + ", in use " + std::to_string(in_use_) +
                              ", available " + std::to_string(avail),
                          bytes, avail);
    in_use_ += bytes;
    if (in_use_ > peak_) peak_ = in_use_;
  }
  /// Count `bytes` as no longer in use.
  void release(std::size_t bytes) {
    std::lock_guard<std::mutex> lock(mutex_);
    in_use_ -= bytes < in_use_ ? bytes : in_use_;
  }
  void set_limit(std::size_t bytes) {
    std::lock_guard<std::mutex> lock(mutex_);
    limit_ = bytes;
  }
  memory_stats stats() const {
    std::lock_guard<std::mutex> lock(mutex_);
    memory_stats s;
    s.in_use = in_use_;
    s.peak = peak_;
    s.limit = limit_;
    return s;
  }
  void reset_peak() {
    std::lock_guard<std::mutex> lock(mutex_);
    peak_ = in_use_;
  }

 private:
  mutable std::mutex mutex_;
  std::size_t limit_ = std::numeric_limits<std::size_t>::max();
  std::size_t in_use_ = 0, peak_ = 0;
};

/// The device and stream an allocation belongs to.
struct stream_owner {
  int device = 0;
  CUstream_st* stream = nullptr;
};

/// Live device allocations by address range → the (device, stream) of the
/// policy that allocated them; thread-safe. A pointer anywhere inside an
/// allocation (a view's offset data) finds it.
class allocation_registry {
 public:
  void add(const void* p, std::size_t bytes, stream_owner owner) {
    if (!p || bytes == 0) return;
    std::lock_guard<std::mutex> lock(mutex_);
    ranges_[address(p)] = {address(p) + bytes, owner};
  }
  void remove(const void* p) {
    std::lock_guard<std::mutex> lock(mutex_);
    ranges_.erase(address(p));
  }
  /// The owner of the allocation holding `p`, if sinter allocated it.
  std::optional<stream_owner> find(const void* p) const {
    const std::uintptr_t a = address(p);
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = ranges_.upper_bound(a);
    if (it == ranges_.begin()) return std::nullopt;
    --it;
    if (a >= it->second.end) return std::nullopt;
    return it->second.owner;
  }
  std::size_t size() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return ranges_.size();
  }

 private:
  struct range {
    std::uintptr_t end;
    stream_owner owner;
  };
  static std::uintptr_t address(const void* p) { return reinterpret_cast<std::uintptr_t>(p); }
  mutable std::mutex mutex_;
  std::map<std::uintptr_t, range> ranges_;
};

/// The registry of sinter's live device allocations (process-wide; never
/// destroyed, so arrays freed during static destruction can still leave it).
inline allocation_registry& cuda_allocations() {
  static allocation_registry* r = new allocation_registry;
  return *r;
}

inline constexpr int max_cuda_devices = 64;

/// The accounting of device `d` (process-wide).
inline pool_accounting& device_accounting(int d) {
  static pool_accounting pools[max_cuda_devices];
  if (d < 0 || d >= max_cuda_devices) throw device_error("cuda:" + std::to_string(d) + ": no such device");
  return pools[d];
}

}  // namespace detail

/// Limit device memory that sinter may hold on `device` (all its arrays and
/// temporaries); past it, allocation throws sinter::out_of_memory.
/// Also settable by the environment: SINTER_CUDA_MEMORY_LIMIT=4G.
inline void set_cuda_memory_limit(std::size_t bytes, int device = 0) {
  detail::device_accounting(device).set_limit(bytes);
}

}  // namespace sinter
