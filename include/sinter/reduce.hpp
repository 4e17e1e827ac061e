#pragma once
/// \file reduce.hpp
/// Reductions fused with their producers: sum, prod, min, max, mean, var,
/// std, any, all, count_nonzero, argmin, argmax, dot, norm — over the whole
/// array (a host value; on cuda this waits for the device) or along axes (an
/// array of the expression's policy, par if any operand is par, usable in
/// further expressions:
/// `x - sinter::mean(x, sinter::axis(1), sinter::keepdims)` normalises rows,
/// computing the means once).
///
/// The producer expression is never materialised: `sum(exp(a + b) * 2)` reads
/// a and b once and allocates nothing the size of the input.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>

#include "array.hpp"
#include "evaluate.hpp"
#include "expression.hpp"
#include "functions.hpp"
#include "policy/cuda.hpp"
#include "policy/par.hpp"
#if SINTER_HAS_CUDA()
#include "reduce/cuda.hpp"  // CUB's reducer<cuda>: only in files compiled as CUDA
#endif
#include "reduce/host_engine.hpp"
#include "reduce/ops.hpp"
#include "policy/backend.hpp"
#include "transfer.hpp"

namespace sinter {

/// The axes a reduction runs along: `sinter::axis(1)`, `sinter::axes(0, 2)`.
/// Negative axes count from the end.
template <std::size_t N>
struct axes_t {
  int a[N];
};
/// One axis to reduce along.
inline axes_t<1> axis(int a) { return {{a}}; }
/// Several axes to reduce along.
template <std::integral... I>
axes_t<sizeof...(I)> axes(I... a) {
  return {{static_cast<int>(a)...}};
}
/// Keep reduced axes as extent 1, for broadcasting the result against the input.
struct keepdims_t {
  explicit constexpr keepdims_t(int) {}
};
/// Keep reduced axes as extent 1.
inline constexpr keepdims_t keepdims{0};

namespace detail {

template <class P>
using concrete_policy_t = std::conditional_t<std::is_same_v<P, any_policy>, host, P>;

/// Whether a full CPU reduction of expression E (bound node B) may share a
/// costly subexpression: rank >= 1 and B has one (core/shared_nodes.hpp).
template <class E, class B>
inline constexpr bool shares_full_v = std::remove_cvref_t<E>::rank >= 1 && has_shared_v<std::remove_cvref_t<B>>;

/// The CPU reducers (host and par): reducer<P>'s primary template (the
/// contract, full and along, is in policy/backend.hpp). A device policy
/// specialises reducer<P> (cuda: reduce/cuda.hpp). Both run the producer with its equal twin pairs merged (twin_nodes.hpp);
/// full also computes a shared costly subexpression once per element when
/// the producer is contiguous (shared_nodes.hpp).
template <class P>
struct reducer {
  static constexpr bool parallel = std::is_same_v<P, par>;

  template <class Op, class E>
  static SINTER_FORCEINLINE auto full(const P&, const E& e) {
    const auto bound = e.node().bind(e.shape());
    const bool threads = parallel && e.size() >= 2 * par_grain;
    if constexpr (shares_full_v<E, decltype(bound)>)
      if (e.size() > 0 && shares_contiguous(bound)) return reduce_host::reduce_shared<Op>(bound, e.size(), threads);
    if constexpr (has_twins_v<std::remove_cvref_t<decltype(bound)>>) {
      if (twins_equal(bound)) return reduce_host::reduce_range<Op>(merge_twins(bound), e.shape(), 0, e.size(), threads);
      return full_as_written<Op>(e, threads);
    }
    return reduce_host::reduce_range<Op>(bound, e.shape(), 0, e.size(), threads);
  }

  /// full's run of a producer whose twin pairs differ: the tree as written,
  /// out of line. Inline, its fold's cursor (twice the pointers, passed on
  /// the stack) made GCC realign and spill full's frame on the merged path
  /// too (docs/journal/code-notes.md#reduce-full-inline).
  template <class Op, class E>
  static SINTER_NOINLINE auto full_as_written(const E& e, bool threads) {
    return reduce_host::reduce_range<Op>(e.node().bind(e.shape()), e.shape(), 0, e.size(), threads);
  }

