#pragma once
/// \file allocation_count.hpp
/// The process's count of array buffers allocated, any policy: each
/// backend's allocate adds to it (policy/host_memory.hpp, policy/cuda.hpp),
/// trace.hpp reads it (allocation_count, trace_scope::allocations).
#include <atomic>
#include <cstddef>

namespace sinter::detail {

/// Array buffers allocated so far in this process, temporaries included.
inline std::atomic<std::size_t> allocations_made{0};

/// Count one array buffer allocation.
inline void note_allocation() { allocations_made.fetch_add(1, std::memory_order_relaxed); }

}  // namespace sinter::detail
