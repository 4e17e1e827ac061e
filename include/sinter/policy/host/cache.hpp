#pragma once
/// \file policy/host/cache.hpp
/// The size of the last-level cache one CPU can use, which sets the host
/// streaming threshold (host_stream.hpp). On Linux it comes from sysfs
/// (/sys/devices/system/cpu/cpu0/cache), the cache instance CPU 0 shares.
/// glibc's sysconf(_SC_LEVEL3_CACHE_SIZE) can report more than one core
/// can use on AMD processors (320 MiB where sysfs lists a 32 MiB L3; .NET's
/// garbage collector met the same and reads sysfs first too:
/// dotnet/runtime pull request 108492), which left large passes unstreamed
/// (docs/journal/code-notes.md#host-cache-size).
///
/// A virtual machine's sysfs can list the whole host's cache as shared by
/// its few CPUs (260 MiB shared by CPUs 0-1 of a 2-core VM, whose passes
/// fell out of the cache far below that; docs/journal/code-notes.md#host-cache-size).
/// So the size counts at most `cache_per_cpu_cap` per
/// CPU listed as sharing it: more than any x86 part has per core (the most
/// is 12 MiB, AMD's X3D parts), so a machine that sees all of its cache's
/// cores is never cut.
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#if defined(__unix__) || defined(__APPLE__)
#include <unistd.h>
#endif

namespace sinter {
namespace detail {

/// The decimal number at `p` into `v`, `p` moved past it; false (and `p`
/// unmoved) if no digit is there.
inline bool parse_digits(const char*& p, std::size_t& v) noexcept {
  const char* start = p;
  for (v = 0; *p >= '0' && *p <= '9'; ++p) v = v * 10 + static_cast<std::size_t>(*p - '0');
  return p != start;
}

/// Bytes in a sysfs cache size ("32768K", "1M", "512"; a trailing newline
/// is allowed); 0 when `text` is not one.
inline std::size_t parse_cache_size(const char* text) noexcept {
  std::size_t v = 0;
  const char* p = text;
  if (!parse_digits(p, v)) return 0;
  if (*p == 'K') v <<= 10, ++p;
  else if (*p == 'M') v <<= 20, ++p;
  else if (*p == 'G') v <<= 30, ++p;
  if (*p == '\n') ++p;
  return *p == '\0' ? v : 0;
}

/// The first line of the file `dir`/`name` (at most 63 characters) into
/// `line`; false if it cannot be read.
inline bool read_first_line(const char* dir, const char* name, char (&line)[64]) noexcept {
  char path[512];
  const int len = std::snprintf(path, sizeof path, "%s%s", dir, name);
  if (len < 0 || static_cast<std::size_t>(len) >= sizeof path) return false;
  std::FILE* f = std::fopen(path, "r");
  if (!f) return false;
  const bool ok = std::fgets(line, sizeof line, f) != nullptr;
  std::fclose(f);
  return ok;
}

/// The most cache a CPU is taken to have to itself (host_cache.hpp's header).
inline constexpr std::size_t cache_per_cpu_cap = std::size_t{32} << 20;

/// The number of CPUs in a sysfs CPU list ("0-1", "0,2,4-7", "5"; a trailing
/// newline is allowed); 0 when `text` is not one.
inline std::size_t parse_cpu_list_count(const char* text) noexcept {
  std::size_t count = 0;
  const char* p = text;
  for (;;) {
    std::size_t lo = 0, hi = 0;
    if (!parse_digits(p, lo)) return 0;
    hi = lo;
    if (*p == '-') {
      ++p;
      if (!parse_digits(p, hi) || hi < lo) return 0;
    }
    count += hi - lo + 1;
    if (*p != ',') break;
    ++p;
  }
  if (*p == '\n') ++p;
  return *p == '\0' ? count : 0;
}

/// The size in bytes of the highest-level data or unified cache listed under
/// `cpu_dir`/cache/index0, index1, ... (Linux sysfs: files `level`, `type`,
/// `size`); the largest one if a level has several; 0 if none is readable.
/// A cache with a readable `shared_cpu_list` counts at most
/// `cache_per_cpu_cap` bytes per CPU listed there.
inline std::size_t sysfs_last_level_cache_bytes(const char* cpu_dir) noexcept {
  std::size_t best_bytes = 0;
  long best_level = 0;
  for (int k = 0; k < 32; ++k) {
    char dir[448];
    const int len = std::snprintf(dir, sizeof dir, "%s/cache/index%d/", cpu_dir, k);
    if (len < 0 || static_cast<std::size_t>(len) >= sizeof dir) return 0;
    char level[64], type[64], size[64];
    if (!read_first_line(dir, "level", level)) break;
    if (!read_first_line(dir, "type", type) || !read_first_line(dir, "size", size)) continue;
    if (std::strncmp(type, "Instruction", 11) == 0) continue;
    const long lv = std::strtol(level, nullptr, 10);
    std::size_t bytes = parse_cache_size(size);
    if (lv <= 0 || bytes == 0) continue;
    char cpus[64];
    // A list longer than the line read (no newline) is not counted.
    if (read_first_line(dir, "shared_cpu_list", cpus) && std::strchr(cpus, '\n'))
      if (const std::size_t n = parse_cpu_list_count(cpus); n > 0 && n < bytes / cache_per_cpu_cap)
        bytes = n * cache_per_cpu_cap;
    if (lv > best_level || (lv == best_level && bytes > best_bytes)) best_level = lv, best_bytes = bytes;
  }
  return best_bytes;
}

/// The last-level cache size in bytes: Linux's sysfs for CPU 0 (capped per
/// sharing CPU), else the C library's sysconf (L3, then L2), else 32 MiB.
inline std::size_t last_level_cache_bytes() noexcept {
#if defined(__linux__)
  if (const std::size_t b = sysfs_last_level_cache_bytes("/sys/devices/system/cpu/cpu0")) return b;
#endif
  long bytes = -1;
#if defined(_SC_LEVEL3_CACHE_SIZE)
  bytes = sysconf(_SC_LEVEL3_CACHE_SIZE);
  if (bytes <= 0) bytes = sysconf(_SC_LEVEL2_CACHE_SIZE);
#endif
  return bytes > 0 ? static_cast<std::size_t>(bytes) : std::size_t{32} << 20;
}

}  // namespace detail
}  // namespace sinter
