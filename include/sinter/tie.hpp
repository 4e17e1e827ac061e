#pragma once
/// \file tie.hpp
/// One pass writing several outputs, like MatX's mtie:
///
///   sinter::tie(call, put) = std::tuple(s * nd1 - ke * nd2, ke * (1 - nd2) - s * (1 - nd1));
///
/// Output k gets expression k, broadcast to its shape; all outputs have one
/// shape (arrays are not reshaped, unlike `a = e`) and one policy (or host
/// and par, one memory space: the pass runs on par). Every
/// value is computed from the inputs as they were before the pass, so
/// outputs may be inputs too: `sinter::tie(a, b) = std::tuple(b, a)` swaps.
/// Two outputs may not share an element (value_error).
///
/// On host and par, when no output is read by another expression, it is one
/// pass (policy/host/tie.hpp): with every output and expression contiguous,
/// a loop over tiles that reads the inputs from memory once and computes a
/// costly subexpression common to the expressions (Black-Scholes' d1) once
/// per element; in other layouts, a loop over rows. Otherwise, and on cuda,
/// each output is its own pass, through a temporary where an output is read
/// by an expression (values as above); the trace shows which.
#include <chrono>
#include <cstddef>
#include <memory>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

#include "evaluate.hpp"

namespace sinter {
namespace detail {

/// What sinter::tie accepts as an output: an array or a view.
template <class O>
concept tie_output = requires(O& o) {
  o.leaf();
  o.policy();
};

/// Whether `out` shares a byte with any memory leaf under `n`, whatever
/// their index mappings.
template <class T, std::size_t R, class Node>
bool touches(const memory_leaf<T, R>& out, const Node& n) {
  const auto range = byte_range(out);  // not a structured binding: Clang 14 cannot capture one
  const std::uintptr_t olo = range.first, ohi = range.second;
  if (olo == ohi) return false;
  bool hit = false;
  for_each_leaf(n, [&](const auto& leaf) {
    if constexpr (is_memory_leaf<std::remove_cvref_t<decltype(leaf)>>::value) {
      const auto [lo, hi] = byte_range(leaf);
      hit = hit || (lo < ohi && olo < hi);
    }
  });
  return hit;
}

/// Whether two outputs share a byte.
template <class T, class U, std::size_t R>
bool outputs_overlap(const memory_leaf<T, R>& a, const memory_leaf<U, R>& b) {
  const auto [alo, ahi] = byte_range(a);
  const auto [blo, bhi] = byte_range(b);
  return alo != ahi && blo != bhi && alo < bhi && blo < ahi;
}

/// f(std::integral_constant<std::size_t, K>{}) for K = 0 .. N-1, in order.
template <std::size_t N, class F>
void for_index(F&& f) {
  [&]<std::size_t... K>(std::index_sequence<K...>) {
    (f(std::integral_constant<std::size_t, K>{}), ...);
  }(std::make_index_sequence<N>{});
}

/// Record a tied pass for the trace: "(f32[4], f32[4]) = (add(..), ..)"
/// (cold, out of line: the string work is describe_into's and emit_pass's).
template <class P, class... T, std::size_t R, class... E>
SINTER_COLD SINTER_NOINLINE void trace_tie(const P& pol, const std::tuple<memory_leaf<T, R>...>& outs,
                                           const std::tuple<E...>& exprs, double seconds, std::string path) {
  std::string lhs = "(", rhs = "(";
  for_index<sizeof...(T)>([&](auto kc) {
    constexpr std::size_t k = decltype(kc)::value;
    if constexpr (k > 0) {
      append_text(lhs, ", ");
      append_text(rhs, ", ");
    }
    using Tk = std::tuple_element_t<k, std::tuple<T...>>;
    append_leaf_label(lhs, dtype_name<std::remove_const_t<Tk>>(), get<k>(outs).shape.data(), R);
    describe_into(rhs, get<k>(exprs).node());
  });
  append_text(lhs, ") = ");
  append_text(rhs, ")");
  lhs += rhs;
  const index_t n = shape_size(get<0>(outs).shape);
  emit_pass(backend<P>::label(pol), std::move(lhs), n,
            std::apply([](const auto&... e) { return input_bytes(e.node()...); }, exprs),
            static_cast<std::size_t>(n) * (0 + ... + sizeof(T)), seconds, std::move(path));
}

/// The pass of a backend that runs tied outputs of rank >= 1 itself (host,
/// par: `backend<P>::run_tie`), with its trace record when one is active;
/// false, with nothing done, for other backends and rank 0.
template <class P, class... T, std::size_t R, class... E, class... B>
bool run_tie_fused(const P& pol, const std::tuple<memory_leaf<T, R>...>& outs, const std::tuple<E...>& exprs,
                   const std::tuple<B...>& bounds) {
  if constexpr (R > 0 && requires { backend<P>::run_tie(pol, outs, bounds, nullptr); }) {
    if (!trace_active()) {
      backend<P>::run_tie(pol, outs, bounds, nullptr);
      return true;
    }
    const auto t0 = std::chrono::steady_clock::now();
    std::string path;
    backend<P>::run_tie(pol, outs, bounds, &path);
    const auto t1 = std::chrono::steady_clock::now();
    trace_tie(pol, outs, exprs, std::chrono::duration<double>(t1 - t0).count(), std::move(path));
    return true;
  } else {
    (void)pol, (void)outs, (void)exprs, (void)bounds;
    return false;
  }
}

/// `(outs...) = (exprs...)` in one pass where the backend can (run_tie_fused),
/// else one pass per output, the outputs that some expression reads written
/// through temporaries after every expression has been evaluated.
template <class P, class... T, std::size_t R, class... E>
void assign_tied(const P& pol, const std::tuple<memory_leaf<T, R>...>& outs, const std::tuple<E...>& exprs) {
  constexpr std::size_t N = sizeof...(T);
  static_assert(N == sizeof...(E), "sinter::tie: as many expressions as outputs");
  static_assert((true && ... && !std::is_const_v<T>), "sinter::tie: cannot assign to a view of const elements");
  static_assert((true && ... && mixable_v<typename E::policy_type, P>),
                "sinter: operands live on different devices: move one with sinter::to<P>(x)");
  for_index<N>([&](auto kc) {
    constexpr std::size_t k = decltype(kc)::value;
    if (get<k>(outs).shape != get<0>(outs).shape)
      throw shape_error("tie: outputs of shapes " + shape_string(get<0>(outs).shape) + " and " +
                        shape_string(get<k>(outs).shape) + ": one pass writes one shape");
    if (!broadcasts_to(get<k>(exprs).shape(), get<k>(outs).shape)) throw_no_assign("tie", get<k>(exprs).shape(), get<k>(outs).shape);
    for_index<k>([&](auto jc) {
      constexpr std::size_t j = decltype(jc)::value;
      if (outputs_overlap(get<j>(outs), get<k>(outs)))
        throw value_error("tie: outputs " + std::to_string(j) + " and " + std::to_string(k) +
                          " overlap: one pass cannot write an element twice");
    });
  });
  const auto bounds = std::apply(
      [&](const auto&... e) {
        return [&]<std::size_t... K>(std::index_sequence<K...>) {
          return std::make_tuple(e.node().bind(get<K>(outs).shape)...);
        }(std::index_sequence_for<E...>{});
      },
      exprs);
  // Output k is a hazard if an expression other than its own reads its
  // memory, or its own reads it through another index mapping.
  bool hazard[N] = {};
  bool any = false;
  for_index<N>([&](auto kc) {
    constexpr std::size_t k = decltype(kc)::value;
    hazard[k] = needs_temporary(get<k>(outs), get<k>(bounds));
    for_index<N>([&](auto jc) {
      if constexpr (decltype(jc)::value != k) hazard[k] = hazard[k] || touches(get<k>(outs), get<decltype(jc)::value>(bounds));
    });
    any = any || hazard[k];
  });
  if (!any && run_tie_fused(pol, outs, exprs, bounds)) return;
  // Temporaries first (they read the inputs before any output is written),
  // then the outputs nothing else reads, then the temporaries' copies.
  std::tuple<std::unique_ptr<scratch<T, P>>...> tmp;
  const index_t n = shape_size(get<0>(outs).shape);
  const auto strides = row_major_strides(get<0>(outs).shape);
  for_index<N>([&](auto kc) {
    constexpr std::size_t k = decltype(kc)::value;
    using U = std::tuple_element_t<k, std::tuple<T...>>;
    if (!hazard[k]) return;
    get<k>(tmp) = std::make_unique<scratch<U, P>>(pol, n);
    run_pass(pol, memory_leaf<U, R>{get<k>(tmp)->ptr, get<0>(outs).shape, strides}, get<k>(exprs).node());
  });
  for_index<N>([&](auto kc) {
    constexpr std::size_t k = decltype(kc)::value;
    if (!hazard[k]) run_bound_pass(pol, get<k>(outs), get<k>(exprs).node(), get<k>(bounds));
  });
  for_index<N>([&](auto kc) {
    constexpr std::size_t k = decltype(kc)::value;
    using U = std::tuple_element_t<k, std::tuple<T...>>;
    if (hazard[k]) run_pass(pol, get<k>(outs), memory_leaf<const U, R, true>{get<k>(tmp)->ptr, get<0>(outs).shape, strides});
  });
}

}  // namespace detail

/// Outputs tied together by sinter::tie, for one assignment of a
/// std::tuple of expressions (tie.hpp). Holds references to arrays and
/// copies of views; use it in the statement that makes it.
template <class... O>
class tied {
 public:
  explicit tied(O&&... o) : outs_(std::forward<O>(o)...) {}
  /// Output k = std::get<k>(e), broadcast, for every k in one pass; every
  /// value from the inputs as they were before the pass.
  template <class... E>
  void operator=(const std::tuple<E...>& e) && {
    static_assert(sizeof...(E) == sizeof...(O), "sinter::tie: as many expressions as outputs");
    using P0 = typename std::remove_cvref_t<std::tuple_element_t<0, std::tuple<O...>>>::policy_type;
    constexpr bool one_space = (true && ... && detail::mixable_v<typename std::remove_cvref_t<O>::policy_type, P0>);
    static_assert(one_space, "sinter::tie: outputs live on different devices");
    // Outputs of one memory space may mix (host with par runs on par); the
    // pass runs on the policy value of the first output of that policy.
    using P = typename std::conditional_t<
        one_space, detail::common_policy<typename std::remove_cvref_t<O>::policy_type...>,
        std::type_identity<P0>>::type;
    std::apply(
        [&](auto&... o) {
          const P* first = nullptr;
          const auto check_device = [&](const auto& out) {
            if constexpr (std::is_same_v<typename std::remove_cvref_t<decltype(out)>::policy_type, P>) {
              if (!first) first = &out.policy();
              else if (!(out.policy() == *first))
                throw device_error("tie: outputs on " + detail::backend<P>::label(*first) + " and " +
                                   detail::backend<P>::label(out.policy()) + ": one pass runs on one device");
            }
          };
          (check_device(o), ...);
          const P& pol = *first;
          const auto leaves = std::make_tuple(o.leaf()...);
          const auto exprs = std::apply([](const auto&... x) { return std::make_tuple(detail::as_expr(x)...); }, e);
          detail::assign_tied(pol, leaves, exprs);
        },
        outs_);
  }

 private:
  std::tuple<O...> outs_;
};

/// Tie arrays or views (all of one shape, and of one policy or of host and
/// par) as the outputs of one pass: `sinter::tie(call, put) = std::tuple(c, p);` (tie.hpp).
template <class... O>
  requires(sizeof...(O) >= 1 && (true && ... && detail::tie_output<std::remove_reference_t<O>>))
tied<O...> tie(O&&... o) {
  return tied<O...>(std::forward<O>(o)...);
}

}  // namespace sinter
