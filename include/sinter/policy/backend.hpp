#pragma once
/// \file backend.hpp
/// The contract every policy implements, by specialising detail::backend<P>:
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
#include <string>
#include <type_traits>

namespace sinter {
namespace detail {
/// Specialised by each policy header.
template <class P>
struct backend;
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
