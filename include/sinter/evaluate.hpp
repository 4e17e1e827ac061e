#pragma once
/// \file evaluate.hpp
/// The assignment entry: check shapes, bind the expression to the
/// destination's shape, detect harmful aliasing, run one pass on the policy's
/// backend, and record it for the trace.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>
#include <type_traits>

#include "describe.hpp"
#include "expression.hpp"
#include "policy/backend.hpp"
#include "policy/host/lagged.hpp"
#include "trace.hpp"

namespace sinter::detail {

/// Lowest and one-past-highest byte a strided leaf touches.
template <class T, std::size_t R, bool D>
SINTER_FORCEINLINE std::pair<std::uintptr_t, std::uintptr_t> byte_range(const memory_leaf<T, R, D>& l) {
  index_t lo = 0, hi = 0;
  for (std::size_t d = 0; d != R; ++d) {
    if (l.shape[d] == 0) return {0, 0};
    const index_t span = (l.shape[d] - 1) * l.strides[d];
    if (span < 0) lo += span;
    else hi += span;
  }
  const auto base = reinterpret_cast<std::uintptr_t>(l.ptr);
  return {base + static_cast<std::uintptr_t>(lo * static_cast<index_t>(sizeof(T))),
          base + static_cast<std::uintptr_t>((hi + 1) * static_cast<index_t>(sizeof(T)))};
}

/// Whether leaf `n` (or any leaf under node `n`) overlaps the output's
/// bytes [olo, ohi) with a different index mapping.
template <class T, std::size_t R, class Node>
bool overlaps_output(const memory_leaf<T, R>& out, std::uintptr_t olo, std::uintptr_t ohi, const Node& n);
template <class T, std::size_t R, class Node, std::size_t... I>
bool children_overlap_output(const memory_leaf<T, R>& out, std::uintptr_t olo,
                                                std::uintptr_t ohi, const Node& n, std::index_sequence<I...>) {
  return (false || ... || overlaps_output(out, olo, ohi, get<I>(n.args)));
}
template <class T, std::size_t R, class Node>
bool overlaps_output(const memory_leaf<T, R>& out, std::uintptr_t olo, std::uintptr_t ohi, const Node& n) {
  if constexpr (requires { n.args; }) {
    return children_overlap_output(out, olo, ohi, n, std::make_index_sequence<pack_size_v<decltype(n.args)>>{});
  } else if constexpr (is_memory_leaf<Node>::value) {
    const auto [lo, hi] = byte_range(n);
    if (lo >= ohi || olo >= hi) return false;
    bool same = static_cast<const void*>(n.ptr) == static_cast<const void*>(out.ptr) &&
                sizeof(typename Node::value_type) == sizeof(T);
    for (std::size_t d = 0; same && d < R; ++d) same = out.shape[d] == 1 || n.strides[d] == out.strides[d];
    return !same;
  } else if constexpr (requires { n.gen.touches(olo, ohi); }) {
    return n.gen.touches(olo, ohi);  // a generator reading memory (roll, pad, concatenate, take)
  } else {
    return false;
  }
}

/// Whether evaluating `bound` into `out` element by element could read an
/// element after it was overwritten: some input overlaps the output with a
/// different index mapping. Same mapping (`a = a * 2`) is safe.
template <class T, std::size_t R, class Node>
bool needs_temporary(const memory_leaf<T, R>& out, const Node& bound) {
  const auto [olo, ohi] = byte_range(out);
  if (olo == ohi) return false;
  return overlaps_output(out, olo, ohi, bound);
}

/// needs_temporary for a pass that assign runs in its caller: the output
/// is `rows` contiguous rows of `len` from `out` (one row of n for a
/// contiguous pass, backend<host>::inline_ok; a matrix's rows for
/// inline_rows_ok), each leaf reads rows of `len` at stride K (1 there; 2
/// for assign_bound's direct step-2 pass, one row), one `strides[0]` after
/// the other (negative or 0 too). A memory leaf is harmful when its bytes
/// overlap the output's without the output's mapping (same address,
/// element size and row stride, and K = 1).
/// Forced inline with no loop, for assign's inline path: out of line it
/// takes the tree by reference (store forwarding: docs/design.md#store-forwarding);
/// the general needs_temporary forced inline there cost more compile time
/// (docs/journal/code-notes.md#rows-overlap).
template <index_t K = 1, class T, class Node>
SINTER_FORCEINLINE bool rows_overlap(const T* out, index_t rows, index_t len, const Node& node);
template <index_t K, class T, class Node, std::size_t... I>
SINTER_FORCEINLINE bool children_rows_overlap(const T* out, index_t rows, index_t len, const Node& node,
                                              std::index_sequence<I...>) {
  return (false || ... || rows_overlap<K>(out, rows, len, get<I>(node.args)));
}
template <index_t K, class T, class Node>
SINTER_FORCEINLINE bool rows_overlap(const T* out, index_t rows, index_t len, const Node& node) {
  if constexpr (requires { node.args; }) {
    return children_rows_overlap<K>(out, rows, len, node, std::make_index_sequence<pack_size_v<decltype(node.args)>>{});
  } else if constexpr (is_memory_leaf<Node>::value) {
    using U = typename Node::value_type;
    index_t step = len;  // the leaf's row stride; one row: the output's own
    if constexpr (Node::rank >= 2) step = rows > 1 ? node.strides[0] : len;
    const index_t reach = (rows - 1) * step;  // the last row's start
    const auto olo = reinterpret_cast<std::uintptr_t>(out), p = reinterpret_cast<std::uintptr_t>(node.ptr);
    const auto ohi = olo + static_cast<std::uintptr_t>(rows * len) * sizeof(T);
    const auto lo = p - static_cast<std::uintptr_t>(reach < 0 ? -reach : 0) * sizeof(U);
    const auto hi = p + static_cast<std::uintptr_t>((reach > 0 ? reach : 0) + (len - 1) * K + 1) * sizeof(U);
    return lo < ohi && olo < hi && !(K == 1 && p == olo && sizeof(U) == sizeof(T) && step == len);
  } else if constexpr (requires { node.gen.touches(std::uintptr_t{}, std::uintptr_t{}); }) {
    const auto olo = reinterpret_cast<std::uintptr_t>(out);
    return node.gen.touches(olo, olo + static_cast<std::uintptr_t>(rows * len) * sizeof(T));
  } else {
    return false;
  }
}

/// Appends `text` to `s` (out of line: one copy per program).
SINTER_NOINLINE void append_text(std::string& s, const char* text) { s += text; }

/// Fold together adjacent axes that the output and every leaf traverse as
/// one, innermost first, so the strided loop runs fewer, longer rows (and a
/// pass over, say, full rows of a matrix becomes contiguous).
template <class T, std::size_t R, class Node>
Node collapse_from(memory_leaf<T, R>& out, const Node& bound, std::size_t d) {
  // Returns by value instead of assigning: user functors (nvcc's extended
  // lambdas) may be copy-constructible but not assignable.
  for (; d-- > 0;)
    if (out.mergeable(d) && bound.mergeable(d)) {
      out = out.merged(d);
      return collapse_from(out, bound.merged(d), d);
    }
  return bound;
}
/// Builds a pass's record from its parts and emits it (trace.hpp; out of
/// line: one copy per program).
SINTER_NOINLINE void emit_pass(std::string policy, std::string expression, index_t elements, std::size_t bytes_read,
                               std::size_t bytes_written, double seconds, std::string detail) {
  pass_record r;
  r.policy = std::move(policy);
  r.expression = std::move(expression);
  r.elements = elements;
  r.bytes_read = bytes_read;
  r.bytes_written = bytes_written;
  r.seconds = seconds;
  r.detail = std::move(detail);
  emit(r);
}

/// A traced pass as evaluate_pass hands it to the record (describe.hpp):
/// plain values and pointers, so that the per-expression part of a record
/// is a few stores and a call.
struct pass_notes {
  const char* out_dtype;
  const index_t* out_shape;
  std::size_t out_rank;
  const char* pattern;
  const leaf_note* leaves;
  std::size_t leaf_count;
  index_t elements;
  std::size_t bytes_written;
  double seconds;
};

/// Builds and emits the record of a pass (out of line: one copy per program).
SINTER_NOINLINE void emit_noted_pass(std::string policy, const pass_notes& n, std::string& path) {
  std::string expression;
  append_leaf_label(expression, n.out_dtype, n.out_shape, n.out_rank);
  expression += " = ";
  append_pattern(expression, n.pattern, n.leaves);
  emit_pass(std::move(policy), std::move(expression), n.elements, noted_bytes(n.leaves, n.leaf_count),
            n.bytes_written, n.seconds, std::move(path));
}

/// emit_noted_pass with P's label (one copy per policy).
template <class P>
SINTER_COLD SINTER_NOINLINE void emit_policy_pass(const P& pol, const pass_notes& n, std::string& path) {
  emit_noted_pass(backend<P>::label(pol), n, path);
}

/// evaluate_pass while a trace is active: runs the pass, timed, and emits
/// its record. Cold, one per expression: the pass's call, the leaves' notes
/// (describe.hpp) and a call.
template <class P, class T, std::size_t R, class Node, class Bound>
SINTER_COLD SINTER_NOINLINE void evaluate_traced(const P& pol, const memory_leaf<T, R>& out, const Bound& bound,
                                                 const extents<R>& out_shape, const Node& node) {
  const auto t0 = std::chrono::steady_clock::now();
  std::string path;
  backend<P>::evaluate(pol, out, bound, &path);
  const auto t1 = std::chrono::steady_clock::now();
  leaf_note leaves[pattern_of<Node>::leaves + 1]{};
  note_leaves(node, leaves);
  const index_t n = shape_size(out.shape);
  const pass_notes notes{dtype_name<std::remove_const_t<T>>(), out_shape.data(), R, pattern_of<Node>::text.data(),
                         leaves, pattern_of<Node>::leaves, n, static_cast<std::size_t>(n) * sizeof(T),
                         std::chrono::duration<double>(t1 - t0).count()};
  emit_policy_pass(pol, notes, path);
}

/// Evaluate the (collapsed) pass `out = bound` on `pol`, recording it for
/// the trace when one is active; `out_shape` and `node` are what the user
/// wrote, for the record.
template <class P, class T, std::size_t R, class Node, class Bound>
void evaluate_pass(const P& pol, const memory_leaf<T, R>& out, const Bound& bound, const extents<R>& out_shape,
                   const Node& node) {
  if (!trace_active()) {
    backend<P>::evaluate(pol, out, bound, nullptr);
    return;
  }
  evaluate_traced(pol, out, bound, out_shape, node);
}

/// The order of the axes (of extent above 1) in which a pass writes the
/// output's memory forwards as far as a reordering can (NumPy's K order):
/// by decreasing |stride|, ties and axes of extent 1 left in place. Returns
/// whether it differs from the axes' own order (a transposed output).
template <std::size_t R>
bool output_order(const extents<R>& shape, const extents<R>& strides, extents<R>& perm) {
  const auto key = [&](index_t d) { return strides[static_cast<std::size_t>(d)] < 0 ? -strides[static_cast<std::size_t>(d)] : strides[static_cast<std::size_t>(d)]; };
  std::size_t pos[R == 0 ? 1 : R], m = 0;
  for (std::size_t d = 0; d != R; ++d) {
    perm[d] = static_cast<index_t>(d);
    if (shape[d] > 1) pos[m++] = d;
  }
  bool moved = false;
  for (std::size_t i = 1; i < m; ++i) {  // insertion sort of the axes at pos[], stable
    const index_t a = perm[pos[i]];
    std::size_t k = i;
    for (; k > 0 && key(perm[pos[k - 1]]) < key(a); --k) perm[pos[k]] = perm[pos[k - 1]];
    if (k != i) moved = true;
    perm[pos[k]] = a;
  }
  return moved;
}

/// Run `out = node` as one pass on policy `pol`; `bound` is node bound to
/// out's shape (the caller has it already for the alias check). The output
/// leaf and the bound node are copied (and their axes collapsed) only when
/// a rank >= 2 pass is not contiguous (store forwarding:
/// docs/design.md#store-forwarding). A pass into a
/// transposed output whose operands are all transposed alike
/// (`transpose(b) = transpose(a) * 2`) runs in the output's memory order
/// (output_order), where it is contiguous. Not otherwise: with row-major
/// operands, reordering made the operands' reads strided instead of the
/// output's writes, which cost more (docs/journal/code-notes.md#output-order).
template <class P, class T, std::size_t R, class Node, class Bound>
void run_bound_pass(const P& pol, const memory_leaf<T, R>& out, const Node& node, const Bound& bound) {
  if constexpr (R >= 2) {
    // A row-major output is in its memory order already (output_order would
    // return false): the test skips the sort on the common strided pass, a
    // broadcast or a strided operand into an array
    // (docs/journal/code-notes.md#output-order).
    const bool out_unit = out.unit();
    if (!(out_unit && bound.unit())) {
      extents<R> perm;
      if (!out_unit && output_order(out.shape, out.strides, perm)) {
        const memory_leaf<T, R> ordered = out.permuted(perm);
        const Bound reordered = bound.permuted(perm);
        if (ordered.unit() && reordered.unit()) {
          evaluate_pass(pol, ordered, reordered, out.shape, node);
          return;
        }
      }
      if (any_mergeable(out, bound)) {
        memory_leaf<T, R> folded = out;
        const Bound collapsed = collapse_from(folded, bound, R - 1);
        evaluate_pass(pol, folded, collapsed, out.shape, node);
        return;
      }
    }
  }
  evaluate_pass(pol, out, bound, out.shape, node);
}

/// Run `out = node` (node not yet bound) as one pass on policy `pol`.
template <class P, class T, std::size_t R, class Node>
void run_pass(const P& pol, const memory_leaf<T, R>& out, const Node& node) {
  run_bound_pass(pol, out, node, node.bind(out.shape));
}

/// The general path of assign: `bound` is e's node bound to out's shape. If
/// it reads the output's memory through a different index mapping, it is
/// evaluated into a temporary first (two passes, one allocation), unless
/// host or par takes it by lagged rows (a fixed offset: a stencil). A small
/// untraced rank-1 pass whose leaves all read at stride 2 runs the step-2
/// loop straight away where the backend offers it (direct_step2_ok), after
/// rows_overlap<2>. That check sits here, not in assign: inlined into the
/// caller, it grew every pass of views (their trees may take the step-2
/// loop), and a contiguous triad of 1024 floats on views lost 10-25%.
template <class P, class T, std::size_t R, class Node, class Bound>
SINTER_NOINLINE void assign_bound(const P& pol, const memory_leaf<T, R>& out, const Node& node, const Bound& bound) {
  if constexpr (R == 1 && requires { backend<P>::run_direct_step2(out, bound); }) {
    if (backend<P>::direct_step2_ok(out, bound) && !trace_active() && !rows_overlap<2>(out.ptr, 1, out.shape[0], bound)) {
      backend<P>::run_direct_step2(out, bound);
      return;
    }
  }
  if (needs_temporary(out, bound)) {
    if constexpr (lagged_route_v<P, Bound>) {  // a fixed offset along the rows: policy/host/lagged.hpp
      lagged_plan plan;
      if (lagged_fits(out, bound, plan)) {
        evaluate_pass(lagged_pass<P>{pol, plan}, out, bound, out.shape, node);
        return;
      }
    }
    scratch<T, P> tmp(pol, shape_size(out.shape));
    const memory_leaf<T, R> t{tmp.ptr, out.shape, row_major_strides(out.shape)};
    run_pass(pol, t, node);
    run_pass(pol, out, memory_leaf<const T, R, true>{tmp.ptr, t.shape, t.strides});
    return;
  }
  run_bound_pass(pol, out, node, bound);
}

/// Throws assign's shape_error (out of line: the check stays small).
template <std::size_t RF, std::size_t RT>
[[noreturn]] SINTER_NOINLINE void throw_no_assign(const char* what, extents<RF> from, extents<RT> to) {
  throw shape_error(std::string(what) + ": cannot broadcast shape " + shape_string(from) + " to " +
                    shape_string(to));
}

/// Whether `out = bound` runs in assign's caller (see assign): the backend
/// offers an inline path that takes this pass (backend<host>::inline_ok,
/// which takes contiguous passes only), no trace is active, and the output
/// overlaps no input.
template <class P, class T, std::size_t R, class Bound>
SINTER_FORCEINLINE bool runs_inline(const memory_leaf<T, R>& out, const Bound& bound) {
  if constexpr (requires { backend<P>::inline_ok(out, bound); })
    return backend<P>::inline_ok(out, bound) && !trace_active() &&
           !rows_overlap(out.ptr, 1, shape_size(out.shape), bound);
  else
    return false;
}

/// `out = e` with numpy broadcasting of e to out's shape. Forced inline
/// so that a contiguous host pass runs without copying the node tree:
/// the tree built by the caller's operators stays in registers up to the
/// loop's cursor (store forwarding: docs/design.md#store-forwarding). Small
/// untraced passes that the backend runs here: contiguous, and a matrix by
/// rows read at stride 1. Every other pass takes the general path,
/// assign_bound.
template <class P, class T, std::size_t R, class E>
SINTER_FORCEINLINE void assign(const P& pol, const memory_leaf<T, R>& out, const E& e, const char* what = "assign") {
  static_assert(!std::is_const_v<T>, "sinter: cannot assign to a view of const elements");
  // The pass runs on the output's policy P; the expression's may differ
  // within one memory space (a par expression into a host array).
  static_assert(mixable_v<typename E::policy_type, P>,
                "sinter: operands live on different devices: move one with sinter::to<P>(x)");
  if (!broadcasts_to(e.shape(), out.shape)) [[unlikely]]
    throw_no_assign(what, e.shape(), out.shape);
  if constexpr (requires { backend<P>::assign_distributed(pol, out, e); }) {  // a distributed output: mpi/dist_array.hpp
    backend<P>::assign_distributed(pol, out, e);
    return;
  }
  if constexpr (requires { assign_joined(pol, out, e.node(), e.shape()); }) {  // a bare concatenation: join.hpp
    if (assign_joined(pol, out, e.node(), e.shape())) return;
  }
  if constexpr (requires { assign_product(pol, out, e); }) {  // a pending matrix product: linalg_fused.hpp
    if (assign_product(pol, out, e)) return;
  }
  const auto bound = e.node().bind(out.shape);
  if constexpr (requires { backend<P>::run_inline(out, bound); }) {
    if (runs_inline<P>(out, bound)) {
      backend<P>::run_inline(out, bound);
      return;
    }
  }
  if constexpr (R == 2 && requires { backend<P>::run_inline_rows(out, bound); }) {
    if (backend<P>::inline_rows_ok(out, bound) && !trace_active() &&
        !rows_overlap(out.ptr, out.shape[0], out.shape[1], bound)) {
      backend<P>::run_inline_rows(out, bound);
      return;
    }
  }
  // The general path gets copies of the policy and the output leaf: handing
  // it the caller's (a member of the view or array being assigned, and a
  // leaf built from its members) by reference made the caller keep the
  // whole view in memory, a stall on every call, inline path included
  // (store forwarding: docs/design.md#store-forwarding;
  // docs/journal/code-notes.md#assign-copies).
  const P p = pol;
  const memory_leaf<T, R> o = out;
  assign_bound(p, o, e.node(), bound);
}

}  // namespace sinter::detail
