#pragma once
/// \file policy/backend.hpp
/// The backend contract in one header: what a policy specialises to run
/// passes (backend<P>: evaluate, tie, inline routes), reductions
/// (reducer<P>), transfers and printing (memory_space, expr_policy,
/// transfer, device_gather), declared here so that each device's header
/// (policy/cuda/*) and each front-end header reaches the others only
/// through it.
///
/// backend<P>, specialised by each policy header:
///
///   static void* allocate(const P&, std::size_t bytes);      // aligned, counted
///   static void deallocate(const P&, void* p, std::size_t bytes);
///   template <class T, std::size_t R, class Node>
///   static void evaluate(const P&, memory_leaf<T, R> out, const Node& bound, std::string* detail);
///        // run `out = bound` as one pass; `bound` is already bound to out's
///        // shape and free of harmful aliasing; when `detail` is not null (the
///        // trace is on), store a short description of the path taken there
///        // (untraced passes build no string: no allocation per pass)
///   static constexpr bool host_accessible;                   // can the CPU dereference its memory
///   static std::string label(const P&);                      // "host", "par", "cuda:0"
///
/// Optionally, passes that assign runs in its caller, without the general
/// path's copies and calls (evaluate.hpp; host and par have them):
///
///   static bool inline_ok(const memory_leaf<T, R>& out, const Node& bound);
///   static void run_inline(const memory_leaf<T, R>& out, const Node& bound);
///        // a contiguous pass (output and every leaf row-major)
///   static bool inline_rows_ok(const memory_leaf<T, R>& out, const Node& bound);
///   static void run_inline_rows(const memory_leaf<T, 2>& out, const Node& bound);
///        // a rank-2 pass by rows: contiguous output, every leaf's rows at stride 1
///
/// assign checks first that no input overlaps the output. And one that
/// assign_bound, the general path, runs first thing, before its alias check
/// and path choice (host and par have it):
///
///   static bool direct_step2_ok(const memory_leaf<T, R>& out, const Node& bound);
///   static void run_direct_step2(const memory_leaf<T, R>& out, const Node& bound);
///        // a rank-1 pass: contiguous output, every leaf read at stride 2
///
/// Expressions never know which backend runs them; a backend never knows
/// which ops exist. Adding a backend touches nothing in core/.
#include <concepts>
#include <cstddef>
#include <span>
#include <string>
#include <type_traits>

#include "../core/leaf.hpp"
#include "../core/shape.hpp"
#include "host_memory.hpp"

namespace sinter {
namespace detail {
/// Specialised by each policy header.
template <class P>
struct backend;

/// Operations that read a whole array in one process (argsort, partition,
/// topk, unique, searchsorted) call check(name) first: nothing here; the
/// distributed policy's throws value_error on every rank, and its optional
/// sort_rows / check_sort take over sort and sort_inplace (mpi/unsupported.hpp).
template <class P>
struct whole_array_ops {
  /// Refuses operation `name` on P's arrays, or returns.
  static void check(const char*) {}
};
/// Whether whole_array_ops W has check_sort (then its sort_rows takes over
/// sort and sort_inplace). A plain detection: nvcc 13 failed (an internal
/// error) on a requires-expression calling sort_rows inside sort.hpp.
template <class W, class = void>
inline constexpr bool sorts_rows_v = false;
template <class W>
inline constexpr bool sorts_rows_v<W, std::void_t<decltype(&W::check_sort)>> = true;
}  // namespace detail

/// A placement policy: a type with a detail::backend specialisation.
template <class P>
concept policy = requires(const P& p) {
  { detail::backend<P>::label(p) } -> std::convertible_to<std::string>;
  detail::backend<P>::host_accessible;
};

namespace detail {
/// Where a policy-neutral operand (a scalar, a generator) may run: anywhere.
struct any_policy {};

/// The policy an expression mixing operands of policies A and B runs on,
/// as `type`. Two policies mix only when they share one memory space, so
/// that neither reads memory it cannot reach (host and par: par, specialised
/// in policy/par.hpp); otherwise there is no `type` and join_policy refuses.
template <class A, class B>
struct mixed_policy {};
template <class A>
struct mixed_policy<A, A> {
  using type = A;
};

/// Whether operands of policies A and B may meet in one expression or
/// assignment: the same policy, policies of one memory space, or one of them
/// policy-neutral (any_policy).
template <class A, class B>
inline constexpr bool mixable_v = std::is_same_v<A, any_policy> || std::is_same_v<B, any_policy> ||
                                  requires { typename mixed_policy<A, B>::type; };

template <class A, class B>
struct join_policy {
  static_assert(mixable_v<A, B>, "sinter: operands live on different devices: move one with sinter::to<P>(x)");
  using type = typename std::conditional_t<mixable_v<A, B>, mixed_policy<A, B>, mixed_policy<A, A>>::type;
};
template <class A> struct join_policy<A, any_policy> { using type = A; };
template <class B> struct join_policy<any_policy, B> { using type = B; };
template <> struct join_policy<any_policy, any_policy> { using type = any_policy; };

template <class... P> struct common_policy;
template <class P> struct common_policy<P> { using type = P; };
template <class A, class B, class... R>
struct common_policy<A, B, R...> {
  using type = typename common_policy<typename join_policy<A, B>::type, R...>::type;
};
/// The one policy of a set of operands (any_policy ignored; host with par is
/// par); mixing policies of different memory spaces is a compile error.
template <class... P>
using common_policy_t = typename common_policy<P...>::type;
}  // namespace detail
}  // namespace sinter

namespace sinter::detail {

/// The reduction hook, defined by reduce.hpp (host and par) and
/// reduce/cuda.hpp (cuda). `reducer<P>` reduces on policy P; `pol` is the policy
/// value the reduction runs on (an operand's own, e.g. a cuda array's device
/// and stream):
///  - full<Op>(pol, e): the accumulator of all elements;
///  - along<Op>(pol, out, permuted, pshape, outputs, len, finish): out[o] =
///    finish(fold of flat positions [o*len, (o+1)*len) of pshape, len), the
///    elements entering with their index within the segment (argmin/argmax).
///    `finish` is a trivially copyable SINTER_HD functor (a device runs it).
template <class P>
struct reducer;

}  // namespace sinter::detail

/// The memory side of the backend contract: scratch buffers, and what a
/// device policy (one whose memory the CPU cannot read: cuda) specialises
/// so that sinter::copy, sinter::to (transfer.hpp) and printing (io.hpp)
/// reach it: its memory space, the policy value of its expressions, its
/// transfers and its gather of shown elements.

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
