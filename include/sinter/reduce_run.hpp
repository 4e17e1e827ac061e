#pragma once
/// \file reduce_run.hpp
/// How a reduction runs (reduce.hpp is the include point): the axes
/// arguments (axis, axes, keepdims), the CPU reducers reducer<host> and
/// reducer<par> over reduce/host_engine.hpp, the policy value a reduction
/// runs on, the empty-input check, the trace record, and the two drivers,
/// detail::reduce_all (a full reduction) and detail::reduce_along (axes).
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

}  // namespace sinter
