#pragma once
/// \file host_memory.hpp
/// Host memory shared by the host and par policies: 64-byte aligned (a cache
/// line, an AVX-512 vector), counted for the trace.
#include <cstddef>
#include <cstdint>
#include <new>

#include "../core/allocation_count.hpp"

namespace sinter::detail {

inline constexpr std::size_t host_alignment = 64;

inline void* host_allocate(std::size_t bytes) {
  if (bytes == 0) return nullptr;
  // No object is larger (a negative size wrapped); bounding it also keeps
  // GCC 12 from a false -Walloc-size-larger-than on a path that threw.
  if (bytes > static_cast<std::size_t>(PTRDIFF_MAX)) throw std::bad_alloc();
  note_allocation();
  return ::operator new(bytes, std::align_val_t{host_alignment});
}

inline void host_deallocate(void* p, std::size_t) noexcept {
  if (p) ::operator delete(p, std::align_val_t{host_alignment});
}

}  // namespace sinter::detail