  /// out[o] = fold of the `len` elements of output o, for the permuted bound node.
  template <class Op, class R, class Node, std::size_t RP, class Finish>
  static void along(const P&, R* out, const Node& permuted, const extents<RP>& pshape, index_t outputs,
                    index_t len, Finish finish) {
    with_twins_merged(permuted, [&](const auto& node) {
      using V = typename std::remove_cvref_t<decltype(node)>::value_type;
      // reduce_range's one-tile test and cursor, made once for all rows (the
      // node is the same for every row): made per row, they slowed short
      // rows (docs/journal/code-notes.md#reduce-full-inline).
      const bool unit_rows = reduce_host::one_unit_tile<RP>(node, len);
      const auto c = node.linear();  // read only when unit_rows
      auto one = [&](index_t o) {
        out[o] = finish(unit_rows ? reduce_host::fold_unit<Op, V>(c, o * len, len, 0)
                                  : reduce_host::reduce_range<Op>(node, pshape, o * len, len, false, o * len),
                        len);
      };
      if (parallel && outputs * len >= 2 * par_grain && outputs > 1) {
        const index_t chunks = std::min<index_t>(outputs, 4 * get_num_threads());
        const index_t per = (outputs + chunks - 1) / chunks;
        default_pool().parallel_for(chunks, [&](std::int64_t k) {
          for (index_t o = k * per; o < std::min(outputs, (k + 1) * per); ++o) one(o);
        });
      } else {
        for (index_t o = 0; o < outputs; ++o) one(o);
      }
    });
  }
};

#if !SINTER_HAS_CUDA()
/// reducer<cuda> in a file not compiled as CUDA: refused at compile time with
/// the policy's one message, rather than falling into the CPU reducer above,
/// which would read device memory on the host. (Files compiled by nvcc get
/// the CUB reducer of reduce/cuda.hpp.)
template <>
struct reducer<cuda> {
  template <class Op, class E>
  static auto full(const cuda&, const E&) {
    static_assert(compiled_as_cuda_v<E>,
                  "sinter::cuda: compile this file as CUDA (nvcc, or LANGUAGE CUDA in CMake) to use cuda arrays");
    return Op::template identity<typename E::value_type>();
  }
  template <class Op, class R, class Node, std::size_t RP, class Finish>
  static void along(const cuda&, R*, const Node&, const extents<RP>&, index_t, index_t, Finish) {
    static_assert(compiled_as_cuda_v<Node>,
                  "sinter::cuda: compile this file as CUDA (nvcc, or LANGUAGE CUDA in CMake) to use cuda arrays");
  }
};
#endif

/// finish(acc, len) of a reduction operator, as a functor a device can run.
template <class Op, class V>
struct op_finish {
  template <class A>
  SINTER_HD auto operator()(const A& a, index_t len) const {
    return Op::template finish<V>(a, len);
  }
};

/// An operand's own policy value (arrays and views carry one), if it has one.
/// Read before the operand is moved into its expression; no device call.
template <class P, class X>
std::optional<P> own_policy(const X& x) {
  if constexpr (requires { { x.policy() } -> std::convertible_to<const P&>; }) return P(x.policy());
  else return std::nullopt;
}

/// The policy value a reduction runs on: the operand's own, else the
/// expression's (expr_policy: cuda takes the device of the first memory
/// operand, on its default stream), else P{}.
template <class P, class E>
P reduction_policy(const std::optional<P>& own, const E& e) {
  if (own) return *own;
  if constexpr (std::is_same_v<typename E::policy_type, P>) return expr_policy<P>::get(e);
  else return P{};
}

template <class Op, class E>
void check_nonempty(const E& e, index_t n, const char* name = Op::name) {
  if constexpr (requires { Op::needs_elements; })
    if (n == 0)
      throw value_error(std::string("zero-size array to reduction operation ") + name +
                        " which has no identity (shape " + shape_string(e.shape()) + ")");
}

/// A reduction's trace detail: `what`, plus a note when a CPU reducer
/// shares a costly subexpression (full reductions: shared_nodes.hpp) or
/// merges the producer's twin pairs (twin_nodes.hpp).
template <class P, class E>
std::string reduce_detail(const char* what, const E& e, bool full) {
  std::string s = what;
  if constexpr (!std::is_same_v<P, cuda>) {
    const auto bound = e.node().bind(e.shape());
    using B = std::remove_cvref_t<decltype(bound)>;
    if constexpr (shares_full_v<E, B>) {
      if (full && e.size() > 0 && shares_contiguous(bound)) return s + shared_note;
    }
    if (has_twins_v<B> && twins_equal(bound)) s += twins_merged_note;
  }
  return s;
}

/// Record a reduction pass for the trace (cold, out of line: the string
/// work is describe_into's and emit_pass's, as for an assignment's pass).
template <class P, class E>
SINTER_COLD SINTER_NOINLINE void trace_reduce(const P& pol, const char* name, const E& e, std::size_t out_bytes,
                                              double seconds, const std::string& what) {
  std::string expression;
  append_text(expression, name);
  append_text(expression, "(");
  describe_into(expression, e.node());
  append_text(expression, ")");
  emit_pass(backend<P>::label(pol), std::move(expression), e.size(), input_bytes(e.node()), out_bytes, seconds, what);
}

/// reduce_all_on's traced run: the pass timed and recorded (out of line).
template <class Op, class P, class E>
SINTER_NOINLINE auto reduce_all_traced(const P& pol, const char* name, const E& e) {
  const auto t0 = std::chrono::steady_clock::now();
  auto acc = reducer<P>::template full<Op>(pol, e);
  trace_reduce(pol, name, e, sizeof(acc),
               std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(),
               reduce_detail<P>("full", e, true));
  return acc;
}

/// Full reduction of x on the policy value `own` (when x wraps an operand
/// that has one, e.g. norm's cast of a cuda array on its stream), reported
/// (errors, trace) under `name`: the accumulated value, before finish.
/// Forced inline, with the traced run out of line: out of line, GCC stored
/// the expression's bound node to the stack and read it back through
/// pointers, and called the twins check (twin_nodes.hpp) as a function
/// (docs/journal/code-notes.md#reduce-full-inline).
template <class Op, class P, class X>
SINTER_FORCEINLINE auto reduce_all_on(const std::optional<P>& own, const char* name, X&& x) {
  static_assert(std::is_same_v<P, concrete_policy_t<typename expr_of_t<X>::policy_type>>);
  auto&& e = as_operand(std::forward<X>(x));  // an expr by reference: no copy of its tree
  check_nonempty<Op>(e, e.size(), name);  // before any device call
  const P pol = reduction_policy<P>(own, e);
  if (!trace_active()) return reducer<P>::template full<Op>(pol, e);  // no clock reads untraced
  return reduce_all_traced<Op>(pol, name, e);
}

/// Full reduction: the accumulated value (before finish).
template <class Op, class X>
auto reduce_all(X&& x) {
  using P = concrete_policy_t<typename expr_of_t<X>::policy_type>;
  const std::optional<P> own = own_policy<P>(x);
  return reduce_all_on<Op>(own, Op::name, std::forward<X>(x));
}

/// Axis reduction into a new array on the policy value `own` (else the
/// expression's), reported (errors, trace) under `name`; `finish(acc, len)`
/// gives each output value, in the same pass.
template <class Op, class Result, bool Keep, class P, std::size_t N, class X, class Finish>
auto reduce_along_on(const std::optional<P>& own, const char* name, X&& x, const axes_t<N>& ax, Finish finish) {
  static_assert(std::is_same_v<P, concrete_policy_t<typename expr_of_t<X>::policy_type>>);
  auto&& e = as_operand(std::forward<X>(x));
  using E = std::remove_cvref_t<decltype(e)>;
  constexpr std::size_t R = E::rank;
  static_assert(N >= 1 && N <= R, "sinter: more reduction axes than the expression has");
  constexpr std::size_t RO = Keep ? R : R - N;
  bool reduced[R == 0 ? 1 : R] = {};
  for (std::size_t k = 0; k < N; ++k) {
    int a = ax.a[k];
    if (a < 0) a += static_cast<int>(R);
    if (a < 0 || a >= static_cast<int>(R))
      throw value_error(std::string(name) + ": axis " + std::to_string(ax.a[k]) +
                        " is out of bounds for an expression of rank " + std::to_string(R));
    if (reduced[a]) throw value_error(std::string(name) + ": repeated axis " + std::to_string(ax.a[k]));
    reduced[a] = true;
  }
  extents<R> perm{};
  extents<RO> out_shape{};
  std::size_t p = 0, o = 0;
  index_t outputs = 1, len = 1;
  for (std::size_t d = 0; d != R; ++d)
    if (!reduced[d]) {
      perm[p++] = static_cast<index_t>(d);
      outputs *= e.shape()[d];
    }
  for (std::size_t d = 0; d != R; ++d)
    if (reduced[d]) {
      perm[p++] = static_cast<index_t>(d);
      len *= e.shape()[d];
    }
  // o < RO always (N distinct axes are reduced); said for GCC 12, whose
  // -Warray-bounds saw out_shape[1] of a rank-1 result at -O3 with
  // -march=x86-64-v3 (tests/fma/reduce_rest_cases.hpp). A rank-0 result has
  // no extents (and nvcc calls `o < 0` a pointless comparison).
  if constexpr (RO > 0)
    for (std::size_t d = 0; d != R && o < RO; ++d) {
      if (!reduced[d]) out_shape[o++] = e.shape()[d];
      else if constexpr (Keep) out_shape[o++] = 1;
    }
  if (outputs > 0) check_nonempty<Op>(e, len, name);  // before any device call
  const P pol = reduction_policy<P>(own, e);
  const auto t0 = std::chrono::steady_clock::now();
  array<Result, RO, P> out(out_shape, pol);
  const auto bound = e.node().bind(e.shape()).permuted(perm);
  extents<R> pshape{};
  for (std::size_t d = 0; d != R; ++d) pshape[d] = e.shape()[static_cast<std::size_t>(perm[d])];
  reducer<P>::template along<Op>(pol, out.data(), bound, pshape, outputs, len, finish);
  if (trace_active())
    trace_reduce(pol, name, e, static_cast<std::size_t>(outputs) * sizeof(Result),
                 std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(),
                 reduce_detail<P>("along axes", e, false));
  return out;
}

/// Axis reduction into a new array; `finish(acc, len)` gives each output value.
template <class Op, class Result, bool Keep, std::size_t N, class X, class Finish>
auto reduce_along(X&& x, const axes_t<N>& ax, Finish finish) {
  using P = concrete_policy_t<typename expr_of_t<X>::policy_type>;
  const std::optional<P> own = own_policy<P>(x);
  return reduce_along_on<Op, Result, Keep>(own, Op::name, std::forward<X>(x), ax, finish);
}

template <class E>
using value_of_t = typename expr_of_t<E>::value_type;

}  // namespace detail

// One macro per simple reduction: full (a host value), along axes (an
// array), along axes keeping them (an array of the same rank).
#define SINTER_REDUCTION(fn, OP)                                                              \
  template <expression X>                                                                     \
  auto fn(X&& x) {                                                                            \
    using V = detail::value_of_t<X>;                                                          \
    using Op = detail::reduce_ops::OP;                                                        \
    const index_t n = detail::as_expr(x).size();                                              \
    return Op::template finish<V>(detail::reduce_all<Op>(std::forward<X>(x)), n);             \
  }                                                                                           \
  template <expression X, std::size_t N>                                                      \
  auto fn(X&& x, const axes_t<N>& ax) {                                                       \
    using V = detail::value_of_t<X>;                                                          \
    using Op = detail::reduce_ops::OP;                                                        \
    using Res = typename Op::template result_t<V>;                                            \
    return detail::reduce_along<Op, Res, false>(std::forward<X>(x), ax, detail::op_finish<Op, V>{}); \
  }                                                                                           \
  template <expression X, std::size_t N>                                                      \
  auto fn(X&& x, const axes_t<N>& ax, keepdims_t) {                                           \
    using V = detail::value_of_t<X>;                                                          \
    using Op = detail::reduce_ops::OP;                                                        \
    using Res = typename Op::template result_t<V>;                                            \
    return detail::reduce_along<Op, Res, true>(std::forward<X>(x), ax, detail::op_finish<Op, V>{}); \
  }

/// Sum of the elements (integers and bool in 64 bits; floats pairwise). Empty: 0.
SINTER_REDUCTION(sum, sum)
/// Product of the elements (integers wrap). Empty: 1.
SINTER_REDUCTION(prod, prod)
/// Smallest element; NaN propagates; empty throws value_error.
SINTER_REDUCTION(min, min)
/// Largest element; NaN propagates; empty throws value_error.
SINTER_REDUCTION(max, max)
/// Flat index of the first smallest element (the first NaN if any); empty throws.
SINTER_REDUCTION(argmin, argmin)
/// Flat index of the first largest element (the first NaN if any); empty throws.
SINTER_REDUCTION(argmax, argmax)
/// Whether any element is true (non-zero). Empty: false.
SINTER_REDUCTION(any, any)
/// (sinter::all, "every element is true", is the callable slice::all_t; below.)
SINTER_REDUCTION(all_elements, all)
/// How many elements are non-zero, as int64.
SINTER_REDUCTION(count_nonzero, count_nonzero)
/// Arithmetic mean (integers in double). Empty: NaN.
SINTER_REDUCTION(mean, mean)
#undef SINTER_REDUCTION

namespace detail {
/// sinter::all(x) / all(x, axes) / all(x, axes, keepdims): every element true.
template <class... Y>
struct reduction_entry<all_tag, Y...> {
  template <class... X>
  static auto call(X&&... x) {
    return all_elements(std::forward<X>(x)...);
  }
};

/// var (or std) from the moments: m2 / max(n - ddof, 0), as NumPy, so ddof
/// >= n gives inf, or NaN where m2 is 0 too (an empty lane, one element).
template <bool Sqrt, class A>
SINTER_HD A finish_variance(const reduce_ops::moments<A>& m, int ddof) {
  const A dof = m.count - static_cast<A>(ddof);
  const A v = m.m2 / (dof > A(0) ? dof : A(0));
  if constexpr (Sqrt) return math::impl::sqrt(v);
  else return v;
}

/// finish of var (Sqrt = false) and std (true) with a ddof, as a functor a device can run.
template <bool Sqrt, class V>
struct variance_finish {
  int ddof;
  template <class A>
  SINTER_HD floating_t<V> operator()(const reduce_ops::moments<A>& m, index_t) const {
    return static_cast<floating_t<V>>(finish_variance<Sqrt>(m, ddof));
  }
};
}  // namespace detail

/// Variance, numpy's var(x, ddof=0) by default; one pass (Chan/Welford).
/// Divides by max(n - ddof, 0): ddof >= n gives inf (NaN if the values are equal); empty: NaN.
template <expression X>
auto var(X&& x, int ddof = 0) {
  using V = detail::value_of_t<X>;
  using Op = detail::reduce_ops::variance<false>;
  return static_cast<floating_t<V>>(detail::finish_variance<false>(detail::reduce_all<Op>(std::forward<X>(x)), ddof));
}
/// Variance along axes.
template <expression X, std::size_t N>
auto var(X&& x, const axes_t<N>& ax, int ddof = 0) {
  using V = detail::value_of_t<X>;
  return detail::reduce_along<detail::reduce_ops::variance<false>, floating_t<V>, false>(
      std::forward<X>(x), ax, detail::variance_finish<false, V>{ddof});
}
/// Variance along axes, keeping them.
template <expression X, std::size_t N>
auto var(X&& x, const axes_t<N>& ax, keepdims_t, int ddof = 0) {
  using V = detail::value_of_t<X>;
  return detail::reduce_along<detail::reduce_ops::variance<false>, floating_t<V>, true>(
      std::forward<X>(x), ax, detail::variance_finish<false, V>{ddof});
}
/// Standard deviation, sqrt(var(x, ddof)).
template <expression X>
auto std(X&& x, int ddof = 0) {
  using V = detail::value_of_t<X>;
  using Op = detail::reduce_ops::variance<true>;
  return static_cast<floating_t<V>>(detail::finish_variance<true>(detail::reduce_all<Op>(std::forward<X>(x)), ddof));
}
/// Standard deviation along axes.
template <expression X, std::size_t N>
auto std(X&& x, const axes_t<N>& ax, int ddof = 0) {
  using V = detail::value_of_t<X>;
  return detail::reduce_along<detail::reduce_ops::variance<true>, floating_t<V>, false>(
      std::forward<X>(x), ax, detail::variance_finish<true, V>{ddof});
}
/// Standard deviation along axes, keeping them.
template <expression X, std::size_t N>
auto std(X&& x, const axes_t<N>& ax, keepdims_t, int ddof = 0) {
  using V = detail::value_of_t<X>;
  return detail::reduce_along<detail::reduce_ops::variance<true>, floating_t<V>, true>(
      std::forward<X>(x), ax, detail::variance_finish<true, V>{ddof});
}

namespace detail {
/// dot's shape check: shape_error naming both shapes when the lengths differ.
inline void check_dot_lengths(const extents<1>& a, const extents<1>& b) {
  if (a[0] != b[0])
    throw shape_error("dot: shapes " + shape_string(a) + " and " + shape_string(b) + " not aligned: " +
                      std::to_string(a[0]) + " != " + std::to_string(b[0]) + "; both operands need one length");
}
}  // namespace detail

/// Dot product of two 1-D operands, one fused pass: the sum of a[i] * b[i]
/// with each product formed in the sum's accumulator of promote_t<A, B>
/// (integers and bool in 64 bits, so uint8 or bool products do not wrap;
/// 16-bit floats in float). Result type: that of sum(a * b) (int64 / uint64
/// for integers and bool, the float type itself for floats, 16-bit floats
/// rounded once at the end). Operands of different lengths throw shape_error.
template <expression A, expression B>
auto dot(A&& a, B&& b) {
  static_assert(detail::expr_of_t<A>::rank == 1 && detail::expr_of_t<B>::rank == 1,
                "sinter::dot: both operands must be 1-D (use sum(a * b, axis(...)) otherwise)");
  // Lengths must match, as NumPy's "not aligned": a length of 1 does not broadcast.
  detail::check_dot_lengths(detail::as_operand(a).shape(), detail::as_operand(b).shape());
  using R = promote_t<detail::value_of_t<A>, detail::value_of_t<B>>;
  using Op = detail::reduce_ops::sum;
  using Acc = typename Op::template acc_t<R>;
  using Res = typename Op::template result_t<R>;
  using E = decltype(cast<Acc>(std::declval<A>()) * cast<Acc>(std::declval<B>()));
  using P = detail::concrete_policy_t<typename detail::expr_of_t<E>::policy_type>;
  // The first operand's own policy value (device and stream), else the
  // second's; read before the operands are moved into the expression.
  std::optional<P> own = detail::own_policy<P>(a);
  if (!own) own = detail::own_policy<P>(b);
  return static_cast<Res>(
      detail::reduce_all_on<Op>(own, "dot", cast<Acc>(std::forward<A>(a)) * cast<Acc>(std::forward<B>(b))));
}

namespace detail {

/// Checks norm's ord: 1, 2 or +INFINITY.
inline void check_norm_ord(double ord) {
  if (!(ord == 1 || ord == 2 || (std::isinf(ord) && ord > 0)))
    throw value_error("sinter::norm: ord must be 1, 2 or INFINITY, not " + std::to_string(ord));
}

/// finish of an axis norm, as a functor a device can run: the accumulated
/// sum of |x| or max |x| (Sqrt = false), or the square root of the sum of
/// squares (Sqrt = true), rounded once to the result type F.
template <class F, bool Sqrt>
struct norm_finish {
  template <class A>
  SINTER_HD F operator()(const A& a, index_t) const {
    if constexpr (Sqrt) return static_cast<F>(math::impl::sqrt(a));
    else return static_cast<F>(a);
  }
};

/// norm along axes: ord 2 sums x^2, ord 1 sums |x|, ord INFINITY takes max |x|,
/// all in compute_t<F> (float for 16-bit floats, double for integers and bool).
template <bool Keep, std::size_t N, class X>
auto norm_along(X&& x, double ord, const axes_t<N>& ax) {
  using F = floating_t<value_of_t<X>>;
  using C = compute_t<F>;
  using P = concrete_policy_t<typename expr_of_t<X>::policy_type>;
  check_norm_ord(ord);
  const std::optional<P> own = own_policy<P>(x);
  if (ord == 2)
    return reduce_along_on<reduce_ops::sum, F, Keep>(own, "norm", sinter::square(sinter::cast<C>(std::forward<X>(x))),
                                                     ax, norm_finish<F, true>{});
  if (ord == 1)
    return reduce_along_on<reduce_ops::sum, F, Keep>(own, "norm", sinter::abs(sinter::cast<C>(std::forward<X>(x))), ax,
                                                     norm_finish<F, false>{});
  return reduce_along_on<reduce_ops::max, F, Keep>(own, "norm", sinter::abs(sinter::cast<C>(std::forward<X>(x))), ax,
                                                   norm_finish<F, false>{});
}

}  // namespace detail

/// Vector norm of all elements, as numpy.linalg.norm of a 1-D array: ord 2
/// (default, Euclidean: sqrt of the sum of squares), 1 (sum of |x|) or
/// INFINITY (max |x|). One fused pass, a host value. Result type floating_t
/// (float for float, double for integers and bool, half for half), computed
/// in compute_t of it (16-bit floats in float) and rounded once. NaN
/// propagates. ord INFINITY of an empty array throws value_error, as numpy;
/// ord 1 and 2 of it are 0.
template <expression X>
auto norm(X&& x, double ord = 2) {
  using F = floating_t<detail::value_of_t<X>>;
  using C = compute_t<F>;
  using P = detail::concrete_policy_t<typename detail::expr_of_t<X>::policy_type>;
  detail::check_norm_ord(ord);
  const std::optional<P> own = detail::own_policy<P>(x);
  using detail::reduce_all_on;
  namespace ro = detail::reduce_ops;
  if (ord == 2)
    return static_cast<F>(
        std::sqrt(reduce_all_on<ro::sum>(own, "norm", sinter::square(sinter::cast<C>(std::forward<X>(x))))));
  if (ord == 1)
    return static_cast<F>(reduce_all_on<ro::sum>(own, "norm", sinter::abs(sinter::cast<C>(std::forward<X>(x)))));
  return static_cast<F>(reduce_all_on<ro::max>(own, "norm", sinter::abs(sinter::cast<C>(std::forward<X>(x)))));
}

/// Vector norm along axes, as numpy.linalg.norm(x, ord, axis): ord 2
/// (Euclidean), 1 (sum of |x|) or INFINITY (max |x|) of each lane; an array
/// of the operand's policy, result type as the full norm. One fused pass
/// over the input: the square root of ord 2 is taken in the reduction's
/// finish step as each output is written, so there is no second pass over
/// the result. ord INFINITY along an empty axis throws value_error (when
/// there are outputs), as numpy.
template <expression X, std::size_t N>
auto norm(X&& x, double ord, const axes_t<N>& ax) {
  return detail::norm_along<false>(std::forward<X>(x), ord, ax);
}
/// Vector norm along axes, keeping them as extent 1 (for broadcasting:
/// `x / sinter::norm(x, 2, sinter::axis(1), sinter::keepdims)` normalises rows).
template <expression X, std::size_t N>
auto norm(X&& x, double ord, const axes_t<N>& ax, keepdims_t) {
  return detail::norm_along<true>(std::forward<X>(x), ord, ax);
}
/// Euclidean (ord 2) norm along axes.
template <expression X, std::size_t N>
auto norm(X&& x, const axes_t<N>& ax) {
  return detail::norm_along<false>(std::forward<X>(x), 2.0, ax);
}
/// Euclidean (ord 2) norm along axes, keeping them as extent 1.
template <expression X, std::size_t N>
auto norm(X&& x, const axes_t<N>& ax, keepdims_t) {
  return detail::norm_along<true>(std::forward<X>(x), 2.0, ax);
}

}  // namespace sinter
