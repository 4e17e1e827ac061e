#pragma once
/// \file device_hooks.hpp
/// The memory side of the backend contract: scratch buffers, and what a
/// device policy (one whose memory the CPU cannot read: cuda) specialises
/// so that sinter::copy, sinter::to (transfer.hpp) and printing (io.hpp)
/// reach it: its memory space, the policy value of its expressions, its
/// transfers and its gather of shown elements. They sit below those
/// top-level headers so that the device's specialisations
/// (policy/cuda/transfer.hpp, policy/cuda/print.hpp) need only this layer.
#include <cstddef>
#include <span>

#include "../core/leaf.hpp"
#include "../core/shape.hpp"
#include "backend.hpp"
#include "host_memory.hpp"

namespace sinter::detail {

template <class...> inline constexpr bool always_false_v = false;

/// A raw buffer of the policy's memory, freed on scope exit.
template <class T, class P>
struct scratch {
  const P& pol;
  T* ptr;
  std::size_t bytes;
  scratch(const P& p, index_t n)
      : pol(p), ptr(nullptr), bytes(static_cast<std::size_t>(n) * sizeof(T)) {
    ptr = static_cast<T*>(backend<P>::allocate(pol, bytes));
  }
  scratch(const scratch&) = delete;
  scratch& operator=(const scratch&) = delete;
  ~scratch() { backend<P>::deallocate(pol, ptr, bytes); }
};

/// A raw buffer of host memory (as the host policy allocates it, counted by
/// the trace), freed on scope exit: a device's staging buffer on the host.
template <class T>
struct host_scratch {
  T* ptr;
  std::size_t bytes;
  explicit host_scratch(index_t n)
      : ptr(static_cast<T*>(host_allocate(static_cast<std::size_t>(n) * sizeof(T)))),
        bytes(static_cast<std::size_t>(n) * sizeof(T)) {}
  host_scratch(const host_scratch&) = delete;
  host_scratch& operator=(const host_scratch&) = delete;
  ~host_scratch() { host_deallocate(ptr, bytes); }
};

/// Host memory: what host and par allocate, what the CPU dereferences.
struct host_space {};

/// The memory space a policy's data lives in. Specialised by each policy whose
/// memory the others cannot read directly (cuda); host and par: host_space
/// (transfer.hpp).
template <class P>
struct memory_space {
  using type = P;
};

template <class P>
using memory_space_t = typename memory_space<P>::type;

/// The policy value an expression of policy P runs with when it is the source
/// of a transfer (an expression carries only its policy type). Default: P{};
/// a device policy may look at the expression (cuda: the device of its memory).
template <class P>
struct expr_policy {
  template <class E>
  static P get(const E&) {
    return P{};
  }
};

/// Copy `src` (an expression of the From space, of policy value `spol`) into
/// `out` (memory of policy value `pol`, in the To space). `passes` runs the
/// passes a transfer needs (transfer.hpp's transfer_passes):
/// `passes.run(pol, out, e)` is `out = e` on pol; `passes.run_in_place(pol,
/// out, e)` the same for an `e` in pol's memory space, of another policy
/// value; `passes.run_dense(pol, out, p, shape)` is `out = ` the contiguous
/// buffer p of that shape in pol's memory. Primary template: no such transfer.
template <class From, class To>
struct transfer {
  template <class PD, class T, std::size_t R, class E, class PS, class Passes>
  static void copy(const PD&, const memory_leaf<T, R>&, const E&, const PS&, const Passes&) {
    static_assert(always_false_v<From, To>,
                  "sinter::copy: no transfer between these memory spaces; include the device "
                  "policy's header");
  }
};

/// How the elements of memory the CPU cannot read are fetched for printing,
/// specialised by each device policy: `gather(pol, ptr, offsets, values)`
/// copies `ptr[offsets[i]]` to `values[i]` on the host (io.hpp).
template <class P>
struct device_gather {
  template <class T>
  static void gather(const P&, const T*, std::span<const index_t>, T*) {
    static_assert(always_false_v<P, T>,
                  "sinter: no printer for this device policy; copy to the host with sinter::to<sinter::host>(x)");
  }
};

}  // namespace sinter::detail
