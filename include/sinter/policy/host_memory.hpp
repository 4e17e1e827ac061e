#pragma once
/// \file host_memory.hpp
/// Host memory shared by the host and par policies: 64-byte aligned (a cache
/// line, an AVX-512 vector), counted for the trace, large buffers from the
/// caching pool of host_pool.hpp.
#include <cstddef>
#include <cstdint>
#include <new>

#include "../core/allocation_count.hpp"
#include "host_pool.hpp"

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
